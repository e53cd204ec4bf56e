// SPDX-License-Identifier: GPL-3.0-or-later
// Recovery, when ReaderLimits::recover_damaged_xref asks for it (for
// reading only: an update must not be written on top of a guess): the
// cross-reference data rebuilt from the objects themselves, as qpdf and
// poppler do; a trailer with junk in it taken key by key; the last catalog
// when no trailer is readable.
#include "pith/pdf/reader_internal.hpp"

#include <podofo/base/PdfReference.h>

namespace pith::pdf {
using namespace detail;
namespace {

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

}  // namespace

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

}  // namespace pith::pdf
