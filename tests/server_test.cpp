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
#include <memory>
#include <thread>

#include "cli_runner.hpp"
#include "permuzzle/api/registry.hpp"
#include "server.hpp"

namespace permuzzle::server {
namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// Korf & Felner's 24-puzzle instance 1: far beyond Manhattan-distance IDA*'s reach, so a solve
// of it runs until its time limit or cancellation.
const char* HARD_24 = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// One server on a free port for the test, stopped and joined at the end.
class Running {
 public:
  explicit Running(Options options = {}, api::Registry registry = api::make_registry())
      : registry_(std::move(registry)), store_(std::string()) {
    options.port = 0;
    server_ = std::make_unique<Server>(registry_, store_, options);
    auto ok = server_->bind();
    EXPECT_TRUE(ok.ok()) << (ok.ok() ? "" : ok.error().describe());
    thread_ = std::thread([this] { (void)server_->listen(); });
  }
  ~Running() {
    server_->stop();
    thread_.join();
  }
  int port() const { return server_->port(); }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port());
    c.set_read_timeout(30, 0);
    return c;
  }
  httplib::Result post(const std::string& path, const std::string& body) const {
    return client().Post(path.c_str(), body, "application/json");
  }
  httplib::Result post(const std::string& path, const Json& body) const {
    return post(path, body.dump());
  }

 private:
  api::Registry registry_;
  TableStore store_;
  std::unique_ptr<Server> server_;
  std::thread thread_;
};

// Sends one raw request line (no client-side normalisation of the path) and returns the reply.
std::string raw_get(int port, const std::string& target) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return "";
  }
  std::string request =
      "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  [[maybe_unused]] auto sent = ::send(fd, request.data(), request.size(), 0);
  std::string reply;
  char buffer[4096];
  ssize_t n;
  while ((n = ::recv(fd, buffer, sizeof buffer, 0)) > 0) reply.append(buffer, std::size_t(n));
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
  Running s(o);
  std::thread slow([&] {
    auto r = s.post("/api/v1/sliding/solve",
                    Json{{"position", {HARD_24}}, {"heuristic", "manhattan"}, {"threads", 1}});
    EXPECT_EQ(r->status, 422);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto r = s.post("/api/v1/perm/order", Json{{"perm", "(1,2)"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503);
  EXPECT_NE(error_of(r)["message"].get<std::string>().find("busy"), std::string::npos);
  slow.join();
  r = s.post("/api/v1/perm/order", Json{{"perm", "(1,2)"}});
  EXPECT_EQ(r->status, 200);
}

TEST(Server, PathTraversalAndOddUrlsAre404) {
  Running s;
  for (const char* target :
       {"/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd",
        "/js/../../CMakeLists.txt", "//etc/passwd", "/index.html/", "/index.html%00",
        "/web/index.html", "/apps/server/server.cpp", "/api/v1/../../etc/passwd", "/api/v1/",
        "/api/v2/commands", "/.git/config", "/%ff%fe"}) {
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

TEST(Server, JobIsCancelledWithinOneSecond) {
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
  auto del = s.client().Delete(("/api/v1/jobs/" + id).c_str());
  ASSERT_TRUE(del);
  EXPECT_EQ(del->status, 200);
  EXPECT_LT(seconds_since(start), 1.0);
  Json st = Json::parse(del->body);
  EXPECT_EQ(st["state"], "failed");
  EXPECT_EQ(st["error"]["kind"], "cancelled");
  reader.join();
  EXPECT_LT(seconds_since(start), 1.5);
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

}  // namespace
}  // namespace permuzzle::server
