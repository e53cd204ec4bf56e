// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A shared library loaded when first needed (dlopen), never unloaded, and
// its functions taken by name: how pith uses libraries a run may not need
// (libcurl only online: resolver/curl_library; Tesseract only for OCR:
// pdf/tesseract_library), so that starting a tool does not load them.
#include "pith/base/error.hpp"

#include <dlfcn.h>
#include <string>

namespace pith {

// The library `soname`, loaded with its own symbols kept local; an Error
// with dlopen's reason when it cannot be.
[[nodiscard]] inline Result<void*> open_shared_library(const char* soname) {
  if (void* handle = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL)) return handle;
  const char* why = ::dlerror();
  return fail(ErrorKind::internal, soname, why ? why : "dlopen failed");
}

// `into` set to the function `name` of `library`; false when it has none.
template <class Function>
[[nodiscard]] bool take_function(void* library, const char* name, Function& into) {
  into = reinterpret_cast<Function>(::dlsym(library, name));
  return into != nullptr;
}

// `soname` loaded (never unloaded) and a `Library` of its functions, each
// taken by `take(handle, library)` (false when one is missing); or why not,
// as `cannot(why)` words it for the user: dlopen's reason, or that the
// library lacks a function and which version has them all (`needed`).
template <class Library, class Take, class Cannot>
[[nodiscard]] Result<Library> load_library(const char* soname, const char* needed, const Take& take, const Cannot& cannot) {
  const Result<void*> opened = open_shared_library(soname);
  if (!opened) return cannot(opened.error().message);
  Library library{};
  if (!take(*opened, library)) return cannot(std::string(soname) + " lacks a function pith uses: " + needed + " is needed");
  return library;
}

}  // namespace pith
