// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// libcurl, loaded when the first HTTP client is made (dlopen of
// libcurl.so.4), not linked: pith-check --offline, --version and pith-stamp
// --bundle never go online, and a linked libcurl made every start of either
// tool load ~25 more shared libraries (TLS, Kerberos, LDAP, SSH, IDN, ...)
// and resolve their ~5,000 relocations. The functions http_client uses, by name.
#include "pith/base/error.hpp"

#include <curl/curl.h>

namespace pith::resolver {

struct CurlLibrary {
  decltype(&::curl_global_init) global_init;
  decltype(&::curl_easy_init) easy_init;
  decltype(&::curl_easy_cleanup) easy_cleanup;
  decltype(&::curl_easy_setopt) easy_setopt;
  decltype(&::curl_easy_getinfo) easy_getinfo;
  decltype(&::curl_easy_perform) easy_perform;
  decltype(&::curl_easy_strerror) easy_strerror;
  decltype(&::curl_easy_header) easy_header;
  decltype(&::curl_slist_append) slist_append;
  decltype(&::curl_slist_free_all) slist_free_all;
  decltype(&::curl_share_init) share_init;
  decltype(&::curl_share_setopt) share_setopt;
  decltype(&::curl_share_cleanup) share_cleanup;
  decltype(&::curl_multi_init) multi_init;
  decltype(&::curl_multi_cleanup) multi_cleanup;
  decltype(&::curl_multi_setopt) multi_setopt;
  decltype(&::curl_multi_add_handle) multi_add_handle;
  decltype(&::curl_multi_remove_handle) multi_remove_handle;
  decltype(&::curl_multi_perform) multi_perform;
  decltype(&::curl_multi_info_read) multi_info_read;
  decltype(&::curl_multi_poll) multi_poll;
  decltype(&::curl_url) url;
  decltype(&::curl_url_cleanup) url_cleanup;
  decltype(&::curl_url_set) url_set;
  decltype(&::curl_url_get) url_get;
  decltype(&::curl_free) free;
};

// The library, loaded and globally initialised once (thread-safe); when it
// cannot be loaded, an error (kind network: going online is what fails) that
// says what to install, or to work offline.
[[nodiscard]] Result<const CurlLibrary*> curl_library();

}  // namespace pith::resolver
