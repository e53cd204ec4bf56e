// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/serve/multipart.hpp"

#include "pith/base/ascii.hpp"

#include <algorithm>

namespace pith::serve {
namespace {

constexpr std::size_t max_parts = 64;
constexpr std::size_t max_part_header_bytes = 8 * 1024;
constexpr std::size_t max_boundary_bytes = 70;  // RFC 2046

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The value of parameter `name` in `; a=b; c="d"` (case-insensitive name;
// a quoted value with backslash escapes).
std::optional<std::string> parameter(std::string_view header_value, std::string_view name) {
  std::size_t at = header_value.find(';');
  while (at != std::string_view::npos) {
    std::string_view rest = trimmed(header_value.substr(at + 1));
    const auto eq = rest.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    const std::string_view key = trimmed(rest.substr(0, eq));
    std::string_view after = trimmed(rest.substr(eq + 1));
    std::string value;
    std::size_t used = 0;
    if (!after.empty() && after.front() == '"') {
      std::size_t i = 1;
      for (; i < after.size() && after[i] != '"'; ++i) {
        if (after[i] == '\\' && i + 1 < after.size()) ++i;
        value += after[i];
      }
      if (i >= after.size()) return std::nullopt;  // unterminated
      used = i + 1;
    } else {
      used = std::min(after.find(';'), after.size());
      value = std::string(trimmed(after.substr(0, used)));
    }
    if (equals_ascii_case_blind(key, name)) return value;
    const std::size_t consumed = static_cast<std::size_t>(after.data() - header_value.data()) + used;
    at = header_value.find(';', consumed);
  }
  return std::nullopt;
}

// The next delimiter line at or after `from`: CRLF "--" boundary, then "--"
// (the last) or optional spaces and CRLF (RFC 2046 5.1.1). "--boundaryX" in
// the data is data.
std::size_t next_delimiter_line(std::string_view body, const std::string& crlf_delimiter, std::size_t from) {
  for (auto at = body.find(crlf_delimiter, from); at != std::string_view::npos; at = body.find(crlf_delimiter, at + 1)) {
    std::size_t after = at + crlf_delimiter.size();
    if (body.substr(after, 2) == "--") return at;
    while (after < body.size() && (body[after] == ' ' || body[after] == '\t')) ++after;
    if (body.substr(after, 2) == "\r\n") return at;
  }
  return std::string_view::npos;
}

Error malformed(std::string why) { return Error{ErrorKind::malformed, "multipart/form-data", std::move(why)}; }

}  // namespace

std::optional<std::string> form_boundary(std::string_view content_type) {
  const std::string_view type = trimmed(content_type.substr(0, content_type.find(';')));
  if (!equals_ascii_case_blind(type, "multipart/form-data")) return std::nullopt;
  auto boundary = parameter(content_type, "boundary");
  if (!boundary || boundary->empty() || boundary->size() > max_boundary_bytes) return std::nullopt;
  return boundary;
}

Result<FormFile> form_file(std::string_view body, std::string_view boundary) {
  const std::string delimiter = "--" + std::string(boundary);
  const std::string next_delimiter = "\r\n" + delimiter;
  // The first delimiter opens the body or a line (a preamble may precede it).
  std::size_t at = body.starts_with(delimiter) ? 0 : next_delimiter_line(body, next_delimiter, 0);
  if (at == std::string_view::npos) return std::unexpected(malformed("no boundary in the body"));
  if (at != 0) at += 2;
  for (std::size_t parts = 0;; ++parts) {
    at += delimiter.size();
    if (body.substr(at, 2) == "--") break;  // the close delimiter
    if (parts >= max_parts) return std::unexpected(malformed("more than " + std::to_string(max_parts) + " parts"));
    while (at < body.size() && (body[at] == ' ' || body[at] == '\t')) ++at;  // transport padding
    if (body.substr(at, 2) != "\r\n") return std::unexpected(malformed("a boundary line does not end"));
    at += 2;
    // Headers up to an empty line (none at all: the empty line at once).
    std::string_view headers;
    std::size_t data_start = at + 2;
    if (body.substr(at, 2) != "\r\n") {
      const auto headers_end = body.find("\r\n\r\n", at);
      if (headers_end == std::string_view::npos) return std::unexpected(malformed("a part's headers do not end"));
      headers = body.substr(at, headers_end - at);
      data_start = headers_end + 4;
    }
    if (headers.size() > max_part_header_bytes) return std::unexpected(malformed("a part's headers are too large"));
    if (data_start > body.size()) return std::unexpected(malformed("a part is not closed by the boundary"));
    const auto data_end = next_delimiter_line(body, next_delimiter, data_start);
    if (data_end == std::string_view::npos) return std::unexpected(malformed("a part is not closed by the boundary"));
    const std::string_view data = body.substr(data_start, data_end - data_start);

    std::optional<std::string> name;
    std::optional<std::string> filename;
    std::size_t line_start = 0;
    while (line_start < headers.size()) {
      const auto line_end = headers.find("\r\n", line_start);
      const std::string_view line = headers.substr(line_start, line_end - line_start);
      const auto colon = line.find(':');
      if (colon != std::string_view::npos && equals_ascii_case_blind(trimmed(line.substr(0, colon)), "content-disposition")) {
        const std::string_view value = line.substr(colon + 1);
        name = parameter(value, "name");
        filename = parameter(value, "filename");
      }
      if (line_end == std::string_view::npos) break;
      line_start = line_end + 2;
    }
    if (name == "file" || filename) return FormFile{filename.value_or(""), data};
    at = data_end + 2;
  }
  return std::unexpected(Error{ErrorKind::not_found, "multipart/form-data", "no file part"});
}

}  // namespace pith::serve
