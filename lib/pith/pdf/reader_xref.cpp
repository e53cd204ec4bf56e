// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a PDF: where its offsets count from (the `%PDF-` header or byte 0),
// the cross-reference chain from startxref back through /Prev (classic
// tables, xref streams, hybrid files; bounded and loop-safe, newest entry
// wins) and the trailer's keys. When the chain is damaged and the caller
// asks, the objects are found by scanning instead (reader_recovery.cpp); an
// encrypted file is refused, or opened with the empty password
// (reader_decrypt.cpp).
#include "pith/pdf/reader_internal.hpp"

#include <set>

namespace pith::pdf {
using namespace detail;

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
    return fail(ErrorKind::malformed, r.name_, "damaged cross-reference data: " + describe_podofo_error(e));
  } catch (const std::bad_alloc&) {
    throw;  // the child's memory budget: reported by it, naming the option that raises it (runner/child_budget.hpp)
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
    } catch (const std::bad_alloc&) {
      throw;  // the child's memory budget, as above
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
    return fail(ErrorKind::malformed, name_, "the trailer dictionary " + at(trailer_at) + " does not parse (" + describe_podofo_error(e) + ")");
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

}  // namespace pith::pdf
