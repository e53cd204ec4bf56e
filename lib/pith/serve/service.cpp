// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/serve/service.hpp"

#include "pith/base/atomic_file.hpp"
#include "pith/base/crypto.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/base/version.hpp"
#include "pith/check/online.hpp"
#include "pith/resolver/resolver_host.hpp"
#include "pith/resolver/resolver.hpp"
#include "pith/serve/badge.hpp"
#include "pith/serve/multipart.hpp"
#include "pith/serve/record_view.hpp"
#include "pith/serve/web_assets.hpp"

#include <iostream>
#include <utility>

namespace pith::serve {

namespace {

// The page loads only itself: no inline script, no third party, no framing.
constexpr const char* content_security_policy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

// A report name (the uploaded file's name) is cut to this many bytes.
constexpr std::size_t max_name_bytes = 200;
// An id in /api/v1/pith/{id} and /badge/{id}.svg.
constexpr std::size_t max_id_bytes = 200;

std::string dump(const nlohmann::json& json) { return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

Response json_answer(int status, const nlohmann::json& body) {
  Response response;
  response.status = status;
  response.content_type = "application/json";
  response.body = dump(body) + "\n";
  return response;
}

Response error_answer(int status, const std::string& why) {
  Response response = json_answer(status, {{"error", why}});
  if (status == 503) response.headers.emplace_back("Retry-After", "5");
  return response;
}

Response asset(std::string_view body, const char* type) {
  Response response;
  response.content_type = type;
  response.body = std::string(body);
  response.headers.emplace_back("Cache-Control", "no-cache");
  return response;
}

// The id in `/prefix{id}suffix`, when the path has that shape.
std::optional<std::string> id_in(const std::string& path, std::string_view prefix, std::string_view suffix) {
  if (!path.starts_with(prefix) || !path.ends_with(suffix) || path.size() <= prefix.size() + suffix.size()) {
    return std::nullopt;
  }
  std::string id = path.substr(prefix.size(), path.size() - prefix.size() - suffix.size());
  if (id.size() > max_id_bytes || id.find('/') != std::string::npos) return std::nullopt;
  return id;
}

// Holds one of `limit` admissions for as long as it lives (moved into a job).
class Admission {
 public:
  Admission(std::atomic<std::size_t>& admitted, std::size_t limit) : admitted_(&admitted) {
    granted_ = admitted_->fetch_add(1) + 1 <= limit;
    if (!granted_) admitted_->fetch_sub(1);
  }
  Admission(Admission&& other) noexcept : admitted_(other.admitted_), granted_(std::exchange(other.granted_, false)) {}
  Admission& operator=(Admission&&) = delete;
  Admission(const Admission&) = delete;
  Admission& operator=(const Admission&) = delete;
  ~Admission() {
    if (granted_) admitted_->fetch_sub(1);
  }
  [[nodiscard]] bool granted() const { return granted_; }

 private:
  std::atomic<std::size_t>* admitted_;
  bool granted_ = false;
};

// A std::function must be copyable: a job's move-only state lives here.
template <class T>
std::shared_ptr<T> shared(T value) {
  return std::make_shared<T>(std::move(value));
}

}  // namespace

Service::Service(const registry::TrustStore& trust, const Broker& broker, ServiceOptions options)
    : trust_(trust), broker_(broker), options_(std::move(options)), resolver_slots_(std::max(1u, options_.lookups)) {
  resolver_bases_ = options_.resolver.mirrors;
  resolver_bases_.push_back(options_.resolver.resolver_url);
  // Answers are public: they never name a base, a cache path or a per-URL
  // status; the operator's log has them (issue 23).
  options_.resolver.disclosure = resolver::Disclosure::public_answer;
  options_.resolver.operator_log = [](const std::string& line) {
    std::cerr << ("pith-serve: " + terminal_safe(line) + "\n");
  };
  default_headers_ = {{"Content-Security-Policy", content_security_policy},
                      {"X-Content-Type-Options", "nosniff"},
                      {"Referrer-Policy", "no-referrer"},
                      {"X-Frame-Options", "DENY"},
                      {"Server", std::string("pith-serve/") + version_string}};
}

void Service::attach(const HttpServer& server, const MemoryBudget& budget) {
  server_ = &server;
  budget_ = &budget;
}

bool Service::wants_body(const Request& head) const { return head.method == "POST" && head.path == "/api/v1/check"; }

Prepared Service::prepare(Request request) {
  const std::string path = request.path;  // the request may move into a job
  const bool get = request.method == "GET";
  Prepared prepared = [&]() -> Prepared {
    if (path == "/healthz" && get) return health();
    if (path == "/metrics" && get) return metrics_answer();
    if (path == "/" && get) return asset(web::index_html, "text/html; charset=utf-8");
    if (path == "/app.js" && get) return asset(web::app_js, "text/javascript; charset=utf-8");
    if (path == "/style.css" && get) return asset(web::style_css, "text/css; charset=utf-8");
    if (path == "/api/v1/openapi.json" && get) return asset(web::openapi_json, "application/json");
    if (path == "/api/v1/pith-check.schema.json" && get) return asset(web::check_schema_json, "application/schema+json");
    if (path == "/api/v1/check") {
      if (request.method == "POST") return prepare_check(std::move(request));
      if (request.method == "OPTIONS" && !options_.cors_origin.empty()) {
        Response preflight;
        preflight.status = 204;
        preflight.headers = {{"Access-Control-Allow-Methods", "POST"},
                             {"Access-Control-Allow-Headers", "Content-Type"},
                             {"Access-Control-Max-Age", "600"}};
        return preflight;
      }
      return error_answer(405, "POST a PDF or a registry document here");
    }
    if (auto id = id_in(path, "/api/v1/pith/", ""); id && get) return prepare_lookup(*id, false, request);
    if (auto id = id_in(path, "/badge/", ".svg"); id && get) return prepare_lookup(*id, true, request);
    return error_answer(404, "no such page: see / for the page and /api/v1/check for the API");
  }();
  if (auto* response = std::get_if<Response>(&prepared)) add_cors(path, *response);
  return prepared;
}

void Service::add_cors(const std::string& path, Response& response) const {
  if (options_.cors_origin.empty() || !(path.starts_with("/api/") || path.starts_with("/badge/"))) return;
  response.headers.emplace_back("Access-Control-Allow-Origin", options_.cors_origin);
  response.headers.emplace_back("Vary", "Origin");
}

Response Service::error(int status, const std::string& why, const std::string& path) const {
  if (status == 413 && path == "/api/v1/check") {
    metrics_.refused_too_large();
    Response response = error_answer(413, "the upload is larger than " + std::to_string(options_.max_upload_bytes) +
                                              " bytes (--max-upload)");
    add_cors(path, response);
    return response;
  }
  Response response = error_answer(status, why);
  add_cors(path, response);
  return response;
}

void Service::log(const std::string& remote_address, const std::string& method, const std::string& path, int status) const {
  // One write per line (stderr is unbuffered): lines from threads do not mix.
  std::cerr << ("pith-serve: " + remote_address + " " + terminal_safe(method) + " " + terminal_safe(path) + " " +
                std::to_string(status) + "\n");
}

Prepared Service::prepare_check(Request request) {
  std::string name = request.query("name").value_or("upload");
  std::string_view bytes = request.body;
  if (auto boundary = form_boundary(request.header("content-type"))) {
    auto file = form_file(request.body, *boundary);
    if (!file && file.error().kind == ErrorKind::not_found) {
      return error_answer(400, "no file in the form: send it as the part named file");
    }
    if (!file) return error_answer(400, "malformed request body (multipart/form-data: " + file.error().message + ")");
    if (!file->filename.empty()) name = file->filename;
    bytes = file->data;
  } else if (request.header("content-type").starts_with("multipart/")) {
    return error_answer(400, "malformed request body (multipart without a boundary)");
  }
  if (bytes.size() > options_.max_upload_bytes) return error(413, "", "/api/v1/check");
  if (bytes.empty()) return error_answer(400, "empty upload: send a PDF or a registry document");
  if (name.size() > max_name_bytes) name.resize(max_name_bytes);

  Admission admission(admitted_, options_.jobs + options_.queue);
  metrics_.set_in_flight(admitted_.load(), options_.jobs);
  if (!admission.granted()) {
    metrics_.refused_busy();
    return error_answer(503, "busy: every check worker and the queue are taken; retry later");
  }
  // The job owns the request (its body and the memory it holds) and the
  // admission; the upload is found in the body again by offset (a moved
  // short string has new storage).
  const std::size_t offset = static_cast<std::size_t>(bytes.data() - request.body.data());
  const std::size_t length = bytes.size();
  auto held = shared(std::make_pair(std::move(request), std::move(admission)));
  return Job([this, held, offset, length, name] {
    const std::string_view upload = std::string_view(held->first.body).substr(offset, length);
    Response response = check_upload(name, upload, held->first);
    add_cors("/api/v1/check", response);
    return response;
  });
}

Response Service::check_upload(const std::string& name, std::string_view bytes, const Request&) {
  const auto started = std::chrono::steady_clock::now();
  auto answer = broker_.check(name, bytes);
  if (!answer) {
    std::cerr << ("pith-serve: " + terminal_safe(answer.error().describe()) + "\n");
    Response response = error_answer(503, "the check service is not available");
    response.headers = {{"Retry-After", "30"}};
    return response;
  }
  check::FileCheck& checked = answer->checked;
  look_up_online(checked);
  std::string body = dump(checked.to_json()) + "\n";
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  metrics_.check_done(checked.report.verdict(), seconds, answer->child_failed);
  metrics_.set_in_flight(admitted_.load() - 1, options_.jobs);
  if (options_.keep_dir) keep(name, bytes, body);
  Response response;
  response.content_type = "application/json";
  response.body = std::move(body);
  return response;
}

Prepared Service::prepare_lookup(const std::string& id, bool badge_wanted, const Request& request) {
  auto admission = shared(Admission(lookups_admitted_, 2 * std::size_t{std::max(1u, options_.lookups)}));
  if (!admission->granted()) {
    metrics_.refused_busy();
    return error_answer(503, "busy: too many lookups at once; retry later");
  }
  const std::string if_none_match = request.header("if-none-match");
  const std::string path = request.path;
  return Job([this, admission, id, badge_wanted, if_none_match, path] {
    Request conditional;
    conditional.headers.emplace_back("if-none-match", if_none_match);
    Response response = badge_wanted ? badge(id, conditional) : lookup(id, conditional);
    add_cors(path, response);
    return response;
  });
}

// Registry lookups at once are bounded (their answers are up to 8 MiB each:
// the memory budget counts `lookups` of them).
Result<resolver::Resolution> Service::resolve(const std::string& id) {
  resolver_slots_.acquire();
  struct Release {
    std::counting_semaphore<1024>& slots;
    ~Release() { slots.release(); }
  } release{resolver_slots_};
  resolver::Resolver resolver(options_.resolver, trust_);
  return resolver.resolve(id);
}

// As pith-check: the resolver hosts a PDF names are compared with the
// configured ones; online, the registry's current document is compared with
// the carried copy; offline, a PDF that carries only a number still has its
// record resolved from the cache and file:// mirrors and bound to it.
void Service::look_up_online(check::FileCheck& checked) {
  resolver::check_resolver_hosts(checked.report, resolver_bases_, /*name_known_hosts=*/false);
  const std::string& number = check::number_to_look_up(checked);
  if (number.empty() || (options_.resolver.offline && !checked.evidence)) return;
  check::apply_lookup(checked, resolve(number));
}

namespace {

// A lookup's HTTP status, as REST clients expect: 400 an id that is not a
// Pith Number or arXiv id (or an ambiguous short form), 404 a number the
// registry and mirrors do not serve, 502 a registry that did not answer;
// otherwise 200, with the verdict in the body (also failed: the record the
// registry served does not verify).
int lookup_status(const Result<resolver::Resolution>& resolved) {
  if (resolved) return 200;
  switch (resolved.error().kind) {
    case ErrorKind::usage:
    case ErrorKind::malformed: return 400;
    case ErrorKind::not_found:
    case ErrorKind::not_served: return 404;
    case ErrorKind::network: return 502;
    default: return 200;
  }
}

}  // namespace

Response Service::lookup(const std::string& id, const Request&) {
  auto resolved = resolve(id);
  const int status = lookup_status(resolved);
  const RecordView view = view_record(id, std::move(resolved));
  return json_answer(status, view.json);
}

Response Service::badge(const std::string& id, const Request& request) {
  const RecordView view = view_record(id, resolve(id));
  const std::string svg = badge_svg(view.short_number.empty() ? "pith" : view.short_number, view.status);
  const std::string etag = "\"" + sha256_hex(svg).substr(0, 32) + "\"";
  Response response;
  response.headers = {{"ETag", etag},
                      {"Cache-Control", view.status == RecordStatus::unknown ? "public, max-age=60" : "public, max-age=3600"}};
  if (request.header("if-none-match") == etag) {
    response.status = 304;
    return response;
  }
  response.content_type = "image/svg+xml";
  response.body = svg;
  return response;
}

Response Service::health() const {
  Response response;
  if (broker_.alive()) {
    response.body = "ok\n";
  } else {
    response.status = 503;
    response.body = "the check broker has stopped\n";
  }
  return response;
}

Response Service::metrics_answer() const {
  Response response;
  response.content_type = "text/plain; version=0.0.4";
  response.body = metrics_.text();
  if (server_ && budget_) response.body += server_metrics_text(server_->counters(), *budget_);
  return response;
}

// --keep DIR: the upload as <sha256>.pdf (or .bin) and the answer as <sha256>.json.
void Service::keep(const std::string& name, std::string_view bytes, const std::string& answer) const {
  const std::string stem = sha256_hex(bytes);
  const bool pdf = bytes.substr(0, 1024).find("%PDF-") != std::string_view::npos;
  const auto upload_path = *options_.keep_dir / (stem + (pdf ? ".pdf" : ".bin"));
  for (auto written : {write_file_atomically(upload_path, bytes, Durability::none),
                       write_file_atomically(*options_.keep_dir / (stem + ".json"), answer, Durability::none)}) {
    if (!written) {
      std::cerr << ("pith-serve: --keep: " + terminal_safe(name) + ": " + terminal_safe(written.error().describe()) + "\n");
    }
  }
}

}  // namespace pith::serve
