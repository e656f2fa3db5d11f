// Walking-distance tables for rectangular Loopover: admissible, additive lower bounds.
//
// The VERTICAL table answers: how many column moves are needed to bring every tile into its
// home ROW if row moves were free? Free row moves mean each row only matters up to rotation,
// so the abstract state is, for every row, the cyclic word of the home rows of its tiles
// (a necklace). A column move takes one piece from each row (any piece, since the rows can be
// rotated at no cost first) and carries it `k` rows down. The HORIZONTAL table is the same
// with rows and columns exchanged. Row moves never change the vertical state and column moves
// never change the horizontal one, so vertical + horizontal is an admissible bound in STM and
// in MTM (each table is built with the metric's move costs). It is the exact distance of a
// relaxation, stronger than the classic walking distance (which forgets the order in a row).
//
// Data layout: a line word packs the labels of one line as base-K digits (K = number of lines,
// digit j = label at position j). word_class maps a word to its necklace class (minimal
// rotation), class ids dense from 0. A state is the mixed-radix index sum(class_i * nc^i) over
// the lines i. Tables with nc^lines <= MAX_DIRECT_ENTRIES are a direct byte array indexed by the
// state (kept through core/table_store.hpp: shared in memory, cached on disk); larger ones keep the
// sorted reachable states and their distances (binary search).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/loopover/types.hpp"

namespace permuzzle::loopover {

class WalkingDistanceTable {
 public:
  static constexpr std::uint64_t MAX_DIRECT_ENTRIES = 1ULL << 27;
  static constexpr std::uint64_t DEFAULT_MAX_STATES = 30'000'000;

  // `moving` = the axis of the moves counted: Axis::Column builds the vertical table (labels =
  // home rows, lines = rows), Axis::Row the horizontal one. Fails with LimitExceeded when the
  // relaxation has more than `max_states` states (large boards).
  static Result<WalkingDistanceTable> build(BoardSize size, Axis moving, Metric metric,
                                            std::uint64_t max_states = DEFAULT_MAX_STATES,
                                            TableStore* tables = nullptr,
                                            const RunContext* run = nullptr);
  // Both tables of a board, the vertical and the horizontal one, built at once on two threads
  // when `run` allows two (a first use waits for one build instead of two in a row).
  struct Pair;
  static Result<Pair> build_pair(BoardSize size, Metric metric,
                                 std::uint64_t max_states = DEFAULT_MAX_STATES,
                                 TableStore* tables = nullptr, const RunContext* run = nullptr);
  // True when build() found the table in the store (on disk or in memory) instead of searching.
  bool loaded_from_cache() const { return loaded_from_cache_; }

  // Distance of the relaxation for `position` (tile per cell, as in board.hpp).
  int distance(const std::uint8_t* position) const { return distance_of_index(index(position)); }

  // Incremental pieces used by the solver: state index of a position, and its distance.
  std::uint64_t index(const std::uint8_t* position) const {
    std::uint64_t idx = 0;
    for (int line = 0; line < lines_; ++line) {
      std::uint32_t word = 0;
      const std::uint32_t* contrib = &contrib_[static_cast<std::size_t>(line) * width_ * 256];
      const int* cells = &line_cells_[static_cast<std::size_t>(line) * width_];
      for (int j = 0; j < width_; ++j) word += contrib[j * 256 + position[cells[j]]];
      idx += static_cast<std::uint64_t>(word_class_[word]) * radix_[line];
    }
    return idx;
  }
  void prefetch(std::uint64_t idx) const {
    if (direct_) __builtin_prefetch(&direct_[idx]);
  }
  int distance_of_index(std::uint64_t idx) const {
    if (direct_) return direct_[idx];
    return sparse_distance(idx);
  }

  // Asks the kernel to back the direct table with huge pages (a hint: the solver's random
  // lookups into 24 MB otherwise miss the TLB on nearly every probe).
  void advise_huge_pages() const;

  std::uint64_t states() const { return states_; }    // reachable abstract states
  int max_distance() const { return max_distance_; }  // largest value in the table
  Axis moving_axis() const { return moving_; }
  Metric metric() const { return metric_; }

 private:
  int sparse_distance(std::uint64_t idx) const;

  BoardSize size_;
  Axis moving_ = Axis::Column;
  Metric metric_ = Metric::Stm;
  int lines_ = 0;                          // lines rotated for free (rows for the vertical table)
  int width_ = 0;                          // cells per line
  std::vector<int> line_cells_;            // [line * width + j] -> cell
  std::vector<std::uint32_t> contrib_;     // [(line * width + j) * 256 + tile] -> digit value
  std::vector<std::uint32_t> word_class_;  // line word -> necklace class id
  std::vector<std::uint64_t> radix_;       // nc^line
  struct Direct;                           // what the table store keeps (walking_distance.cpp)
  std::shared_ptr<const Direct> direct_table_;
  const std::uint8_t* direct_ = nullptr;  // direct table (0xFF = unreachable), or null
  std::uint64_t direct_size_ = 0;
  // The sorted states and their distances as a table-store payload, and back (false: not one).
  static std::vector<std::uint8_t> write_sparse(const WalkingDistanceTable& t);
  static bool read_sparse(const std::vector<std::uint8_t>& payload, WalkingDistanceTable& t);
  std::vector<std::uint64_t> sparse_keys_;  // sorted reachable states (when not direct)
  std::vector<std::uint8_t> sparse_dist_;
  std::uint64_t states_ = 0;
  int max_distance_ = 0;
  bool loaded_from_cache_ = false;
};

struct WalkingDistanceTable::Pair {
  WalkingDistanceTable vertical, horizontal;
};

}  // namespace permuzzle::loopover
