// The web front end: an HTTP server (cpp-httplib) over the API registry, plus the web app's
// static files, which are compiled into the binary (assets.hpp), so nothing is read from disk.
//
// Endpoints (the JSON is exactly the CLI's `--json`):
//   GET    /                          the app (index.html), other embedded assets by exact path
//   GET    /api/v1/commands           [{"family", "verb", "help", "params"}] (Registry::describe)
//   POST   /api/v1/<family>/<verb>    parameters as a JSON object -> the command's JSON result;
//                                     OutputPath parameters get the artifact's content
//   POST   /api/v1/jobs               {"family", "verb", "params"} -> 202 {"id", ...}
//   GET    /api/v1/jobs/<id>          the job's state (and its result once finished)
//   GET    /api/v1/jobs/<id>/events   Server-Sent Events: "progress" events, then one "result"
//                                     or "error" event
//   DELETE /api/v1/jobs/<id>          cancels (the job's stop token); answers once it stopped
// The body is read as JSON whatever its Content-Type (curl -d sends a form type).
// Errors are {"error": {"kind", "message", "position", "input"}} with 400 (bad input, malformed
// JSON, wrong types, unknown family or verb, unsolvable, a host path), 408 (the request's head
// or body did not arrive in time), 413 (body over max_body_bytes), 422 (over a limit, including
// the time limit; with the partial result when the run stopped), 404 (no such path or job), 503
// (busy: no slot, too many jobs or connections), 500.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/table_store.hpp"

namespace permuzzle::server {

struct Options {
  std::string host = "127.0.0.1";
  int port = 8080;                      // 0 = any free port (see Server::port())
  double time_limit_seconds = 10;       // per synchronous request
  double job_time_limit_seconds = 600;  // per job
  // Synchronous calls of Cost::Expensive commands at once; 0 = hardware threads.
  unsigned max_concurrent_solves = 0;
  // Synchronous calls of Cost::Cheap commands at once, in slots of their own so that they never
  // wait behind a solve; 0 = four per hardware thread (at least 8).
  unsigned max_cheap_calls = 0;
  double busy_wait_seconds = 2;   // how long a call waits for a free slot before 503
  unsigned max_running_jobs = 2;  // jobs at once (more: 503)
  unsigned max_kept_jobs = 64;    // finished jobs kept for GET; oldest dropped first
  // Bytes of the results (their JSON text) of the finished jobs kept; the oldest are dropped
  // first, and a result larger than this is not kept (the job fails with a limit_exceeded
  // error). 0 = an eighth of max_memory_bytes.
  std::uint64_t max_kept_job_bytes = 0;
  // The whole server's memory: every call runs with a RunContext memory budget that is its
  // share of it (see Server::limits()), and the kept jobs' results are within it too.
  // 0 = default_memory_budget().
  std::uint64_t max_memory_bytes = 0;
  std::size_t max_body_bytes = std::size_t(1) << 20;
  // Connections open at once; each is served by a thread of its own (keep-alive connections and
  // event streams hold one), so slow clients never delay others until this many are open. More
  // are answered 503 and closed.
  unsigned max_connections = 256;
  // Of those, what one client (one remote address) may hold, so that it cannot take them all.
  unsigned max_connections_per_client = 192;
  // Event streams (GET /api/v1/jobs/<id>/events) open at once, in all and per client: each holds
  // a connection while its job runs. More are answered 503.
  unsigned max_event_streams = 64;
  unsigned max_event_streams_per_client = 16;
  double header_timeout_seconds = 5;  // the request line and headers must arrive within this
  double body_timeout_seconds = 20;   // the body within this, once the headers arrived
  double write_timeout_seconds = 5;   // a client that reads nothing for this long is dropped
  double keep_alive_seconds = 5;      // an idle kept-alive connection is closed after this
  std::string data_dir;               // committed data files ("" = api::default_data_dir())
  // Access log: one line per request (remote address, method, path, status, bytes sent,
  // milliseconds), and one per refused connection. Null: no log. Called from many threads.
  std::function<void(const std::string&)> log;
};

// The shares of Options::max_memory_bytes (Server::limits()).
struct Limits {
  std::uint64_t max_memory = 0;      // the whole server
  std::uint64_t kept_jobs = 0;       // results of finished jobs kept
  std::uint64_t cheap_call = 0;      // memory budget of one cheap call
  std::uint64_t expensive_call = 0;  // memory budget of one solve or job
  unsigned cheap_slots = 0;
  unsigned solve_slots = 0;
  unsigned job_slots = 0;
  // "2 solves and 2 jobs at once with 4.5 GB each, ..." (printed by `permuzzle serve`).
  std::string describe() const;
};

// True for 127.0.0.0/8, ::1 and "localhost".
bool is_loopback(const std::string& host);

class Server {
 public:
  Server(const api::Registry& registry, TableStore& tables, Options options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Checks the options, then binds the socket exclusively (errors: the port is taken, even by
  // another server that would share it; the address is invalid; the memory does not divide into
  // the slots). After this, port() is known.
  Status bind();
  // Serves until stop() (blocks the calling thread).
  Status listen();
  // Stops listening, cancels every job and waits for them.
  void stop();
  int port() const;
  const Limits& limits() const;
  // "http://HOST:PORT/"
  std::string url() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace permuzzle::server
