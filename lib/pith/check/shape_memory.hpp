// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the glyph check has learnt about glyph outlines (issue 34): which
// letters a glyph's key (pdf/page_text.hpp: ShapedGlyph) draws. A key is
// taught only by an OCR reading that read exactly the glyph's claimed
// letters where the glyph stands in a line told by its outlines (nothing
// else drawn on it), in a title whose reading matched. A line whose every
// glyph is known, each as the letters it claims, is read from memory, and
// OCR (80-170 ms, most of a check's cost) is not run: a corpus of papers in
// the same fonts pays OCR once per glyph shape, not once per paper.
//
// Memory only ever confirms: a key that is unknown, or known as other
// letters than the glyph claims, or taught two ways, sends the line to OCR,
// which decides as it did without memory; and it stands in for OCR only
// where OCR could read the lines. Where OCR works, the verdicts and reports
// are the same with or without it; only the time differs.
//
// Kept in a file (pith-check: pith-shapes/memory beside the record cache,
// resolver::default_cache_dir, never in it: --offline never writes that),
// one line a key, "<64 hex> <letters>", only ever appended, re-read when it
// grows (several processes share it), bounded (4 MiB). It is the user's
// own: whoever can write it can make a check skip OCR, as whoever can write
// the trust store can do worse. Without a file, memory lasts the process
// (pith-serve, tests).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pith::check {

class ShapeMemory {
 public:
  explicit ShapeMemory(std::filesystem::path file = {}) : file_(std::move(file)) {}

  // What other processes added since the last look.
  void refresh();
  // The letters (comparable_letters' form) the glyph with this 32-byte key
  // draws; nullopt: unknown, or taught two ways.
  [[nodiscard]] std::optional<std::string> letters_of(std::string_view key) const;
  // Keys and the letters OCR read for them, kept (and appended to the file).
  void learn(const std::vector<std::pair<std::string, std::string>>& taught);
  [[nodiscard]] std::size_t size() const { return known_.size(); }
  [[nodiscard]] const std::filesystem::path& file() const { return file_; }

  static constexpr std::uintmax_t max_file_bytes = 4 * 1024 * 1024;
  static constexpr std::size_t max_letters = 16;  // a glyph draws a letter or a ligature's few

 private:
  void take(std::string_view key, std::string letters);
  void read_lines(std::string_view text);

  std::filesystem::path file_;
  std::uintmax_t read_to_ = 0;
  std::unordered_map<std::string, std::optional<std::string>> known_;  // nullopt: taught two ways
};

// The process's memory: in memory only until use_shape_memory_file names a
// file (the pith-check front end names the cache directory's).
[[nodiscard]] ShapeMemory& shape_memory();
void use_shape_memory_file(std::filesystem::path file);

}  // namespace pith::check
