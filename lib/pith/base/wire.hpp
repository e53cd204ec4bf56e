// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A compact binary encoding for the messages pith's own processes send each
// other (what a parsing child read from a PDF: check/pdf_facts.hpp). Both
// ends are the same program, so there is no versioning beyond a leading tag;
// but the reading end treats the bytes as hostile (the child that wrote them
// may be a parser exploit's): every length is checked against what is left,
// a list's count against the bytes it would need, and the first problem is
// kept, naming the field.
//
// Fields are written and read in the same order:
//   bytes       u64 length (little-endian), then the bytes
//   count       u64
//   flag        one byte, 0 or 1
//   optional    one byte, 0 (absent) or 1, then the value
//   list        u64 number of items, then each item
// JSON with base64 strings was the encoding before; decoding it was 15% of
// the checking process's work in a corpus run.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith {

class WireWriter {
 public:
  explicit WireWriter(std::string_view tag) { bytes(tag); }
  void bytes(std::string_view value);
  void count(std::uint64_t value);
  void flag(bool value) { out_.push_back(value ? '\1' : '\0'); }
  void optional_bytes(const std::optional<std::string>& value);
  void optional_count(const std::optional<std::uint64_t>& value);
  void bytes_list(const std::vector<std::string>& values);
  void counts(const std::vector<std::uint64_t>& values);
  [[nodiscard]] std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class WireReader {
 public:
  // A message that does not start with `tag` is a problem at once.
  // Keeps a view of `message`: it must outlive the reader.
  WireReader(std::string_view message, std::string_view tag);
  WireReader(std::string&& message, std::string_view tag) = delete;

  // Each returns an empty value once a problem is found (the first is kept).
  std::string bytes(const char* field);
  std::uint64_t count(const char* field);
  bool flag(const char* field);
  std::optional<std::string> optional_bytes(const char* field);
  std::optional<std::uint64_t> optional_count(const char* field);
  std::vector<std::string> bytes_list(const char* field);
  std::vector<std::uint64_t> counts(const char* field);

  // The problem with the message, if any: a field that did not read, or
  // bytes left over after the last field (call when every field is read).
  [[nodiscard]] std::optional<std::string> finish();

 private:
  bool bad(const char* field, const char* why);
  bool take_u64(const char* field, std::uint64_t& value);
  template <typename Item, typename ReadItem>
  std::vector<Item> list(const char* field, ReadItem read_item);
  std::string_view rest_;
  std::optional<std::string> problem_;
};

}  // namespace pith
