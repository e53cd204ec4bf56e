// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/serve/broker.hpp"

#include "pith/base/crypto.hpp"

#include "pith/base/fd_io.hpp"

#include "pith/check/visible.hpp"
#include "pith/check/file.hpp"
#include "pith/runner/child_scheduler.hpp"
#include "pith/serve/broker_wire.hpp"

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace pith::serve {

namespace {

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// ---- the control message: a BrokerJob, and two descriptors (memfd, reply) ----

// A socket message of one buffer and a control area (sendmsg and recvmsg alike).
msghdr message_header(iovec& buffer, char* control, std::size_t control_size) {
  msghdr msg{};
  msg.msg_iov = &buffer;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = control_size;
  return msg;
}

bool send_job(int control_fd, const BrokerJob& job, int memfd, int reply_fd) {
  std::array<int, 2> fds{memfd, reply_fd};
  alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(fds))> control{};
  std::string message = encode(job);
  iovec iov{message.data(), message.size()};
  msghdr msg = message_header(iov, control.data(), control.size());
  cmsghdr* header = CMSG_FIRSTHDR(&msg);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(fds));
  std::memcpy(CMSG_DATA(header), fds.data(), sizeof(fds));
  ssize_t sent = -1;
  do sent = ::sendmsg(control_fd, &msg, MSG_NOSIGNAL);
  while (sent < 0 && errno == EINTR);
  return sent >= 0;
}

struct Job {
  std::string name;
  int memfd = -1;
  int reply_fd = -1;
};

enum class Received { job, nothing, closed };

// One message from the control socket. A message without exactly two
// descriptors, or one that is no BrokerJob, is dropped (with whatever
// descriptors it carried).
Received receive_job(int control_fd, Job& job) {
  std::array<char, max_broker_job_bytes> message{};
  alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int) * 2)> control{};
  iovec iov{message.data(), message.size()};
  msghdr msg = message_header(iov, control.data(), control.size());
  const ssize_t got = ::recvmsg(control_fd, &msg, MSG_CMSG_CLOEXEC);
  if (got == 0) return Received::closed;
  if (got < 0) return errno == EINTR || errno == EAGAIN ? Received::nothing : Received::closed;
  std::vector<int> fds;
  for (cmsghdr* h = CMSG_FIRSTHDR(&msg); h != nullptr; h = CMSG_NXTHDR(&msg, h)) {
    if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t count = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < count; ++i) {
      int fd = -1;
      std::memcpy(&fd, CMSG_DATA(h) + i * sizeof(int), sizeof(int));
      fds.push_back(fd);
    }
  }
  auto decoded = decode_broker_job(std::string_view(message.data(), static_cast<std::size_t>(got)));
  if (fds.size() != 2 || (msg.msg_flags & MSG_TRUNC) != 0 || !decoded) {
    for (const int fd : fds) ::close(fd);
    return Received::nothing;
  }
  job = Job{std::move(decoded->name), fds[0], fds[1]};
  return Received::job;
}

// ---- the reply: the BrokerAnswer, framed (base/wire.hpp: append_framed) ------
// Length-prefixed, not "until end of file": the children forked for other
// checks inherit this reply socket, so its end of file can come late.

void reply(int reply_fd, check::FileCheck checked) {
  const bool child_failed = is_child_failure(checked.report);
  const std::string payload = encode(BrokerAnswer{std::move(checked), child_failed});
  (void)write_framed(reply_fd, payload, PeerKind::socket);  // a caller that went away: nothing to do
  ::close(reply_fd);
}

check::FileCheck error_check(const std::string& name, std::string why) {
  Report report;
  report.input = name;
  report.error = Error{ErrorKind::io, {}, std::move(why)};
  return check::FileCheck(std::move(report));
}

// ---- the broker process -----------------------------------------------------

// An upload mapped from its memfd, kept until its check is judged: the child
// only reads it, this process judges what the child sent against the same bytes.
class MappedUpload {
 public:
  MappedUpload(void* data, std::size_t size) : data_(data), size_(size) {}
  MappedUpload(const MappedUpload&) = delete;
  MappedUpload& operator=(const MappedUpload&) = delete;
  ~MappedUpload() {
    if (data_ != nullptr) ::munmap(data_, size_);
  }
  [[nodiscard]] std::string_view bytes() const { return {static_cast<const char*>(data_), size_}; }

 private:
  void* data_;
  std::size_t size_;
};

// An upload being checked: where its answer goes, and its bytes until judged.
struct Running {
  std::string name;
  int reply_fd = -1;
  std::unique_ptr<MappedUpload> upload;
};

// The broker's loop: uploads arrive on the control socket and wait in a
// queue; at most `jobs` are read in children at once (runner/child_scheduler:
// the same poll loop and deadlines as pith-check's fork per input), and each
// is judged here as its child finishes.
class BrokerLoop {
 public:
  BrokerLoop(int control_fd, const registry::TrustStore& trust, const BrokerOptions& options)
      : control_fd_(control_fd), trust_(trust), children_(std::max(options.jobs, 1u), options.limits) {}

  void run() {
    while (open_) {
      start_waiting();
      auto woken = children_.wait(control_fd_);
      for (auto& done : woken.done) finish(done);
      if (woken.also_readable) receive();
    }
    // The HTTP side has gone: drop the queue; running children are killed
    // and reaped by the scheduler's destructor.
    for (const Job& job : waiting_) close_job(job);
    for (const auto& [ticket, r] : running_) ::close(r.reply_fd);
    running_.clear();
  }

 private:
  static void close_job(const Job& job) {
    ::close(job.memfd);
    ::close(job.reply_fd);
  }

  void start_waiting() {
    while (children_.has_idle() && !waiting_.empty()) {
      Job job = std::move(waiting_.front());
      waiting_.pop_front();
      start(std::move(job));
    }
  }

  void start(Job job) {
    struct stat st {};
    if (::fstat(job.memfd, &st) != 0) {
      ::close(job.memfd);
      reply(job.reply_fd, error_check(job.name, errno_text("cannot read the upload")));
      return;
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    void* mapped = size == 0 ? nullptr : ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, job.memfd, 0);
    ::close(job.memfd);
    if (mapped == MAP_FAILED) {
      reply(job.reply_fd, error_check(job.name, errno_text("cannot map the upload")));
      return;
    }
    auto upload = std::make_unique<MappedUpload>(mapped, size);
    const std::string_view bytes = upload->bytes();
    // As pith-check does (check/file.hpp): the child only reads the upload,
    // this process judges what it sent (check/file.hpp: judge_pdf_facts).
    const std::uint64_t ticket = next_ticket_++;
    children_.start(ticket, [&] { return check::read_input_in_child(job.name, bytes); });
    running_.emplace(ticket, Running{std::move(job.name), job.reply_fd, std::move(upload)});
  }

  void receive() {
    Job job;
    switch (receive_job(control_fd_, job)) {
      case Received::job: waiting_.push_back(std::move(job)); break;
      case Received::nothing: break;
      case Received::closed: open_ = false; break;
    }
  }

  void finish(const runner::ChildDone& done) {
    const auto it = running_.find(done.ticket);
    if (it == running_.end()) return;
    Running& r = it->second;
    // Judged here from what the child read.
    check::FileCheck checked = check::judge_input_from_child(r.name, r.upload->bytes(), done.answer, trust_);
    // Where the record's title (or arXiv id) was seen, for the page (issue 22).
    check::embed_evidence(checked.report, r.upload->bytes());
    reply(r.reply_fd, std::move(checked));
    running_.erase(it);
  }

  int control_fd_;
  const registry::TrustStore& trust_;
  runner::ChildScheduler children_;
  std::deque<Job> waiting_;
  std::map<std::uint64_t, Running> running_;
  std::uint64_t next_ticket_ = 0;
  bool open_ = true;
};

[[noreturn]] void broker_main(int control_fd, const registry::TrustStore& trust, const BrokerOptions& options) {
  // Dies with the service; ignores the terminal's Ctrl-C and systemd's
  // SIGTERM to the group: the service closes the control socket instead.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
  if (::getppid() == 1) ::_exit(0);  // the service died before PR_SET_PDEATHSIG
  sha256_warm_up();  // a long-lived judge of many uploads
  BrokerLoop(control_fd, trust, options).run();
  ::_exit(0);
}

}  // namespace

bool is_child_failure(const Report& report) {
  return report.error && (report.error->kind == ErrorKind::limit || report.error->kind == ErrorKind::crashed);
}

Result<std::unique_ptr<Broker>> Broker::start(const registry::TrustStore& trust, const BrokerOptions& options) {
  std::array<int, 2> sv{};
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv.data()) != 0) {
    return fail(ErrorKind::internal, "check broker", errno_text("socketpair"));
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(sv[0]);
    ::close(sv[1]);
    return fail(ErrorKind::internal, "check broker", errno_text("fork"));
  }
  if (pid == 0) {
    ::close(sv[0]);
    broker_main(sv[1], trust, options);
  }
  ::close(sv[1]);
  return std::unique_ptr<Broker>(new Broker(sv[0], pid));
}

Broker::~Broker() {
  if (control_fd_ >= 0) ::close(control_fd_);
  if (pid_ > 0 && !exited_) ::waitpid(pid_, nullptr, 0);
}

bool Broker::alive() const {
  if (exited_) return false;
  std::lock_guard lock(reap_mutex_);
  if (exited_) return false;
  int status = 0;
  const pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == 0) return true;
  exited_ = true;
  return false;
}

Result<BrokerAnswer> Broker::check(std::string_view name, std::string_view bytes) const {
  const auto broken = [](std::string why) { return fail(ErrorKind::internal, "check broker", std::move(why)); };
  const int memfd = ::memfd_create("pith-upload", MFD_CLOEXEC);
  if (memfd < 0) return broken(errno_text("memfd_create"));
  if (!write_all(memfd, bytes)) {
    ::close(memfd);
    return broken(errno_text("writing the upload"));
  }
  std::array<int, 2> sv{};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv.data()) != 0) {
    ::close(memfd);
    return broken(errno_text("socketpair"));
  }
  const bool sent = send_job(control_fd_, BrokerJob{std::string(name.substr(0, max_upload_name_bytes))}, memfd, sv[1]);
  ::close(memfd);
  ::close(sv[1]);
  if (!sent) {
    ::close(sv[0]);
    return broken("the check broker is not running");
  }
  const auto payload = read_framed(sv[0], max_broker_answer_bytes);
  ::close(sv[0]);
  if (!payload) return broken("the check broker sent no complete answer");
  return decode_broker_answer(*payload);
}

}  // namespace pith::serve
