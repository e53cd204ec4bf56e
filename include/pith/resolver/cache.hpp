// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// On-disk cache of registry documents: one file per Pith Number holding the
// verified bundle (or state) bytes exactly as served, `<BODY>.json`, plus a
// small `<BODY>.meta.json` (URL, ETag, Last-Modified, fetch time) and alias
// files for arXiv ids. Every write is atomic (base/atomic_file.hpp: temp
// file in the same directory, fsync, rename). The cache itself trusts nothing: the resolver
// re-verifies every entry it reads and never uses one that fails.
//
// A lookup never harms the cache (docs/resolver.md, "Cache"): entries are
// written only by the resolver, only for a record it fully verified, filed
// under that record's own number, never over a newer verified copy, and
// never with --offline; nothing removes them (a bad entry is ignored until a
// verified copy of its number replaces it). So a mistyped or hostile number
// (another year, another paper's body) cannot delete or replace a good one.
#include "pith/base/error.hpp"
#include "pith/registry/number.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pith::resolver {

struct CacheMeta {
  std::string url;            // where the document came from
  std::string etag;
  std::string last_modified;
  std::int64_t fetched_at = 0;  // unix seconds of the last fetch or revalidation
};

struct CachedDocument {
  // The number the entry's metadata says it is filed under, as that
  // advisory file writes it (empty: it says none). Never trusted: compared,
  // as text, with the number of the record the entry verifies as.
  std::string full_number;
  std::string bytes;
  CacheMeta meta;
  std::filesystem::path path;
};

class RecordCache {
 public:
  // An empty `dir` is no cache: nothing is found, storing fails (no
  // private location to keep records in; options.hpp default_cache_dir()).
  explicit RecordCache(std::filesystem::path dir);

  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }

  struct Entry {
    registry::PithNumber full_number;  // of the verified record (full form)
    std::string bytes;
    CacheMeta meta;
    std::vector<std::string> arxiv_aliases;  // `2011.03641`, `2011.03641v3`
  };
  // Files the verified document under its full number, and its arXiv aliases.
  [[nodiscard]] Result<std::filesystem::path> store(const std::string& full_number, std::string_view bytes,
                                                    const CacheMeta& meta,
                                                    const std::vector<std::string>& arxiv_aliases = {});
  // Many at once (a batch): every document reaches the disk before any is
  // renamed into place, with one file-system sync instead of one per entry.
  [[nodiscard]] Result<void> store_many(const std::vector<Entry>& entries);
  // Updates only the fetch time (after a 304).
  [[nodiscard]] Result<void> touch(const registry::PithNumber& full_number, std::int64_t fetched_at);

  [[nodiscard]] std::optional<CachedDocument> load_body(const std::string& body) const;
  // Bodies of the entries whose body starts with `prefix` (short forms).
  [[nodiscard]] std::vector<std::string> bodies_with_prefix(const std::string& prefix) const;
  // The body an arXiv alias was filed under.
  [[nodiscard]] std::optional<std::string> body_for_arxiv(const std::string& arxiv_text) const;

 private:
  std::filesystem::path dir_;
};

[[nodiscard]] std::int64_t unix_now();

}  // namespace pith::resolver
