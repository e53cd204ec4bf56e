// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a user may type to name a paper, for lookup: a full Pith Number
// (`pith:2020:WXNI57C2SJ24QK62DB7DTUREA3`), the bare 26-character body, a
// short form (`pith:WXNI57C2`, 8/12/16 characters) or an arXiv id
// (`2011.03641`, `arXiv:2011.03641v3`, `hep-th/9901001`). Parsing only
// classifies and normalises; whether a fetched record matches is
// `Identifier::matches`, applied to every verified answer (a verified record
// for another paper is a substitution, never accepted).
#include "pith/base/error.hpp"
#include "pith/registry/number.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace pith::registry {

enum class IdentifierKind { full_number, body, short_form, arxiv };
[[nodiscard]] const char* to_string(IdentifierKind k);

// An arXiv id as typed: `2011.03641`, `hep-th/9901001`, with an optional version.
struct ArxivId {
  std::string id;              // without version
  std::optional<int> version;  // vN when given
  // `2011.03641v3`, or `2011.03641` without a version.
  [[nodiscard]] std::string to_string() const;
};

// The arXiv paper a record comes from (canonical_record.source of kind
// "arxiv", documents.hpp), or nullopt when its source is of another kind.
[[nodiscard]] std::optional<ArxivId> record_arxiv_source(const nlohmann::json& canonical_record);

// A Pith Number (in any form) or an arXiv id.
struct Identifier {
  std::variant<PithNumber, ArxivId> value;

  [[nodiscard]] IdentifierKind kind() const;
  // The Pith Number, or nullptr for an arXiv id.
  [[nodiscard]] const PithNumber* number() const { return std::get_if<PithNumber>(&value); }
  // The arXiv id, or nullptr for a Pith Number.
  [[nodiscard]] const ArxivId* arxiv() const { return std::get_if<ArxivId>(&value); }
  // Normalised for messages: `pith:2020:BODY`, `pith:BODY`, `pith:PREFIX`, `2011.03641v3`.
  [[nodiscard]] std::string text() const;
  // The `<ID>` of the registry paths (`/pith/<ID>/bundle.json`).
  [[nodiscard]] std::string path_id() const;
  // True when a verified record with this full number and canonical record
  // is the one this identifier names (PithNumber::matches for a number).
  [[nodiscard]] bool matches(const PithNumber& full_number, const nlohmann::json& canonical_record) const;
  // Why it does not match, for the report ("asked for X, got Y").
  [[nodiscard]] std::string mismatch(const PithNumber& full_number, const nlohmann::json& canonical_record) const;
};

// Parses user input (surrounding whitespace and lower case accepted). The
// error names the input and, for a bad character, its position.
[[nodiscard]] Result<Identifier> parse_identifier(std::string_view input);

// True when `input` looks like something parse_identifier accepts (used by
// pith-check to decide between a file name and an identifier).
[[nodiscard]] bool looks_like_identifier(std::string_view input);

}  // namespace pith::registry
