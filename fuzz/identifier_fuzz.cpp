// SPDX-License-Identifier: GPL-3.0-or-later
// What a user types to name a paper (registry::parse_identifier: a Pith
// Number in any form or an arXiv id) and a Pith Number alone
// (parse_pith_number). What parses has a normal form that parses again to
// the same identifier.
#include "broken_promise.hpp"
#include "pith/registry/identifier.hpp"
#include "pith/registry/number.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

using pith::fuzz::broken_promise;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  (void)pith::registry::looks_like_identifier(input);
  if (auto id = pith::registry::parse_identifier(input)) {
    const auto again = pith::registry::parse_identifier(id->text());
    if (!again || again->kind() != id->kind() || again->text() != id->text()) broken_promise("text() parses to itself");
    (void)id->path_id();
  }
  if (auto number = pith::registry::parse_pith_number(input)) {
    const auto again = pith::registry::parse_pith_number(number->to_string());
    if (!again || again->to_string() != number->to_string()) broken_promise("to_string() parses to itself");
  }
  return 0;
}
