// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/tesseract_library.hpp"

#include "pith/base/shared_library.hpp"

#include <dlfcn.h>

namespace pith::pdf {
namespace {

constexpr const char* soname = "libtesseract.so.5";  // Debian 12's libtesseract5


// libgomp, when Tesseract was built with OpenMP (Debian's is), starts worker
// threads at the first parallel loop: omp_set_max_active_levels(0) makes
// every parallel region run on the calling thread. Looked up through
// Tesseract's own dependencies: one without OpenMP has no such symbol, and
// needs nothing.
void run_openmp_on_one_thread(void* handle) {
  using SetLevels = void (*)(int);
  if (auto* set = reinterpret_cast<SetLevels>(::dlsym(handle, "omp_set_max_active_levels"))) set(0);
}

Result<TesseractLibrary> load() {
  const auto cannot = [](const std::string& why) {
    return fail(ErrorKind::internal, "glyph check",
                "cannot load Tesseract, which reading the title's glyphs needs (" + why +
                    "): install it (Debian: apt install libtesseract5 tesseract-ocr-eng)");
  };
  // Never unloaded: Tesseract and OpenMP keep global state for the life of the process.
  const auto take_all = [](void* handle, TesseractLibrary& t) {
    if (!(take_function(handle, "TessBaseAPICreate", t.create) && take_function(handle, "TessBaseAPIDelete", t.destroy) &&
          take_function(handle, "TessBaseAPIInit2", t.init) && take_function(handle, "TessBaseAPIEnd", t.end) &&
          take_function(handle, "TessBaseAPISetPageSegMode", t.set_page_seg_mode) &&
          take_function(handle, "TessBaseAPISetImage", t.set_image) &&
          take_function(handle, "TessBaseAPISetSourceResolution", t.set_source_resolution) &&
          take_function(handle, "TessBaseAPIGetUTF8Text", t.get_utf8_text) &&
          take_function(handle, "TessDeleteText", t.delete_text) && take_function(handle, "TessBaseAPIClear", t.clear)))
      return false;
    run_openmp_on_one_thread(handle);
    return true;
  };
  return load_library<TesseractLibrary>(soname, "Tesseract 5", take_all, cannot);
}

}  // namespace

Result<const TesseractLibrary*> tesseract_library() {
  static const Result<TesseractLibrary> loaded = load();  // once, thread-safe (C++11 statics)
  if (!loaded) return std::unexpected(loaded.error());
  return &*loaded;
}

}  // namespace pith::pdf
