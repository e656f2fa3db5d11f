// Shortest Tower of Hanoi solutions.
//
// Three pegs: exact distance and an optimal move sequence between ANY two legal positions.
// The largest disk that differs between start and goal moves either once (everything smaller
// gathers on the third peg) or twice (smaller disks gather on the goal peg of the largest disk,
// it moves to the third peg, the smaller tower moves back over, it moves to its goal peg); the
// optimum is the better of the two (Hinz, "The Tower of Hanoi", 1989). Distances to a perfect
// tower are computed disk by disk in O(d). Lengths are exact for d <= 64 (128-bit arithmetic).
//
// Four or more pegs: Frame–Stewart numbers and move sequences between perfect towers (the
// Frame–Stewart algorithm; optimal for 4 pegs by Bousch 2014, but this library only claims
// optimality where its own BFS proves it, see graph.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/hanoi/position.hpp"

namespace permuzzle::hanoi {

__extension__ typedef unsigned __int128 Count;  // exact up to 2^128 - 1
std::string to_string(Count n);

// Number of moves of the optimal 3-peg solution from `from` to `to` (same disk count, 3 pegs).
Count optimal_distance3(const Position& from, const Position& to);
// The optimal 3-peg move sequence; an error (LimitExceeded) when it is longer than `limit`;
// run->stop_error() when the run asks to stop.
Result<std::vector<Move>> optimal_moves3(const Position& from, const Position& to,
                                         Count limit = Count(1) << 24,
                                         const RunContext* run = nullptr);

// Frame–Stewart number FS(n, k): min over t of 2 FS(t, k) + FS(n - t, k - 1), FS(n, 3) = 2^n - 1.
Count frame_stewart(int disks, int pegs);
// The split t achieving the minimum (largest t on ties).
int frame_stewart_split(int disks, int pegs);
// Frame–Stewart moves taking a perfect tower from peg `from` to peg `to`.
Result<std::vector<Move>> frame_stewart_moves(int disks, int pegs, int from, int to,
                                              Count limit = Count(1) << 24,
                                              const RunContext* run = nullptr);

// A shortest (or, for 4+ pegs between towers, Frame–Stewart) solution with the argument for its
// length: the method choice every front end shares.
struct SolveOptions {
  bool build_moves = true;                              // also the move sequence
  Count move_limit = Count(1) << 26;                    // LimitExceeded above this many moves
  std::uint64_t proof_states = std::uint64_t(1) << 20;  // BFS proves optimality up to this size
  // Stop request and memory budget of the BFS and of the move generation (optional).
  const RunContext* run = nullptr;
};

// The length solve() answers with, without building anything: the exact 3-peg distance, the
// Frame–Stewart number between two different towers, or nullopt (4+ pegs otherwise: a BFS
// path, at most proof_states positions long).
std::optional<Count> solution_length(const Position& from, const Position& to);

struct Solution {
  Count length = 0;
  bool optimal = false;
  std::string method;  // "3-peg recursion (...)", "Frame-Stewart" or "BFS"
  std::string proof;   // why the length is optimal, or why that is not claimed
  bool have_moves = false;
  std::vector<Move> moves;  // when have_moves
  // The moves were played legally from the start and reached the goal: checked once, by the
  // generator as it emits them (3 pegs, Frame–Stewart) or by a replay of the BFS path.
  bool verified = false;
};

// 3 pegs: the exact recursion. 4+ pegs between two different perfect towers: Frame–Stewart,
// proven optimal by BFS when the state graph has at most proof_states positions. 4+ pegs
// otherwise: BFS (LimitExceeded above proof_states positions).
Result<Solution> solve(const Position& from, const Position& to, const SolveOptions& options = {});

}  // namespace permuzzle::hanoi
