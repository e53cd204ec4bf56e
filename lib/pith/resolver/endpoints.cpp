// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/resolver/endpoints.hpp"

#include "pith/registry/documents.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <set>

namespace pith::resolver::detail {

// What a public answer calls a base (never its URL: issue 23).
const char* public_name(BaseRole role) {
  switch (role) {
    case BaseRole::registry: return "the registry";
    case BaseRole::mirror: return "a mirror";
    case BaseRole::hint: return "a mirror the record names";
  }
  return "the registry";
}

std::string without_trailing_slash(std::string url) {
  while (url.size() > 1 && url.back() == '/') url.pop_back();
  return url;
}

bool is_file_url(std::string_view url) { return url.starts_with("file://"); }
bool is_web_url(std::string_view url) { return url.starts_with("https://") || url.starts_with("http://"); }

std::vector<Endpoint> endpoints_for(const std::string& base, std::size_t base_index, BaseRole role, const std::string& id) {
  std::vector<Endpoint> out = {
      {base + "/pith/" + id + "/bundle.json", "application/json", base_index, base, role},
      {base + "/.well-known/pith/" + id + "/bundle.json", "application/json", base_index, base, role},
      {base + "/pith/" + id + "/state.json", "application/json", base_index, base, role},
  };
  // A file:// mirror has no content negotiation: /pith/<ID> is a directory there.
  if (!is_file_url(base)) out.push_back({base + "/pith/" + id, "application/ld+json", base_index, base, role});
  return out;
}

// What a report or message calls an endpoint: its URL for a user, its role
// ("the registry", "a mirror") in a public answer (options.disclosure).
std::string shown(const ResolverOptions& options, const Endpoint& ep) {
  return options.disclosure == Disclosure::public_answer ? public_name(ep.role) : ep.url;
}

// A base as a message names it: its URL, or its role in a public answer.
std::string shown_base(const ResolverOptions& options, const std::string& base, BaseRole role) {
  return options.disclosure == Disclosure::public_answer ? public_name(role) : base;
}

namespace {

// The directory a file:// base names (file:///srv/m or file://localhost/srv/m,
// %XX decoded as curl decodes it), or nullopt for another host.
std::optional<std::filesystem::path> directory_of(std::string_view base) {
  base.remove_prefix(std::string_view("file://").size());
  if (base.starts_with("localhost/")) base.remove_prefix(std::string_view("localhost").size());
  if (!base.starts_with('/')) return std::nullopt;
  std::string path;
  for (std::size_t i = 0; i < base.size(); ++i) {
    const auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    if (base[i] == '%' && i + 2 < base.size() && hex(base[i + 1]) && hex(base[i + 2])) {
      path += static_cast<char>(std::stoi(std::string(base.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      path += base[i];
    }
  }
  return std::filesystem::path(path);
}

bool is_body(std::string_view name) {
  return name.size() == 26 && std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= 'A' && c <= 'Z') || (c >= '2' && c <= '7');
         });
}

}  // namespace

// The records a file:// mirror holds whose body starts with `prefix`: a scan
// of its pith/ and .well-known/pith/ directories. A plain mirror (a copy of
// the registry's paths) has no short-form paths and needs no index file for
// this; a directory of a million records costs one readdir of it per lookup.
std::vector<std::string> mirror_bodies_with_prefix(std::string_view base, std::string_view prefix) {
  std::set<std::string> bodies;
  const auto dir = directory_of(base);
  if (!dir) return {};
  for (const char* sub : {"pith", ".well-known/pith"}) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(*dir / sub, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (is_body(name) && name.starts_with(prefix)) bodies.insert(name);
    }
  }
  return {bodies.begin(), bodies.end()};
}

// mirror_hints of a verified bundle: other bases serving the same paths.
// Only a bundle's are signed; a state alone is not, and its hints would send
// requests wherever its author chose (SSRF).
std::vector<std::string> mirror_hint_bases(const registry::DocumentContent& content) {
  std::vector<std::string> out;
  if (content.kind != registry::DocumentKind::bundle) return out;
  auto collect = [&out](const nlohmann::json& hints) {
    if (!hints.is_array()) return;
    for (const auto& h : hints) {
      if (h.is_object() && h.contains("base_url") && h["base_url"].is_string()) {
        const std::string base = h["base_url"].get<std::string>();
        if (is_web_url(base) && base.size() < 2048) out.push_back(base);
      }
    }
  };
  collect(registry::member(content.document, "mirror_hints"));
  collect(registry::member(registry::member(registry::merged_state(content), "current"), "mirror_hints"));
  return out;
}

}  // namespace pith::resolver::detail
