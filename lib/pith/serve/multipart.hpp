// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The file of a multipart/form-data upload (RFC 7578, the framing of RFC
// 2046 5.1), found in a body already read whole and within --max-upload: the
// part named "file", or else the first part with a filename, as the page
// and `curl -F file=@paper.pdf` send it. Boost.Beast reads HTTP, not forms,
// and Debian has no well-kept C++ form parser; this is the framing only
// (delimiters, part headers, Content-Disposition's name and filename), with
// bounds on parts and header sizes (tests/unit/serve/serve_test.cpp, fuzz/multipart_fuzz.cpp).
#include "pith/base/error.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace pith::serve {

struct FormFile {
  std::string filename;   // as sent (may be empty)
  std::string_view data;  // inside the body given
};

// The boundary of a `multipart/form-data; boundary=...` Content-Type (quoted
// or not); nullopt for another type or without a valid boundary.
[[nodiscard]] std::optional<std::string> form_boundary(std::string_view content_type);

// The file part of `body`. Errors: malformed (broken framing), not_found
// (no part named file and none with a filename).
[[nodiscard]] Result<FormFile> form_file(std::string_view body, std::string_view boundary);

}  // namespace pith::serve
