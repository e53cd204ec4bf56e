// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/resolver/cache.hpp"

#include "pith/registry/number.hpp"
#include "pith/base/atomic_file.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

namespace pith::resolver {
namespace {

constexpr std::uintmax_t max_entry_bytes = 16u * 1024u * 1024u;

std::optional<std::string> read_bounded(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > max_entry_bytes) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Only names we made ourselves reach the file system: base32 bodies and
// arXiv ids (digits, letters, '.', '-', '/' → '_').
bool safe_name(const std::string& s) {
  if (s.empty() || s.size() > 64 || s.front() == '.') return false;
  for (char c : s) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::string alias_file_name(std::string arxiv_text) {
  for (char& c : arxiv_text) {
    if (c == '/') c = '_';
  }
  return "arxiv-" + arxiv_text;
}

// The body an entry is filed under: that of a full number, else none ("").
std::string cache_key(const registry::PithNumber& number) { return number.has_whole_body() ? number.body : std::string(); }

std::string cache_key(std::string_view full_number) {
  const auto number = registry::parse_pith_number(full_number);
  return number ? cache_key(*number) : std::string();
}

std::unexpected<Error> no_cache_location() {
  return fail(ErrorKind::io, "cache",
              "no private cache location (HOME is unset and XDG_CACHE_HOME is not an absolute path): not cached; "
              "give --cache-dir DIR");
}

}  // namespace

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

RecordCache::RecordCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

Result<std::filesystem::path> RecordCache::store(const std::string& full_number, std::string_view bytes,
                                                 const CacheMeta& meta, const std::vector<std::string>& arxiv_aliases) {
  if (dir_.empty()) return no_cache_location();
  const std::string body = cache_key(full_number);
  if (!safe_name(body)) return fail(ErrorKind::malformed, full_number, "not a cacheable Pith Number");
  std::error_code ec;
  std::filesystem::create_directories(dir_ / "aliases", ec);
  if (ec) return fail(ErrorKind::io, dir_.string(), "cannot create the cache directory: " + ec.message());
  const auto doc_path = dir_ / (body + ".json");
  // The document is fsynced; the metadata and aliases are advisory (one that
  // is lost reads as "stale" or "not cached" and is simply fetched again), so
  // they are atomic but not fsynced one by one: one directory sync at the end.
  if (auto ok = write_file_atomically(doc_path, bytes, Durability::file); !ok) return std::unexpected(ok.error());
  const nlohmann::json m = {{"pith_number", full_number}, {"url", meta.url}, {"etag", meta.etag},
                            {"last_modified", meta.last_modified}, {"fetched_at", meta.fetched_at}};
  if (auto ok = write_file_atomically(dir_ / (body + ".meta.json"), m.dump(2) + "\n", Durability::none); !ok) {
    return std::unexpected(ok.error());
  }
  for (const auto& alias : arxiv_aliases) {
    const std::string name = alias_file_name(alias);
    if (!safe_name(name)) continue;
    if (auto ok = write_file_atomically(dir_ / "aliases" / name, full_number + "\n", Durability::none); !ok) {
      return std::unexpected(ok.error());
    }
  }
  // Makes the renames durable; a failure here only risks losing the newest
  // entries in a crash, which then read as not cached and are fetched again.
  (void)sync_directory(dir_);
  return doc_path;
}

Result<void> RecordCache::store_many(const std::vector<Entry>& entries) {
  if (entries.size() == 1) {
    const Entry& e = entries.front();
    if (auto stored = store(e.full_number.to_string(), e.bytes, e.meta, e.arxiv_aliases); !stored) {
      return std::unexpected(stored.error());
    }
    return {};
  }
  if (entries.empty()) return {};
  if (dir_.empty()) return no_cache_location();
  std::error_code ec;
  std::filesystem::create_directories(dir_ / "aliases", ec);
  if (ec) return fail(ErrorKind::io, dir_.string(), "cannot create the cache directory: " + ec.message());
  // 1. Every document to a temporary file, unsynced (and closed: a batch may
  // be larger than the descriptors a process may hold).
  std::vector<StagedFile> staged;
  for (const Entry& e : entries) {
    const std::string body = cache_key(e.full_number);
    if (!safe_name(body)) continue;
    auto file = StagedFile::beside(dir_ / (body + ".json"));
    if (!file) return std::unexpected(file.error());
    if (auto ok = file->append(e.bytes); !ok) return ok;
    if (auto ok = file->close(); !ok) return ok;
    staged.push_back(std::move(*file));
  }
  // 2. One sync of the file system: every document is on disk before any rename.
  sync_file_system(dir_);
  // 3. Into place, then the advisory metadata and aliases, then one directory sync.
  for (auto& file : staged) {
    if (auto ok = file.commit(); !ok) return ok;
  }
  for (const Entry& e : entries) {
    const std::string body = cache_key(e.full_number);
    if (!safe_name(body)) continue;
    const std::string number = e.full_number.to_string();
    const nlohmann::json m = {{"pith_number", number}, {"url", e.meta.url}, {"etag", e.meta.etag},
                              {"last_modified", e.meta.last_modified}, {"fetched_at", e.meta.fetched_at}};
    if (auto ok = write_file_atomically(dir_ / (body + ".meta.json"), m.dump(2) + "\n", Durability::none); !ok) return ok;
    for (const auto& alias : e.arxiv_aliases) {
      const std::string name = alias_file_name(alias);
      if (!safe_name(name)) continue;
      if (auto ok = write_file_atomically(dir_ / "aliases" / name, number + "\n", Durability::none); !ok) return ok;
    }
  }
  // Makes the renames durable; a failure here only risks losing the newest
  // entries in a crash, which then read as not cached and are fetched again.
  (void)sync_directory(dir_);
  return {};
}

Result<void> RecordCache::touch(const registry::PithNumber& full_number, std::int64_t fetched_at) {
  const std::string body = cache_key(full_number);
  auto doc = load_body(body);
  if (!doc) return fail(ErrorKind::io, full_number.to_string(), "not in the cache");
  nlohmann::json m = {{"pith_number", full_number.to_string()}, {"url", doc->meta.url}, {"etag", doc->meta.etag},
                      {"last_modified", doc->meta.last_modified}, {"fetched_at", fetched_at}};
  return write_file_atomically(dir_ / (body + ".meta.json"), m.dump(2) + "\n", Durability::none);
}

std::optional<CachedDocument> RecordCache::load_body(const std::string& body) const {
  if (dir_.empty() || !safe_name(body)) return std::nullopt;
  CachedDocument doc;
  doc.path = dir_ / (body + ".json");
  auto bytes = read_bounded(doc.path);
  if (!bytes) return std::nullopt;
  doc.bytes = std::move(*bytes);
  // Missing or unreadable metadata: the entry counts as never fetched (stale).
  if (auto meta = read_bounded(dir_ / (body + ".meta.json"))) {
    const auto m = nlohmann::json::parse(*meta, nullptr, false);
    if (m.is_object()) {
      doc.full_number = m.value("pith_number", std::string());
      doc.meta.url = m.value("url", std::string());
      doc.meta.etag = m.value("etag", std::string());
      doc.meta.last_modified = m.value("last_modified", std::string());
      if (m.contains("fetched_at") && m["fetched_at"].is_number_integer()) {
        doc.meta.fetched_at = m["fetched_at"].get<std::int64_t>();
      }
    }
  }
  return doc;
}

std::vector<std::string> RecordCache::bodies_with_prefix(const std::string& prefix) const {
  std::vector<std::string> out;
  if (dir_.empty()) return out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() == 26 + 5 && name.ends_with(".json") && name.starts_with(prefix)) {
      out.push_back(name.substr(0, 26));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<std::string> RecordCache::body_for_arxiv(const std::string& arxiv_text) const {
  const std::string name = alias_file_name(arxiv_text);
  if (dir_.empty() || !safe_name(name)) return std::nullopt;
  auto text = read_bounded(dir_ / "aliases" / name);
  if (!text) return std::nullopt;
  std::string number = *text;
  while (!number.empty() && (number.back() == '\n' || number.back() == '\r')) number.pop_back();
  const std::string body = cache_key(number);
  return safe_name(body) ? std::optional<std::string>(body) : std::nullopt;
}

}  // namespace pith::resolver
