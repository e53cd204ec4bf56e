// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/serve/service.hpp"

#include "pith/base/atomic_file.hpp"
#include "pith/base/crypto.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/base/version.hpp"
#include "pith/check/online.hpp"
#include "pith/check/resolver_host.hpp"
#include "pith/resolver/resolver.hpp"
#include "pith/serve/badge.hpp"
#include "pith/serve/record_view.hpp"
#include "pith/serve/web_assets.hpp"

#include <httplib.h>
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
// Multipart framing (boundaries, part headers) allowed beyond --max-upload.
constexpr std::size_t multipart_slack_bytes = 64 * 1024;

std::string dump(const nlohmann::json& json) { return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

void answer_error(httplib::Response& response, int status, const std::string& why) {
  response.status = status;
  response.set_content(dump({{"error", why}}) + "\n", "application/json");
}

struct Upload {
  std::string name = "upload";
  std::string bytes;
};

enum class UploadRead { complete, malformed, too_large, too_slow, no_file };

// Reads the body (raw, or the first file part of multipart/form-data) within
// the size limit and the whole-upload deadline: a client that trickles its
// upload cannot hold a worker thread longer than the deadline.
UploadRead read_upload(const httplib::Request& request, const httplib::Response& response,
                       const httplib::ContentReader& reader, const ServiceOptions& options, Upload& upload) {
  const auto deadline = std::chrono::steady_clock::now() + options.upload_deadline;
  bool late = false;
  bool too_large = false;
  const auto take = [&](const char* data, std::size_t length) {
    if (std::chrono::steady_clock::now() > deadline) {
      late = true;
      return false;
    }
    if (upload.bytes.size() + length > options.max_upload_bytes) {
      too_large = true;
      return false;
    }
    upload.bytes.append(data, length);
    return true;
  };
  bool read = false;
  bool have_file = false;
  if (request.is_multipart_form_data()) {
    bool in_file = false;
    read = reader(
        [&](const httplib::MultipartFormData& part) {
          in_file = !have_file && (part.name == "file" || !part.filename.empty());
          if (in_file) {
            have_file = true;
            if (!part.filename.empty()) upload.name = part.filename;
          }
          return true;
        },
        [&](const char* data, std::size_t length) { return in_file ? take(data, length) : true; });
  } else {
    have_file = true;
    if (request.has_param("name")) upload.name = request.get_param_value("name");
    read = reader([&](const char* data, std::size_t length) { return take(data, length); });
  }
  if (upload.name.size() > max_name_bytes) upload.name.resize(max_name_bytes);
  if (too_large || response.status == 413) return UploadRead::too_large;
  if (late) return UploadRead::too_slow;
  if (!read) return UploadRead::malformed;
  if (!have_file) return UploadRead::no_file;
  return UploadRead::complete;
}

// Holds one of the jobs + queue admissions for the length of a check.
class Admission {
 public:
  Admission(std::atomic<std::size_t>& admitted, std::size_t limit) : admitted_(admitted) {
    count_ = admitted_.fetch_add(1) + 1;
    granted_ = count_ <= limit;
    if (!granted_) admitted_.fetch_sub(1);
  }
  ~Admission() {
    if (granted_) admitted_.fetch_sub(1);
  }
  Admission(const Admission&) = delete;
  Admission& operator=(const Admission&) = delete;
  [[nodiscard]] bool granted() const { return granted_; }
  [[nodiscard]] std::size_t count() const { return count_; }

 private:
  std::atomic<std::size_t>& admitted_;
  std::size_t count_ = 0;
  bool granted_ = false;
};

void log_request(const httplib::Request& request, const httplib::Response& response) {
  // One write per line (stderr is unbuffered): lines from threads do not mix.
  std::cerr << ("pith-serve: " + request.remote_addr + " " + request.method + " " + terminal_safe(request.path) + " " +
                std::to_string(response.status) + "\n");
}

}  // namespace

Service::Service(const registry::TrustStore& trust, const Broker& broker, ServiceOptions options)
    : trust_(trust), broker_(broker), options_(std::move(options)) {
  resolver_bases_ = options_.resolver.mirrors;
  resolver_bases_.push_back(options_.resolver.resolver_url);
  // Answers are public: they never name a base, a cache path or a per-URL
  // status; the operator's log has them (issue 23).
  options_.resolver.disclosure = resolver::Disclosure::public_answer;
  options_.resolver.operator_log = [](const std::string& line) {
    std::cerr << ("pith-serve: " + terminal_safe(line) + "\n");
  };
}

void Service::install(httplib::Server& server) {
  const unsigned threads = std::max(options_.threads, 1u);
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_read_timeout(options_.io_timeout);
  server.set_write_timeout(options_.io_timeout);
  server.set_keep_alive_timeout(5);
  server.set_payload_max_length(options_.max_upload_bytes + multipart_slack_bytes);
  server.set_default_headers({{"Content-Security-Policy", content_security_policy},
                              {"X-Content-Type-Options", "nosniff"},
                              {"Referrer-Policy", "no-referrer"},
                              {"X-Frame-Options", "DENY"},
                              {"Server", std::string("pith-serve/") + version_string}});
  server.set_logger(log_request);
  server.set_exception_handler([](const httplib::Request&, httplib::Response& response, std::exception_ptr) {
    answer_error(response, 500, "internal error");
  });
  if (!options_.cors_origin.empty()) {
    server.set_post_routing_handler([origin = options_.cors_origin](const httplib::Request& request,
                                                                   httplib::Response& response) {
      if (request.path.starts_with("/api/") || request.path.starts_with("/badge/")) {
        response.set_header("Access-Control-Allow-Origin", origin);
        response.set_header("Vary", "Origin");
      }
    });
    server.Options("/api/v1/check", [](const httplib::Request&, httplib::Response& response) {
      response.status = 204;
      response.set_header("Access-Control-Allow-Methods", "POST");
      response.set_header("Access-Control-Allow-Headers", "Content-Type");
      response.set_header("Access-Control-Max-Age", "600");
    });
  }

  const auto asset = [&server](const char* path, std::string_view body, const char* type) {
    server.Get(path, [body, type](const httplib::Request&, httplib::Response& response) {
      response.set_header("Cache-Control", "no-cache");
      response.set_content(body.data(), body.size(), type);
    });
  };
  asset("/", web::index_html, "text/html; charset=utf-8");
  asset("/app.js", web::app_js, "text/javascript; charset=utf-8");
  asset("/style.css", web::style_css, "text/css; charset=utf-8");

  server.Post("/api/v1/check", [this](const httplib::Request& request, httplib::Response& response,
                                      const httplib::ContentReader& reader) { handle_check(request, response, reader); });
  server.Get(R"(/api/v1/pith/([^/]{1,200}))",
             [this](const httplib::Request& request, httplib::Response& response) { handle_lookup(request, response); });
  server.Get(R"(/badge/([^/]{1,200})\.svg)",
             [this](const httplib::Request& request, httplib::Response& response) { handle_badge(request, response); });
  server.Get("/healthz", [this](const httplib::Request&, httplib::Response& response) { handle_health(response); });
  server.Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
    response.set_content(metrics_.text(), "text/plain; version=0.0.4");
  });
}

void Service::handle_check(const httplib::Request& request, httplib::Response& response,
                           const httplib::ContentReader& reader) {
  Upload upload;
  switch (read_upload(request, response, reader, options_, upload)) {
    case UploadRead::complete: break;
    case UploadRead::too_large:
      metrics_.refused_too_large();
      return answer_error(response, 413,
                          "the upload is larger than " + std::to_string(options_.max_upload_bytes) + " bytes (--max-upload)");
    case UploadRead::too_slow:
      response.set_header("Connection", "close");
      return answer_error(response, 408, "the upload took longer than the deadline");
    case UploadRead::malformed: return answer_error(response, 400, "malformed request body (multipart/form-data?)");
    case UploadRead::no_file: return answer_error(response, 400, "no file in the form: send it as the part named file");
  }
  if (upload.bytes.empty()) return answer_error(response, 400, "empty upload: send a PDF or a registry document");

  const Admission admission(admitted_, options_.jobs + options_.queue);
  metrics_.set_in_flight(admitted_.load(), options_.jobs);
  if (!admission.granted()) {
    metrics_.refused_busy();
    response.set_header("Retry-After", "5");
    return answer_error(response, 503, "busy: every check worker and the queue are taken; retry later");
  }
  const auto started = std::chrono::steady_clock::now();
  auto answer = broker_.check(upload.name, upload.bytes);
  if (!answer) {
    std::cerr << ("pith-serve: " + terminal_safe(answer.error().describe()) + "\n");
    response.set_header("Retry-After", "30");
    return answer_error(response, 503, "the check service is not available");
  }
  check::FileCheck& checked = answer->checked;
  look_up_online(checked);
  const std::string body = dump(checked.to_json()) + "\n";
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  metrics_.check_done(checked.report.verdict(), seconds, answer->child_failed);
  metrics_.set_in_flight(admitted_.load() - 1, options_.jobs);
  if (options_.keep_dir) keep(upload.name, upload.bytes, body);
  response.set_content(body, "application/json");
}

// As pith-check: the resolver hosts a PDF names are compared with the
// configured ones; online, the registry's current document is compared with
// the carried copy; offline, a PDF that carries only a number still has its
// record resolved from the cache and file:// mirrors and bound to it.
void Service::look_up_online(check::FileCheck& checked) const {
  check::check_resolver_hosts(checked.report, resolver_bases_, /*name_known_hosts=*/false);
  const std::string& number = check::number_to_look_up(checked);
  if (number.empty() || (options_.resolver.offline && !checked.evidence)) return;
  resolver::Resolver resolver(options_.resolver, resolver::verifier_using(trust_));
  check::apply_lookup(checked, resolver.resolve(number));
}

void Service::handle_lookup(const httplib::Request& request, httplib::Response& response) {
  const std::string id = request.matches[1];
  resolver::Resolver resolver(options_.resolver, resolver::verifier_using(trust_));
  const RecordView view = view_record(id, resolver.resolve(id));
  response.set_content(dump(view.json) + "\n", "application/json");
}

void Service::handle_badge(const httplib::Request& request, httplib::Response& response) {
  const std::string id = request.matches[1];
  resolver::Resolver resolver(options_.resolver, resolver::verifier_using(trust_));
  const RecordView view = view_record(id, resolver.resolve(id));
  const std::string svg = badge_svg(view.short_number.empty() ? "pith" : view.short_number, view.status);
  const std::string etag = "\"" + sha256_hex(svg).substr(0, 32) + "\"";
  response.set_header("ETag", etag);
  response.set_header("Cache-Control", view.status == RecordStatus::unknown ? "public, max-age=60" : "public, max-age=3600");
  if (request.get_header_value("If-None-Match") == etag) {
    response.status = 304;
    return;
  }
  response.set_content(svg, "image/svg+xml");
}

void Service::handle_health(httplib::Response& response) const {
  if (broker_.alive()) {
    response.set_content("ok\n", "text/plain");
  } else {
    response.status = 503;
    response.set_content("the check broker has stopped\n", "text/plain");
  }
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
