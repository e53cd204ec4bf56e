// SPDX-License-Identifier: GPL-3.0-or-later
// base/wire: the binary messages between pith's processes round-trip every
// byte, and a hostile message (cut short, lying lengths and counts, bad flags,
// trailing bytes, another tag) is a named problem, never a crash or a huge
// allocation.
#include "pith/base/wire.hpp"

#include "pith/base/fd_io.hpp"

#include <catch2/catch.hpp>
#include <limits>
#include <string>
#include <unistd.h>

using pith::WireReader;
using pith::WireWriter;

namespace {

std::string sample() {
  WireWriter w("t/1");
  w.bytes(std::string("a\0b\xff", 4));
  w.count(UINT64_MAX);
  w.flag(true);
  w.optional_bytes(std::nullopt);
  w.optional_bytes(std::string("x"));
  w.optional_count(7);
  w.bytes_list({"one", "", "three"});
  w.counts({1, 2, 3});
  return w.take();
}

}  // namespace

TEST_CASE("wire fields round-trip in order", "[wire]") {
  const std::string message = sample();
  WireReader r(message, "t/1");
  CHECK(r.bytes("a") == std::string("a\0b\xff", 4));
  CHECK(r.count("b") == UINT64_MAX);
  CHECK(r.flag("c"));
  CHECK_FALSE(r.optional_bytes("d"));
  CHECK(r.optional_bytes("e") == std::optional<std::string>("x"));
  CHECK(r.optional_count("f") == std::optional<std::uint64_t>(7));
  CHECK(r.bytes_list("g") == std::vector<std::string>{"one", "", "three"});
  CHECK(r.counts("h") == std::vector<std::uint64_t>{1, 2, 3});
  CHECK_FALSE(r.finish());
}

TEST_CASE("a hostile wire message is a named problem", "[wire]") {
  const std::string good = sample();
  const auto problem_of = [](const std::string& message) {
    WireReader r(message, "t/1");
    (void)r.bytes("a");
    (void)r.count("b");
    (void)r.flag("c");
    (void)r.optional_bytes("d");
    (void)r.optional_bytes("e");
    (void)r.optional_count("f");
    (void)r.bytes_list("g");
    (void)r.counts("h");
    return r.finish();
  };
  CHECK_FALSE(problem_of(good));
  SECTION("cut short at every length") {
    for (std::size_t keep = 0; keep < good.size(); ++keep) {
      CAPTURE(keep);
      CHECK(problem_of(good.substr(0, keep)));
    }
  }
  SECTION("bytes after the last field") { CHECK(*problem_of(good + "z") == "1 bytes follow the last field"); }
  SECTION("another tag") {
    WireWriter w("u/1");
    CHECK(*problem_of(w.take()) == "it is not a t/1 message");
    CHECK(*problem_of("{\"json\": true}") == "it is not a t/1 message");
  }
  SECTION("a length past the end, a count no message could hold, a flag that is not 0 or 1") {
    WireWriter lying_length("t/1");
    lying_length.count(UINT64_MAX);  // the length of field a
    CHECK(*problem_of(lying_length.take()) == "a is longer than the message");

    WireWriter lying_count("t/1");
    lying_count.bytes("");
    lying_count.count(0);
    lying_count.flag(false);
    lying_count.flag(false);
    lying_count.flag(false);
    lying_count.flag(false);
    lying_count.count(std::uint64_t{1} << 60);  // items of g: would reserve exabytes
    CHECK(*problem_of(lying_count.take()) == "g counts more items than the message holds");

    std::string bad_flag = good;
    bad_flag[8 + 3 + 8 + 4 + 8] = '\2';  // tag, a, b: then flag c
    CHECK(*problem_of(bad_flag) == "c is not a flag");
  }
}

namespace {

enum class Colour { red, green, blue };
constexpr pith::WireNames<Colour, 2> colour_names{{{Colour::red, "red"}, {Colour::green, "green"}}};

}  // namespace

TEST_CASE("a message's version, enums by name, bounds and reals are checked", "[wire]") {
  WireWriter w("t", 2);
  w.named(Colour::green, colour_names);
  w.real(-0.5);
  w.bytes("four");
  w.error(pith::Error{pith::ErrorKind::not_served, "x.pdf", "gone"});
  const std::string message = w.take();
  {
    WireReader r(message, "t", 2);
    CHECK(r.named("colour", colour_names) == Colour::green);
    CHECK(r.real("real") == -0.5);
    CHECK(r.bytes("text", 4) == "four");
    CHECK(r.error("error") == pith::Error{pith::ErrorKind::not_served, "x.pdf", "gone"});
    CHECK_FALSE(r.finish());
  }
  SECTION("another version") {
    WireReader r(message, "t", 1);
    CHECK(*r.finish() == "it is version 2 of t, this program reads version 1");
  }
  SECTION("a name outside the table") {
    WireWriter blue("t", 2);
    blue.named(Colour::blue, colour_names);  // not in the table: written as no name
    const std::string sent = blue.take();
    WireReader r(sent, "t", 2);
    (void)r.named("colour", colour_names);
    CHECK(*r.finish() == "colour names no value this program knows");
  }
  SECTION("a field past its bound") {
    WireReader r(message, "t", 2);
    (void)r.named("colour", colour_names);
    (void)r.real("real");
    CHECK(r.bytes("text", 3).empty());
    CHECK(*r.finish() == "text is longer than its bound of 3 bytes");
  }
  SECTION("a real that is not finite, a kind of error that is none") {
    WireWriter nan("t", 1);
    nan.real(std::numeric_limits<double>::quiet_NaN());
    const std::string sent = nan.take();
    WireReader r(sent, "t", 1);
    (void)r.real("real");
    CHECK(*r.finish() == "real is not a finite number");

    WireWriter kind("t", 1);
    kind.bytes("fatal");
    kind.bytes("");
    kind.bytes("");
    const std::string made_up = kind.take();
    WireReader k(made_up, "t", 1);
    (void)k.error("error");
    CHECK(*k.finish() == "error names no kind of error this program knows");
  }
}

TEST_CASE("framed messages come whole, one after another; an error is a message of its own", "[wire]") {
  std::string stream;
  pith::append_framed(stream, pith::encode_error_message(pith::Error{pith::ErrorKind::io, "a", "b"}));
  pith::append_framed(stream, "second");
  std::string_view rest = stream;
  const auto first = pith::take_framed(rest);
  REQUIRE(first);
  CHECK(pith::wire_tag(*first) == pith::error_message_tag);
  CHECK(pith::decode_error_message(*first) == pith::Error{pith::ErrorKind::io, "a", "b"});
  CHECK(pith::take_framed(rest) == std::string_view("second"));
  CHECK(rest.empty());
  std::string_view cut = std::string_view(stream).substr(0, stream.size() - 1);
  (void)pith::take_framed(cut);
  const std::string_view before = cut;
  CHECK_FALSE(pith::take_framed(cut));
  CHECK(cut == before);  // unchanged while cut short
  CHECK_FALSE(pith::decode_error_message("not a message"));
}

TEST_CASE("one framing on a descriptor: little-endian lengths, a message past its bound refused unread", "[wire]") {
  std::string framed;
  pith::append_framed(framed, "abc");
  CHECK(framed == std::string("\x03\0\0\0\0\0\0\0abc", 11));
  CHECK(pith::framed_length(framed) == 3u);
  CHECK(pith::frame_header(3) + "abc" == framed);
  CHECK_FALSE(pith::framed_length(std::string_view(framed).substr(0, pith::frame_header_bytes - 1)));

  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  REQUIRE(pith::write_framed(fds[1], "first"));
  REQUIRE(pith::write_framed(fds[1], "second, too long"));
  CHECK(pith::read_framed(fds[0], 8).value() == "first");
  const auto too_long = pith::read_framed(fds[0], 8);
  REQUIRE_FALSE(too_long);
  CHECK(too_long.error().kind == pith::ErrorKind::malformed);
  CHECK(too_long.error().message == "a message of 16 bytes, past its bound of 8");
  ::close(fds[1]);
  char rest[32];
  CHECK(::read(fds[0], rest, sizeof rest) == 16);  // its bytes were left unread
  const auto ended = pith::read_framed(fds[0], 8);
  REQUIRE_FALSE(ended);
  CHECK(ended.error().kind == pith::ErrorKind::io);
  ::close(fds[0]);
}
