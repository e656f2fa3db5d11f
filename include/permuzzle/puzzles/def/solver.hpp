// Optimal solving of a puzzle given by a definition file: IDA* (search/ida.hpp) over canonical
// move sequences (search/canonical.hpp, families = the powers of one base move), guided by the
// maximum of pattern databases chosen automatically within a memory budget.
//
// Pattern databases: a database tracks a subset of the solved pattern's pieces (by label, see
// compiled.hpp); the others become one identical piece whose orientation is ignored. That
// projected definition is compiled and searched whole by BFS (search/bfs.hpp, 2 bits per rank
// while it runs), and the distance of every projected position is kept in 4 bits (15 = 15 or
// more), an admissible bound. The choice: the whole puzzle when its ranks fit (the table is then
// exact), else pieces taken in order into as few databases as the budget allows, a group whole
// when it fits beside the groups before it, else starting a table of its own.
// Tables go through TableStore with a key holding a hash of the definition, the metric and the
// tracked pieces. Quarter-turn metric: the databases are built with the moves of cost 1 and the
// search pays each power its cost.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"

namespace permuzzle::def {

struct DefSolveOptions {
  Metric metric = Metric::Htm;
  std::uint64_t memory_bytes = std::uint64_t{2} << 30;  // all pattern databases together
  bool all_optimal = false;                             // every optimal canonical solution
  int max_length = 100;  // LimitExceeded rather than an IDA* bound past this
  // Where positions are group elements (distinct pieces, orientations tracked), also bound a
  // node by the databases' bound of its inverse position (admissible: equal distances).
  bool inverse_lookups = true;
};

struct DefSolution {
  std::vector<std::string> moves;
  int length = 0;  // in the metric
  std::uint64_t nodes = 0;
  double seconds = 0;
};

struct PdbInfo {
  std::string pattern;  // tracked pieces, e.g. "CORNERS:1-8 EDGES:1,2"
  std::uint64_t entries = 0;
  bool exact = false;  // tracks every piece: the table is the distance itself
  std::string source;  // "built", "loaded", "memory"
  double seconds = 0;
};

class DefSolver {
 public:
  static Result<std::shared_ptr<DefSolver>> create(const Definition& definition,
                                                   const DefSolveOptions& options,
                                                   TableStore& tables, const RunContext& run);
  // Optimal solution(s) from `start` (a state in pattern form), each replayed.
  Result<std::vector<DefSolution>> solve(const State& start, const RunContext& run) const;
  // The same from a move sequence applied to the solved state (indices into Definition::moves).
  Result<std::vector<DefSolution>> solve_moves(const std::vector<std::size_t>& moves,
                                               const RunContext& run) const;
  const std::vector<PdbInfo>& tables() const { return infos_; }
  const CompiledPuzzle& puzzle() const { return *full_; }

  struct Pdb {
    std::shared_ptr<const CompiledPuzzle> puzzle;
    std::shared_ptr<const std::vector<std::uint8_t>> nibbles;
    std::vector<std::vector<std::uint8_t>> label_map;  // [group][full label] = projected label
  };

 private:
  DefSolveOptions options_;
  std::shared_ptr<const CompiledPuzzle> full_;
  std::vector<Pdb> pdbs_;
  std::vector<PdbInfo> infos_;
  std::vector<std::int32_t> canonical_;  // [state][move]
  int canonical_states_ = 0;
};

}  // namespace permuzzle::def
