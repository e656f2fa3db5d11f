// Piece pattern databases for rectangular Loopover: the exact number of moves needed to bring a
// chosen set of pieces (the "pattern", at most 8 pieces on a board of at most 16 cells) to their
// home cells, whatever happens to the other pieces. It is an admissible bound for the whole
// position in the metric it was built for, and so is its value on any conjugate of the position
// by a board symmetry and on the inverse position (optimal_solver.hpp probes many of them).
//
// Data layout: the state is the tuple (c_0, ..., c_{k-1}) of the cells of the tracked pieces
// (c_i = cell of the piece whose home is pattern[i]). Its index splits the tuple in a head (the
// first h = min(k, 4) cells) and a tail (the rest):
//   index = head_rank(c_0..c_{h-1}) * TAIL + tail_rank(r_h..r_{k-1})
// where head_rank ranks ordered h-tuples of distinct cells of 0..N-1 (N = cells), r_i is c_i
// minus the number of head cells below it (a value in 0..N-h-1), tail_rank ranks ordered
// (k-h)-tuples of distinct values of 0..N-h-1, and TAIL = (N-h)!/(N-k)!. Both ranks are one table
// lookup on the tuple packed as 4-bit digits (digit i = element i). So the table is a sequence
// of "head blocks" of TAIL entries; a move maps a whole head block onto one head block through a
// fixed map of the free cells, which the breadth-first build exploits.
// Entries are 4 bits (two per byte, low nibble = even index): the exact distance 0..13, and 14
// for "14 or more" when some arrangement needs 15+ moves (capped(); e.g. 2x7 STM with 8
// pieces), which is still a lower bound. 4x4 with 8 pieces:
// 16!/8! = 518,918,400 entries = 259.5 MB. The entry array is allocated on 2 MB boundaries and
// offered to the kernel for transparent huge pages (fewer TLB misses on random probes).
// Kept through core/table_store.hpp (shared in memory, cached on disk) (key "loopover-RxC", pattern
// "piece-pdb-<metric>- cells-<list>", with "-cap<N>" appended for a cap other than 14).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/loopover/types.hpp"

namespace permuzzle::loopover {

inline constexpr int MAX_PDB_PIECES = 8;
inline constexpr int MAX_PDB_CELLS = 16;
inline constexpr int PDB_MAX_VALUE = 14;  // largest distance a 4-bit entry holds

struct PiecePdbOptions {
  Metric metric = Metric::Stm;
  int threads = 0;  // 0 = every hardware thread
  // The table store (cache, sharing in memory); null: built for this object alone, not saved.
  TableStore* tables = nullptr;
  // Largest value stored (1..PDB_MAX_VALUE); arrangements farther away get it (a lower bound).
  int cap = PDB_MAX_VALUE;
  // Memory budget (checked before the table is allocated), cancellation and deadline of a
  // build (checked every few blocks: a stopped build returns the run's error) and its progress
  // (a report after each breadth-first level). Null: none.
  const RunContext* run = nullptr;
};

class PiecePdb {
 public:
  // `pattern` lists the home cells (0-based) of the tracked pieces, distinct, 1..8 of them.
  static Result<PiecePdb> build(BoardSize size, const std::vector<int>& pattern,
                                const PiecePdbOptions& options = {});
  PiecePdb();
  ~PiecePdb();
  PiecePdb(const PiecePdb&);  // shares the entries (immutable once built)
  PiecePdb(PiecePdb&&) noexcept;
  PiecePdb& operator=(PiecePdb&&) noexcept;

  BoardSize size() const { return size_; }
  Metric metric() const { return metric_; }
  const std::vector<int>& pattern() const { return pattern_; }
  int pieces() const { return k_; }
  std::uint64_t entries() const { return entries_; }
  std::uint64_t bytes() const { return (entries_ + 1) / 2; }
  int max_distance() const { return max_distance_; }  // the cap when capped
  bool capped() const { return capped_; }  // entries equal to the cap mean "the cap or more"
  const std::vector<std::uint64_t>& histogram() const { return histogram_; }  // per distance
  bool loaded_from_cache() const { return loaded_from_cache_; }
  // What the cache said: "loaded ..." when loaded, "shared in memory" when another object of
  // the store had it; after a build "saved to ..." or "not saved: <why>"; empty without a cache.
  const std::string& cache_detail() const { return cache_detail_; }
  double seconds() const { return seconds_; }  // build or load time

  // Index of the state; cells[i] = cell of the piece whose home is pattern()[i].
  std::uint64_t index(const std::uint8_t* cells) const {
    std::uint32_t head = 0, mask = 0;
    for (int i = 0; i < head_len_; ++i) {
      head |= static_cast<std::uint32_t>(cells[i]) << (4 * i);
      mask |= 1u << cells[i];
    }
    std::uint32_t tail = 0;
    for (int i = head_len_; i < k_; ++i) {
      const std::uint32_t c = cells[i];
      const std::uint32_t r =
          c - static_cast<std::uint32_t>(__builtin_popcount(mask & ((1u << c) - 1)));
      tail |= r << (4 * (i - head_len_));
    }
    return static_cast<std::uint64_t>(head_rank_[head]) * tail_size_ + tail_rank_[tail];
  }
  int value(std::uint64_t index) const { return (data_[index >> 1] >> ((index & 1) << 2)) & 0xF; }
  int distance(const std::uint8_t* cells) const { return value(index(cells)); }
  void prefetch(std::uint64_t index) const { __builtin_prefetch(data_ + (index >> 1)); }

 private:
  struct Free {
    void operator()(std::uint8_t* p) const;
  };

  BoardSize size_;
  Metric metric_ = Metric::Stm;
  std::vector<int> pattern_;
  int k_ = 0;
  int head_len_ = 0;
  std::uint64_t head_size_ = 0;  // N!/(N-h)!
  std::uint32_t tail_size_ = 0;  // (N-h)!/(N-k)!
  std::uint64_t entries_ = 0;
  std::vector<std::uint16_t> head_rank_;  // packed head tuple -> rank (65536 entries)
  std::vector<std::uint16_t> tail_rank_;  // packed tail tuple -> rank (65536 entries)
  std::vector<std::uint16_t> head_word_;  // head rank -> packed tuple
  std::vector<std::uint16_t> tail_word_;  // tail rank -> packed tuple
  struct Entries;                         // what the table store keeps (piece_pdb.cpp)
  std::shared_ptr<const Entries> entries_table_;
  const std::uint8_t* data_ = nullptr;
  int max_distance_ = 0;
  std::vector<std::uint64_t> histogram_;
  bool loaded_from_cache_ = false;
  bool capped_ = false;
  std::string cache_detail_;
  double seconds_ = 0;

  friend struct PdbBuilder;
};

}  // namespace permuzzle::loopover
