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
  const std::string_view original = base.bytes();
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
      offsets.emplace_back(o.id, original.size() + out.size());
      out += serialize_object(o);
      size = std::max(size, o.id.number + 1);
    }
  } catch (const PoDoFo::PdfError& e) {
    return fail(ErrorKind::internal, base.name(), std::string("cannot serialize the update: ") + PoDoFo::PdfError::ErrorName(e.GetError()));
  }
  std::sort(offsets.begin(), offsets.end());

  const std::uint64_t xref_offset = original.size() + out.size();
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

}  // namespace pith::pdf
