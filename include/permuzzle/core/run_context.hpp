// The run context: what every long computation is given by its caller, instead of each puzzle
// inventing its own progress callback, limits and thread defaults.
//
// One progress shape for every phase of every puzzle (phase, done, total, message); cancellation
// through std::stop_token (a front end stops a request by calling request_stop on its source);
// a node limit and a deadline; the number of threads (0 = every hardware thread: the library
// never caps it). A RunContext is cheap to copy and is read by worker threads concurrently:
// everything in it is either immutable during a run or thread safe (stop_token).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "permuzzle/core/result.hpp"

namespace permuzzle {

class Cluster;  // core/cluster.hpp

struct Progress {
  std::string phase;        // what is running, e.g. "building sliding-4x4 7-8 table 1/2"
  std::uint64_t done = 0;   // units of work done (nodes, positions, entries, ...)
  std::uint64_t total = 0;  // units expected; 0 = unknown (an IDA* iteration)
  std::string message;      // one human-readable line, e.g. "bound 52, 1,234,567 nodes"
};

using ProgressSink = std::function<void(const Progress&)>;

class RunContext {
 public:
  using Clock = std::chrono::steady_clock;

  RunContext() = default;

  // Cancellation: a front end owns the std::stop_source and hands out its token.
  RunContext& with_stop_token(std::stop_token token) {
    stop_ = std::move(token);
    return *this;
  }
  // Wall-clock limit from now on (for the whole request).
  RunContext& with_time_limit(std::chrono::duration<double> limit) {
    deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(limit);
    return *this;
  }
  RunContext& with_node_limit(std::uint64_t nodes) {
    node_limit_ = nodes;
    return *this;
  }
  RunContext& with_threads(unsigned threads) {
    threads_ = threads;
    return *this;
  }
  RunContext& with_progress(ProgressSink sink) {
    progress_ = std::move(sink);
    return *this;
  }
  // Memory the computation may use for its tables, frontiers and lists, in bytes (0 = no
  // budget given). Commands estimate their memory before they start and refuse what is over.
  RunContext& with_memory_budget(std::uint64_t bytes) {
    memory_budget_ = bytes;
    return *this;
  }

  // The processes this run is one of (an MPI job, core/cluster.hpp), or none: a computation
  // that can be distributed (search/bfs_distributed.hpp) then runs on all of them together.
  // The front end owns the cluster; it outlives the run.
  RunContext& with_cluster(Cluster* cluster) {
    cluster_ = cluster;
    return *this;
  }
  Cluster* cluster() const { return cluster_; }

  // Threads to use: the requested number, or every hardware thread when none was requested.
  unsigned threads() const;
  unsigned requested_threads() const { return threads_; }
  std::uint64_t node_limit() const { return node_limit_; }  // 0 = none
  std::optional<Clock::time_point> deadline() const { return deadline_; }
  std::stop_token stop_token() const { return stop_; }
  std::uint64_t memory_budget() const { return memory_budget_; }  // 0 = none

  // Refuses, before any work, a computation whose estimated memory is over the budget: a
  // LimitExceeded error naming `what`, the estimate and the budget (Ok without a budget).
  Status check_memory(std::uint64_t estimate_bytes, std::string_view what) const;

  // True once the caller asked to stop or the deadline passed. Cheap enough to call every few
  // thousand nodes (one atomic load and, with a deadline, one clock read).
  bool should_stop() const;
  // The reason as an error value: Cancelled, or LimitExceeded for the time or node limit.
  // `nodes` is the work done so far, checked against the node limit.
  Status check(std::uint64_t nodes = 0) const;
  Error stop_error() const;

  bool wants_progress() const { return static_cast<bool>(progress_); }
  void report(const Progress& progress) const {
    if (progress_) progress_(progress);
  }
  const ProgressSink& progress_sink() const { return progress_; }

 private:
  std::stop_token stop_;
  std::optional<Clock::time_point> deadline_;
  std::uint64_t node_limit_ = 0;
  unsigned threads_ = 0;
  std::uint64_t memory_budget_ = 0;
  ProgressSink progress_;
  Cluster* cluster_ = nullptr;
};

// A time limit given by a user: a positive, finite number of seconds ("0", "nan", "inf" and
// negative values are refused rather than read as "no limit"). `what` names the option.
Status check_time_limit(double seconds, std::string_view what);

// The memory this process can have: the least of the machine's physical memory, its cgroup's
// limit (v1 or v2, ancestors included) and its address-space limit (RLIMIT_AS, `ulimit -v`).
std::uint64_t memory_limit_of_process();

// The memory budget a front end uses when its user gives none: 3/4 of memory_limit_of_process()
// (at least 256 MiB), so that a command refuses in advance what the process could not hold.
std::uint64_t default_memory_budget();

// "1.5 GB", "288 MB", "12 KB": a byte count for messages (decimal units, rounded up).
std::string memory_text(std::uint64_t bytes);

// Every hardware thread (at least 1): the default wherever a thread count of 0 is given.
unsigned hardware_threads();

// Wall-clock time since construction, for result fields such as "seconds".
class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  void restart() { start_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace permuzzle
