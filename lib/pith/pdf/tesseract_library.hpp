// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Tesseract, loaded when the glyph check first needs OCR (dlopen of
// libtesseract.so.5, its C API), not linked: a check whose title the shape
// memory reads (check/shape_memory.hpp), pith-stamp, --version and every
// check of a file without a title never OCR, and a linked libtesseract made
// every start of pith-check load 28 more shared libraries (Leptonica's image
// codecs, and libcurl with TLS, Kerberos, LDAP, SSH: measured 6 ms of a
// 22 ms check). The functions pdf/drawn_letters uses, by name.
#include "pith/base/error.hpp"

#include <tesseract/capi.h>

namespace pith::pdf {

struct TesseractLibrary {
  decltype(&::TessBaseAPICreate) create;
  decltype(&::TessBaseAPIDelete) destroy;
  decltype(&::TessBaseAPIInit2) init;
  decltype(&::TessBaseAPIEnd) end;
  decltype(&::TessBaseAPISetPageSegMode) set_page_seg_mode;
  decltype(&::TessBaseAPISetImage) set_image;
  decltype(&::TessBaseAPISetSourceResolution) set_source_resolution;
  decltype(&::TessBaseAPIGetUTF8Text) get_utf8_text;
  decltype(&::TessDeleteText) delete_text;
  decltype(&::TessBaseAPIClear) clear;
};

// The library, loaded once per process (OpenMP's worker threads turned off
// before any use: the sandbox refuses clone); an Error naming the package to
// install when it cannot be.
[[nodiscard]] Result<const TesseractLibrary*> tesseract_library();

}  // namespace pith::pdf
