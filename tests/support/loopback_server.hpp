// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Real HTTP(S) servers on 127.0.0.1 for tests (never any other address): a
// thin wrapper over cpp-httplib that binds a random free port, serves in a
// background thread, records every request, and stops on destruction.
// Used by the resolver tests and reusable by any test that needs a registry.
#include <httplib.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace pith::test {

// A CA and a server certificate signed by it, made at test time with the
// openssl CLI. `subject_alt_names` is an openssl SAN list, e.g.
// "IP:127.0.0.1,DNS:localhost" (valid for the loopback server) or
// "DNS:other.example" (a certificate for another host).
struct TestPki {
  std::filesystem::path ca_cert;
  std::filesystem::path server_cert;
  std::filesystem::path server_key;
};
[[nodiscard]] TestPki make_test_pki(const std::filesystem::path& dir,
                                    const std::string& subject_alt_names = "IP:127.0.0.1,DNS:localhost");

struct RecordedRequest {
  std::string path;
  std::string accept;
  std::string user_agent;
  std::string if_none_match;
  std::string if_modified_since;
  int remote_port = 0;  // the client's port: equal ports mean a reused connection
};

class LoopbackServer {
 public:
  LoopbackServer();                     // plain HTTP
  explicit LoopbackServer(const TestPki& pki);  // HTTPS with pki's server certificate
  ~LoopbackServer();
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  // Register routes before start(). The handler sees every request after it
  // is recorded.
  LoopbackServer& get(const std::string& pattern, httplib::Server::Handler handler);
  // Serves the bytes of `file` at `path` (Content-Type application/json,
  // with an ETag so conditional requests can be tested).
  LoopbackServer& serve_bytes(const std::string& path, std::string bytes,
                              std::string content_type = "application/json");
  // Serves a directory tree (files only, no listing).
  LoopbackServer& serve_directory(const std::filesystem::path& root);

  void start();  // binds 127.0.0.1:<random port> and serves in a thread
  void stop();   // idempotent

  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] std::string base_url() const;  // http(s)://127.0.0.1:<port>
  [[nodiscard]] std::vector<RecordedRequest> requests() const;
  [[nodiscard]] std::size_t hits(const std::string& path) const;
  // How many distinct client connections the server has seen.
  [[nodiscard]] std::size_t connections() const;
  [[nodiscard]] httplib::Server& raw() { return *server_; }

 private:
  std::unique_ptr<httplib::Server> server_;
  bool tls_ = false;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<RecordedRequest> requests_;
};

}  // namespace pith::test
