#include "pith/pdf_metadata.hpp"

#include "pith/pith_metadata.hpp"

#include <podofo/base/PdfName.h>

#include "pith/xmp.hpp"

namespace pith::pdf {
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
    // Exempi reads it; a packet it cannot parse carries no pith values for us.
    if (auto readout = read_xmp(*m.xmp_packet); readout && readout->parsed) {
      m.xmp_number = readout->number;
      m.xmp_canonical_sha256 = readout->canonical_sha256;
    }
  }
  auto bundle = reader.embedded_file(meta::embedded_name);
  if (!bundle) return std::unexpected(bundle.error());
  m.embedded_bundle = *bundle;
  return m;
}

namespace {

// Stores the value, or the problem: one damaged object must not hide the rest.
template <class T>
void take(Result<std::optional<T>> r, std::optional<T>& slot, std::vector<std::string>& problems,
          const std::string& what) {
  if (r) slot = std::move(*r);
  else problems.push_back(what + ": " + r.error().describe());
}

}  // namespace

PdfMetadata read_pdf_metadata(const Reader& reader) {
  PdfMetadata m;
  take(reader.xmp_metadata(), m.xmp_packet, m.read_problems, "XMP metadata");
  take(reader.info_string(meta::info_number), m.info_number, m.read_problems, "Info /PithNumber");
  take(reader.info_string(meta::info_url), m.info_url, m.read_problems, "Info /PithURL");
  take(reader.info_string("Title"), m.info_title, m.read_problems, "Info /Title");
  take(reader.embedded_file(meta::embedded_name), m.embedded_bundle, m.read_problems,
       std::string("embedded ") + meta::embedded_name);
  auto page = reader.first_page();
  if (!page) {
    m.read_problems.push_back("page 1: " + page.error().describe());
    return m;
  }
  auto annots = reader.page_annotations(*page);
  if (!annots) {
    m.read_problems.push_back("page 1 annotations: " + annots.error().describe());
    return m;
  }
  for (const auto& [id, a] : *annots) {
    const PoDoFo::PdfObject* sub = a.GetKey(PoDoFo::PdfName("Subtype"));
    if (!sub || !sub->IsName() || sub->GetName().GetName() != "Link") continue;
    auto action = reader.resolve_key(a, "A");
    if (!action || !*action || !(*action)->IsDictionary()) continue;
    auto uri = reader.resolve_key((*action)->GetDictionary(), "URI");
    if (uri && *uri && ((*uri)->IsString() || (*uri)->IsHexString()))
      m.link_uris.push_back((*uri)->GetString().GetStringUtf8());
  }
  return m;
}

}  // namespace pith::pdf
