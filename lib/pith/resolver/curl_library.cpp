// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/resolver/curl_library.hpp"

#include "pith/base/shared_library.hpp"

#include <dlfcn.h>
#include <mutex>

namespace pith::resolver {
namespace {

// Debian's libcurl4 (OpenSSL) and libcurl3-gnutls both provide this soname.
constexpr const char* soname = "libcurl.so.4";


Result<CurlLibrary> load() {
  auto cannot = [](const std::string& why) {
    return fail(ErrorKind::network, soname,
                "cannot load libcurl, which going online needs (" + why +
                    "): install it (Debian: apt install libcurl4), or work offline (--offline, --bundle FILE)");
  };
  // Never unloaded: curl keeps global state for the life of the process.
  const auto take_all = [](void* handle, CurlLibrary& c) {
    return take_function(handle, "curl_global_init", c.global_init) && take_function(handle, "curl_easy_init", c.easy_init) &&
           take_function(handle, "curl_easy_cleanup", c.easy_cleanup) && take_function(handle, "curl_easy_setopt", c.easy_setopt) &&
           take_function(handle, "curl_easy_getinfo", c.easy_getinfo) && take_function(handle, "curl_easy_perform", c.easy_perform) &&
           take_function(handle, "curl_easy_strerror", c.easy_strerror) && take_function(handle, "curl_easy_header", c.easy_header) &&
           take_function(handle, "curl_slist_append", c.slist_append) &&
           take_function(handle, "curl_slist_free_all", c.slist_free_all) && take_function(handle, "curl_share_init", c.share_init) &&
           take_function(handle, "curl_share_setopt", c.share_setopt) &&
           take_function(handle, "curl_share_cleanup", c.share_cleanup) && take_function(handle, "curl_multi_init", c.multi_init) &&
           take_function(handle, "curl_multi_cleanup", c.multi_cleanup) &&
           take_function(handle, "curl_multi_setopt", c.multi_setopt) &&
           take_function(handle, "curl_multi_add_handle", c.multi_add_handle) &&
           take_function(handle, "curl_multi_remove_handle", c.multi_remove_handle) &&
           take_function(handle, "curl_multi_perform", c.multi_perform) &&
           take_function(handle, "curl_multi_info_read", c.multi_info_read) && take_function(handle, "curl_multi_poll", c.multi_poll) &&
           take_function(handle, "curl_url", c.url) && take_function(handle, "curl_url_cleanup", c.url_cleanup) &&
           take_function(handle, "curl_url_set", c.url_set) && take_function(handle, "curl_url_get", c.url_get) &&
           take_function(handle, "curl_free", c.free);
  };
  auto loaded = load_library<CurlLibrary>(soname, "libcurl 7.83 or later", take_all, cannot);
  if (loaded && loaded->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return cannot("curl_global_init failed");
  return loaded;
}

}  // namespace

Result<const CurlLibrary*> curl_library() {
  static const Result<CurlLibrary> loaded = load();  // once, thread-safe (C++11 statics)
  if (!loaded) return std::unexpected(loaded.error());
  return &*loaded;
}

}  // namespace pith::resolver
