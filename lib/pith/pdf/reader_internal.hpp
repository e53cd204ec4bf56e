// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Private to the Reader's facets (reader_xref, reader_recovery,
// reader_decrypt, reader_objects, reader_document): the PoDoFo tokenizer
// over caller-owned bytes, the lexical helpers every facet uses, the two
// private records of one parsed object and one inflated object stream, and
// the decryption of one object's strings and stream data (reader_decrypt.cpp)
// that the object parser calls. Never included outside those files.
#include "pith/pdf/reader.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <podofo/base/PdfError.h>
#include <podofo/base/PdfInputDevice.h>
#include <podofo/base/PdfName.h>
#include <podofo/base/PdfRefCountedBuffer.h>
#include <podofo/base/PdfRefCountedInputDevice.h>
#include <podofo/base/PdfTokenizer.h>
#include <podofo/base/PdfVariant.h>

namespace pith::pdf {

struct Reader::ObjectStream {
  std::string data;
  std::uint64_t first = 0;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> offsets;  // (object number, offset from first)
};

struct Reader::Parsed {
  ObjectId id;
  PoDoFo::PdfObject value;
  bool has_stream = false;
  std::string_view raw_stream;  // undecoded stream bytes (when asked for)
  std::optional<std::string> decrypted_stream;  // raw_stream decrypted, for an encrypted file
  [[nodiscard]] std::string_view stream_bytes() const {
    return decrypted_stream ? std::string_view(*decrypted_stream) : raw_stream;
  }
};

namespace detail {

using PoDoFo::PdfArray;
using PoDoFo::PdfDictionary;
using PoDoFo::PdfName;
using PoDoFo::PdfObject;

// A PoDoFo input device over bytes we do not own (a memory map): no copy,
// unlike PdfInputDevice(const char*, size_t) which copies into a stringstream.
class SpanDevice final : public PoDoFo::PdfInputDevice {
 public:
  explicit SpanDevice(std::string_view data) : data_(data) {}
  std::streamoff Tell() const override { return static_cast<std::streamoff>(pos_); }
  int GetChar() const override {
    if (pos_ >= data_.size()) return EOF;
    return static_cast<unsigned char>(data_[pos_++]);
  }
  int Look() const override {
    if (pos_ >= data_.size()) return EOF;
    return static_cast<unsigned char>(data_[pos_]);
  }
  void Seek(std::streamoff off, std::ios_base::seekdir dir = std::ios_base::beg) override {
    std::int64_t base = dir == std::ios_base::beg ? 0
                        : dir == std::ios_base::cur ? static_cast<std::int64_t>(pos_)
                                                    : static_cast<std::int64_t>(data_.size());
    const std::int64_t target = base + static_cast<std::int64_t>(off);
    if (target < 0 || target > static_cast<std::int64_t>(data_.size()))
      PODOFO_RAISE_ERROR_INFO(PoDoFo::ePdfError_ValueOutOfRange, "seek outside the file");
    pos_ = static_cast<std::size_t>(target);
  }
  std::streamoff Read(char* buffer, std::streamsize len) override {
    const std::size_t n = std::min(static_cast<std::size_t>(std::max<std::streamsize>(len, 0)), data_.size() - pos_);
    std::memcpy(buffer, data_.data() + pos_, n);
    pos_ += n;
    return static_cast<std::streamoff>(n);
  }
  bool Eof() const override { return pos_ >= data_.size(); }
  bool Bad() const override { return false; }
  void Clear(std::ios_base::iostate = std::ios_base::goodbit) const override {}

 private:
  std::string_view data_;
  mutable std::size_t pos_ = 0;
};

// PdfTokenizer with access to what we need: the position and variant parsing
// from an already-read token (so `N 0 obj endobj` is the null object).
class Tokenizer final : public PoDoFo::PdfTokenizer {
 public:
  Tokenizer(std::string_view data, std::uint64_t offset)
      : PoDoFo::PdfTokenizer(PoDoFo::PdfRefCountedInputDevice(new SpanDevice(data)),
                             PoDoFo::PdfRefCountedBuffer(4096)) {
    m_device.Device()->Seek(static_cast<std::streamoff>(offset));
  }
  [[nodiscard]] std::uint64_t tell() const { return static_cast<std::uint64_t>(m_device.Device()->Tell()); }
  // Next token, or empty at end of data.
  std::string token(PoDoFo::EPdfTokenType* type = nullptr) {
    const char* t = nullptr;
    if (!GetNextToken(t, type)) return {};
    return t;
  }
  PoDoFo::PdfVariant variant_from(const std::string& tok, PoDoFo::EPdfTokenType type) {
    PoDoFo::PdfVariant v;
    GetNextVariant(tok.c_str(), type, v, nullptr);
    return v;
  }
  PoDoFo::PdfVariant variant() {
    PoDoFo::PdfVariant v;
    GetNextVariant(v, nullptr);
    return v;
  }
};

inline bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0'; }

inline std::size_t skip_ws(std::string_view s, std::size_t p) {
  while (p < s.size() && is_ws(s[p])) ++p;
  return p;
}

// Parses an unsigned decimal at p (after optional whitespace); advances p.
template <class T>
std::optional<T> read_uint(std::string_view s, std::size_t& p) {
  p = skip_ws(s, p);
  T value{};
  auto [end, ec] = std::from_chars(s.data() + p, s.data() + s.size(), value);
  if (ec != std::errc{} || end == s.data() + p) return std::nullopt;
  p = static_cast<std::size_t>(end - s.data());
  return value;
}

inline bool starts_with_at(std::string_view s, std::size_t p, std::string_view what) {
  return p <= s.size() && s.substr(p).starts_with(what);
}

inline const PdfObject* key(const PdfDictionary& d, std::string_view k) {
  return d.GetKey(PdfName(std::string(k)));
}

inline std::optional<std::int64_t> number_of(const PdfObject* o) {
  if (o && o->IsNumber()) return o->GetNumber();
  return std::nullopt;
}

// Decryption (reader_decrypt.cpp), called by the object parser
// (reader_objects.cpp) for an object of an encrypted file opened with the
// empty password.
//
// `data` decrypted by the file's security handler (set to the object's
// reference), for strings and streams alike.
[[nodiscard]] std::string decrypted(std::string_view data, const PoDoFo::PdfEncrypt& handler);
// Every string in `value` decrypted in place (nesting bounded before parsing).
void decrypt_strings(PdfObject& value, const PoDoFo::PdfEncrypt& handler);
// Whether the stream with this dictionary is encrypted (xref streams never;
// the metadata stream not when /EncryptMetadata is false).
[[nodiscard]] bool stream_is_encrypted(const PdfDictionary& dict, const PoDoFo::PdfEncrypt& handler);

}  // namespace detail
}  // namespace pith::pdf
