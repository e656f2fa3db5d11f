// Whole-graph analysis of sliding boards of at most 16 cells (3x3, 2x6, 3x4, 2x7, 4x4, 2x8 when
// the memory budget allows: 2 bits per position of one parity class, n!/16 bytes).
//
// The search runs on search/bfs.hpp (2-bit entries: the level loop, threads, cancellation).
// Positions are ranked within their parity class (SlidingRanking below, 64-bit ranks): a move
// keeps the class, so the table holds n!/2 entries, not n!. Distances are not stored: the
// histogram is counted level by level and the last level's positions are the antipodes (listed
// in the lexicographic order of the whole arrangement, the order of rank_permutation).
// With count_all_components the other arrangements are explored too: any part of the goal's
// class not reached, then the other class, each from its first position not reached, until
// every arrangement belongs to a component.
// Under a cluster (an MPI job) every search runs on search/bfs_distributed.hpp, each process
// holding its slice of the table; the answer is the same as in one process.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/sliding/types.hpp"
#include "permuzzle/search/bfs_distributed.hpp"

namespace permuzzle::sliding {

inline constexpr int BFS_MAX_CELLS = 16;

// Perfect ranking of the positions of one parity class. A position is the blank's cell b and
// the tiles' order t (the n-1 tiles read in cell order, skipping the blank). A horizontal move
// keeps t; a vertical one moves one tile past cols-1 others. So the class
//   parity(t) XOR (cols even ? row(b) mod 2 : 0)
// never changes, and within a class the parity of t follows from b. Layout of a rank:
//   rank = b * (n-1)!/2 + floor(lex(t) / 2)
// where lex(t) is t's Lehmer rank among the permutations of 1..n-1: halving drops its last
// digit (0 or 1, weight 1), which the class's parity restores. Ranks run over 0..n!/2-1.
class SlidingRanking {
 public:
  explicit SlidingRanking(BoardSize size);
  BoardSize size() const { return size_; }
  std::uint64_t states() const { return per_blank_ * static_cast<std::uint64_t>(cells_); }
  std::uint64_t per_blank() const { return per_blank_; }  // (n-1)!/2
  int parity_class(const Position& p) const;
  // The parity of the tiles' order of the positions of class `klass` with the blank at `blank`
  // (the class formula above, solved for parity(t)).
  int tiles_parity(int klass, int blank) const {
    return klass ^ (size_.cols % 2 == 0 ? (blank / size_.cols) & 1 : 0);
  }
  std::uint64_t rank(const Position& p) const { return rank(p.data()); }  // within parity_class(p)
  std::uint64_t rank(const std::uint8_t* cells) const;  // the same for the tile per cell
  // The tiles' order of a rank of class `klass` (t[0..n-2]); returns the blank's cell.
  int unrank_tiles(std::uint64_t rank, int klass, std::uint8_t* t) const;
  Position position(std::uint64_t rank, int klass) const;
  void position(std::uint64_t rank, int klass, std::uint8_t* cells) const;  // cells() entries
  // Weight of Lehmer digit i of t, (n-2-i)!.
  std::uint64_t weight(int i) const { return weight_[i]; }

 private:
  BoardSize size_;
  int cells_ = 0;
  std::uint64_t per_blank_ = 0;
  std::uint64_t weight_[BFS_MAX_CELLS] = {};
};

// None: every position. On: the classes whenever board maps keep the goal. Auto: the classes only
// when the table of positions would not fit the memory budget: per position the class search
// costs more time (1.7 times as much on 3x4), and the table of positions holds 2 bits a
// position where the classes' holds 2 bits per class index (3x4 with a mid-row goal: 2/3).
enum class SymmetryMode : std::uint8_t { None, Auto, On };

struct BfsOptions {
  int antipodes_limit = 10;          // how many antipodes to list (all are counted)
  bool count_all_components = true;  // explore the rest of the arrangement space too
  // After each layer of the goal's component: distance, positions at it, total so far.
  std::function<void(int distance, std::uint64_t layer, std::uint64_t total)> on_layer;
  // Memory budget (checked before the array is allocated), cancellation and deadline (checked
  // every few thousand positions). Null: none.
  const RunContext* run = nullptr;
  // A checkpoint of the goal component's search after every level in this directory (empty:
  // none; search/bfs_checkpoint.hpp), and whether to resume from the last one.
  std::string checkpoint_dir;
  bool resume = false;
  // Whether to search classes of conjugate positions (symmetry_classes.hpp) when board maps keep
  // the goal: the answer is the same, in positions; the table holds one entry per class index.
  SymmetryMode symmetry = SymmetryMode::None;
};

struct BfsResult {
  std::uint64_t states = 0;              // positions reachable from the goal
  std::uint64_t arrangements = 0;        // n!
  int max_distance = 0;                  // God's number of the board (for this goal)
  std::vector<std::uint64_t> histogram;  // positions at distance 0, 1, ...
  std::uint64_t antipodes_count = 0;
  std::vector<Position> antipodes;  // the first antipodes_limit, in lexicographic order
  // The symmetry group used (1 without), the classes of the goal's component and per distance
  // (the positions' figures above without symmetry).
  std::uint64_t symmetries = 1;
  std::uint64_t classes = 0;
  std::vector<std::uint64_t> class_histogram;
  double mean_distance = 0;
  int components = 0;                          // 0 when not counted
  std::vector<std::uint64_t> component_sizes;  // the goal's component first
  std::string components_method;
  double seconds = 0;
  int resumed_from = -1;           // the checkpoint level resumed from, -1 if none
  std::uint64_t memory_bytes = 0;  // the BFS table (one parity class at a time; a process's share)
  // Under a cluster (RunContext::cluster, e.g. mpirun): the search of the goal's component over
  // the processes (search/bfs_distributed.hpp); every process computes the same result.
  std::optional<search::DistributedBfsStats> distribution;
  // False when the run context stopped the search: then only `histogram` (the layers of the
  // goal's component finished so far), `states` (their sum), `symmetries`, `class_histogram`,
  // `classes` (its sum), `arrangements`, `seconds` and `memory_bytes` are set.
  bool complete = true;
};

// Errors: board too big (LimitExceeded), bad goal, memory over the run's budget.
Result<BfsResult> bfs(BoardSize size, const Position& goal, const BfsOptions& options = {});

}  // namespace permuzzle::sliding
