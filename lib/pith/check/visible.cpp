// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/visible.hpp"

#include <regex>

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

std::vector<ArxivSighting> arxiv_watermarks(const std::vector<std::string>& lines) {
  static const std::regex watermark("arXiv:" + id_pattern() + R"(\s*\[[^\]]{1,40}\])");
  std::vector<ArxivSighting> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string text = normalise_visible_text(lines[i]);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), watermark); it != std::sregex_iterator(); ++it) {
      out.push_back({(*it)[1].str(), version_of(*it), "page 1 text '" + it->str() + "'", true, i});
    }
  }
  return out;
}

std::vector<ArxivSighting> arxiv_links(const std::vector<std::string>& uris) {
  static const std::regex link(R"(^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/)" + id_pattern(), std::regex::icase);
  std::vector<ArxivSighting> out;
  for (const auto& uri : uris) {
    std::smatch m;
    if (std::regex_search(uri, m, link)) out.push_back({m[1].str(), version_of(m), "page 1 link '" + uri.substr(0, 120) + "'", false, 0});
  }
  return out;
}

}  // namespace pith::check
