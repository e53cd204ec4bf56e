#include "pith/registry/title.hpp"

#include "pith/base/crypto.hpp"

#include <cstdlib>
#include <utf8proc.h>

namespace pith::registry {

namespace {

bool is_ascii(std::string_view s) {
  for (unsigned char c : s) {
    if (c >= 0x80) return false;
  }
  return true;
}

// Python's str.split() whitespace: the ASCII set plus Unicode spaces.
bool is_whitespace(utf8proc_int32_t cp) {
  if (cp == ' ' || (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f) || cp == 0x85) return true;
  if (cp < 0x80) return false;
  const utf8proc_category_t cat = utf8proc_category(cp);
  return cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP;
}

void append_utf8(std::string& out, utf8proc_int32_t cp) {
  utf8proc_uint8_t buf[4];
  const utf8proc_ssize_t n = utf8proc_encode_char(cp, buf);
  out.append(reinterpret_cast<const char*>(buf), static_cast<std::size_t>(n));
}

std::string collapse_lower_ascii(std::string_view s) {
  std::string out;
  bool pending_space = false;
  for (char c : s) {
    const bool space = c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
    if (space) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

}  // namespace

std::string title_canon(std::string_view title) {
  if (is_ascii(title)) return collapse_lower_ascii(title);
  utf8proc_uint8_t* nfc = nullptr;
  const utf8proc_ssize_t len = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(title.data()),
                                            static_cast<utf8proc_ssize_t>(title.size()), &nfc,
                                            static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
  if (len < 0) return collapse_lower_ascii(title);  // invalid UTF-8: cannot match anyway
  std::string out;
  bool pending_space = false;
  utf8proc_ssize_t pos = 0;
  while (pos < len) {
    utf8proc_int32_t cp = 0;
    const utf8proc_ssize_t n = utf8proc_iterate(nfc + pos, len - pos, &cp);
    if (n <= 0) break;
    pos += n;
    if (is_whitespace(cp)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    append_utf8(out, utf8proc_tolower(cp));
  }
  std::free(nfc);
  return out;
}

std::string title_canon_sha256(std::string_view title) { return sha256_hex(title_canon(title)); }

}  // namespace pith::registry
