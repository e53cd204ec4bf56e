// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/xmp.hpp"

#include <exempi/xmp.h>
#include <exempi/xmpconsts.h>
#include <utf8proc.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <mutex>
#include <utility>

namespace pith::pdf {
namespace {

using carrier::xmp_namespace;

// Exempi needs one global initialisation; its objects are then safe to use
// from several threads as long as each object stays on one thread. We never
// call xmp_terminate: other users of the process may still hold objects.
bool exempi_ready() {
  static std::once_flag once;
  static bool ok = false;
  std::call_once(once, [] {
    ok = xmp_init();
    if (ok) {
      XmpStringPtr registered = xmp_string_new();
      // The preferred prefix; a packet that already binds `pith` to another
      // URI gets a generated prefix from the toolkit, which is still correct.
      ok = xmp_register_namespace(xmp_namespace, carrier::xmp_prefix, registered);
      xmp_string_free(registered);
    }
  });
  return ok;
}

struct XmpDeleter {
  void operator()(XmpPtr p) const { xmp_free(p); }
};
struct XmpStringDeleter {
  void operator()(XmpStringPtr p) const { xmp_string_free(p); }
};
struct XmpIteratorDeleter {
  void operator()(XmpIteratorPtr p) const { xmp_iterator_free(p); }
};
using Xmp = std::unique_ptr<std::remove_pointer_t<XmpPtr>, XmpDeleter>;
using XmpString = std::unique_ptr<std::remove_pointer_t<XmpStringPtr>, XmpStringDeleter>;
using XmpIterator = std::unique_ptr<std::remove_pointer_t<XmpIteratorPtr>, XmpIteratorDeleter>;

XmpString new_string() { return XmpString(xmp_string_new()); }
std::string to_std(const XmpString& s) { return std::string(xmp_string_cstr(s.get()), xmp_string_len(s.get())); }

// Deepest element nesting of an XML text, counted with a small scanner that
// understands tags, quoted attribute values, comments, CDATA, PIs and
// declarations. It only has to be right for well-formed XML (anything else is
// refused by the parser afterwards) and never overflows: it is a loop.
std::size_t xml_nesting_depth(std::string_view xml) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  std::size_t i = 0;
  auto skip_past = [&](std::string_view end) {
    const auto at = xml.find(end, i);
    i = at == std::string_view::npos ? xml.size() : at + end.size();
  };
  while (i < xml.size()) {
    if (xml[i] != '<') {
      ++i;
      continue;
    }
    const std::string_view rest = xml.substr(i);
    if (rest.starts_with("<!--")) {
      skip_past("-->");
    } else if (rest.starts_with("<![CDATA[")) {
      skip_past("]]>");
    } else if (rest.starts_with("<?")) {
      skip_past("?>");
    } else if (rest.starts_with("<!")) {
      skip_past(">");
    } else if (rest.starts_with("</")) {
      if (depth > 0) --depth;
      skip_past(">");
    } else {
      // A start tag: find its '>' outside quoted attribute values.
      char quote = 0;
      std::size_t j = i + 1;
      for (; j < xml.size(); ++j) {
        const char c = xml[j];
        if (quote != 0) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '>') {
          break;
        }
      }
      const bool self_closing = j < xml.size() && xml[j - 1] == '/';
      if (!self_closing) deepest = std::max(deepest, ++depth);
      i = j + 1;
    }
  }
  return deepest;
}

Result<void> check_packet_bounds(std::string_view packet) {
  if (packet.size() > max_xmp_packet_bytes) {
    return fail(ErrorKind::malformed, "XMP packet", "is " + std::to_string(packet.size()) + " bytes, more than the limit of " +
                                  std::to_string(max_xmp_packet_bytes));
  }
  if (const auto depth = xml_nesting_depth(packet); depth > max_xmp_nesting) {
    return fail(ErrorKind::malformed, "XMP packet", "nests elements " + std::to_string(depth) + " deep, more than the limit of " +
                                  std::to_string(max_xmp_nesting));
  }
  return {};
}

// Why `value` cannot be carried through an XMP packet unchanged, or empty if
// it can. Exempi silently replaces such characters (a control becomes a
// space), so a value read back would differ from the one signed: refuse.
std::string unrepresentable_in_xml(std::string_view value) {
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(value.data());
  auto left = static_cast<utf8proc_ssize_t>(value.size());
  std::size_t offset = 0;
  while (left > 0) {
    utf8proc_int32_t cp = 0;
    const utf8proc_ssize_t n = utf8proc_iterate(p, left, &cp);
    if (n <= 0) return "invalid UTF-8 at byte " + std::to_string(offset);
    const bool c0_control = cp < 0x20 && cp != 0x09 && cp != 0x0A && cp != 0x0D;
    // DEL is legal XML, but Exempi's serialiser turns it into a space.
    if (c0_control || cp == 0x7F || cp == 0xFFFE || cp == 0xFFFF) {
      std::array<char, 16> hex{};
      std::snprintf(hex.data(), hex.size(), "U+%04X", static_cast<unsigned>(cp));
      return std::string("character ") + hex.data() + " at byte " + std::to_string(offset) +
             " cannot be stored in XMP unchanged";
    }
    p += n;
    left -= n;
    offset += static_cast<std::size_t>(n);
  }
  return {};
}

// The (name, value) pairs `props` puts into the pith namespace, in a fixed
// order (the serialised order follows it in a fresh packet).
std::vector<std::pair<const char*, std::string>> pith_pairs(const carrier::PithProperties& props) {
  std::vector<std::pair<const char*, std::string>> pairs = {
      {carrier::xmp_number, props.number},
      {carrier::xmp_canonical_record, props.canonical_record},
      {carrier::xmp_canonical_sha256, props.canonical_sha256},
      {carrier::xmp_receipt_signature, props.receipt_signature},
      {carrier::xmp_key_id, props.key_id},
      {carrier::xmp_key_fingerprint, props.key_fingerprint},
      {carrier::xmp_resolver_url, props.resolver_url},
      {carrier::xmp_tool, props.tool},
  };
  if (props.original_sha256) pairs.emplace_back(carrier::xmp_original_sha256, *props.original_sha256);
  if (props.original_length) pairs.emplace_back(carrier::xmp_original_length, std::to_string(*props.original_length));
  if (props.page_text_sha256) pairs.emplace_back(carrier::xmp_page_text_sha256, *props.page_text_sha256);
  std::erase_if(pairs, [](const auto& pair) { return pair.second.empty(); });
  return pairs;
}

Result<Xmp> parse_packet(std::string_view packet) {
  Xmp xmp(xmp_new_empty());
  if (!xmp) return fail(ErrorKind::internal, "XMP packet", "Exempi could not allocate a packet");
  if (!packet.empty() && !xmp_parse(xmp.get(), packet.data(), packet.size())) {
    return fail(ErrorKind::malformed, "XMP packet", "is not well-formed XMP (Exempi error " + std::to_string(xmp_get_error()) + ")");
  }
  return xmp;
}

// Names (with the packet's prefix, as the toolkit paths them) of every
// top-level property in the pith namespace.
std::vector<std::string> pith_property_paths(XmpPtr xmp) {
  std::vector<std::string> paths;
  XmpIterator it(xmp_iterator_new(xmp, xmp_namespace, nullptr, XMP_ITER_JUSTCHILDREN));
  if (!it) return paths;
  auto name = new_string();
  while (xmp_iterator_next(it.get(), nullptr, name.get(), nullptr, nullptr)) {
    if (xmp_string_len(name.get()) > 0) paths.push_back(to_std(name));
  }
  return paths;
}

}  // namespace

Result<std::string> merge_pith_xmp(std::string_view existing_packet, const carrier::PithProperties& props) {
  if (!exempi_ready()) return fail(ErrorKind::internal, "XMP", "Exempi failed to initialise");
  if (props.number.empty()) return fail(ErrorKind::malformed, "XMP pith:number", "is empty: a Pith Number is required");
  const auto pairs = pith_pairs(props);
  for (const auto& [name, value] : pairs) {
    if (auto why = unrepresentable_in_xml(value); !why.empty()) {
      return fail(ErrorKind::malformed, std::string("XMP pith:") + name, why);
    }
  }
  if (auto bounded = check_packet_bounds(existing_packet); !bounded) return std::unexpected(bounded.error());
  auto xmp = parse_packet(existing_packet);
  if (!xmp) return std::unexpected(xmp.error().within("existing"));

  // Replace, not add to, whatever pith data was there: stale properties of
  // another record (or of an older tool) must not survive next to ours.
  for (const auto& path : pith_property_paths(xmp->get())) {
    xmp_delete_property(xmp->get(), xmp_namespace, path.substr(path.find(':') + 1).c_str());
  }
  for (const auto& [name, value] : pairs) {
    if (!xmp_set_property(xmp->get(), xmp_namespace, name, value.c_str(), 0)) {
      return fail(ErrorKind::malformed, std::string("XMP pith:") + name, "Exempi refused the value (error " +
                                                       std::to_string(xmp_get_error()) + ")");
    }
  }

  auto out = new_string();
  if (!xmp_serialize(xmp->get(), out.get(), XMP_SERIAL_ENCODEUTF8, static_cast<uint32_t>(xmp_padding_bytes))) {
    return fail(ErrorKind::internal, "XMP", "Exempi could not serialise the packet (error " + std::to_string(xmp_get_error()) + ")");
  }
  return to_std(out);
}

bool XmpReadout::has_pith_properties() const {
  return number || canonical_record || canonical_sha256 || receipt_signature || key_id || key_fingerprint ||
         resolver_url || tool || original_sha256 || original_length || page_text_sha256 || !malformed.empty();
}

namespace {

void read_pith_property(XmpPtr xmp, const char* name, std::optional<std::string>& into,
                        std::vector<std::string>& malformed) {
  auto value = new_string();
  uint32_t options = 0;
  if (!xmp_get_property(xmp, xmp_namespace, name, value.get(), &options)) return;
  if (!XMP_IS_PROP_SIMPLE(options)) {
    malformed.emplace_back(std::string("pith:") + name);
    return;
  }
  into = to_std(value);
}

std::optional<std::string> read_title(XmpPtr xmp) {
  auto value = new_string();
  auto actual_lang = new_string();
  uint32_t options = 0;
  if (xmp_get_localized_text(xmp, NS_DC, "title", "", "x-default", actual_lang.get(), value.get(), &options)) {
    return to_std(value);
  }
  // Not an alt-text array (some writers use a simple value): take what is there.
  if (xmp_get_property(xmp, NS_DC, "title", value.get(), &options)) {
    if (XMP_IS_PROP_SIMPLE(options)) return to_std(value);
    if (XMP_IS_PROP_ARRAY(options) && xmp_get_array_item(xmp, NS_DC, "title", 1, value.get(), &options) &&
        XMP_IS_PROP_SIMPLE(options)) {
      return to_std(value);
    }
  }
  return std::nullopt;
}

std::vector<std::string> read_identifiers(XmpPtr xmp) {
  std::vector<std::string> values;
  auto value = new_string();
  uint32_t options = 0;
  if (!xmp_get_property(xmp, NS_DC, "identifier", value.get(), &options)) return values;
  if (XMP_IS_PROP_SIMPLE(options)) {
    values.push_back(to_std(value));
    return values;
  }
  if (!XMP_IS_PROP_ARRAY(options)) return values;
  for (int32_t index = 1;; ++index) {  // XMP arrays are 1-based
    uint32_t item_options = 0;
    if (!xmp_get_array_item(xmp, NS_DC, "identifier", index, value.get(), &item_options)) break;
    if (XMP_IS_PROP_SIMPLE(item_options)) values.push_back(to_std(value));
  }
  return values;
}

}  // namespace

Result<XmpReadout> read_xmp(std::string_view packet) {
  if (!exempi_ready()) return fail(ErrorKind::internal, "XMP", "Exempi failed to initialise");
  if (auto bounded = check_packet_bounds(packet); !bounded) return std::unexpected(bounded.error());
  XmpReadout readout;
  if (packet.empty()) {
    readout.parse_error = "the packet is empty";
    return readout;
  }
  auto xmp = parse_packet(packet);
  if (!xmp) {
    readout.parse_error = xmp.error().message;
    return readout;
  }
  readout.parsed = true;
  XmpPtr x = xmp->get();
  auto& bad = readout.malformed;
  read_pith_property(x, carrier::xmp_number, readout.number, bad);
  read_pith_property(x, carrier::xmp_canonical_record, readout.canonical_record, bad);
  read_pith_property(x, carrier::xmp_canonical_sha256, readout.canonical_sha256, bad);
  read_pith_property(x, carrier::xmp_receipt_signature, readout.receipt_signature, bad);
  read_pith_property(x, carrier::xmp_key_id, readout.key_id, bad);
  read_pith_property(x, carrier::xmp_key_fingerprint, readout.key_fingerprint, bad);
  read_pith_property(x, carrier::xmp_resolver_url, readout.resolver_url, bad);
  read_pith_property(x, carrier::xmp_tool, readout.tool, bad);
  read_pith_property(x, carrier::xmp_original_sha256, readout.original_sha256, bad);
  read_pith_property(x, carrier::xmp_original_length, readout.original_length, bad);
  read_pith_property(x, carrier::xmp_page_text_sha256, readout.page_text_sha256, bad);
  readout.title = read_title(x);
  readout.identifiers = read_identifiers(x);
  return readout;
}

}  // namespace pith::pdf
