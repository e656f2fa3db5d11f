// Optimal Loopover solving: IDA* in STM or MTM.
//
// Bound: max over the position and its inverse of (vertical + horizontal walking distance),
// see walking_distance.hpp; both are admissible because the inverse position has the same
// distance (the move set is closed under inverses). Search: canonical move order (moves on
// different lines of one axis commute, so within a run of same-axis moves lines increase; a
// line is turned at most halfway round, one way for half turns), parity-aware bound steps
// when every move is odd (STM on even x even boards: a solution's length has the position's
// parity, so the bound starts at the right parity and grows by 2). Every solution is replayed
// on the start position before it is returned.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "permuzzle/loopover/board.hpp"
#include "permuzzle/loopover/walking_distance.hpp"

namespace permuzzle::loopover {

// Largest board the optimal solver accepts (cells); larger boards need the fast solver.
inline constexpr int MAX_OPTIMAL_CELLS = 25;

struct OptimalSolveOptions {
  Metric metric = Metric::Stm;
  std::uint64_t max_nodes = 0;  // 0 = no limit; otherwise LimitExceeded when exceeded
  bool use_inverse = true;      // also probe the bound on the inverse position
  // Called when an iteration with a new bound starts (bound, nodes so far).
  std::function<void(int bound, std::uint64_t nodes)> on_iteration;
};

struct OptimalSolveResult {
  MoveSequence moves;  // STM: unit moves; MTM: one move per line shift
  int length = 0;
  int initial_bound = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;  // search only (tables excluded)
};

// The tables for one board and metric; build once, solve many.
class OptimalSolver {
 public:
  // `tables_dir` (may be empty: no caching) keeps the walking-distance tables on disk.
  static Result<OptimalSolver> create(BoardSize size, Metric metric,
                                      const std::string& tables_dir = {});
  ~OptimalSolver();
  OptimalSolver(OptimalSolver&&) noexcept;
  OptimalSolver& operator=(OptimalSolver&&) noexcept;

  BoardSize size() const;
  Metric metric() const;
  double build_seconds() const;

  // The admissible bound used by the search (max over position and inverse).
  int bound(const Position& position) const;
  const WalkingDistanceTable& vertical() const;
  const WalkingDistanceTable& horizontal() const;

  // Validates `start` and checks solvability (Unsolvable error otherwise).
  Result<OptimalSolveResult> solve(const Position& start,
                                   const OptimalSolveOptions& options = {}) const;

  struct Impl;

 private:
  explicit OptimalSolver(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Inverse of a position (the tile/cell roles exchanged): same distance in both metrics.
Position inverse_position(const Position& position);

}  // namespace permuzzle::loopover
