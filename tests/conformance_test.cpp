// One contract for every command, checked over the whole registry: a new command is checked here
// without test code of its own. Each command declares, where it is registered, a hard example
// (parameters of a call that runs far past a second unless stopped) and invalid examples; this
// suite runs them through Registry::call as the server would (no host paths granted):
// - every invalid example is refused with InvalidInput;
// - a hard example under a 1 s time limit answers within the promise (max(0.5 s, 10%) past the
//   limit) by api/contract.hpp's verdict: CPU time past the limit within 0.5 s (one thread, so
//   CPU time is the call's own, whatever the machine's load), wall time within 0.5 s scaled by
//   the measured load; its peak resident memory within the 256 MB budget + 100 MB;
// - a hard example cancelled through the stop token after 0.3 s answers within 1 s, by the same
//   verdict;
// - a host path parameter is refused without the front end's grant and nothing is created there;
// - hostile values (thread counts past MAX_THREADS, 2^64-1 for every unsigned parameter, huge
//   primes, generator lists of thousands of commuting generators) are refused or stopped within
//   the same promise and budget.
// The verdict itself is tested: handlers that ignore their limit (one computing, one sleeping)
// are caught (ContractCheck below). Every test runs in its own process (gtest_discover_tests), so
// peak memory and CPU time are the command's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "permuzzle/api/contract.hpp"
#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/rng.hpp"

namespace permuzzle {
namespace conformance_test {

namespace fs = std::filesystem;

constexpr double TIME_LIMIT_SECONDS = 1.0;
constexpr double CANCEL_AFTER_SECONDS = 0.3;
constexpr std::uint64_t MEMORY_BUDGET_BYTES = std::uint64_t(256) << 20;
constexpr std::uint64_t MEMORY_SLACK_BYTES = std::uint64_t(100) << 20;
// A call that has not answered by then is reported and the test process ends (a hang would
// otherwise hold the whole suite until CTest's timeout).
constexpr double WATCHDOG_SECONDS = 60.0;

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

  // Runs one call as the server would, with a watchdog. `cancel_after` > 0: the stop token is
  // triggered after that many seconds. `threads`: the run's (1 for the time-limit checks, so
  // that CPU time past the limit is the call's own).
  api::CallMeasurement run(const nlohmann::json& params, std::optional<double> time_limit,
                           double cancel_after = 0, unsigned threads = 0) {
    api::CallPlan plan;
    plan.params = params;
    plan.time_limit = time_limit;
    plan.cancel_after = cancel_after;
    plan.memory_budget = MEMORY_BUDGET_BYTES;
    plan.threads = threads;
    plan.watchdog_seconds = WATCHDOG_SECONDS;
    plan.on_hang = [this, params] {
      std::fprintf(stderr, "%s %s did not answer within %.0f s: %.300s\n", command_->family.c_str(),
                   command_->verb.c_str(), WATCHDOG_SECONDS, params.dump().c_str());
      std::fflush(stderr);
      std::_Exit(1);
    };
    return api::measure_call(registry_, *command_, *store_, plan);
  }

  // Checks a stopped call against the contract: LimitExceeded (or Cancelled), the time promise,
  // and the memory budget when `peak_known`.
  void expect_kept(const api::CallMeasurement& o, const nlohmann::json& params, double promise,
                   bool cancelled, bool peak_known, std::uint64_t base) {
    const std::uint64_t peak = status_bytes("VmHWM");
    const std::string shown = params.dump().substr(0, 300);
    if (auto kind = api::stop_kind(o.result)) {
      if (cancelled) {
        EXPECT_TRUE(*kind == ErrorKind::Cancelled || *kind == ErrorKind::LimitExceeded ||
                    *kind == ErrorKind::InvalidInput)
            << shown;
      } else {
        EXPECT_NE(*kind, ErrorKind::Internal) << shown << ": " << o.result.error().describe();
      }
    }
    EXPECT_EQ(api::contract_violation(o, promise), "") << shown;
    if (peak_known && base != 0 && peak != 0) {
      EXPECT_LE(peak, base + MEMORY_BUDGET_BYTES + MEMORY_SLACK_BYTES)
          << "peak " << (peak >> 20) << " MB from " << (base >> 20) << " MB: " << shown;
    }
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
    api::CallMeasurement o = run(params, 10.0);
    ASSERT_FALSE(o.result.ok()) << "accepted: " << params.dump();
    EXPECT_EQ(o.result.error().kind, ErrorKind::InvalidInput)
        << params.dump() << ": " << o.result.error().describe();
    EXPECT_FALSE(o.result.error().message.empty());
  }
}

TEST_P(Conformance, HardExampleHonoursTheTimeLimitAndTheMemoryBudget) {
  if (command_->hard_example.is_null()) GTEST_SKIP() << "every call is quick";
  for (const nlohmann::json& example : api::hard_examples(*command_)) {
    SCOPED_TRACE(example.dump().substr(0, 200));
    const bool peak_known = reset_peak_memory();
    const std::uint64_t base = status_bytes("VmRSS");
    api::CallMeasurement o = run(example, TIME_LIMIT_SECONDS, 0, 1);
    auto kind = api::stop_kind(o.result);
    ASSERT_TRUE(kind.has_value()) << "the hard example finished within the limit: "
                                  << example.dump();
    EXPECT_EQ(*kind, ErrorKind::LimitExceeded)
        << (o.result ? o.result->stopped->describe() : o.result.error().describe());
    expect_kept(o, example, api::time_limit_promise_seconds(TIME_LIMIT_SECONDS), false, peak_known,
                base);
    std::printf("overrun %.3f s wall, %.3f s CPU, load %.1f\n", o.past_stop, o.past_stop_cpu,
                o.load);
  }
}

TEST_P(Conformance, HardExampleIsCancelledPromptly) {
  if (command_->hard_example.is_null()) GTEST_SKIP() << "every call is quick";
  for (const nlohmann::json& example : api::hard_examples(*command_)) {
    SCOPED_TRACE(example.dump().substr(0, 200));
    api::CallMeasurement o = run(example, std::nullopt, CANCEL_AFTER_SECONDS);
    auto kind = api::stop_kind(o.result);
    ASSERT_TRUE(kind.has_value()) << "finished within " << CANCEL_AFTER_SECONDS << " s";
    // Refused at once by the memory check is also an answer.
    EXPECT_TRUE(*kind == ErrorKind::Cancelled || *kind == ErrorKind::LimitExceeded);
    expect_kept(o, example, api::CANCEL_PROMISE_SECONDS, true, false, 0);
  }
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
    api::CallMeasurement o = run(params, 10.0);
    ASSERT_FALSE(o.result.ok()) << p.name;
    EXPECT_EQ(o.result.error().kind, ErrorKind::InvalidInput) << o.result.error().describe();
    EXPECT_FALSE(fs::exists(target)) << p.name;
  }
  if (!any) GTEST_SKIP() << "no host path parameter";
}

// Hostile values (issue 39), each alone on top of the hard example (or of no other parameter):
// what the registry refuses, and what a handler must refuse or stop within its limit and budget.
struct HostileCall {
  nlohmann::json params;
  bool must_be_refused = false;  // InvalidInput from the registry's own checks
};

// "(1,2)" "(3,4)" ...: `count` disjoint transpositions, commuting pairwise (the group C2^count).
nlohmann::json disjoint_transpositions(std::size_t count) {
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t i = 0; i < count; ++i) {
    list.push_back("(" + std::to_string(2 * i + 1) + "," + std::to_string(2 * i + 2) + ")");
  }
  return list;
}

// A definition of 3,000 moves on 12 pieces (each with its powers: tens of thousands of moves to
// compile; their inverses were found by comparing every pair).
std::string many_moves_definition() {
  std::string text = "Name many\nSet X 12 1\nSolved\nX\n1 2 3 4 5 6 7 8 9 10 11 12\nEnd\n";
  Rng rng(7);
  for (int m = 0; m < 3000; ++m) {
    std::vector<int> images(12);
    std::iota(images.begin(), images.end(), 1);
    rng.shuffle(images.begin(), images.end());
    text += "Move M" + std::to_string(m) + "x\nX\n";
    for (int v : images) text += std::to_string(v) + " ";
    text += "\nEnd\n";
  }
  return text;
}

std::vector<HostileCall> hostile_calls(const api::Command& c) {
  constexpr std::uint64_t HUGE_UNSIGNED = ~std::uint64_t(0);
  const nlohmann::json base =
      c.hard_example.is_object() ? c.hard_example : nlohmann::json::object();
  std::vector<HostileCall> calls;
  auto with = [&](const std::string& name, nlohmann::json value, bool refused = false) {
    nlohmann::json params = base;
    params[name] = std::move(value);
    calls.push_back({std::move(params), refused});
  };
  for (const api::Param& p : c.params) {
    if (p.name == "threads") {
      with(p.name, 3000, true);
      with(p.name, HUGE_UNSIGNED, true);
    } else if (p.name == "prime") {
      with(p.name, std::uint64_t(18446744073709551557u));  // the largest prime below 2^64
      with(p.name, HUGE_UNSIGNED);
    } else if (p.type == api::ParamType::Unsigned) {
      with(p.name, HUGE_UNSIGNED);
    } else if (p.type == api::ParamType::Integer) {
      with(p.name, std::numeric_limits<std::int64_t>::max());
      with(p.name, std::numeric_limits<std::int64_t>::min());
    } else if (p.type == api::ParamType::Number) {
      with(p.name, 1e308);
      with(p.name, -1e308);
    } else if (p.name == "generators" && p.type == api::ParamType::Strings) {
      with(p.name, disjoint_transpositions(2000));   // a pairwise check of 2,000,000 pairs
      with(p.name, disjoint_transpositions(20000));  // 3.2 GB as images on 40,000 points
    } else if (p.name == "file" && p.type == api::ParamType::InputFile && c.family == "def") {
      with(p.name, many_moves_definition());
    }
  }
  return calls;
}

TEST_P(Conformance, HostileValuesAreRefusedOrStopped) {
  constexpr double HOSTILE_LIMIT_SECONDS = 0.5;
  const std::vector<HostileCall> calls = hostile_calls(*command_);
  if (calls.empty()) GTEST_SKIP() << "no parameter takes a hostile value";
  for (const HostileCall& call : calls) {
    const bool peak_known = reset_peak_memory();
    const std::uint64_t base = status_bytes("VmRSS");
    api::CallMeasurement o = run(call.params, HOSTILE_LIMIT_SECONDS, 0, 1);
    const std::string shown = call.params.dump().substr(0, 200);
    if (call.must_be_refused) {
      ASSERT_FALSE(o.result.ok()) << "accepted: " << shown;
      EXPECT_EQ(o.result.error().kind, ErrorKind::InvalidInput) << o.result.error().describe();
      continue;
    }
    if (!o.result.ok()) {
      EXPECT_NE(o.result.error().kind, ErrorKind::Internal)
          << shown << ": " << o.result.error().describe();
    }
    expect_kept(o, call.params, api::time_limit_promise_seconds(HOSTILE_LIMIT_SECONDS), false,
                peak_known, base);
  }
}

// Run to its end (no time limit), a word over 2,000 commuting transpositions (degree 4,000: a
// stabiliser chain of 2,000 levels, about 100 MB) stays within the memory budget: the short-word
// tables, the ball and the fallback word chain count the group's own chain and generators. It
// peaked at 414 MB with a budget of 256 MiB before they did.
TEST(GroupMemory, AWordOnManyGeneratorsStaysWithinTheBudgetToTheEnd) {
  constexpr std::uint64_t TIGHT_SLACK_BYTES = std::uint64_t(32) << 20;  // allocator, buffers
  const api::Registry registry = api::make_registry();
  const api::Command* word = nullptr;
  for (const api::Command& c : registry.commands()) {
    if (c.family == "group" && c.verb == "word") word = &c;
  }
  ASSERT_NE(word, nullptr);
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("permuzzle-group-memory-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    TableStore store(dir.string());
    api::CallPlan plan;
    plan.params = {{"generators", disjoint_transpositions(2000)}, {"element", "(1,2)(3,4)"}};
    plan.memory_budget = MEMORY_BUDGET_BYTES;
    plan.threads = 1;
    plan.watchdog_seconds = WATCHDOG_SECONDS;
    plan.on_hang = [] {
      std::fprintf(stderr, "group word did not answer within %.0f s\n", WATCHDOG_SECONDS);
      std::_Exit(1);
    };
    const bool peak_known = reset_peak_memory();
    const std::uint64_t base = status_bytes("VmRSS");
    const api::CallMeasurement o = api::measure_call(registry, *word, store, plan);
    const std::uint64_t peak = status_bytes("VmHWM");
    if (!o.result.ok()) {
      EXPECT_EQ(o.result.error().kind, ErrorKind::LimitExceeded) << o.result.error().describe();
    }
    if (peak_known && base != 0 && peak != 0) {
      EXPECT_LE(peak, base + MEMORY_BUDGET_BYTES + TIGHT_SLACK_BYTES)
          << "peak " << (peak >> 20) << " MB from " << (base >> 20) << " MB";
    }
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}

INSTANTIATE_TEST_SUITE_P(EveryCommand, Conformance, ::testing::ValuesIn(command_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace conformance_test
}  // namespace permuzzle

namespace permuzzle {
namespace conformance_test {

// The verdict of api/contract.hpp catches handlers that ignore their limit, whatever the load:
// one that computes past it (CPU time), one that sleeps past it (wall time beyond what the load
// explains). A suite that could not fail here could not catch the real ones.
class ContractCheck : public ::testing::Test {
 protected:
  // CPU time of the calling thread, which the spinning handler counts for itself (on a busy
  // machine its wall time is longer, its CPU time the same).
  static double thread_cpu_seconds() {
    timespec t{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
  }

  ContractCheck() {
    registry_.add_family("broken", "Handlers that ignore their limits");
    registry_.add({"broken",
                   "spin",
                   "Computes for 2.5 s of CPU, never polling its run",
                   {},
                   [](const api::Request&, api::Session&) -> Result<api::Output> {
                     volatile std::uint64_t x = 0;
                     const double start = thread_cpu_seconds();
                     while (thread_cpu_seconds() - start < 2.5) {
                       for (int i = 0; i < 100000; ++i) x = x + i;
                     }
                     return api::Output{};
                   }});
    registry_.add({"broken",
                   "sleep",
                   "Sleeps for 8 s, never polling its run",
                   {},
                   [](const api::Request&, api::Session&) -> Result<api::Output> {
                     std::this_thread::sleep_for(std::chrono::seconds(8));
                     return api::Output{};
                   }});
    registry_.add({"broken",
                   "polite",
                   "Stops within 10 ms of its limit",
                   {},
                   [](const api::Request&, api::Session& s) -> Result<api::Output> {
                     while (!s.run.should_stop()) {
                       std::this_thread::sleep_for(std::chrono::milliseconds(10));
                     }
                     return s.run.stop_error();
                   }});
  }

  api::CallMeasurement measure(const std::string& verb, double limit) {
    api::CallPlan plan;
    plan.time_limit = limit;
    plan.threads = 1;
    return api::measure_call(registry_, *registry_.find("broken", verb), store_, plan);
  }

  api::Registry registry_;
  TableStore store_;
};

TEST_F(ContractCheck, CatchesAHandlerThatComputesPastItsLimit) {
  api::CallMeasurement m = measure("spin", 0.2);
  ASSERT_TRUE(m.stopped);
  EXPECT_GT(m.past_stop_cpu, 1.5);
  EXPECT_NE(api::contract_violation(m, api::time_limit_promise_seconds(0.2)), "");
}

TEST_F(ContractCheck, CatchesAHandlerThatSleepsPastItsLimit) {
  api::CallMeasurement m = measure("sleep", 0.2);
  ASSERT_TRUE(m.stopped);
  // Unless the machine is loaded beyond 14 per core, 8 s is past the promise scaled by the load.
  EXPECT_NE(api::contract_violation(m, api::time_limit_promise_seconds(0.2)), "");
}

TEST_F(ContractCheck, PassesAHandlerThatStopsInTime) {
  api::CallMeasurement m = measure("polite", 0.2);
  ASSERT_TRUE(m.stopped);
  EXPECT_EQ(api::contract_violation(m, api::time_limit_promise_seconds(0.2)), "");
  EXPECT_EQ(api::stop_kind(m.result), ErrorKind::LimitExceeded);
}

}  // namespace conformance_test
}  // namespace permuzzle
