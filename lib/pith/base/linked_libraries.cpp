// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/linked_libraries.hpp"

#include <curl/curl.h>
#include <podofo/base/PdfDefines.h>
#include <poppler-version.h>
#include <sodium.h>

namespace pith {

std::string linked_library_versions() {
  // Exempi has no version call; its pkg-config version is passed in by lib/CMakeLists.txt.
  return std::string("PoDoFo ") + PODOFO_VERSION_STR + ", libcurl " + curl_version_info(CURLVERSION_NOW)->version +
         ", libsodium " + sodium_version_string() + ", Exempi " + PITH_EXEMPI_VERSION + ", poppler " +
         poppler::version_string();
}

}  // namespace pith
