// SPDX-License-Identifier: GPL-3.0-or-later
// PDF reader: a file as pith-check and pith-stamp open it (the lazy reader),
// then everything they read from it: the metadata, the Pith Numbers it
// claims, page 1 and its annotations, the embedded files.
#include "pith/pdf/extract.hpp"
#include "pith/pdf/reader.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // As pith-check opens it: a damaged cross-reference section is rebuilt by
  // scanning (the first byte chooses, so the strict path is fuzzed too).
  pith::pdf::ReaderLimits limits;
  limits.recover_damaged_xref = size > 0 && (data[0] & 1) != 0;
  auto reader = pith::pdf::Reader::open(bytes, "fuzz.pdf", limits);
  if (!reader) return 0;
  const auto metadata = pith::pdf::read_pdf_metadata(*reader);
  if (auto extraction = pith::pdf::extract_pith_numbers(metadata)) {
    (void)extraction->conflicts();
    (void)extraction->number();
  }
  if (auto page = reader->first_page()) (void)reader->page_annotations(*page);
  (void)reader->embedded_files();
  (void)reader->page_count();
  return 0;
}
