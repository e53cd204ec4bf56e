// SPDX-License-Identifier: GPL-3.0-or-later
// The Reader's objects: one indirect object parsed where the cross-reference
// data says it lies (nesting bounded before PoDoFo's tokenizer sees it), its
// stream checked against /Length and decoded by PoDoFo's filters within the
// size limit, objects inside object streams (the stream inflated once, kept
// within the cache limits), and references followed, bounded. Also the
// helpers on PoDoFo values the writer and the stamper share (reader.hpp).
#include "pith/pdf/reader_internal.hpp"

#include <memory>

#include <podofo/base/PdfEncrypt.h>
#include <podofo/base/PdfFilter.h>
#include <podofo/base/PdfOutputStream.h>
#include <podofo/base/PdfReference.h>
#include <podofo/base/PdfString.h>

namespace pith::pdf {
using namespace detail;
namespace {

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
    return fail(ErrorKind::malformed, name_, "cannot parse the object " + at(offset) + ": " + describe_podofo_error(e));
  } catch (const std::bad_alloc&) {
    throw;  // the child's memory budget: reported by it, naming the option that raises it (runner/child_budget.hpp)
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
    return fail(ErrorKind::malformed, name_, "cannot decode the stream " + where + ": " + describe_podofo_error(e));
  } catch (const std::bad_alloc&) {
    throw;  // the child's memory budget, as above
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
        return fail(ErrorKind::malformed, name_, "cannot parse " + where + ": " + describe_podofo_error(err));
      } catch (const std::bad_alloc&) {
        throw;  // the child's memory budget, as above
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

}  // namespace pith::pdf
