// SPDX-License-Identifier: GPL-3.0-or-later
// The shape memory (issue 34): what OCR confirmed of glyph outlines, kept
// and shared through a file, and what it may decide (only ever confirm).
#include "pith/base/report.hpp"
#include "pith/check/drawn_title.hpp"
#include "pith/check/shape_memory.hpp"
#include "pith/check/visible.hpp"
#include "pith/pdf/page_text.hpp"
#include "pith/registry/title.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace pith;

namespace {

constexpr const char* title =
    "Layered gradient accumulation and modular pipeline parallelism: fast and efficient training of large "
    "language models";

std::string key_for(char c) { return std::string(32, c); }

// Page 1 showing `shown` (the text layer) on one line told by its glyphs'
// outlines: one glyph a character of `drawn` (each keyed by the character it
// draws), claiming the character of `shown` at the same place.
pdf::PageText page_with(const std::string& shown, const std::string& drawn) {
  pdf::PageText page = pdf::PageText::all_seen({shown});
  pdf::LineShapes line{true, {}};
  for (std::size_t i = 0; i < shown.size() && i < drawn.size(); ++i) {
    if (shown[i] == ' ') continue;
    const std::string key = key_for(drawn[i]);
    auto at = std::find(page.shape_keys.begin(), page.shape_keys.end(), key);
    if (at == page.shape_keys.end()) at = page.shape_keys.insert(page.shape_keys.end(), key);
    line.glyphs.push_back({static_cast<std::uint32_t>(at - page.shape_keys.begin()), std::string(1, shown[i])});
  }
  page.shapes.push_back(std::move(line));
  return page;
}

nlohmann::json record_with(const std::string& t) {
  return {{"source", {{"kind", "arxiv"}, {"id", "2106.02679"}, {"version", 1}}},
          {"metadata", {{"title_canon_sha256", registry::title_canon_sha256(t)}}}};
}

struct Judged {
  Report report;
  int reads = 0;  // how often OCR was asked
};

// The visible bindings of `page` against the record of `title`, with an OCR
// that reads `ocr` (or fails when it is empty: the model is not installed),
// over the file's bytes when `bytes_at_hand` (else it can read nothing).
Judged judge(const pdf::PageText& page, const std::vector<std::string>& ocr, bool bytes_at_hand = true) {
  Judged out;
  out.report.trust_anchor("receipt.signature.valid");
  out.report.requires_content_binding = true;
  nlohmann::json bindings;
  int* reads = &out.reads;
  check::check_visible_bindings(
      page, record_with(title), out.report, bindings,
      [&ocr, reads, bytes_at_hand](const std::vector<pdf::Box>&, pdf::ReadMode mode) -> Result<std::vector<std::string>> {
        if (!bytes_at_hand) return fail(ErrorKind::internal, "glyph check", "the bytes are gone");
        if (mode == pdf::ReadMode::available) return std::vector<std::string>{};
        ++*reads;
        if (ocr.empty()) return fail(ErrorKind::internal, "glyph check", "no OCR here");
        return ocr;
      });
  return out;
}

struct ScratchFile {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("pith-shape-memory-" + std::to_string(::getpid())) / "shape-memory";
  ScratchFile() { std::filesystem::remove_all(path.parent_path()); }
  ~ScratchFile() { std::filesystem::remove_all(path.parent_path()); }
};

}  // namespace

TEST_CASE("confirmed glyphs: only letters read as themselves, with nothing read in beside them", "[shapes]") {
  using V = std::vector<bool>;
  CHECK(check::confirmed_glyphs({"c", "a", "t", "s"}, "cats") == V{true, true, true, true});
  CHECK(check::confirmed_glyphs({"c", "a", "t", "s"}, "cots") == V{true, false, true, true});    // a read as o
  CHECK(check::confirmed_glyphs({"c", "a", "t", "s"}, "caxts") == V{true, false, false, true});  // x read in between
  CHECK(check::confirmed_glyphs({"c", "a", "t", "s"}, "cts") == V{true, false, true, true});     // a not read
  CHECK(check::confirmed_glyphs({"fi", "n", "e"}, "fine") == V{true, true, true});               // a ligature
  CHECK(check::confirmed_glyphs({"fi", "n", "e"}, "fne") == V{false, true, true});
  // A glyph that claims no letters (punctuation) is confirmed only when OCR read none there.
  CHECK(check::confirmed_glyphs({"a", "", "b"}, "ab") == V{true, true, true});
  CHECK(check::confirmed_glyphs({"a", "", "b"}, "acb") == V{false, false, false});
  CHECK(check::confirmed_glyphs({std::string(check::max_aligned_letters + 1, 'a')},
                                std::string(check::max_aligned_letters + 1, 'a')) == V{false});
}

TEST_CASE("the shape memory: taught keys, two ways taught, a file shared and hostile lines", "[shapes]") {
  check::ShapeMemory memory;
  memory.learn({{key_for('a'), "a"}, {key_for('f'), "fi"}, {"short", "x"}, {key_for('u'), "UPPER"}});
  CHECK(memory.letters_of(key_for('a')) == "a");
  CHECK(memory.letters_of(key_for('f')) == "fi");
  CHECK_FALSE(memory.letters_of(key_for('u')));  // not the comparable form: never taught
  CHECK(memory.size() == 2);
  memory.learn({{key_for('a'), "o"}});  // taught two ways: known as neither
  CHECK_FALSE(memory.letters_of(key_for('a')));

  const ScratchFile scratch;
  check::ShapeMemory writer(scratch.path), reader(scratch.path);
  reader.refresh();  // no file yet: nothing, no error
  CHECK(reader.size() == 0);
  writer.learn({{key_for('b'), "b"}, {key_for('c'), "c"}});
  reader.refresh();
  CHECK(reader.letters_of(key_for('b')) == "b");
  CHECK(reader.letters_of(key_for('c')) == "c");
  CHECK((std::filesystem::status(scratch.path).permissions() & std::filesystem::perms::group_read) ==
        std::filesystem::perms::none);
  {  // lines no memory writes are passed over; a line still being written is read once whole
    std::ofstream out(scratch.path, std::ios::app);
    out << "not a key line\n" << std::string(64, 'G') << " g\n" << std::string(64, 'd') << " Dd\n";
    out << std::string(64, 'e') << " " << std::string(check::ShapeMemory::max_letters + 1, 'e') << "\n";
    out << std::string(64, 'a') << " pa";  // no newline yet
  }
  reader.refresh();
  CHECK(reader.size() == 2);
  { std::ofstream(scratch.path, std::ios::app) << "rt\n"; }
  reader.refresh();
  CHECK(reader.letters_of(std::string(32, '\xAA')) == "part");
  // Replaced by a shorter file: read afresh.
  std::string hex_z;
  for (int i = 0; i < 32; ++i) hex_z += "7a";
  { std::ofstream(scratch.path, std::ios::trunc) << hex_z << " z\n"; }
  reader.refresh();
  CHECK(reader.size() == 1);
  CHECK(reader.letters_of(key_for('z')) == "z");
  CHECK_FALSE(reader.letters_of(key_for('b')));
}

TEST_CASE("a title read from the shape memory: only once OCR taught every glyph, never against OCR", "[shapes]") {
  check::use_shape_memory_file({});  // this process's memory, empty
  const pdf::PageText honest = page_with(title, title);
  {  // nothing known: OCR reads it, and teaches the memory
    const Judged first = judge(honest, {title});
    CHECK(first.reads == 1);
    CHECK(first.report.verdict() == Verdict::verified);
    CHECK(check::shape_memory().size() > 10);
  }
  {  // every glyph known: read without OCR (an OCR that fails is not asked), the same report
    const Judged second = judge(honest, {});
    CHECK(second.reads == 0);
    CHECK(second.report.verdict() == Verdict::verified);
    const Judged by_ocr = [&] {
      check::use_shape_memory_file({});
      return judge(honest, {title});
    }();
    CHECK(second.report.find("pdf.title.glyphs_match")->detail == by_ocr.report.find("pdf.title.glyphs_match")->detail);
  }
  {  // where OCR could not read the lines (their bytes gone), the memory does not stand in
    (void)judge(honest, {title});
    const Judged gone = judge(honest, {title}, false);
    CHECK(gone.report.verdict() == Verdict::unbound);
    REQUIRE(gone.report.find("pdf.title.glyphs_unread"));
  }
  {  // another paper's glyphs under the record's letters: memory knows them as other letters, OCR decides
    const std::string other = "Cats and their discontents: a study of feline moods in cities and of the dogs that chase them";
    check::use_shape_memory_file({});
    (void)judge(honest, {title});  // memory taught the honest glyphs
    const pdf::PageText lying = page_with(title, other);
    const Judged forged = judge(lying, {other});
    CHECK(forged.reads >= 1);
    CHECK(forged.report.verdict() == Verdict::failed);
    REQUIRE(forged.report.find("pdf.title.glyphs_mismatch"));
    // and with no OCR at hand it never binds
    CHECK(judge(lying, {}).report.verdict() != Verdict::verified);
  }
  {  // a mismatched reading teaches nothing; a line not told is OCR's
    check::use_shape_memory_file({});
    (void)judge(honest, {"Cats and their discontents"});
    CHECK(check::shape_memory().size() == 0);
    pdf::PageText untold = honest;
    untold.shapes[0] = {false, {}};
    (void)judge(untold, {title});
    CHECK(check::shape_memory().size() == 0);
    CHECK(judge(untold, {}).reads == 1);
  }
  check::use_shape_memory_file({});
}
