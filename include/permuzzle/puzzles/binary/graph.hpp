// The whole position graph of the binary tile puzzle on small boards (spec section 8).
//
// Data layout: a position with k ones on an n-cell board (n <= 24) is a bit mask; BFS stores
// distances in a vector indexed by the mask's rank among the C(n, k) masks (colex order), one
// byte each.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/binary/board.hpp"

namespace permuzzle::binary {

inline constexpr int MAX_BFS_CELLS = 24;

struct BinaryGraphSummary {
  int rows = 0, cols = 0;
  std::size_t ones = 0;
  std::uint64_t positions = 0;
  std::vector<std::uint64_t> per_distance;  // distances from the goal
  int eccentricity = 0;                     // God's number for this goal
  std::vector<Board> antipodes;             // positions at that distance (up to 32)
  std::uint64_t antipode_count = 0;
  std::uint64_t flow_checked = 0;  // positions whose BFS distance = flow answer
  std::uint64_t flow_mismatches = 0;
  int diameter = -1;  // all-pairs, when small enough (else -1)
};

struct BinaryGraphOptions {
  bool cross_check_flow = true;         // compare BFS with the min-cost flow for EVERY position
  std::uint64_t diameter_limit = 5000;  // BFS from every position up to this many positions
  std::function<void(const std::string&)> on_progress;
  // Memory budget (checked before the BFS allocates) and stop request (run->stop_error()).
  const RunContext* run = nullptr;
};

Result<BinaryGraphSummary> summarize_graph(const Board& goal,
                                           const BinaryGraphOptions& options = {});

}  // namespace permuzzle::binary
