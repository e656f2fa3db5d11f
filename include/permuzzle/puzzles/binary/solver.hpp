// Minimal swap sequences for the binary tile puzzle.
//
// Minimal number of swaps = minimum-cost transport of the surplus 1s onto the missing 1s with
// grid distance as cost (spec section 7). Two formulations, both solved by LEMON's network
// simplex:
// - flow: the grid graph itself, one node per cell, unit-cost arcs both ways between
//   neighbours, supply start - goal at each cell (O(rows * cols) arcs; scales to 1000 x 1000);
// - assignment: the bipartite graph of start 1s against goal 1s with Manhattan costs (the
//   textbook matching formulation; quadratic, for comparison on small boards).
// - separable: when a horizontal (or vertical) line separates the cells that must lose a 1
//   from those that must gain one, every piece's vertical distance is forced and the rest is
//   a 1-D transport solved by sorting: O(cells), exact, used for the 1000 x 1000 target.
// A sequence of exactly that many swaps is built from the optimal flow with the relabelling
// argument: follow flow arcs from a 1 through identical 1s until a 0, then swap backwards along
// the walk (the front piece moves first, each piece behind takes the place just vacated), so
// every swap exchanges a 1 with a 0 and consumes one unit of flow.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/binary/board.hpp"

namespace permuzzle::binary {

// Minimal number of swaps by min-cost flow on the grid graph.
Result<std::uint64_t> min_swaps_flow(const Board& start, const Board& goal);
// Minimal number of swaps by the assignment formulation (LimitExceeded above `max_ones` 1s).
Result<std::uint64_t> min_swaps_assignment(const Board& start, const Board& goal,
                                           std::size_t max_ones = 2000);

enum class Method {
  Auto,            // separable shortcut when it applies, else network simplex
  NetworkSimplex,  // always the grid-graph min-cost flow
  Separable,       // only the separable shortcut (error when it does not apply)
};

// Sequences up to this many swaps are kept in Solution::moves by default (64 MB); longer ones
// are built, counted and replayed one swap at a time without being stored.
inline constexpr std::uint64_t DEFAULT_KEEP_MOVES = std::uint64_t(1) << 24;

struct SolveOptions {
  Method method = Method::Auto;
  bool build_sequence = true;
  // Replay every swap as it is built, on a separate board, and check the end is the goal (the
  // one verification of a solve; it streams, so it costs no memory per swap).
  bool replay = true;
  // Solution::moves holds the sequence only when it has at most this many swaps.
  std::uint64_t keep_moves = DEFAULT_KEEP_MOVES;
  // Called once with the minimal number of swaps before the sequence is built; an error stops
  // the solve there (e.g. a front end refusing to print a sequence that would not fit).
  std::function<Status(std::uint64_t swaps)> check_length;
  // Receives every swap in order as it is built (write it out, hash it, ...).
  std::function<void(SwapCode)> on_swap;
  std::function<void(const std::string&)> on_progress;
  // Memory budget (the flow's estimate is checked before it is built) and stop request: the
  // flow (LEMON's network simplex, through a checked flow type) and the sequence's construction
  // end with run->stop_error() when it asks to stop.
  const RunContext* run = nullptr;
};

// Bytes the minimal count takes on a board of `cells` cells: the grid graph and LEMON's
// network simplex (about 400 bytes a cell), or the separable method's arrays (about 40).
std::uint64_t flow_bytes(std::uint64_t cells, bool network_simplex);

struct SolveStats {
  double flow_seconds = 0;
  double sequence_seconds = 0;  // building the sequence, replayed on the fly
};

struct Solution {
  std::uint64_t swaps = 0;      // minimal number (min-cost flow)
  std::string method;           // which exact method computed it
  std::uint64_t built = 0;      // swaps built (and replayed): = swaps when build_sequence
  bool moves_kept = false;      // moves holds the whole sequence (swaps <= keep_moves)
  std::vector<SwapCode> moves;  // the sequence when moves_kept, else empty
  bool verified = false;        // replayed and reached the goal
  SolveStats stats;
};

Result<Solution> solve(const Board& start, const Board& goal, const SolveOptions& options = {});

// Reusable exact distance oracle for many positions of one small board shape: keeps one LEMON
// graph and re-runs the network simplex with new supplies.
class FlowOracle {
 public:
  FlowOracle(int rows, int cols);
  ~FlowOracle();
  FlowOracle(const FlowOracle&) = delete;
  FlowOracle& operator=(const FlowOracle&) = delete;
  // Supplies: cells of `start` minus cells of `goal` (given as bit masks, cell i = bit i).
  std::uint64_t distance(std::uint64_t start_mask, std::uint64_t goal_mask);

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace permuzzle::binary
