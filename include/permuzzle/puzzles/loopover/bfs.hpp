// Whole-graph breadth-first search of a Loopover board (every position, from the goal).
//
// Positions are ranked perfectly by their Lehmer code (row-major tiles, 64-bit ranks, n = cells <=
// 16; the memory budget decides: 12! = 479,001,600 ranks fit in 240 MB). The search is
// search/bfs.hpp's with 4-bit entries: one entry per rank, 16 per 64-bit word (rank r in word r /
// 16, bits 4 * (r % 16)); 0xF = not reached, otherwise the distance mod 15. This file supplies the
// ranking and the expander (neighbour ranks from the position's Lehmer prefix sums). 3x4 and 2x6
// need 240 MB.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "permuzzle/core/ranking.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"
#include "permuzzle/search/bfs.hpp"
#include "permuzzle/search/bfs_distributed.hpp"

namespace permuzzle::loopover {

// Boards up to 16 cells have 64-bit ranks; the memory budget decides what is searched (4 bits a
// position: 3x4 and 2x6 240 MB, 2x7 43.6 GB).
inline constexpr int MAX_BFS_CELLS = 16;

struct BfsStats;

// Whether analyse() searches symmetry classes (symmetry_classes.hpp): Auto does where the class
// index supports the board, None searches every position (and DistanceTable always does).
enum class SymmetryMode : std::uint8_t { None, Auto };

struct BfsOptions {
  Metric metric = Metric::Stm;
  SymmetryMode symmetry = SymmetryMode::None;
  int threads = 0;  // 0 = every hardware thread
  // After each level: depth, positions at that depth, seconds so far (classes searched: the
  // positions they stand for).
  std::function<void(int depth, std::uint64_t count, double seconds)> on_level;
  // Cancellation and time limit, checked before every chunk of ranks, and the memory budget,
  // checked before the table is allocated; null: no checks.
  const RunContext* run = nullptr;
  // When the run stops the search, receives what was known: `histogram` (the levels finished
  // so far), `states` (their sum), size, metric, seconds and table_bytes. Null: nothing.
  BfsStats* partial = nullptr;
  // analyse(): a checkpoint after every level in this directory (empty: none;
  // search/bfs_checkpoint.hpp), and whether to resume from the last one.
  std::string checkpoint_dir;
  bool resume = false;
  // How many antipodes to list as positions (sample_antipodes): the first ranks of the last
  // level; over symmetry classes, the positions of the first classes' orbits.
  std::size_t antipodes = 5;
};

struct BfsStats {
  BoardSize size;
  Metric metric = Metric::Stm;
  std::uint64_t states = 0;              // positions reached (the group's order)
  std::vector<std::uint64_t> histogram;  // positions per distance 0..max
  int max_distance = 0;                  // God's number
  std::uint64_t antipodes = 0;           // positions at max_distance
  double mean_distance = 0;
  double seconds = 0;
  std::uint64_t table_bytes = 0;
  // Up to 5, when max_distance < 15 (4 bits) or always (classes: one per class, its canonical
  // member).
  std::vector<Position> sample_antipodes;
  // The search: symmetry group order (1 without symmetry), classes reached (= states without)
  // and per distance.
  std::uint64_t symmetries = 1;
  std::uint64_t classes = 0;
  std::vector<std::uint64_t> class_histogram;
  std::uint64_t antipode_classes = 0;
  // Set by a search over a cluster (analyse under mpirun); table_bytes is then one process's.
  std::optional<search::DistributedBfsStats> distribution;
  int resumed_from = -1;  // the checkpoint level analyse() resumed from, -1 if none
};

// Perfect rank of a permutation of the tiles 1..n (Lehmer code, 64 bits; n <= 16).
inline std::uint64_t rank_position(const std::uint8_t* tiles, int n) {
  return rank_permutation(tiles, n, 1);
}
inline void unrank_position(std::uint64_t rank, int n, std::uint8_t* tiles) {
  unrank_permutation(rank, n, tiles, 1);
}

class DistanceTable {
 public:
  static Result<DistanceTable> build(BoardSize size, const BfsOptions& options = {});

  const BfsStats& stats() const { return stats_; }
  // Exact distance of a position, or -1 if unreachable. Only when max_distance < 15.
  int distance(const Position& position) const;
  // Raw 4-bit entry of a rank.
  int entry(std::uint64_t rank) const { return static_cast<int>(table_.entry(rank)); }

 private:
  BfsStats stats_;
  search::BfsTable table_;
};

// The statistics of the whole-graph search: DistanceTable::build's in one process, or with
// options.symmetry the search over symmetry classes (symmetry_classes.hpp: 2 bits per class,
// each class weighted by its orbit size, so histogram and states are positions); under a
// cluster (options.run's RunContext::cluster, e.g. mpirun) the search of
// search/bfs_distributed.hpp, each process holding its slice of the table (every process gets
// the same statistics).
Result<BfsStats> analyse(BoardSize size, const BfsOptions& options = {});

}  // namespace permuzzle::loopover
