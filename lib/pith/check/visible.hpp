// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The bindings of a verified record to a PDF: what ties the record to this
// document. Visible bindings: does page 1, as a reader sees it, show the
// paper the record names? The record hashes its title and abstract
// (metadata.title_canon_sha256, abstract_canon_sha256: registry/title.hpp);
// the text a reader sees on page 1 (pdf/page_text.hpp: seen_lines) is
// normalised and every span of consecutive lines is hashed the same way.
// arXiv's watermark (`arXiv:ID vN [cat] date` in the left margin, with a
// link to https://arxiv.org/abs/ID vN) names the arXiv version the PDF is;
// only its text, seen, binds: a link is invisible by nature and may be a
// citation, so it is a hint. The title metadata (XMP dc:title, Info /Title)
// is a hint too, judged beside them. The bindings' states go into
// details.bindings, the evidence crop comes from their regions.
//
// Pure functions of plain values: they run wherever the judging runs (the
// evidence crop excepted: it is rendered in a child, check/page_renders.hpp).
#include "pith/base/error.hpp"
#include "pith/base/report.hpp"
#include "pith/pdf/drawn_letters.hpp"
#include "pith/pdf/glyph_visibility.hpp"
#include "pith/pdf/page_text.hpp"
#include "pith/registry/title.hpp"
#include "pith/registry/visible_title.hpp"

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::check {

// --- Page 1 as a reader sees it ------------------------------------------------

// The span search lives with the title rule (registry/visible_title.hpp).
using registry::find_visible_abstract;
using registry::find_visible_span;
using registry::normalise_visible_text;
using registry::SpanSearch;
using registry::VisibleSpan;

// An arXiv identity on page 1.
struct ArxivSighting {
  std::string id;                 // 2106.02679 or hep-th/9901001
  std::optional<int> version;     // when written (v1)
  std::string where;              // "page 1 text 'arXiv:…'", "page 1 link 'https://arxiv.org/abs/…'"
  bool watermark = false;         // the margin text pattern (not a link that could be a citation)
  std::size_t line = 0;           // watermark: the index of its line
};
// arXiv's watermark text `arXiv:ID[vN] [cat]` in `lines`.
[[nodiscard]] std::vector<ArxivSighting> arxiv_watermarks(const std::vector<std::string>& lines);
// Links to arxiv.org/abs/ID[vN] (or /pdf/) among `uris`.
[[nodiscard]] std::vector<ArxivSighting> arxiv_links(const std::vector<std::string>& uris);

// --- Bindings: what ties the record to this document ------------------------

// Each binding of the record to the PDF (details.bindings, the human
// report's "bindings:" line): visible_title, visible_abstract,
// metadata_title, arxiv_id, stamped_bytes.
// hidden: in page 1's text layer, but a reader cannot see it.
enum class BindingState { match, mismatch, absent, undetermined, hidden };
[[nodiscard]] const char* to_string(BindingState state);
// One entry of details.bindings: {"state", "detail"}.
[[nodiscard]] nlohmann::json binding_json(BindingState state, std::string detail);

// The human report's binding lines, from report.extra["bindings"]:
// "  bindings (record ↔ this PDF): visible title match, metadata title absent, …"
// and, for verdict unbound, why. Empty when the report has no bindings.
[[nodiscard]] std::string bindings_text(const Report& report);

// --- Title binding (metadata: a hint) ---------------------------------------

// The metadata-title rule lives with the title's canonical form (registry/title.hpp).
using registry::bind_title;
using registry::PdfTitleBinding;
using registry::TitleCandidate;
using registry::TitleVerdict;

// Adds pdf.title.match (pass) / .mismatch (fail) / .undetermined (warn, or
// skip when the PDF has no title at all).
// With `stamped` (titles of the stamped revision, given only when later
// revisions exist): a mismatch whose stamped title matches is reported as
// pdf.title.changed_after_stamping (warn).
// Title metadata is a hint, never a content binding (issue 22: any tool
// writes any title there); a mismatch fails, unless `title_seen` (page 1
// shows the record's title: then the metadata is wrong, a warning). Returns
// the binding's state: absent when the PDF has no title.
BindingState check_title_binding(const std::vector<TitleCandidate>& candidates, const nlohmann::json& canonical_record,
                                 Report& report, const std::vector<TitleCandidate>* stamped = nullptr,
                                 bool title_seen = false);

// The letters drawn in lines of page 1 (their boxes, PageText's space), read
// from their pixels in a child (check/page_renders.hpp: read_drawn_letters
// over the file's bytes). Empty where the bytes are not at hand.
using DrawnReader = std::function<Result<std::vector<std::string>>(const std::vector<pdf::Box>&, pdf::ReadMode)>;

// The letters of `span`'s lines as the shape memory reads them
// (check/shape_memory.hpp), when it knows every glyph as the letters it
// claims and they match the span's text; nullopt: OCR must read them.
[[nodiscard]] std::optional<std::vector<std::string>> remembered_title_letters(const pdf::PageText& page,
                                                                              const VisibleSpan& span);

// The visible bindings of a record to page 1 as a reader sees it now
// (PageText::seen_lines; text a viewer hides never binds):
//   pdf.title.visible_match (pass, binds content) once the glyph check
//   (check/drawn_title.hpp, with `read`) passed: pdf.title.glyphs_match
//   (pass) / glyphs_mismatch (fail: the glyphs drawn are not the letters
//   the text layer claims) / glyphs_unread (warn: they could not be read,
//   and the title does not bind) / glyphs_unchecked (skip: a title mostly
//   outside the English model's letters binds as its text layer reads);
//   visible_hidden (warn: in
//   the text layer, not seen) / visible_not_found (warn) /
//   visible_undetermined (warn: no text could be read; skip: no title hash)
//   pdf.abstract.visible_match (pass, binds) / visible_hidden (warn) /
//   visible_not_found (skip)
//   pdf.arxiv.match (pass, binds: arXiv's watermark text, seen) /
//   other_version (warn, with the match: another version of the record's
//   paper) / mismatch (fail: a seen watermark names another paper) / hidden
//   (warn) / link_only (skip: a link is a hint) / absent (skip)
// and their states in `bindings` (visible_title, visible_abstract, arxiv_id;
// a match carries `region`: where on page 1 it is seen).
void check_visible_bindings(const pdf::PageText& page, const nlohmann::json& canonical_record, Report& report,
                            nlohmann::json& bindings, const DrawnReader& read);

// The metadata title's binding and what page 1 shows (`page`; null: it was
// not read), into `report` in that order and into details.bindings
// (`bindings`, moved there). Page 1 is judged first: a metadata title that
// is not the record's is a warning when page 1 shows the record's title.
void check_page_and_title(const pdf::PageText* page, const std::vector<TitleCandidate>& titles,
                          const nlohmann::json& canonical_record, const std::vector<TitleCandidate>* stamped,
                          Report& report, nlohmann::json& bindings, const DrawnReader& read);

// --- Evidence: where a reader sees the binding (issue 22) --------------------

struct EvidenceRegion {
  std::string binding;  // visible_title, visible_abstract or arxiv_id
  pdf::Box box;         // points from the top left of page 1 as shown
};

// The first binding of the report that matched and says where it was seen
// (visible title, then abstract, then arXiv watermark), or else a visible
// title whose glyphs are not its claimed letters (the crop shows what was
// read); nullopt otherwise.
[[nodiscard]] std::optional<EvidenceRegion> evidence_region(const Report& report);

// pith-serve: the PNG of the report's evidence region (check/page_renders.hpp)
// put into the report itself (details.evidence: binding, box, png_base64),
// for the page to show beside the verdict. Nothing when no binding says
// where it was seen; a render that fails leaves the report as it was.
void embed_evidence(Report& report, std::string_view pdf_bytes);

// For people: "the visible title" etc.
[[nodiscard]] std::string describe_binding(std::string_view binding);

}  // namespace pith::check
