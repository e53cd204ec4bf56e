#include "pith/pdf_metadata.hpp"

#include "pith/pith_metadata.hpp"

#if __has_include("pith/xmp.hpp")
#include "pith/xmp.hpp"
#define PITH_HAVE_XMP_READ 1
#else
#define PITH_HAVE_XMP_READ 0
#endif

namespace pith::pdf {
namespace {

std::string xml_unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    const auto semi = s.find(';', i);
    if (semi == std::string_view::npos || semi - i > 8) {
      out += s[i];
      continue;
    }
    const std::string_view ent = s.substr(i + 1, semi - i - 1);
    if (ent == "amp") out += '&';
    else if (ent == "lt") out += '<';
    else if (ent == "gt") out += '>';
    else if (ent == "quot") out += '"';
    else if (ent == "apos") out += '\'';
    else {
      out += s.substr(i, semi - i + 1);
    }
    i = semi;
  }
  return out;
}

// The prefix bound to the pith namespace in the packet ("pith" normally).
std::string pith_prefix(std::string_view packet) {
  const std::string ns = std::string("=\"") + meta::xmp_namespace + "\"";
  const auto at = packet.find(ns);
  if (at == std::string_view::npos) return meta::xmp_prefix;
  const auto xmlns = packet.rfind("xmlns:", at);
  if (xmlns == std::string_view::npos || at - xmlns > 64) return meta::xmp_prefix;
  return std::string(packet.substr(xmlns + 6, at - xmlns - 6));
}

}  // namespace

std::optional<std::string> find_xmp_pith_property(std::string_view packet, std::string_view name) {
  const std::string qname = pith_prefix(packet) + ":" + std::string(name);
  // Attribute form: pith:number="..."
  for (const char quote : {'"', '\''}) {
    const std::string attr = qname + "=" + quote;
    if (auto at = packet.find(attr); at != std::string_view::npos) {
      const auto start = at + attr.size();
      const auto end = packet.find(quote, start);
      if (end != std::string_view::npos) return xml_unescape(packet.substr(start, end - start));
    }
  }
  // Element form: <pith:number>...</pith:number>
  const std::string open = "<" + qname + ">";
  if (auto at = packet.find(open); at != std::string_view::npos) {
    const auto start = at + open.size();
    const auto end = packet.find("</" + qname + ">", start);
    if (end != std::string_view::npos) return xml_unescape(packet.substr(start, end - start));
  }
  return std::nullopt;
}

Result<PithMetadata> read_pith_metadata(const Reader& reader) {
  PithMetadata m;
  auto number = reader.info_string(meta::info_number);
  if (!number) return std::unexpected(number.error());
  m.info_number = *number;
  auto url = reader.info_string(meta::info_url);
  if (!url) return std::unexpected(url.error());
  m.info_url = *url;
  auto packet = reader.xmp_metadata();
  if (!packet) return std::unexpected(packet.error());
  m.xmp_packet = *packet;
  if (m.xmp_packet) {
#if PITH_HAVE_XMP_READ
    // A real XMP parser (Exempi) when available; a packet it cannot read has no pith values.
    if (auto readout = read_xmp(*m.xmp_packet); readout && readout->parsed) {
      m.xmp_number = readout->number;
      m.xmp_canonical_sha256 = readout->canonical_sha256;
    }
#else
    m.xmp_number = find_xmp_pith_property(*m.xmp_packet, meta::xmp_number);
    m.xmp_canonical_sha256 = find_xmp_pith_property(*m.xmp_packet, meta::xmp_canonical_sha256);
#endif
  }
  auto bundle = reader.embedded_file(meta::embedded_name);
  if (!bundle) return std::unexpected(bundle.error());
  m.embedded_bundle = *bundle;
  return m;
}

}  // namespace pith::pdf
