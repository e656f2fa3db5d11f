// Shared by the server's tests (server_test.cpp, server_soak_test.cpp): a server started
// in-process on a free loopback port, raw sockets to it, and a registry of test commands whose
// cost class and running time the tests choose (the real commands' cost marks are not what these
// tests are about).
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "permuzzle/api/registry.hpp"
#include "server.hpp"

namespace permuzzle::server::fixture {

using Json = nlohmann::json;

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
  const Server& server() const { return *server_; }
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

// A TCP connection to the server on 127.0.0.1 (-1 when refused).
inline int connect_to(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// The same from a local address of this machine's own (127.0.0.2: another client to the server).
inline int connect_from(const char* local_address, int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in local{};
  local.sin_family = AF_INET;
  ::inet_pton(AF_INET, local_address, &local.sin_addr);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Everything the server sends until it closes the connection (or `seconds` pass).
inline std::string read_all(int fd, double seconds = 30) {
  timeval tv{static_cast<time_t>(seconds), 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::string reply;
  char buffer[4096];
  ssize_t n;
  while ((n = ::recv(fd, buffer, sizeof buffer, 0)) > 0) reply.append(buffer, std::size_t(n));
  return reply;
}

// Peak and current resident memory of this process (the server runs in it), in bytes.
inline std::uint64_t rss_bytes(const char* field = "VmRSS:") {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field, 0) == 0) return std::stoull(line.substr(std::string(field).size())) << 10;
  }
  return 0;
}

// Test commands (family "test"):
//   quick   Cheap:     {"n"} -> {"twice": 2n}
//   slow    Expensive: runs until stopped (time limit or cancellation), then answers what it
//                      knew: {"complete": false, "ticks": k} with Output::stopped set
//   budget  Expensive, budget_quick Cheap: {"memory_budget": the run's memory budget}
//   big     Expensive: {"bytes"} -> {"text": that many 'x'}
inline api::Registry test_registry() {
  api::Registry r;
  r.add_family("test", "Test commands");
  api::Param n;
  n.name = "n";
  n.type = api::ParamType::Unsigned;
  n.required = true;
  api::Command quick{"test",
                     "quick",
                     "Twice n",
                     {n},
                     [](const api::Request& q, api::Session&) -> Result<api::Output> {
                       api::Output o;
                       o.json = {{"twice", 2 * q.unsigned_integer("n")}};
                       return o;
                     }};
  quick.cost = api::Cost::Cheap;
  r.add(std::move(quick));
  api::Command slow{"test",
                    "slow",
                    "Runs until stopped",
                    {},
                    [](const api::Request&, api::Session& s) -> Result<api::Output> {
                      std::uint64_t ticks = 0;
                      while (!s.run.should_stop()) {
                        std::this_thread::sleep_for(std::chrono::milliseconds(5));
                        ++ticks;
                      }
                      api::Output o;
                      o.json = {{"complete", false}, {"ticks", ticks}};
                      o.stopped = s.run.stop_error();
                      return o;
                    }};
  slow.hard_example = Json::object();
  r.add(std::move(slow));
  auto budget = [](const api::Request&, api::Session& s) -> Result<api::Output> {
    api::Output o;
    o.json = {{"memory_budget", s.run.memory_budget()}};
    return o;
  };
  r.add({"test", "budget", "The run's memory budget", {}, budget});
  api::Command budget_quick{"test", "budget_quick", "The run's memory budget", {}, budget};
  budget_quick.cost = api::Cost::Cheap;
  r.add(std::move(budget_quick));
  api::Param bytes;
  bytes.name = "bytes";
  bytes.type = api::ParamType::Unsigned;
  bytes.required = true;
  r.add({"test",
         "big",
         "A result of the given size",
         {bytes},
         [](const api::Request& q, api::Session&) -> Result<api::Output> {
           api::Output o;
           o.json = {{"text", std::string(q.unsigned_integer("bytes"), 'x')}};
           return o;
         }});
  return r;
}

}  // namespace permuzzle::server::fixture
