// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/resolver/resolver_host.hpp"

#include "pith/base/ascii.hpp"
#include "pith/base/check_codes.hpp"
#include "pith/base/version.hpp"

#include <algorithm>
#include <set>

namespace pith::resolver {

std::string url_host(std::string_view url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return {};
  std::string_view rest = url.substr(scheme_end + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const auto at = rest.rfind('@'); at != std::string_view::npos) rest.remove_prefix(at + 1);
  return ascii_lower(rest);
}

void check_resolver_hosts(Report& report, const std::vector<std::string>& known_bases, bool name_known_hosts) {
  const auto sources = report.extra.find("pith_sources");
  if (sources == report.extra.end() || !sources->is_array()) return;
  std::set<std::string> known = {url_host(default_resolver_url)};
  for (const auto& base : known_bases) {
    if (auto host = url_host(base); !host.empty()) known.insert(std::move(host));
  }
  std::string known_text;
  for (const auto& h : known) known_text += (known_text.empty() ? "" : ", ") + h;
  if (!name_known_hosts) known_text = "the configured registry";
  std::set<std::string> reported;
  for (const auto& s : *sources) {
    if (!s.is_object() || !s.contains("url") || !s["url"].is_string()) continue;
    const std::string url = s["url"].get<std::string>();
    const std::string host = url_host(url);
    if (host.empty() || known.count(host) || !reported.insert(host).second) continue;
    const std::string where = s.contains("where") && s["where"].is_string() ? s["where"].get<std::string>() : "a link";
    report.warn(check_code::pdf_resolver_unknown_host, where + " points at " + host + ", which is not the configured resolver (" +
                                                 known_text + "): a look-alike registry? Check the number with pith-check, "
                                                 "not on that site");
  }
}

}  // namespace pith::resolver
