// The Tower of Hanoi state graph: all pegs^d positions, explored by breadth-first search.
//
// Data layout: a position is encoded as the integer sum_i peg_of[i] * pegs^i (disk 1 is the
// least significant digit). Distances are stored in a std::vector<int32_t> indexed by that code
// (-1 = unreached), so the state graph for 3 pegs and d = 12 (531441 positions) takes 2 MiB.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/hanoi/position.hpp"

namespace permuzzle::hanoi {

inline constexpr std::uint64_t MAX_GRAPH_STATES = std::uint64_t(1) << 24;

std::uint64_t encode(const Position& p);
Position decode(std::uint64_t code, int disks, int pegs);
std::uint64_t state_count(int disks, int pegs);  // pegs^disks (saturates at 2^64-1)

// Bytes a BFS over `states` positions takes (distances and queue).
std::uint64_t bfs_bytes(std::uint64_t states);

// Distances from `source` to every position (LimitExceeded above MAX_GRAPH_STATES states, or
// over the run's memory budget before anything is allocated; run->stop_error() when the run
// asks to stop). The same for every function below that takes a run.
Result<std::vector<std::int32_t>> bfs_distances(const Position& source,
                                                const RunContext* run = nullptr);
// A shortest move sequence from `from` to `to` found by BFS (any number of pegs).
Result<std::vector<Move>> bfs_path(const Position& from, const Position& to,
                                   const RunContext* run = nullptr);

struct GraphSummary {
  int disks = 0, pegs = 0;
  std::uint64_t positions = 0;
  std::uint64_t edges = 0;
  std::vector<std::uint64_t> per_distance;  // from the source
  int eccentricity = 0;                     // largest distance from the source
  std::vector<Position> farthest;           // positions at that distance (up to 16)
  std::uint64_t farthest_count = 0;
  int diameter = -1;  // all-pairs maximum, or -1 when not computed (too large)
};

// BFS from `source`; the diameter is computed by BFS from every position when there are at
// most `diameter_limit` positions.
Result<GraphSummary> summarize_graph(const Position& source, std::uint64_t diameter_limit = 2187,
                                     const RunContext* run = nullptr);

// Graphviz DOT of the state graph (neato layout with fixed coordinates: for 3 pegs the picture
// is the Sierpinski triangle). LimitExceeded above `limit` positions.
Result<std::string> graph_dot(int disks, int pegs, std::uint64_t limit = 6561);

}  // namespace permuzzle::hanoi
