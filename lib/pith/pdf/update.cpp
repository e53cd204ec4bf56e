// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/update.hpp"

#include "pith/base/crypto.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include <podofo/base/PdfArray.h>
#include <podofo/base/PdfDictionary.h>
#include <podofo/base/PdfError.h>
#include <podofo/base/PdfName.h>
#include <podofo/base/PdfOutputDevice.h>
#include <podofo/base/PdfReference.h>
#include <podofo/base/PdfString.h>
#include <podofo/base/PdfVariant.h>

namespace pith::pdf {
namespace {

using PoDoFo::PdfArray;
using PoDoFo::PdfDictionary;
using PoDoFo::PdfName;
using PoDoFo::PdfObject;

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

PdfObject reference(ObjectId id) { return PdfObject(PoDoFo::PdfReference(id.number, id.generation)); }

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
    return fail(ErrorKind::internal, base.name(), std::string("cannot serialize the update: ") + PoDoFo::PdfError::ErrorName(e.GetError()));
  }
  std::sort(offsets.begin(), offsets.end());

  const std::uint64_t xref_offset = original.size() + out.size() - origin;
  // A classic entry has ten digits for the offset.
  constexpr std::uint64_t classic_offset_limit = 10'000'000'000ull;
  if (xref_offset >= classic_offset_limit) {
    return fail(ErrorKind::usage, base.name(),
                "the file is larger than a classic cross-reference table can address (10^10 bytes); not supported");
  }
  out += "xref\n";
  char line[40];
  for (std::size_t i = 0; i < offsets.size();) {
    std::size_t j = i + 1;
    while (j < offsets.size() && offsets[j].first.number == offsets[j - 1].first.number + 1) ++j;
    out += std::to_string(offsets[i].first.number) + " " + std::to_string(j - i) + "\n";
    for (std::size_t k = i; k < j; ++k) {
      std::snprintf(line, sizeof line, "%010llu %05u n\r\n", static_cast<unsigned long long>(offsets[k].second),
                    static_cast<unsigned>(offsets[k].first.generation));
      out += line;
    }
    i = j;
  }

  // /ID: keep the first (the document's permanent identity), derive the second
  // from what changed so the same update always gets the same id.
  const std::string body(out.data(), out.size());
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
  try {
    out += "trailer\n" + write_variant(PdfObject(t)) + "\nstartxref\n" + std::to_string(xref_offset) + "\n%%EOF\n";
  } catch (const PoDoFo::PdfError& e) {
    return fail(ErrorKind::internal, base.name(), std::string("cannot serialize the trailer: ") + PoDoFo::PdfError::ErrorName(e.GetError()));
  }
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

}  // namespace

Result<void> check_written_update(std::string_view written, const std::string& name, std::uint64_t original_length,
                                  std::optional<std::uint64_t> expected_pages) {
  auto reader = Reader::open(written, name);
  if (!reader) return fail(ErrorKind::internal, name, "the written file does not read back: " + reader.error().message);
  const auto& sections = reader->section_offsets();
  if (sections.empty() || sections.front() < original_length)
    return fail(ErrorKind::internal, name, "the written file does not start its newest cross-reference section after the original");
  if (auto ok = check_section_entries(written, name, sections.front(), reader->offset_base()); !ok) return ok;
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
