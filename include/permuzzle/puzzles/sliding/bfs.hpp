// Whole-graph analysis of small sliding boards (at most 12 cells: 3x3, 2x5, 3x4, 2x6, ...).
//
// Every arrangement of the n cells is a permutation of 0..n-1, ranked lexicographically
// (Lehmer code, 0..n!-1). The search keeps 2 bits per arrangement (12!/4 bytes = 120 MB for
// 3x4): 3 = not reached, 1 and 2 = frontier of the current / next layer (their roles swap every
// layer), 0 = expanded. Each layer is one sequential scan of the array; every frontier entry is
// unranked, its 2..4 neighbours ranked and marked. Distances are not stored: the histogram is
// counted layer by layer and the last layer's positions are the antipodes.
// After the goal's component is done, the remaining arrangements are explored the same way
// from the first one not reached, until every arrangement belongs to a component.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/sliding/types.hpp"

namespace permuzzle::sliding {

inline constexpr int BFS_MAX_CELLS = 12;

struct BfsOptions {
  int antipodes_limit = 10;          // how many antipodes to list (all are counted)
  bool count_all_components = true;  // explore the rest of the arrangement space too
  // After each layer of the goal's component: distance, positions at it, total so far.
  std::function<void(int distance, std::uint64_t layer, std::uint64_t total)> on_layer;
  // Memory budget (checked before the array is allocated), cancellation and deadline (checked
  // every few thousand positions). Null: none.
  const RunContext* run = nullptr;
};

struct BfsResult {
  std::uint64_t states = 0;              // positions reachable from the goal
  std::uint64_t arrangements = 0;        // n!
  int max_distance = 0;                  // God's number of the board (for this goal)
  std::vector<std::uint64_t> histogram;  // positions at distance 0, 1, ...
  std::uint64_t antipodes_count = 0;
  std::vector<Position> antipodes;  // the first antipodes_limit, in rank order
  double mean_distance = 0;
  int components = 0;                          // 0 when not counted
  std::vector<std::uint64_t> component_sizes;  // the goal's component first
  std::string components_method;
  double seconds = 0;
  std::uint64_t memory_bytes = 0;
  // False when the run context stopped the search: then only `histogram` (the layers of the
  // goal's component finished so far), `states` (their sum), `arrangements`, `seconds` and
  // `memory_bytes` are set.
  bool complete = true;
};

// Errors: board too big (LimitExceeded), bad goal, memory over the run's budget.
Result<BfsResult> bfs(BoardSize size, const Position& goal, const BfsOptions& options = {});

}  // namespace permuzzle::sliding
