// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/linked_libraries.hpp"

#include <curl/curl.h>
#include <podofo/base/PdfDefines.h>
#include <poppler-config.h>
#include <sodium.h>

namespace pith {

std::string linked_library_versions() {
  // Exempi has no version call; its pkg-config version is passed in by lib/CMakeLists.txt.
  // libcurl is loaded only when going online (resolver/curl_library.hpp), so
  // --version names the version built against rather than load it; so
  // does poppler's core API (libpoppler-private-dev), which has no version call.
  return std::string("PoDoFo ") + PODOFO_VERSION_STR + ", libcurl " + LIBCURL_VERSION +
         ", libsodium " + sodium_version_string() + ", Exempi " + PITH_EXEMPI_VERSION + ", poppler " +
         POPPLER_VERSION;
}

}  // namespace pith
