// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/resolver/http_client.hpp"

#include "pith/base/ascii.hpp"
#include "pith/base/version.hpp"

#include "pith/resolver/curl_library.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <cstring>
#include <deque>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>

namespace pith::resolver {
namespace {

// libcurl, loaded (curl_library.hpp): HttpClient's operations make sure it
// is before they call this.
const CurlLibrary& curl() { return **curl_library(); }

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool is_https(std::string_view url) { return starts_with(url, "https://") || starts_with(url, "HTTPS://"); }
bool is_file(std::string_view url) { return starts_with(url, "file://") || starts_with(url, "FILE://"); }

// ---- where a request may go (issue 23) --------------------------------------

// scheme, host and port (the default one when the URL has none), by libcurl's URL parser.
struct Origin {
  std::string scheme;
  std::string host;  // lower case; an IPv6 literal in brackets
  std::string port;
  [[nodiscard]] bool same_place(const Origin& o) const { return host == o.host && port == o.port; }
  [[nodiscard]] std::string bare_host() const {
    return host.size() > 2 && host.front() == '[' ? host.substr(1, host.size() - 2) : host;
  }
};

std::optional<Origin> origin_of(const std::string& url) {
  CURLU* parsed = curl().url();
  if (!parsed) return std::nullopt;
  const auto part = [&](CURLUPart which, unsigned flags) {
    char* value = nullptr;
    std::string out;
    if (curl().url_get(parsed, which, &value, flags) == CURLUE_OK && value) out = value;
    if (value) curl().free(value);
    return out;
  };
  std::optional<Origin> out;
  if (curl().url_set(parsed, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK) {
    Origin o{ascii_lower(part(CURLUPART_SCHEME, 0)), ascii_lower(part(CURLUPART_HOST, 0)), part(CURLUPART_PORT, CURLU_DEFAULT_PORT)};
    if (!o.scheme.empty()) out = std::move(o);
  }
  curl().url_cleanup(parsed);
  return out;
}

// A host named by an internal address literal, or localhost.
bool internal_host(const Origin& o) {
  const std::string host = o.bare_host();
  if (host == "localhost" || host.ends_with(".localhost")) return true;
  return !is_global_address(host).value_or(true);
}

// The configured bases' hosts: where redirects may go (besides their own
// host). Loopback, link-local and private addresses are reached by a
// configured base's host, and by another (a mirror hint) only when some
// configured base is itself at such an address (an operator who runs the
// registry inside their network).
class Destinations {
 public:
  explicit Destinations(const std::vector<std::string>& bases) {
    for (const auto& base : bases) {
      if (auto o = origin_of(base); o && (o->scheme == "http" || o->scheme == "https")) {
        internal_configured_ = internal_configured_ || internal_host(*o);
        configured_.push_back(std::move(*o));
      }
    }
  }

  // Whether a transfer of `url` may connect to an internal address.
  [[nodiscard]] bool may_reach_internal(const std::string& url, const std::string& asked) const {
    return internal_configured_ || configured(url, asked);
  }

  // Whether `url`'s host is a configured base's; with none configured, the
  // host of the request's own URL (`asked`) is.
  [[nodiscard]] bool configured(const std::string& url, const std::string& asked) const {
    const auto o = origin_of(url);
    if (!o) return false;
    if (configured_.empty()) {
      const auto first = origin_of(asked);
      return first && first->same_place(*o);
    }
    return std::any_of(configured_.begin(), configured_.end(), [&](const Origin& c) { return c.same_place(*o); });
  }

  // Why a redirect from `from` to `to` is not followed, or nullopt: never to
  // another scheme than HTTP(S), never from HTTPS down to HTTP, to another
  // host (or port) only when it is a configured base's.
  [[nodiscard]] std::optional<std::string> redirect_refusal(const std::string& from, const std::string& to,
                                                            const std::string& asked) const {
    const auto a = origin_of(from);
    const auto b = origin_of(to);
    if (!b) return "redirect to something that is not a URL, refused: " + to;
    if (b->scheme != "http" && b->scheme != "https") return "redirect to a refused protocol (" + b->scheme + "): " + to;
    if (a && a->scheme == "https" && b->scheme == "http")
      return "redirect from HTTPS to plain HTTP refused (HTTPS never redirects to HTTP): " + to;
    if (a && a->host == b->host && (a->port == b->port || b->scheme == "https")) return std::nullopt;  // same host, or up to HTTPS
    if (configured(to, asked)) return std::nullopt;
    const bool internal = !is_global_address(b->bare_host()).value_or(true);
    return "redirect to " + b->host + ":" + b->port +
           (internal ? " (a loopback, link-local or private address)" : std::string()) +
           ", which is not a configured base, refused: " + to;
  }

 private:
  std::vector<Origin> configured_;
  bool internal_configured_ = false;
};

// One GET in flight: its easy handle, what it received, how often it was tried.
struct Transfer {
  const HttpRequest* request = nullptr;
  std::string url;        // request->url, or where redirects led
  int redirects = 0;      // followed so far
  bool may_reach_internal = false;  // Destinations::may_reach_internal
  std::string refusal;    // why a redirect or a connection was refused
  std::size_t index = 0;
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  std::string body;
  bool too_large = false;
  std::size_t max_bytes = 0;
  int attempts = 0;
  char errbuf[CURL_ERROR_SIZE] = {};

  Transfer() = default;
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;
  ~Transfer() { release(); }
  void release() {
    if (easy) curl().easy_cleanup(easy);
    if (headers) curl().slist_free_all(headers);
    easy = nullptr;
    headers = nullptr;
  }
};

// Enforces the size bound while receiving: returning less than given makes
// curl abort with CURLE_WRITE_ERROR, so an endless body never fills memory.
size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  if (t->body.size() + n > t->max_bytes) {
    t->too_large = true;
    return 0;
  }
  t->body.append(data, n);
  return n;
}

std::string header_value(CURL* easy, const char* name) {
  curl_header* h = nullptr;
  if (curl().easy_header(easy, name, 0, CURLH_HEADER, -1, &h) == CURLHE_OK && h && h->value) return h->value;
  return {};
}

std::string ms_text(std::chrono::milliseconds ms) { return std::to_string(ms.count()) + " ms"; }

// libcurl's socket, opened only to an address this transfer may reach: a
// URL that is not a configured base's never connects to a loopback,
// link-local or private address, whatever its name resolves to (a signed
// mirror hint, or a public name pointing inside).
curl_socket_t open_socket(void* user, curlsocktype purpose, curl_sockaddr* address) {
  auto* t = static_cast<Transfer*>(user);
  if (purpose == CURLSOCKTYPE_IPCXN && !t->may_reach_internal) {
    std::array<char, INET6_ADDRSTRLEN> text{};
    const void* raw = nullptr;
    if (address->family == AF_INET) raw = &reinterpret_cast<const sockaddr_in*>(&address->addr)->sin_addr;
    if (address->family == AF_INET6) raw = &reinterpret_cast<const sockaddr_in6*>(&address->addr)->sin6_addr;
    const bool shown = raw && ::inet_ntop(address->family, raw, text.data(), text.size()) != nullptr;
    if (!shown || !is_global_address(text.data()).value_or(false)) {
      t->refusal = t->url + " leads to " + (shown ? std::string(text.data()) : std::string("an unknown address")) +
                   ", a loopback, link-local or private address, from a host that is not a configured base (and no "
                   "configured base is at such an address): refused";
      return CURL_SOCKET_BAD;
    }
  }
  return ::socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

}  // namespace

struct HttpClient::Impl {
  CURLSH* share = nullptr;
  CURLM* multi = nullptr;
  Destinations destinations;

  explicit Impl(const HttpOptions& options) : destinations(curl_library() ? options.configured_bases : std::vector<std::string>{}) {
    if (!curl_library()) return;  // each request says why (get, get_many)
    // One connection cache, DNS cache and TLS session cache for every transfer
    // of this client: sequential lookups reuse the open connection too.
    share = curl().share_init();
    curl().share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
    curl().share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl().share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    multi = curl().multi_init();
  }
  ~Impl() {
    if (multi) curl().multi_cleanup(multi);
    if (share) curl().share_cleanup(share);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
};

std::string HttpResponse::status_text() const {
  std::string text = "HTTP " + std::to_string(status);
  if (attempts > 1) text += " after " + std::to_string(attempts) + " attempts";
  return text;
}

// libcurl is loaded (and OpenSSL initialised through it) by the first
// request, not here: an offline check builds a resolver it never uses.
HttpClient::HttpClient(HttpOptions options) : options_(std::move(options)) {}
HttpClient::~HttpClient() = default;
HttpClient::HttpClient(HttpClient&&) noexcept = default;
HttpClient& HttpClient::operator=(HttpClient&&) noexcept = default;

HttpClient::Impl& HttpClient::impl() {
  if (!impl_) impl_ = std::make_unique<Impl>(options_);
  return *impl_;
}

namespace {

void configure(Transfer& t, const HttpOptions& o, CURLSH* share, const Destinations& destinations) {
  t.release();
  t.body.clear();
  t.too_large = false;
  t.errbuf[0] = '\0';
  t.max_bytes = o.max_response_bytes;
  if (t.url.empty()) t.url = t.request->url;
  t.may_reach_internal = destinations.may_reach_internal(t.url, t.request->url);
  t.refusal.clear();
  t.easy = curl().easy_init();
  CURL* e = t.easy;
  const std::string& url = t.url;
  curl().easy_setopt(e, CURLOPT_URL, url.c_str());
  curl().easy_setopt(e, CURLOPT_SHARE, share);
  curl().easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl().easy_setopt(e, CURLOPT_ERRORBUFFER, t.errbuf);
  curl().easy_setopt(e, CURLOPT_USERAGENT, user_agent);
  curl().easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https,file");
  // TLS verification is always on; --cacert only changes which CAs are trusted.
  curl().easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
  curl().easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
  if (!o.cacert.empty()) curl().easy_setopt(e, CURLOPT_CAINFO, o.cacert.c_str());
  curl().easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
  // Wait for a multiplexable (HTTP/2) connection only where one can exist:
  // over plain HTTP/1.1 waiting would serialise a batch on one connection.
  if (is_https(url)) curl().easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
  // Redirects are followed here, one hop at a time (follow_redirect), so
  // each is judged before anything connects to its host.
  curl().easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  curl().easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, open_socket);
  curl().easy_setopt(e, CURLOPT_OPENSOCKETDATA, &t);
  curl().easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(o.connect_timeout.count()));
  curl().easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(o.total_timeout.count()));
  curl().easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, o.low_speed_bytes_per_second);
  curl().easy_setopt(e, CURLOPT_LOW_SPEED_TIME, static_cast<long>(o.low_speed_time.count()));
  curl().easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(o.max_response_bytes));
  // gzip only: every server has it and it is cheap to produce; the size
  // bound counts decoded bytes, so a compression bomb stops at 8 MiB too.
  curl().easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "gzip");
  curl().easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
  curl().easy_setopt(e, CURLOPT_WRITEDATA, &t);
  t.headers = curl().slist_append(t.headers, ("Accept: " + t.request->accept).c_str());
  if (t.request->if_none_match) t.headers = curl().slist_append(t.headers, ("If-None-Match: " + *t.request->if_none_match).c_str());
  if (t.request->if_modified_since)
    t.headers = curl().slist_append(t.headers, ("If-Modified-Since: " + *t.request->if_modified_since).c_str());
  curl().easy_setopt(e, CURLOPT_HTTPHEADER, t.headers);
  ++t.attempts;
}

long response_code(CURL* e) {
  long code = 0;
  curl().easy_getinfo(e, CURLINFO_RESPONSE_CODE, &code);
  return code;
}

enum class Hop { none, follow, refused };

// A redirect answer: its target judged (Destinations) and, when allowed,
// made the transfer's next URL; the number of hops is bounded.
Hop follow_redirect(CURLcode rc, Transfer& t, const HttpOptions& o, const Destinations& destinations) {
  if (rc != CURLE_OK || is_file(t.url)) return Hop::none;
  const long status = response_code(t.easy);
  if (status != 301 && status != 302 && status != 303 && status != 307 && status != 308) return Hop::none;
  char* location = nullptr;
  curl().easy_getinfo(t.easy, CURLINFO_REDIRECT_URL, &location);
  if (location == nullptr || *location == '\0') return Hop::none;
  const std::string to = location;
  if (t.redirects >= o.max_redirects) {
    t.refusal = "too many redirects (limit " + std::to_string(o.max_redirects) + "), or a redirect loop";
    return Hop::refused;
  }
  if (auto why = destinations.redirect_refusal(t.url, to, t.request->url)) {
    t.refusal = std::move(*why);
    return Hop::refused;
  }
  t.url = to;
  ++t.redirects;
  t.attempts = 0;  // retries are counted per URL
  return Hop::follow;
}

// Only server trouble and timeouts are worth another try; a 404, a bad
// certificate or an oversized body will not get better.
bool worth_retrying(CURLcode rc, long status) {
  if (rc == CURLE_OPERATION_TIMEDOUT) return true;
  return rc == CURLE_OK && status >= 500 && status <= 599;
}

std::string transport_message(CURLcode rc, const Transfer& t, const HttpOptions& o) {
  switch (rc) {
    case CURLE_OPERATION_TIMEDOUT:
      return "timed out (connect " + ms_text(o.connect_timeout) + ", total " + ms_text(o.total_timeout) +
             ", or slower than " + std::to_string(o.low_speed_bytes_per_second) + " B/s for " +
             std::to_string(o.low_speed_time.count()) + " s)";
    case CURLE_FILESIZE_EXCEEDED:
      return "response larger than " + std::to_string(o.max_response_bytes) + " bytes";
    case CURLE_WRITE_ERROR:
      if (t.too_large) return "response larger than " + std::to_string(o.max_response_bytes) + " bytes";
      break;
    case CURLE_TOO_MANY_REDIRECTS:
      return "too many redirects (limit " + std::to_string(o.max_redirects) + "), or a redirect loop";
    case CURLE_UNSUPPORTED_PROTOCOL:
      return "redirect or URL to a refused protocol (HTTPS never redirects to HTTP): " + std::string(t.errbuf);
    case CURLE_PEER_FAILED_VERIFICATION:
      return "TLS certificate not valid for this host or not trusted: " + std::string(t.errbuf);
    case CURLE_PARTIAL_FILE:
      return "truncated response (connection closed before the announced length)";
    case CURLE_FILE_COULDNT_READ_FILE:
      return "no such file";
    default:
      break;
  }
  std::string detail = t.errbuf[0] ? std::string(t.errbuf) : std::string(curl().easy_strerror(rc));
  return detail;
}

// Turns a finished transfer into the caller's answer.
Result<HttpResponse> conclude(CURLcode rc, Transfer& t, const HttpOptions& o) {
  const std::string& url = t.request->url;
  HttpResponse r;
  r.url = url;
  r.attempts = t.attempts;
  const bool file = is_file(url);
  if (file && rc == CURLE_FILE_COULDNT_READ_FILE) {
    r.status = 404;  // a local mirror without this file: same meaning as a 404
    return r;
  }
  if (rc != CURLE_OK) return fail(ErrorKind::network, url, t.refusal.empty() ? transport_message(rc, t, o) : t.refusal);
  r.status = response_code(t.easy);
  if (file && r.status == 0) r.status = 200;
  r.not_modified = r.status == 304 && (t.request->if_none_match || t.request->if_modified_since);
  if (!r.ok()) return r;
  r.body = std::move(t.body);
  r.effective_url = t.url;
  if (!file) {
    r.content_type = header_value(t.easy, "Content-Type");
    r.etag = header_value(t.easy, "ETag");
    r.last_modified = header_value(t.easy, "Last-Modified");
  }
  return r;
}

std::chrono::milliseconds backoff_for(const HttpOptions& o, int attempts_done) {
  // attempts_done >= 1: 1×, 2×, 4× the base delay.
  return o.retry_backoff * (1 << std::min(attempts_done - 1, 6));
}

}  // namespace

Result<HttpResponse> HttpClient::get(const HttpRequest& request) {
  if (auto loaded = curl_library(); !loaded) return std::unexpected(loaded.error());
  Transfer t;
  t.request = &request;
  for (;;) {
    configure(t, options_, impl().share, impl().destinations);
    const CURLcode rc = curl().easy_perform(t.easy);
    const Hop hop = follow_redirect(rc, t, options_, impl().destinations);
    if (hop == Hop::follow) continue;
    if (hop == Hop::refused) return fail(ErrorKind::network, request.url, t.refusal);
    const long status = rc == CURLE_OK ? response_code(t.easy) : 0;
    if (worth_retrying(rc, status) && t.attempts <= options_.max_retries) {
      std::this_thread::sleep_for(backoff_for(options_, t.attempts));
      continue;
    }
    return conclude(rc, t, options_);
  }
}

std::optional<bool> is_global_address(std::string_view text) {
  const std::string address(text);
  in_addr v4{};
  in6_addr v6{};
  const auto global_v4 = [](const unsigned char* b) {
    const auto in = [&](unsigned first, unsigned second_from, unsigned second_to) {
      return b[0] == first && b[1] >= second_from && b[1] <= second_to;
    };
    if (b[0] == 0 || b[0] == 10 || b[0] == 127 || b[0] >= 224) return false;  // this network, private, loopback, multicast, reserved
    if (in(100, 64, 127) || in(169, 254, 254) || in(172, 16, 31) || in(192, 168, 168) || in(198, 18, 19)) return false;
    if (b[0] == 192 && b[1] == 0 && (b[2] == 0 || b[2] == 2)) return false;  // IETF protocol assignments, TEST-NET-1
    if ((b[0] == 198 && b[1] == 51 && b[2] == 100) || (b[0] == 203 && b[1] == 0 && b[2] == 113)) return false;  // TEST-NETs
    return true;
  };
  if (::inet_pton(AF_INET, address.c_str(), &v4) == 1) return global_v4(reinterpret_cast<const unsigned char*>(&v4));
  if (::inet_pton(AF_INET6, address.c_str(), &v6) != 1) return std::nullopt;
  const unsigned char* b = v6.s6_addr;
  static constexpr unsigned char mapped_prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(b, mapped_prefix, 12) == 0) return global_v4(b + 12);  // ::ffff:a.b.c.d
  static constexpr unsigned char zeros[15] = {};
  if (std::memcmp(b, zeros, 15) == 0) return false;  // :: and ::1
  if (b[0] == 0xff) return false;                    // multicast
  if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return false;  // link-local fe80::/10
  if ((b[0] & 0xfe) == 0xfc) return false;                  // unique local fc00::/7
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) return false;  // documentation 2001:db8::/32
  if (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b) return global_v4(b + 12);  // NAT64 64:ff9b::/96
  return true;
}

std::vector<Result<HttpResponse>> HttpClient::get_many(const std::vector<HttpRequest>& requests,
                                                       std::size_t max_concurrency) {
  using Clock = std::chrono::steady_clock;
  max_concurrency = std::max<std::size_t>(1, max_concurrency);
  if (auto loaded = curl_library(); !loaded) return std::vector<Result<HttpResponse>>(requests.size(), std::unexpected(loaded.error()));
  std::vector<Result<HttpResponse>> results(requests.size(), fail(ErrorKind::internal, "", "not run"));
  std::vector<std::unique_ptr<Transfer>> transfers(requests.size());
  std::deque<std::size_t> waiting;                           // never started
  std::vector<std::pair<Clock::time_point, std::size_t>> retry;  // due for another attempt
  for (std::size_t i = 0; i < requests.size(); ++i) {
    transfers[i] = std::make_unique<Transfer>();
    transfers[i]->request = &requests[i];
    transfers[i]->index = i;
    waiting.push_back(i);
  }
  CURLM* multi = impl().multi;
  curl().multi_setopt(multi, CURLMOPT_PIPELINING, static_cast<long>(CURLPIPE_MULTIPLEX));
  curl().multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, static_cast<long>(max_concurrency));

  std::size_t running = 0;
  auto start = [&](std::size_t i) {
    configure(*transfers[i], options_, impl().share, impl().destinations);
    curl().easy_setopt(transfers[i]->easy, CURLOPT_PRIVATE, transfers[i].get());
    curl().multi_add_handle(multi, transfers[i]->easy);
    ++running;
  };
  // Starts what may start; returns whether it started anything.
  auto fill = [&] {
    const std::size_t before = running;
    const auto now = Clock::now();
    for (auto it = retry.begin(); it != retry.end() && running < max_concurrency;) {
      if (it->first <= now) {
        start(it->second);
        it = retry.erase(it);
      } else {
        ++it;
      }
    }
    while (running < max_concurrency && !waiting.empty()) {
      start(waiting.front());
      waiting.pop_front();
    }
    return running > before;
  };

  fill();
  while (running > 0 || !waiting.empty() || !retry.empty()) {
    int still = 0;
    curl().multi_perform(multi, &still);
    int queued = 0;
    while (CURLMsg* msg = curl().multi_info_read(multi, &queued)) {
      if (msg->msg != CURLMSG_DONE) continue;
      Transfer* t = nullptr;
      curl().easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &t);
      const CURLcode rc = msg->data.result;
      curl().multi_remove_handle(multi, msg->easy_handle);
      --running;
      const Hop hop = follow_redirect(rc, *t, options_, impl().destinations);
      if (hop == Hop::follow) {
        start(t->index);
        continue;
      }
      if (hop == Hop::refused) {
        results[t->index] = fail(ErrorKind::network, t->request->url, t->refusal);
        t->release();
        continue;
      }
      const long status = rc == CURLE_OK ? response_code(t->easy) : 0;
      if (worth_retrying(rc, status) && t->attempts <= options_.max_retries) {
        retry.emplace_back(Clock::now() + backoff_for(options_, t->attempts), t->index);
      } else {
        results[t->index] = conclude(rc, *t, options_);
        t->release();
      }
    }
    // A transfer just added must be driven by curl_multi_perform before
    // there is anything to wait for: polling first would idle until timeout.
    if (fill()) continue;
    if (running > 0) {
      curl().multi_poll(multi, nullptr, 0, 50, nullptr);
    } else if (!retry.empty()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  return results;
}

}  // namespace pith::resolver
