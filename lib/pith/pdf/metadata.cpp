#include "pith/pdf/metadata.hpp"

#include "pith/pdf/vocabulary.hpp"


#include "pith/pdf/xmp.hpp"

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

}  // namespace pith::pdf
