// Additive disjoint pattern databases (Korf & Felner 2002) and the optimal IDA* solver built on
// them, for the 4x4 and 5x5 boards.
//
// A pattern is a set of goal CELLS; its tiles are the tiles whose goal cell is in the set. The
// table of a pattern stores, for every placement of its tiles, the least number of moves OF
// PATTERN TILES that bring them home (other tiles are indistinguishable and move for free). Such
// a value does not depend on where the goal puts the blank, and values of disjoint patterns add
// up to an admissible bound. Any goal is therefore handled by relabelling each tile with its
// goal cell; a board symmetry first moves the goal blank to a canonical cell (cell 0 for the
// corners, so Korf's blank-first goal and the standard blank-last goal share the same tables).
//
// Partitions are cell sets for the blank goal at cell 0 ("7-8" = {1..7} {8..15}, default on 4x4;
// "6-6-3", "5-5-5" on 4x4; Korf & Felner's "6-6-6-6", default on 5x5); docs/sliding-pdb.md
// draws them. A goal whose blank cannot be brought to a corner by a symmetry uses the same
// partition with that cell exchanged for cell 0 (separate tables).
// Each lookup is done twice, on the position and on its reflection about the main diagonal
// (same tables, transposed cells), and the larger sum is used.
//
// Tables are built on demand (breadth-first search over pattern placements and the blank's
// region), kept through permuzzle/core/table_store.hpp, verified on load and rebuilt when stale or
// corrupt; on_table_progress tells the caller what happens ("rebuilding ... because ...").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/sliding/types.hpp"

namespace permuzzle::sliding {

struct PdbOptions {
  // The table store (cache directory, tables shared in memory between solvers); it must outlive
  // the solver. Null: a store of this solver alone, in memory only (nothing saved).
  TableStore* tables = nullptr;
  std::string partition;         // "" = best for the board: "7-8" on 4x4, "6-6-6-6" on 5x5;
                                 // also "5-5-5", "6-6-3" on 4x4
  ProgressCallback on_progress;  // IDA*: growing bound, nodes
  // Table building/loading: `what` says which table and what happens (e.g. "building
  // sliding-4x4 7-8 group 2/2", "rebuilding ... because checksum mismatch"), fraction in [0,1].
  std::function<void(const std::string& what, double fraction)> on_table_progress;
  // Table-building threads; 0 = every hardware thread.
  int threads = 0;
  // Threads for large IDA* iterations (same node counts and solutions as one thread); 0 = the
  // same as `threads`.
  int search_threads = 0;
  // Cancellation, deadline and memory budget of the table builds and the search (checked every
  // few thousand nodes; a stopped search returns the run's error). Null: none. It must outlive
  // the solver.
  const RunContext* run = nullptr;
};

struct PdbBound {
  int total = 0;           // max of the direct and the reflected sum
  std::vector<int> parts;  // per group, of the lookup that gave `total`
  std::string partition;
};

// Partition names accepted for a board ("" means the default), default first.
std::vector<std::string> pdb_partitions(BoardSize size);

// What the tables of a partition cost ("" = the board's default): the bytes of the tables
// (on disk and in memory) and the peak memory while building them (the largest table's
// breadth-first search array plus the tables). Errors: board or partition without tables.
struct PdbTableCost {
  std::string partition;
  std::vector<int> pattern_sizes;  // tiles per table
  std::uint64_t table_bytes = 0;
  std::uint64_t build_peak_bytes = 0;
};
Result<PdbTableCost> pdb_table_cost(BoardSize size, const std::string& partition = {});

// Optimal solution by IDA* with the additive PDB bound (builds or loads tables first).
// Errors: board other than 4x4/5x5, malformed or unsolvable start/goal pair, unknown partition,
// table directory that cannot be written.
Result<SolveResult> solve_with_pdb(BoardSize size, const Position& start, const Position& goal,
                                   const PdbOptions& options);

// The PDB lower bound of `start` with respect to `goal`, with its parts.
Result<PdbBound> pdb_bound(BoardSize size, const Position& start, const Position& goal,
                           const PdbOptions& options);

// Reusable solver: loads (or builds) the tables once, then solves many positions. Movable, not
// copyable; solve() is const and may be called from several threads at once.
class PdbSolver {
 public:
  static Result<PdbSolver> create(BoardSize size, const PdbOptions& options);

  PdbSolver(PdbSolver&&) noexcept;
  PdbSolver& operator=(PdbSolver&&) noexcept;
  ~PdbSolver();

  BoardSize size() const;
  const std::string& partition() const;
  int search_threads() const;  // search threads actually used

  // `on_progress` overrides the options' callback when set.
  Result<SolveResult> solve(const Position& start, const Position& goal,
                            const ProgressCallback& on_progress = {}) const;
  Result<PdbBound> bound(const Position& start, const Position& goal) const;

  struct Impl;

 private:
  // They validate the pair once, before the tables are loaded, and reuse that preparation.
  friend Result<SolveResult> solve_with_pdb(BoardSize, const Position&, const Position&,
                                            const PdbOptions&);
  friend Result<PdbBound> pdb_bound(BoardSize, const Position&, const Position&, const PdbOptions&);
  explicit PdbSolver(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace permuzzle::sliding
