// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/resolver/http_client.hpp"

#include "pith/base/version.hpp"

#include "pith/resolver/curl_library.hpp"

#include <algorithm>
#include <deque>
#include <thread>

namespace pith::resolver {
namespace {

// libcurl, loaded (curl_library.hpp): HttpClient's operations make sure it
// is before they call this.
const CurlLibrary& curl() { return **curl_library(); }

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool is_https(std::string_view url) { return starts_with(url, "https://") || starts_with(url, "HTTPS://"); }
bool is_file(std::string_view url) { return starts_with(url, "file://") || starts_with(url, "FILE://"); }

// One GET in flight: its easy handle, what it received, how often it was tried.
struct Transfer {
  const HttpRequest* request = nullptr;
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

}  // namespace

struct HttpClient::Impl {
  CURLSH* share = nullptr;
  CURLM* multi = nullptr;

  Impl() {
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
  if (!impl_) impl_ = std::make_unique<Impl>();
  return *impl_;
}

namespace {

void configure(Transfer& t, const HttpOptions& o, CURLSH* share) {
  t.release();
  t.body.clear();
  t.too_large = false;
  t.errbuf[0] = '\0';
  t.max_bytes = o.max_response_bytes;
  t.easy = curl().easy_init();
  CURL* e = t.easy;
  const std::string& url = t.request->url;
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
  // Redirects: bounded, and never from HTTPS down to plain HTTP (or to file://).
  if (!is_file(url)) {
    curl().easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
    curl().easy_setopt(e, CURLOPT_MAXREDIRS, o.max_redirects);
    curl().easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, is_https(url) ? "https" : "http,https");
  }
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
  if (rc != CURLE_OK) return fail(ErrorKind::network, url, transport_message(rc, t, o));
  r.status = response_code(t.easy);
  if (file && r.status == 0) r.status = 200;
  r.not_modified = r.status == 304 && (t.request->if_none_match || t.request->if_modified_since);
  if (!r.ok()) return r;
  r.body = std::move(t.body);
  char* effective = nullptr;
  curl().easy_getinfo(t.easy, CURLINFO_EFFECTIVE_URL, &effective);
  r.effective_url = effective ? effective : url;
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
    configure(t, options_, impl().share);
    const CURLcode rc = curl().easy_perform(t.easy);
    const long status = rc == CURLE_OK ? response_code(t.easy) : 0;
    if (worth_retrying(rc, status) && t.attempts <= options_.max_retries) {
      std::this_thread::sleep_for(backoff_for(options_, t.attempts));
      continue;
    }
    return conclude(rc, t, options_);
  }
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
    configure(*transfers[i], options_, impl().share);
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
