// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A fingerprint of every page's text (issue 22, "rewrites you can tell
// apart"): pith-stamp records one SHA-256 per page of the text the paper
// had when it was stamped (XMP pith:pageTextSha256, carrier/vocabulary.hpp);
// after a full rewrite (qpdf, pikepdf, "save as") pith-check reads the pages
// again and says whether the text is unchanged or on which pages it changed.
//
// The rule (docs/pdf-stamping.md, "Page text fingerprints"), version 1:
//   1. a page's text is poppler's text layer in content-stream order
//      (TextOutputDev with rawOrder: pdftotext -raw), as UTF-8 (an invalid sequence
//      becomes U+FFFD);
//   2. NFKC (utf8proc): ligatures, compatibility and composed forms agree;
//   3. white space (Unicode White_Space) is left out altogether: where an
//      extractor puts word and line breaks is its own guess (kerning gaps,
//      poppler's version), the characters drawn and their order are the page's;
//   4. SHA-256 of those bytes, lower-case hex.
// The property value is `pith-text-1 <pages> <hex> <hex> …`: the document's
// page count, then one hash per page from page 1, as many as the limits let
// be read (PageFingerprintLimits: a longer or heavier document's later pages
// are not fingerprinted, and the count of hashes says where it stopped).
//
// It is NOT signed: anyone who edits a page can write the new hashes. It
// tells a re-save from a naive edit, never from a determined forger.
#include "pith/base/error.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::pdf {

inline constexpr std::string_view page_text_rule = "pith-text-1";

// How much of a document is read, bounded so that a stamp (and a check
// after a rewrite) costs what a paper's pages cost, whatever a hostile page
// holds. The work is the content-stream operators poppler runs, counted by
// an untimed pdf::DrawBudget (poppler_document.hpp), not timed, so that the
// same file always gets the same fingerprint (pith-stamp's output is
// deterministic). A lipsum page is about 400 operators.
struct PageFingerprintLimits {
  std::size_t max_pages = 200;                         // pages fingerprinted; later ones are not
  std::size_t max_text_bytes = std::size_t{16} << 20;  // all pages' text together; then stop
  std::uint64_t max_page_operators = 2'200'000;        // one page (0.3 s): past it, the page and later ones are not fingerprinted
  std::uint64_t max_operators = 11'000'000;            // all pages together (about 1.5 s); then stop
};

struct PageFingerprints {
  std::uint64_t page_count = 0;     // pages in the document
  std::vector<std::string> sha256;  // lower-case hex, one per page from page 1 (at most the limits)
  // Page 1's hash once an arXiv-style watermark line (`arXiv:ID [cat] D Mon
  // YYYY`, as arXiv prints down the margin) is taken out of its text; empty
  // when page 1 has none. A stamped paper watermarked later still reads as
  // unchanged (the watermark itself is judged by pdf.arxiv.*).
  std::string page_one_without_watermark;
  std::optional<std::string> problem;  // why the pages could not be read

  // The XMP value: `pith-text-1 <pages> <hex>…`.
  [[nodiscard]] std::string to_property() const;
  // Strict: the rule tag, a decimal page count, 0 < hashes <= pages, each a
  // lower-case hex SHA-256, single spaces.
  [[nodiscard]] static Result<PageFingerprints> from_property(std::string_view value);
  friend bool operator==(const PageFingerprints&, const PageFingerprints&) = default;
};

// Steps 1-3 of the rule for one page's extracted text.
[[nodiscard]] std::string normalise_page_text(std::string_view text);

// Every page's fingerprint of the PDF in `bytes` (a complete file), within
// `limits`. A PDF poppler cannot open gives `problem`; never throws.
[[nodiscard]] PageFingerprints fingerprint_pages(std::string_view bytes, const PageFingerprintLimits& limits = {});

// A run of pages fingerprinted, for reading one document's pages in two
// processes at once (pith-stamp: the examining worker and the child that
// draws page 1) and joining them as fingerprint_pages would have read them.
struct PageTextRun {
  std::uint64_t page_count = 0;          // pages in the document
  std::uint64_t first_page = 1;          // 1-based: sha256[0] is this page's
  std::vector<std::string> sha256;       // one per page read, in order
  std::vector<std::uint64_t> text_bytes; // each page's extracted text, as limits.max_text_bytes counts it
  std::vector<std::uint64_t> work;       // each page's operators, as limits.max_operators counts them
  std::optional<std::string> problem;    // why the run could not be read
  friend bool operator==(const PageTextRun&, const PageTextRun&) = default;
};

// Which pages a run reads: a share of the pages fingerprint_pages reads
// (the first min(page_count, max_pages)). `share` 0 of 2 is the first half,
// 1 of 2 the rest. Two shares read by processes that have other work too
// (pith-stamp's examining worker reads page 1's lines, the child beside it
// draws page 1) are split so that both end together: `head` is each one's
// other work in pages' worth, and the share with less of it reads more
// pages. The first share still holds page 1 whenever a page is read.
struct PageShare {
  unsigned index = 0;
  unsigned of = 1;
  std::array<unsigned, 2> head{0, 0};  // of 2 only; at most max_share_head each
};
inline constexpr unsigned max_share_head = 1000;

// The pages of `share` fingerprinted, within `limits` (a run stops once
// its own text or operators pass the limit: the whole document's pass it no
// later; and before a page past max_page_operators).
[[nodiscard]] PageTextRun fingerprint_page_share(std::string_view bytes, PageShare share,
                                                 const PageFingerprintLimits& limits = {});

// Runs (in page order) joined under `limits` as one reading of the pages
// would be: the pages up to the first gap or a run's problem, no more than
// max_pages, each begun while the text and the operators before it were
// under max_text_bytes and max_operators.
[[nodiscard]] PageFingerprints join_page_runs(const std::vector<PageTextRun>& runs,
                                              const PageFingerprintLimits& limits = {});

// What a rewritten file's pages say against the stamped fingerprints.
struct PageTextComparison {
  std::uint64_t pages_compared = 0;
  std::vector<std::uint64_t> changed_pages;  // 1-based
  bool page_count_changed = false;
  bool watermark_only_on_page_one = false;   // page 1 differs only by an arXiv-style watermark
  [[nodiscard]] bool unchanged() const { return changed_pages.empty() && !page_count_changed; }
};
[[nodiscard]] PageTextComparison compare_page_text(const PageFingerprints& stamped, const PageFingerprints& now);

}  // namespace pith::pdf
