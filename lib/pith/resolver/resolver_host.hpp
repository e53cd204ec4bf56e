// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A PDF's resolver links (XMP pith:resolverUrl, Info /PithURL, page-1 badge
// links) send readers to a registry. One that points at another host than the
// resolver pith is configured with (or its mirrors, or the public registry) is
// a warning: a look-alike registry could serve a page that "confirms" the
// paper. pith itself never follows these links; people do.
#include "pith/base/report.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pith::resolver {

// The host (with any port, lower case, no user info) of a URL; empty when
// there is none.
[[nodiscard]] std::string url_host(std::string_view url);

// Adds `pdf.resolver.unknown_host` (warn) for each resolver URL of a PDF report
// (details.pith_sources[].url) whose host is none of `known_bases`' hosts and
// not the public registry's. Nothing for reports without such URLs. The
// warning lists the known hosts unless `name_known_hosts` is false (a public
// answer says "the configured registry": the operator's mirrors are theirs).
void check_resolver_hosts(Report& report, const std::vector<std::string>& known_bases, bool name_known_hosts = true);

}  // namespace pith::resolver
