// SPDX-License-Identifier: GPL-3.0-or-later
// The crop of page 1 a rendering child sends (pdf/crop_wire.hpp): read back
// as sent, and every message a taken-over child could write that does not
// hold a crop of its size refused, naming the problem.
#include "pith/base/wire.hpp"
#include "pith/pdf/crop_wire.hpp"

#include <catch2/catch.hpp>

#include <string>

using pith::pdf::decode_page_crop;
using pith::pdf::encode_page_crop;
using pith::pdf::PageCrop;

namespace {

// A message of the crop wire with these fields, however wrong.
std::string crop_message(std::uint64_t width, std::uint64_t height, const std::string& rgb) {
  pith::WireWriter w(pith::pdf::page_crop_tag, pith::pdf::page_crop_wire_version);
  w.flag(true);
  w.count(width);
  w.count(height);
  w.bytes(rgb);
  return w.take();
}

}  // namespace

TEST_CASE("crop wire: a crop reads back as sent; a crop not rendered says why") {
  const PageCrop crop{3, 2, std::string(18, '\x7f')};
  const auto back = decode_page_crop(encode_page_crop(crop));
  REQUIRE(back);
  CHECK(back->width == 3);
  CHECK(back->height == 2);
  CHECK(back->rgb == crop.rgb);
  const auto none = decode_page_crop(encode_page_crop(pith::fail(pith::ErrorKind::io, "p.pdf", "no page 1")));
  REQUIRE_FALSE(none);
  CHECK(none.error().kind == pith::ErrorKind::internal);  // the child's kind is not taken on trust
  CHECK(none.error().message == "page 1 could not be rendered: no page 1");
}

TEST_CASE("crop wire: a message that is not a crop of its size is refused") {
  const std::string six(6, '\0');
  CHECK(decode_page_crop(crop_message(2, 1, six)));
  for (const auto& [why, message] : std::initializer_list<std::pair<const char*, std::string>>{
           {"rows too short", crop_message(2, 1, std::string(5, '\0'))},
           {"rows too long", crop_message(2, 1, std::string(7, '\0'))},
           {"no width", crop_message(0, 1, "")},
           {"too wide", crop_message(4001, 1, std::string(4001 * 3, '\0'))},
           {"width past any int", crop_message(std::uint64_t{1} << 33, 1, six)},
           {"trailing bytes", crop_message(2, 1, six) + "x"},
           {"cut short", crop_message(2, 1, six).substr(0, 20)},
           {"the old ad-hoc wire", "2 1\n" + six},
           {"empty", ""}}) {
    INFO(why);
    const auto decoded = decode_page_crop(message);
    REQUIRE_FALSE(decoded);
    CHECK(decoded.error().message.find("malformed image") != std::string::npos);
  }
}
