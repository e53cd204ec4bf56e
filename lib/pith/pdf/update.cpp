// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/update.hpp"

#include "pith/base/crypto.hpp"
#include "pith/pdf/podofo_objects.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include <podofo/base/PdfError.h>
#include <podofo/base/PdfOutputDevice.h>
#include <podofo/base/PdfString.h>
#include <podofo/base/PdfVariant.h>

namespace pith::pdf {
namespace {

std::string write_variant(const PoDoFo::PdfVariant& v) {
  std::ostringstream out;
  {
    PoDoFo::PdfOutputDevice device(&out);
    v.Write(&device, PoDoFo::ePdfWriteMode_Clean);
  }
  return out.str();
}

std::string sha256_16(std::string_view a, std::string_view b) {
  Sha256Stream hash;
  hash.update(a);
  hash.update(b);
  const Sha256Digest digest = hash.finish();
  return std::string(reinterpret_cast<const char*>(digest.data()), 16);
}

PdfObject hex_string(const std::string& bytes) {
  return PdfObject(PoDoFo::PdfString(bytes.data(), static_cast<PoDoFo::pdf_long>(bytes.size()), true));
}

}  // namespace

std::string serialize_object(const UpdateObject& object) {
  std::string out = std::to_string(object.id.number) + " " + std::to_string(object.id.generation) + " obj\n";
  if (object.stream) {
    PdfDictionary dict = object.value.IsDictionary() ? object.value.GetDictionary() : PdfDictionary();
    dict.AddKey(PdfName("Length"), PdfObject(static_cast<PoDoFo::pdf_int64>(object.stream->size())));
    out += write_variant(PdfObject(dict));
    out += "\nstream\n";
    out += *object.stream;
    out += "\nendstream\nendobj\n";
  } else {
    out += write_variant(object.value);
    out += "\nendobj\n";
  }
  return out;
}

namespace {

using Offsets = std::vector<std::pair<ObjectId, std::uint64_t>>;

// Runs of consecutive object numbers in `offsets` (sorted): [first, end) indexes.
std::vector<std::pair<std::size_t, std::size_t>> subsections(const Offsets& offsets) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < offsets.size();) {
    std::size_t j = i + 1;
    while (j < offsets.size() && offsets[j].first.number == offsets[j - 1].first.number + 1) ++j;
    out.emplace_back(i, j);
    i = j;
  }
  return out;
}

// The trailer keys of an update: /Size, /Root, /Info, /ID (the original
// first id, the second derived from `body`, what changed), /Prev.
PdfDictionary update_trailer(const Reader& base, std::uint32_t size, const UpdateTrailer& trailer, std::string_view body) {
  const std::string first = base.file_id() ? base.file_id()->first : sha256_16("pith-id0", body);
  const std::string second = sha256_16(first, body);
  PdfDictionary t;
  t.AddKey(PdfName("Size"), PdfObject(static_cast<PoDoFo::pdf_int64>(size)));
  t.AddKey(PdfName("Root"), reference(trailer.root));
  if (trailer.info) t.AddKey(PdfName("Info"), reference(*trailer.info));
  PdfArray id;
  id.push_back(hex_string(first));
  id.push_back(hex_string(second));
  t.AddKey(PdfName("ID"), PdfObject(id));
  t.AddKey(PdfName("Prev"), PdfObject(static_cast<PoDoFo::pdf_int64>(base.startxref())));
  return t;
}

// A classic section (`xref`, 20-byte entries) and its trailer.
Result<void> append_classic_section(const Reader& base, const Offsets& offsets, std::uint32_t size,
                                    const UpdateTrailer& trailer, std::string& out) {
  const std::uint64_t xref_offset = base.bytes().size() + out.size() - base.offset_base();
  // A classic entry has ten digits for the offset.
  constexpr std::uint64_t classic_offset_limit = 10'000'000'000ull;
  if (xref_offset >= classic_offset_limit) {
    return fail(ErrorKind::usage, base.name(),
                "the file is larger than a classic cross-reference table can address (10^10 bytes); not supported");
  }
  out += "xref\n";
  char line[40];
  for (const auto& [i, j] : subsections(offsets)) {
    out += std::to_string(offsets[i].first.number) + " " + std::to_string(j - i) + "\n";
    for (std::size_t k = i; k < j; ++k) {
      std::snprintf(line, sizeof line, "%010llu %05u n\r\n", static_cast<unsigned long long>(offsets[k].second),
                    static_cast<unsigned>(offsets[k].first.generation));
      out += line;
    }
  }
  const PdfDictionary t = update_trailer(base, size, trailer, out);
  try {
    out += "trailer\n" + write_variant(PdfObject(t)) + "\nstartxref\n" + std::to_string(xref_offset) + "\n%%EOF\n";
  } catch (const PoDoFo::PdfError& e) {
    return fail(ErrorKind::internal, base.name(), std::string("cannot serialize the trailer: ") + describe_podofo_error(e));
  }
  return {};
}

// A cross-reference stream (ISO 32000-2 7.5.8), after a file whose newest
// section is one: readers that met an xref stream expect the next one to
// be the same (poppler rebuilt pdf-lib's flatten_form.pdf from a classic
// section after its stream, and lost a checkbox). Rows of /W [1 n 2],
// uncompressed; the stream lists itself, under the next free number.
Result<void> append_xref_stream(const Reader& base, Offsets offsets, std::uint32_t size, const UpdateTrailer& trailer,
                                std::string& out) {
  const ObjectId self{size, 0};
  const std::uint64_t xref_offset = base.bytes().size() + out.size() - base.offset_base();
  offsets.emplace_back(self, xref_offset);  // the largest number: `offsets` stays sorted
  int offset_width = 1;
  while (offset_width < 8 && (xref_offset >> (8 * offset_width)) != 0) ++offset_width;
  std::string rows;
  PdfArray index;
  for (const auto& [i, j] : subsections(offsets)) {
    index.push_back(PdfObject(static_cast<PoDoFo::pdf_int64>(offsets[i].first.number)));
    index.push_back(PdfObject(static_cast<PoDoFo::pdf_int64>(j - i)));
    for (std::size_t k = i; k < j; ++k) {
      rows += '\1';
      for (int b = offset_width - 1; b >= 0; --b) rows += static_cast<char>((offsets[k].second >> (8 * b)) & 0xff);
      rows += static_cast<char>(offsets[k].first.generation >> 8);
      rows += static_cast<char>(offsets[k].first.generation & 0xff);
    }
  }
  std::string body = out;
  body += rows;
  PdfDictionary dict = update_trailer(base, size + 1, trailer, body);
  dict.AddKey(PdfName("Type"), PdfName("XRef"));
  PdfArray widths;
  for (const int w : {1, offset_width, 2}) widths.push_back(PdfObject(static_cast<PoDoFo::pdf_int64>(w)));
  dict.AddKey(PdfName("W"), widths);
  dict.AddKey(PdfName("Index"), index);
  try {
    out += serialize_object(UpdateObject{self, PdfObject(dict), std::move(rows)});
  } catch (const PoDoFo::PdfError& e) {
    return fail(ErrorKind::internal, base.name(), std::string("cannot serialize the cross-reference stream: ") +
                                                      describe_podofo_error(e));
  }
  out += "startxref\n" + std::to_string(xref_offset) + "\n%%EOF\n";
  return {};
}

}  // namespace

Result<std::string> build_incremental_update(const Reader& base, const std::vector<UpdateObject>& objects,
                                             const UpdateTrailer& trailer) {
  if (objects.empty()) return fail(ErrorKind::internal, base.name(), "internal: an incremental update needs at least one object");
  if (base.recovered()) {
    return fail(ErrorKind::malformed, base.name(),
                "damaged cross-reference data (" + base.recovery_reason() +
                    "); an update would be written on top of a guess. Repair it first, e.g. `qpdf " + base.name() +
                    " repaired.pdf`, then stamp the repaired copy");
  }
  const std::string_view original = base.bytes();
  // Offsets in the file count from offset_base() (the %PDF- header when bytes precede it).
  const std::uint64_t origin = base.offset_base();
  std::string out;
  // The previous %%EOF may lack an end-of-line; the next object must start a line.
  if (!original.empty() && original.back() != '\n' && original.back() != '\r') out += '\n';

  std::vector<std::pair<ObjectId, std::uint64_t>> offsets;
  std::set<std::uint32_t> numbers;
  std::uint32_t size = base.size();
  try {
    for (const UpdateObject& o : objects) {
      if (o.id.number == 0 || !numbers.insert(o.id.number).second)
        return fail(ErrorKind::internal, base.name(), "internal: object number " + std::to_string(o.id.number) + " used twice or zero");
      offsets.emplace_back(o.id, original.size() + out.size() - origin);
      out += serialize_object(o);
      size = std::max(size, o.id.number + 1);
    }
  } catch (const PoDoFo::PdfError& e) {
    return fail(ErrorKind::internal, base.name(), std::string("cannot serialize the update: ") + describe_podofo_error(e));
  }
  std::sort(offsets.begin(), offsets.end());
  auto section = base.newest_section_is_stream() ? append_xref_stream(base, offsets, size, trailer, out)
                                                 : append_classic_section(base, offsets, size, trailer, out);
  if (!section) return std::unexpected(section.error());
  return out;
}

namespace {

// Every entry of the classic section at `section` (our own format: "xref",
// subsections "first count", 20-byte entries) names an object that starts
// exactly at its offset.
Result<void> check_section_entries(std::string_view bytes, const std::string& name, std::uint64_t section,
                                   std::uint64_t origin) {
  auto bad = [&](const std::string& what) { return fail(ErrorKind::internal, name, "the written update is wrong: " + what); };
  if (section >= bytes.size() || !bytes.substr(static_cast<std::size_t>(section)).starts_with("xref"))
    return bad("startxref does not point at its cross-reference table");
  std::istringstream in(std::string(bytes.substr(static_cast<std::size_t>(section), 1u << 20)));
  std::string word;
  in >> word;  // "xref"
  for (;;) {
    if (!(in >> word)) return bad("the cross-reference table has no trailer");
    if (word == "trailer") return {};
    std::uint64_t first = 0;
    std::uint64_t count = 0;
    try {
      first = std::stoull(word);
    } catch (const std::exception&) {
      return bad("malformed cross-reference subsection");
    }
    if (!(in >> count) || count > 1'000'000) return bad("malformed cross-reference subsection");
    for (std::uint64_t i = 0; i < count; ++i) {
      std::uint64_t offset = 0;
      unsigned generation = 0;
      char type = 0;
      if (!(in >> offset >> generation >> type)) return bad("malformed cross-reference entry");
      if (type != 'n') continue;
      const std::string header = std::to_string(first + i) + " " + std::to_string(generation) + " obj";
      if (offset > bytes.size() || origin > bytes.size() - offset ||
          !bytes.substr(static_cast<std::size_t>(origin + offset)).starts_with(header))
        return bad("object " + std::to_string(first + i) + " is not at the offset its entry gives");
    }
  }
}

// The same for an update written as a cross-reference stream: the object
// at `section` is an xref stream in our form (/W [1 n 2], no filter) and
// every type-1 row names an object that starts exactly at its offset.
Result<void> check_stream_section_entries(const Reader& reader, const std::string& name, std::uint64_t section) {
  auto bad = [&](const std::string& what) { return fail(ErrorKind::internal, name, "the written update is wrong: " + what); };
  const std::string_view bytes = reader.bytes();
  std::istringstream head(std::string(bytes.substr(static_cast<std::size_t>(section), 64)));
  std::uint32_t number = 0;
  unsigned generation = 0;
  std::string obj;
  if (!(head >> number >> generation >> obj) || obj != "obj" || generation > 65535)
    return bad("startxref does not point at its cross-reference stream");
  auto stream = reader.stream(ObjectId{number, static_cast<std::uint16_t>(generation)});
  if (!stream) return bad("its cross-reference stream does not read: " + stream.error().message);
  const PdfDictionary& d = stream->dictionary;
  const PdfObject* w = d.GetKey(PdfName("W"));
  const PdfObject* index = d.GetKey(PdfName("Index"));
  if (d.GetKey(PdfName("Filter")) || !w || !w->IsArray() || w->GetArray().size() != 3 || !index || !index->IsArray() ||
      index->GetArray().size() % 2 != 0)
    return bad("its cross-reference stream is not in the form pith writes");
  std::size_t widths[3];
  for (std::size_t i = 0; i < 3; ++i) {
    const PdfObject& v = w->GetArray()[i];
    if (!v.IsNumber() || v.GetNumber() < 0 || v.GetNumber() > 8) return bad("its cross-reference stream has a bad /W");
    widths[i] = static_cast<std::size_t>(v.GetNumber());
  }
  const std::size_t row = widths[0] + widths[1] + widths[2];
  const std::string& data = stream->data;
  const auto field = [&](std::size_t at, std::size_t width) {
    std::uint64_t v = 0;
    for (std::size_t b = 0; b < width; ++b) v = (v << 8) | static_cast<unsigned char>(data[at + b]);
    return v;
  };
  std::size_t at = 0;
  const PdfArray& ranges = index->GetArray();
  for (std::size_t r = 0; r < ranges.size(); r += 2) {
    if (!ranges[r].IsNumber() || !ranges[r + 1].IsNumber() || ranges[r].GetNumber() < 0 || ranges[r + 1].GetNumber() < 0)
      return bad("its cross-reference stream has a bad /Index");
    const auto first = static_cast<std::uint64_t>(ranges[r].GetNumber());
    const auto count = static_cast<std::uint64_t>(ranges[r + 1].GetNumber());
    if (row == 0 || count > (data.size() - at) / row) return bad("its cross-reference stream is shorter than its /Index");
    for (std::uint64_t i = 0; i < count; ++i, at += row) {
      if (widths[0] != 1 || field(at, 1) != 1) return bad("its cross-reference stream lists an entry pith does not write");
      const std::uint64_t offset = field(at + widths[0], widths[1]);
      const std::uint64_t gen = field(at + widths[0] + widths[1], widths[2]);
      const std::string header = std::to_string(first + i) + " " + std::to_string(gen) + " obj";
      const std::uint64_t origin = reader.offset_base();
      if (offset > bytes.size() || origin > bytes.size() - offset ||
          !bytes.substr(static_cast<std::size_t>(origin + offset)).starts_with(header))
        return bad("object " + std::to_string(first + i) + " is not at the offset its entry gives");
    }
  }
  if (at != data.size()) return bad("its cross-reference stream has rows its /Index does not list");
  return {};
}

}  // namespace

Result<void> check_written_update(std::string_view written, const std::string& name, std::uint64_t original_length,
                                  std::optional<std::uint64_t> expected_pages) {
  auto reader = Reader::open(written, name);
  if (!reader) return fail(ErrorKind::internal, name, "the written file does not read back: " + reader.error().message);
  const auto& sections = reader->section_offsets();
  if (sections.empty() || sections.front() < original_length)
    return fail(ErrorKind::internal, name, "the written file does not start its newest cross-reference section after the original");
  const bool stream_section = reader->newest_section_is_stream();
  if (auto ok = stream_section ? check_stream_section_entries(*reader, name, sections.front())
                               : check_section_entries(written, name, sections.front(), reader->offset_base());
      !ok)
    return ok;
  if (auto catalog = reader->catalog(); !catalog)
    return fail(ErrorKind::internal, name, "the written file's /Root does not resolve: " + catalog.error().message);
  if (expected_pages) {
    auto pages = reader->page_count();
    if (!pages || *pages != *expected_pages) {
      return fail(ErrorKind::internal, name,
                  "the written file has " + (pages ? std::to_string(*pages) : std::string("no readable")) +
                      " pages instead of " + std::to_string(*expected_pages));
    }
  }
  return {};
}

}  // namespace pith::pdf
