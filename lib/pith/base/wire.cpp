// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/wire.hpp"

#include <array>
#include <bit>
#include <cmath>

namespace pith {
namespace {

void put_u64(std::string& out, std::uint64_t value) {
  std::array<char, 8> le{};
  for (std::size_t i = 0; i < le.size(); ++i) le[i] = static_cast<char>((value >> (8 * i)) & 0xFF);
  out.append(le.data(), le.size());
}

// The u64 at the front of `bytes` (at least 8 of them), little-endian.
std::uint64_t get_u64(std::string_view bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) value |= std::uint64_t{static_cast<unsigned char>(bytes[i])} << (8 * i);
  return value;
}

}  // namespace

void WireWriter::bytes(std::string_view value) {
  put_u64(out_, value.size());
  out_.append(value);
}

void WireWriter::count(std::uint64_t value) { put_u64(out_, value); }

void WireWriter::real(double value) { count(std::bit_cast<std::uint64_t>(value)); }

void WireWriter::error(const Error& e) {
  bytes(to_string(e.kind));
  bytes(e.where);
  bytes(e.message);
}

void WireWriter::optional_bytes(const std::optional<std::string>& value) {
  flag(value.has_value());
  if (value) bytes(*value);
}

void WireWriter::optional_count(const std::optional<std::uint64_t>& value) {
  flag(value.has_value());
  if (value) count(*value);
}

void WireWriter::bytes_list(const std::vector<std::string>& values) {
  count(values.size());
  for (const auto& v : values) bytes(v);
}

void WireWriter::counts(const std::vector<std::uint64_t>& values) {
  count(values.size());
  for (const auto v : values) count(v);
}

WireReader::WireReader(std::string_view message, std::string_view tag) : rest_(message) {
  const std::string_view found = view("tag", tag.size());
  if (problem_ || found != tag) {
    problem_ = "it is not a " + std::string(tag) + " message";
    rest_ = {};
  }
}

WireReader::WireReader(std::string_view message, std::string_view tag, std::uint64_t version)
    : WireReader(message, tag) {
  const std::uint64_t found = count("version");
  if (!problem_ && found != version) {
    problem_ = "it is version " + std::to_string(found) + " of " + std::string(tag) + ", this program reads version " +
               std::to_string(version);
    rest_ = {};
  }
}

bool WireReader::bad(const char* field, const std::string& why) {
  if (!problem_) problem_ = std::string(field) + " " + why;
  rest_ = {};
  return false;
}

bool WireReader::take_u64(const char* field, std::uint64_t& value) {
  if (problem_) return false;
  if (rest_.size() < 8) return bad(field, "is cut short");
  value = get_u64(rest_);
  rest_.remove_prefix(8);
  return true;
}

std::string_view WireReader::view(const char* field, std::size_t max) {
  std::uint64_t length = 0;
  if (!take_u64(field, length)) return {};
  if (length > rest_.size()) return bad(field, "is longer than the message"), std::string_view{};
  if (length > max) return bad(field, "is longer than its bound of " + std::to_string(max) + " bytes"), std::string_view{};
  const std::string_view out = rest_.substr(0, static_cast<std::size_t>(length));
  rest_.remove_prefix(static_cast<std::size_t>(length));
  return out;
}

std::string WireReader::bytes(const char* field, std::size_t max) { return std::string(view(field, max)); }

double WireReader::real(const char* field) {
  const double value = std::bit_cast<double>(count(field));
  if (problem_) return 0;
  if (!std::isfinite(value)) return bad(field, "is not a finite number"), 0.0;
  return value;
}

Error WireReader::error(const char* field) {
  const std::string_view kind_name = view(field, 64);
  const auto kind = error_kind_named(kind_name);
  if (!problem_ && !kind) bad(field, "names no kind of error this program knows");
  std::string where = bytes(field);
  std::string message = bytes(field);
  if (problem_) return Error{};
  return Error{*kind, std::move(where), std::move(message)};
}

std::uint64_t WireReader::count(const char* field) {
  std::uint64_t value = 0;
  return take_u64(field, value) ? value : 0;
}

bool WireReader::flag(const char* field) {
  if (problem_) return false;
  if (rest_.empty()) return bad(field, "is cut short");
  const char c = rest_.front();
  rest_.remove_prefix(1);
  if (c != '\0' && c != '\1') return bad(field, "is not a flag");
  return c == '\1';
}

std::optional<std::string> WireReader::optional_bytes(const char* field) {
  if (!flag(field)) return std::nullopt;  // absent
  auto value = bytes(field);
  if (problem_) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> WireReader::optional_count(const char* field) {
  if (!flag(field)) return std::nullopt;  // absent
  const auto value = count(field);
  if (problem_) return std::nullopt;
  return value;
}

template <typename Item, typename ReadItem>
std::vector<Item> WireReader::list(const char* field, ReadItem read_item) {
  std::vector<Item> out;
  const std::uint64_t n = count(field);
  // Each item needs at least 8 bytes (a length or a count): a larger count is
  // a lie that must not size an allocation.
  if (n > rest_.size() / 8) return bad(field, "counts more items than the message holds"), out;
  out.reserve(static_cast<std::size_t>(n));
  for (std::uint64_t i = 0; i < n && !problem_; ++i) out.push_back(read_item());
  if (problem_) out.clear();
  return out;
}

std::vector<std::string> WireReader::bytes_list(const char* field) {
  return list<std::string>(field, [&] { return bytes(field); });
}

std::vector<std::uint64_t> WireReader::counts(const char* field) {
  return list<std::uint64_t>(field, [&] { return count(field); });
}

std::optional<std::string> WireReader::finish() {
  if (!problem_ && !rest_.empty()) problem_ = std::to_string(rest_.size()) + " bytes follow the last field";
  return problem_;
}

void append_framed(std::string& out, std::string_view message) {
  put_u64(out, message.size());
  out.append(message);
}

std::string frame_header(std::uint64_t length) {
  std::string header;
  put_u64(header, length);
  return header;
}

std::optional<std::string_view> take_framed(std::string_view& rest) {
  const auto length = framed_length(rest);
  if (!length || *length > rest.size() - frame_header_bytes) return std::nullopt;
  const std::string_view message = rest.substr(frame_header_bytes, static_cast<std::size_t>(*length));
  rest.remove_prefix(frame_header_bytes + static_cast<std::size_t>(*length));
  return message;
}

std::optional<std::uint64_t> framed_length(std::string_view rest) {
  if (rest.size() < frame_header_bytes) return std::nullopt;
  return get_u64(rest);
}

std::optional<std::string_view> wire_tag(std::string_view message) { return take_framed(message); }

std::string encode_error_message(const Error& e) {
  WireWriter w(error_message_tag, error_message_version);
  w.error(e);
  return w.take();
}

Result<Error> decode_error_message(std::string_view message) {
  WireReader r(message, error_message_tag, error_message_version);
  Error e = r.error("error");
  if (auto problem = r.finish()) return fail(ErrorKind::malformed, "", "a malformed error message: " + *problem);
  return e;
}

}  // namespace pith
