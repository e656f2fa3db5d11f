// The HTTP front end over the API registry (see server.hpp for the endpoints).
//
// Threads: cpp-httplib serves each connection on a thread of its pool (Options::http_threads).
// A synchronous call holds one of max_concurrent_solves slots while it runs (waiting at most
// busy_wait_seconds for one, else 503) and runs under the per-request time limit. A job runs on
// its own thread, owned by the Job and joined before the Job is dropped; its progress is kept as
// the latest report only (a sequence number tells event streams that it changed), so a chatty
// solver never grows memory.
#include "server.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <httplib.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
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
  }
  if (!j.is_object()) {
    return make_error(std::string("the request body must be a JSON object of ") + what + ", not " +
                      j.type_name());
  }
  return j;
}

// The cpp-httplib server, with access to its listening socket (to raise the listen backlog,
// which the library fixes at 5: 100 clients connecting at once would otherwise wait for SYN
// retries).
class HttpServer : public httplib::Server {
 public:
  int socket_fd() const { return svr_sock_; }
};

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
  int status = 200;        // HTTP status of the outcome
  Json outcome = nullptr;  // the result, or {"error": ...}
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

// The host name of a Host header: "127.0.0.1:8080" -> "127.0.0.1", "[::1]:8080" -> "::1".
std::string host_name(const std::string& host) {
  if (!host.empty() && host.front() == '[') {
    auto close = host.find(']');
    return close == std::string::npos ? host : host.substr(1, close - 1);
  }
  auto colon = host.find(':');
  return colon == std::string::npos ? host : host.substr(0, colon);
}

}  // namespace

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
  HttpServer http;
  int bound_port = -1;
  std::string commands_json;
  std::unordered_map<std::string_view, const Asset*> asset_index;
  std::counting_semaphore<4096> solve_slots;
  std::stop_source shutdown;  // cancels synchronous calls when the server stops

  std::mutex jobs_mutex;
  std::map<std::string, std::shared_ptr<Job>> jobs;
  std::deque<std::string> job_order;  // creation order, for dropping the oldest finished job
  std::mt19937_64 id_rng{std::random_device{}()};

  Impl(const api::Registry& r, TableStore& t, Options o)
      : registry(r),
        tables(t),
        options(std::move(o)),
        solve_slots(static_cast<std::ptrdiff_t>(
            std::min<unsigned>(4096, options.max_concurrent_solves ? options.max_concurrent_solves
                                                                   : hardware_threads()))) {
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

  // Step 2. A synchronous registry call under the time limit and a solve slot.
  void call(const httplib::Request& req, httplib::Response& res, const std::string& family,
            const std::string& verb) {
    const api::Command* command = registry.find(family, verb);
    if (!command) {
      send_error(res, 400, unknown_command(family, verb));
      return;
    }
    auto params = parse_object(req.body, "parameters");
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
    auto wait = std::chrono::duration<double>(options.busy_wait_seconds);
    if (!solve_slots.try_acquire_for(wait)) {
      send_error(res, 503, "the server is busy (every solve slot is taken); try again shortly",
                 ErrorKind::LimitExceeded);
      return;
    }
    struct Release {
      std::counting_semaphore<4096>& s;
      ~Release() { s.release(); }
    } release{solve_slots};
    api::Session session{tables, RunContext{}, options.data_dir};
    session.run.with_stop_token(shutdown.get_token());
    if (limit > 0) session.run.with_time_limit(std::chrono::duration<double>(limit));
    auto out = registry.call(family, verb, *params, session);
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

  // Step 3. Jobs.
  std::shared_ptr<Job> find_job(const std::string& id) {
    std::lock_guard lock(jobs_mutex);
    auto it = jobs.find(id);
    return it == jobs.end() ? nullptr : it->second;
  }

  static Json job_json(Job& job) {
    std::lock_guard lock(job.mutex);
    Json j = {{"id", job.id},
              {"family", job.family},
              {"verb", job.verb},
              {"state", state_name(job.state)},
              {"progress", job.progress}};
    if (job.state == Job::State::Done) j["result"] = job.outcome;
    if (job.state == Job::State::Failed) j["error"] = job.outcome["error"];
    if (job.state != Job::State::Running) {
      j["status"] = job.status;
      j["seconds"] = job.seconds;
    }
    return j;
  }

  void start_job(const httplib::Request& req, httplib::Response& res) {
    auto body = parse_object(req.body, "the form {\"family\", \"verb\", \"params\"}");
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
    if (auto valid = registry.validate(*command, params); !valid) {
      return send_error(res, valid.error());
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
      drop_old_jobs();
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

  // Caller holds jobs_mutex: drops the oldest finished jobs while too many are kept.
  void drop_old_jobs() {
    for (auto it = job_order.begin();
         jobs.size() >= options.max_kept_jobs && it != job_order.end();) {
      auto& job = jobs.at(*it);
      bool finished;
      {
        std::lock_guard lock(job->mutex);
        finished = job->state != Job::State::Running;
      }
      if (!finished) {
        ++it;
        continue;
      }
      if (job->thread.joinable()) job->thread.join();
      jobs.erase(*it);
      it = job_order.erase(it);
    }
  }

  void run_job(Job& job, const Json& params) {
    Stopwatch watch;
    api::Session session{tables, RunContext{}, options.data_dir};
    session.run.with_stop_token(job.stop.get_token());
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
    auto out = registry.call(job.family, job.verb, params, session);
    std::lock_guard lock(job.mutex);
    job.seconds = watch.seconds();
    if (out && out->stopped) {
      for (const api::Artifact& a : out->artifacts) out->json[a.param] = a.content;
      job.outcome = std::move(out->json);
      job.outcome["error"] = error_json(*out->stopped)["error"];
      job.state = Job::State::Failed;
      job.status =
          out->stopped->kind == ErrorKind::Cancelled ? 499 : http_status(out->stopped->kind);
    } else if (out) {
      for (const api::Artifact& a : out->artifacts) out->json[a.param] = a.content;
      job.outcome = std::move(out->json);
      job.state = Job::State::Done;
      job.status = 200;
    } else {
      job.outcome = error_json(out.error());
      job.state = Job::State::Failed;
      job.status = out.error().kind == ErrorKind::Cancelled ? 499 : http_status(out.error().kind);
    }
    job.changed.notify_all();
  }

  void job_events(const httplib::Request&, httplib::Response& res, std::shared_ptr<Job> job) {
    struct Cursor {
      std::uint64_t sent_seq = 0;
    };
    auto cursor = std::make_shared<Cursor>();
    res.set_header("Cache-Control", "no-cache");
    res.set_header("X-Accel-Buffering", "no");
    res.set_chunked_content_provider(
        "text/event-stream", [this, job, cursor](std::size_t, httplib::DataSink& sink) {
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
            Json data = job->outcome;
            bool ok = job->state == Job::State::Done;
            if (!ok) data["status"] = job->status;
            chunk += std::string("event: ") + (ok ? "result" : "error") + "\ndata: " + dump(data) +
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
      // Answer once the job stopped (solvers check their stop token every few milliseconds),
      // or after one second with the state it has then.
      std::unique_lock lock(job->mutex);
      job->changed.wait_for(lock, std::chrono::seconds(1),
                            [&] { return job->state != Job::State::Running; });
    }
    send_json(res, 200, job_json(*job));
  }

  // Step 4. The routes.
  void routes() {
    http.new_task_queue = [n = options.http_threads] { return new httplib::ThreadPool(n); };
    http.set_payload_max_length(options.max_body_bytes);
    http.set_keep_alive_max_count(1000);
    // Headers and body go out in separate writes: without TCP_NODELAY, Nagle's algorithm and
    // the client's delayed ACK add 40 ms to every answer on a kept-alive connection.
    http.set_tcp_nodelay(true);
    http.set_default_headers(
        {{"X-Content-Type-Options", "nosniff"}, {"Referrer-Policy", "no-referrer"}});
    http.set_error_handler([this](const httplib::Request&, httplib::Response& res) {
      if (!res.body.empty()) return;
      if (res.status == 413) {
        send_error(
            res, 413,
            "the request body is larger than " + std::to_string(options.max_body_bytes) + " bytes",
            ErrorKind::LimitExceeded);
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

    // Step 4a. Requests from other sites. A page on another site can make the browser POST here
    // (a "simple" cross-origin request needs no preflight), and a DNS name rebound to 127.0.0.1
    // makes this server "same origin" for that site: so a server on loopback answers only
    // requests that name a loopback host, and a POST or DELETE that carries an Origin must come
    // from this server's own pages.
    http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      const std::string host = req.get_header_value("Host");
      if (is_loopback(options.host) && !is_loopback(host_name(host))) {
        send_error(res, 403,
                   "this server listens on loopback and answers only requests for a loopback host "
                   "(Host: 127.0.0.1 or localhost), not '" +
                       host + "'");
        return httplib::Server::HandlerResponse::Handled;
      }
      if (req.method != "GET" && req.method != "HEAD" && req.has_header("Origin")) {
        const std::string origin = req.get_header_value("Origin");
        if (origin != "http://" + host) {
          send_error(res, 403,
                     "cross-site request refused: Origin '" + origin +
                         "' is not this server (http://" + host + ")");
          return httplib::Server::HandlerResponse::Handled;
        }
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });

    http.Get("/api/v1/commands", [this](const httplib::Request&, httplib::Response& res) {
      res.set_content(commands_json, "application/json");
    });
    http.Post("/api/v1/jobs",
              [this](const httplib::Request& req, httplib::Response& res) { start_job(req, res); });
    http.Get(R"(/api/v1/jobs/([0-9a-f]{1,32}))",
             [this](const httplib::Request& req, httplib::Response& res) {
               auto job = find_job(req.matches[1]);
               if (!job) return send_error(res, 404, "no such job: " + std::string(req.matches[1]));
               send_json(res, 200, job_json(*job));
             });
    http.Get(R"(/api/v1/jobs/([0-9a-f]{1,32})/events)",
             [this](const httplib::Request& req, httplib::Response& res) {
               auto job = find_job(req.matches[1]);
               if (!job) return send_error(res, 404, "no such job: " + std::string(req.matches[1]));
               job_events(req, res, job);
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
              [this](const httplib::Request& req, httplib::Response& res) {
                call(req, res, req.matches[1], req.matches[2]);
              });
    http.Get(R"(/api/.*)", [](const httplib::Request& req, httplib::Response& res) {
      send_error(res, 404, "no such endpoint: GET " + req.path);
    });
    http.Get(R"(/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      serve_asset(req, res);
    });
  }

  void stop_jobs() {
    std::lock_guard lock(jobs_mutex);
    for (auto& [id, job] : jobs) job->stop.request_stop();
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
    return make_error("cannot listen on " + host + ":" + std::to_string(port) +
                          " (is the port in use, or the address not one of this machine's?)",
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

std::string Server::url() const {
  std::string host = impl_->options.host;
  if (host.find(':') != std::string::npos && host.front() != '[') host = "[" + host + "]";
  return "http://" + host + ":" + std::to_string(impl_->bound_port) + "/";
}

}  // namespace permuzzle::server
