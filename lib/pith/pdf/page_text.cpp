// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/page_text.hpp"

#include "pith/base/utf8.hpp"

#include <algorithm>
#include <climits>
#include <memory>
#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-page.h>

namespace pith::pdf {

namespace {

// poppler reports recoverable damage through this hook (default: stderr).
// Silence it: the checker reports what it concludes, not the parser's chatter.
void ignore_poppler_message(const std::string&, void*) {}

// Invalid UTF-8 sequences become U+FFFD, so the text is safe to hash, print
// and send as JSON.
std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const Utf8Step step = next_utf8(text);
    out.append(step.code_point < 0 ? std::string_view("\xEF\xBF\xBD") : text.substr(0, step.length));
    text.remove_prefix(step.length);
  }
  return out;
}

std::string cut_at_boundary(std::string line, std::size_t max_bytes) {
  if (line.size() <= max_bytes) return line;
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(line[end]) & 0xC0) == 0x80) --end;
  line.resize(end);
  return line;
}

std::vector<std::string> split_lines(std::string_view text, const PageTextLimits& limits) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size() && lines.size() < limits.max_lines) {
    const auto end = text.find_first_of("\n\f", start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") != std::string_view::npos) {
      lines.push_back(cut_at_boundary(valid_utf8(line), limits.max_line_bytes));
    }
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return lines;
}

}  // namespace

nlohmann::json PageText::to_json() const {
  nlohmann::json out = {{"lines", lines}, {"link_uris", link_uris}};
  if (problem) out["problem"] = *problem;
  return out;
}

Result<PageText> PageText::from_json(const nlohmann::json& json) {
  const auto bad = [](std::string why) { return std::unexpected(Error{ErrorKind::malformed, "page text", std::move(why)}); };
  if (!json.is_object()) return bad("not an object");
  PageText out;
  for (const char* key : {"lines", "link_uris"}) {
    const auto it = json.find(key);
    if (it == json.end() || !it->is_array()) return bad(std::string(key) + " is not an array");
    auto& target = std::string_view(key) == "lines" ? out.lines : out.link_uris;
    for (const auto& v : *it) {
      if (!v.is_string()) return bad(std::string(key) + " holds a non-string");
      target.push_back(v.get<std::string>());
    }
  }
  if (const auto it = json.find("problem"); it != json.end()) {
    if (!it->is_string()) return bad("problem is not a string");
    out.problem = it->get<std::string>();
  }
  return out;
}

PageText read_page_text(std::string_view bytes, std::vector<std::string> link_uris, const PageTextLimits& limits) {
  PageText out;
  out.link_uris = std::move(link_uris);
  poppler::set_debug_error_function(ignore_poppler_message, nullptr);
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    out.problem = "the file is too large for the text extractor";
    return out;
  }
  try {
    const std::unique_ptr<poppler::document> document(
        poppler::document::load_from_raw_data(bytes.data(), static_cast<int>(bytes.size())));
    if (!document || document->is_locked()) {
      out.problem = "the text extractor could not open the PDF";
      return out;
    }
    if (document->pages() < 1) {
      out.problem = "the PDF has no pages";
      return out;
    }
    const std::unique_ptr<poppler::page> page(document->create_page(0));
    if (!page) {
      out.problem = "page 1 could not be read";
      return out;
    }
    // Reading order (as pdftotext), not the physical layout that pads
    // columns sharing a baseline onto one line ("Title      Author").
    const poppler::byte_array utf8 = page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout).to_utf8();
    out.lines = split_lines(std::string_view(utf8.data(), utf8.size()), limits);
  } catch (const std::exception& e) {
    out.problem = std::string("page 1's text could not be read: ") + e.what();
  }
  return out;
}

}  // namespace pith::pdf
