// The web server (apps/server/) started in-process on a free loopback port, checked from the
// outside through HTTP: every endpoint, the limits (body size, time, busy), the error codes and
// messages, path traversal, and that its JSON is the CLI's `--json` output (tests/cli_runner.hpp
// runs the real executable).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "cli_runner.hpp"
#include "permuzzle/api/registry.hpp"
#include "server.hpp"
#include "server_fixtures.hpp"

namespace permuzzle::server {
namespace server_test {

using Json = nlohmann::json;
using fixture::connect_to;
using fixture::read_all;
using fixture::Running;
using Clock = std::chrono::steady_clock;

// Korf & Felner's 24-puzzle instance 1: far beyond Manhattan-distance IDA*'s reach, so a solve
// of it runs until its time limit or cancellation.
const char* HARD_24 = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Sends one raw request line (no client-side normalisation of the path) and returns the reply.
std::string raw_get(int port, const std::string& target) {
  int fd = connect_to(port);
  if (fd < 0) return "";
  std::string request =
      "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  [[maybe_unused]] auto sent = ::send(fd, request.data(), request.size(), 0);
  std::string reply = read_all(fd);
  ::close(fd);
  return reply;
}

Json error_of(const httplib::Result& r) {
  EXPECT_TRUE(r);
  Json j = Json::parse(r->body);
  EXPECT_TRUE(j.contains("error")) << r->body;
  EXPECT_TRUE(j["error"].contains("kind"));
  EXPECT_TRUE(j["error"].contains("position"));
  EXPECT_FALSE(j["error"]["message"].get<std::string>().empty());
  return j["error"];
}

TEST(Server, LoopbackAddresses) {
  EXPECT_TRUE(is_loopback("127.0.0.1"));
  EXPECT_TRUE(is_loopback("127.1.2.3"));
  EXPECT_TRUE(is_loopback("localhost"));
  EXPECT_TRUE(is_loopback("::1"));
  EXPECT_FALSE(is_loopback("0.0.0.0"));
  EXPECT_FALSE(is_loopback("192.168.1.10"));
  EXPECT_FALSE(is_loopback("::"));
}

TEST(Server, PageAndAssetsAreServedFromTheBinary) {
  Running s;
  auto r = s.client().Get("/");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_NE(r->get_header_value("Content-Type").find("text/html"), std::string::npos);
  EXPECT_NE(r->body.find("<title>permuzzle"), std::string::npos);
  auto same = s.client().Get("/index.html");
  ASSERT_TRUE(same);
  EXPECT_EQ(same->body, r->body);
  auto js = s.client().Get("/js/app.js");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->status, 200);
  EXPECT_NE(js->get_header_value("Content-Type").find("javascript"), std::string::npos);
  // The play page's example definition files (data/puzzles/), as text.
  auto example = s.client().Get("/examples/pyraminx.tws");
  ASSERT_TRUE(example);
  EXPECT_EQ(example->status, 200);
  EXPECT_NE(example->get_header_value("Content-Type").find("text/plain"), std::string::npos);
  EXPECT_NE(example->body.find("Name pyraminx"), std::string::npos);
}

TEST(Server, CommandsListsEveryRegistryCommand) {
  Running s;
  auto r = s.client().Get("/api/v1/commands");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  Json list = Json::parse(r->body);
  ASSERT_TRUE(list.is_array());
  // The same list as the CLI's (another front end over the same registry).
  auto cli = test::run_cli("--json commands");
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  EXPECT_EQ(list, cli.json()["commands"]);
  bool found = false;
  for (const Json& c : list) {
    ASSERT_TRUE(c.contains("family") && c.contains("verb") && c.contains("help") &&
                c.contains("params"));
    if (c["family"] == "group" && c["verb"] == "order") {
      found = true;
      EXPECT_EQ(c["params"][0]["name"], "generators");
    }
  }
  EXPECT_TRUE(found);
}

TEST(Server, CallAnswersTheSameJsonAsTheCli) {
  Running s;
  auto r = s.post("/api/v1/group/order", Json{{"generators", {"(1,2,3)", "(1,2)"}}});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  Json j = Json::parse(r->body);
  auto cli = test::run_cli("--json group order '(1,2,3)' '(1,2)'");
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  EXPECT_EQ(j, cli.json());
  EXPECT_EQ(j["order"], "6");  // |S_3| = 6

  // An option by its long name, a solve that is replayed and optimal: 8-puzzle position with
  // a known distance (two moves from the goal).
  auto solve = s.post("/api/v1/sliding/solve", Json{{"position", {"1 2 3 4 5 6 0 7 8"}}});
  ASSERT_TRUE(solve);
  ASSERT_EQ(solve->status, 200) << solve->body;
  auto cli_solve = test::run_cli("--json --tables none sliding solve '1 2 3 4 5 6 0 7 8'");
  ASSERT_EQ(cli_solve.exit_code, 0) << cli_solve.err;
  Json a = Json::parse(solve->body), b = cli_solve.json();
  a.erase("seconds");
  b.erase("seconds");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a["length"], 2);
}

TEST(Server, OutputPathParametersReturnTheArtifact) {
  Running s;
  auto r = s.post("/api/v1/sliding/bfs", Json{{"size", "2x3"}, {"svg", "-"}});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  Json j = Json::parse(r->body);
  ASSERT_TRUE(j.contains("svg"));
  EXPECT_EQ(j["svg"].get<std::string>().rfind("<svg", 0), 0u);
  // 2x3 sliding puzzle: 360 solvable positions, God's number 21 (known result).
  EXPECT_EQ(j.dump().find("\"svg\":\"-\""), std::string::npos);
  auto cli = test::run_cli("--json sliding bfs 2x3");
  ASSERT_EQ(cli.exit_code, 0);
  Json c = cli.json();
  for (auto& [key, value] : c.items()) {
    if (key != "seconds" && key != "svg") EXPECT_EQ(j[key], value) << key;
  }
}

// A registry with one command taking a file's contents (how a definition file arrives from the
// page) and producing an artifact.
api::Registry file_registry() {
  api::Registry r;
  r.add_family("test", "Test commands");
  api::Param file;
  file.name = "file";
  file.type = api::ParamType::InputFile;
  file.positional = true;
  file.required = true;
  api::Param out;
  out.name = "report";
  out.type = api::ParamType::OutputPath;
  r.add({"test",
         "lines",
         "Count the lines of a file",
         {file, out},
         [](const api::Request& q, api::Session&) -> Result<api::Output> {
           api::InputText in = q.input_file("file");
           api::Output o;
           auto lines = std::count(in.text.begin(), in.text.end(), '\n');
           o.json = {{"name", in.name}, {"lines", lines}};
           if (q.has("report"))
             o.artifacts.push_back({"report", in.name + ": " + std::to_string(lines), "report"});
           return o;
         }});
  return r;
}

TEST(Server, InputFileParametersTakeTheTextAndArtifactsComeBack) {
  Running s({}, file_registry());
  auto r = s.post("/api/v1/test/lines", Json{{"file", "Name x\nSet A 2 1\n"}});
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(Json::parse(r->body)["lines"], 2);
  r = s.post("/api/v1/test/lines",
             Json{{"file", {{"name", "puzzle.tws"}, {"text", "a\nb\nc\n"}}}, {"report", "-"}});
  ASSERT_EQ(r->status, 200) << r->body;
  Json j = Json::parse(r->body);
  EXPECT_EQ(j["name"], "puzzle.tws");
  EXPECT_EQ(j["report"], "puzzle.tws: 3");
  r = s.post("/api/v1/test/lines", Json{{"file", 7}});
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(error_of(r)["message"].get<std::string>().find("file"), std::string::npos);
}

TEST(Server, BadInputIs400WithAMessage) {
  Running s;
  // Malformed JSON: the position of the syntax error is given.
  auto r = s.post("/api/v1/group/order", std::string(R"({"generators": [)"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  Json e = error_of(r);
  EXPECT_EQ(e["kind"], "invalid_input");
  EXPECT_NE(e["message"].get<std::string>().find("malformed JSON"), std::string::npos);
  EXPECT_TRUE(e["position"].is_number());

  // Not an object.
  r = s.post("/api/v1/group/order", std::string("[1, 2]"));
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(error_of(r)["message"].get<std::string>().find("JSON object"), std::string::npos);

  // A wrong type names the parameter.
  r = s.post("/api/v1/group/order", Json{{"generators", 5}});
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(error_of(r)["message"].get<std::string>().find("generators"), std::string::npos);

  // An unknown parameter.
  r = s.post("/api/v1/group/order", Json{{"generator", {"(1,2)"}}});
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(error_of(r)["message"].get<std::string>().find("generator"), std::string::npos);

  // A malformed cycle: the position points into the text.
  r = s.post("/api/v1/group/order", Json{{"generators", {"(1,2"}}});
  EXPECT_EQ(r->status, 400);
  e = error_of(r);
  EXPECT_EQ(e["input"], "(1,2");

  // Unknown family and verb, with a suggestion.
  r = s.post("/api/v1/slidng/solve", Json::object());
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(error_of(r)["message"].get<std::string>().find("did you mean 'sliding'"),
            std::string::npos);
  r = s.post("/api/v1/sliding/slove", Json::object());
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(error_of(r)["message"].get<std::string>().find("did you mean 'solve'"),
            std::string::npos);

  // An unsolvable position is bad input too, with the kind telling which.
  r = s.post("/api/v1/sliding/solve", Json{{"position", {"2 1 3 4 5 6 7 8 0"}}});
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(error_of(r)["kind"], "unsolvable");
}

TEST(Server, BodyOverOneMegabyteIs413) {
  Running s;
  std::string big = R"({"generators": [")" + std::string((1 << 20) + 10, ' ') + R"("]})";
  auto r = s.post("/api/v1/group/order", big);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(error_of(r)["kind"], "limit_exceeded");
  EXPECT_NE(error_of(r)["message"].get<std::string>().find("1048576 bytes"), std::string::npos);
  // Just under the limit is read (and then judged on its content).
  std::string ok = R"J({"generators": ["(1,2)"], "deterministic": true})J";
  ok += std::string((1 << 20) - ok.size() - 10, ' ');
  r = s.post("/api/v1/group/order", ok);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;
}

TEST(Server, OverALimitIs422) {
  Running s;
  // S_10 has 3,628,800 elements: listing them is refused (limit 10,000 by default).
  auto r =
      s.post("/api/v1/group/elements", Json{{"generators", {"(1,2)", "(1,2,3,4,5,6,7,8,9,10)"}}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 422) << r->body;
  EXPECT_EQ(error_of(r)["kind"], "limit_exceeded");
}

TEST(Server, RequestPastItsTimeLimitIsAnsweredWithinOneSecond) {
  Options o;
  o.time_limit_seconds = 1.0;
  Running s(o);
  auto start = Clock::now();
  auto r = s.post("/api/v1/sliding/solve",
                  Json{{"position", {HARD_24}}, {"heuristic", "manhattan"}, {"threads", 1}});
  double took = seconds_since(start);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 422) << r->body;
  EXPECT_EQ(error_of(r)["kind"], "limit_exceeded");
  EXPECT_GE(took, 1.0);
  EXPECT_LT(took, 2.0);
  // A client may ask for less (never more).
  start = Clock::now();
  r = s.post("/api/v1/sliding/solve?time_limit=0.3",
             Json{{"position", {HARD_24}}, {"heuristic", "manhattan"}, {"threads", 1}}.dump());
  EXPECT_EQ(r->status, 422);
  EXPECT_LT(seconds_since(start), 1.3);
  r = s.post("/api/v1/sliding/solve?time_limit=abc", std::string("{}"));
  EXPECT_EQ(r->status, 400);
}

TEST(Server, HundredConcurrentRequestsAreAllAnsweredCorrectly) {
  Running s;
  constexpr int N = 100;
  std::vector<std::thread> clients;
  std::atomic<int> right{0};
  std::vector<std::string> failures(N);
  for (int i = 0; i < N; ++i) {
    clients.emplace_back([&, i] {
      // The order of the cycle (1,...,k) is k; each client asks a different k.
      int k = 2 + i;
      std::string cycle = "(";
      for (int p = 1; p <= k; ++p) cycle += std::to_string(p) + (p < k ? "," : ")");
      auto r = s.post("/api/v1/perm/order", Json{{"perm", cycle}});
      if (!r) {
        failures[i] = "no answer";
        return;
      }
      if (r->status != 200) {
        failures[i] = r->body;
        return;
      }
      Json j = Json::parse(r->body);
      if (j["order"] == std::to_string(k) || j["order"] == k) {
        ++right;
      } else {
        failures[i] = r->body;
      }
    });
  }
  for (auto& t : clients) t.join();
  EXPECT_EQ(right.load(), N);
  for (int i = 0; i < N; ++i) EXPECT_EQ(failures[i], "") << "client " << i;
}

TEST(Server, BusyServerAnswers503) {
  Options o;
  o.max_concurrent_solves = 1;
  o.busy_wait_seconds = 0;
  o.time_limit_seconds = 1.5;
  Running s(o, fixture::test_registry());
  std::thread slow([&] {
    auto r = s.post("/api/v1/test/slow", Json::object());
    EXPECT_EQ(r->status, 422);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto r = s.post("/api/v1/test/slow", Json::object());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503);
  EXPECT_NE(error_of(r)["message"].get<std::string>().find("busy"), std::string::npos);
  slow.join();
  r = s.post("/api/v1/test/slow?time_limit=0.1", Json::object());
  EXPECT_EQ(r->status, 422);
}

TEST(Server, PathTraversalAndOddUrlsAre404) {
  Running s;
  for (const char* target :
       {"/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd",
        "/js/../../CMakeLists.txt", "//etc/passwd", "/index.html/", "/index.html%00",
        "/web/index.html", "/apps/server/server.cpp", "/api/v1/../../etc/passwd", "/api/v1/",
        "/api/v2/commands", "/.git/config", "/%ff%fe", "/build.mjs", "/package.json",
        "/package-lock.json", "/node_modules/cubing/package.json", "/tests/browser.test.mjs"}) {
    std::string reply = raw_get(s.port(), target);
    std::string status = reply.substr(0, reply.find("\r\n"));
    EXPECT_NE(status.find(" 404 "), std::string::npos) << target << ": " << status;
    EXPECT_EQ(reply.find("root:"), std::string::npos) << target;
    EXPECT_EQ(reply.find("cmake_minimum_required"), std::string::npos) << target;
  }
  // GET of a command is not a call.
  auto r = s.client().Get("/api/v1/group/order");
  EXPECT_EQ(r->status, 404);
  error_of(r);
}

TEST(Server, OtherSitesAreRefused) {
  Running s;
  // DNS rebinding: a request naming another host reaches a loopback server.
  httplib::Headers evil_host = {{"Host", "evil.example"}};
  auto r = s.client().Get("/api/v1/commands", evil_host);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 403);
  EXPECT_NE(error_of(r)["message"].get<std::string>().find("loopback"), std::string::npos);
  // A cross-site POST (a form or fetch from another site's page).
  httplib::Headers other_origin = {{"Origin", "http://evil.example"}};
  r = s.client().Post("/api/v1/perm/order", other_origin, R"J({"perm": "(1,2)"})J", "text/plain");
  EXPECT_EQ(r->status, 403);
  EXPECT_NE(error_of(r)["message"].get<std::string>().find("cross-site"), std::string::npos);
  // The app's own pages (Origin = this server) and clients without an Origin are served.
  httplib::Headers own = {{"Origin", "http://127.0.0.1:" + std::to_string(s.port())}};
  r = s.client().Post("/api/v1/perm/order", own, R"J({"perm": "(1,2)"})J", "application/json");
  EXPECT_EQ(r->status, 200) << r->body;
  r = s.client().Get("/api/v1/commands", {{"Host", "localhost:" + std::to_string(s.port())}});
  EXPECT_EQ(r->status, 200);
}

// Reads a job's event stream to its end.
std::string read_events(const Running& s, const std::string& id) {
  std::string stream;
  auto r = s.client().Get(("/api/v1/jobs/" + id + "/events").c_str(),
                          [&](const char* data, std::size_t n) {
                            stream.append(data, n);
                            return true;
                          });
  EXPECT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_NE(r->get_header_value("Content-Type").find("text/event-stream"), std::string::npos);
  return stream;
}

TEST(Server, JobStreamsProgressThenTheResult) {
  Running s;
  auto r = s.post("/api/v1/jobs",
                  Json{{"family", "sliding"}, {"verb", "bfs"}, {"params", {{"size", "3x3"}}}});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 202) << r->body;
  std::string id = Json::parse(r->body)["id"];
  std::string stream = read_events(s, id);
  auto result_at = stream.find("event: result\ndata: ");
  ASSERT_NE(result_at, std::string::npos) << stream;
  std::string data = stream.substr(result_at + 20);
  Json result = Json::parse(data.substr(0, data.find('\n')));
  // The 8-puzzle: 181,440 positions, God's number 31 (Reinefeld 1993).
  EXPECT_EQ(result.dump().find("181440") != std::string::npos ||
                result.dump().find("181,440") != std::string::npos,
            true)
      << result.dump();
  auto progress_at = stream.find("event: progress\ndata: ");
  if (progress_at != std::string::npos) EXPECT_LT(progress_at, result_at);
  // The finished job's state.
  auto state = s.client().Get(("/api/v1/jobs/" + id).c_str());
  ASSERT_EQ(state->status, 200);
  Json st = Json::parse(state->body);
  EXPECT_EQ(st["state"], "done");
  EXPECT_EQ(st["result"], result);
}

// The promise is kept in CPU time: from the DELETE to its answer the process (the server and its
// job run in it) spends under half a second of CPU, whatever the load; the wall-clock bound is
// loose (at a load of 8 on two cores the DELETE once took 1.0 s, the job's last milliseconds of
// CPU spread over a second).
TEST(Server, JobIsCancelledWithinOneSecond) {
  auto process_cpu_seconds = [] {
    timespec t{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
  };
  Running s;
  auto r = s.post(
      "/api/v1/jobs",
      Json{{"family", "sliding"},
           {"verb", "solve"},
           {"params", {{"position", {HARD_24}}, {"heuristic", "manhattan"}, {"threads", 1}}}});
  ASSERT_EQ(r->status, 202) << r->body;
  std::string id = Json::parse(r->body)["id"];
  std::string stream;
  std::thread reader([&] { stream = read_events(s, id); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto start = Clock::now();
  const double cpu_start = process_cpu_seconds();
  auto del = s.client().Delete(("/api/v1/jobs/" + id).c_str());
  ASSERT_TRUE(del);
  const double cpu = process_cpu_seconds() - cpu_start;
  EXPECT_EQ(del->status, 200);
  EXPECT_LT(cpu, 0.5);
  EXPECT_LT(seconds_since(start), 5.0);
  Json st = Json::parse(del->body);
  EXPECT_EQ(st["state"], "failed");
  EXPECT_EQ(st["error"]["kind"], "cancelled");
  reader.join();
  EXPECT_LT(seconds_since(start), 6.0);
  EXPECT_NE(stream.find("event: error"), std::string::npos) << stream;
  EXPECT_NE(stream.find("cancelled"), std::string::npos);
}

TEST(Server, JobErrors) {
  Running s;
  auto r = s.post("/api/v1/jobs", Json{{"family", "sliding"}, {"verb", "nope"}});
  EXPECT_EQ(r->status, 400);
  error_of(r);
  r = s.post("/api/v1/jobs", Json{{"family", "group"}, {"verb", "order"}, {"params", {{"x", 1}}}});
  EXPECT_EQ(r->status, 400);
  r = s.post("/api/v1/jobs", Json{{"verb", "order"}});
  EXPECT_EQ(r->status, 400);
  r = s.post("/api/v1/jobs", std::string("{"));
  EXPECT_EQ(r->status, 400);
  auto g = s.client().Get("/api/v1/jobs/0123456789abcdef");
  EXPECT_EQ(g->status, 404);
  error_of(g);
  g = s.client().Get("/api/v1/jobs/0123456789abcdef/events");
  EXPECT_EQ(g->status, 404);
  auto d = s.client().Delete("/api/v1/jobs/0123456789abcdef");
  EXPECT_EQ(d->status, 404);
}

// --- issue 22: the server stays responsive and bounded -----------------------------------------

TEST(Server, PortIsExclusive) {
  Running first;
  // A second server on the same port fails (with cpp-httplib's default SO_REUSEPORT it would
  // start and take half the connections).
  Options o;
  o.port = first.port();
  TableStore store{std::string()};
  api::Registry registry = fixture::test_registry();
  Server second(registry, store, o);
  auto ok = second.bind();
  ASSERT_FALSE(ok.ok());
  EXPECT_NE(ok.error().message.find("in use"), std::string::npos) << ok.error().message;
  // So does `permuzzle serve` (bounded by `timeout` should it wrongly start).
  auto cli =
      ::permuzzle::test::run_cli_env("timeout 20", "serve --port " + std::to_string(first.port()));
  EXPECT_NE(cli.exit_code, 0);
  EXPECT_NE(cli.exit_code, 124) << "the second server started";
  EXPECT_NE(cli.err.find("already in use"), std::string::npos) << cli.err;
  // The first one still answers.
  auto r = first.post("/api/v1/perm/order", Json{{"perm", "(1,2,3)"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
}

TEST(Server, CheapCommandsNeverWaitBehindSolves) {
  Options o;
  o.max_concurrent_solves = 2;
  o.busy_wait_seconds = 0.2;
  o.time_limit_seconds = 3;
  Running s(o, fixture::test_registry());
  std::vector<std::thread> solves;
  std::atomic<int> stopped{0};
  for (int i = 0; i < 2; ++i) {
    solves.emplace_back([&] {
      auto r = s.post("/api/v1/test/slow", Json::object());
      if (r && r->status == 422) ++stopped;
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  // Every solve slot is taken: a third solve is refused...
  auto third = s.post("/api/v1/test/slow", Json::object());
  ASSERT_TRUE(third);
  EXPECT_EQ(third->status, 503);
  EXPECT_NE(error_of(third)["message"].get<std::string>().find("solve slot"), std::string::npos);
  // ...and quick commands are answered at once, never 503.
  for (int i = 0; i < 20; ++i) {
    auto start = Clock::now();
    auto r = s.post("/api/v1/test/quick", Json{{"n", i}});
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    EXPECT_EQ(Json::parse(r->body)["twice"], 2 * i);
    EXPECT_LT(seconds_since(start), 1.0);
  }
  for (auto& t : solves) t.join();
  EXPECT_EQ(stopped.load(), 2);
}

TEST(Server, StoppedRunAnswers422WithWhatItKnew) {
  Running s({}, fixture::test_registry());
  auto start = Clock::now();
  auto r = s.post("/api/v1/test/slow?time_limit=0.3", Json::object());
  ASSERT_TRUE(r);
  EXPECT_LT(seconds_since(start), 2.0);
  EXPECT_EQ(r->status, 422) << r->body;
  Json j = Json::parse(r->body);
  EXPECT_EQ(j["complete"], false);
  EXPECT_GT(j["ticks"].get<int>(), 0);
  EXPECT_EQ(j["error"]["kind"], "limit_exceeded");
  // As a job, cancelled: the partial answer is in the error event, the state is "failed".
  auto job = s.post("/api/v1/jobs", Json{{"family", "test"}, {"verb", "slow"}});
  ASSERT_EQ(job->status, 202) << job->body;
  std::string id = Json::parse(job->body)["id"];
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto del = s.client().Delete(("/api/v1/jobs/" + id).c_str());
  ASSERT_TRUE(del);
  Json st = Json::parse(del->body);
  EXPECT_EQ(st["state"], "failed");
  EXPECT_EQ(st["status"], 499);
  EXPECT_EQ(st["error"]["kind"], "cancelled");
}

TEST(Server, TimeLimitMustBePositiveAndFinite) {
  Running s({}, fixture::test_registry());
  for (const char* bad : {"inf", "0", "nan", "-1", "-inf", "1e999", ""}) {
    auto r = s.post(std::string("/api/v1/test/quick?time_limit=") + bad, Json{{"n", 1}});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << bad << ": " << r->body;
    EXPECT_NE(error_of(r)["message"].get<std::string>().find("time_limit"), std::string::npos);
  }
  auto r = s.post("/api/v1/test/quick?time_limit=0.5", Json{{"n", 1}});
  EXPECT_EQ(r->status, 200);
}

// Runs a job to its end and returns its final state.
Json finished_job(const Running& s, const Json& job) {
  auto r = s.post("/api/v1/jobs", job);
  EXPECT_EQ(r->status, 202) << r->body;
  std::string id = Json::parse(r->body)["id"];
  for (int i = 0; i < 500; ++i) {
    auto g = s.client().Get(("/api/v1/jobs/" + id).c_str());
    Json st = Json::parse(g->body);
    if (st["state"] != "running") return st;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ADD_FAILURE() << "job " << id << " did not finish";
  return nullptr;
}

TEST(Server, FinishedJobsAreKeptWithinAByteBudget) {
  Options o;
  o.max_kept_job_bytes = 10000;
  Running s(o, fixture::test_registry());
  auto big = [](int bytes) {
    return Json{{"family", "test"}, {"verb", "big"}, {"params", {{"bytes", bytes}}}};
  };
  // Three results of about 4 KB: the budget holds two, so the oldest is dropped.
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    Json st = finished_job(s, big(4000));
    ASSERT_EQ(st["state"], "done") << st.dump();
    EXPECT_EQ(st["result"]["text"].get<std::string>().size(), 4000u);
    ids.push_back(st["id"]);
  }
  EXPECT_EQ(s.client().Get(("/api/v1/jobs/" + ids[0]).c_str())->status, 404);
  EXPECT_EQ(s.client().Get(("/api/v1/jobs/" + ids[1]).c_str())->status, 200);
  EXPECT_EQ(s.client().Get(("/api/v1/jobs/" + ids[2]).c_str())->status, 200);
  // A result larger than the whole budget is not kept: the job fails and says why.
  Json st = finished_job(s, big(20000));
  EXPECT_EQ(st["state"], "failed");
  EXPECT_EQ(st["status"], 422);
  EXPECT_EQ(st["error"]["kind"], "limit_exceeded");
  EXPECT_NE(st["error"]["message"].get<std::string>().find("keeps for finished jobs"),
            std::string::npos)
      << st.dump();
  EXPECT_EQ(st.dump().find("xxxxxxxx"), std::string::npos);
  // ...and the kept ones are still there (the refused result took no room).
  EXPECT_EQ(s.client().Get(("/api/v1/jobs/" + ids[2]).c_str())->status, 200);
}

TEST(Server, MaxMemoryIsSharedOutBetweenTheCalls) {
  Options o;
  o.max_memory_bytes = std::uint64_t(1) << 30;
  o.max_concurrent_solves = 3;
  o.max_running_jobs = 2;
  o.max_cheap_calls = 8;
  Running s(o, fixture::test_registry());
  const Limits& l = s.server().limits();
  EXPECT_EQ(l.max_memory, std::uint64_t(1) << 30);
  EXPECT_EQ(l.kept_jobs, l.max_memory / 8);
  EXPECT_GT(l.expensive_call, std::uint64_t(100) << 20);
  // Every budget that can be handed out at once, and the kept results, fit in the whole.
  EXPECT_LE(
      l.kept_jobs + (l.solve_slots + l.job_slots) * l.expensive_call + l.cheap_slots * l.cheap_call,
      l.max_memory);
  auto r = s.post("/api/v1/test/budget", Json::object());
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(Json::parse(r->body)["memory_budget"], l.expensive_call);
  r = s.post("/api/v1/test/budget_quick", Json::object());
  EXPECT_EQ(Json::parse(r->body)["memory_budget"], l.cheap_call);
  Json st = finished_job(s, Json{{"family", "test"}, {"verb", "budget"}});
  EXPECT_EQ(st["result"]["memory_budget"], l.expensive_call);

  // Too little memory for the slots: the server does not start, and says why.
  Options tiny;
  tiny.max_memory_bytes = std::uint64_t(64) << 20;
  TableStore store{std::string()};
  api::Registry registry = fixture::test_registry();
  Server small(registry, store, tiny);
  auto ok = small.bind();
  ASSERT_FALSE(ok.ok());
  EXPECT_NE(ok.error().message.find("too small"), std::string::npos) << ok.error().message;
}

TEST(Server, JsonIsAcceptedWhateverTheContentType) {
  Running s({}, fixture::test_registry());
  // curl -d sends application/x-www-form-urlencoded; a body over 8 KB is read all the same.
  std::string body = R"({"n": 21})" + std::string(20000, ' ');
  for (const char* type : {"application/x-www-form-urlencoded", "text/plain", ""}) {
    auto r = s.client().Post("/api/v1/test/quick", body, type);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200) << type << ": " << r->body;
    EXPECT_EQ(Json::parse(r->body)["twice"], 42);
  }
  auto job = s.client().Post(
      "/api/v1/jobs",
      R"({"family": "test", "verb": "quick", "params": {"n": 2}})" + std::string(10000, ' '),
      "application/x-www-form-urlencoded");
  EXPECT_EQ(job->status, 202) << job->body;
  // Over the limit: 413 names the limit that was hit.
  std::string huge = R"({"n": 1})" + std::string(std::size_t(1) << 20, ' ');
  auto r = s.client().Post("/api/v1/test/quick", huge, "application/x-www-form-urlencoded");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_NE(error_of(r)["message"].get<std::string>().find("1048576 bytes"), std::string::npos)
      << r->body;
  // A chunked body (no Content-Length) over the limit too.
  std::size_t sent = 0;
  r = s.client().Post(
      "/api/v1/test/quick",
      [&](std::size_t, httplib::DataSink& sink) {
        std::string chunk(64 << 10, ' ');
        sink.write(chunk.data(), chunk.size());
        sent += chunk.size();
        if (sent > (std::size_t(3) << 20)) sink.done();
        return true;
      },
      "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  // Multipart form data is not JSON: refused with the way to send it.
  httplib::MultipartFormDataItems items = {{"n", "2", "", ""}};
  r = s.client().Post("/api/v1/test/quick", items);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(error_of(r)["message"].get<std::string>().find("multipart"), std::string::npos);
}

TEST(Server, AccessLogHasOneLinePerRequest) {
  auto lines = std::make_shared<std::vector<std::string>>();
  auto mutex = std::make_shared<std::mutex>();
  Options o;
  o.log = [lines, mutex](const std::string& line) {
    std::lock_guard lock(*mutex);
    lines->push_back(line);
  };
  Running s(o, fixture::test_registry());
  auto r = s.post("/api/v1/test/quick", Json{{"n", 3}});
  ASSERT_EQ(r->status, 200);
  auto missing = s.client().Get("/no/such\x01page");
  EXPECT_EQ(missing->status, 404);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the log follows the answer
  std::lock_guard lock(*mutex);
  ASSERT_EQ(lines->size(), 2u);
  // "127.0.0.1 POST /api/v1/test/quick 200 <bytes> <ms>ms"
  std::istringstream first((*lines)[0]);
  std::string remote, method, path, ms;
  int status = 0;
  std::uint64_t bytes = 0;
  first >> remote >> method >> path >> status >> bytes >> ms;
  EXPECT_EQ(remote, "127.0.0.1");
  EXPECT_EQ(method, "POST");
  EXPECT_EQ(path, "/api/v1/test/quick");
  EXPECT_EQ(status, 200);
  EXPECT_GT(bytes, r->body.size());  // the headers and the body
  ASSERT_GT(ms.size(), 2u);
  EXPECT_EQ(ms.substr(ms.size() - 2), "ms");
  EXPECT_GE(std::stod(ms), 0.0);
  // Control bytes of a client's path are escaped.
  EXPECT_NE((*lines)[1].find("GET /no/such\\x01page 404"), std::string::npos) << (*lines)[1];
}

TEST(Server, ServeLogsUnlessQuiet) {
  // A few seconds of `permuzzle serve` each (timeout ends them): the limits line, then nothing
  // with --quiet.
  auto loud = ::permuzzle::test::run_cli_env("timeout 3", "serve --port 0 --max-memory 1024");
  EXPECT_EQ(loud.exit_code, 124) << loud.err;
  EXPECT_NE(loud.out.find("listening on http://127.0.0.1:"), std::string::npos);
  EXPECT_NE(loud.err.find("memory 1.1 GB"), std::string::npos) << loud.err;
  auto quiet = ::permuzzle::test::run_cli_env("timeout 2", "serve --port 0 --quiet");
  EXPECT_EQ(quiet.exit_code, 124);
  EXPECT_EQ(quiet.err, "");
  auto small = ::permuzzle::test::run_cli_env("timeout 20", "serve --port 0 --max-memory 10");
  EXPECT_NE(small.exit_code, 0);
  EXPECT_NE(small.err.find("too small"), std::string::npos) << small.err;
}

// Sends `text` a byte at a time, `gap` apart, until the server closes the connection or `limit`
// passes; returns what the server answered.
std::string drip(int fd, const std::string& text, std::chrono::milliseconds gap, double limit) {
  auto start = Clock::now();
  for (char c : text) {
    if (seconds_since(start) > limit) break;
    if (::send(fd, &c, 1, MSG_NOSIGNAL) != 1) break;
    std::this_thread::sleep_for(gap);
  }
  return read_all(fd, 5);
}

TEST(Server, SlowRequestsAreCutAtTheirDeadline) {
  Options o;
  o.header_timeout_seconds = 1;
  o.body_timeout_seconds = 1;
  Running s(o, fixture::test_registry());
  // A head fed a byte every 100 ms (it would take 10 s): answered 408 after about 1 s.
  int fd = connect_to(s.port());
  ASSERT_GE(fd, 0);
  auto start = Clock::now();
  std::string head =
      "POST /api/v1/test/quick HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + std::string(60, 'a') +
      "\r\n\r\n";
  std::string reply = drip(fd, head, std::chrono::milliseconds(100), 10);
  ::close(fd);
  double took = seconds_since(start);
  EXPECT_EQ(reply.rfind("HTTP/1.1 408", 0), 0u) << reply;
  EXPECT_NE(reply.find("request head did not arrive within 1 s"), std::string::npos) << reply;
  EXPECT_GE(took, 0.9);
  EXPECT_LT(took, 4.0);
  // The request line itself, dripped: 408 too.
  fd = connect_to(s.port());
  reply = drip(fd, "POST /api/v1/test/quick HTTP/1.1\r\n", std::chrono::milliseconds(100), 10);
  ::close(fd);
  EXPECT_EQ(reply.rfind("HTTP/1.1 408", 0), 0u) << reply;
  // A body fed slowly: 408 once its own deadline passed.
  fd = connect_to(s.port());
  std::string request =
      "POST /api/v1/test/quick HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 200\r\n\r\n";
  ASSERT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), ssize_t(request.size()));
  start = Clock::now();
  reply = drip(fd, R"({"n": 1})" + std::string(191, ' '), std::chrono::milliseconds(100), 10);
  ::close(fd);
  EXPECT_EQ(reply.rfind("HTTP/1.1 408", 0), 0u) << reply;
  EXPECT_NE(reply.find("request body did not arrive"), std::string::npos) << reply;
  EXPECT_LT(seconds_since(start), 4.0);
  // A connection that sends nothing is closed (without an answer) at the head deadline.
  fd = connect_to(s.port());
  start = Clock::now();
  EXPECT_EQ(read_all(fd, 10), "");
  EXPECT_LT(seconds_since(start), 4.0);
  ::close(fd);
}

TEST(Server, HundredSlowClientsDoNotDelayOthers) {
  Options o;
  o.header_timeout_seconds = 30;  // the slow clients stay for the whole test
  Running s(o, fixture::test_registry());
  // 100 connections, each holding a request head it never finishes (more than the 64 threads
  // the server used to have).
  std::vector<int> slow;
  for (int i = 0; i < 100; ++i) {
    int fd = connect_to(s.port());
    ASSERT_GE(fd, 0);
    std::string part = "POST /api/v1/test/quick HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    ASSERT_EQ(::send(fd, part.data(), part.size(), MSG_NOSIGNAL), ssize_t(part.size()));
    slow.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  // Others are answered at once (goal < 100 ms; a generous bound for a shared machine).
  for (int i = 0; i < 20; ++i) {
    auto start = Clock::now();
    auto r = s.post("/api/v1/test/quick", Json{{"n", i}});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_LT(seconds_since(start), 1.0) << "request " << i;
    auto g = s.client().Get("/api/v1/commands");
    ASSERT_TRUE(g);
    EXPECT_EQ(g->status, 200);
  }
  for (int fd : slow) ::close(fd);
}

TEST(Server, ConnectionsBeyondTheCapAreRefused) {
  Options o;
  o.max_connections = 10;
  o.header_timeout_seconds = 30;
  Running s(o, fixture::test_registry());
  std::vector<int> held;
  for (int i = 0; i < 10; ++i) {
    int fd = connect_to(s.port());
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::send(fd, "G", 1, MSG_NOSIGNAL), 1);
    held.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::string reply = raw_get(s.port(), "/api/v1/commands");
  EXPECT_EQ(reply.rfind("HTTP/1.1 503", 0), 0u) << reply;
  EXPECT_NE(reply.find("10 connections are open"), std::string::npos) << reply;
  for (int fd : held) ::close(fd);
  // Once they are closed, a new connection is served.
  for (int i = 0; i < 100; ++i) {
    reply = raw_get(s.port(), "/api/v1/commands");
    if (reply.rfind("HTTP/1.1 200", 0) == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(reply.rfind("HTTP/1.1 200", 0), 0u) << reply;
}

// The server never reads or writes a host path named by a client (issue 22: bench --file echoed
// the first line of any file; def bfs --checkpoint wrote where the client said).
TEST(Server, HostPathsAreNeverGranted) {
  Running s;
  std::vector<std::string> passwd;
  {
    std::ifstream in("/etc/passwd");
    for (std::string line; std::getline(in, line);) {
      if (line.size() > 3) passwd.push_back(line);
    }
  }
  ASSERT_FALSE(passwd.empty());
  for (const char* verb : {"korf100", "korf24"}) {
    auto r = s.post(std::string("/api/v1/bench/") + verb, Json{{"file", "/etc/passwd"}});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << r->body;
    EXPECT_NE(error_of(r)["message"].get<std::string>().find("file"), std::string::npos);
    for (const std::string& line : passwd) {
      EXPECT_EQ(r->body.find(line), std::string::npos) << verb << " echoes " << line;
    }
    EXPECT_EQ(r->body.find("root:"), std::string::npos);
  }
  // A checkpoint directory: refused, nothing created, synchronously and as a job.
  std::string definition;
  {
    std::ifstream in(std::string(PERMUZZLE_DATA_DIR) + "/puzzles/2x2x2.tws");
    std::stringstream ss;
    ss << in.rdbuf();
    definition = ss.str();
  }
  ASSERT_FALSE(definition.empty());
  char dir_template[] = "/tmp/permuzzle-checkpoint-XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  std::filesystem::path dir = dir_template;
  for (const std::string& target : {dir.string(), (dir / "inner").string()}) {
    Json params = {{"file", definition}, {"checkpoint", target}};
    auto r = s.post("/api/v1/def/bfs", params);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << r->body;
    EXPECT_NE(error_of(r)["message"].get<std::string>().find("checkpoint"), std::string::npos);
    auto job = s.post("/api/v1/jobs", Json{{"family", "def"}, {"verb", "bfs"}, {"params", params}});
    ASSERT_TRUE(job);
    EXPECT_EQ(job->status, 400) << job->body;
    EXPECT_NE(error_of(job)["message"].get<std::string>().find("checkpoint"), std::string::npos);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

}  // namespace server_test
}  // namespace permuzzle::server

namespace permuzzle::server {
namespace server_test {

// Issue 39's hostile requests, over HTTP: each is answered (refused, or stopped within its time
// limit), and the server goes on answering. The registry-wide checks of the same classes are in
// tests/conformance_test.cpp (HostileValuesAreRefusedOrStopped); these prove the server's path.
TEST(Server, HostileRequestsAreAnsweredAndTheServerSurvives) {
  Options o;
  o.time_limit_seconds = 1;
  Running s(o);
  auto disjoint = [](std::size_t count) {
    Json list = Json::array();
    for (std::size_t i = 0; i < count; ++i) {
      list.push_back("(" + std::to_string(2 * i + 1) + "," + std::to_string(2 * i + 2) + ")");
    }
    return list;
  };
  struct Case {
    std::string path;
    std::string body;
    std::vector<int> statuses;  // what the answer may be
  };
  const std::vector<Case> cases = {
      // 2,000 commuting generators: a pairwise check of 2,000,000 pairs (it ignored the limit).
      {"/api/v1/group/order", Json{{"generators", disjoint(2000)}}.dump(), {200, 422}},
      // A prime near 2^64: trial division would take minutes.
      {"/api/v1/group/sylow",
       Json{{"generators", {"(1,2,3)", "(1,2)"}}, {"prime", 18446744073709551557u}}.dump(),
       {200}},
      {"/api/v1/group/sylow",
       Json{{"generators", {"(1,2,3)", "(1,2)"}}, {"prime", 18446744073709551615u}}.dump(),
       {400}},
      // Thread counts that killed the server.
      {"/api/v1/cube/solve",
       Json{{"moves", "R U F"}, {"optimal", true}, {"threads", 3000}}.dump(),
       {400}},
      {"/api/v1/cube/solve",
       Json{{"moves", "R U F"}, {"optimal", true}, {"threads", 18446744073709551615u}}.dump(),
       {400}},
      // A number JSON cannot hold (it gave 500).
      {"/api/v1/cube/solve", R"({"moves": "R U", "budget": 1e999999})", {400}},
      {"/api/v1/def/info",
       Json{{"file",
             {{"name", "x.json"}, {"text", R"({"orbits": {"A": {"numPieces": 1e999999}}})"}}}}
           .dump(),
       {400}},
  };
  for (const Case& c : cases) {
    const auto start = Clock::now();
    auto r = s.post(c.path, c.body);
    ASSERT_TRUE(r) << c.path << " " << c.body.substr(0, 100);
    EXPECT_NE(std::find(c.statuses.begin(), c.statuses.end(), r->status), c.statuses.end())
        << r->status << " " << r->body.substr(0, 300);
    // Within the 1 s limit and the promise (plus the machine's scheduling: the CPU-time checks
    // of the same calls are the conformance suite's).
    EXPECT_LT(seconds_since(start), 6.0) << c.path;
    if (r->status != 200) EXPECT_TRUE(Json::parse(r->body).contains("error"));
  }
  // Still serving.
  auto alive = s.post("/api/v1/perm/order", Json{{"perm", "(1,2,3)"}});
  ASSERT_TRUE(alive);
  EXPECT_EQ(alive->status, 200);
}

// A client that opens event streams by the hundred gets its share, then 503: every other
// request is still answered (issue 39: 300 streams of one client left others unanswered).
TEST(Server, EventStreamsAreCappedPerClientAndInAll) {
  Options o;
  o.max_event_streams_per_client = 3;
  o.max_event_streams = 5;
  o.max_running_jobs = 1;
  Running s(o);
  auto job = s.post("/api/v1/jobs",
                    Json{{"family", "sliding"},
                         {"verb", "solve"},
                         {"params", {{"position", {HARD_24}}, {"heuristic", "manhattan"}}}});
  ASSERT_TRUE(job);
  ASSERT_EQ(job->status, 202) << job->body;
  const std::string id = Json::parse(job->body)["id"];
  const std::string request =
      "GET /api/v1/jobs/" + id + "/events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  std::vector<int> held;
  auto open_stream = [&](const char* from) {
    int fd = fixture::connect_from(from, s.port());
    EXPECT_GE(fd, 0) << from;
    EXPECT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), ssize_t(request.size()));
    // The first bytes: a stream's status line, or a refusal.
    timeval tv{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char buffer[512] = {};
    const ssize_t n = ::recv(fd, buffer, sizeof buffer - 1, 0);
    std::string got(buffer, n > 0 ? std::size_t(n) : 0);
    // A refusal's body may come in a later segment (headers and body are separate writes): it
    // is read to the end, since the server closes the connection after it.
    if (got.rfind("HTTP/1.1 503", 0) == 0) {
      for (ssize_t more; (more = ::recv(fd, buffer, sizeof buffer - 1, 0)) > 0;) {
        got.append(buffer, std::size_t(more));
      }
    }
    held.push_back(fd);
    return got;
  };
  // One client (127.0.0.1): three streams, then refused.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(open_stream("127.0.0.1").rfind("HTTP/1.1 200", 0), 0u);
  std::string refused = open_stream("127.0.0.1");
  EXPECT_EQ(refused.rfind("HTTP/1.1 503", 0), 0u) << refused;
  EXPECT_NE(refused.find("event streams"), std::string::npos) << refused;
  // Another client (127.0.0.2, also this machine) gets the two left of the five in all.
  for (int i = 0; i < 2; ++i) EXPECT_EQ(open_stream("127.0.0.2").rfind("HTTP/1.1 200", 0), 0u);
  EXPECT_EQ(open_stream("127.0.0.2").rfind("HTTP/1.1 503", 0), 0u);
  // Other requests are answered meanwhile.
  auto quick = s.post("/api/v1/perm/order", Json{{"perm", "(1,2)"}});
  ASSERT_TRUE(quick);
  EXPECT_EQ(quick->status, 200);
  // A closed stream gives its place back.
  for (int fd : held) ::close(fd);
  held.clear();
  bool reopened = false;
  for (int i = 0; i < 100 && !reopened; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const std::string again = open_stream("127.0.0.1");
    reopened = again.rfind("HTTP/1.1 200", 0) == 0;
    for (int fd : held) ::close(fd);
    held.clear();
  }
  EXPECT_TRUE(reopened);
  auto del = s.client().Delete(("/api/v1/jobs/" + id).c_str());
  ASSERT_TRUE(del);
}

// One client (one address) cannot take every connection: past its share it is refused, while
// another address is still served (issue 39).
TEST(Server, ConnectionsAreCappedPerClient) {
  Options o;
  o.max_connections = 20;
  o.max_connections_per_client = 5;
  o.header_timeout_seconds = 30;
  Running s(o);
  std::vector<int> held;
  for (int i = 0; i < 5; ++i) {
    int fd = connect_to(s.port());
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::send(fd, "G", 1, MSG_NOSIGNAL), 1);
    held.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::string reply = raw_get(s.port(), "/api/v1/commands");
  EXPECT_EQ(reply.rfind("HTTP/1.1 503", 0), 0u) << reply.substr(0, 300);
  EXPECT_NE(reply.find("this client already has 5 connections open"), std::string::npos)
      << reply.substr(0, 300);
  // Another address on this machine is served.
  int fd = fixture::connect_from("127.0.0.2", s.port());
  ASSERT_GE(fd, 0);
  const std::string request =
      "GET /api/v1/commands HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  ASSERT_EQ(::send(fd, request.data(), request.size(), 0), ssize_t(request.size()));
  std::string other = read_all(fd);
  ::close(fd);
  EXPECT_EQ(other.rfind("HTTP/1.1 200", 0), 0u) << other.substr(0, 300);
  for (int h : held) ::close(h);
}

}  // namespace server_test
}  // namespace permuzzle::server
