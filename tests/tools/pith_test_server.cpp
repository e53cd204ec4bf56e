// SPDX-License-Identifier: GPL-3.0-or-later
// pith-test-server: TEST ONLY. Serves a directory over HTTP on 127.0.0.1 at a
// random free port (never another address), for shell tests and benchmarks.
// Prints its base URL (http://127.0.0.1:PORT) on the first line of stdout,
// then serves until SIGINT/SIGTERM or --seconds have passed.
//
//   pith-test-server --root DIR [--seconds N]
#include "support/loopback_server.hpp"

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <iostream>
#include <thread>

namespace {
std::atomic<bool> stop_requested{false};
void on_signal(int) { stop_requested = true; }
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pith-test-server: serve a directory on 127.0.0.1 (TEST ONLY)"};
  std::string root;
  double seconds = 600;
  app.add_option("--root", root, "directory to serve")->required()->check(CLI::ExistingDirectory);
  app.add_option("--seconds", seconds, "stop by itself after this many seconds (bounded on purpose)");
  CLI11_PARSE(app, argc, argv);

  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  pith::test::LoopbackServer server;
  server.serve_directory(root);
  server.start();
  std::cout << server.base_url() << std::endl;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!stop_requested && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  server.stop();
  std::cerr << "pith-test-server: served " << server.requests().size() << " requests\n";
  return 0;
}
