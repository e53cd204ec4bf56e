// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the resolver asks (resolver.cpp, not installed): the bases in
// order (the resolver, the user's mirrors, the mirror_hints of a verified
// bundle), the endpoints under each, what a public answer may call them,
// and the records a file:// mirror holds under a short form.
#include "pith/registry/verify.hpp"
#include "pith/resolver/options.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pith::resolver::detail {

// Who configured a base: what a public answer may call it, and whether an
// answer from it counts as the registry's or a mirror's.
enum class BaseRole { registry, mirror, hint };

struct Endpoint {
  std::string url;
  std::string accept;
  std::size_t base_index = 0;  // position in the job's bases
  std::string base;            // the base URL the endpoint is under
  BaseRole role = BaseRole::registry;
};

// What a public answer calls a base (never its URL: issue 23).
[[nodiscard]] const char* public_name(BaseRole role);
[[nodiscard]] std::string without_trailing_slash(std::string url);
[[nodiscard]] bool is_file_url(std::string_view url);
[[nodiscard]] bool is_web_url(std::string_view url);

// The endpoints of one base for the path identifier `id`, in the order asked.
[[nodiscard]] std::vector<Endpoint> endpoints_for(const std::string& base, std::size_t base_index, BaseRole role,
                                                  const std::string& id);
// What a report or message calls an endpoint: its URL for a user, its role
// ("the registry", "a mirror") in a public answer (options.disclosure).
[[nodiscard]] std::string shown(const ResolverOptions& options, const Endpoint& ep);
// A base as a message names it: its URL, or its role in a public answer.
[[nodiscard]] std::string shown_base(const ResolverOptions& options, const std::string& base, BaseRole role);

// The bodies of the records a file:// mirror holds that start with `prefix`.
[[nodiscard]] std::vector<std::string> mirror_bodies_with_prefix(std::string_view base, std::string_view prefix);

// mirror_hints of a verified bundle: other bases serving the same paths.
[[nodiscard]] std::vector<std::string> mirror_hint_bases(const registry::DocumentContent& content);

}  // namespace pith::resolver::detail
