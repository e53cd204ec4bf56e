// SPDX-License-Identifier: GPL-3.0-or-later
// The digital signatures of a PDF, listed in its report and shown as text (check/pdf.hpp).
#include "pith/check/pdf.hpp"

#include "pith/base/terminal_text.hpp"

namespace pith::check {

// --- Digital signatures (listed, not validated) -----------------------------

void list_signatures(Report& report, const std::vector<pdf::PdfSignature>& signatures, std::uint64_t file_length) {
  if (signatures.empty()) return;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& s : signatures) {
    nlohmann::json j{{"field", s.field}, {"sub_filter", s.sub_filter}};
    if (!s.signer.empty()) j["signer"] = s.signer;
    if (!s.signed_at.empty()) j["signed_at"] = s.signed_at;
    if (s.signed_length) {
      j["signed_length"] = *s.signed_length;
      j["bytes_after"] = *s.signed_length <= file_length ? file_length - *s.signed_length : 0;
    }
    if (s.certification) j["certification"] = *s.certification;
    list.push_back(std::move(j));
  }
  report.extra["signatures"] = std::move(list);
}

namespace {

// A PDF date `D:YYYYMMDDHHmmSS…` as `YYYY-MM-DD HH:mm:SS…` (the rest, a time
// zone, kept); anything else as written.
std::string readable_date(const std::string& pdf_date) {
  const std::string_view d = std::string_view(pdf_date).substr(pdf_date.starts_with("D:") ? 2 : 0);
  if (d.size() < 14 || d.substr(0, 14).find_first_not_of("0123456789") != std::string_view::npos) return pdf_date;
  return std::string(d.substr(0, 4)) + "-" + std::string(d.substr(4, 2)) + "-" + std::string(d.substr(6, 2)) + " " +
         std::string(d.substr(8, 2)) + ":" + std::string(d.substr(10, 2)) + ":" + std::string(d.substr(12, 2)) +
         std::string(d.substr(14));
}

}  // namespace

std::string signatures_text(const Report& report) {
  const auto it = report.extra.find("signatures");
  if (it == report.extra.end() || !it->is_array() || it->empty()) return {};
  std::string out = "  signatures (" + std::to_string(it->size()) + ", not validated by pith):\n";
  const auto text = [](const nlohmann::json& j, const char* k) {
    return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string();
  };
  for (const auto& s : *it) {
    if (!s.is_object()) continue;
    std::string line = "    field '" + text(s, "field") + "'";
    if (!text(s, "signer").empty()) line += ", signer '" + text(s, "signer") + "'";
    if (!text(s, "signed_at").empty()) line += ", signed " + readable_date(text(s, "signed_at"));
    if (!text(s, "sub_filter").empty()) line += ", " + text(s, "sub_filter");
    if (s.contains("certification") && s["certification"].is_number_integer())
      line += ", certifies the document (DocMDP /P " + std::to_string(s["certification"].get<int>()) + ")";
    if (s.contains("signed_length") && s["signed_length"].is_number_unsigned()) {
      const auto after = s.value("bytes_after", std::uint64_t{0});
      line += after == 0 ? ", covers the whole file"
                         : ", covers the first " + std::to_string(s["signed_length"].get<std::uint64_t>()) +
                               " bytes (" + std::to_string(after) + " bytes added after signing)";
    }
    out += terminal_safe(line) + "\n";
  }
  return out;
}

}  // namespace pith::check
