// The contract's time promises, measured on one call: tests/conformance_test.cpp checks them
// over every registered command, `bench limits` reports them. One measurement and one verdict
// for both, so the suite and the report can never disagree on what "kept" means.
//
// The promise: a call answers within max(0.5 s, 10% of the limit) of its time limit, and within
// CANCEL_PROMISE_SECONDS of a stop request. On a busy machine the wall clock also counts the time
// the process waited for a CPU, so the verdict reads two clocks:
// - CPU time of the process from the stop to the answer, per thread the call was given: a loop
//   that ignores its stop keeps using CPU, whatever the load (the strict check);
// - wall time from the stop to the answer, within the promise scaled by the machine's load
//   (1 + load average / cores): a handler that sleeps or waits past its stop uses no CPU, and is
//   caught here unless the machine is loaded far beyond its cores.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/table_store.hpp"

namespace permuzzle::api {

// How long after a stop request a call may take to answer.
inline constexpr double CANCEL_PROMISE_SECONDS = 1.0;

// max(0.5 s, 10% of the limit): how long after its time limit a call may take to answer.
double time_limit_promise_seconds(double limit);

// One call to measure: its parameters and what stops it.
struct CallPlan {
  nlohmann::json params;
  std::optional<double> time_limit;    // seconds from the call's start
  double cancel_after = 0;             // > 0: the call's stop token is triggered after this long
  std::uint64_t memory_budget = 0;     // the call's RunContext budget (0: none)
  unsigned threads = 0;                // the call's RunContext threads (0: every hardware thread)
  const RunContext* parent = nullptr;  // its stop token and deadline stop the call too
  // > 0: when no answer came this long after the start, on_hang is called (a test ends its
  // process there: the call cannot be taken back); the measurement then goes on waiting.
  double watchdog_seconds = 0;
  std::function<void()> on_hang;
};

struct CallMeasurement {
  Result<Output> result = make_error("not run");
  double seconds = 0;        // wall time from the call's start to its answer
  bool stopped = false;      // the deadline passed or the stop was requested before the answer
  double past_stop = 0;      // wall seconds from the deadline or stop request to the answer
  double past_stop_cpu = 0;  // the process's CPU seconds in that interval, per thread given
  double load = 0;           // the machine's 1-minute load average at the answer
  unsigned cores = 1;        // hardware threads
};

// Runs `command` through Registry::call as a server would (no host paths), on its own thread.
CallMeasurement measure_call(const Registry& registry, const Command& command, TableStore& tables,
                             const CallPlan& plan);

// "" when the measured call kept the promise (`promise` seconds past its stop), else what it
// missed, with both clocks and the load.
std::string contract_violation(const CallMeasurement& m, double promise);

// The error kind a stopped call reported: its error, or its partial output's stop reason.
std::optional<ErrorKind> stop_kind(const Result<Output>& r);

}  // namespace permuzzle::api
