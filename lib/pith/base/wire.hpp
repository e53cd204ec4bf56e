// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A compact binary encoding for the messages pith's own processes send each
// other: every process boundary declares its messages in one header on top
// of this one (pdf/facts.hpp: what a parsing child read from a PDF;
// stamp/examine_wire.hpp: pith-stamp's examining child; runner/worker_wire.hpp:
// a corpus run's requests to its workers; serve/broker_wire.hpp: pith-serve's
// broker to its HTTP side). Each message starts with its tag (which message)
// and its version (which fields): both ends are the same program, so a
// mismatch is a bug or an attack, refused, never read across. The reading
// end treats the bytes as hostile (the child that wrote them may be a parser
// exploit's): every length is checked against what is left and against the
// field's bound, a list's count against the bytes it would need, an enum
// against its table of names, and the first problem is kept, naming the field.
// Nothing throws; trailing bytes are a problem (finish()).
//
// Fields are written and read in the same order:
//   head        the tag as bytes, then the version as a count
//   bytes       u64 length (little-endian), then the bytes
//   count       u64
//   flag        one byte, 0 or 1
//   real        the u64 of a double's bits; only finite values
//   named       an enum as the bytes of its name (WireName table: the enum's
//               order is no protocol, and a name outside the table is refused)
//   error       an Error: its kind named (error_kind_named), where, message
//   optional    one byte, 0 (absent) or 1, then the value
//   list        u64 number of items, then each item
// JSON with base64 strings was the encoding before; decoding it was 15% of
// the checking process's work in a corpus run.
#include "pith/base/error.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith {

// One enumerator and the name it travels by.
template <class Enum>
struct WireName {
  Enum value;
  std::string_view name;
};
template <class Enum, std::size_t N>
using WireNames = std::array<WireName<Enum>, N>;

// No bound on a field but the message's own length.
inline constexpr std::size_t wire_unbounded = std::numeric_limits<std::size_t>::max();

class WireWriter {
 public:
  // A message whose version is part of its tag (pdf/facts: "pith-pdf-facts/5").
  explicit WireWriter(std::string_view tag) { bytes(tag); }
  // A message of `tag`, fields of `version`.
  WireWriter(std::string_view tag, std::uint64_t version) {
    bytes(tag);
    count(version);
  }
  void bytes(std::string_view value);
  void count(std::uint64_t value);
  void flag(bool value) { out_.push_back(value ? '\1' : '\0'); }
  void real(double value);
  template <class Enum, std::size_t N>
  void named(Enum value, const WireNames<Enum, N>& names) {
    for (const auto& n : names) {
      if (n.value == value) return bytes(n.name);
    }
    bytes({});  // not in the table: a bug of the writer, refused by the reader
  }
  void error(const Error& e);
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
  // A message that does not start with `tag` (and `version`) is a problem at once.
  // Keeps a view of `message`: it must outlive the reader.
  WireReader(std::string_view message, std::string_view tag);
  WireReader(std::string_view message, std::string_view tag, std::uint64_t version);
  WireReader(std::string&& message, std::string_view tag) = delete;
  WireReader(std::string&& message, std::string_view tag, std::uint64_t version) = delete;

  // Each returns an empty value once a problem is found (the first is kept).
  // `max`: the most bytes the field may hold (more is a problem).
  std::string bytes(const char* field, std::size_t max = wire_unbounded);
  // The same bytes as a view into the message (no copy: a member's content).
  std::string_view view(const char* field, std::size_t max = wire_unbounded);
  std::uint64_t count(const char* field);
  bool flag(const char* field);
  double real(const char* field);
  // The enumerator `names` gives the name read; a name outside it is a problem
  // (then the first enumerator of the table is returned).
  template <class Enum, std::size_t N>
  Enum named(const char* field, const WireNames<Enum, N>& names) {
    const std::string_view name = view(field, 64);
    for (const auto& n : names) {
      if (!problem_ && n.name == name) return n.value;
    }
    if (!problem_) bad(field, "names no value this program knows");
    return names.front().value;
  }
  Error error(const char* field);
  std::optional<std::string> optional_bytes(const char* field);
  std::optional<std::uint64_t> optional_count(const char* field);
  std::vector<std::string> bytes_list(const char* field);
  std::vector<std::uint64_t> counts(const char* field);

  // The problem with the message, if any: a field that did not read, or
  // bytes left over after the last field (call when every field is read).
  [[nodiscard]] std::optional<std::string> finish();
  // The problem so far (finish() also checks for trailing bytes).
  [[nodiscard]] const std::optional<std::string>& problem() const { return problem_; }

 private:
  bool bad(const char* field, const std::string& why);
  bool take_u64(const char* field, std::uint64_t& value);
  template <typename Item, typename ReadItem>
  std::vector<Item> list(const char* field, ReadItem read_item);
  std::string_view rest_;
  std::optional<std::string> problem_;
};

// Several messages in one stream (a child that sends its answer in parts:
// the parent acts on the first as soon as it is whole; requests to a
// long-lived worker and its answers; pith-serve's broker's replies): each as
// a `bytes` field, one after another. The one framing between pith's
// processes (base/fd_io.hpp reads and writes it on a descriptor).
void append_framed(std::string& out, std::string_view message);
// The next whole message at the front of `rest`, which moves past it; nullopt
// (and `rest` unchanged) while it is cut short.
[[nodiscard]] std::optional<std::string_view> take_framed(std::string_view& rest);
// The bytes in front of each framed message that say its length.
inline constexpr std::size_t frame_header_bytes = 8;
// Those bytes for a message of `length` bytes (append_framed is they, then the message).
[[nodiscard]] std::string frame_header(std::uint64_t length);
// The length the message at the front of `rest` announces, once its
// frame_header_bytes are there (nullopt before): a reader of a stream refuses
// a message past its bound before the bytes come.
[[nodiscard]] std::optional<std::uint64_t> framed_length(std::string_view rest);

// The tag a message starts with (which message it is), or nullopt for bytes
// that start with none.
[[nodiscard]] std::optional<std::string_view> wire_tag(std::string_view message);

// An Error as a message of its own: what a child sends in place of its
// answer when its work failed (stamp/examine_wire.hpp).
inline constexpr std::string_view error_message_tag = "pith-error";
inline constexpr std::uint64_t error_message_version = 1;
[[nodiscard]] std::string encode_error_message(const Error& e);
// The Error a pith-error message carries, or why the message is none (an
// Error of kind malformed naming the problem).
[[nodiscard]] Result<Error> decode_error_message(std::string_view message);

}  // namespace pith
