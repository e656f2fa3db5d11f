// One contract for every command, checked over the whole registry: a new command is checked here
// without test code of its own. Each command declares, where it is registered, a hard example
// (parameters of a call that runs far past a second unless stopped) and invalid examples; this
// suite runs them through Registry::call as the server would (no host paths granted):
// - every invalid example is refused with InvalidInput;
// - a hard example under a 1 s time limit answers within 1.5 s with LimitExceeded (an error, or
//   the output of what it knew with Output::stopped), its peak resident memory within the
//   256 MB budget + 100 MB;
// - a hard example cancelled through the stop token after 0.3 s answers within 1 s;
// - a host path parameter is refused without the front end's grant and nothing is created there.
// Every test runs in its own process (gtest_discover_tests), so peak memory is the command's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "permuzzle/api/registry.hpp"

namespace permuzzle {
namespace {

namespace fs = std::filesystem;

constexpr double TIME_LIMIT_SECONDS = 1.0;
constexpr double ANSWER_WITHIN_SECONDS = 1.5;  // the time limit plus the promised overrun
constexpr double CANCEL_AFTER_SECONDS = 0.3;
constexpr double CANCEL_ANSWER_WITHIN_SECONDS = 1.0;  // after the stop was requested
constexpr std::uint64_t MEMORY_BUDGET_BYTES = std::uint64_t(256) << 20;
constexpr std::uint64_t MEMORY_SLACK_BYTES = std::uint64_t(100) << 20;
// A call that has not answered by then is reported and the test process ends (a hang would
// otherwise hold the whole suite until CTest's timeout).
constexpr double WATCHDOG_SECONDS = 30.0;

std::vector<std::string> command_names() {
  std::vector<std::string> names;
  const api::Registry registry = api::make_registry();  // alive for the whole loop
  for (const api::Command& c : registry.commands()) {
    names.push_back(c.family + "_" + c.verb);
  }
  return names;
}

// "VmHWM" or "VmRSS" of this process in bytes, from /proc/self/status (0 when unknown).
std::uint64_t status_bytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) {
      return std::stoull(line.substr(field.size() + 1)) * 1024;  // "VmHWM:   1234 kB"
    }
  }
  return 0;
}

// Resets the peak resident size to the current one (Linux 4.0+: "5" > /proc/self/clear_refs).
bool reset_peak_memory() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

// A temporary table directory and data directory per test, removed afterwards.
class Conformance : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const std::string name = GetParam();
    for (const api::Command& c : registry_.commands()) {
      if (c.family + "_" + c.verb == name) command_ = &c;
    }
    ASSERT_NE(command_, nullptr) << name;
    dir_ = fs::path(::testing::TempDir()) /
           ("permuzzle-conformance-" + name + "-" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "tables");
    store_ = std::make_unique<TableStore>((dir_ / "tables").string());
  }
  void TearDown() override {
    store_.reset();  // stops background builds before the directory goes
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  struct Outcome {
    Result<api::Output> result = make_error("not run");
    double seconds = 0;             // from the start of the call
    double after_stop_seconds = 0;  // from the stop request (cancellation runs)
  };

  // Runs one call on a worker thread with a watchdog. `cancel_after` > 0: the stop token is
  // triggered after that many seconds.
  Outcome run(const nlohmann::json& params, std::optional<double> time_limit,
              double cancel_after = 0) {
    std::stop_source stop;
    api::Session session{*store_, RunContext{}, api::default_data_dir()};
    session.run.with_stop_token(stop.get_token()).with_memory_budget(MEMORY_BUDGET_BYTES);
    if (time_limit) session.run.with_time_limit(std::chrono::duration<double>(*time_limit));
    Outcome outcome;
    std::mutex mutex;
    std::condition_variable done_cv;
    bool done = false;
    Stopwatch watch;
    std::thread worker([&] {
      auto r = registry_.call(command_->family, command_->verb, params, session);
      std::lock_guard lock(mutex);
      outcome.result = std::move(r);
      outcome.seconds = watch.seconds();
      done = true;
      done_cv.notify_all();
    });
    std::unique_lock lock(mutex);
    if (cancel_after > 0) {
      done_cv.wait_for(lock, std::chrono::duration<double>(cancel_after), [&] { return done; });
      if (!done) stop.request_stop();
    }
    double stop_time = watch.seconds();
    if (!done_cv.wait_for(lock, std::chrono::duration<double>(WATCHDOG_SECONDS),
                          [&] { return done; })) {
      std::fprintf(stderr, "%s %s did not answer within %.0f s: %s\n", command_->family.c_str(),
                   command_->verb.c_str(), WATCHDOG_SECONDS, params.dump().c_str());
      std::fflush(stderr);
      std::_Exit(1);
    }
    lock.unlock();
    worker.join();
    outcome.after_stop_seconds = outcome.seconds - stop_time;
    return outcome;
  }

  // The error kind a stopped call reported: the error, or the partial output's stop reason.
  static std::optional<ErrorKind> stop_kind(const Result<api::Output>& r) {
    if (!r) return r.error().kind;
    if (r->stopped) return r->stopped->kind;
    return std::nullopt;
  }

  api::Registry registry_ = api::make_registry();
  const api::Command* command_ = nullptr;
  fs::path dir_;
  std::unique_ptr<TableStore> store_;
};

TEST_P(Conformance, DeclaresItsExamples) {
  EXPECT_FALSE(command_->invalid_examples.empty())
      << "give '" << command_->family << " " << command_->verb << "' invalid_examples";
  if (command_->cost == api::Cost::Expensive) {
    EXPECT_FALSE(command_->hard_example.is_null())
        << "an expensive command needs a hard_example (or is it Cost::Cheap?)";
  }
}

TEST_P(Conformance, InvalidExamplesAreInvalidInput) {
  for (const nlohmann::json& params : command_->invalid_examples) {
    Outcome o = run(params, 10.0);
    ASSERT_FALSE(o.result.ok()) << "accepted: " << params.dump();
    EXPECT_EQ(o.result.error().kind, ErrorKind::InvalidInput)
        << params.dump() << ": " << o.result.error().describe();
    EXPECT_FALSE(o.result.error().message.empty());
  }
}

TEST_P(Conformance, HardExampleHonoursTheTimeLimitAndTheMemoryBudget) {
  if (command_->hard_example.is_null()) GTEST_SKIP() << "every call is quick";
  const bool peak_known = reset_peak_memory();
  const std::uint64_t base = status_bytes("VmRSS");
  Outcome o = run(command_->hard_example, TIME_LIMIT_SECONDS);
  const std::uint64_t peak = status_bytes("VmHWM");
  auto kind = stop_kind(o.result);
  ASSERT_TRUE(kind.has_value()) << "the hard example finished within the limit: "
                                << command_->hard_example.dump();
  EXPECT_EQ(*kind, ErrorKind::LimitExceeded)
      << (o.result ? o.result->stopped->describe() : o.result.error().describe());
  EXPECT_LE(o.seconds, ANSWER_WITHIN_SECONDS) << command_->hard_example.dump();
  if (peak_known && base != 0 && peak != 0) {
    EXPECT_LE(peak, base + MEMORY_BUDGET_BYTES + MEMORY_SLACK_BYTES)
        << "peak " << (peak >> 20) << " MB from " << (base >> 20) << " MB";
  }
}

TEST_P(Conformance, HardExampleIsCancelledPromptly) {
  if (command_->hard_example.is_null()) GTEST_SKIP() << "every call is quick";
  Outcome o = run(command_->hard_example, std::nullopt, CANCEL_AFTER_SECONDS);
  auto kind = stop_kind(o.result);
  ASSERT_TRUE(kind.has_value()) << "finished within " << CANCEL_AFTER_SECONDS << " s";
  // Refused at once by the memory check is also an answer.
  EXPECT_TRUE(*kind == ErrorKind::Cancelled || *kind == ErrorKind::LimitExceeded);
  EXPECT_LE(o.after_stop_seconds, CANCEL_ANSWER_WITHIN_SECONDS);
}

TEST_P(Conformance, HostPathsNeedTheFrontEndsGrant) {
  bool any = false;
  for (const api::Param& p : command_->params) {
    if (p.type != api::ParamType::HostPath) continue;
    any = true;
    nlohmann::json params =
        command_->hard_example.is_null() ? nlohmann::json::object() : command_->hard_example;
    const fs::path target = dir_ / "host-path-target";
    params[p.name] = target.string();
    Outcome o = run(params, 10.0);
    ASSERT_FALSE(o.result.ok()) << p.name;
    EXPECT_EQ(o.result.error().kind, ErrorKind::InvalidInput) << o.result.error().describe();
    EXPECT_FALSE(fs::exists(target)) << p.name;
  }
  if (!any) GTEST_SKIP() << "no host path parameter";
}

INSTANTIATE_TEST_SUITE_P(EveryCommand, Conformance, ::testing::ValuesIn(command_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace permuzzle
