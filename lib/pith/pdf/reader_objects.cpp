// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/reader.hpp"

#include "pith/base/crypto.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <set>
#include <unordered_set>

#include <podofo/base/PdfEncrypt.h>
#include <podofo/base/PdfError.h>
#include <podofo/base/PdfFilter.h>
#include <podofo/base/PdfInputDevice.h>
#include <podofo/base/PdfName.h>
#include <podofo/base/PdfOutputStream.h>
#include <podofo/base/PdfRefCountedBuffer.h>
#include <podofo/base/PdfRefCountedInputDevice.h>
#include <podofo/base/PdfReference.h>
#include <podofo/base/PdfString.h>
#include <podofo/base/PdfTokenizer.h>
#include <podofo/base/PdfVariant.h>

namespace pith::pdf {
namespace {

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

// Collects decoded stream output, refusing to grow past a bound (zip bombs).
class BoundedOutput final : public PoDoFo::PdfOutputStream {
 public:
  BoundedOutput(std::string& out, std::size_t max) : out_(out), max_(max) {}
  PoDoFo::pdf_long Write(const char* buffer, PoDoFo::pdf_long len) override {
    if (len < 0 || out_.size() + static_cast<std::size_t>(len) > max_)
      PODOFO_RAISE_ERROR_INFO(PoDoFo::ePdfError_OutOfMemory, "decoded stream exceeds the size limit");
    out_.append(buffer, static_cast<std::size_t>(len));
    return len;
  }
  void Close() override {}

 private:
  std::string& out_;
  std::size_t max_;
};

// `data` decrypted by the file's security handler (set to the object's
// reference), for strings and streams alike (PoDoFo 0.9.8's tokenizer
// would decrypt strings itself, keeping the AES padding).
std::string decrypted(std::string_view data, const PoDoFo::PdfEncrypt& handler) {
  const auto algorithm = handler.GetEncryptAlgorithm();
  // RC4 is a stream cipher: its output is as long as its input, and PoDoFo
  // 0.9.8 refuses ("Error initializing RC4 encryption engine") any other length.
  const bool rc4 = algorithm == PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_RC4V1 ||
                   algorithm == PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_RC4V2;
  std::string plain(data.size() + (rc4 ? 0 : 16), '\0');  // AES (16-byte IV in front) never grows it
  PoDoFo::pdf_long length = static_cast<PoDoFo::pdf_long>(plain.size());
  handler.Decrypt(reinterpret_cast<const unsigned char*>(data.data()), static_cast<PoDoFo::pdf_long>(data.size()),
                  reinterpret_cast<unsigned char*>(plain.data()), length);
  plain.resize(static_cast<std::size_t>(std::clamp<PoDoFo::pdf_long>(length, 0, static_cast<PoDoFo::pdf_long>(plain.size()))));
  // AES: PoDoFo 0.9.8 returns the PKCS#7 padding with the text (all but the
  // 16-byte IV); drop it when it is there and well formed.
  const bool aes = algorithm == PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_AESV2 ||
                   algorithm == PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_AESV3 ||
                   algorithm == PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_AESV3R6;
  if (aes && data.size() >= 16 && plain.size() == data.size() - 16 && !plain.empty()) {
    const auto pad = static_cast<unsigned char>(plain.back());
    if (pad >= 1 && pad <= 16 && pad <= plain.size() &&
        std::all_of(plain.end() - pad, plain.end(), [pad](char c) { return static_cast<unsigned char>(c) == pad; }))
      plain.resize(plain.size() - pad);
  }
  return plain;
}

// Every string in `value` (an object of an encrypted file) decrypted in
// place; nesting is bounded by check_nesting before parsing.
void decrypt_strings(PdfObject& value, const PoDoFo::PdfEncrypt& handler) {
  if (value.IsString() || value.IsHexString()) {
    const std::string plain = decrypted(string_bytes(value.GetString()), handler);
    value = PdfObject(PoDoFo::PdfString(plain.data(), static_cast<PoDoFo::pdf_long>(plain.size()), value.IsHexString()));
  } else if (value.IsArray()) {
    for (PdfObject& item : value.GetArray()) decrypt_strings(item, handler);
  } else if (value.IsDictionary()) {
    for (const auto& [name, item] : value.GetDictionary().GetKeys()) decrypt_strings(*item, handler);
  }
}

// Cross-reference streams are never encrypted, nor the metadata stream
// when the file says so (/EncryptMetadata false).
bool stream_is_encrypted(const PdfDictionary& dict, const PoDoFo::PdfEncrypt& handler) {
  const PdfObject* type = dict.GetKey(PoDoFo::PdfName("Type"));
  if (type && type->IsName() && type->GetName().GetName() == "XRef") return false;
  if (type && type->IsName() && type->GetName().GetName() == "Metadata" && !handler.IsMetadataEncrypted()) return false;
  return true;
}

std::string podofo_message(const PoDoFo::PdfError& e) { return describe_podofo_error(e); }

}  // namespace

std::string describe_podofo_error(const PoDoFo::PdfError& e) {
  switch (e.GetError()) {
    case PoDoFo::ePdfError_OutOfMemory:
    case PoDoFo::ePdfError_ValueOutOfRange:
      for (const auto& info : e.GetCallstack())
        if (!info.GetInformation().empty()) return info.GetInformation();
      return "a value beyond pith's limits";
    case PoDoFo::ePdfError_UnexpectedEOF: return "the data ends in the middle of an object";
    case PoDoFo::ePdfError_InvalidDataType: return "a value of the wrong type where another was expected";
    case PoDoFo::ePdfError_InvalidHexString: return "a malformed hexadecimal string";
    case PoDoFo::ePdfError_InvalidName: return "a malformed name";
    case PoDoFo::ePdfError_NoNumber: return "a number expected and not found";
    case PoDoFo::ePdfError_InvalidPredictor:
    case PoDoFo::ePdfError_Flate:
    case PoDoFo::ePdfError_InvalidStream:
    case PoDoFo::ePdfError_InvalidStreamLength:
    case PoDoFo::ePdfError_MissingEndStream: return "stream data that does not decode";
    case PoDoFo::ePdfError_UnsupportedFilter: return "a stream filter pith does not decode";
    case PoDoFo::ePdfError_InvalidEncryptionDict:
    case PoDoFo::ePdfError_InvalidPassword: return "encryption data that does not decrypt";
    default: return "malformed PDF syntax";
  }
}

namespace {

bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0'; }

std::size_t skip_ws(std::string_view s, std::size_t p) {
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

bool starts_with_at(std::string_view s, std::size_t p, std::string_view what) {
  return p <= s.size() && s.substr(p).starts_with(what);
}

const PdfObject* key(const PdfDictionary& d, std::string_view k) {
  return d.GetKey(PdfName(std::string(k)));
}

std::optional<std::int64_t> number_of(const PdfObject* o) {
  if (o && o->IsNumber()) return o->GetNumber();
  return std::nullopt;
}

// Whether a /Filter or /DecodeParms value holds a reference (or nests deeper
// than any real one). PoDoFo's filter code follows such a reference through
// the document owning the object, which an object read here does not have: a
// null dereference (found by fuzz/pdf_reader_fuzz).
bool holds_reference(const PdfObject& value, int depth = 0) {
  constexpr int max_depth = 8;
  if (value.IsReference() || depth > max_depth) return true;
  if (value.IsArray()) {
    return std::any_of(value.GetArray().begin(), value.GetArray().end(),
                       [&](const PdfObject& item) { return holds_reference(item, depth + 1); });
  }
  if (value.IsDictionary()) {
    const auto& keys = value.GetDictionary().GetKeys();
    return std::any_of(keys.begin(), keys.end(), [&](const auto& kv) { return holds_reference(*kv.second, depth + 1); });
  }
  return false;
}

// Whether the first filter of a stream is ASCIIHexDecode (/AHx).
bool first_filter_is_ascii_hex(const PdfObject* filter) {
  const PdfObject* first = filter;
  if (filter && filter->IsArray() && !filter->GetArray().empty()) first = &filter->GetArray()[0];
  if (!first || !first->IsName()) return false;
  const std::string& n = first->GetName().GetName();
  return n == "ASCIIHexDecode" || n == "AHx";
}

// PoDoFo 0.9.8's ASCIIHexDecode decodes the end marker '>' as a digit (one
// spurious byte at the end: a byte-exact embedded file from pith.sty read
// back one byte too long) and mishandles an odd final digit. Hand it only
// the digits before '>', an even count (ISO 32000-1 7.4.2: a missing final
// digit is 0).
std::string hex_digits_before_eod(std::string_view raw) {
  std::string digits;
  digits.reserve(raw.size());
  for (const char c : raw) {
    if (c == '>') break;
    if (!is_ws(c)) digits += c;
  }
  if (digits.size() % 2 == 1) digits += '0';
  return digits;
}

// Whether the arrays and dictionaries of the value starting at `p` nest more
// than `max` deep. Scans that one value only. PoDoFo's parser recurses once
// per level: 100,000 nested `<<` overflow its stack (SIGSEGV), so this runs
// before every value is handed to it.
bool nests_deeper_than(std::string_view s, std::size_t p, int max) {
  int depth = 0;
  auto value_done = [&] { return depth == 0; };
  while (p < s.size()) {
    const char c = s[p];
    if (is_ws(c)) {
      ++p;
    } else if (c == '%') {  // a comment, to the end of the line
      while (p < s.size() && s[p] != '\n' && s[p] != '\r') ++p;
    } else if (c == '(') {  // a literal string: balanced parentheses, backslash escapes
      int parens = 0;
      for (; p < s.size(); ++p) {
        if (s[p] == '\\') {
          ++p;
        } else if (s[p] == '(') {
          ++parens;
        } else if (s[p] == ')' && --parens == 0) {
          ++p;
          break;
        }
      }
      if (value_done()) return false;
    } else if (c == '<' && p + 1 < s.size() && s[p + 1] == '<') {
      if (++depth > max) return true;
      p += 2;
    } else if (c == '[') {
      if (++depth > max) return true;
      ++p;
    } else if (c == '>' && p + 1 < s.size() && s[p + 1] == '>') {
      p += 2;
      if (--depth <= 0) return false;
    } else if (c == ']') {
      ++p;
      if (--depth <= 0) return false;
    } else if (c == '<') {  // a hex string
      while (p < s.size() && s[p] != '>') ++p;
      ++p;
      if (value_done()) return false;
    } else {
      if (value_done()) return false;  // a number, name, keyword: no nesting
      ++p;
    }
  }
  return false;
}

// Where the text "N G obj" that ends just before `obj_at` begins, if it does.
std::optional<std::pair<std::size_t, ObjectId>> object_header_before(std::string_view s, std::size_t obj_at) {
  auto digits_before = [&](std::size_t end, std::size_t& begin) {
    begin = end;
    while (begin > 0 && s[begin - 1] >= '0' && s[begin - 1] <= '9' && end - begin < 10) --begin;
    return begin < end;
  };
  std::size_t p = obj_at;
  if (p == 0 || !is_ws(s[p - 1])) return std::nullopt;
  while (p > 0 && is_ws(s[p - 1])) --p;
  std::size_t gen_begin = 0;
  if (!digits_before(p, gen_begin)) return std::nullopt;
  std::size_t q = gen_begin;
  if (q == 0 || !is_ws(s[q - 1])) return std::nullopt;
  while (q > 0 && is_ws(s[q - 1])) --q;
  std::size_t num_begin = 0;
  if (!digits_before(q, num_begin)) return std::nullopt;
  if (num_begin > 0 && !is_ws(s[num_begin - 1]) && s[num_begin - 1] != '>' && s[num_begin - 1] != ']' &&
      s[num_begin - 1] != ')')
    return std::nullopt;
  std::uint32_t num = 0;
  std::uint32_t gen = 0;
  if (std::from_chars(s.data() + num_begin, s.data() + q, num).ec != std::errc{} ||
      std::from_chars(s.data() + gen_begin, s.data() + p, gen).ec != std::errc{} || gen > 65535)
    return std::nullopt;
  return std::pair{num_begin, ObjectId{num, static_cast<std::uint16_t>(gen)}};
}

// "the security handler /Standard /V 2 /R 3" and the like, from the
// /Encrypt dictionary's own values, for messages.
std::string security_handler_name(const PdfDictionary& d) {
  const PdfObject* filter = d.GetKey(PdfName("Filter"));
  const std::string handler = filter && filter->IsName() ? filter->GetName().GetName() : std::string("?");
  const PdfObject* v = d.GetKey(PdfName("V"));
  const PdfObject* r = d.GetKey(PdfName("R"));
  std::string out = "the security handler /" + handler;
  if (v && v->IsNumber()) out += " /V " + std::to_string(v->GetNumber());
  if (r && r->IsNumber()) out += " /R " + std::to_string(r->GetNumber());
  return out;
}

bool is_standard_security_handler(const PdfDictionary& d) {
  const PdfObject* filter = d.GetKey(PdfName("Filter"));
  return filter && filter->IsName() && filter->GetName().GetName() == "Standard";
}

// Whether the strings (/StrF) or streams (/StmF) of a document are
// encrypted: always below V 4; from V 4 on, unless the filter is /Identity
// or absent (ISO 32000-2 7.6.6, table 27: Identity is the default).
bool uses_crypt_filter(const PdfDictionary& d, const char* which) {
  const PdfObject* v = d.GetKey(PdfName("V"));
  if (!v || !v->IsNumber() || v->GetNumber() < 4) return true;
  const PdfObject* filter = d.GetKey(PdfName(which));
  return filter && filter->IsName() && filter->GetName().GetName() != "Identity";
}

// V5 (AES-256, revisions 5 and 6): no RC4 anywhere.
bool is_aes256_handler(const PdfDictionary& d) {
  const PdfObject* v = d.GetKey(PdfName("V"));
  return v && v->IsNumber() && v->GetNumber() == 5;
}

}  // namespace

std::string to_string(ObjectId id) {
  return std::to_string(id.number) + " " + std::to_string(id.generation) + " R";
}

std::optional<ObjectId> reference_of(const PdfObject& value) {
  if (!value.IsReference()) return std::nullopt;
  const auto& r = value.GetReference();
  return ObjectId{r.ObjectNumber(), r.GenerationNumber()};
}

std::string string_bytes(const PoDoFo::PdfString& s) {
  if (!s.IsValid()) return {};
  std::string raw(s.GetString(), static_cast<std::size_t>(s.GetLength()));
  if (s.IsUnicode() && !raw.starts_with("\xFE\xFF")) raw.insert(0, "\xFE\xFF");
  return raw;
}

struct Reader::ObjectStream {
  std::string data;
  std::uint64_t first = 0;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> offsets;  // (object number, offset from first)
};

struct Reader::Parsed {
  ObjectId id;
  PdfObject value;
  bool has_stream = false;
  std::string_view raw_stream;  // undecoded stream bytes (when asked for)
  std::optional<std::string> decrypted_stream;  // raw_stream decrypted, for an encrypted file
  [[nodiscard]] std::string_view stream_bytes() const {
    return decrypted_stream ? std::string_view(*decrypted_stream) : raw_stream;
  }
};

std::string Reader::at(std::uint64_t offset) const { return "at byte " + std::to_string(offset); }

XrefEntry Reader::entry(std::uint32_t number) const {
  if (auto it = xref_.find(number); it != xref_.end()) return it->second.entry;
  return {};
}

std::optional<std::uint64_t> Reader::position(std::uint64_t file_offset) const {
  if (file_offset >= bytes_.size() || base_ >= bytes_.size() - file_offset) return std::nullopt;
  return base_ + file_offset;
}

Result<Reader> Reader::open_with_base(std::string_view bytes, const std::string& name, const ReaderLimits& limits,
                                      std::uint64_t base) {
  Reader r;
  r.bytes_ = bytes;
  r.name_ = name;
  r.limits_ = limits;
  r.base_ = base;
  try {
    if (auto ok = r.read_xref_chain(); !ok) return std::unexpected(ok.error());
    // Cross-reference data that does not lead to the catalog is damaged
    // (offsets that point elsewhere), even when it parses.
    if (auto catalog = r.catalog(); !catalog)
      return fail(ErrorKind::malformed, r.name_, "the cross-reference data does not lead to the catalog: " + catalog.error().message);
  } catch (const PoDoFo::PdfError& e) {
    return fail(ErrorKind::malformed, r.name_, "damaged cross-reference data: " + podofo_message(e));
  } catch (const std::bad_alloc&) {
    return fail(ErrorKind::malformed, r.name_, "damaged cross-reference data: out of memory");
  } catch (const std::exception& e) {
    return fail(ErrorKind::malformed, r.name_, std::string("damaged cross-reference data: ") + e.what());
  }
  return r;
}

Result<Reader> Reader::open(std::string_view bytes, std::string name, ReaderLimits limits) {
  PoDoFo::PdfError::EnableLogging(false);
  PoDoFo::PdfError::EnableDebug(false);
  const std::size_t found = bytes.substr(0, 1024).find("%PDF-");
  // A file whose header line was lost (pdf.js bug1606566) is still read
  // when its cross-reference data or objects are there, as poppler does;
  // its offsets count from byte 0.
  const bool has_header = found != std::string_view::npos;
  const std::size_t header = has_header ? found : 0;
  // Offsets count from the header; a writer that prepended bytes without
  // shifting them counts from byte 0.
  auto r = open_with_base(bytes, name, limits, header);
  if (!r && header > 0) {
    if (auto from_zero = open_with_base(bytes, name, limits, 0)) r = std::move(from_zero);
  }
  if (!r && limits.recover_damaged_xref) {
    Reader scanned;
    scanned.bytes_ = bytes;
    scanned.name_ = name;
    scanned.limits_ = limits;
    scanned.base_ = header;
    scanned.recovery_reason_ = r.error().message;
    // Said once by whoever reports the recovery ("damaged cross-reference data (…)").
    if (constexpr std::string_view said = "damaged cross-reference data: "; scanned.recovery_reason_.starts_with(said))
      scanned.recovery_reason_.erase(0, said.size());
    try {
      if (auto ok = scanned.recover_by_scanning(); ok) r = std::move(scanned);
    } catch (const std::exception&) {
      // not recoverable: the original error stands
    }
  }
  if (!r && !has_header) return fail(ErrorKind::malformed, name, "not a PDF file (no %PDF- header)");
  if (!r) return r;
  if (r->encrypted_ && limits.read_encrypted_with_empty_password) {
    if (auto opened = r->open_with_empty_password(); !opened) return std::unexpected(opened.error());
    return r;
  }
  if (r->encrypted_ && !limits.allow_encrypted)
    return fail(ErrorKind::usage, name,
                "the PDF is encrypted; pith does not modify encrypted files. Decrypt it first "
                "(e.g. `qpdf --decrypt in.pdf out.pdf`, adding --password=... if it has one), "
                "then run pith on the decrypted copy");
  return r;
}

// What a viewer does when it opens an encrypted file without asking: the
// security handler authenticated with the empty user password. Its
// dictionary is read before decryption is on (its strings are the keys).
Result<void> Reader::open_with_empty_password() {
  const std::string needs_password =
      "the PDF is encrypted with a user password (readers ask for it before they show the file): checking it "
      "needs the password. Decrypt it with the password (`qpdf --decrypt --password=PASSWORD in.pdf out.pdf`) "
      "and check the decrypted copy";
  const PdfObject* value = key(trailer_, "Encrypt");
  PdfObject dict;
  if (value->IsReference()) {
    encryption_dict_ = reference_of(*value);
    auto resolved = object(*encryption_dict_);
    if (resolved) dict = *resolved;
  } else {
    dict = *value;
  }
  // An /Encrypt that is not a readable dictionary naming its handler
  // (damaged, or null) names no way to decrypt: poppler then reads the file
  // as it is, and so do we (pdf.js's PDFBOX-4352-0.pdf). Encrypted data
  // reads as noise.
  if (!dict.IsDictionary() || !key(dict.GetDictionary(), "Filter") || !key(dict.GetDictionary(), "Filter")->IsName())
    return {};
  const std::string handler_name = security_handler_name(dict.GetDictionary());
  const auto cannot_read = [&](const std::string& why) {
    return fail(ErrorKind::usage, name_,
                "the PDF is encrypted with " + handler_name + ", which pith cannot read (" + why +
                    "); decrypt it (`qpdf --decrypt in.pdf out.pdf`) and check the decrypted copy");
  };
  if (!is_standard_security_handler(dict.GetDictionary())) return cannot_read("not the standard password handler");
  // Crypt filters (V 4 and 5): /StrF and /StmF /Identity (the default) leave
  // strings and streams as they are. A file that encrypts only its embedded
  // files (/EFF, often behind their own password: /AuthEvent /EFOpen) is
  // read as it is, without a password; those files stay unread.
  strings_encrypted_ = uses_crypt_filter(dict.GetDictionary(), "StrF");
  streams_encrypted_ = uses_crypt_filter(dict.GetDictionary(), "StmF");
  if (!strings_encrypted_ && !streams_encrypted_) return {};
  // Revisions 2-4 (RC4, and AESV2's key check) need RC4: OpenSSL 3's legacy provider.
  if (!enable_legacy_ciphers() && !is_aes256_handler(dict.GetDictionary()))
    return cannot_read("RC4 needs OpenSSL's legacy provider, which is not installed");
  // The first /ID enters the key of revisions 2-4; a file without one is
  // read with an empty id, as poppler and qpdf do.
  const PdfObject* id = key(trailer_, "ID");
  PoDoFo::PdfString first_id("");
  if (id && id->IsArray() && !id->GetArray().empty() && (id->GetArray()[0].IsString() || id->GetArray()[0].IsHexString()))
    first_id = id->GetArray()[0].GetString();
  try {
    std::shared_ptr<PoDoFo::PdfEncrypt> handler(PoDoFo::PdfEncrypt::CreatePdfEncrypt(&dict));
    if (!handler->Authenticate(std::string(), first_id)) return fail(ErrorKind::usage, name_, needs_password);
    decryption_ = std::move(handler);
  } catch (const PoDoFo::PdfError& e) {
    return cannot_read(e.GetError() == PoDoFo::ePdfError_UnsupportedFilter ? "an unsupported encryption method"
                                                                             : "its /Encrypt dictionary is malformed");
  }
  return {};
}

std::optional<FileKey> Reader::file_key() const {
  if (!decryption_) return std::nullopt;
  FileKey out;
  switch (decryption_->GetEncryptAlgorithm()) {
    case PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_RC4V1:
    case PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_RC4V2: out.cipher = FileKey::Cipher::rc4; break;
    case PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_AESV2: out.cipher = FileKey::Cipher::aes128; break;
    case PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_AESV3:
    case PoDoFo::PdfEncrypt::ePdfEncryptAlgorithm_AESV3R6: out.cipher = FileKey::Cipher::aes256; break;
    default: return std::nullopt;
  }
  const int length = out.cipher == FileKey::Cipher::aes256 ? 32 : decryption_->GetKeyLength() / 8;
  if (length <= 0 || length > 32) return std::nullopt;
  out.key.assign(reinterpret_cast<const char*>(decryption_->GetEncryptionKey()), static_cast<std::size_t>(length));
  return out;
}

PoDoFo::PdfEncrypt* Reader::decryption_for(ObjectId id) const {
  if (!decryption_ || (encryption_dict_ && *encryption_dict_ == id)) return nullptr;
  decryption_->SetCurrentReference(PoDoFo::PdfReference(id.number, id.generation));
  return decryption_.get();
}

Result<void> Reader::take_trailer_keys() {
  const PdfObject* root = key(trailer_, "Root");
  if (!root || !root->IsReference()) return fail(ErrorKind::malformed, name_, "the trailer has no /Root reference");
  root_ = reference_of(*root);
  if (const PdfObject* info = key(trailer_, "Info"); info && info->IsReference()) info_ = reference_of(*info);
  if (const PdfObject* id = key(trailer_, "ID"); id && id->IsArray() && id->GetArray().size() == 2) {
    const auto& a = id->GetArray();
    if ((a[0].IsString() || a[0].IsHexString()) && (a[1].IsString() || a[1].IsHexString()))
      file_id_ = std::pair{string_bytes(a[0].GetString()), string_bytes(a[1].GetString())};
  }
  encrypted_ = key(trailer_, "Encrypt") != nullptr;
  return {};
}

// Rebuilds the cross-reference data from the objects themselves: every
// `N G obj` in the file (a later one wins, as a later update would), the
// members of every object stream found, and the last trailer (or
// cross-reference stream dictionary) naming a /Root.
Result<void> Reader::recover_by_scanning() {
  const std::string_view s = bytes_;
  for (std::size_t pos = s.find("obj"); pos != std::string_view::npos; pos = s.find("obj", pos + 3)) {
    const std::size_t after = pos + 3;
    if (after < s.size() && !is_ws(s[after]) && s[after] != '<' && s[after] != '[' && s[after] != '/' && s[after] != '(')
      continue;
    auto header = object_header_before(s, pos);
    if (!header || header->second.number == 0 || header->second.number > limits_.max_objects) continue;
    XrefEntry e;
    e.kind = XrefEntry::Kind::in_file;
    e.generation = header->second.generation;
    e.offset = header->first;
    highest_number_ = std::max(highest_number_, header->second.number);
    xref_[header->second.number] = Slot{e, 0};  // a later definition replaces an earlier one
  }
  if (xref_.empty()) return fail(ErrorKind::malformed, name_, "no objects found");

  // The trailer: the last `trailer` dictionary with a /Root, else the last
  // cross-reference stream with one.
  bool found_trailer = false;
  for (std::size_t pos = s.rfind("trailer"); pos != std::string_view::npos && !found_trailer;
       pos = pos == 0 ? std::string_view::npos : s.rfind("trailer", pos - 1)) {
    if (auto ok = check_nesting(s, pos + 7, at(pos)); !ok) continue;
    std::optional<PdfDictionary> trailer;
    try {
      Tokenizer tok(s, pos + 7);
      PoDoFo::PdfVariant v = tok.variant();
      if (v.IsDictionary()) trailer = v.GetDictionary();
    } catch (const PoDoFo::PdfError&) {
      // Junk inside it (`/Something {`, a stray `)`: qpdf's bad13-19): the keys a reader needs, one by one.
      trailer = trailer_keys_around_junk(pos + 7);
    }
    if (trailer && key(*trailer, "Root")) {
      trailer_ = std::move(*trailer);
      found_trailer = true;
    }
  }
  // Objects in object streams, and xref stream dictionaries (for a trailer).
  std::vector<std::pair<std::uint32_t, XrefEntry>> found(xref_.size());
  std::size_t n = 0;
  for (const auto& [number, slot] : xref_) found[n++] = {number, slot.entry};
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.second.offset > b.second.offset; });
  for (const auto& [number, e] : found) {
    const std::string_view head = s.substr(static_cast<std::size_t>(e.offset), 512);
    const bool objstm = head.find("/ObjStm") != std::string_view::npos;
    const bool xrefstm = !found_trailer && head.find("/XRef") != std::string_view::npos;
    if (!objstm && !xrefstm) continue;
    auto parsed = parse_at(e.offset, ObjectId{number, e.generation}, false, 0);
    if (!parsed || !parsed->value.IsDictionary()) continue;
    const PdfObject* type = key(parsed->value.GetDictionary(), "Type");
    if (xrefstm && type && type->IsName() && type->GetName().GetName() == "XRef" &&
        key(parsed->value.GetDictionary(), "Root")) {
      trailer_ = parsed->value.GetDictionary();
      found_trailer = true;
    }
    if (!objstm) continue;
    auto os = object_stream(number, 0);
    if (!os) continue;
    std::uint32_t index = 0;
    for (const auto& [member, offset] : (*os)->offsets) {
      (void)offset;
      if (member != 0 && member <= limits_.max_objects && !xref_.contains(member)) {
        XrefEntry m;
        m.kind = XrefEntry::Kind::in_object_stream;
        m.stream_number = number;
        m.index = index;
        xref_[member] = Slot{m, 0};
        highest_number_ = std::max(highest_number_, member);
      }
      ++index;
    }
  }
  // No trailer to go by (a trailer that is only a nesting bomb: qpdf's
  // issue-202.pdf): the last object that is a catalog, as poppler does.
  if (!found_trailer) {
    if (auto catalog = last_catalog(found)) {
      trailer_.AddKey(PdfName("Root"), PdfObject(PoDoFo::PdfReference(catalog->number, catalog->generation)));
      found_trailer = true;
    }
  }
  if (!found_trailer) return fail(ErrorKind::malformed, name_, "no trailer naming a /Root found");
  if (auto ok = take_trailer_keys(); !ok) return ok;
  size_ = highest_number_ + 1;
  recovered_ = true;
  return {};
}

std::optional<ObjectId> Reader::last_catalog(const std::vector<std::pair<std::uint32_t, XrefEntry>>& by_offset_desc) const {
  for (const auto& [number, e] : by_offset_desc) {
    if (e.kind != XrefEntry::Kind::in_file) continue;
    const std::string_view head = bytes_.substr(static_cast<std::size_t>(e.offset), 1024);
    if (head.find("/Catalog") == std::string_view::npos) continue;
    auto parsed = parse_at(e.offset, ObjectId{number, e.generation}, false, 0);
    if (!parsed || !parsed->value.IsDictionary()) continue;
    const PdfObject* type = key(parsed->value.GetDictionary(), "Type");
    if (type && type->IsName() && type->GetName().GetName() == "Catalog") return ObjectId{number, e.generation};
  }
  return std::nullopt;
}

PdfDictionary Reader::trailer_keys_around_junk(std::uint64_t from) const {
  const std::string_view s = bytes_;
  const std::size_t begin = static_cast<std::size_t>(from);
  std::size_t end = s.find("startxref", begin);
  end = std::min<std::size_t>(end == std::string_view::npos ? s.size() : end, begin + 64 * 1024);
  const std::string_view region = s.substr(begin, end - begin);
  PdfDictionary out;
  for (const char* name : {"Root", "Info", "ID", "Encrypt", "Size"}) {
    const std::string wanted = std::string("/") + name;
    for (std::size_t at = region.find(wanted); at != std::string_view::npos; at = region.find(wanted, at + 1)) {
      const std::size_t after = at + wanted.size();
      if (after < region.size() && !is_ws(region[after]) && std::string_view("[<(/").find(region[after]) == std::string_view::npos)
        continue;  // a longer name (/Rooted)
      const std::uint64_t value_at = begin + after;
      if (!check_nesting(s, value_at, "in a trailer")) continue;
      try {
        Tokenizer tok(s, value_at);
        PoDoFo::PdfVariant v = tok.variant();
        out.AddKey(PdfName(name), PdfObject(v));
        break;
      } catch (const PoDoFo::PdfError&) {
      }
    }
  }
  return out;
}

Result<std::uint64_t> Reader::find_startxref() const {
  const std::size_t tail = std::min<std::size_t>(bytes_.size(), 4096);
  const std::string_view end = bytes_.substr(bytes_.size() - tail);
  const auto pos = end.rfind("startxref");
  if (pos == std::string_view::npos)
    return fail(ErrorKind::malformed, name_, "no startxref in the last " + std::to_string(tail) + " bytes (truncated or not a PDF)");
  std::size_t p = pos + 9;
  auto offset = read_uint<std::uint64_t>(end, p);
  if (!offset) return fail(ErrorKind::malformed, name_, "startxref is not followed by a number " + at(bytes_.size() - tail + pos));
  if (!position(*offset))
    return fail(ErrorKind::malformed, name_, "startxref points past the end of the file (" + std::to_string(*offset) + ")");
  return *offset;
}

Result<void> Reader::read_xref_chain() {
  auto start = find_startxref();
  if (!start) return std::unexpected(start.error());
  startxref_ = *start;
  std::set<std::uint64_t> visited;
  std::optional<std::uint64_t> next = position(startxref_);
  std::size_t section = 0;
  while (next) {
    if (!visited.insert(*next).second) break;  // a /Prev loop: every section is already read
    if (section >= limits_.max_xref_sections)
      return fail(ErrorKind::malformed, name_, "more than " + std::to_string(limits_.max_xref_sections) + " cross-reference sections");
    section_offsets_.push_back(*next);
    auto prev = read_section(*next, section, section == 0);
    if (!prev) return std::unexpected(prev.error());
    next = *prev;
    ++section;
  }

  if (auto ok = take_trailer_keys(); !ok) return ok;
  std::int64_t declared = number_of(key(trailer_, "Size")).value_or(0);
  if (declared < 0 || declared > static_cast<std::int64_t>(limits_.max_objects) + 1)
    return fail(ErrorKind::malformed, name_, "trailer /Size out of range: " + std::to_string(declared));
  size_ = std::max<std::uint32_t>(static_cast<std::uint32_t>(declared), xref_.empty() ? 0u : highest_number_ + 1);
  return {};
}

Result<std::optional<std::uint64_t>> Reader::read_section(std::uint64_t offset, std::size_t section, bool newest) {
  const std::size_t p = skip_ws(bytes_, static_cast<std::size_t>(offset));
  Result<PdfDictionary> trailer = starts_with_at(bytes_, p, "xref") ? read_classic_table(p, section)
                                                                     : read_xref_stream(offset, section, false);
  if (!trailer) return std::unexpected(trailer.error());
  if (newest) {
    trailer_ = *trailer;
    newest_is_stream_ = !starts_with_at(bytes_, p, "xref");
  } else {
    // Keys the newest trailer lacks (a linearized first-page trailer may).
    for (const char* k : {"Root", "Info", "ID", "Encrypt"})
      if (!key(trailer_, k))
        if (const PdfObject* v = key(*trailer, k)) trailer_.AddKey(PdfName(k), *v);
  }
  const PdfObject* prev = key(*trailer, "Prev");
  if (!prev) return std::optional<std::uint64_t>{};
  auto prev_offset = number_of(prev);
  const auto prev_at = prev_offset && *prev_offset >= 0 ? position(static_cast<std::uint64_t>(*prev_offset)) : std::nullopt;
  if (!prev_at) return fail(ErrorKind::malformed, name_, "invalid /Prev in the cross-reference section " + at(offset));
  return prev_at;
}

void Reader::set_entry(std::uint32_t number, const XrefEntry& e, std::size_t section, bool may_replace_free) {
  highest_number_ = std::max(highest_number_, number);
  Slot& slot = xref_[number];
  const bool unset = slot.entry.kind == XrefEntry::Kind::absent;
  const bool replace = may_replace_free && slot.section == section && slot.entry.kind == XrefEntry::Kind::free;
  if (unset || replace) slot = Slot{e, static_cast<std::uint32_t>(section)};
}

Result<PdfDictionary> Reader::read_classic_table(std::uint64_t offset, std::size_t section) {
  std::size_t p = static_cast<std::size_t>(offset) + 4;  // after "xref"
  auto malformed = [&](std::size_t where) {
    return fail(ErrorKind::malformed, name_, "malformed cross-reference table " + at(where));
  };
  for (;;) {
    p = skip_ws(bytes_, p);
    if (starts_with_at(bytes_, p, "trailer")) break;
    const std::size_t sub_at = p;
    auto first = read_uint<std::uint64_t>(bytes_, p);
    auto count = read_uint<std::uint64_t>(bytes_, p);
    if (!first || !count) return malformed(sub_at);
    // Compared without a sum that could wrap (a 20-digit first number).
    if (*first > limits_.max_objects || *count > limits_.max_objects + 1ull - *first)
      return fail(ErrorKind::malformed, name_, "cross-reference subsection beyond the object limit " + at(sub_at));
    // Each entry takes 20 bytes in the file: the count cannot exceed what is left.
    if (*count > (bytes_.size() - p) / 18 + 1) return malformed(sub_at);
    for (std::uint64_t i = 0; i < *count; ++i) {
      const std::size_t entry_at = p;
      auto off = read_uint<std::uint64_t>(bytes_, p);
      auto gen = read_uint<std::uint32_t>(bytes_, p);
      p = skip_ws(bytes_, p);
      if (!off || !gen || p >= bytes_.size() || (bytes_[p] != 'n' && bytes_[p] != 'f'))
        return malformed(entry_at);
      const bool in_use = bytes_[p] == 'n';
      ++p;
      const auto num = static_cast<std::uint32_t>(*first + i);
      XrefEntry e;
      // `0000000000 65536 f` (MS Office, Adobe's PDF Library, PyMuPDF): one
      // more than the largest generation; clamped, as in xref streams.
      e.generation = static_cast<std::uint16_t>(std::min<std::uint32_t>(*gen, 65535));
      if (in_use) {
        const auto object_at = position(*off);
        if (!object_at)
          return fail(ErrorKind::malformed, name_, "object " + std::to_string(num) + " has an offset past the end of the file " +
                                 at(entry_at));
        e.kind = XrefEntry::Kind::in_file;
        e.offset = *object_at;
      } else {
        e.kind = XrefEntry::Kind::free;
      }
      set_entry(num, e, section, false);
    }
  }
  const std::size_t trailer_at = p;
  if (auto ok = check_nesting(bytes_, p + 7, at(trailer_at)); !ok) return std::unexpected(ok.error());
  PoDoFo::PdfVariant v;
  try {
    Tokenizer tok(bytes_, p + 7);
    v = tok.variant();
  } catch (const PoDoFo::PdfError& e) {
    return fail(ErrorKind::malformed, name_, "the trailer dictionary " + at(trailer_at) + " does not parse (" + podofo_message(e) + ")");
  }
  if (!v.IsDictionary()) return fail(ErrorKind::malformed, name_, "the trailer is not a dictionary " + at(trailer_at));
  PdfDictionary trailer = v.GetDictionary();
  // Hybrid file: an xref stream holds the objects that live in object streams.
  if (const PdfObject* stm = key(trailer, "XRefStm")) {
    auto stm_offset = number_of(stm);
    const auto stm_at = stm_offset && *stm_offset >= 0 ? position(static_cast<std::uint64_t>(*stm_offset)) : std::nullopt;
    if (!stm_at) return fail(ErrorKind::malformed, name_, "invalid /XRefStm " + at(trailer_at));
    auto hybrid = read_xref_stream(*stm_at, section, true);
    if (!hybrid) return std::unexpected(hybrid.error());
  }
  return trailer;
}

Result<PdfDictionary> Reader::read_xref_stream(std::uint64_t offset, std::size_t section, bool hybrid) {
  auto parsed = parse_at(offset, std::nullopt, true, 0);
  if (!parsed) return fail(ErrorKind::malformed, name_, "no cross-reference table or stream " + at(offset) + " (" + parsed.error().message + ")");
  if (!parsed->value.IsDictionary() || !parsed->has_stream)
    return fail(ErrorKind::malformed, name_, "no cross-reference table or stream " + at(offset));
  const PdfDictionary& dict = parsed->value.GetDictionary();
  const PdfObject* type = key(dict, "Type");
  if (!type || !type->IsName() || type->GetName().GetName() != "XRef")
    return fail(ErrorKind::malformed, name_, "object " + at(offset) + " is not a cross-reference stream");
  if (!hybrid) uses_xref_streams_ = true;
  auto data = decode(dict, parsed->raw_stream, at(offset));
  if (!data) return std::unexpected(data.error());

  const PdfObject* w = key(dict, "W");
  if (!w || !w->IsArray() || w->GetArray().size() != 3)
    return fail(ErrorKind::malformed, name_, "cross-reference stream without a valid /W " + at(offset));
  std::size_t widths[3];
  for (std::size_t i = 0; i < 3; ++i) {
    auto n = number_of(&w->GetArray()[i]);
    if (!n || *n < 0 || *n > 8) return fail(ErrorKind::malformed, name_, "cross-reference stream /W out of range " + at(offset));
    widths[i] = static_cast<std::size_t>(*n);
  }
  const std::size_t row = widths[0] + widths[1] + widths[2];
  if (row == 0) return fail(ErrorKind::malformed, name_, "cross-reference stream with empty rows " + at(offset));

  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  if (const PdfObject* index = key(dict, "Index")) {
    if (!index->IsArray() || index->GetArray().size() % 2 != 0)
      return fail(ErrorKind::malformed, name_, "cross-reference stream /Index malformed " + at(offset));
    const auto& a = index->GetArray();
    for (std::size_t i = 0; i < a.size(); i += 2) {
      auto s = number_of(&a[i]);
      auto c = number_of(&a[i + 1]);
      if (!s || !c || *s < 0 || *c < 0) return fail(ErrorKind::malformed, name_, "cross-reference stream /Index malformed " + at(offset));
      ranges.emplace_back(*s, *c);
    }
  } else {
    auto size = number_of(key(dict, "Size"));
    if (!size || *size < 0) return fail(ErrorKind::malformed, name_, "cross-reference stream without /Size " + at(offset));
    ranges.emplace_back(0, *size);
  }

  auto field = [&](const char* p, std::size_t width, std::uint64_t fallback) {
    if (width == 0) return fallback;
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < width; ++i) v = (v << 8) | static_cast<unsigned char>(p[i]);
    return v;
  };
  std::size_t pos = 0;
  for (const auto& [first, count] : ranges) {
    if (first > limits_.max_objects || count > limits_.max_objects + 1ull - first)
      return fail(ErrorKind::malformed, name_, "cross-reference stream entries beyond the object limit " + at(offset));
    if (count > (data->size() - pos) / row)
      return fail(ErrorKind::malformed, name_, "cross-reference stream data too short for its /Index " + at(offset));
    for (std::uint64_t i = 0; i < count; ++i, pos += row) {
      const char* rowp = data->data() + pos;
      const std::uint64_t type_field = field(rowp, widths[0], 1);
      const std::uint64_t f2 = field(rowp + widths[0], widths[1], 0);
      const std::uint64_t f3 = field(rowp + widths[0] + widths[1], widths[2], 0);
      XrefEntry e;
      switch (type_field) {
        case 0: e.kind = XrefEntry::Kind::free; break;
        case 1: {
          const auto object_at = position(f2);
          if (!object_at) continue;  // an offset past the end is a null object
          e.kind = XrefEntry::Kind::in_file;
          e.offset = *object_at;
          e.generation = static_cast<std::uint16_t>(std::min<std::uint64_t>(f3, 65535));
          break;
        }
        case 2:
          if (f2 > limits_.max_objects) continue;
          e.kind = XrefEntry::Kind::in_object_stream;
          e.stream_number = static_cast<std::uint32_t>(f2);
          e.index = static_cast<std::uint32_t>(std::min<std::uint64_t>(f3, UINT32_MAX));
          break;
        default: continue;  // unknown types are null objects (ISO 32000 7.5.8.3)
      }
      set_entry(static_cast<std::uint32_t>(first + i), e, section, hybrid);
    }
  }
  return dict;
}

Result<Reader::Parsed> Reader::parse_at(std::uint64_t offset, std::optional<ObjectId> expected, bool with_stream,
                                        int depth) const {
  if (offset >= bytes_.size()) return fail(ErrorKind::malformed, name_, "object offset past the end of the file " + at(offset));
  try {
    Tokenizer tok(bytes_, offset);
    Parsed out;
    const std::string n = tok.token();
    const std::string g = tok.token();
    const std::string obj = tok.token();
    std::uint32_t num = 0;
    std::uint32_t gen = 0;
    auto parse_num = [](const std::string& s, std::uint32_t& v) {
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      return ec == std::errc{} && end == s.data() + s.size() && !s.empty();
    };
    if (!parse_num(n, num) || !parse_num(g, gen) || obj != "obj" || gen > 65535)
      return fail(ErrorKind::malformed, name_, "expected `N G obj` " + at(offset));
    if (auto ok = check_nesting(bytes_, tok.tell(), at(offset)); !ok) return std::unexpected(ok.error());
    out.id = ObjectId{num, static_cast<std::uint16_t>(gen)};
    if (expected && expected->number != num)
      return fail(ErrorKind::malformed, name_, "the cross-reference data points to object " + std::to_string(num) + " instead of " +
                             std::to_string(expected->number) + " " + at(offset));
    PoDoFo::EPdfTokenType type{};
    std::string t = tok.token(&type);
    if (t.empty()) return fail(ErrorKind::malformed, name_, "unexpected end of file in object " + at(offset));
    if (t == "endobj") return out;  // an empty object is null
    PoDoFo::PdfEncrypt* decryption = decryption_for(out.id);
    out.value = PdfObject(tok.variant_from(t, type));
    if (decryption && strings_encrypted_) decrypt_strings(out.value, *decryption);
    t = tok.token();
    if (t == "endobj") return out;
    if (t != "stream" || !out.value.IsDictionary())
      return fail(ErrorKind::malformed, name_, "expected endobj or stream in object " + std::to_string(num) + " " + at(offset));
    out.has_stream = true;
    if (!with_stream) return out;

    std::uint64_t start = tok.tell();
    if (start < bytes_.size() && bytes_[start] == '\r') ++start;
    if (start < bytes_.size() && bytes_[start] == '\n') ++start;
    const PdfObject* len_obj = key(out.value.GetDictionary(), "Length");
    std::optional<std::int64_t> len;
    if (len_obj && len_obj->IsReference()) {
      // `depth` is carried through object streams: a /Length inside the
      // object stream it measures ends here, not in a stack overflow.
      if (depth > 2) return fail(ErrorKind::malformed, name_, "indirect /Length nested too deep " + at(offset));
      auto resolved = object_at_depth(*reference_of(*len_obj), depth + 1);
      if (!resolved) return std::unexpected(resolved.error());
      len = number_of(&*resolved);
    } else {
      len = number_of(len_obj);
    }
    if (!len || *len < 0) return fail(ErrorKind::malformed, name_, "stream without a valid /Length in object " + std::to_string(num) + " " + at(offset));
    if (static_cast<std::uint64_t>(*len) > bytes_.size() - start)
      return fail(ErrorKind::malformed, name_, "stream /Length runs past the end of the file in object " + std::to_string(num) + " " + at(offset));
    const std::uint64_t end = start + static_cast<std::uint64_t>(*len);
    // The data must be followed by endstream: a wrong /Length means we would
    // read (and later rewrite) the wrong bytes.
    if (!starts_with_at(bytes_, skip_ws(bytes_, static_cast<std::size_t>(end)), "endstream"))
      return fail(ErrorKind::malformed, name_, "stream /Length does not end at endstream in object " + std::to_string(num) + " " + at(offset));
    out.raw_stream = bytes_.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(*len));
    if (decryption && streams_encrypted_ && stream_is_encrypted(out.value.GetDictionary(), *decryption)) {
      out.decrypted_stream = decrypted(out.raw_stream, *decryption);
    }
    return out;
  } catch (const PoDoFo::PdfError& e) {
    return fail(ErrorKind::malformed, name_, "cannot parse the object " + at(offset) + ": " + podofo_message(e));
  } catch (const std::bad_alloc&) {
    return fail(ErrorKind::malformed, name_, "out of memory parsing the object " + at(offset));
  } catch (const std::exception& e) {
    return fail(ErrorKind::malformed, name_, "cannot parse the object " + at(offset) + ": " + e.what());
  }
}

Result<std::string> Reader::decode(const PdfDictionary& dict, std::string_view raw, const std::string& where) const {
  std::string out;
  const PdfObject* filter = key(dict, "Filter");
  if (!filter || (filter->IsArray() && filter->GetArray().empty())) {
    if (raw.size() > limits_.max_stream_bytes) return fail(ErrorKind::malformed, name_, "stream exceeds the size limit " + where);
    return std::string(raw);
  }
  for (const char* k : {"Filter", "DecodeParms"}) {
    if (const PdfObject* v = key(dict, k); v && holds_reference(*v))
      return fail(ErrorKind::malformed, name_, std::string("cannot decode the stream ") + where + ": its /" + k +
                             " holds an indirect reference (not supported)");
  }
  try {
    PdfObject holder(dict);
    PoDoFo::TVecFilters filters = PoDoFo::PdfFilterFactory::CreateFilterList(&holder);
    BoundedOutput sink(out, limits_.max_stream_bytes);
    std::unique_ptr<PoDoFo::PdfOutputStream> decoder(
        PoDoFo::PdfFilterFactory::CreateDecodeStream(filters, &sink, &holder.GetDictionary()));
    const std::string hex = first_filter_is_ascii_hex(filter) ? hex_digits_before_eod(raw) : std::string();
    const std::string_view input = first_filter_is_ascii_hex(filter) ? std::string_view(hex) : raw;
    decoder->Write(input.data(), static_cast<PoDoFo::pdf_long>(input.size()));
    decoder->Close();
  } catch (const PoDoFo::PdfError& e) {
    return fail(ErrorKind::malformed, name_, "cannot decode the stream " + where + ": " + podofo_message(e));
  } catch (const std::bad_alloc&) {
    return fail(ErrorKind::malformed, name_, "out of memory decoding the stream " + where);
  } catch (const std::exception& e) {
    return fail(ErrorKind::malformed, name_, "cannot decode the stream " + where + ": " + e.what());
  }
  return out;
}

Result<void> Reader::check_nesting(std::string_view data, std::uint64_t position, const std::string& where) const {
  if (nests_deeper_than(data, static_cast<std::size_t>(position), limits_.max_nesting))
    return fail(ErrorKind::malformed, name_, "arrays or dictionaries nested more than " + std::to_string(limits_.max_nesting) +
                                                 " deep " + where);
  return {};
}

Result<std::shared_ptr<const Reader::ObjectStream>> Reader::object_stream(std::uint32_t stream_number, int depth) const {
  const std::uint32_t number = stream_number;
  if (auto it = object_streams_.find(number); it != object_streams_.end()) return it->second;
  const XrefEntry e = entry(number);
  if (e.kind != XrefEntry::Kind::in_file)
    return fail(ErrorKind::malformed, name_, "object stream " + std::to_string(number) + " is not an object in the file");
  auto parsed = parse_at(e.offset, ObjectId{number, e.generation}, true, depth);
  if (!parsed) return std::unexpected(parsed.error());
  if (!parsed->has_stream) return fail(ErrorKind::malformed, name_, "object " + std::to_string(number) + " is not a stream " + at(e.offset));
  const PdfDictionary& dict = parsed->value.GetDictionary();
  auto n = number_of(key(dict, "N"));
  auto first = number_of(key(dict, "First"));
  if (!n || !first || *n < 0 || *first < 0)
    return fail(ErrorKind::malformed, name_, "object stream " + std::to_string(number) + " without /N or /First " + at(e.offset));
  auto data = decode(dict, parsed->stream_bytes(), at(e.offset));
  if (!data) return std::unexpected(data.error());
  auto os = std::make_shared<ObjectStream>();
  os->data = std::move(*data);
  os->first = static_cast<std::uint64_t>(*first);
  if (os->first > os->data.size() || static_cast<std::uint64_t>(*n) > os->data.size() / 2 + 1)
    return fail(ErrorKind::malformed, name_, "object stream " + std::to_string(number) + " header out of range " + at(e.offset));
  std::size_t p = 0;
  const std::string_view header = std::string_view(os->data).substr(0, static_cast<std::size_t>(os->first));
  for (std::int64_t i = 0; i < *n; ++i) {
    auto num = read_uint<std::uint32_t>(header, p);
    auto off = read_uint<std::uint64_t>(header, p);
    if (!num || !off) return fail(ErrorKind::malformed, name_, "object stream " + std::to_string(number) + " has a malformed header " + at(e.offset));
    os->offsets.emplace_back(*num, *off);
  }
  // Bounded by count and by total decoded bytes (16 bombs of 256 MiB each
  // were once kept at once); one larger than the whole budget is not kept.
  while (!object_streams_.empty() && (object_streams_.size() >= limits_.max_cached_object_streams ||
                                      cached_bytes_ + os->data.size() > limits_.max_cached_bytes)) {
    cached_bytes_ -= object_streams_.begin()->second->data.size();
    object_streams_.erase(object_streams_.begin());
  }
  if (os->data.size() <= limits_.max_cached_bytes) {
    object_streams_.emplace(number, os);
    cached_bytes_ += os->data.size();
  }
  return std::shared_ptr<const ObjectStream>(os);
}

Result<PdfObject> Reader::object(ObjectId id) const { return object_at_depth(id, 0); }

Result<PdfObject> Reader::object_at_depth(ObjectId id, int depth) const {
  const XrefEntry e = entry(id.number);
  switch (e.kind) {
    case XrefEntry::Kind::absent:
    case XrefEntry::Kind::free: return PdfObject();
    case XrefEntry::Kind::in_file: {
      if (e.generation != id.generation) return PdfObject();
      auto parsed = parse_at(e.offset, id, false, depth);
      if (!parsed) return std::unexpected(parsed.error());
      return parsed->value;
    }
    case XrefEntry::Kind::in_object_stream: {
      if (id.generation != 0) return PdfObject();
      auto os = object_stream(e.stream_number, depth + 1);
      if (!os) return std::unexpected(os.error());
      const auto& offsets = (*os)->offsets;
      std::optional<std::uint64_t> off;
      if (e.index < offsets.size() && offsets[e.index].first == id.number) off = offsets[e.index].second;
      else
        for (const auto& [num, o] : offsets)
          if (num == id.number) off = o;
      const std::string where = "object " + std::to_string(id.number) + " in object stream " + std::to_string(e.stream_number);
      if (!off || *off >= (*os)->data.size() - (*os)->first) return fail(ErrorKind::malformed, name_, where + " not found");
      if (auto ok = check_nesting((*os)->data, (*os)->first + *off, "in " + where); !ok) return std::unexpected(ok.error());
      try {
        Tokenizer tok((*os)->data, (*os)->first + *off);
        return PdfObject(tok.variant());
      } catch (const PoDoFo::PdfError& err) {
        return fail(ErrorKind::malformed, name_, "cannot parse " + where + ": " + podofo_message(err));
      } catch (const std::exception& err) {
        return fail(ErrorKind::malformed, name_, "cannot parse " + where + ": " + err.what());
      }
    }
  }
  return PdfObject();
}

Result<StreamObject> Reader::stream(ObjectId id) const {
  const XrefEntry e = entry(id.number);
  if (e.kind != XrefEntry::Kind::in_file || e.generation != id.generation)
    return fail(ErrorKind::malformed, name_, "object " + to_string(id) + " is not a stream in the file");
  auto parsed = parse_at(e.offset, id, true, 0);
  if (!parsed) return std::unexpected(parsed.error());
  if (!parsed->has_stream) return fail(ErrorKind::malformed, name_, "object " + to_string(id) + " is not a stream " + at(e.offset));
  auto data = decode(parsed->value.GetDictionary(), parsed->stream_bytes(), at(e.offset));
  if (!data) return std::unexpected(data.error());
  return StreamObject{parsed->value.GetDictionary(), std::move(*data),
                      static_cast<std::uint64_t>(parsed->raw_stream.data() - bytes_.data()), parsed->raw_stream.size()};
}

Result<PdfObject> Reader::resolve(const PdfObject& value) const {
  PdfObject current = value;
  for (int i = 0; current.IsReference(); ++i) {
    if (i >= limits_.max_depth) return fail(ErrorKind::malformed, name_, "reference chain too long at " + to_string(*reference_of(value)));
    auto next = object(*reference_of(current));
    if (!next) return std::unexpected(next.error());
    current = std::move(*next);
  }
  return current;
}

Result<std::optional<PdfObject>> Reader::resolve_key(const PdfDictionary& dict, std::string_view k) const {
  const PdfObject* v = key(dict, k);
  if (!v) return std::optional<PdfObject>{};
  auto r = resolve(*v);
  if (!r) return std::unexpected(r.error());
  if (r->IsNull()) return std::optional<PdfObject>{};
  return std::optional<PdfObject>{std::move(*r)};
}

Result<PdfDictionary> Reader::catalog() const {
  auto root = object(*root_);
  if (!root) return std::unexpected(root.error());
  if (!root->IsDictionary()) return fail(ErrorKind::malformed, name_, "the document catalog " + to_string(*root_) + " is not a dictionary");
  return root->GetDictionary();
}

Result<std::optional<PdfDictionary>> Reader::info() const {
  const PdfObject* v = key(trailer_, "Info");
  if (!v) return std::optional<PdfDictionary>{};
  auto r = resolve(*v);
  if (!r) return std::unexpected(r.error());
  if (!r->IsDictionary()) return std::optional<PdfDictionary>{};
  return std::optional<PdfDictionary>{r->GetDictionary()};
}

Result<std::optional<std::string>> Reader::info_string(std::string_view k) const {
  auto d = info();
  if (!d) return std::unexpected(d.error());
  if (!*d) return std::optional<std::string>{};
  auto v = resolve_key(**d, k);
  if (!v) return std::unexpected(v.error());
  if (!*v) return std::optional<std::string>{};
  if ((*v)->IsString() || (*v)->IsHexString()) return std::optional<std::string>{(*v)->GetString().GetStringUtf8()};
  if ((*v)->IsName()) return std::optional<std::string>{(*v)->GetName().GetName()};
  return std::optional<std::string>{};
}

Result<std::optional<StreamObject>> Reader::xmp_metadata_stream() const {
  auto cat = catalog();
  if (!cat) return std::unexpected(cat.error());
  const PdfObject* m = key(*cat, "Metadata");
  if (!m || !m->IsReference()) return std::optional<StreamObject>{};
  auto s = stream(*reference_of(*m));
  if (!s) return std::unexpected(s.error());
  return std::optional<StreamObject>{std::move(*s)};
}

namespace {
Result<std::optional<std::string>> data_of(Result<std::optional<StreamObject>> s) {
  if (!s) return std::unexpected(s.error());
  if (!*s) return std::optional<std::string>{};
  return std::optional<std::string>{std::move((*s)->data)};
}
}  // namespace

Result<std::optional<std::string>> Reader::xmp_metadata() const { return data_of(xmp_metadata_stream()); }

Result<void> Reader::walk_name_tree(const PdfObject& node_value, int depth, std::size_t& visited,
                                    std::vector<NameTreeEntry>& out) const {
  if (depth > limits_.max_depth) return fail(ErrorKind::malformed, name_, "name tree deeper than " + std::to_string(limits_.max_depth));
  if (++visited > limits_.max_tree_nodes) return fail(ErrorKind::malformed, name_, "name tree has too many nodes");
  auto node = resolve(node_value);
  if (!node) return std::unexpected(node.error());
  if (!node->IsDictionary()) return {};
  const PdfDictionary& d = node->GetDictionary();
  if (auto names = resolve_key(d, "Names"); !names) {
    return std::unexpected(names.error());
  } else if (*names && (*names)->IsArray()) {
    const PdfArray& a = (*names)->GetArray();
    for (std::size_t i = 0; i + 1 < a.size(); i += 2) {
      if (!a[i].IsString() && !a[i].IsHexString()) continue;
      if (++visited > limits_.max_tree_nodes) return fail(ErrorKind::malformed, name_, "name tree has too many entries");
      out.push_back(NameTreeEntry{string_bytes(a[i].GetString()), a[i].GetString().GetStringUtf8(), a[i].GetString(), a[i + 1]});
    }
  }
  auto kids = resolve_key(d, "Kids");
  if (!kids) return std::unexpected(kids.error());
  if (*kids && (*kids)->IsArray())
    for (const PdfObject& kid : (*kids)->GetArray())
      if (auto ok = walk_name_tree(kid, depth + 1, visited, out); !ok) return ok;
  return {};
}

Result<std::vector<NameTreeEntry>> Reader::name_tree(const PdfObject& root) const {
  std::vector<NameTreeEntry> out;
  std::size_t visited = 0;
  if (auto ok = walk_name_tree(root, 0, visited, out); !ok) return std::unexpected(ok.error());
  return out;
}

Result<std::vector<NameTreeEntry>> Reader::embedded_files() const {
  auto cat = catalog();
  if (!cat) return std::unexpected(cat.error());
  auto names = resolve_key(*cat, "Names");
  if (!names) return std::unexpected(names.error());
  if (!*names || !(*names)->IsDictionary()) return std::vector<NameTreeEntry>{};
  const PdfObject* ef = key((*names)->GetDictionary(), "EmbeddedFiles");
  if (!ef) return std::vector<NameTreeEntry>{};
  return name_tree(*ef);
}

Result<std::optional<StreamObject>> Reader::file_spec_stream(const PdfObject& spec_value) const {
  auto spec = resolve(spec_value);
  if (!spec) return std::unexpected(spec.error());
  if (!spec->IsDictionary()) return std::optional<StreamObject>{};
  auto ef = resolve_key(spec->GetDictionary(), "EF");
  if (!ef) return std::unexpected(ef.error());
  if (!*ef || !(*ef)->IsDictionary()) return std::optional<StreamObject>{};
  const PdfObject* f = key((*ef)->GetDictionary(), "UF");
  if (!f || !f->IsReference()) f = key((*ef)->GetDictionary(), "F");
  if (!f || !f->IsReference()) return std::optional<StreamObject>{};
  auto s = stream(*reference_of(*f));
  if (!s) return std::unexpected(s.error());
  return std::optional<StreamObject>{std::move(*s)};
}

Result<std::optional<std::string>> Reader::file_spec_contents(const PdfObject& spec_value) const {
  return data_of(file_spec_stream(spec_value));
}

Result<std::optional<StreamObject>> Reader::embedded_file_stream(std::string_view wanted) const {
  auto files = embedded_files();
  if (!files) return std::unexpected(files.error());
  for (const auto& e : *files)
    if (e.key_utf8 == wanted) return file_spec_stream(e.value);
  return std::optional<StreamObject>{};
}

Result<std::optional<std::string>> Reader::embedded_file(std::string_view wanted) const {
  return data_of(embedded_file_stream(wanted));
}

Result<std::uint64_t> Reader::page_count() const {
  auto cat = catalog();
  if (!cat) return std::unexpected(cat.error());
  auto pages = resolve_key(*cat, "Pages");
  if (!pages) return std::unexpected(pages.error());
  if (!*pages || !(*pages)->IsDictionary()) return fail(ErrorKind::malformed, name_, "the catalog has no /Pages dictionary");
  auto count = resolve_key((*pages)->GetDictionary(), "Count");
  if (!count) return std::unexpected(count.error());
  if (!*count || !(*count)->IsNumber() || (*count)->GetNumber() < 0)
    return fail(ErrorKind::malformed, name_, "the page tree has no valid /Count");
  return static_cast<std::uint64_t>((*count)->GetNumber());
}

Result<Page> Reader::first_page() const {
  auto cat = catalog();
  if (!cat) return std::unexpected(cat.error());
  const PdfObject* pages = key(*cat, "Pages");
  if (!pages || !pages->IsReference()) return fail(ErrorKind::malformed, name_, "the catalog has no /Pages reference");
  std::set<ObjectId> seen;
  ObjectId id = *reference_of(*pages);
  for (int depth = 0; depth <= limits_.max_depth; ++depth) {
    if (!seen.insert(id).second) return fail(ErrorKind::malformed, name_, "the page tree has a loop at " + to_string(id));
    auto node = object(id);
    if (!node) return std::unexpected(node.error());
    if (!node->IsDictionary()) return fail(ErrorKind::malformed, name_, "page tree node " + to_string(id) + " is not a dictionary");
    const PdfDictionary& d = node->GetDictionary();
    const PdfObject* type = key(d, "Type");
    const bool is_page = type && type->IsName() && type->GetName().GetName() == "Page";
    auto kids = resolve_key(d, "Kids");
    if (!kids) return std::unexpected(kids.error());
    if (is_page || !*kids) return Page{id, d};
    if (!(*kids)->IsArray() || (*kids)->GetArray().empty() || !(*kids)->GetArray()[0].IsReference())
      return fail(ErrorKind::malformed, name_, "page tree node " + to_string(id) + " has no first kid");
    id = *reference_of((*kids)->GetArray()[0]);
  }
  return fail(ErrorKind::malformed, name_, "the page tree is deeper than " + std::to_string(limits_.max_depth));
}

Result<std::vector<std::pair<std::optional<ObjectId>, PdfDictionary>>> Reader::page_annotations(const Page& page,
                                                                                         std::size_t max_count) const {
  std::vector<std::pair<std::optional<ObjectId>, PdfDictionary>> out;
  // A direct /Annots array is read where it lies in the page dictionary, not
  // copied; each entry is resolved only when its turn comes, and reading
  // stops at max_count: a page with 250,000 links costs what 4,096 cost
  // (issue 23), not a copy of every annotation dictionary.
  const PdfObject* direct = key(page.dictionary, "Annots");
  if (!direct) return out;
  std::optional<PdfObject> resolved;
  if (direct->IsReference()) {
    auto r = resolve(*direct);
    if (!r) return std::unexpected(r.error());
    resolved = std::move(*r);
    direct = &*resolved;
  }
  if (!direct->IsArray()) return out;
  const PdfArray& annots = direct->GetArray();
  out.reserve(std::min(annots.size(), max_count));
  for (const PdfObject& a : annots) {
    if (out.size() >= max_count) break;
    auto r = resolve(a);
    if (!r) return std::unexpected(r.error());
    if (r->IsDictionary()) out.emplace_back(reference_of(a), r->GetDictionary());
  }
  return out;
}

}  // namespace pith::pdf
