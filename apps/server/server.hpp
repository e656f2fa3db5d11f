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
// Errors are {"error": {"kind", "message", "position", "input"}} with 400 (bad input, malformed
// JSON, wrong types, unknown family or verb, unsolvable), 413 (body over max_body_bytes), 422
// (over a limit, including the time limit), 404 (no such path or job), 503 (busy), 500.
#pragma once

#include <cstddef>
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
  unsigned max_concurrent_solves = 0;   // synchronous calls at once; 0 = hardware threads
  double busy_wait_seconds = 2;         // how long a call waits for a free slot before 503
  unsigned max_running_jobs = 2;        // jobs at once (more: 503)
  unsigned max_kept_jobs = 64;          // finished jobs kept for GET; oldest dropped first
  std::size_t max_body_bytes = std::size_t(1) << 20;
  unsigned http_threads = 64;  // connections served at once (keep-alive, event streams)
  std::string data_dir;        // committed data files ("" = api::default_data_dir())
};

// True for 127.0.0.0/8, ::1 and "localhost".
bool is_loopback(const std::string& host);

class Server {
 public:
  Server(const api::Registry& registry, TableStore& tables, Options options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the socket (errors: the address is taken or invalid). After this, port() is known.
  Status bind();
  // Serves until stop() (blocks the calling thread).
  Status listen();
  // Stops listening, cancels every job and waits for them.
  void stop();
  int port() const;
  // "http://HOST:PORT/"
  std::string url() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace permuzzle::server
