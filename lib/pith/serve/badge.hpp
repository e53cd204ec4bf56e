// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GET /badge/{id}.svg: a small SVG status badge (label | status) for web
// pages and READMEs. Every text is XML-escaped: the label can come from the
// request.
#include "pith/serve/record_view.hpp"

#include <string>
#include <string_view>

namespace pith::serve {


// The badge: `label` on grey, the status word on its colour.
[[nodiscard]] std::string badge_svg(std::string_view label, RecordStatus status);

}  // namespace pith::serve
