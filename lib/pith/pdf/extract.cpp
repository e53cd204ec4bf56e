// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/extract.hpp"

#include "pith/base/ascii.hpp"
#include "pith/pdf/reader.hpp"
#include "pith/carrier/vocabulary.hpp"
#include "pith/signed_json/strict.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace pith::pdf {
namespace {

// The embedded bundle is verified elsewhere; here it is only asked which
// number it names. Still with the strict parser and its bounds (size, depth):
// a lenient parse of 16 MiB of `[` takes over a gigabyte.
constexpr std::size_t max_embedded_bundle_bytes = std::size_t{16} * 1024 * 1024;
// Values longer than this are not quoted whole in messages.
constexpr std::size_t max_quoted_chars = 80;

std::string_view trim(std::string_view s) {
  const auto not_space = [](char c) { return c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v'; };
  while (!s.empty() && !not_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && !not_space(s.back())) s.remove_suffix(1);
  return s;
}

bool starts_with_pith_prefix(std::string_view s) {
  return starts_with_ascii_case_blind(s, "pith:");
}

// A value quoted for a message: printable ASCII kept, the rest escaped, long
// values cut (a hostile PDF must not be able to write to the terminal).
std::string quoted(std::string_view value) {
  std::string out = "'";
  for (std::size_t i = 0; i < value.size() && i < max_quoted_chars; ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (c >= 0x20 && c < 0x7F && c != '\'' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xF];
    }
  }
  if (value.size() > max_quoted_chars) out += "…";
  return out + "'";
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int hi = hex_value(s[i + 1]);
      const int lo = hex_value(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

class Collector {
 public:
  explicit Collector(PdfExtraction& out) : out_(out) {}

  // Records `value` found at `where` as a sighting, or as a problem when it
  // is not a Pith Number.
  void number(NumberSource source, std::string where, std::string_view value, std::string_view url = {}) {
    if (auto parsed = registry::parse_pith_number(value)) {
      out_.sightings.push_back(
          NumberSighting{source, std::move(where), std::string(value), std::move(*parsed), std::string(url)});
    } else {
      out_.problems.push_back(where + " holds " + quoted(value) + ", which is not a Pith Number");
    }
  }

  // A resolver URL: its /pith/<ID> names a number. A URL without one is a
  // problem only where a pith URL belongs; an ordinary link (even one whose
  // path happens to hold /pith/) is simply not a sighting.
  void url(NumberSource source, const std::string& where, std::string_view url, bool must_be_pith) {
    const auto id = resolver_url_id(url);
    if (!must_be_pith && !(id && registry::parse_pith_number(*id))) return;
    if (!id) {
      out_.problems.push_back(where + " holds " + quoted(url) + ", which is not a resolver URL");
      return;
    }
    number(source, where + " " + quoted(url), *id, url);
  }

 private:
  PdfExtraction& out_;
};

void collect_from_xmp(const XmpReadout& xmp, Collector& collect, PdfExtraction& out) {
  if (xmp.number) collect.number(NumberSource::xmp_number, "XMP pith:number", *xmp.number);
  for (const auto& id : xmp.identifiers) {
    if (starts_with_pith_prefix(trim(id))) collect.number(NumberSource::xmp_identifier, "XMP dc:identifier", id);
  }
  if (xmp.resolver_url) collect.url(NumberSource::xmp_resolver_url, "XMP pith:resolverUrl", *xmp.resolver_url, true);
  for (const auto& name : xmp.malformed) {
    out.problems.push_back("XMP " + name + " is not a simple text value");
  }
}

void collect_from_bundle(std::string_view bundle, Collector& collect, PdfExtraction& out) {
  const std::string where = std::string("embedded ") + carrier::embedded_name;
  if (bundle.size() > max_embedded_bundle_bytes) {
    out.problems.push_back(where + " is larger than " + std::to_string(max_embedded_bundle_bytes) + " bytes");
    return;
  }
  signed_json::StrictJsonLimits limits;
  limits.max_bytes = max_embedded_bundle_bytes;
  const auto parsed = signed_json::parse_strict(bundle, limits);
  if (!parsed || !parsed->is_object()) {
    out.problems.push_back(where + " is not a JSON object");
    return;
  }
  const auto it = parsed->find("pith_number");
  if (it == parsed->end() || !it->is_string()) {
    out.problems.push_back(where + " has no pith_number");
    return;
  }
  collect.number(NumberSource::embedded_bundle, where + " .pith_number", it->get<std::string>());
}

}  // namespace

const char* to_string(NumberSource source) {
  switch (source) {
    case NumberSource::xmp_number: return "xmp_number";
    case NumberSource::xmp_identifier: return "xmp_identifier";
    case NumberSource::xmp_resolver_url: return "xmp_resolver_url";
    case NumberSource::info_number: return "info_number";
    case NumberSource::info_url: return "info_url";
    case NumberSource::embedded_bundle: return "embedded_bundle";
    case NumberSource::link_annotation: return "link_annotation";
    case NumberSource::page_text: return "page_text";
  }
  return "unknown";
}

std::string NumberConflict::describe() const {
  return first.where + " names " + first.number.to_string() + " but " + second.where + " names " +
         second.number.to_string();
}

std::vector<NumberConflict> PdfExtraction::conflicts() const {
  std::vector<NumberConflict> found;
  for (std::size_t i = 0; i < sightings.size(); ++i) {
    for (std::size_t j = i + 1; j < sightings.size(); ++j) {
      if (!sightings[i].number.matches(sightings[j].number)) {
        found.push_back(NumberConflict{sightings[i], sightings[j]});
      }
    }
  }
  return found;
}

std::optional<registry::PithNumber> PdfExtraction::number() const {
  if (!conflicts().empty()) return std::nullopt;
  for (const auto& s : sightings) {
    if (s.number.is_full()) return s.number;
  }
  return std::nullopt;
}

std::optional<NumberPlace> where_is_the_number(const PdfExtraction& extraction,
                                              const std::vector<NumberSighting>& printed) {
  if (extraction.found()) {
    // Conflicts are the caller's to refuse; the first full number, else the first form, is the one named.
    const auto full = extraction.number();
    const NumberSighting& first = extraction.sightings.front();
    if (full) {
      const auto it = std::find_if(extraction.sightings.begin(), extraction.sightings.end(),
                                   [](const NumberSighting& s) { return s.number.is_full(); });
      return NumberPlace{*full, it->where, false};
    }
    return NumberPlace{first.number, first.where, false};
  }
  if (printed.empty()) return std::nullopt;
  // Two different printed numbers: page 1 does not say which is the paper's.
  const bool one = std::all_of(printed.begin(), printed.end(),
                               [&](const NumberSighting& s) { return s.number.matches(printed.front().number); });
  if (!one) return std::nullopt;
  return NumberPlace{printed.front().number, printed.front().where, true};
}

std::vector<NumberSighting> printed_numbers(const std::vector<std::string>& lines) {
  constexpr std::size_t max_printed = 8;
  const auto token_char = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ':';
  };
  std::vector<NumberSighting> out;
  for (const auto& line : lines) {
    for (std::size_t at = line.find("pith:"); at != std::string::npos && out.size() < max_printed;
         at = line.find("pith:", at + 5)) {
      if (at > 0 && token_char(line[at - 1])) continue;  // part of a longer word
      std::size_t end = at + 5;
      while (end < line.size() && end - at < 64 && token_char(line[end])) ++end;
      const std::string_view token = std::string_view(line).substr(at, end - at);
      auto parsed = registry::parse_pith_number(token);
      if (!parsed || !parsed->is_full()) continue;
      out.push_back(NumberSighting{NumberSource::page_text, "page 1 text", std::string(token), std::move(*parsed), {}});
    }
  }
  return out;
}

std::optional<NumberSighting> printed_otherwise(const std::vector<NumberSighting>& printed,
                                                const registry::PithNumber& number) {
  for (const auto& s : printed) {
    if (!s.number.matches(number)) return s;
  }
  return std::nullopt;
}

std::optional<std::string> resolver_url_id(std::string_view url) {
  // Drop the query and fragment, then look for a /pith/ path segment.
  url = url.substr(0, std::min(url.find('?'), url.find('#')));
  const auto at = url.rfind("/pith/");
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view id = url.substr(at + 6);
  id = id.substr(0, id.find('/'));
  if (id.empty()) return std::nullopt;
  return percent_decode(id);
}

Result<PdfExtraction> extract_pith_numbers(const PdfMetadata& metadata) {
  PdfExtraction out;
  Collector collect(out);
  out.problems = metadata.read_problems;
  if (metadata.xmp_packet) {
    auto xmp = read_xmp(*metadata.xmp_packet);
    if (!xmp) return std::unexpected(xmp.error());
    if (!xmp->parsed) out.problems.push_back("the XMP packet could not be parsed: " + xmp->parse_error);
    out.xmp = std::move(*xmp);
    collect_from_xmp(*out.xmp, collect, out);
  }
  if (metadata.info_number) collect.number(NumberSource::info_number, "Info /PithNumber", *metadata.info_number);
  if (metadata.info_url) collect.url(NumberSource::info_url, "Info /PithURL", *metadata.info_url, true);
  if (metadata.embedded_bundle) collect_from_bundle(*metadata.embedded_bundle, collect, out);
  for (const auto& uri : metadata.link_uris) {
    collect.url(NumberSource::link_annotation, "page 1 link", uri, false);
  }
  return out;
}

namespace {

// Page 1 annotations looked at: a real first page has a few dozen links; a
// hostile one may have millions of entries, of which only these are read.
constexpr std::size_t max_page_annotations = pdf::Reader::default_max_page_annotations;

std::optional<std::string> link_uri(const pdf::Reader& reader, const PoDoFo::PdfDictionary& annotation) {
  const PoDoFo::PdfObject* subtype = annotation.GetKey(PoDoFo::PdfName("Subtype"));
  if (!subtype || !subtype->IsName() || subtype->GetName().GetName() != "Link") return std::nullopt;
  auto action = reader.resolve_key(annotation, "A");
  if (!action || !*action || !(*action)->IsDictionary()) return std::nullopt;
  const PoDoFo::PdfDictionary& a = (*action)->GetDictionary();
  const PoDoFo::PdfObject* kind = a.GetKey(PoDoFo::PdfName("S"));
  if (!kind || !kind->IsName() || kind->GetName().GetName() != "URI") return std::nullopt;
  auto uri = reader.resolve_key(a, "URI");
  if (!uri || !*uri || !((*uri)->IsString() || (*uri)->IsHexString())) return std::nullopt;
  return pdf::string_bytes((*uri)->GetString());  // URIs are 7-bit ASCII bytes (ISO 32000 12.6.4.7)
}

template <class T>
std::optional<T> or_problem(Result<std::optional<T>> value, const char* what, PdfMetadata& out,
                            bool* unreadable = nullptr) {
  if (!value) {
    out.read_problems.push_back(std::string(what) + " could not be read: " + value.error().describe());
    if (unreadable) *unreadable = true;
    return std::nullopt;
  }
  return std::move(*value);
}

}  // namespace

PdfMetadata read_pdf_metadata(const pdf::Reader& reader) {
  PdfMetadata out;
  out.xref_section_offsets = reader.section_offsets();
  bool* rewritten = &out.pith_parts_unreadable;
  out.info_number = or_problem(reader.info_string(carrier::info_number), "Info /PithNumber", out, rewritten);
  out.info_url = or_problem(reader.info_string(carrier::info_url), "Info /PithURL", out, rewritten);
  out.info_title = or_problem(reader.info_string("Title"), "Info /Title", out);
  if (auto xmp = or_problem(reader.xmp_metadata_stream(), "the XMP packet (/Metadata)", out, rewritten)) {
    out.xmp_span = StreamSpan{xmp->raw_offset, xmp->raw_length};
    out.xmp_packet = std::move(xmp->data);
  }
  if (auto bundle = or_problem(reader.embedded_file_stream(carrier::embedded_name), "the embedded pith-bundle.json", out,
                               rewritten)) {
    out.embedded_bundle_span = StreamSpan{bundle->raw_offset, bundle->raw_length};
    out.embedded_bundle = std::move(bundle->data);
  }
  // A second one would be ignored here but could be what another reader shows.
  if (auto files = reader.embedded_files()) {
    out.embedded_bundle_count = static_cast<std::size_t>(std::count_if(
        files->begin(), files->end(), [](const NameTreeEntry& e) { return e.key_utf8 == carrier::embedded_name; }));
  }

  auto page = reader.first_page();
  if (!page) {
    out.read_problems.push_back("page 1 could not be read: " + page.error().describe());
    return out;
  }
  auto annotations = reader.page_annotations(*page, max_page_annotations + 1);
  if (!annotations) {
    out.read_problems.push_back("page 1 annotations could not be read: " + annotations.error().describe());
    return out;
  }
  std::size_t seen = 0;
  for (const auto& [id, annotation] : *annotations) {
    if (++seen > max_page_annotations) {
      out.read_problems.push_back("page 1 has more than " + std::to_string(max_page_annotations) +
                                  " annotations: the rest were not read");
      break;
    }
    if (auto uri = link_uri(reader, annotation)) out.link_uris.push_back(std::move(*uri));
  }
  return out;
}

}  // namespace pith::pdf
