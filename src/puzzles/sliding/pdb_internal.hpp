// Internals shared by the pattern-database builder (pdb_table.cpp) and the solver (pdb.cpp).
//
// Frame. A table numbers the board cells along a locality curve (frame_of: board cell -> frame
// cell): the Hilbert curve on 4x4, the boustrophedon (snake) on other widths. Sequences are
// ordered by frame cell, so a tile that slides past other pattern tiles in that order changes
// the permutation part of the index; along a curve that happens for about a third of the
// moves instead of nearly every vertical move in row-major order.
//
// Indexing of a pattern table with k tiles on an N-cell board (N <= 25, k <= 8), perm-major:
//   index = perm_rank(sequence) * stride + comb_rank(mask),  stride = C(N,k) rounded up to even
// - mask: bit c set when a pattern tile stands on frame cell c; comb_rank is the colexicographic
//   rank among the C(N,k) masks of popcount k (sum over the set cells c_0 < c_1 < ... of
//   C(c_i, i+1)), which is also the order in which Gosper's hack enumerates them.
// - sequence: for the occupied frame cells in increasing order, the index (0..k-1) of the tile
//   standing there (tile index = position of its goal in the table's sorted frame_cells);
//   perm_rank is its Lehmer-code rank.
// Why perm-major: a move that keeps the sequence (a slide past no pattern tile) changes only
// comb_rank, so the child's entry lies within one block of C(N,k)/2 bytes (6.4 KB for 8 of 16
// cells) of its parent's, usually in the same 4 KB page and often the same cache line. The search
// is bound by these random reads, and on a virtual machine whose host maps memory in 4 KB pages a
// read in a page not used recently also pays a nested page walk.
// A tile sliding from cell a to cell b keeps the order of the other tiles, so the new sequence
// is the old one with the element at order position i moved to order position j: a table
// moves[(i*k + j)*k! + rank] (perm_move_table) gives the new rank without unranking; the
// builder uses it, the search uses packed sequences (see PermTables).
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

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/table_store.hpp"

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

// The table frame of a board width: frame_of[board cell] = frame cell (see the top comment).
std::array<std::uint8_t, MAX_CELLS> table_frame(int width);
// The geometry with every cell renamed to frame_of[cell] (neighbours, distances, symmetries).
Geometry renumbered(const Geometry& geometry, const std::array<std::uint8_t, MAX_CELLS>& frame_of);

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
//
// Packed sequences (used by the search): element i in bits 3i..3i+2, k <= 8, so 24 bits. The
// Lehmer rank splits at element k - m (m = min(k, 4)): rank = first_rank[low 3(k-m) bits] +
// last_rank[the remaining 3m bits], because the first k - m digits depend only on the first
// k - m elements and the last m digits only on the relative order of the last m. Both tables
// have 4096 entries (8 KB + 4 KB), so ranking stays in L1 instead of reading the k*k*k! move
// table (5 MB for k = 8).
struct PermTables {
  int k = 0;
  std::uint32_t count = 1;                // k!
  std::vector<std::uint8_t> sequences;    // rank*k + position -> value
  int split_shift = 0;                    // 3 * (k - m)
  std::vector<std::uint16_t> first_rank;  // 4096: sum of the first k-m digits * their weights
  std::vector<std::uint8_t> last_rank;    // 4096: Lehmer rank of the last m elements' order
  explicit PermTables(int k);
  std::uint32_t packed_rank(std::uint32_t packed) const {
    return first_rank[packed & ((1u << split_shift) - 1)] + last_rank[packed >> split_shift];
  }
};
// (i*k + j)*k! + rank -> rank after moving element i to position j (k*k*k! entries, 5 MB for
// k = 8: built by the table builder only, not at every solver start).
std::vector<std::uint16_t> perm_move_table(const PermTables& perms);
std::uint32_t pack_sequence(const std::uint8_t* seq, int k);
// The packed sequence with element i taken out and reinserted at position j.
inline std::uint32_t move_packed(std::uint32_t packed, int i, int j) {
  const std::uint32_t e = (packed >> (3 * i)) & 7u;
  const std::uint32_t below_i = (1u << (3 * i)) - 1;
  const std::uint32_t removed = (packed & below_i) | ((packed >> 3) & ~below_i);
  const std::uint32_t below_j = (1u << (3 * j)) - 1;
  return (removed & below_j) | (e << (3 * j)) | ((removed & ~below_j) << 3);
}
std::uint32_t perm_rank(const std::uint8_t* seq, int k);

std::uint64_t binomial(int n, int k);

// One pattern database: its canonical cell set and the packed nibbles.
struct PatternTable {
  int board_width = 4;
  std::vector<std::uint8_t> cells;  // sorted goal cells (board numbering, canonical symmetry)
  std::array<std::uint8_t, MAX_CELLS> frame_of{};  // board cell -> frame cell
  std::vector<std::uint8_t> frame_cells;           // sorted frame cells of `cells`: tile order
  std::uint32_t perm_count = 1;                    // k!
  std::uint64_t stride = 0;                        // C(N,k) rounded up to even
  std::uint64_t entries = 0;                       // k! * stride
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
    const std::vector<std::uint8_t>& cells, int threads, const TableProgress& progress,
    const RunContext& run = RunContext{});

// The table through `store` (shared in memory, loaded and verified, or built and saved).
Result<std::shared_ptr<const PatternTable>> obtain_pattern_table(
    const Geometry& geometry, const CombRanker& ranker, const PermTables& perms,
    const std::vector<std::uint8_t>& cells, TableStore& store, int threads,
    const TableProgress& progress, const RunContext* run = nullptr);

// 2: perm-major index over the locality frame (1 was comb-major in row-major cell order).
constexpr std::uint32_t TABLE_FORMAT_VERSION = 2;

}  // namespace permuzzle::sliding::pdb_detail
