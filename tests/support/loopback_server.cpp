// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/loopback_server.hpp"

#include "support/command.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

namespace pith::test {
namespace {

// Test-time PKI only: arguments are our own paths, never user input.
void run_or_throw(const std::string& command) {
  if (run(command + " >/dev/null 2>&1").status != 0) throw std::runtime_error("command failed: " + command);
}

std::string etag_of(const std::string& bytes) {
  std::ostringstream out;
  out << '"' << std::hex << std::hash<std::string>{}(bytes) << '"';
  return out.str();
}

}  // namespace

TestPki make_test_pki(const std::filesystem::path& dir, const std::string& subject_alt_names) {
  std::filesystem::create_directories(dir);
  TestPki pki{dir / "ca.pem", dir / "server.pem", dir / "server.key"};
  const auto ca_key = dir / "ca.key";
  const auto csr = dir / "server.csr";
  const auto ext = dir / "server.ext";
  {
    std::ofstream out(ext);
    out << "subjectAltName=" << subject_alt_names << "\n"
        << "basicConstraints=critical,CA:FALSE\n"
        << "keyUsage=critical,digitalSignature\n"
        << "extendedKeyUsage=serverAuth\n";
  }
  run_or_throw("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=pith-test-ca"
      " -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign"
      " -keyout " + quote(ca_key) + " -out " + quote(pki.ca_cert));
  run_or_throw("openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=pith-test-server"
      " -keyout " + quote(pki.server_key) + " -out " + quote(csr));
  run_or_throw("openssl x509 -req -days 2 -in " + quote(csr) + " -CA " + quote(pki.ca_cert) + " -CAkey " +
      quote(ca_key) + " -CAcreateserial -extfile " + quote(ext) + " -out " + quote(pki.server_cert));
  return pki;
}

LoopbackServer::LoopbackServer() : server_(std::make_unique<httplib::Server>()) {}

LoopbackServer::LoopbackServer(const TestPki& pki)
    : server_(std::make_unique<httplib::SSLServer>(pki.server_cert.c_str(), pki.server_key.c_str())), tls_(true) {
  if (!server_->is_valid()) throw std::runtime_error("cannot load test server certificate");
}

LoopbackServer::~LoopbackServer() { stop(); }

LoopbackServer& LoopbackServer::get(const std::string& pattern, httplib::Server::Handler handler) {
  server_->Get(pattern, std::move(handler));
  return *this;
}

LoopbackServer& LoopbackServer::serve_bytes(const std::string& path, std::string bytes, std::string content_type) {
  const std::string etag = etag_of(bytes);
  server_->Get(path, [bytes = std::move(bytes), content_type = std::move(content_type), etag](
                         const httplib::Request& req, httplib::Response& res) {
    res.set_header("ETag", etag);
    res.set_header("Last-Modified", "Sun, 05 Jul 2026 02:46:28 GMT");
    if (req.get_header_value("If-None-Match") == etag) {
      res.status = 304;
      return;
    }
    res.set_content(bytes, content_type);
  });
  return *this;
}

LoopbackServer& LoopbackServer::serve_directory(const std::filesystem::path& root) {
  if (!server_->set_mount_point("/", root.string())) throw std::runtime_error("cannot serve " + root.string());
  return *this;
}

void LoopbackServer::start() {
  server_->set_pre_routing_handler([this](const httplib::Request& req, httplib::Response&) {
    std::lock_guard lock(mutex_);
    requests_.push_back({req.path, req.get_header_value("Accept"), req.get_header_value("User-Agent"),
                         req.get_header_value("If-None-Match"), req.get_header_value("If-Modified-Since"),
                         req.remote_port});
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server_->set_keep_alive_timeout(2);
  // Headers and body go out in separate writes: without TCP_NODELAY, Nagle
  // plus the client's delayed ACK would add ~40 ms to every response.
  server_->set_tcp_nodelay(true);
  // Idle keep-alive connections each hold a worker: enough workers for a
  // batch client's connections plus slow handlers in fault tests.
  server_->new_task_queue = [] { return new httplib::ThreadPool(64); };
  server_->set_keep_alive_max_count(100000);  // let clients reuse connections as long as they like
  // Binding also listens: a client connecting before the thread runs waits in the backlog.
  port_ = server_->bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("cannot bind a loopback port");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  // httplib's stop() is a no-op until the accept loop runs: wait for it, so
  // a server stopped right after start() does not leave a thread blocked.
  while (!server_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void LoopbackServer::stop() {
  if (thread_.joinable()) {
    server_->stop();
    thread_.join();
  }
}

std::string LoopbackServer::base_url() const {
  return std::string(tls_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_);
}

std::vector<RecordedRequest> LoopbackServer::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

std::size_t LoopbackServer::hits(const std::string& path) const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& r : requests_) n += r.path == path ? 1 : 0;
  return n;
}

std::size_t LoopbackServer::connections() const {
  std::lock_guard lock(mutex_);
  std::vector<int> ports;
  for (const auto& r : requests_) {
    if (std::find(ports.begin(), ports.end(), r.remote_port) == ports.end()) ports.push_back(r.remote_port);
  }
  return ports.size();
}

}  // namespace pith::test
