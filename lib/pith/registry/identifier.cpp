// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/registry/identifier.hpp"

#include "pith/base/ascii.hpp"
#include "pith/registry/documents.hpp"

#include <algorithm>
#include <cctype>

namespace pith::registry {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

// New-style arXiv ids: YYMM.NNNN or YYMM.NNNNN, optional vN.
bool parse_new_arxiv(std::string_view s, std::string& id, std::optional<int>& version) {
  const auto dot = s.find('.');
  if (dot != 4) return false;
  std::size_t end = s.find_first_of("vV");
  std::string_view number = s.substr(0, end);
  const std::size_t digits = number.size() - 5;
  if (digits != 4 && digits != 5) return false;
  for (std::size_t i = 0; i < number.size(); ++i) {
    if (i == 4) continue;
    if (!is_digit(number[i])) return false;
  }
  id = std::string(number);
  if (end == std::string_view::npos) return true;
  std::string_view v = s.substr(end + 1);
  if (v.empty() || v.size() > 4 || !std::all_of(v.begin(), v.end(), is_digit)) return false;
  version = std::stoi(std::string(v));
  return *version > 0;
}

// Old-style arXiv ids: archive(.XX)/YYMMNNN, optional vN (e.g. hep-th/9901001v2).
bool parse_old_arxiv(std::string_view s, std::string& id, std::optional<int>& version) {
  const auto slash = s.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash > 16) return false;
  std::string_view archive = s.substr(0, slash);
  for (char c : archive) {
    if (!((c >= 'a' && c <= 'z') || c == '-' || c == '.' || (c >= 'A' && c <= 'Z'))) return false;
  }
  std::string_view rest = s.substr(slash + 1);
  std::size_t end = rest.find('v');
  std::string_view number = rest.substr(0, end);
  if (number.size() != 7 || !std::all_of(number.begin(), number.end(), is_digit)) return false;
  id = std::string(archive) + "/" + std::string(number);
  if (end == std::string_view::npos) return true;
  std::string_view v = rest.substr(end + 1);
  if (v.empty() || v.size() > 4 || !std::all_of(v.begin(), v.end(), is_digit)) return false;
  version = std::stoi(std::string(v));
  return *version > 0;
}

std::optional<ArxivId> parse_arxiv(std::string_view s) {
  if (starts_with_ascii_case_blind(s, "arxiv:")) s.remove_prefix(6);
  ArxivId arxiv;
  if (!parse_new_arxiv(s, arxiv.id, arxiv.version) && !parse_old_arxiv(s, arxiv.id, arxiv.version)) {
    return std::nullopt;
  }
  return arxiv;
}

bool meant_as_pith_number(std::string_view s) {
  if (starts_with_ascii_case_blind(s, "pith:")) return true;
  if (s.size() != 8 && s.size() != 12 && s.size() != 16 && s.size() != 26) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
}

std::string source_text(const nlohmann::json& record) {
  const auto* source = record.is_object() && record.contains("source") ? &record["source"] : nullptr;
  if (!source || !source->is_object()) return "no source";
  std::string out = source->value("kind", std::string("?")) + " ";
  if (source->contains("id") && (*source)["id"].is_string()) out += (*source)["id"].get<std::string>();
  if (source->contains("version") && (*source)["version"].is_number_integer()) {
    out += "v" + std::to_string((*source)["version"].get<long long>());
  }
  return out;
}

}  // namespace

const char* to_string(IdentifierKind k) {
  switch (k) {
    case IdentifierKind::full_number: return "full number";
    case IdentifierKind::body: return "body";
    case IdentifierKind::short_form: return "short form";
    case IdentifierKind::arxiv: return "arXiv id";
  }
  return "?";
}

std::string ArxivId::to_string() const { return id + (version ? "v" + std::to_string(*version) : ""); }

std::optional<ArxivId> record_arxiv_source(const nlohmann::json& canonical_record) {
  const RecordSource source = read_record_source(canonical_record);
  if (source.kind != "arxiv" || source.id.empty()) return std::nullopt;
  ArxivId out{source.id, std::nullopt};
  if (source.version) out.version = static_cast<int>(*source.version);
  return out;
}

IdentifierKind Identifier::kind() const {
  const PithNumber* n = number();
  if (n == nullptr) return IdentifierKind::arxiv;
  switch (n->form) {
    case NumberForm::full: return IdentifierKind::full_number;
    case NumberForm::body: return IdentifierKind::body;
    case NumberForm::short_prefix: return IdentifierKind::short_form;
  }
  return IdentifierKind::full_number;
}

std::string Identifier::text() const {
  if (const PithNumber* n = number()) return n->to_string();
  return arxiv()->to_string();
}

std::string Identifier::path_id() const {
  if (const PithNumber* n = number()) return n->body;
  return arxiv()->to_string();
}

bool Identifier::matches(const PithNumber& full_number, const nlohmann::json& canonical_record) const {
  if (const PithNumber* n = number()) return n->matches(full_number);
  const ArxivId& wanted = *arxiv();
  const auto source = record_arxiv_source(canonical_record);
  if (!source || source->id != wanted.id) return false;
  return !wanted.version || source->version == wanted.version;
}

std::string Identifier::mismatch(const PithNumber& full_number, const nlohmann::json& canonical_record) const {
  if (arxiv() != nullptr) {
    return "asked for arXiv " + text() + ", got " + full_number.to_string() + " whose source is " +
           source_text(canonical_record);
  }
  return "asked for " + text() + ", got " + full_number.to_string();
}

Result<Identifier> parse_identifier(std::string_view raw) {
  const std::string input = trimmed(raw);
  if (input.empty()) return fail(ErrorKind::malformed, std::string(raw), "empty identifier");
  if (auto arxiv = parse_arxiv(input)) return Identifier{*arxiv};
  if (meant_as_pith_number(input)) {
    auto number = parse_pith_number(input);
    if (!number) return fail(number.error().kind, input, number.error().message);
    return Identifier{std::move(*number)};
  }
  return fail(ErrorKind::malformed, input, "not a Pith Number (pith:YYYY:<26 characters>, a 26-character body, pith:<8|12|16>) "
                     "nor an arXiv id (2011.03641, arXiv:2011.03641v3)");
}

bool looks_like_identifier(std::string_view input) { return parse_identifier(input).has_value(); }

}  // namespace pith::registry
