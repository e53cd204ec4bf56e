// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One incremental update (ISO 32000-1 7.5.6) appended after a PDF's bytes:
// the new or changed objects, a cross-reference section listing only them,
// and a trailer whose /Prev names the previous section. The section has the
// form of the file's newest one: a classic table and trailer after a classic
// table (or a hybrid file's), a cross-reference stream after a stream. (A
// classic section after a stream is allowed, and qpdf, mupdf and exiftool
// accept it, but poppler rebuilt pdf-lib's flatten_form.pdf from it and
// lost a checkbox's appearance.) The original bytes stay an exact prefix, so
// existing signatures stay valid. Output is a pure function of the inputs.
#include "pith/base/error.hpp"
#include "pith/pdf/reader.hpp"

#include <optional>
#include <string>
#include <vector>

#include <podofo/base/PdfObject.h>

namespace pith::pdf {

struct UpdateObject {
  ObjectId id;
  PoDoFo::PdfObject value;            // for a stream: its dictionary (/Length is set when written)
  std::optional<std::string> stream;  // stream bytes, already encoded as the dictionary's /Filter says
};

struct UpdateTrailer {
  ObjectId root;
  std::optional<ObjectId> info;  // nullopt: the file keeps no /Info
};

// "N G obj ... endobj" for one object (PoDoFo's writer, deterministic: keys sorted).
[[nodiscard]] std::string serialize_object(const UpdateObject& object);

// The bytes to append to `base.bytes()`. /ID keeps the original first id (or
// makes one) and derives the second from the update's content. Objects must
// have distinct numbers below the new /Size. Fails on an empty update.
[[nodiscard]] Result<std::string> build_incremental_update(const Reader& base, const std::vector<UpdateObject>& objects,
                                                           const UpdateTrailer& trailer);

// The check a written update must pass before it replaces or extends
// anything (pith-stamp runs it on the file re-read from disk): `written`
// reads with the reader (no recovery), its newest cross-reference section
// starts after the first `original_length` bytes exactly where startxref
// says, every entry of that section points exactly at its `N G obj`, the
// trailer's /Root resolves to a catalog and, when `expected_pages` is set,
// the page tree counts that many pages. The error names `name` and what is wrong.
[[nodiscard]] Result<void> check_written_update(std::string_view written, const std::string& name,
                                                std::uint64_t original_length,
                                                std::optional<std::uint64_t> expected_pages);

// Hands out object numbers above the file's /Size, in order.
class ObjectNumbers {
 public:
  explicit ObjectNumbers(std::uint32_t first_free) : next_(first_free) {}
  [[nodiscard]] ObjectId next() { return ObjectId{next_++, 0}; }

 private:
  std::uint32_t next_;
};

}  // namespace pith::pdf
