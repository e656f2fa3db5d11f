// Loopover (rectangular): the fast near-optimal multi-stage solver, for every board from 2x2
// to 9x9. The result is verified by replay but NOT proven optimal.
//
// Method (docs/loopover-fast.md): a chain of subgroup stages. Stage i brings the pieces of a
// growing top-left block home using only the lines that do not cross the block solved so far
// (4x4: stage 1 solves tiles 1,2,3,5,6,7 with all moves, stage 2 finishes with C, D, 4). Each
// stage is solved exactly inside its subgroup by lookup in a breadth-first distance table over
// the arrangements of its target pieces. The search runs a beam over all board symmetries
// (translations, mirrors, quarter turn on square boards) and the inverse position; each kept
// partial solution tries several stage solutions (optimal, and up to `slack` moves longer) and
// keeps those that leave the next stage easiest; the beam keeps the best distinct boards after
// every stage, and the shortest full solution is returned. Boards
// whose last stage would need too large a table finish with conjugated 3-cycle commutators.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/loopover/types.hpp"

namespace permuzzle::loopover {

struct FastSolveOptions {
  Metric metric = Metric::Stm;
  std::uint64_t seed = 1;  // reserved for randomised tie-breaking; results are deterministic
  // Effort knobs. beam_width: distinct boards kept after each stage; branch: stage solutions
  // (ending on distinct boards) kept per partial solution; use_symmetry/use_inverse: start the beam
  // from every symmetric image of the position (and of its inverse).
  int beam_width = 256;
  int branch = 8;
  bool use_symmetry = true;
  bool use_inverse = true;
  // Extra moves a stage solution may take beyond the stage's optimum (0: optimal stage
  // solutions only). A longer stage solution often leaves the next stages much easier; the
  // beam's score (cost + next stage's exact distance) decides. Not used by a final stage.
  int slack = 2;
  // Stage solutions examined per kept partial solution (at least `branch`); the `branch` best
  // by cost + next stage's distance are kept.
  int examine = 16;
  // Largest stage table (entries, one byte each) the stage planner may use.
  std::uint64_t max_table_entries = 12'000'000;
  // The table store (on-disk cache, sharing in memory; it must outlive create()); null: tables
  // built in memory for this solver only.
  TableStore* tables = nullptr;
  // Memory budget, cancellation and deadline of the stage table builds in create() (a stopped
  // build returns the run's error); null: none.
  const RunContext* run = nullptr;
};

struct FastSolveResult {
  std::vector<Move> moves;  // STM: unit moves; MTM: one move per line shift (amount != 0)
  int length = 0;           // in the requested metric
  double seconds = 0;       // wall time of this solve (tables already built excluded)
  std::string method;       // e.g. "multi-stage 0x0>2x2>3x3>4x4>5x5, beam 256, stage slack 2
                            // (not proven optimal)"
};

// One stage of the plan, for documentation and diagnostics.
struct FastStageInfo {
  std::string from, to;       // locked block before and after, e.g. "2x2" -> "3x3"
  int pieces = 0;             // tracked pieces
  int free_cells = 0;         // cells outside the locked block
  int lines = 0;              // lines (rows + columns) the stage may move
  std::uint64_t entries = 0;  // table entries (one byte each)
  int max_distance = 0;       // the stage's worst case inside its subgroup
  double mean_distance = 0;   // over all reachable arrangements (uniform)
};

// The stage tables for one board size and metric. Building them is the expensive part
// (milliseconds for 4x4, about a second for 5x5); a solver object keeps them for many solves.
class FastSolver {
 public:
  static Result<FastSolver> create(BoardSize size, const FastSolveOptions& options = {});
  // The stage chain create() would build, without building any table.
  static std::string plan_for(BoardSize size, const FastSolveOptions& options = {});
  ~FastSolver();
  FastSolver(FastSolver&&) noexcept;
  FastSolver& operator=(FastSolver&&) noexcept;

  BoardSize size() const;
  std::string plan() const;  // the stage chain, e.g. "0x0>2x3>4x4"
  double build_seconds() const;
  std::vector<FastStageInfo> stages() const;

  // Validates `start` (tiles 1..rc once each; odd x odd boards need an even permutation).
  Result<FastSolveResult> solve(const Position& start, const FastSolveOptions& options) const;

  struct Impl;

 private:
  explicit FastSolver(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// One-shot convenience: the solver of (size, metric, table limit) is shared through
// options.tables (TableStore::shared), so repeated and concurrent calls build it once; without a
// store every call builds its own.
Result<FastSolveResult> solve_fast(BoardSize size, const Position& start,
                                   const FastSolveOptions& options);

// Length of `moves` in `metric` (STM: sum of |amount| after normalising each shift to the
// shorter direction; MTM: number of moves).
int move_count(BoardSize size, const std::vector<Move>& moves, Metric metric);

}  // namespace permuzzle::loopover
