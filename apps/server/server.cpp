// The HTTP front end over the API registry (see server.hpp for the endpoints).
//
// Connections: every accepted connection is served by a thread of its own (ConnectionPool,
// grown on demand up to Options::max_connections; one more is answered 503 and closed at once),
// so a slow client holds only its own thread and never delays another. The connection loop is
// ours (HttpServer::process_and_close_socket, over cpp-httplib's request parser): it gives the
// request line and headers one deadline (header_timeout_seconds, counted from the first byte, or
// from the accept for a new connection) and the body another (body_timeout_seconds): a client
// that feeds a byte a second is answered 408 and dropped when its deadline passes, whatever the
// per-read timeouts would allow. The listening socket is exclusive (SO_REUSEADDR only, never
// cpp-httplib's default SO_REUSEPORT, with which a second server would share the port).
//
// Calls: a synchronous call holds a slot while it runs: Cost::Cheap commands have their own
// slots (max_cheap_calls), so they never wait behind solves (max_concurrent_solves). A call
// waits at most busy_wait_seconds for a slot, else 503. Each runs under the per-request time
// limit and a memory budget, its share of max_memory_bytes (Limits: the kept jobs' results, the
// cheap slots and the solve and job slots each own a fixed part, so the budgets handed out never
// add up to more than the whole). A job runs on its own thread, owned by the Job and joined
// before the Job is dropped; its progress is kept as the latest report only (a sequence number
// tells event streams that it changed), so a chatty solver never grows memory; its result is
// kept as JSON text within the kept-jobs budget.
#include "server.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cassert>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <semaphore>
#include <stop_token>
#include <thread>
#include <unordered_map>

#include "assets.hpp"

namespace permuzzle::server {

namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// JSON text that never throws on invalid UTF-8 (user input echoed in error messages).
std::string dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string_view kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::InvalidInput:
      return "invalid_input";
    case ErrorKind::Unsolvable:
      return "unsolvable";
    case ErrorKind::LimitExceeded:
      return "limit_exceeded";
    case ErrorKind::Cancelled:
      return "cancelled";
    case ErrorKind::Io:
      return "io";
    case ErrorKind::Internal:
      return "internal";
  }
  return "internal";
}

// HTTP status of an error: bad input (including an unsolvable position) 400, over a limit 422,
// cancelled (the server is stopping) 503, I/O and internal failures 500.
int http_status(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::InvalidInput:
    case ErrorKind::Unsolvable:
      return 400;
    case ErrorKind::LimitExceeded:
      return 422;
    case ErrorKind::Cancelled:
      return 503;
    case ErrorKind::Io:
    case ErrorKind::Internal:
      return 500;
  }
  return 500;
}

Json error_json(const Error& e) {
  Json position = nullptr;
  if (e.position != Error::NO_POSITION) position = e.position;
  return {{"error",
           {{"kind", kind_name(e.kind)},
            {"message", e.message},
            {"position", position},
            {"input", e.input},
            {"describe", e.describe()}}}};
}

void send_json(httplib::Response& res, int status, const Json& body) {
  res.status = status;
  res.set_content(dump(body), "application/json");
}

void send_error(httplib::Response& res, const Error& e, int status = 0) {
  send_json(res, status ? status : http_status(e.kind), error_json(e));
}

void send_error(httplib::Response& res, int status, std::string message,
                ErrorKind kind = ErrorKind::InvalidInput) {
  send_error(res, make_error(std::move(message), {}, Error::NO_POSITION, kind), status);
}

// The request body as a JSON object (an empty body is {}); a syntax error points at its byte.
Result<Json> parse_object(const std::string& body, const char* what) {
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) return Json::object();
  Json j;
  try {
    j = Json::parse(body);
  } catch (const Json::parse_error& e) {
    std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
    return make_error(std::string("malformed JSON in the request body: ") + e.what(),
                      body.size() > 200 ? body.substr(0, 200) : body,
                      at < 200 ? at : Error::NO_POSITION);
  } catch (const Json::out_of_range& e) {
    // A number no double holds (1e999999): bad input like any syntax error, never a 500.
    return make_error(
        std::string("a number in the request body is too large for JSON's numbers: ") + e.what());
  }
  if (!j.is_object()) {
    return make_error(std::string("the request body must be a JSON object of ") + what + ", not " +
                      j.type_name());
  }
  return j;
}

std::string seconds_text(double seconds) {
  return fmt::format("{:g} s", seconds);
}

// One connection of the server, as cpp-httplib's Stream: reads through a buffer under the
// deadline of the current request's head or body, writes under the write timeout, and counts
// what it sent for the access log. Every wait is cut in slices of at most 100 ms so that a
// stopping server is noticed.
class Connection : public httplib::Stream {
 public:
  Connection(int sock, const std::atomic<int>& listening, const Options& options)
      : sock_(sock), listening_(listening), options_(options) {}

  // Waits for the next request's first byte: on a new connection within the head deadline
  // (counted from the accept), on a kept-alive one within the keep-alive time. False: none came.
  bool wait_for_request(bool first) {
    auto limit = first ? options_.header_timeout_seconds : options_.keep_alive_seconds;
    deadline_ = Clock::now() + seconds(limit);
    timed_out_ = false;
    phase_ = Phase::Idle;
    bool idle_too_long = false;  // an idle connection that ends is not a late request
    if (buffered() == 0 && !wait(POLLIN, deadline_, idle_too_long)) return false;
    // Step 1. The request head's deadline: from the accept for the first request (a client that
    // connects and sends nothing holds its thread no longer), else from the first byte.
    if (!first) deadline_ = Clock::now() + seconds(options_.header_timeout_seconds);
    phase_ = Phase::Head;
    request_start_ = Clock::now();
    request_bytes_ = buffered();
    sent_at_start_ = sent_;
    close_after_ = false;
    return true;
  }
  // The head was read (cpp-httplib's setup_request hook): the body gets its own deadline.
  void begin_body() {
    phase_ = Phase::Body;
    deadline_ = Clock::now() + seconds(options_.body_timeout_seconds);
  }

  bool timed_out() const { return timed_out_; }
  bool in_head() const { return phase_ == Phase::Head; }
  bool answered() const { return sent_ != sent_at_start_; }
  bool got_bytes() const { return request_bytes_ != 0; }
  std::uint64_t sent_for_request() const { return sent_ - sent_at_start_; }
  double request_ms() const {
    return std::chrono::duration<double, std::milli>(Clock::now() - request_start_).count();
  }
  // The connection cannot be kept alive after this answer (an unread rest of a body).
  void close_after_response() { close_after_ = true; }
  bool must_close() const { return close_after_; }

  bool is_readable() const override { return buffered() > 0 || poll_now(POLLIN); }
  bool is_writable() const override { return poll_now(POLLOUT); }

  ssize_t read(char* ptr, std::size_t size) override {
    if (buffered() == 0) {
      if (!wait(POLLIN, deadline_, timed_out_)) return -1;
      ssize_t n;
      do {
        n = ::recv(sock_, buffer_.data(), buffer_.size(), 0);
      } while (n < 0 && errno == EINTR);
      if (n <= 0) return n < 0 ? -1 : 0;
      begin_ = 0;
      end_ = std::size_t(n);
      request_bytes_ += std::uint64_t(n);
    }
    std::size_t n = std::min(size, buffered());
    std::memcpy(ptr, buffer_.data() + begin_, n);
    begin_ += n;
    return ssize_t(n);
  }

  ssize_t write(const char* ptr, std::size_t size) override {
    bool late = false;
    if (!wait(POLLOUT, Clock::now() + seconds(options_.write_timeout_seconds), late)) return -1;
    ssize_t n;
    do {
      n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    if (n > 0) sent_ += std::uint64_t(n);
    return n < 0 ? -1 : n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    address(::getpeername, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    address(::getsockname, ip, port);
  }
  socket_t socket() const override { return sock_; }

 private:
  enum class Phase { Idle, Head, Body };

  static Clock::duration seconds(double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  }
  std::size_t buffered() const { return end_ - begin_; }

  bool poll_now(short events) const {
    pollfd p{sock_, events, 0};
    return ::poll(&p, 1, 0) > 0;
  }

  // Waits until the socket is ready for `events`, or the deadline passes (then `late` is set),
  // or the server stops.
  bool wait(short events, Clock::time_point deadline, bool& late) const {
    for (;;) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) {
        late = true;
        return false;
      }
      if (listening_.load() == INVALID_SOCKET) return false;
      pollfd p{sock_, events, 0};
      int r = ::poll(&p, 1, int(std::min<long long>(left.count(), 100)));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return false;
      if (r > 0) return (p.revents & (events | POLLHUP | POLLERR)) != 0;
    }
  }

  template <class Get>
  void address(Get get, std::string& ip, int& port) const {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    ip.clear();
    port = 0;
    if (get(sock_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return;
    char text[INET6_ADDRSTRLEN] = {};
    if (addr.ss_family == AF_INET) {
      auto* a = reinterpret_cast<sockaddr_in*>(&addr);
      ::inet_ntop(AF_INET, &a->sin_addr, text, sizeof text);
      port = ntohs(a->sin_port);
    } else if (addr.ss_family == AF_INET6) {
      auto* a = reinterpret_cast<sockaddr_in6*>(&addr);
      ::inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof text);
      port = ntohs(a->sin6_port);
    }
    ip = text;
  }

  int sock_;
  const std::atomic<int>& listening_;
  const Options& options_;
  std::array<char, 4096> buffer_{};
  std::size_t begin_ = 0, end_ = 0;
  Clock::time_point deadline_{};
  Clock::time_point request_start_ = Clock::now();
  Phase phase_ = Phase::Idle;
  bool timed_out_ = false;
  bool close_after_ = false;
  std::uint64_t request_bytes_ = 0;
  std::uint64_t sent_ = 0;
  std::uint64_t sent_at_start_ = 0;
};

// The connection the current thread serves (the access log and the error handler, which
// cpp-httplib calls without it, ask it for the request's timing and bytes).
thread_local Connection* current_connection = nullptr;

// What each client (by its address) holds of something bounded, connections or event
// streams, and what all of them hold together: a ticket is given while both counts are under
// their caps and returned when its last copy goes.
class ClientCounter {
 public:
  ClientCounter(unsigned per_client, unsigned overall)
      : per_client_(per_client), overall_(overall) {}

  // Null when the client already holds per_client, or everyone together holds overall.
  std::shared_ptr<void> acquire(const std::string& client) {
    std::lock_guard lock(mutex_);
    unsigned& mine = held_[client];
    if (mine >= per_client_ || total_ >= overall_) {
      if (mine == 0) held_.erase(client);
      return nullptr;
    }
    ++mine;
    ++total_;
    // (Non-null, so that a ticket tests true; the deleter only counts it back.)
    return std::shared_ptr<void>(static_cast<void*>(this),
                                 [this, client](void*) { release(client); });
  }
  unsigned per_client() const { return per_client_; }
  unsigned overall() const { return overall_; }

 private:
  void release(const std::string& client) {
    std::lock_guard lock(mutex_);
    auto it = held_.find(client);
    assert(it != held_.end() && it->second > 0 && total_ > 0);
    --total_;
    if (--it->second == 0) held_.erase(it);
  }

  const unsigned per_client_;
  const unsigned overall_;
  std::mutex mutex_;
  std::unordered_map<std::string, unsigned> held_;
  unsigned total_ = 0;
};

// cpp-httplib's task queue, as one thread per open connection, all `max` of them started with
// the server (threads started while solves saturate the CPU were measured to stall the whole
// process for seconds: 100 connections arriving under 16 CPU-bound solves delayed a request on
// another connection by 3.5 to 4.8 s; started beforehand they cost nothing then). A connection
// beyond `max` is handed back to the accepting thread at once, which refuses it (HttpServer).
class ConnectionPool : public httplib::TaskQueue {
 public:
  explicit ConnectionPool(unsigned max) : max_(max) {
    threads_.reserve(max);
    for (unsigned i = 0; i < max; ++i) threads_.emplace_back([this] { work(); });
  }

  void enqueue(std::function<void()> fn) override {
    std::unique_lock lock(mutex_);
    if (open_ >= max_) {
      lock.unlock();
      fn();  // on the accepting thread: HttpServer refuses the connection without reading it
      return;
    }
    ++open_;
    jobs_.push_back(std::move(fn));
    lock.unlock();
    wake_.notify_one();
  }

  void shutdown() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }

 private:
  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return !jobs_.empty() || stopping_; });
      if (jobs_.empty()) return;  // stopping
      auto fn = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      fn();
      lock.lock();
      --open_;
    }
  }

  const unsigned max_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  unsigned open_ = 0;  // connections queued or served
  bool stopping_ = false;
};

// The cpp-httplib server with our connection loop (see the file comment), and access to its
// listening socket (to raise the listen backlog, which the library fixes at 5: 100 clients
// connecting at once would otherwise wait for SYN retries).
class HttpServer : public httplib::Server {
 public:
  explicit HttpServer(const server::Options& options)
      : options_(options),
        per_client_(options.max_connections_per_client, options.max_connections) {}

  int socket_fd() const { return svr_sock_; }
  // The thread that will accept connections (ConnectionPool hands it the refused ones).
  void set_accepting_thread(std::thread::id id) { accepting_ = id; }

  // One access-log line (Options::log), with control bytes of the client's path escaped.
  void log(const std::string& remote, const std::string& method, const std::string& path,
           int status, std::uint64_t bytes, double ms) const {
    if (!options_.log) return;
    std::string shown;
    for (unsigned char c : path) {
      if (c < 0x21 || c == 0x7f || c == '"' || c == '\\') {
        shown += fmt::format("\\x{:02x}", c);
      } else {
        shown += char(c);
      }
    }
    options_.log(fmt::format("{} {} {} {} {} {:.1f}ms", remote.empty() ? "-" : remote,
                             method.empty() ? "-" : method, shown.empty() ? "-" : shown, status,
                             bytes, ms));
  }

 private:
  // The connection loop: cpp-httplib's own, with the deadlines of Connection and our keep-alive.
  bool process_and_close_socket(socket_t sock) override {
    if (std::this_thread::get_id() == accepting_) {
      refuse(sock);
      return false;
    }
    Connection connection(sock, svr_sock_, options_);
    // One client (one address) holds at most max_connections_per_client of the connections, so
    // that it cannot take them all from the others.
    std::string client;
    int client_port = 0;
    connection.get_remote_ip_and_port(client, client_port);
    auto ticket = per_client_.acquire(client);
    if (!ticket) {
      refuse(sock, fmt::format("this client already has {} connections open (its limit); close "
                               "some, or try again shortly",
                               per_client_.per_client()));
      return false;
    }
    current_connection = &connection;
    bool ok = false;
    for (std::size_t left = keep_alive_max_count_; left > 0; --left) {
      if (svr_sock_ == INVALID_SOCKET ||
          !connection.wait_for_request(left == keep_alive_max_count_))
        break;
      bool closed = false;
      ok = process_request(connection, left == 1, closed,
                           [&connection](httplib::Request&) { connection.begin_body(); });
      // Step 2. A request cut by its deadline before any answer: 408, then the connection ends.
      if (connection.timed_out()) {
        if (!connection.answered() && connection.got_bytes()) timeout_answer(connection);
        break;
      }
      if (!ok || closed || connection.must_close()) break;
    }
    current_connection = nullptr;
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return ok;
  }

  // A canned 408 when the request line itself did not arrive in time.
  void timeout_answer(Connection& connection) {
    Error e = make_error(
        "the request head did not arrive within " + seconds_text(options_.header_timeout_seconds),
        {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    std::string body = dump(error_json(e));
    std::string answer = fmt::format(
        "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nContent-Length: "
        "{}\r\nConnection: close\r\n\r\n{}",
        body.size(), body);
    (void)connection.write(answer.data(), answer.size());
    std::string ip;
    int port = 0;
    connection.get_remote_ip_and_port(ip, port);
    log(ip, "", "", 408, connection.sent_for_request(), connection.request_ms());
  }

  // Over max_connections (or the client's share of them): a 503 sent without waiting (the
  // socket's buffer takes it), what the client already sent read off (so that closing does not
  // reset the connection before the client reads the answer), then closed.
  void refuse(socket_t sock) {
    refuse(sock, fmt::format("the server is busy: {} connections are open (its limit); try "
                             "again shortly",
                             options_.max_connections));
  }
  void refuse(socket_t sock, const std::string& why) {
    Error e = make_error(why, {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    std::string body = dump(error_json(e));
    std::string answer = fmt::format(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: "
        "{}\r\nConnection: close\r\nRetry-After: 1\r\n\r\n{}",
        body.size(), body);
    auto sent = ::send(sock, answer.data(), answer.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    char drain[4096];
    for (int i = 0; i < 16 && ::recv(sock, drain, sizeof drain, MSG_DONTWAIT) > 0; ++i) {
    }
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    log("", "", "(connection refused)", 503, sent > 0 ? std::uint64_t(sent) : 0, 0);
  }

  const server::Options& options_;  // (httplib::Server has a member function named Options)
  std::thread::id accepting_;
  ClientCounter per_client_;  // connections per client address
};

// Makes the calling thread (and the threads it starts: Linux keeps a nice value per thread and
// new threads inherit it) yield the CPU to the server's other threads: nice 10. Best effort.
void lower_thread_priority() {
  ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 10);
}

struct Job {
  enum class State { Running, Done, Failed };
  std::string id;
  std::string family;
  std::string verb;
  std::stop_source stop;
  std::thread thread;

  std::mutex mutex;
  std::condition_variable changed;
  std::uint64_t progress_seq = 0;
  Json progress = nullptr;
  Clock::time_point last_progress{};
  State state = State::Running;
  int status = 200;  // HTTP status of the outcome
  // The outcome as JSON text (the result; or what a stopped run knew, with "error"; or
  // {"error": ...}): kept as text, compact and of a known size (Impl::kept_bytes).
  std::string outcome;
  Json error = nullptr;  // the "error" object of a failed job
  double seconds = 0;
};

std::string_view state_name(Job::State s) {
  switch (s) {
    case Job::State::Running:
      return "running";
    case Job::State::Done:
      return "done";
    case Job::State::Failed:
      return "failed";
  }
  return "failed";
}

// Adds "key": value (JSON text) to the JSON text of an object.
std::string with_field(const std::string& object, std::string_view key, const std::string& value) {
  assert(object.size() >= 2 && object.front() == '{' && object.back() == '}');
  std::string out = object.substr(0, object.size() - 1);
  if (object.size() > 2) out += ',';
  out += dump(Json(key)) + ':' + value + '}';
  return out;
}

// The host name of a Host header: "127.0.0.1:8080" -> "127.0.0.1", "[::1]:8080" -> "::1".
std::string host_name(const std::string& host) {
  if (!host.empty() && host.front() == '[') {
    auto close = host.find(']');
    return close == std::string::npos ? host : host.substr(1, close - 1);
  }
  auto colon = host.find(':');
  return colon == std::string::npos ? host : host.substr(0, colon);
}

// The least memory a solve or job may be given: below it the server is refused at start.
constexpr std::uint64_t MIN_CALL_MEMORY = std::uint64_t(32) << 20;

// The shares of the server's memory (see Limits): the kept jobs' results first, an eighth of
// the rest for the cheap calls' slots, the remainder equally for the solve and job slots.
Limits plan_limits(const Options& o) {
  Limits l;
  l.solve_slots = std::min<unsigned>(
      4096, o.max_concurrent_solves ? o.max_concurrent_solves : hardware_threads());
  l.cheap_slots = std::min<unsigned>(
      4096, o.max_cheap_calls ? o.max_cheap_calls : std::max(8u, 4 * hardware_threads()));
  l.job_slots = o.max_running_jobs;
  l.max_memory = o.max_memory_bytes ? o.max_memory_bytes : default_memory_budget();
  l.kept_jobs = o.max_kept_job_bytes ? o.max_kept_job_bytes : l.max_memory / 8;
  if (l.kept_jobs > l.max_memory / 2) return l;  // refused by check_limits
  std::uint64_t rest = l.max_memory - l.kept_jobs;
  std::uint64_t cheap_pool = rest / 8;
  l.cheap_call = cheap_pool / l.cheap_slots;
  l.expensive_call = (rest - cheap_pool) / (l.solve_slots + l.job_slots);
  return l;
}

Status check_limits(const Limits& l) {
  if (l.kept_jobs > l.max_memory / 2) {
    return make_error("the finished jobs' budget (" + memory_text(l.kept_jobs) +
                      ") must be at most half of the server's memory (" +
                      memory_text(l.max_memory) + ")");
  }
  if (l.expensive_call < MIN_CALL_MEMORY) {
    return make_error(fmt::format(
        "--max-memory {} is too small for {} solves and {} jobs at once: each would get {}, "
        "less than {}; give more memory, or fewer --max-solves or --max-jobs",
        memory_text(l.max_memory), l.solve_slots, l.job_slots, memory_text(l.expensive_call),
        memory_text(MIN_CALL_MEMORY)));
  }
  return Ok{};
}

}  // namespace

std::string Limits::describe() const {
  return fmt::format(
      "memory {}: {} solve(s) and {} job(s) at once with {} each, {} quick calls with {} each, "
      "{} for finished jobs' results",
      memory_text(max_memory), solve_slots, job_slots, memory_text(expensive_call), cheap_slots,
      memory_text(cheap_call), memory_text(kept_jobs));
}

bool is_loopback(const std::string& host) {
  if (host == "localhost" || host == "::1" || host == "[::1]") return true;
  in_addr addr{};
  if (::inet_pton(AF_INET, host.c_str(), &addr) == 1) {
    return (ntohl(addr.s_addr) >> 24) == 127;
  }
  return false;
}

struct Server::Impl {
  const api::Registry& registry;
  TableStore& tables;
  Options options;
  Limits limits;
  HttpServer http;
  int bound_port = -1;
  std::string commands_json;
  std::unordered_map<std::string_view, const Asset*> asset_index;
  std::counting_semaphore<4096> solve_slots;  // synchronous calls of expensive commands
  std::counting_semaphore<4096> cheap_slots;  // synchronous calls of cheap commands
  std::stop_source shutdown;                  // cancels synchronous calls when the server stops
  ClientCounter event_streams{options.max_event_streams_per_client, options.max_event_streams};

  std::mutex jobs_mutex;
  std::map<std::string, std::shared_ptr<Job>> jobs;
  std::deque<std::string> job_order;  // creation order, for dropping the oldest finished job
  std::uint64_t kept_bytes = 0;       // sum of the finished jobs' outcome sizes
  std::mt19937_64 id_rng{std::random_device{}()};

  Impl(const api::Registry& r, TableStore& t, Options o)
      : registry(r),
        tables(t),
        options(std::move(o)),
        limits(plan_limits(options)),
        http(options),
        solve_slots(static_cast<std::ptrdiff_t>(limits.solve_slots)),
        cheap_slots(static_cast<std::ptrdiff_t>(limits.cheap_slots)) {
    if (options.data_dir.empty()) options.data_dir = api::default_data_dir();
    commands_json = dump(registry.describe());
    for (const Asset& a : assets()) asset_index[a.path] = &a;
    routes();
  }

  // Step 1. Static files: exact paths of the embedded assets only.
  void serve_asset(const httplib::Request& req, httplib::Response& res) {
    std::string_view path = req.path;
    if (path == "/") path = "/index.html";
    auto it = asset_index.find(path);
    if (it == asset_index.end()) {
      send_error(res, 404, "no such page: " + req.path);
      return;
    }
    res.set_header("Cache-Control", "no-cache");
    // The page builds its DOM from text only; a policy keeps any injected markup inert.
    res.set_header("Content-Security-Policy",
                   "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                   "object-src 'none'; base-uri 'none'; frame-ancestors 'none'");
    res.set_content(it->second->content.data(), it->second->content.size(),
                    std::string(it->second->content_type));
  }

  // Step 2. The request body, read as it is whatever its Content-Type (curl -d says
  // x-www-form-urlencoded, for which cpp-httplib would otherwise refuse 8 KB), within
  // max_body_bytes. False: an error was answered.
  bool read_body(const httplib::Request& req, httplib::Response& res,
                 const httplib::ContentReader& reader, std::string& body) {
    bool chunked = req.get_header_value("Transfer-Encoding").find("chunked") != std::string::npos;
    if (!req.has_header("Content-Length") && !chunked) return true;  // no body
    bool too_big = false;
    // Past the limit the rest is read and dropped (within the body's deadline), so that the
    // client, still sending, gets to read the 413 rather than a reset connection.
    auto take = [&](const char* data, std::size_t n) {
      if (too_big || body.size() + n > options.max_body_bytes) {
        too_big = true;
        std::string().swap(body);
        return true;
      }
      body.append(data, n);
      return true;
    };
    bool ok;
    if (req.is_multipart_form_data()) {
      ok = reader([](const httplib::MultipartFormData&) { return true; }, take);
      if (ok && !too_big) {
        send_error(res, 400,
                   "the body is multipart form data; send the JSON object itself as the body "
                   "(curl -d '{...}' or --data-binary @file.json)");
        return false;
      }
    } else {
      ok = reader(take);
    }
    if (ok && !too_big) return true;
    // Step 2a. Why the body was not taken. When it was not read to its end, the connection ends
    // after the answer (what follows on it is not a request).
    if (!ok && current_connection) current_connection->close_after_response();
    if (too_big || res.status == 413) {
      send_too_large(res);
    } else if (current_connection && current_connection->timed_out()) {
      send_timeout(res, *current_connection);
    } else if (res.status == 415) {
      send_error(res, 415,
                 "unsupported Content-Encoding '" + req.get_header_value("Content-Encoding") + "'");
    } else {
      send_error(res, 400,
                 "the request body could not be read (malformed chunks or a closed "
                 "connection)");
    }
    return false;
  }

  void send_too_large(httplib::Response& res) {
    send_error(res, 413,
               fmt::format("the request body is larger than the server's limit of {} bytes",
                           options.max_body_bytes),
               ErrorKind::LimitExceeded);
  }

  void send_timeout(httplib::Response& res, const Connection& c) {
    send_error(res, 408,
               c.in_head() ? "the request head did not arrive within " +
                                 seconds_text(options.header_timeout_seconds)
                           : "the request body did not arrive within " +
                                 seconds_text(options.body_timeout_seconds),
               ErrorKind::LimitExceeded);
  }

  // Step 3. A synchronous registry call under the time limit, a slot of its cost class and its
  // memory share.
  void call(const httplib::Request& req, httplib::Response& res, const std::string& family,
            const std::string& verb, const std::string& body) {
    const api::Command* command = registry.find(family, verb);
    if (!command) {
      send_error(res, 400, unknown_command(family, verb));
      return;
    }
    auto params = parse_object(body, "parameters");
    if (!params) return send_error(res, params.error(), 400);
    double limit = options.time_limit_seconds;
    if (req.has_param("time_limit")) {
      // A client may ask for less time than the server's limit, never more.
      char* end = nullptr;
      std::string text = req.get_param_value("time_limit");
      double asked = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0') {
        send_error(res, 400, "time_limit must be a positive number of seconds, not '" + text + "'");
        return;
      }
      if (auto ok = check_time_limit(asked, "time_limit"); !ok) return send_error(res, ok.error());
      limit = std::min(limit, asked);
    }
    // Cheap commands have slots of their own: a quick answer never waits behind solves.
    const bool cheap = command->cost == api::Cost::Cheap;
    auto& slots = cheap ? cheap_slots : solve_slots;
    auto wait = std::chrono::duration<double>(options.busy_wait_seconds);
    if (!slots.try_acquire_for(wait)) {
      send_error(res, 503,
                 cheap ? "the server is busy (every slot for quick commands is taken); try again "
                         "shortly"
                       : "the server is busy (every solve slot is taken); try again shortly",
                 ErrorKind::LimitExceeded);
      return;
    }
    struct Release {
      std::counting_semaphore<4096>& s;
      ~Release() { s.release(); }
    } release{slots};
    api::Session session{tables, RunContext{}, options.data_dir};
    session.run.with_stop_token(shutdown.get_token());
    session.run.with_memory_budget(cheap ? limits.cheap_call : limits.expensive_call);
    if (limit > 0) session.run.with_time_limit(std::chrono::duration<double>(limit));
    Result<api::Output> out = make_error("not run");
    if (cheap) {
      out = registry.call(family, verb, *params, session);
    } else {
      // An expensive call computes on a thread of lower scheduling priority (the solver's own
      // worker threads inherit it), so that on a loaded machine the CPU goes to quick answers
      // first.
      std::thread worker([&] {
        lower_thread_priority();
        out = registry.call(family, verb, *params, session);
      });
      worker.join();
    }
    if (!out) return send_error(res, out.error());
    for (const api::Artifact& a : out->artifacts) out->json[a.param] = a.content;
    // A run stopped early answers with what it knew and the reason beside it.
    if (out->stopped) {
      out->json["error"] = error_json(*out->stopped)["error"];
      return send_json(res, http_status(out->stopped->kind), out->json);
    }
    send_json(res, 200, out->json);
  }

  std::string unknown_command(const std::string& family, const std::string& verb) const {
    std::vector<std::string> families;
    for (const auto& [name, help] : registry.families()) families.push_back(name);
    if (std::find(families.begin(), families.end(), family) == families.end()) {
      std::string hint = api::closest_name(family, families);
      return "unknown puzzle family '" + family + "'" +
             (hint.empty() ? "; GET /api/v1/commands lists them"
                           : "; did you mean '" + hint + "'?");
    }
    std::vector<std::string> verbs;
    for (const api::Command& c : registry.commands()) {
      if (c.family == family) verbs.push_back(c.verb);
    }
    std::string hint = api::closest_name(verb, verbs);
    return "unknown command '" + family + " " + verb + "'" +
           (hint.empty() ? "; GET /api/v1/commands lists them" : "; did you mean '" + hint + "'?");
  }

  // Step 4. Jobs.
  std::shared_ptr<Job> find_job(const std::string& id) {
    std::lock_guard lock(jobs_mutex);
    auto it = jobs.find(id);
    return it == jobs.end() ? nullptr : it->second;
  }

  // The job's state as JSON text (the kept result is spliced in as it is, never parsed again).
  static std::string job_json(Job& job) {
    std::lock_guard lock(job.mutex);
    Json j = {{"id", job.id},
              {"family", job.family},
              {"verb", job.verb},
              {"state", state_name(job.state)},
              {"progress", job.progress}};
    if (job.state == Job::State::Failed) j["error"] = job.error;
    if (job.state != Job::State::Running) {
      j["status"] = job.status;
      j["seconds"] = job.seconds;
    }
    std::string text = dump(j);
    if (job.state == Job::State::Done) text = with_field(text, "result", job.outcome);
    return text;
  }

  void start_job(httplib::Response& res, const std::string& text) {
    auto body = parse_object(text, "the form {\"family\", \"verb\", \"params\"}");
    if (!body) return send_error(res, body.error(), 400);
    const Json& b = *body;
    for (const auto& [key, value] : b.items()) {
      if (key != "family" && key != "verb" && key != "params") {
        send_error(res, 400, "unknown field '" + key + "' (a job is {family, verb, params})");
        return;
      }
    }
    if (!b.contains("family") || !b["family"].is_string() || !b.contains("verb") ||
        !b["verb"].is_string()) {
      send_error(res, 400, "a job needs \"family\" and \"verb\" as strings");
      return;
    }
    std::string family = b["family"], verb = b["verb"];
    Json params = b.value("params", Json::object());
    if (!params.is_object()) {
      send_error(res, 400, "\"params\" must be a JSON object");
      return;
    }
    const api::Command* command = registry.find(family, verb);
    if (!command) {
      send_error(res, 400, unknown_command(family, verb));
      return;
    }
    auto valid = registry.validate(*command, params);
    if (!valid) return send_error(res, valid.error());
    // Host paths are refused before a job starts (Registry::call would refuse them too, but
    // only once the job runs: the client gets its 400 now).
    for (const api::Param& p : command->params) {
      if (p.type == api::ParamType::HostPath && valid->has(p.name)) {
        send_error(res, 400,
                   "parameter '" + p.name +
                       "' names a path on the server's disk, which the server does not grant to "
                       "its clients (use the command line for it)");
        return;
      }
    }
    auto job = std::make_shared<Job>();
    job->family = family;
    job->verb = verb;
    {
      std::lock_guard lock(jobs_mutex);
      if (running_jobs() >= options.max_running_jobs) {
        send_error(res, 503,
                   "the server is busy: " + std::to_string(options.max_running_jobs) +
                       " jobs are running; cancel one or try again later",
                   ErrorKind::LimitExceeded);
        return;
      }
      drop_old_jobs(0);
      do {
        job->id = fmt::format("{:016x}", id_rng());
      } while (jobs.count(job->id));
      jobs[job->id] = job;
      job_order.push_back(job->id);
      Job* raw = job.get();  // the thread never owns the Job: it is joined before the Job dies
      job->thread = std::thread([this, raw, params = std::move(params)] { run_job(*raw, params); });
    }
    send_json(res, 202,
              {{"id", job->id},
               {"family", family},
               {"verb", verb},
               {"events", "/api/v1/jobs/" + job->id + "/events"}});
  }

  // Caller holds jobs_mutex.
  unsigned running_jobs() {
    unsigned n = 0;
    for (auto& [id, job] : jobs) {
      std::lock_guard lock(job->mutex);
      if (job->state == Job::State::Running) ++n;
    }
    return n;
  }

  // Caller holds jobs_mutex: drops the oldest finished jobs while too many are kept, or while
  // their outcomes and `incoming` more bytes would be over the kept-jobs budget.
  void drop_old_jobs(std::uint64_t incoming) {
    auto over = [&] {
      return jobs.size() >= options.max_kept_jobs || kept_bytes + incoming > limits.kept_jobs;
    };
    for (auto it = job_order.begin(); over() && it != job_order.end();) {
      auto& job = jobs.at(*it);
      std::uint64_t size;
      {
        std::lock_guard lock(job->mutex);
        if (job->state == Job::State::Running) {
          ++it;
          continue;
        }
        size = job->outcome.size();
      }
      // A finished job's thread has nothing left to do but return (it set its state last).
      if (job->thread.joinable()) job->thread.join();
      kept_bytes -= size;
      jobs.erase(*it);
      it = job_order.erase(it);
    }
  }

  void run_job(Job& job, const Json& params) {
    lower_thread_priority();  // as expensive calls: quick answers first
    Stopwatch watch;
    api::Session session{tables, RunContext{}, options.data_dir};
    session.run.with_stop_token(job.stop.get_token());
    session.run.with_memory_budget(limits.expensive_call);
    if (options.job_time_limit_seconds > 0) {
      session.run.with_time_limit(std::chrono::duration<double>(options.job_time_limit_seconds));
    }
    session.run.with_progress([&job](const Progress& p) {
      std::lock_guard lock(job.mutex);
      auto now = Clock::now();
      // At most ten reports a second reach the clients, and always a phase's last one.
      bool last = p.total != 0 && p.done >= p.total;
      if (!last && job.progress_seq != 0 &&
          now - job.last_progress < std::chrono::milliseconds(100)) {
        return;
      }
      job.last_progress = now;
      job.progress = {
          {"phase", p.phase}, {"done", p.done}, {"total", p.total}, {"message", p.message}};
      ++job.progress_seq;
      job.changed.notify_all();
    });
    // Step 4a. The outcome as text (the result's JSON is freed before the lock is taken).
    std::string outcome;
    Json error = nullptr;
    int status = 200;
    {
      auto out = registry.call(job.family, job.verb, params, session);
      if (out) {
        for (const api::Artifact& a : out->artifacts) out->json[a.param] = a.content;
        if (out->stopped) {
          error = error_json(*out->stopped)["error"];
          out->json["error"] = error;
          status =
              out->stopped->kind == ErrorKind::Cancelled ? 499 : http_status(out->stopped->kind);
        }
        outcome = dump(out->json);
      } else {
        error = error_json(out.error())["error"];
        outcome = dump(Json{{"error", error}});
        status = out.error().kind == ErrorKind::Cancelled ? 499 : http_status(out.error().kind);
      }
    }
    // Step 4b. Kept within the budget: older finished jobs make room, and a result larger than
    // the whole budget is replaced by an error.
    std::lock_guard jobs_lock(jobs_mutex);
    if (outcome.size() > limits.kept_jobs) {
      error = error_json(
          make_error(fmt::format("the result is {} of JSON, more than the {} the "
                                 "server keeps for finished jobs' results; ask "
                                 "for less, or use the command line",
                                 memory_text(outcome.size()), memory_text(limits.kept_jobs)),
                     {}, Error::NO_POSITION, ErrorKind::LimitExceeded))["error"];
      outcome = dump(Json{{"error", error}});
      status = 422;
    }
    drop_old_jobs(outcome.size());
    kept_bytes += outcome.size();
    std::lock_guard lock(job.mutex);
    job.seconds = watch.seconds();
    job.outcome = std::move(outcome);
    job.error = std::move(error);
    job.status = status;
    job.state = job.error.is_null() ? Job::State::Done : Job::State::Failed;
    job.changed.notify_all();
  }

  // `ticket`: the stream's place among the open event streams, held until the stream ends.
  void job_events(httplib::Response& res, std::shared_ptr<Job> job, std::shared_ptr<void> ticket) {
    struct Cursor {
      std::uint64_t sent_seq = 0;
    };
    auto cursor = std::make_shared<Cursor>();
    res.set_header("Cache-Control", "no-cache");
    res.set_header("X-Accel-Buffering", "no");
    res.set_chunked_content_provider(
        "text/event-stream",
        [this, job, cursor, ticket = std::move(ticket)](std::size_t, httplib::DataSink& sink) {
          std::unique_lock lock(job->mutex);
          job->changed.wait_for(lock, std::chrono::seconds(1), [&] {
            return job->progress_seq != cursor->sent_seq || job->state != Job::State::Running ||
                   shutdown.stop_requested();
          });
          std::string chunk;
          if (job->progress_seq != cursor->sent_seq) {
            cursor->sent_seq = job->progress_seq;
            chunk += "event: progress\ndata: " + dump(job->progress) + "\n\n";
          }
          if (job->state != Job::State::Running) {
            bool ok = job->state == Job::State::Done;
            chunk += std::string("event: ") + (ok ? "result" : "error") + "\ndata: " +
                     (ok ? job->outcome
                         : with_field(job->outcome, "status", std::to_string(job->status))) +
                     "\n\n";
            lock.unlock();
            sink.write(chunk.data(), chunk.size());
            sink.done();
            return true;
          }
          lock.unlock();
          if (shutdown.stop_requested()) return false;
          if (chunk.empty()) chunk = ": still running\n\n";  // also notices a closed connection
          return sink.write(chunk.data(), chunk.size());
        });
  }

  void cancel_job(httplib::Response& res, std::shared_ptr<Job> job) {
    job->stop.request_stop();
    {
      // Answer once the job stopped (solvers check their stop token every few milliseconds of
      // their CPU time; on a busy machine that is longer in wall time), or after five seconds
      // with the state it has then.
      std::unique_lock lock(job->mutex);
      job->changed.wait_for(lock, std::chrono::seconds(5),
                            [&] { return job->state != Job::State::Running; });
    }
    res.status = 200;
    res.set_content(job_json(*job), "application/json");
  }

  // Step 5. The routes.
  void routes() {
    http.new_task_queue = [n = options.max_connections] { return new ConnectionPool(n); };
    // The port is this server's alone: SO_REUSEADDR (a restart need not wait for TIME_WAIT) and
    // never SO_REUSEPORT, cpp-httplib's default, with which a second server shares the port.
    http.set_socket_options([](socket_t sock) {
      int yes = 1;
      ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    http.set_payload_max_length(options.max_body_bytes);
    http.set_keep_alive_max_count(1000);
    http.set_keep_alive_timeout(static_cast<time_t>(std::ceil(options.keep_alive_seconds)));
    // The accepted sockets' SO_SNDTIMEO: a blocking send waits no longer than a write may.
    http.set_write_timeout(std::chrono::duration<double>(options.write_timeout_seconds));
    // Headers and body go out in separate writes: without TCP_NODELAY, Nagle's algorithm and
    // the client's delayed ACK add 40 ms to every answer on a kept-alive connection.
    http.set_tcp_nodelay(true);
    http.set_default_headers(
        {{"X-Content-Type-Options", "nosniff"}, {"Referrer-Policy", "no-referrer"}});
    http.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
      const Connection* c = current_connection;
      http.log(req.remote_addr, req.method, req.path, res.status,
               c ? c->sent_for_request() : res.body.size(), c ? c->request_ms() : 0);
    });
    http.set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
      if (!res.body.empty()) return;
      Connection* c = current_connection;
      if (c && c->timed_out()) {
        c->close_after_response();
        send_timeout(res, *c);
      } else if (res.status == 413) {
        // Over max_body_bytes, or (a body on an endpoint that takes none, read by cpp-httplib)
        // a form-encoded body over cpp-httplib's own limit for those.
        std::uint64_t length = req.get_header_value<std::uint64_t>("Content-Length");
        if (length <= options.max_body_bytes &&
            req.get_header_value("Content-Type").find("application/x-www-form-urlencoded") == 0) {
          send_error(res, 413,
                     fmt::format("a form-encoded body over {} bytes; send it as JSON",
                                 CPPHTTPLIB_FORM_URL_ENCODED_PAYLOAD_MAX_LENGTH),
                     ErrorKind::LimitExceeded);
        } else {
          send_too_large(res);
        }
      } else if (res.status == 404) {
        send_error(res, 404, "no such page");
      } else {
        send_error(res, res.status, "bad request (HTTP " + std::to_string(res.status) + ")");
      }
    });
    http.set_exception_handler(
        [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
          std::string what = "unknown exception";
          try {
            std::rethrow_exception(ep);
          } catch (const std::bad_alloc&) {
            what = "out of memory";
          } catch (const std::exception& e) {
            what = e.what();
          } catch (...) {
          }
          send_error(res, 500, "internal error: " + what, ErrorKind::Internal);
        });

    // Step 5a. Requests from other sites. A page on another site can make the browser POST here
    // (a "simple" cross-origin request needs no preflight), and a DNS name rebound to 127.0.0.1
    // makes this server "same origin" for that site: so a server on loopback answers only
    // requests that name a loopback host, and a POST or DELETE that carries an Origin must come
    // from this server's own pages.
    http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      // A request refused here leaves its body unread: the connection ends after the answer.
      auto refuse = [&] {
        if (current_connection) current_connection->close_after_response();
        return httplib::Server::HandlerResponse::Handled;
      };
      const std::string host = req.get_header_value("Host");
      if (is_loopback(options.host) && !is_loopback(host_name(host))) {
        send_error(res, 403,
                   "this server listens on loopback and answers only requests for a loopback host "
                   "(Host: 127.0.0.1 or localhost), not '" +
                       host + "'");
        return refuse();
      }
      if (req.method != "GET" && req.method != "HEAD" && req.has_header("Origin")) {
        const std::string origin = req.get_header_value("Origin");
        if (origin != "http://" + host) {
          send_error(res, 403,
                     "cross-site request refused: Origin '" + origin +
                         "' is not this server (http://" + host + ")");
          return refuse();
        }
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });

    http.Get("/api/v1/commands", [this](const httplib::Request&, httplib::Response& res) {
      res.set_content(commands_json, "application/json");
    });
    http.Post("/api/v1/jobs", [this](const httplib::Request& req, httplib::Response& res,
                                     const httplib::ContentReader& reader) {
      std::string body;
      if (read_body(req, res, reader, body)) start_job(res, body);
    });
    http.Get(R"(/api/v1/jobs/([0-9a-f]{1,32}))",
             [this](const httplib::Request& req, httplib::Response& res) {
               auto job = find_job(req.matches[1]);
               if (!job) return send_error(res, 404, "no such job: " + std::string(req.matches[1]));
               res.status = 200;
               res.set_content(job_json(*job), "application/json");
             });
    http.Get(R"(/api/v1/jobs/([0-9a-f]{1,32})/events)", [this](const httplib::Request& req,
                                                               httplib::Response& res) {
      auto job = find_job(req.matches[1]);
      if (!job) return send_error(res, 404, "no such job: " + std::string(req.matches[1]));
      // A stream holds its connection for as long as the job runs: streams are capped
      // per client and in all, so that they never take every connection.
      auto ticket = event_streams.acquire(req.remote_addr);
      if (!ticket) {
        res.set_header("Retry-After", "1");
        return send_error(res, 503,
                          fmt::format("too many event streams are open ({} per client, {} in all); "
                                      "close one, or poll GET /api/v1/jobs/{}",
                                      event_streams.per_client(), event_streams.overall(),
                                      std::string(req.matches[1])),
                          ErrorKind::LimitExceeded);
      }
      job_events(res, job, std::move(ticket));
    });
    http.Delete(R"(/api/v1/jobs/([0-9a-f]{1,32}))",
                [this](const httplib::Request& req, httplib::Response& res) {
                  auto job = find_job(req.matches[1]);
                  if (!job) {
                    return send_error(res, 404, "no such job: " + std::string(req.matches[1]));
                  }
                  cancel_job(res, job);
                });
    http.Post(R"(/api/v1/([A-Za-z0-9_-]{1,64})/([A-Za-z0-9_-]{1,64}))",
              [this](const httplib::Request& req, httplib::Response& res,
                     const httplib::ContentReader& reader) {
                std::string body;
                if (read_body(req, res, reader, body))
                  call(req, res, req.matches[1], req.matches[2], body);
              });
    http.Get(R"(/api/.*)", [](const httplib::Request& req, httplib::Response& res) {
      send_error(res, 404, "no such endpoint: GET " + req.path);
    });
    http.Get(R"(/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      serve_asset(req, res);
    });
  }

  // Cancels every job and joins its thread. A job's thread takes jobs_mutex as it finishes, so
  // the lock is not held while waiting for them.
  void stop_jobs() {
    std::vector<std::shared_ptr<Job>> all;
    {
      std::lock_guard lock(jobs_mutex);
      for (auto& [id, job] : jobs) {
        job->stop.request_stop();
        all.push_back(job);
      }
    }
    for (auto& job : all) {
      std::unique_lock lock(job->mutex);
      job->changed.wait(lock, [&] { return job->state != Job::State::Running; });
    }
    std::lock_guard lock(jobs_mutex);
    for (auto& [id, job] : jobs) {
      if (job->thread.joinable()) job->thread.join();
    }
  }
};

Server::Server(const api::Registry& registry, TableStore& tables, Options options)
    : impl_(std::make_unique<Impl>(registry, tables, std::move(options))) {}

Server::~Server() {
  stop();
}

Status Server::bind() {
  Impl& s = *impl_;
  if (auto ok = check_limits(s.limits); !ok) return ok;
  std::string host = s.options.host;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  int port = s.options.port;
  if (port < 0 || port > 65535) {
    return make_error("the port must be 0..65535, not " + std::to_string(port));
  }
  if (port == 0) {
    port = s.http.bind_to_any_port(host);
    if (port < 0)
      return make_error("cannot listen on " + host + " (any port)", {}, Error::NO_POSITION,
                        ErrorKind::Io);
  } else if (!s.http.bind_to_port(host, port)) {
    int err = errno;
    if (err == EADDRINUSE) {
      return make_error("cannot listen on " + host + ":" + std::to_string(port) +
                            ": the port is already in use (another server, perhaps another "
                            "`permuzzle serve`, listens there); choose another with --port",
                        {}, Error::NO_POSITION, ErrorKind::Io);
    }
    return make_error("cannot listen on " + host + ":" + std::to_string(port) + " (" +
                          std::strerror(err) +
                          "; is the address one of this machine's, and the port free?)",
                      {}, Error::NO_POSITION, ErrorKind::Io);
  }
  ::listen(s.http.socket_fd(), SOMAXCONN);  // raise the backlog (see HttpServer)
  s.bound_port = port;
  return Ok{};
}

Status Server::listen() {
  if (impl_->bound_port < 0) {
    if (auto ok = bind(); !ok) return ok;
  }
  impl_->http.set_accepting_thread(std::this_thread::get_id());
  if (!impl_->http.listen_after_bind() && !impl_->shutdown.stop_requested()) {
    return make_error("the server stopped unexpectedly", {}, Error::NO_POSITION, ErrorKind::Io);
  }
  return Ok{};
}

void Server::stop() {
  impl_->shutdown.request_stop();
  impl_->stop_jobs();
  impl_->http.stop();
}

int Server::port() const {
  return impl_->bound_port;
}

const Limits& Server::limits() const {
  return impl_->limits;
}

std::string Server::url() const {
  std::string host = impl_->options.host;
  if (host.find(':') != std::string::npos && host.front() != '[') host = "[" + host + "]";
  return "http://" + host + ":" + std::to_string(impl_->bound_port) + "/";
}

}  // namespace permuzzle::server
