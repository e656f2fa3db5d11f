// The IDA* driver: the iterative-deepening loop, limits, cancellation, progress and the replay
// check, around a per-puzzle kernel that keeps its own tuned depth-first search.
//
// A kernel is any type with
//   using Move = ...;
//   int start(const State& root);        // loads the root; returns its admissible bound (already
//                                        // rounded to the solution's parity where that is known)
//   IdaIteration iterate(int bound, IdaControl& control);
//                                        // one depth-first pass with that bound: found, or the
//                                        // smallest f = g + h that exceeded it
//   std::uint64_t nodes() const;         // nodes counted so far (the kernel's own definition)
//   std::vector<Move> solution() const;  // after a found iteration: the moves from the root
// Inside the depth-first search the kernel calls control.keep_going(nodes) once per node (one
// comparison on the hot path; every check_interval nodes it reads the run's stop token and
// deadline) and unwinds as soon as it returns false. The driver then reports Cancelled or
// LimitExceeded. Nothing here allocates during an iteration.
#pragma once

#include <climits>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"

namespace permuzzle::search {

struct IdaOptions {
  int max_bound = 1000;  // LimitExceeded rather than an iteration past this bound
  // 0: the next bound is the smallest f that exceeded the last one; k > 0: bound + k (e.g. 2 when
  // every move flips a parity the solution length must have).
  int bound_step = 0;
  // Stop once this many nodes are counted (0 = none); the run's node limit applies too.
  std::uint64_t node_limit = 0;
  std::uint64_t check_interval = 4096;  // nodes between two reads of the stop token and clock
  std::string phase = "ida*";           // Progress::phase
  // Called as each iteration starts (bound, nodes so far), besides the run's progress sink.
  std::function<void(int bound, std::uint64_t nodes)> on_iteration;
};

struct IdaIteration {
  bool found = false;
  int next_bound = INT_MAX;  // INT_MAX: nothing was cut, the space below the root is exhausted
};

// What the kernel's hot loop consults.
class IdaControl {
 public:
  IdaControl(const RunContext& run, const IdaOptions& options);

  // True while the search may go on. Inline fast path: one comparison.
  bool keep_going(std::uint64_t nodes) { return nodes < next_check_ || poll(nodes); }
  bool stopped() const { return stopped_; }
  // The same checks now, whatever the interval (for a driver whose workers counted the nodes
  // under controls of their own): false when the search must stop.
  bool check_now(std::uint64_t nodes) { return poll(nodes); }
  // Why it stopped: the run's Cancelled or LimitExceeded, or the node limit.
  Error stop_error(int bound) const;

 private:
  bool poll(std::uint64_t nodes);

  const RunContext& run_;
  std::uint64_t interval_;
  std::uint64_t node_limit_;  // the smaller of the options' and the run's; 0 = none
  std::uint64_t next_check_;
  bool stopped_ = false;
  bool node_limit_hit_ = false;
};

template <class Move>
struct IdaResult {
  std::vector<Move> moves;
  int initial_bound = 0;
  int final_bound = 0;
  int iterations = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;
};

namespace ida_detail {
Error exhausted_error(int bound);
Error bound_limit_error(int bound, int max_bound);
Error replay_error();
void report_iteration(const RunContext& run, const IdaOptions& options, int bound,
                      std::uint64_t nodes);
}  // namespace ida_detail

// Runs IDA* from `root`; the solution is replayed through replay(root, moves) -> bool before it
// is returned (Internal error when the replay does not reach the goal).
template <class Kernel, class State, class Replay>
Result<IdaResult<typename Kernel::Move>> ida_star(Kernel& kernel, const State& root,
                                                  const RunContext& run, const IdaOptions& options,
                                                  Replay&& replay) {
  Stopwatch clock;
  IdaControl control(run, options);
  IdaResult<typename Kernel::Move> result;
  int bound = kernel.start(root);
  result.initial_bound = bound;
  // Step 1. Iterative deepening on the bound.
  while (true) {
    if (bound > options.max_bound) return ida_detail::bound_limit_error(bound, options.max_bound);
    if (run.should_stop()) return run.stop_error();
    ida_detail::report_iteration(run, options, bound, kernel.nodes());
    ++result.iterations;
    const IdaIteration it = kernel.iterate(bound, control);
    if (it.found) break;
    if (control.stopped()) return control.stop_error(bound);
    if (it.next_bound == INT_MAX) return ida_detail::exhausted_error(bound);
    bound = options.bound_step > 0 ? bound + options.bound_step : it.next_bound;
  }
  // Step 2. The solution, checked by replay.
  result.final_bound = bound;
  result.nodes = kernel.nodes();
  result.moves = kernel.solution();
  result.seconds = clock.seconds();
  if (!replay(root, result.moves)) return ida_detail::replay_error();
  return result;
}

}  // namespace permuzzle::search
