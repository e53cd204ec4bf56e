#include "pith/check/isolation.hpp"

#include "pith/base/sandbox.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <new>
#include <stdexcept>
#include <poll.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace pith::check {
namespace {

Report error_report(std::string_view input_name, std::string message) {
  Report r;
  r.input = std::string(input_name);
  r.error = std::move(message);
  return r;
}

std::optional<CheckStatus> status_from(const std::string& s) {
  for (const auto status : {CheckStatus::pass, CheckStatus::fail, CheckStatus::warn, CheckStatus::skip}) {
    if (s == to_string(status)) return status;
  }
  return std::nullopt;
}

// Hostile PDFs put invalid UTF-8 into details: replace it rather than throw.
std::string dump(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

void set_limit(int resource, rlim_t soft, rlim_t hard) {
  const rlimit limit{soft, hard};
  ::setrlimit(resource, &limit);
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// The child: limits, quiet stderr, run, send the report, leave without
// running the parent's atexit handlers or flushing its stdio buffers.
[[noreturn]] void run_child(int out_fd, std::string_view input_name, const std::function<FileCheck()>& check,
                            const IsolationLimits& limits) {
  // Nothing a library prints may reach the caller's output (JSON Lines on
  // stdout, messages on stderr).
  if (const int devnull = ::open("/dev/null", O_WRONLY | O_CLOEXEC); devnull >= 0) {
    ::dup2(devnull, STDOUT_FILENO);
    ::dup2(devnull, STDERR_FILENO);
    ::close(devnull);
  }
  // A crash must end the child and be seen by the parent as that signal, not
  // go to handlers inherited from the caller.
  for (const int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGXCPU, SIGPIPE}) std::signal(sig, SIG_DFL);
  set_limit(RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1);
  set_limit(RLIMIT_AS, limits.memory_bytes, limits.memory_bytes);
  set_limit(RLIMIT_CORE, 0, 0);  // a crash of the parser is reported, not dumped
  std::string payload;
  try {
    // Confined before the input is touched: read, compute, report (base/sandbox.hpp).
    if (auto confined = enter_sandbox({out_fd}); !confined) throw std::runtime_error(confined.error().describe());
    payload = dump(file_check_to_wire(check()));
  } catch (const std::bad_alloc&) {
    payload = dump(file_check_to_wire(error_report(
        input_name, "exceeded the memory limit of " + std::to_string(limits.memory_bytes >> 20) + " MiB")));
  } catch (const std::exception& e) {
    payload = dump(file_check_to_wire(error_report(input_name, std::string("internal error: ") + e.what())));
  } catch (...) {
    payload = dump(file_check_to_wire(error_report(input_name, "internal error")));
  }
  ::_exit(write_all(out_fd, payload) ? 0 : 3);
}

std::string describe_signal(int sig) {
  const char* name = ::strsignal(sig);
  return "signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : std::string());
}

}  // namespace

nlohmann::json report_to_wire(const Report& report) {
  auto checks = nlohmann::json::array();
  for (const auto& c : report.checks()) {
    checks.push_back({{"code", c.code}, {"status", to_string(c.status)}, {"detail", c.detail}, {"anchors", c.anchors_trust}});
  }
  return {{"input", report.input},
          {"pith_number", report.pith_number},
          {"input_kind", report.input_kind},
          {"error", report.error ? nlohmann::json(*report.error) : nlohmann::json(nullptr)},
          {"number_found", report.number_found},
          {"extra", report.extra},
          {"checks", std::move(checks)}};
}

Result<Report> report_from_wire(const nlohmann::json& wire) {
  const auto string_at = [&](const char* key) -> const nlohmann::json* {
    const auto it = wire.find(key);
    return it != wire.end() && it->is_string() ? &*it : nullptr;
  };
  if (!wire.is_object() || !string_at("input") || !string_at("pith_number") || !string_at("input_kind") ||
      !wire.contains("number_found") || !wire["number_found"].is_boolean() || !wire.contains("checks") ||
      !wire["checks"].is_array() || !wire.contains("error")) {
    return fail(ErrorKind::internal, "isolated check", "malformed report from the child process");
  }
  Report r;
  r.input = wire["input"].get<std::string>();
  r.pith_number = wire["pith_number"].get<std::string>();
  r.input_kind = wire["input_kind"].get<std::string>();
  r.number_found = wire["number_found"].get<bool>();
  if (wire["error"].is_string()) r.error = wire["error"].get<std::string>();
  if (wire.contains("extra") && wire["extra"].is_object()) r.extra = wire["extra"];
  for (const auto& c : wire["checks"]) {
    if (!c.is_object() || !c.contains("code") || !c["code"].is_string() || !c.contains("status") ||
        !c["status"].is_string() || !c.contains("detail") || !c["detail"].is_string() || !c.contains("anchors") ||
        !c["anchors"].is_boolean()) {
      return fail(ErrorKind::internal, "isolated check", "malformed check in the child's report");
    }
    const auto status = status_from(c["status"].get<std::string>());
    if (!status) return fail(ErrorKind::internal, "isolated check", "unknown check status in the child's report");
    r.add(c["code"].get<std::string>(), *status, c["detail"].get<std::string>(), c["anchors"].get<bool>());
  }
  return r;
}

nlohmann::json file_check_to_wire(const FileCheck& checked) {
  nlohmann::json wire = report_to_wire(checked.report);
  wire["carried"] = checked.carried ? checked.carried->to_wire() : nlohmann::json(nullptr);
  return wire;
}

Result<FileCheck> file_check_from_wire(const nlohmann::json& wire) {
  auto report = report_from_wire(wire);
  if (!report) return std::unexpected(report.error());
  if (!wire.contains("carried")) return fail(ErrorKind::malformed, "isolated check", "malformed report from the child process");
  FileCheck checked(std::move(*report));
  if (!wire["carried"].is_null()) {
    auto carried = CarriedCopy::from_json(wire["carried"]);
    if (!carried) return fail(ErrorKind::malformed, "isolated check", "malformed carried copy in the child's report");
    checked.carried = std::move(*carried);
  }
  return checked;
}

IsolatedChild IsolatedChild::start(std::string input_name, const std::function<FileCheck()>& check,
                                   const IsolationLimits& limits) {
  IsolatedChild child;
  child.input_name_ = std::move(input_name);
  child.limits_ = limits;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    child.early_ = error_report(child.input_name_, std::string("cannot isolate the check: pipe: ") + std::strerror(errno));
    return child;
  }
  // Nothing buffered may be written twice (once by the child).
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    child.early_ = error_report(child.input_name_, std::string("cannot isolate the check: fork: ") + std::strerror(e));
    return child;
  }
  if (pid == 0) {
    ::close(fds[0]);
    run_child(fds[1], child.input_name_, check, limits);
  }
  ::close(fds[1]);
  child.pid_ = pid;
  child.fd_ = fds[0];
  child.deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(limits.wall_seconds);
  return child;
}

IsolatedChild::IsolatedChild(IsolatedChild&& other) noexcept { *this = std::move(other); }

IsolatedChild& IsolatedChild::operator=(IsolatedChild&& other) noexcept {
  if (this != &other) {
    release();
    input_name_ = std::move(other.input_name_);
    limits_ = other.limits_;
    pid_ = std::exchange(other.pid_, -1);
    fd_ = std::exchange(other.fd_, -1);
    deadline_ = other.deadline_;
    data_ = std::move(other.data_);
    too_large_ = other.too_large_;
    early_ = std::move(other.early_);
  }
  return *this;
}

IsolatedChild::~IsolatedChild() { release(); }

void IsolatedChild::release() {
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
}

bool IsolatedChild::read_available() {
  if (fd_ < 0) return true;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return false;
    if (n <= 0) break;  // EOF (or an error: judged by the exit status)
    data_.append(buffer, static_cast<std::size_t>(n));
    if (data_.size() > limits_.max_report_bytes) {
      too_large_ = true;
      break;
    }
    // One read per call: the caller polls again (the descriptor is blocking).
    return false;
  }
  ::close(std::exchange(fd_, -1));
  return true;
}

FileCheck IsolatedChild::finish() {
  if (early_) return std::move(*early_);
  // A report already written in full is taken even if the caller comes to
  // read it late (another child kept it busy): drain what is there now.
  while (fd_ >= 0) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0 || read_available()) break;
  }
  bool timed_out = fd_ >= 0;  // still open: the child is still at work past its deadline
  if (timed_out || too_large_) ::kill(pid_, SIGKILL);
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  // The pipe's end normally means the child is exiting; one that closed it
  // and lives on is still held to the deadline.
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_ || (done < 0 && errno != EINTR)) break;
    if (done == 0 && std::chrono::steady_clock::now() >= deadline_) {
      ::kill(pid_, SIGKILL);
      timed_out = true;
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    if (done == 0) ::usleep(500);
  }
  pid_ = -1;

  if (timed_out) {
    return error_report(input_name_, "the check took longer than " + std::to_string(limits_.wall_seconds) +
                                         " s and was stopped (wall-clock limit)");
  }
  if (too_large_) {
    return error_report(input_name_, "the check's report was larger than " +
                                         std::to_string(limits_.max_report_bytes) + " bytes and was stopped");
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (killed_by_sandbox(sig)) {
      return error_report(input_name_, "the check was stopped by the sandbox: it made a forbidden system call (" +
                                           describe_signal(sig) + "); the input may be an exploit attempt");
    }
    if (sig == SIGXCPU) {
      return error_report(input_name_, "the check exceeded the CPU-time limit of " +
                                           std::to_string(limits_.cpu_seconds) + " s and was stopped");
    }
    return error_report(input_name_, "the PDF parser crashed (" + describe_signal(sig) + ")");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return error_report(input_name_,
                        "the check ended abnormally (exit status " + std::to_string(WEXITSTATUS(status)) + ")");
  }
  const auto wire = nlohmann::json::parse(data_, nullptr, /*allow_exceptions=*/false);
  if (wire.is_discarded()) return error_report(input_name_, "the check sent back no complete report");
  auto checked = file_check_from_wire(wire);
  if (!checked) return error_report(input_name_, checked.error().describe());
  return std::move(*checked);
}

FileCheck run_isolated(std::string_view input_name, const std::function<FileCheck()>& check,
                       const IsolationLimits& limits) {
  IsolatedChild child = IsolatedChild::start(std::string(input_name), check, limits);
  while (child.fd() >= 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(child.deadline() - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;  // finish() kills it: wall-clock limit
    pollfd p{child.fd(), POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left.count()) + 1);
    if (ready > 0) child.read_available();
  }
  return child.finish();
}

}  // namespace pith::check
