// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The boundary between pith-stamp and the children that read the PDF for it
// (examine.hpp): every message they send, on base/wire (a tag and a version
// per message, strict decoding: docs/fuzzing.md, `stamp_examine_wire`). The
// children parse a hostile PDF, so the parent reads what they send as hostile
// too: enums by a table of names, hashes as 64 hex digits, text within bounds,
// nothing after the last field.
//
// - The examining worker (examine.cpp: one process that parses the PDF once)
//   is asked ExamineRequests: `read` (answered by an ExamineRead), `plan`
//   with the record (an ExamineRead with the outcome), then `pages` (a
//   PageTextRun: its share of the pages fingerprinted) and `finish` with the
//   original's hash and the pages' fingerprint (an ExaminePlan), each answer
//   framed (base/wire append_framed), and at last `check` what was written
//   (a WrittenChecked or an error); after `read`, `facts` (pith-check's
//   PdfFacts, pdf/facts.hpp) when pith-stamp needs pith-check's word on the
//   file. The parent acts on the plan's outcome (starts copying, starts
//   drawing page 1, hashes the original) while the worker reads the pages'
//   text. In place of any it may send an error (base/wire
//   encode_error_message).
// - The child drawing page 1 sends a PageOneDrawn (with the other share of
//   the pages read).
#include "pith/base/error.hpp"
#include "pith/pdf/page_fingerprint.hpp"
#include "pith/pdf/page_image.hpp"
#include "pith/pdf/stamp.hpp"
#include "pith/registry/title.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::stamp {

// What the PDF names and, with a record, whether the plan stamps.
struct ExamineRead {
  std::optional<std::string> number;             // the number the user wants (text, parsed by the parent)
  std::string from;                              // where it was found
  std::vector<registry::TitleCandidate> titles;  // the PDF's title metadata
  std::optional<pdf::StampOutcome> outcome;      // with a record: the plan's
  std::optional<pdf::PdfRect> badge_rect;        // with a plan that adds a badge: where
};

// The rest of the plan, with the update's bytes last.
struct ExaminePlan {
  std::string original_sha256;  // 64 lower-case hex digits; empty when nothing is written
  std::uint64_t original_length = 0;
  std::vector<std::string> notes;
  std::vector<std::string> warnings;
  std::vector<std::string> page_lines;  // page 1's text, when it was needed
  std::optional<std::string> previous_number;
  std::optional<std::uint64_t> pages;  // the original's page count
  std::optional<pdf::PdfRect> badge_rect;
  std::optional<pdf::PageFingerprint> page_one;  // drawn by the planning child (no parent to draw it)
  std::string update;
};

// The examining child's whole answer.
struct ExamineAnswer {
  ExamineRead read;
  std::optional<ExaminePlan> plan;  // present exactly when read.outcome is
};

// What pith-stamp asks its examining worker.
// facts: what pith-check's parsing child would send for the PDF (the
// pith-pdf-facts wire, pdf/facts.hpp), answered as it is, unframed: the
// parent judges it as pith-check does (stamp/file_judgement.hpp).
enum class ExamineAsk { read, plan, pages, finish, check, facts };
struct ExamineRequest {
  ExamineAsk ask = ExamineAsk::read;
  // read: whether to look for a number page 1 prints when the metadata
  // names none (false: the .tex beside, which outranks it, names one).
  bool printed_number_wanted = true;
  // plan: the record's document (verified again by the worker, with the
  // run's trust store: only a verification makes a record) and --force's
  // stamping again over a stamp pith-check does not call verified.
  std::string document;
  bool restamp = false;
  // pages: which share of the pages to read (pdf::PageShare).
  pdf::PageShare share;
  // finish: page 1 drawn by the worker (no parent draws it beside), the
  // original's SHA-256 as this process hashed it (64 lower-case hex digits;
  // empty: the plan writes nothing) and the pages' fingerprint as this
  // process joined it (pdf::PageFingerprints::to_property; empty: none).
  bool draw_page_one = false;
  std::string original_sha256;
  std::string page_text_sha256;
  // check: the file written (empty: the original and the update in one
  // view, for -o -), the name messages give it, and the original's page 1
  // as drawn (nothing drawn: no picture to keep).
  std::string written_path;
  std::string name;
  std::optional<pdf::PageFingerprint> page_one;
};

// Page 1 as poppler drew it, or nothing drawn; and the share of the pages
// the drawing child read (none: not asked, or not read).
struct PageOneDrawn {
  std::optional<pdf::PageFingerprint> page_one;
  std::optional<pdf::PageTextRun> pages;
};

inline constexpr std::string_view examine_read_tag = "pith-stamp-read";
inline constexpr std::string_view examine_plan_tag = "pith-stamp-plan";
inline constexpr std::string_view page_one_tag = "pith-stamp-page-one";
inline constexpr std::string_view examine_request_tag = "pith-stamp-request";
inline constexpr std::string_view written_checked_tag = "pith-stamp-written-checked";
inline constexpr std::string_view pages_read_tag = "pith-stamp-pages-read";
inline constexpr std::uint64_t examine_wire_version = 1;

// A text field's bound (a title, a note, a line of page 1, a number as written).
inline constexpr std::size_t max_examine_text_bytes = std::size_t{1} << 20;

[[nodiscard]] std::string encode(const ExamineRead& read);
[[nodiscard]] std::string encode(const ExaminePlan& plan);
[[nodiscard]] std::string encode(const PageOneDrawn& drawn);
[[nodiscard]] std::string encode_written_checked();
[[nodiscard]] std::string encode(const pdf::PageTextRun& pages);
[[nodiscard]] std::string encode(const ExamineRequest& request);
// In the worker: the request, or why it is malformed.
[[nodiscard]] Result<ExamineRequest> decode_examine_request(std::string_view message);

// The examining child's answer: the framed messages, whole. An error the
// child sent is returned as it sent it; a malformed answer is an Error of
// kind internal at `input` ("reading the PDF sent back a malformed result (...)").
[[nodiscard]] Result<ExamineAnswer> decode_examine_answer(std::string_view sent, std::string_view input);
// The first message of an answer still arriving, once it is whole and is an
// ExamineRead with an outcome; nullopt otherwise (the whole answer decides).
[[nodiscard]] std::optional<ExamineRead> decode_early_read(std::string_view received);
// Nothing drawn for anything but a well-formed PageOneDrawn (then there is
// no picture to keep, as when poppler cannot draw page 1).
[[nodiscard]] PageOneDrawn decode_page_one(std::string_view sent);
// The checking child's answer: the check passed, or its Error.
[[nodiscard]] Result<void> decode_written_checked(std::string_view sent, std::string_view input);
// The answer to `pages`: the run read (hashes in hex, no more than
// pdf::PageFingerprintLimits' pages), or the Error.
[[nodiscard]] Result<pdf::PageTextRun> decode_pages_read(std::string_view sent, std::string_view input);

}  // namespace pith::stamp
