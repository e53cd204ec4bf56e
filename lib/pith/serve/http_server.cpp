// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/serve/http_server.hpp"

#include "pith/base/ascii.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <mutex>
#include <unordered_map>

namespace pith::serve {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// Bytes an upload's reservation grows by (twice: the body and its copy).
constexpr std::size_t reservation_step = 64 * 1024;
// After an error that leaves a body unread: read and drop what the client
// still sends (up to the largest body, for at most this long) before
// closing, so that it reads the answer instead of a reset (as nginx's
// lingering close).
constexpr std::chrono::milliseconds linger_time{3000};
constexpr int listen_backlog = 1024;

std::size_t round_up(std::size_t bytes, std::size_t step) { return (bytes + step - 1) / step * step; }

}  // namespace

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+' && plus_is_space) {
      out += ' ';
    } else if (c != '%') {
      out += c;
    } else {
      if (i + 2 >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[i + 1])) ||
          !std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
        return std::nullopt;
      }
      out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    }
  }
  return out;
}

std::string Request::header(std::string_view lower_name) const {
  for (const auto& [name, value] : headers) {
    if (name == lower_name) return value;
  }
  return {};
}

std::optional<std::string> Request::query(std::string_view name) const {
  const auto mark = target.find('?');
  if (mark == std::string::npos) return std::nullopt;
  std::string_view rest = std::string_view(target).substr(mark + 1);
  while (!rest.empty()) {
    const auto amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    const auto eq = pair.find('=');
    if (percent_decode(pair.substr(0, eq), true) == std::string(name)) {
      return percent_decode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1), true);
    }
    if (amp == std::string_view::npos) break;
    rest.remove_prefix(amp + 1);
  }
  return std::nullopt;
}

class Connection;

struct HttpServer::Impl {
  Impl(HttpHandler& h, ServerLimits l, MemoryBudget& b) : handler(h), limits(l), budget(b) {}

  HttpHandler& handler;
  const ServerLimits limits;
  MemoryBudget& budget;
  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  std::unique_ptr<asio::thread_pool> workers;

  // Open connections by client address, and every connection (to close
  // the idle ones on stop). Touched from the loop and, in destructors, from
  // wherever the last reference goes: under a mutex.
  mutable std::mutex mutex;
  std::unordered_map<std::string, std::size_t> per_client;
  std::unordered_map<Connection*, std::weak_ptr<Connection>> connections;
  bool stopping = false;  // the loop's

  std::atomic<std::uint64_t> refused = 0;
  std::atomic<std::uint64_t> head_timeouts = 0;
  std::atomic<std::uint64_t> body_timeouts = 0;
  std::atomic<std::uint64_t> memory_refusals = 0;

  void accept();
  void admit(tcp::socket socket);
  void forget(Connection* connection, const std::string& address);
};

// One client connection, driven by the loop: idle -> head -> (body) ->
// (working on a worker) -> writing -> idle or closed.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(HttpServer::Impl& server, tcp::socket socket, std::string address, bool counted)
      : server_(server), stream_(std::move(socket)), timer_(stream_.get_executor()), address_(std::move(address)),
        counted_(counted) {}

  ~Connection() {
    if (counted_) server_.forget(this, address_);
  }

  void start() { read_head(server_.limits.head_timeout); }

  // Over a connection cap: the answer, then closed (with lingering).
  void refuse(Response response) {
    method_ = "-";
    path_ = "(connection refused)";
    write(std::move(response), /*body_unread=*/true);
  }

  // On stop: a connection waiting for a request goes now.
  void close_if_waiting() {
    if (phase_ == Phase::idle || phase_ == Phase::head) close();
  }

 private:
  enum class Phase { idle, head, body, working, writing, closing };

  // Deadlines for the head and the body are the server's own timer, which
  // cancels the read (not the socket), so the client still gets its 408.
  void arm(std::chrono::milliseconds after) {
    stream_.expires_never();  // the stream's own timer closes; this one only cancels
    timed_out_ = false;
    timer_.expires_after(after);
    timer_.async_wait([self = shared_from_this()](const beast::error_code& ec) {
      if (ec) return;  // re-armed or cancelled
      self->timed_out_ = true;
      beast::error_code ignored;
      self->stream_.socket().cancel(ignored);
    });
  }
  void disarm() { timer_.cancel(); }

  void wait_for_next_request() {
    if (buffer_.size() > 0) return read_head(server_.limits.head_timeout);  // pipelined: already here
    phase_ = Phase::idle;
    arm(server_.limits.keep_alive_timeout);
    stream_.socket().async_wait(tcp::socket::wait_read, [self = shared_from_this()](const beast::error_code& ec) {
      self->disarm();
      if (ec || self->timed_out_ || self->server_stopping()) return self->close();
      self->read_head(self->server_.limits.head_timeout);
    });
  }

  void read_head(std::chrono::milliseconds deadline) {
    phase_ = Phase::head;
    method_ = "-";
    path_ = "-";
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(server_.limits.max_header_bytes));
    parser_->body_limit(server_.limits.max_body_bytes);
    arm(deadline);
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = shared_from_this()](const beast::error_code& ec, std::size_t) { self->on_head(ec); });
  }

  void on_head(const beast::error_code& ec) {
    disarm();
    if (timed_out_) {
      ++server_.head_timeouts;
      return fail(408, "the request head did not arrive within the deadline");
    }
    if (ec == http::error::header_limit) return fail(431, "the request head is larger than the limit");
    if (ec == http::error::body_limit) {  // a Content-Length over the limit, seen in the head
      path_ = parser_->get().target().substr(0, parser_->get().target().find('?'));
      return fail(413, "the upload is larger than the limit");
    }
    if (ec == http::error::end_of_stream || ec == asio::error::eof || ec == asio::error::connection_reset ||
        ec == asio::error::operation_aborted) {
      return close();
    }
    if (ec) return fail(400, "malformed request");
    const auto& head = parser_->get();
    request_ = Request{};
    request_.method = std::string(head.method_string());
    request_.target = std::string(head.target());
    const std::string_view raw_path = std::string_view(request_.target).substr(0, request_.target.find('?'));
    auto path = percent_decode(raw_path);
    if (!path) return fail(400, "malformed request target");
    request_.path = std::move(*path);
    request_.remote_address = address_;
    for (const auto& field : head) {
      request_.headers.emplace_back(ascii_lower(field.name_string()), std::string(field.value()));
    }
    method_ = request_.method;
    path_ = request_.path;
    version_ = head.version();
    keep_alive_ = head.keep_alive();
    if (request_.headers.size() > server_.limits.max_header_fields) return fail(431, "the request has too many header fields");

    const auto length = parser_->content_length();
    const bool has_body = parser_->chunked() || (length && *length > 0);
    if (!has_body) return complete();
    if (!server_.handler.wants_body(request_)) return fail(413, "this request takes no body");
    if (length && *length > server_.limits.max_body_bytes) return fail(413, "the upload is larger than the limit");
    if (!reserve_for(length.value_or(0) > 0 ? std::min<std::size_t>(*length, reservation_step) : reservation_step)) return;
    // Capacity for the whole body at once (a chunked one: the largest): no
    // reallocation copies while it arrives; pages are touched (and counted)
    // only as bytes are written.
    parser_->get().body().reserve(length ? static_cast<std::size_t>(*length) : server_.limits.max_body_bytes);
    if (ascii_lower(request_.header("expect")) == "100-continue") {
      auto go_on = std::make_shared<http::response<http::empty_body>>(http::status::continue_, version_);
      stream_.expires_after(server_.limits.write_timeout);
      return http::async_write(stream_, *go_on, [self = shared_from_this(), go_on](const beast::error_code& e, std::size_t) {
        if (e) return self->close();
        self->read_body();
      });
    }
    read_body();
  }

  void read_body() {
    phase_ = Phase::body;
    arm(server_.limits.body_timeout);  // the whole body, however it trickles in
    read_some_body();
  }

  void read_some_body() {
    http::async_read_some(stream_, buffer_, *parser_, [self = shared_from_this()](const beast::error_code& ec, std::size_t) {
      self->on_body(ec);
    });
  }

  void on_body(const beast::error_code& ec) {
    if (timed_out_) {
      ++server_.body_timeouts;
      return fail(408, "the upload took longer than the deadline");
    }
    if (ec == http::error::body_limit) return fail(413, "the upload is larger than the limit");
    if (ec == asio::error::eof || ec == asio::error::connection_reset || ec == http::error::partial_message) return close();
    if (ec) return fail(400, "malformed request body");
    // Twice what has arrived, in steps: the body here and its copy for the check.
    if (!reserve_for(parser_->get().body().size())) return;
    if (!parser_->is_done()) return read_some_body();
    disarm();
    complete();
  }

  // Holds twice `bytes` (rounded up to a step) in the budget; answers 503
  // and returns false when it has no room.
  bool reserve_for(std::size_t bytes) {
    if (body_memory_.bytes() == 0) body_memory_ = MemoryReservation(server_.budget);
    if (body_memory_.hold_at_least(2 * round_up(std::max<std::size_t>(bytes, 1), reservation_step))) return true;
    ++server_.memory_refusals;
    disarm();
    fail(503, "busy: the service's memory budget has no room for this upload now; retry later");
    return false;
  }

  void complete() {
    disarm();
    request_.body = parser_->release().body();
    request_.body_memory = std::move(body_memory_);
    phase_ = Phase::working;
    Prepared prepared = server_.handler.prepare(std::move(request_));
    if (auto* response = std::get_if<Response>(&prepared)) return write(std::move(*response), false);
    auto job = std::move(std::get<Job>(prepared));
    asio::post(*server_.workers, [self = shared_from_this(), job = std::move(job)] {
      Response answer = job();
      asio::post(self->stream_.get_executor(), [self, answer = std::move(answer)]() mutable {
        self->write(std::move(answer), false);
      });
    });
  }

  void fail(int status, const std::string& why) {
    Response response = server_.handler.error(status, why, path_ == "-" ? std::string() : path_);
    response.close = true;
    write(std::move(response), /*body_unread=*/phase_ != Phase::working);
  }

  void write(Response answer, bool body_unread) {
    phase_ = Phase::writing;
    ++served_;
    const bool keep = keep_alive_ && !answer.close && !body_unread && !server_stopping() &&
                      served_ < server_.limits.max_requests_per_connection;
    auto response = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(answer.status),
                                                                        version_ == 0 ? 11 : version_);
    for (const auto& [name, value] : server_.handler.default_headers()) response->set(name, value);
    for (const auto& [name, value] : answer.headers) response->set(name, value);
    if (answer.status != 204 && answer.status != 304) response->set(http::field::content_type, answer.content_type);
    response->body() = std::move(answer.body);
    response->keep_alive(keep);
    response->prepare_payload();
    const int status = answer.status;
    stream_.expires_after(server_.limits.write_timeout);
    http::async_write(stream_, *response,
                      [self = shared_from_this(), response, keep, body_unread, status](const beast::error_code& ec, std::size_t) {
                        self->server_.handler.log(self->address_, self->method_, self->path_, status);
                        if (ec) return self->close();
                        if (keep) return self->wait_for_next_request();
                        if (body_unread) return self->linger();
                        self->close();
                      });
  }

  // Half-close, read and drop what the client still sends for a moment,
  // then close: a client busy sending its body reads our answer instead of
  // a reset.
  void linger() {
    phase_ = Phase::closing;
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(linger_time);
    drain();
  }
  void drain() {
    stream_.async_read_some(asio::buffer(scratch_), [self = shared_from_this()](const beast::error_code& ec, std::size_t n) {
      self->lingered_ += n;
      if (ec || self->lingered_ > self->server_.limits.max_body_bytes) return self->close();
      self->drain();
    });
  }

  void close() {
    phase_ = Phase::closing;
    disarm();
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  [[nodiscard]] bool server_stopping() const {
    std::lock_guard lock(server_.mutex);
    return server_.stopping;
  }

  HttpServer::Impl& server_;
  beast::tcp_stream stream_;
  asio::steady_timer timer_;
  std::string address_;
  bool counted_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Request request_;
  MemoryReservation body_memory_;
  Phase phase_ = Phase::head;
  bool timed_out_ = false;
  bool keep_alive_ = false;
  unsigned version_ = 11;
  std::size_t served_ = 0;
  std::size_t lingered_ = 0;
  std::string method_ = "-";
  std::string path_ = "-";
  std::array<char, 16 * 1024> scratch_{};
};

void HttpServer::Impl::accept() {
  acceptor.async_accept([this](const beast::error_code& ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
    if (!ec) admit(std::move(socket));
    accept();
  });
}

void HttpServer::Impl::admit(tcp::socket socket) {
  beast::error_code ec;
  const auto peer = socket.remote_endpoint(ec);
  if (ec) return;
  std::string address = peer.address().to_string();
  bool over = false;
  {
    std::lock_guard lock(mutex);
    std::size_t& mine = per_client[address];
    over = connections.size() >= limits.max_connections || mine >= limits.max_connections_per_client;
    if (!over) ++mine;
    if (mine == 0) per_client.erase(address);
  }
  if (over) {
    ++refused;
    Response response = handler.error(503, "busy: too many connections; retry later", "");
    response.headers.emplace_back("Retry-After", "5");
    std::make_shared<Connection>(*this, std::move(socket), std::move(address), false)->refuse(std::move(response));
    return;
  }
  auto connection = std::make_shared<Connection>(*this, std::move(socket), address, true);
  {
    std::lock_guard lock(mutex);
    connections.emplace(connection.get(), connection);
  }
  connection->start();
}

void HttpServer::Impl::forget(Connection* connection, const std::string& address) {
  std::lock_guard lock(mutex);
  connections.erase(connection);
  if (auto it = per_client.find(address); it != per_client.end() && --it->second == 0) per_client.erase(it);
}

HttpServer::HttpServer(HttpHandler& handler, ServerLimits limits, MemoryBudget& budget)
    : impl_(std::make_unique<Impl>(handler, limits, budget)) {}

HttpServer::~HttpServer() = default;

Result<int> HttpServer::bind(const std::string& host, int port) {
  beast::error_code ec;
  auto address = asio::ip::make_address(host, ec);
  if (ec) {  // a name (localhost): its first address
    tcp::resolver resolver(impl_->io);
    const auto found = resolver.resolve(host, std::to_string(port), ec);
    if (ec || found.empty()) return fail(ErrorKind::usage, host, "not a name or address of this host");
    address = found.begin()->endpoint().address();
  }
  const tcp::endpoint endpoint(address, static_cast<unsigned short>(port));
  auto& acceptor = impl_->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(listen_backlog, ec);
  if (ec) return fail(ErrorKind::io, endpoint.address().to_string(), "cannot bind (" + ec.message() + ")");
  return static_cast<int>(acceptor.local_endpoint().port());
}

void HttpServer::run() {
  impl_->workers = std::make_unique<asio::thread_pool>(std::max(1u, impl_->limits.worker_threads));
  impl_->accept();
  impl_->io.run();
  impl_->workers->join();
}

void HttpServer::stop() {
  asio::post(impl_->io, [impl = impl_.get()] {
    std::vector<std::shared_ptr<Connection>> open;
    {
      std::lock_guard lock(impl->mutex);
      impl->stopping = true;
      for (auto& [raw, weak] : impl->connections) {
        if (auto c = weak.lock()) open.push_back(std::move(c));
      }
    }
    beast::error_code ignored;
    impl->acceptor.close(ignored);
    for (auto& c : open) c->close_if_waiting();
  });
}

ServerCounters HttpServer::counters() const {
  ServerCounters c;
  {
    std::lock_guard lock(impl_->mutex);
    c.open_connections = impl_->connections.size();
  }
  c.refused_connections = impl_->refused.load();
  c.timed_out_heads = impl_->head_timeouts.load();
  c.timed_out_bodies = impl_->body_timeouts.load();
  c.refused_for_memory = impl_->memory_refusals.load();
  return c;
}

}  // namespace pith::serve
