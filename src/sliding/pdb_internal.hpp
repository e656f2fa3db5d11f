// Internals shared by the pattern-database builder (pdb_table.cpp) and the solver (pdb.cpp).
//
// Indexing of a pattern table with k tiles on an N-cell board (N <= 25, k <= 8):
//   index = comb_rank(mask) * k! + perm_rank(sequence)
// - mask: bit c set when a pattern tile stands on cell c (in the table's canonical frame);
//   comb_rank is the colexicographic rank among the C(N,k) masks of popcount k
//   (sum over the set cells c_0 < c_1 < ... of C(c_i, i+1)), which is also the order in which
//   Gosper's hack enumerates them.
// - sequence: for the occupied cells in increasing order, the index (0..k-1) of the tile
//   standing there (tile index = position of its goal cell in the table's sorted cell list);
//   perm_rank is its Lehmer-code rank.
// A tile sliding from cell a to cell b keeps the order of the other tiles, so the new sequence
// is the old one with the element at order position i moved to order position j: a table
// moves[(i*k + j)*k! + rank] gives the new rank without unranking.
//
// Entries are 4-bit nibbles (entry e in byte e/2, low nibble first). A nibble holds
// (d - md) / 2, where d is the least number of pattern-tile moves that bring the pattern home
// and md the Manhattan distance of the pattern tiles (d - md is even and >= 0); values above 15
// are stored as 15, which keeps the bound admissible. The bound of a whole partition is then
// total Manhattan + 2 * sum of the nibbles.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "permuzzle/result.hpp"

namespace permuzzle::sliding::pdb_detail {

constexpr int MAX_CELLS = 25;
constexpr int MAX_PATTERN = 8;
constexpr std::uint8_t NO_CELL = 0xFF;

// Square board geometry with its 8 symmetries (maps of cells).
struct Geometry {
  int width = 4;
  int cells = 16;
  std::array<std::array<std::uint8_t, MAX_CELLS>, 8> symmetry{};  // symmetry[s][cell]
  std::array<std::array<std::uint8_t, MAX_CELLS>, MAX_CELLS> manhattan{};
  // neighbor[cell][dir] (dir: Up, Down, Left, Right) or NO_CELL.
  std::array<std::array<std::uint8_t, 4>, MAX_CELLS> neighbor{};
  explicit Geometry(int width);
  int transpose(int cell) const { return symmetry[1][cell]; }  // symmetry 1 = main diagonal
};

// Colexicographic ranks of cell masks (N <= 25): rank = low[m & 8191] + high[popcount][m >> 13].
struct CombRanker {
  std::vector<std::uint32_t> low;   // 8192
  std::vector<std::uint32_t> high;  // 14 * 4096
  CombRanker();
  std::uint32_t rank(std::uint32_t mask) const {
    std::uint32_t lo = mask & 8191u;
    return low[lo] + high[std::popcount(lo) * 4096 + (mask >> 13)];
  }
};

// Permutation ranking helpers for sequences of k distinct values 0..k-1.
struct PermTables {
  int k = 0;
  std::uint32_t count = 1;              // k!
  std::vector<std::uint16_t> moves;     // (i*k + j)*count + rank -> rank after moving i to j
  std::vector<std::uint8_t> sequences;  // rank*k + position -> value
  explicit PermTables(int k);
};
std::uint32_t perm_rank(const std::uint8_t* seq, int k);

std::uint64_t binomial(int n, int k);

// One pattern database: its canonical cell set and the packed nibbles.
struct PatternTable {
  int board_width = 4;
  std::vector<std::uint8_t> cells;  // sorted goal cells (canonical frame)
  std::uint32_t perm_count = 1;     // k!
  std::uint64_t entries = 0;        // C(N,k) * k!
  std::vector<std::uint8_t> nibbles;
  int k() const { return static_cast<int>(cells.size()); }
  int get(std::uint64_t index) const { return (nibbles[index >> 1] >> ((index & 1) * 4)) & 15; }
  std::string name() const;  // e.g. "cells 1,2,3,4,5,6,7"
};

using TableProgress = std::function<void(const std::string& what, double fraction)>;

// Breadth-first construction (Korf & Felner 2002): states are (placement of the pattern tiles,
// connected region of empty cells holding the blank); moving the blank inside its region is free,
// moving a pattern tile costs 1. The stored value of a placement is the least over its regions.
Result<std::shared_ptr<PatternTable>> build_pattern_table(
    const Geometry& geometry, const CombRanker& ranker, const PermTables& perms,
    const std::vector<std::uint8_t>& cells, int threads, const TableProgress& progress);

// Loads the table from `dir` (verified) or builds it and saves it there; `dir` empty = no cache.
Result<std::shared_ptr<PatternTable>> obtain_pattern_table(const Geometry& geometry,
                                                           const CombRanker& ranker,
                                                           const PermTables& perms,
                                                           const std::vector<std::uint8_t>& cells,
                                                           const std::string& dir, int threads,
                                                           const TableProgress& progress);

constexpr std::uint32_t TABLE_FORMAT_VERSION = 1;

}  // namespace permuzzle::sliding::pdb_detail
