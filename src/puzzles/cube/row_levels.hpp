// Internal to the cube's table builds (optimal_table.cpp's nxopt tables, h48.cpp's h0 table): the
// level loop of a breadth-first search over a table kept in rows (one per symmetry class of a
// coordinate), shared by threads that take rows in chunks.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace permuzzle::cube::detail {

// Entries of other rows are read while their owners (or other threads) write them: whole bytes,
// relaxed (a reader looks only at its own entry's bits, which a concurrent write to another
// entry of the byte does not change, and a write only turns an unvisited entry into the next
// level).
inline std::uint8_t row_load(const std::uint8_t* p) {
  return __atomic_load_n(p, __ATOMIC_RELAXED);
}
inline void row_store(std::uint8_t* p, std::uint8_t v) {
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

// One level of the search: its entries are at distance `depth`; `backward`: the level is large
// against what is left, so each unvisited entry looks for a neighbour in it (a thread owns the
// rows it takes), instead of each entry of the level setting its neighbours.
struct RowLevel {
  int depth;
  bool backward;
};

// Runs levels 0, 1, ... until `total` entries are found (the goal, 1 entry, is set by the caller).
// make_worker() is called on each thread of each level and returns f(row, level), which handles
// one row and returns the entries it found at depth + 1 (it may keep buffers between rows).
// `cancelled` is polled between chunks of rows (by the calling thread), `progress` called after
// each level with the entries found so far; `counts` receives the entries at each distance.
// False when cancelled, after `max_levels` levels, or when a level finds nothing.
template <class MakeWorker>
bool run_row_levels(std::uint32_t rows, std::uint32_t chunk, std::uint64_t total, int max_levels,
                    unsigned threads, const std::function<bool()>& cancelled,
                    const std::function<void(int, std::uint64_t)>& progress,
                    std::vector<std::uint64_t>& counts, MakeWorker&& make_worker) {
  counts.assign(1, 1);
  std::uint64_t filled = 1;
  std::atomic<bool> stop{false};
  bool backward = false;
  for (int d = 0; filled < total; ++d) {
    if (d >= max_levels) return false;
    // Direction: forward while the level is small against what is left to find.
    if (!backward && counts[d] * 3 > total - filled) backward = true;
    const RowLevel level{d, backward};
    std::atomic<std::uint32_t> next_row{0};
    std::atomic<std::uint64_t> found{0};
    auto work = [&](bool main_thread) {
      auto row = make_worker();
      std::uint64_t local = 0;
      for (;;) {
        if (main_thread && cancelled && cancelled()) stop = true;
        if (stop.load(std::memory_order_relaxed)) break;
        const std::uint32_t first = next_row.fetch_add(chunk);
        if (first >= rows) break;
        const std::uint32_t last = std::min(first + chunk, rows);
        for (std::uint32_t c = first; c < last; ++c) local += row(c, level);
      }
      found += local;
    };
    {
      std::vector<std::jthread> pool;  // joined on every exit (a refused thread throws)
      for (unsigned k = 1; k < std::max(1u, threads); ++k) pool.emplace_back(work, false);
      work(true);
    }
    if (stop) return false;
    counts.push_back(found.load());
    filled += found.load();
    if (progress) progress(d + 1, filled);
    if (found.load() == 0) return false;
  }
  return filled == total;
}

}  // namespace permuzzle::cube::detail
