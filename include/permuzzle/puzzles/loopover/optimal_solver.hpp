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
//
// Optional piece pattern database (piece_pdb.hpp): the bound is also the maximum, over the
// distinct images of the pattern under the board symmetries (symmetry.hpp: conjugation keeps
// the distance), of the pattern distance of the conjugated position, and the same on the
// inverse position. On 4x4 the default pattern is the 8 pieces of rows A and B; its images are
// the 4 pairs of adjacent rows and the 4 pairs of adjacent columns, so 16 probes per node. The
// probes of a node are computed and prefetched together, then read in order and the node is
// cut as soon as one is large enough; they go in groups of 8 (a cut in the first group saves the
// misses of the second), and a probe that cuts moves one place forward in the search's order.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"
#include "permuzzle/puzzles/loopover/piece_pdb.hpp"
#include "permuzzle/puzzles/loopover/walking_distance.hpp"

namespace permuzzle::loopover {

// Largest board the optimal solver accepts (cells); larger boards need the fast solver.
inline constexpr int MAX_OPTIMAL_CELLS = 25;
// Largest board solved optimally when the caller does not choose a solver: above it (5x4 and
// larger) an optimal solve takes minutes to hours, so the fast solver (fast_solver.hpp) is used.
inline constexpr int AUTO_FAST_CELLS = 16;
// Whether a solve that leaves the choice to the library uses the fast solver.
inline bool prefers_fast_solver(BoardSize size) {
  return size.cells() > AUTO_FAST_CELLS;
}

struct OptimalSolveOptions {
  Metric metric = Metric::Stm;
  std::uint64_t max_nodes = 0;  // 0 = no limit; otherwise LimitExceeded when exceeded
  bool use_inverse = true;      // also probe the bound on the inverse position
  int max_pattern_probes = 0;   // pattern lookups per node at most (0 = all; for measuring)
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

enum class PatternChoice : std::uint8_t {
  None,   // walking distance only
  Auto,   // default_pattern(size) when the board has one
  Cells,  // OptimalSolverConfig::pattern_cells
};

struct OptimalSolverConfig {
  // The table store (on-disk cache, tables shared in memory); null: this solver's tables only.
  TableStore* tables = nullptr;
  PatternChoice pattern = PatternChoice::None;
  std::vector<int> pattern_cells;  // home cells of the tracked pieces, for PatternChoice::Cells
  int threads = 0;                 // 0 = every hardware thread (pattern database build)
  // Memory budget, cancellation, deadline and progress of the pattern database build (see
  // PiecePdbOptions::run); null: none.
  const RunContext* run = nullptr;
};

// The pattern PatternChoice::Auto uses: the pieces of as many whole rows (or whole columns, if
// that tracks more pieces) as fit in MAX_PDB_PIECES; empty when the board has more than
// MAX_PDB_CELLS cells. 4x4: rows A and B (cells 0..7).
std::vector<int> default_pattern(BoardSize size);

// The tables for one board and metric; build once, solve many.
class OptimalSolver {
 public:
  // `tables` (null: no caching) keeps the walking-distance tables on disk and in memory.
  static Result<OptimalSolver> create(BoardSize size, Metric metric, TableStore* tables = nullptr);
  static Result<OptimalSolver> create(BoardSize size, Metric metric,
                                      const OptimalSolverConfig& config);
  ~OptimalSolver();
  OptimalSolver(OptimalSolver&&) noexcept;
  OptimalSolver& operator=(OptimalSolver&&) noexcept;

  BoardSize size() const;
  Metric metric() const;
  double build_seconds() const;

  // The admissible bound used by the search (max over position and inverse, walking distance
  // and pattern probes, rounded up to the position's parity when every move is odd).
  int bound(const Position& position) const;
  // The pattern part alone: max over the probes (0 without a pattern database).
  int pattern_bound(const Position& position) const;
  const PiecePdb* pattern_db() const;  // null without a pattern database
  // Why the automatic pattern database is not used (too large for the memory budget, or still
  // being built in the background for a later request); empty when it is used or not asked for.
  const std::string& pattern_note() const;
  int probes() const;  // pattern lookups per node (position and inverse)
  const WalkingDistanceTable& vertical() const;
  const WalkingDistanceTable& horizontal() const;

  // Validates `start` and checks solvability (Unsolvable error otherwise).
  Result<OptimalSolveResult> solve(const Position& start,
                                   const OptimalSolveOptions& options = {}) const;
  // The same under a run context: its stop token, deadline and node limit stop the search
  // (Cancelled / LimitExceeded), its progress sink hears "bound B" per iteration.
  Result<OptimalSolveResult> solve(const Position& start, const OptimalSolveOptions& options,
                                   const RunContext& run) const;

  struct Impl;

 private:
  explicit OptimalSolver(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Inverse of a position (the tile/cell roles exchanged): same distance in both metrics.
Position inverse_position(const Position& position);

}  // namespace permuzzle::loopover
