// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/visible.hpp"

#include "pith/base/ascii.hpp"
#include "pith/base/check_codes.hpp"
#include "pith/base/crypto.hpp"
#include "pith/check/drawn_title.hpp"
#include "pith/check/shape_memory.hpp"
#include "pith/check/page_renders.hpp"
#include "pith/registry/documents.hpp"
#include "pith/registry/identifier.hpp"
#include "pith/registry/title.hpp"

#include <algorithm>
#include <regex>
#include <span>
#include <string_view>

namespace pith::check {
namespace {

// New-style ids (0704.0001 on) and old-style (hep-th/9901001).
const std::string& id_pattern() {
  static const std::string id = R"(((?:\d{4}\.\d{4,5})|(?:[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7}))(?:v(\d+))?)";
  return id;
}

std::optional<int> version_of(const std::smatch& m) {
  if (!m[2].matched || m[2].length() > 4) return std::nullopt;
  return std::stoi(m[2].str());
}

}  // namespace

// The patterns are compiled only for a text that holds their literal start
// ("arXiv:", "arxiv.org" in any case), which every match begins with or
// contains: most pages have neither, and compiling the two costs 0.5 ms of
// a check (issue 32).
std::vector<ArxivSighting> arxiv_watermarks(const std::vector<std::string>& lines) {
  std::vector<ArxivSighting> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string text = normalise_visible_text(lines[i]);
    if (text.find("arXiv:") == std::string::npos) continue;
    static const std::regex watermark("arXiv:" + id_pattern() + R"(\s*\[[^\]]{1,40}\])");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), watermark); it != std::sregex_iterator(); ++it) {
      out.push_back({(*it)[1].str(), version_of(*it), "page 1 text '" + it->str() + "'", true, i});
    }
  }
  return out;
}

std::vector<ArxivSighting> arxiv_links(const std::vector<std::string>& uris) {
  std::vector<ArxivSighting> out;
  for (const auto& uri : uris) {
    if (!contains_ascii_case_blind(uri, "arxiv.org")) continue;
    static const std::regex link(R"(^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/)" + id_pattern(), std::regex::icase);
    std::smatch m;
    if (std::regex_search(uri, m, link)) out.push_back({m[1].str(), version_of(m), "page 1 link '" + uri.substr(0, 120) + "'", false, 0});
  }
  return out;
}

// --- Bindings ---------------------------------------------------------------

const char* to_string(BindingState state) {
  switch (state) {
    case BindingState::match: return "match";
    case BindingState::mismatch: return "mismatch";
    case BindingState::absent: return "absent";
    case BindingState::undetermined: return "undetermined";
    case BindingState::hidden: return "hidden";
  }
  return "undetermined";
}

BindingState check_title_binding(const std::vector<TitleCandidate>& candidates, const nlohmann::json& canonical_record,
                                 Report& report, const std::vector<TitleCandidate>* stamped, bool title_seen) {
  const std::string expected = registry::read_record_metadata(canonical_record).title_canon_sha256;
  const auto binding = bind_title(candidates, expected);
  switch (binding.verdict) {
    case TitleVerdict::match:
      // Metadata is a hint: any tool writes any title there in one line
      // (exiftool -Title=...), and no viewer shows it as the paper.
      report.pass(check_code::pdf_title_match, binding.detail + " (metadata: a hint, not a binding; what binds is what page 1 shows)");
      return BindingState::match;
    case TitleVerdict::mismatch:
      if (stamped) {
        if (const auto then = bind_title(*stamped, expected); then.verdict == TitleVerdict::match) {
          report.warn(check_code::pdf_title_changed_after_stamping,
                      binding.detail + "; when stamped, " + then.detail + " (edited by a later revision)");
          return BindingState::undetermined;
        }
      }
      // Metadata is a hint: when page 1 shows the record's title, a wrong
      // metadata title is the producer's (acmart writes `\vspace{-10pt}`
      // of a \title into /Title as "-10pt..."), not a forgery: a warning.
      // With nothing seen, it fails: the PDF names another paper.
      if (title_seen) {
        report.warn(check_code::pdf_title_mismatch, binding.detail + "; page 1 shows the record's title, so the metadata is wrong");
      } else {
        report.fail(check_code::pdf_title_mismatch, binding.detail);
      }
      return BindingState::mismatch;
    case TitleVerdict::undetermined:
      // No title at all (none, or only empty ones) is not a finding about
      // this PDF's claim: skip. A placeholder or a foreign title is: warn.
      if (std::all_of(candidates.begin(), candidates.end(),
                      [](const TitleCandidate& c) { return registry::title_canon(c.title).empty(); })) {
        report.skip(check_code::pdf_title_undetermined, binding.detail);
        return expected.empty() ? BindingState::undetermined : BindingState::absent;
      }
      report.warn(check_code::pdf_title_undetermined, binding.detail);
      return BindingState::undetermined;
  }
  return BindingState::undetermined;
}

nlohmann::json binding_json(BindingState state, std::string detail) {
  return {{"state", to_string(state)}, {"detail", std::move(detail)}};
}

namespace {

// Whether page 1 shows the record's title (details.bindings.visible_title).
bool title_seen(const nlohmann::json& bindings) {
  const auto it = bindings.find("visible_title");
  return it != bindings.end() && it->value("state", "") == to_string(BindingState::match);
}

std::string describe_span(const VisibleSpan& span) {
  const std::string lines = span.line_count == 1 ? "line " + std::to_string(span.first_line + 1)
                                                 : "lines " + std::to_string(span.first_line + 1) + "-" +
                                                       std::to_string(span.first_line + span.line_count);
  return "page 1 " + lines + " " + registry::quoted_title(span.text);
}

// Where on page 1 lines [first, first + count) are (points from the top
// left of the page as shown): what pith-check --evidence renders.
nlohmann::json region_of(const pdf::PageText& page, std::size_t first, std::size_t count) {
  pdf::Box box;
  for (std::size_t i = first; i < first + count && i < page.boxes.size(); ++i) box = pdf::united(box, page.boxes[i]);
  if (box.area() <= 0) return nullptr;
  return {{"page", 1}, {"box", {box.x0, box.y0, box.x1, box.y1}}};
}

nlohmann::json bound_json(std::string detail, nlohmann::json region) {
  nlohmann::json out = binding_json(BindingState::match, std::move(detail));
  if (!region.is_null()) out["region"] = std::move(region);
  return out;
}

// The HiddenReason bits of lines [first, first + count).
std::uint8_t hidden_reasons(const pdf::PageText& page, std::size_t first, std::size_t count) {
  std::uint8_t mask = 0;
  for (std::size_t i = first; i < first + count && i < page.hidden.size(); ++i) mask |= page.hidden[i];
  return mask;
}

// The lines of `span` read by `read`, or why they could not be.
Result<std::vector<std::string>> read_span(const pdf::PageText& page, const VisibleSpan& span, const DrawnReader& read,
                                           pdf::ReadMode mode) {
  if (!read) return fail(ErrorKind::internal, "glyph check", "the file's bytes are not at hand to read its glyphs");
  if (span.line_count > pdf::max_drawn_lines || span.first_line + span.line_count > page.boxes.size())
    return fail(ErrorKind::internal, "glyph check", "the title's lines have no boxes to read");
  const auto first = page.boxes.begin() + static_cast<std::ptrdiff_t>(span.first_line);
  const std::vector<pdf::Box> boxes(first, first + static_cast<std::ptrdiff_t>(span.line_count));
  return read(boxes, mode);
}

std::string quoted_read(const std::vector<std::string>& lines) {
  std::string joined;
  for (const auto& l : lines) joined += (joined.empty() ? "" : " ") + l;
  return registry::quoted_title(joined);
}

// The span's lines read from the shape memory: each told by its glyphs'
// outlines, every glyph known as the letters it claims; nullopt when any is
// not (then OCR reads them).
std::optional<std::vector<std::string>> read_from_memory(const pdf::PageText& page, const VisibleSpan& span,
                                                         ShapeMemory& memory) {
  if (span.first_line + span.line_count > page.shapes.size()) return std::nullopt;
  memory.refresh();
  std::vector<std::string> read;
  for (std::size_t l = span.first_line; l < span.first_line + span.line_count; ++l) {
    const pdf::LineShapes& line = page.shapes[l];
    if (!line.told) return std::nullopt;
    std::string letters;
    for (const pdf::ShapedGlyph& g : line.glyphs) {
      const auto known = memory.letters_of(page.shape_keys[g.key]);
      if (!known || *known != comparable_letters(g.claimed)) return std::nullopt;
      letters += *known;
    }
    read.push_back(std::move(letters));
  }
  return read;
}

}  // namespace

std::optional<std::vector<std::string>> remembered_title_letters(const pdf::PageText& page, const VisibleSpan& span) {
  auto remembered = read_from_memory(page, span, shape_memory());
  if (!remembered || !drawn_matches(compare_drawn_title(span.text, *remembered))) return std::nullopt;
  return remembered;
}

namespace {

// What an OCR reading that matched teaches: the glyphs of each line told by
// its outlines that OCR read exactly as they claim.
void teach_memory(const pdf::PageText& page, const VisibleSpan& span, const std::vector<std::string>& read,
                  ShapeMemory& memory) {
  std::vector<std::pair<std::string, std::string>> taught;
  for (std::size_t i = 0; i < span.line_count && i < read.size(); ++i) {
    const std::size_t l = span.first_line + i;
    if (l >= page.shapes.size() || !page.shapes[l].told) continue;
    const auto& glyphs = page.shapes[l].glyphs;
    std::vector<std::string> claims;
    for (const pdf::ShapedGlyph& g : glyphs) claims.push_back(comparable_letters(g.claimed));
    const std::vector<bool> confirmed = confirmed_glyphs(claims, comparable_letters(read[i]));
    for (std::size_t k = 0; k < glyphs.size(); ++k) {
      if (confirmed[k]) taught.emplace_back(page.shape_keys[glyphs[k].key], claims[k]);
    }
  }
  memory.learn(taught);
}

struct TitleReading {
  Result<std::vector<std::string>> letters;
  DrawnComparison comparison;
};

// The title's drawn letters: from the shape memory when it knows every
// glyph (and they match), else by OCR, line mode and then, when that does
// not match, block mode (line mode misreads a text-layer line that joins two
// printed ones, at a hyphen: the closer reading kept); a matching OCR
// reading teaches the memory.
TitleReading read_title_glyphs(const pdf::PageText& page, const VisibleSpan& span, const DrawnReader& read) {
  if (const DrawnComparison claim_only = compare_drawn_title(span.text, {}); !claim_only.applicable)
    return {std::vector<std::string>{}, claim_only};  // not compared: nothing to read
  // The memory stands in for OCR only where OCR could read these lines:
  // where it could not, a title does not bind, whatever the memory knows.
  ShapeMemory& memory = shape_memory();
  if (read_span(page, span, read, pdf::ReadMode::available)) {
    if (auto remembered = remembered_title_letters(page, span)) return {*remembered, compare_drawn_title(span.text, *remembered)};
  }
  TitleReading reading{read_span(page, span, read, pdf::ReadMode::line), {}};
  if (!reading.letters) return reading;
  reading.comparison = compare_drawn_title(span.text, *reading.letters);
  if (reading.comparison.applicable && !drawn_matches(reading.comparison)) {
    if (auto block = read_span(page, span, read, pdf::ReadMode::block)) {
      if (const DrawnComparison b = compare_drawn_title(span.text, *block); b.distance < reading.comparison.distance) {
        reading = {std::move(block), b};
      }
    }
  }
  if (drawn_matches(reading.comparison)) teach_memory(page, span, *reading.letters, memory);
  return reading;
}

// The glyph check (issue 34): a title the text layer shows binds only when
// its drawn letters are the ones the text layer claims (check/drawn_title.hpp).
void bind_drawn_title(const pdf::PageText& page, const VisibleSpan& span, const DrawnReader& read, Report& report,
                      nlohmann::json& bindings) {
  const std::string where = describe_span(span);
  nlohmann::json region = region_of(page, span.first_line, span.line_count);
  TitleReading reading = read_title_glyphs(page, span, read);
  if (!reading.letters) {
    const std::string detail = where + " is the record's title in the text layer, but its glyphs could not be read (" +
                               reading.letters.error().message + "): the text layer's letters are the file's own claim, so "
                               "the title does not bind";
    report.warn(check_code::pdf_title_glyphs_unread, detail);
    bindings["visible_title"] = binding_json(BindingState::undetermined, detail);
    if (!region.is_null()) bindings["visible_title"]["region"] = std::move(region);
    return;
  }
  const DrawnComparison& c = reading.comparison;
  if (!c.applicable) {
    report.skip(check_code::pdf_title_glyphs_unchecked,
                "the record's title is mostly outside the English model's letters (or shorter than " +
                    std::to_string(min_compared_letters) + "): its glyphs are not compared, the text layer is taken as it reads");
  } else if (!drawn_matches(c)) {
    const std::string figures = std::to_string(c.distance) + " of " + std::to_string(c.compared) + " letters differ";
    const std::string detail = where + " is the record's title in the text layer, but its glyphs read " +
                               quoted_read(*reading.letters) + " (" + figures + "): the letters drawn are not the letters claimed";
    report.fail(check_code::pdf_title_glyphs_mismatch, detail);
    bindings["visible_title"] = binding_json(BindingState::mismatch, detail);
    if (!region.is_null()) bindings["visible_title"]["region"] = std::move(region);
    return;
  } else {
    // The same words however the letters were read (OCR, or the shape
    // memory once OCR has taught it): a check's report does not depend on
    // what the memory holds.
    report.pass(check_code::pdf_title_glyphs_match,
                "the title's " + std::to_string(c.compared) +
                    " letters, read from its glyphs, are the letters the text layer claims (within the tolerance)");
  }
  const std::string detail = where + " is the record's title, and a reader sees it";
  report.content_binding(check_code::pdf_title_visible_match, detail);
  bindings["visible_title"] = bound_json(detail, std::move(region));
}

void check_visible_title(const pdf::PageText& page, const std::string& expected, const DrawnReader& read, Report& report,
                         nlohmann::json& bindings) {
  if (expected.empty()) {
    report.skip(check_code::pdf_title_visible_undetermined, "the record has no title_canon_sha256");
    bindings["visible_title"] = binding_json(BindingState::undetermined, "the record has no title hash");
    return;
  }
  if (page.problem) {
    report.warn(check_code::pdf_title_visible_undetermined, *page.problem);
    bindings["visible_title"] = binding_json(BindingState::undetermined, *page.problem);
    return;
  }
  if (const auto span = find_visible_span(page.seen_lines(), expected)) {
    bind_drawn_title(page, *span, read, report, bindings);
    return;
  }
  // The text layer has it, the page does not show it: text hidden under
  // something, white, tiny or invisible (a forgery's way to carry another
  // paper's title), or an OCR layer under a scanned image.
  if (const auto span = find_visible_span(page.lines, expected)) {
    const std::string detail = describe_span(*span) + " is the record's title in page 1's text layer, but a reader "
                               "cannot see it: " + pdf::describe_hidden(hidden_reasons(page, span->first_line, span->line_count));
    report.warn(check_code::pdf_title_visible_hidden, detail);
    bindings["visible_title"] = binding_json(BindingState::hidden, detail);
    return;
  }
  const std::string detail = "the record's title was not found in page 1's text (" +
                             std::to_string(page.lines.size()) + " lines read)";
  report.warn(check_code::pdf_title_visible_not_found, detail);
  bindings["visible_title"] = binding_json(BindingState::absent, detail);
}

void check_visible_abstract(const pdf::PageText& page, const std::string& expected, Report& report,
                            nlohmann::json& bindings) {
  if (expected.empty() || page.problem) {
    bindings["visible_abstract"] = binding_json(BindingState::undetermined, expected.empty() ? "the record has no abstract hash" : *page.problem);
    return;
  }
  const auto lines_of = [](const VisibleSpan& span) {
    return "page 1 lines " + std::to_string(span.first_line + 1) + "-" + std::to_string(span.first_line + span.line_count);
  };
  if (const auto span = find_visible_abstract(page.seen_lines(), expected)) {
    const std::string detail = lines_of(*span) + " are the record's abstract, and a reader sees them";
    report.content_binding(check_code::pdf_abstract_visible_match, detail);
    bindings["visible_abstract"] = bound_json(detail, region_of(page, span->first_line, span->line_count));
    return;
  }
  if (const auto span = find_visible_abstract(page.lines, expected)) {
    const std::string detail = lines_of(*span) + " are the record's abstract in page 1's text layer, but a reader "
                               "cannot see them: " + pdf::describe_hidden(hidden_reasons(page, span->first_line, span->line_count));
    report.warn(check_code::pdf_abstract_visible_hidden, detail);
    bindings["visible_abstract"] = binding_json(BindingState::hidden, detail);
    return;
  }
  report.skip(check_code::pdf_abstract_visible_not_found, "the record's abstract was not found on page 1");
  bindings["visible_abstract"] = binding_json(BindingState::absent, "not found on page 1");
}

// "arXiv:2106.02679v1", as people write it.
std::string arxiv_name(const registry::ArxivId& id) { return "arXiv:" + id.to_string(); }

void check_arxiv_binding(const pdf::PageText& page, const nlohmann::json& canonical_record, Report& report,
                         nlohmann::json& bindings) {
  const auto source = registry::record_arxiv_source(canonical_record);
  if (!source) {
    bindings["arxiv_id"] = binding_json(BindingState::undetermined, "the record's source is not an arXiv paper");
    return;
  }
  const std::string named = arxiv_name(*source);
  const auto watermarks = arxiv_watermarks(page.seen_lines());
  // Another paper's watermark, seen: this PDF is that paper.
  for (const auto& w : watermarks) {
    if (w.id != source->id) {
      const std::string detail = w.where + " names " + arxiv_name({w.id, w.version}) + ", but the record is " + named;
      report.fail(check_code::pdf_arxiv_mismatch, detail);
      bindings["arxiv_id"] = binding_json(BindingState::mismatch, detail);
      return;
    }
  }
  const auto same_version = [&](const ArxivSighting& w) {
    return !w.version || !source->version || *w.version == *source->version;
  };
  for (const auto& w : watermarks) {
    if (!same_version(w)) continue;
    const std::string detail = w.where + " names " + named + ", the record's source, and a reader sees it";
    report.content_binding(check_code::pdf_arxiv_match, detail);
    bindings["arxiv_id"] = bound_json(detail, region_of(page, w.line, 1));
    return;
  }
  // Another version of the record's own paper: authors post v2, v3 of most
  // papers; the record registers the version it was made from.
  for (const auto& w : watermarks) {
    const std::string version = "v" + std::to_string(*w.version);
    const std::string detail = w.where + ": this PDF is " + version + " of " + "arXiv:" + source->id +
                               "; the record registers " + named;
    report.content_binding(check_code::pdf_arxiv_match, w.where + " names arXiv:" + source->id + ", the record's paper, and a "
                                                        "reader sees it");
    report.warn(check_code::pdf_arxiv_other_version, detail + " (the same paper, another version: what changed since is not "
                                                    "covered by the record)");
    bindings["arxiv_id"] = bound_json(detail, region_of(page, w.line, 1));
    return;
  }
  // In the text layer only: hidden watermark text binds nothing.
  for (const auto& w : arxiv_watermarks(page.lines)) {
    if (w.id != source->id) continue;
    const std::string detail = w.where + " names " + named + " in page 1's text layer, but a reader cannot see it: " +
                               pdf::describe_hidden(hidden_reasons(page, w.line, 1));
    report.warn(check_code::pdf_arxiv_hidden, detail);
    bindings["arxiv_id"] = binding_json(BindingState::hidden, detail);
    return;
  }
  for (const auto& l : arxiv_links(page.link_uris)) {
    if (l.id != source->id) continue;
    const std::string detail = l.where + " names " + named + ", but a link is not what a reader sees (and may be a "
                               "citation): only arXiv's watermark text, legible on page 1, binds";
    report.skip(check_code::pdf_arxiv_link_only, detail);
    bindings["arxiv_id"] = binding_json(BindingState::absent, detail);
    return;
  }
  report.skip(check_code::pdf_arxiv_absent, "page 1 shows no arXiv watermark naming " + named);
  bindings["arxiv_id"] = binding_json(BindingState::absent, "no arXiv watermark on page 1");
}

}  // namespace

void check_visible_bindings(const pdf::PageText& page, const nlohmann::json& canonical_record, Report& report,
                            nlohmann::json& bindings, const DrawnReader& read) {
  const registry::RecordMetadata metadata = registry::read_record_metadata(canonical_record);
  check_visible_title(page, metadata.title_canon_sha256, read, report, bindings);
  check_visible_abstract(page, metadata.abstract_canon_sha256, report, bindings);
  check_arxiv_binding(page, canonical_record, report, bindings);
}

void check_page_and_title(const pdf::PageText* page, const std::vector<TitleCandidate>& titles,
                          const nlohmann::json& canonical_record, const std::vector<TitleCandidate>* stamped,
                          Report& report, nlohmann::json& bindings, const DrawnReader& read) {
  Report visible;
  if (page) {
    check_visible_bindings(*page, canonical_record, visible, bindings, read);
  } else {
    for (const char* b : {"visible_title", "visible_abstract", "arxiv_id"})
      bindings[b] = binding_json(BindingState::undetermined, "page 1's text was not read");
  }
  const BindingState title_state = check_title_binding(titles, canonical_record, report, stamped, title_seen(bindings));
  bindings["metadata_title"] = binding_json(title_state, report.checks().back().detail);
  report.merge(visible);
  report.extra["bindings"] = std::move(bindings);
}

std::string bindings_text(const Report& report) {
  const auto it = report.extra.find("bindings");
  if (it == report.extra.end() || !it->is_object()) return {};
  std::string out = "  bindings (record to this PDF):";
  bool first = true;
  for (const auto& [name, label] : {std::pair{"visible_title", "visible title"}, {"visible_abstract", "visible abstract"},
                                    {"metadata_title", "metadata title (hint)"}, {"arxiv_id", "arXiv id"},
                                    {"stamped_bytes", "stamped bytes"}}) {
    const auto b = it->find(name);
    if (b == it->end() || !b->is_object() || !b->contains("state") || !(*b)["state"].is_string()) continue;
    out += std::string(first ? " " : ", ") + label + " " + (*b)["state"].get<std::string>();
    first = false;
  }
  out += "\n";
  if (report.verdict() == Verdict::unbound) {
    out += "  unbound: the record is genuine and signed by a trusted key, but nothing a reader sees on page 1 "
           "(its title, its abstract, arXiv's watermark) is that record's; title metadata alone never binds: it "
           "does not show that this PDF is the paper the number names\n";
  }
  return out;
}

// --- Evidence ---------------------------------------------------------------

std::optional<EvidenceRegion> evidence_region(const Report& report) {
  const auto bindings = report.extra.find("bindings");
  if (bindings == report.extra.end() || !bindings->is_object()) return std::nullopt;
  for (const char* name : {"visible_title", "visible_abstract", "arxiv_id"}) {
    const auto b = bindings->find(name);
    const bool shown = b != bindings->end() && b->is_object() &&
                       (b->value("state", "") == "match" ||
                        (std::string_view(name) == "visible_title" && b->value("state", "") == "mismatch"));
    if (!shown) continue;
    const auto region = b->find("region");
    if (region == b->end() || !region->is_object()) continue;
    const auto box = region->find("box");
    if (box == region->end() || !box->is_array() || box->size() != 4) continue;
    if (!std::all_of(box->begin(), box->end(), [](const nlohmann::json& v) { return v.is_number(); })) continue;
    return EvidenceRegion{name, {(*box)[0].get<double>(), (*box)[1].get<double>(), (*box)[2].get<double>(),
                                 (*box)[3].get<double>()}};
  }
  return std::nullopt;
}

std::string describe_binding(std::string_view binding) {
  if (binding == "visible_title") return "the record's title as a reader sees it on page 1";
  if (binding == "visible_abstract") return "the record's abstract as a reader sees it on page 1";
  if (binding == "arxiv_id") return "arXiv's watermark as a reader sees it on page 1";
  return std::string(binding);
}

void embed_evidence(Report& report, std::string_view pdf_bytes) {
  const auto region = evidence_region(report);
  if (!region) return;
  auto png = render_evidence_png(pdf_bytes, region->box, 110);
  if (!png) return;
  report.extra["evidence"] = {
      {"binding", region->binding},
      {"box", {region->box.x0, region->box.y0, region->box.x1, region->box.y1}},
      {"png_base64", to_base64(std::span(reinterpret_cast<const std::uint8_t*>(png->data()), png->size()))}};
}

}  // namespace pith::check
