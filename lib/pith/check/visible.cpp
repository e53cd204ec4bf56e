// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/visible.hpp"

#include <regex>

namespace pith::check {

std::vector<ArxivSighting> arxiv_sightings(const pdf::PageText& page) {
  // New-style ids (0704.0001 on) and old-style (hep-th/9901001).
  static const std::string id = R"(((?:\d{4}\.\d{4,5})|(?:[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7}))(?:v(\d+))?)";
  static const std::regex watermark("arXiv:" + id + R"(\s*\[[^\]]{1,40}\])");
  static const std::regex link(R"(^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/)" + id, std::regex::icase);
  std::vector<ArxivSighting> out;
  const auto version_of = [](const std::smatch& m) -> std::optional<int> {
    if (!m[2].matched || m[2].length() > 4) return std::nullopt;
    return std::stoi(m[2].str());
  };
  for (const auto& line : page.lines) {
    const std::string text = normalise_visible_text(line);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), watermark); it != std::sregex_iterator(); ++it) {
      out.push_back({(*it)[1].str(), version_of(*it), "page 1 text '" + it->str() + "'", true});
    }
  }
  for (const auto& uri : page.link_uris) {
    std::smatch m;
    if (std::regex_search(uri, m, link)) out.push_back({m[1].str(), version_of(m), "page 1 link '" + uri.substr(0, 120) + "'", false});
  }
  return out;
}

}  // namespace pith::check
