// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/reader.hpp"
#include "pith/pdf/update.hpp"
#include "support/pdf_samples.hpp"

#include <catch2/catch.hpp>

#include <podofo/base/PdfName.h>
#include <podofo/base/PdfString.h>

using pith::pdf::ObjectId;
using pith::pdf::Reader;
using pith::pdf::UpdateObject;

namespace {

PoDoFo::PdfObject dict_with(const char* key, const std::string& value) {
  PoDoFo::PdfDictionary d;
  d.AddKey(PoDoFo::PdfName(key), PoDoFo::PdfString(value));
  return PoDoFo::PdfObject(d);
}

// Objects past the file's size, out of order and with gaps (so the section
// groups subsections), one of them a stream.
std::vector<UpdateObject> scattered_objects(std::uint32_t n) {
  std::vector<UpdateObject> objects;
  for (std::uint32_t k : {n + 2, n, n + 1, n + 7})
    objects.push_back(UpdateObject{ObjectId{k, 0}, dict_with("K", "v" + std::to_string(k)), std::nullopt});
  objects.push_back(UpdateObject{ObjectId{n + 3, 0}, dict_with("Type", "x"), std::string("stream\nbytes")});
  return objects;
}

// What scattered_objects(n) wrote reads back from `after`: a dictionary and the stream.
void check_scattered_objects_read(const Reader& after, std::uint32_t n) {
  auto obj = after.object(ObjectId{n + 7, 0});
  REQUIRE(obj);
  REQUIRE(obj->IsDictionary());
  CHECK(obj->GetDictionary().GetKey(PoDoFo::PdfName("K"))->GetString().GetStringUtf8() == "v" + std::to_string(n + 7));
  auto s = after.stream(ObjectId{n + 3, 0});
  REQUIRE(s);
  CHECK(s->data == "stream\nbytes");
}

}  // namespace

TEST_CASE("update: classic section with grouped subsections, 20-byte entries, /Prev and /Size") {
  const std::string original = pith::test::require_sample(pith::test::SamplePdf::classic);
  auto base = Reader::open(original, "paper.pdf");
  REQUIRE(base);
  REQUIRE_FALSE(base->newest_section_is_stream());
  const std::uint32_t n = base->size();
  const std::vector<UpdateObject> objects = scattered_objects(n);
  auto update = pith::pdf::build_incremental_update(*base, objects, {*base->root_id(), base->info_id()});
  REQUIRE(update);

  const auto xref = update->find("\nxref\n");
  REQUIRE(xref != std::string::npos);
  const auto trailer = update->find("trailer\n", xref);
  const std::string table = update->substr(xref + 6, trailer - xref - 6);
  // Objects n..n+3 in one subsection, n+7 in another; each entry 20 bytes.
  const std::string first_sub = std::to_string(n) + " 4\n";
  REQUIRE(table.starts_with(first_sub));
  const auto second_sub = table.find(std::to_string(n + 7) + " 1\n");
  REQUIRE(second_sub == first_sub.size() + 4 * 20);
  CHECK(table.size() == second_sub + (std::to_string(n + 7) + " 1\n").size() + 20);
  CHECK(table.substr(first_sub.size() + 18, 2) == "\r\n");

  const std::string tail = update->substr(trailer);
  CHECK(tail.find("/Prev " + std::to_string(base->startxref())) != std::string::npos);
  CHECK(tail.find("/Size " + std::to_string(n + 8)) != std::string::npos);
  CHECK(tail.ends_with("%%EOF\n"));

  // The result reads back: every new object at its offset, the old ones too.
  const std::string combined = original + *update;
  auto after = Reader::open(combined, "after.pdf");
  REQUIRE(after);
  check_scattered_objects_read(*after, n);
  CHECK(after->catalog());
  CHECK(after->first_page());

  // Deterministic.
  auto again = pith::pdf::build_incremental_update(*base, objects, {*base->root_id(), base->info_id()});
  REQUIRE(again);
  CHECK(*again == *update);
}

TEST_CASE("update: after a cross-reference stream, a cross-reference stream that lists itself") {
  const std::string original = pith::test::require_sample(pith::test::SamplePdf::pdflatex);
  auto base = Reader::open(original, "paper.pdf");
  REQUIRE(base);
  REQUIRE(base->newest_section_is_stream());
  const auto pages = base->page_count();
  REQUIRE(pages);
  const std::uint32_t n = base->size();
  const std::vector<UpdateObject> objects = scattered_objects(n);
  auto update = pith::pdf::build_incremental_update(*base, objects, {*base->root_id(), base->info_id()});
  REQUIRE(update);
  CHECK(update->find("\nxref\n") == std::string::npos);
  CHECK(update->find("trailer") == std::string::npos);
  // The stream is object n+8 (the next free number): /Size n+9, and its
  // /Index lists n..n+3 and n+7..n+8 (itself).
  const auto self = update->find(std::to_string(n + 8) + " 0 obj\n");
  REQUIRE(self != std::string::npos);
  const std::string dict = update->substr(self, update->find("stream", self) - self);
  CHECK(dict.find("/Type /XRef") != std::string::npos);
  CHECK(dict.find("/Size " + std::to_string(n + 9)) != std::string::npos);
  CHECK(dict.find("/Prev " + std::to_string(base->startxref())) != std::string::npos);
  CHECK(dict.find("/Index [ " + std::to_string(n) + " 4 " + std::to_string(n + 7) + " 2 ]") != std::string::npos);
  CHECK(dict.find("/Filter") == std::string::npos);
  CHECK(update->ends_with("startxref\n" + std::to_string(original.size() + self) + "\n%%EOF\n"));

  const std::string written = original + *update;
  CHECK(pith::pdf::check_written_update(written, "paper.pdf", original.size(), *pages));
  auto after = Reader::open(written, "after.pdf");
  REQUIRE(after);
  CHECK(after->newest_section_is_stream());
  CHECK(after->size() == n + 9);
  check_scattered_objects_read(*after, n);
  CHECK(after->first_page());  // objects in the original's object streams still read

  // Deterministic.
  auto again = pith::pdf::build_incremental_update(*base, objects, {*base->root_id(), base->info_id()});
  REQUIRE(again);
  CHECK(*again == *update);

  SECTION("the written check refuses a row that points beside its object") {
    std::string shifted = written;
    shifted.insert(original.size() + 1, " ");
    CHECK_FALSE(pith::pdf::check_written_update(shifted, "bad.pdf", original.size(), *pages));
  }
}

TEST_CASE("update: refuses duplicate or zero object numbers and empty updates") {
  const std::string original = pith::test::require_sample(pith::test::SamplePdf::classic);
  auto base = Reader::open(original, "classic.pdf");
  REQUIRE(base);
  const pith::pdf::UpdateTrailer t{*base->root_id(), base->info_id()};
  CHECK_FALSE(pith::pdf::build_incremental_update(*base, {}, t));
  std::vector<UpdateObject> dup = {UpdateObject{ObjectId{5, 0}, dict_with("A", "1"), std::nullopt},
                                   UpdateObject{ObjectId{5, 0}, dict_with("A", "2"), std::nullopt}};
  CHECK_FALSE(pith::pdf::build_incremental_update(*base, dup, t));
  std::vector<UpdateObject> zero = {UpdateObject{ObjectId{0, 0}, dict_with("A", "1"), std::nullopt}};
  CHECK_FALSE(pith::pdf::build_incremental_update(*base, zero, t));
}

TEST_CASE("update: a file without a final end-of-line gets one before the update") {
  const std::string original = pith::test::require_sample(pith::test::SamplePdf::no_info);
  REQUIRE(original.back() == 'F');
  auto base = Reader::open(original, "noinfo.pdf");
  REQUIRE(base);
  std::vector<UpdateObject> one = {UpdateObject{ObjectId{base->size(), 0}, dict_with("A", "1"), std::nullopt}};
  auto update = pith::pdf::build_incremental_update(*base, one, {*base->root_id(), std::nullopt});
  REQUIRE(update);
  CHECK(update->front() == '\n');
  CHECK(update->find("/Info") == std::string::npos);
  CHECK(update->find("/ID [") != std::string::npos);  // made, since the file had none
  auto after = Reader::open(original + *update, "after.pdf");
  REQUIRE(after);
  CHECK(after->object(ObjectId{base->size(), 0}));
}

TEST_CASE("update: a file with bytes before %PDF- gets offsets counted from the header, and passes the written check") {
  const std::string original = "\n" + pith::test::require_sample(pith::test::SamplePdf::classic);
  auto base = Reader::open(original, "shifted.pdf");
  REQUIRE(base);
  REQUIRE(base->offset_base() == 1);
  const auto pages = base->page_count();
  REQUIRE(pages);
  std::vector<UpdateObject> objects{UpdateObject{ObjectId{base->size(), 0}, dict_with("K", "v"), std::nullopt}};
  auto update = pith::pdf::build_incremental_update(*base, objects, {*base->root_id(), base->info_id()});
  REQUIRE(update);
  const std::string written = original + *update;
  CHECK(pith::pdf::check_written_update(written, "shifted.pdf", original.size(), *pages));
  // The entry names the object's offset from the header, not from byte 0.
  const std::size_t object_at = written.find(std::to_string(base->size()) + " 0 obj", original.size());
  char entry[32];
  std::snprintf(entry, sizeof entry, "%010zu 00000 n", object_at - 1);
  CHECK(update->find(entry) != std::string::npos);

  SECTION("the written check refuses what readers would call damaged") {
    // Offsets counted from byte 0 (the bug this check stops): off by one.
    std::string off_by_one = written;
    off_by_one.insert(original.size() + 1, " ");
    auto bad = pith::pdf::check_written_update(off_by_one, "bad.pdf", original.size(), *pages);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("the written") != std::string::npos);
    // A different page count.
    CHECK_FALSE(pith::pdf::check_written_update(written, "shifted.pdf", original.size(), *pages + 1));
    // No new section after the original.
    CHECK_FALSE(pith::pdf::check_written_update(original, "shifted.pdf", original.size(), *pages));
  }
}

TEST_CASE("update: a reader that rebuilt damaged cross-reference data gets no update, but the repair command") {
  std::string damaged = pith::test::require_sample(pith::test::SamplePdf::classic);
  damaged.replace(damaged.rfind("startxref"), std::string::npos, "startxref\n-1\n%%EOF\n");
  pith::pdf::ReaderLimits limits;
  limits.recover_damaged_xref = true;
  auto base = Reader::open(damaged, "damaged.pdf", limits);
  REQUIRE(base);
  REQUIRE(base->recovered());
  std::vector<UpdateObject> objects{UpdateObject{ObjectId{base->size(), 0}, dict_with("K", "v"), std::nullopt}};
  auto update = pith::pdf::build_incremental_update(*base, objects, {*base->root_id(), base->info_id()});
  REQUIRE_FALSE(update);
  CHECK(update.error().message.find("qpdf damaged.pdf repaired.pdf") != std::string::npos);
}
