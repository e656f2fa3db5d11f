// Pattern databases sized to the job: a solver for definition files that weighs the time to
// build its tables against the time to search with them.
//
// A puzzle person who just wrote a file solves a few positions of it; then the build of the
// largest tables that fit in memory (minutes for a 4x4 Loopover) is the whole wait, while small
// tables (built in a fraction of a second) may find the same optimal answers in seconds. A
// benchmark or a file solved again and again wants the large ones, built once and cached.
//
// Tiers. The plan of DefSolver (solver.hpp) is made for budgets growing by a factor of 16 up to
// the caller's (1 MB, 16 MB, 256 MB, ..., memory_bytes); tiers with the same databases count
// once. The first tier searched is the largest whose databases are all cached on disk, or else
// the smallest. Every tier's databases are admissible, so every answer is optimal whichever
// tier found it, and IDA* finds the same first solution with any of them (the bound only cuts
// subtrees without a solution within it): growing changes the time, never the answer.
//
// Growing (ski rental). The next tier's build time is estimated from this tier's (time per
// entry and move, measured; a fixed rate when this tier was loaded); a search on this tier may
// take at most that long. When a position's search passes it, or the searches on this tier so
// far plus the expected time of the positions left do, the next tier is built (and cached)
// and the position is searched again there. The total is then within a small factor of the
// best single choice, known only in hindsight.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/def/solver.hpp"

namespace permuzzle::def {

// One database a solve used, and why it was chosen.
struct TableUse {
  std::string name;  // the tracked pieces, as PdbInfo::pattern
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;
  double seconds = 0;  // to build or load it
  std::string source;  // "built", "loaded", "memory"
  bool exact = false;
  int tier = 0;  // 1 = the smallest tier
  std::string why;
};

struct PlannedSolveOptions {
  DefSolveOptions solve;      // solve.memory_bytes: the largest tier's budget
  std::size_t positions = 1;  // how many positions the caller will solve (the planner's guess)
  bool grow = true;           // false: the largest tier at once (the behaviour before tiers)
};

class PlannedSolver {
 public:
  static Result<std::unique_ptr<PlannedSolver>> create(const Definition& definition,
                                                       const PlannedSolveOptions& options,
                                                       TableStore& tables, const RunContext& run);
  // As DefSolver::solve, growing the tables when the search takes longer than building the next
  // tier would (see the file comment). Positions are expected one after another, up to
  // options.positions of them.
  Result<std::vector<DefSolution>> solve(const State& start, const RunContext& run,
                                         DefSolveReport* report = nullptr);
  // Every database used so far, tier by tier.
  const std::vector<TableUse>& tables() const { return uses_; }
  const DefSolver& solver() const { return *solver_; }
  int tier() const { return tier_; }  // 1-based, of tiers().size()
  struct Tier {
    std::uint64_t memory_bytes = 0;
    std::vector<PlannedTable> tables;
    bool cached = false;       // every database is on disk already
    bool fill_budget = false;  // DefSolveOptions::fill_budget (the first tier)
    std::uint64_t entries() const;
  };
  const std::vector<Tier>& tiers() const { return tiers_; }

 private:
  Status enter(std::size_t tier, const std::string& why, const RunContext& run);
  double estimated_build_seconds(std::size_t tier) const;

  Definition definition_;
  PlannedSolveOptions options_;
  TableStore* store_ = nullptr;
  std::vector<Tier> tiers_;
  std::shared_ptr<DefSolver> solver_;
  int tier_ = 0;
  std::vector<TableUse> uses_;
  // Measured on the current tier: seconds per (entry x move) of its build (0: nothing built),
  // seconds searched so far and positions solved.
  double build_rate_ = 0;
  double searched_seconds_ = 0;
  std::size_t solved_ = 0;
};

}  // namespace permuzzle::def
