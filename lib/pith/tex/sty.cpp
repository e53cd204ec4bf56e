// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/tex/sty.hpp"

#include "pith/base/crypto.hpp"
#include "pith/base/version.hpp"
#include "pith/carrier/vocabulary.hpp"
#include "pith/registry/number.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

namespace pith::tex::detail {
extern const std::string_view pith_sty_text;  // generated from latex/pith.sty
}

namespace pith::tex {
namespace {

constexpr std::size_t hex_line_chars = 256;  // per \__pith_data_bundle:n line

// The record's number in full. The record came from the verifier, so a
// number that is not in full here is a programming error upstream: report it plainly.
Result<registry::PithNumber> full_number_of(const registry::VerifiedRecord& record) {
  const registry::PithNumber& number = record.number();
  if (!number.is_full() || !number.year) {
    return fail(ErrorKind::internal, "pith number", "not of the form pith:YYYY:<26 characters>: '" + number.to_string() + "'");
  }
  return number;
}

// An http(s) URL without spaces or control characters (the package escapes
// it for every destination; this only keeps nonsense out of the data).
bool is_plausible_resolver(std::string_view url) {
  if (!url.starts_with("https://") && !url.starts_with("http://")) return false;
  for (unsigned char c : url) {
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}

std::string strip_trailing_slashes(std::string url) {
  while (url.ends_with('/')) url.pop_back();
  return url;
}

void add_value(std::string& block, std::string_view name, std::string_view value) {
  block += "\\__pith_data:nn {";
  block += name;
  block += "} {";
  block += to_hex(value);
  block += "}\n";
}

// The block carries the record's part of `properties`, its number as body
// and year (`number`: the same number, parsed), which the package assembles.
std::string data_block(const carrier::PithProperties& properties, const registry::PithNumber& number,
                       const std::string& resolver, const std::string& document_bytes) {
  std::string block;
  block += "% ---- verified data, written by pith-stamp ";
  block += pith::version_string;
  block += " for ";
  block += properties.number;
  block += ".\n% Values are hex of their UTF-8 bytes (never read as TeX); do not edit:\n";
  block += "% run `pith-stamp paper.tex' again instead.\n";
  add_value(block, carrier::sty_body, number.body);
  add_value(block, carrier::sty_year, registry::four_digit_year(*number.year));
  add_value(block, carrier::sty_resolver, resolver);
  add_value(block, carrier::xmp_canonical_record, properties.canonical_record);
  add_value(block, carrier::xmp_canonical_sha256, properties.canonical_sha256);
  add_value(block, carrier::xmp_receipt_signature, properties.receipt_signature);
  add_value(block, carrier::xmp_key_id, properties.key_id);
  add_value(block, carrier::xmp_key_fingerprint, properties.key_fingerprint);
  block += "\\__pith_data_bundle_size:n {" + std::to_string(document_bytes.size()) + "}\n";
  const std::string hex = to_hex(document_bytes);
  for (std::size_t i = 0; i < hex.size(); i += hex_line_chars) {
    block += "\\__pith_data_bundle:n {";
    block += std::string_view(hex).substr(i, hex_line_chars);
    block += "}\n";
  }
  return block;
}

Result<std::string> check_record(const registry::VerifiedRecord& record) {
  const auto missing = [](const char* what) {
    return fail(ErrorKind::malformed, "verified record", std::string("has no ") + what + ": cannot bake it into pith.sty");
  };
  if (record.canonical_json.empty()) return missing("canonical record");
  if (record.canonical_sha256.size() != 64) return missing("canonical SHA-256");
  if (record.receipt_signature_b64.empty()) return missing("receipt signature (a bare record is not signed)");
  if (record.key_id.empty()) return missing("key id");
  if (record.key_fingerprint.empty()) return missing("key fingerprint");
  if (record.document_bytes.empty()) return missing("bundle or state document to embed");
  if (record.document_bytes.size() > sty_max_document_bytes) {
    return fail(ErrorKind::malformed, "verified record", "document of " + std::to_string(record.document_bytes.size()) +
                                       " bytes is larger than the " + std::to_string(sty_max_document_bytes) +
                                       " bytes pith.sty embeds");
  }
  return std::string{};
}

constexpr std::string_view data_block_start = "% ---- verified data, written by pith-stamp ";

// The braced arguments of one data line "\\cmd {a} {b}" (none nested).
std::vector<std::string_view> braced_arguments(std::string_view line) {
  std::vector<std::string_view> args;
  for (std::size_t open = line.find('{'); open != std::string_view::npos; open = line.find('{', open + 1)) {
    const std::size_t close = line.find('}', open);
    if (close == std::string_view::npos) break;
    args.push_back(line.substr(open + 1, close - open - 1));
    open = close;
  }
  return args;
}

// The values of a data block by name (the first of a name counts), as the
// PithProperties they are, with the number as the package assembles it.
StyData sty_data_of(const std::map<std::string, std::string, std::less<>>& values) {
  const auto value = [&values](std::string_view name) {
    const auto it = values.find(name);
    return it == values.end() ? std::string() : it->second;
  };
  StyData data;
  carrier::PithProperties& p = data.properties;
  const std::string body = value(carrier::sty_body);
  const std::string year = value(carrier::sty_year);
  if (!body.empty()) p.number = year.empty() ? "pith:" + body : "pith:" + year + ":" + body;
  p.canonical_record = value(carrier::xmp_canonical_record);
  p.canonical_sha256 = value(carrier::xmp_canonical_sha256);
  p.receipt_signature = value(carrier::xmp_receipt_signature);
  p.key_id = value(carrier::xmp_key_id);
  p.key_fingerprint = value(carrier::xmp_key_fingerprint);
  data.resolver = value(carrier::sty_resolver);
  return data;
}

Result<std::string> decode_hex(std::string_view hex, std::string_view name, std::string_view what) {
  auto bytes = from_hex(hex);
  if (!bytes) return fail(ErrorKind::malformed, std::string(name), "the value of " + std::string(what) + " is not hex");
  return std::string(bytes->begin(), bytes->end());
}

}  // namespace

Result<StyData> read_sty_data(std::string_view text, std::string_view name) {
  const std::size_t start = text.find(data_block_start);
  if (start == std::string_view::npos)
    return fail(ErrorKind::malformed, std::string(name), "carries no verified data (not generated by pith-stamp)");
  std::map<std::string, std::string, std::less<>> values;
  std::string bundle_hex;
  std::optional<std::size_t> bundle_size;
  std::size_t at = start;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    const auto args = braced_arguments(line);
    if (line.starts_with("\\__pith_data:nn ") && args.size() == 2) {
      auto value = decode_hex(args[1], name, args[0]);
      if (!value) return std::unexpected(value.error());
      values.emplace(std::string(args[0]), std::move(*value));
    } else if (line.starts_with("\\__pith_data_bundle:n ") && args.size() == 1) {
      bundle_hex += args[0];
    } else if (line.starts_with("\\__pith_data_bundle_size:n ") && args.size() == 1) {
      std::size_t n = 0;
      const auto [ptr, ec] = std::from_chars(args[0].data(), args[0].data() + args[0].size(), n);
      if (ec != std::errc{} || ptr != args[0].data() + args[0].size())
        return fail(ErrorKind::malformed, std::string(name), "the bundle size is not a number");
      bundle_size = n;
    }
  }
  auto document = decode_hex(bundle_hex, name, "the embedded bundle");
  if (!document) return std::unexpected(document.error());
  if (!bundle_size || *bundle_size != document->size() || document->empty())
    return fail(ErrorKind::malformed, std::string(name), "the embedded bundle is not the size written beside it");
  StyData data = sty_data_of(values);
  data.document_bytes = std::move(*document);
  return data;
}

std::string_view pith_sty_template() { return detail::pith_sty_text; }

std::string plain_sty() { return std::string(detail::pith_sty_text); }

Result<std::string> generate_sty(const registry::VerifiedRecord& record, const StyOptions& options) {
  if (auto ok = check_record(record); !ok) return std::unexpected(ok.error());
  auto number = full_number_of(record);
  if (!number) return std::unexpected(number.error());
  const std::string resolver = strip_trailing_slashes(options.resolver_base);
  if (!is_plausible_resolver(resolver)) {
    return fail(ErrorKind::usage, "resolver", "'" + options.resolver_base + "' is not an http(s) URL");
  }
  std::string text(pith_sty_template());
  const auto at = text.find(sty_data_marker);
  if (at == std::string::npos) return fail(ErrorKind::internal, "pith.sty", "compiled-in package has no data marker");
  // The record's pith properties, as a stamped PDF's XMP carries them (the
  // package writes its own resolverUrl and tool).
  const carrier::PithProperties properties = carrier::pith_properties_of(record, "", "");
  text.replace(at, sty_data_marker.size(), data_block(properties, *number, resolver, record.document_bytes));
  return text;
}

}  // namespace pith::tex
