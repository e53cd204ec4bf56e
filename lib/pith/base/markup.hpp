// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Text from a PDF or the network put into HTML or XML (pith-check --html,
// pith-serve's SVG badges): one escaper for both, since the five entities
// below mean the same in each. Control characters other than tab, newline
// and carriage return are dropped: XML 1.0 forbids them and no page shows them.
#include <string>
#include <string_view>

namespace pith {

[[nodiscard]] std::string markup_escape(std::string_view text);

}  // namespace pith
