// Internal to src/loopover: ranking of partial permutations and breadth-first distance tables
// over them, shared by the fast multi-stage solver and triangular Loopover.
//
// Data layout: a table holds one byte per ordered arrangement of k tracked pieces over F cells
// (at most 128), indexed by Ranker::rank, with the exact distance or UNSEEN (0xFF).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <system_error>
#include <thread>
#include <vector>

#include "permuzzle/core/run_context.hpp"

namespace permuzzle::loopover::detail {

constexpr std::uint8_t UNSEEN = 0xFF;
// The same for tables of 4-bit entries (two per byte: the whole-graph BFS, piece databases).
constexpr std::uint8_t UNSEEN_NIBBLE = 0xF;

// 128-bit set of cells with "how many members are below p".
struct CellSet {
  std::uint64_t lo = 0, hi = 0;
  void add(int p) { (p < 64 ? lo : hi) |= std::uint64_t{1} << (p & 63); }
  bool has(int p) const { return ((p < 64 ? lo : hi) >> (p & 63)) & 1; }
  int below(int p) const {
    if (p < 64) return std::popcount(lo & ((std::uint64_t{1} << p) - 1));
    return std::popcount(lo) + std::popcount(hi & ((std::uint64_t{1} << (p - 64)) - 1));
  }
};

// Ranks ordered k-subsets of {0..F-1} (partial permutations) densely in [0, F!/(F-k)!).
// rank = sum_i d_i * P(F-i-1, k-i-1), d_i = p_i minus the earlier values below p_i.
class Ranker {
 public:
  Ranker() = default;
  Ranker(int f, int k) : k_(k), weight_(k) {
    for (int i = 0; i < k; ++i) {
      std::uint64_t w = 1;
      for (int j = 0; j < k - i - 1; ++j) w *= static_cast<std::uint64_t>(f - i - 1 - j);
      weight_[i] = w;
    }
    size_ = k == 0 ? 1 : weight_[0] * static_cast<std::uint64_t>(f);
  }
  std::uint64_t size() const { return size_; }
  int k() const { return k_; }

  std::uint64_t rank(const std::uint8_t* p) const {
    // d_i = p_i minus the number of earlier values below it (k <= 11 in practice: O(k^2)
    // comparisons beat bit tricks here).
    std::uint64_t r = 0;
    for (int i = 0; i < k_; ++i) {
      int d = p[i];
      for (int j = 0; j < i; ++j) d -= p[j] < p[i];
      r += static_cast<std::uint64_t>(d) * weight_[i];
    }
    return r;
  }
  void unrank(std::uint64_t r, std::uint8_t* p) const {
    CellSet used;
    for (int i = 0; i < k_; ++i) {
      int d = static_cast<int>(r / weight_[i]);
      r %= weight_[i];
      int v = 0;
      for (;; ++v) {
        if (used.has(v)) continue;
        if (d-- == 0) break;
      }
      p[i] = static_cast<std::uint8_t>(v);
      used.add(v);
    }
  }

 private:
  int k_ = 0;
  std::vector<std::uint64_t> weight_;
  std::uint64_t size_ = 1;
};

// Breadth-first search over arrangements from `sources` (ranks); `next[m * f + cell]` is where
// move m sends a piece standing on free cell `cell`. Returns the distance of every rank (UNSEEN
// where unreachable), or an empty vector when `run` asked to stop. Each level's frontier is split
// between run->threads() threads (one without a run): a rank is claimed by a compare-and-swap of
// its distance byte, so it enters the next frontier once and the table is the same for any
// number of threads (only the frontiers' order differs).
inline std::vector<std::uint8_t> bfs_table(const Ranker& ranker, int f, int num_moves,
                                           const std::vector<std::uint8_t>& next,
                                           const std::vector<std::uint64_t>& sources,
                                           const RunContext* run = nullptr) {
  std::vector<std::uint8_t> dist(ranker.size(), UNSEEN);
  const std::size_t k = static_cast<std::size_t>(ranker.k());
  // Frontiers hold the arrangements themselves (k bytes each), so expanding a state needs no
  // unranking; only the neighbours are ranked.
  std::vector<std::uint8_t> frontier;
  std::array<std::uint8_t, 128> q{};
  for (auto s : sources) {
    if (dist[s] == UNSEEN) {
      dist[s] = 0;
      ranker.unrank(s, q.data());
      frontier.insert(frontier.end(), q.begin(), q.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
  const unsigned threads = run ? std::max(1u, run->threads()) : 1u;
  // Levels smaller than this are expanded by one thread (starting threads would cost more).
  constexpr std::size_t MIN_STATES_PER_THREAD = 1 << 16;
  std::vector<std::vector<std::uint8_t>> found(threads);
  for (int depth = 0; !frontier.empty(); ++depth) {
    const auto next_depth = static_cast<std::uint8_t>(std::min(depth + 1, 254));
    const std::size_t states = frontier.size() / k;
    const unsigned workers =
        static_cast<unsigned>(std::clamp<std::size_t>(states / MIN_STATES_PER_THREAD, 1, threads));
    std::atomic<bool> stopped{false};
    // Expands states [begin, end) of the frontier into found[t]. A batch of states is ranked
    // first and its distance bytes prefetched, then claimed: the table is far larger than the
    // caches, so each claim is a memory access, and a batch overlaps them (the 5x5 fast solver's
    // tables: 57.7 s of CPU before, 17.6 s after).
    constexpr std::size_t BATCH_STATES = 16;
    const std::size_t batch_moves = BATCH_STATES * static_cast<std::size_t>(num_moves);
    auto expand = [&](unsigned t, std::size_t begin, std::size_t end) {
      std::vector<std::uint64_t> ranks(batch_moves);
      std::vector<std::uint8_t> images(batch_moves * k);
      std::vector<std::uint8_t>& out = found[t];
      out.clear();
      for (std::size_t s0 = begin; s0 < end; s0 += BATCH_STATES) {
        if (run && ((s0 - begin) & 4095) == 0 &&
            (stopped.load(std::memory_order_relaxed) || run->should_stop())) {
          stopped = true;
          return;
        }
        const std::size_t s1 = std::min(end, s0 + BATCH_STATES);
        std::size_t n = 0;
        for (std::size_t s = s0; s < s1; ++s) {
          const std::uint8_t* p = &frontier[s * k];
          for (int m = 0; m < num_moves; ++m, ++n) {
            const std::uint8_t* nm = &next[static_cast<std::size_t>(m) * f];
            std::uint8_t* image = &images[n * k];
            for (std::size_t i = 0; i < k; ++i) image[i] = nm[p[i]];
            ranks[n] = ranker.rank(image);
            __builtin_prefetch(&dist[ranks[n]], 1);
          }
        }
        for (std::size_t j = 0; j < n; ++j) {
          std::atomic_ref<std::uint8_t> cell(dist[ranks[j]]);
          std::uint8_t expected = UNSEEN;
          if (cell.load(std::memory_order_relaxed) == UNSEEN &&
              cell.compare_exchange_strong(expected, next_depth, std::memory_order_relaxed)) {
            const std::uint8_t* image = &images[j * k];
            out.insert(out.end(), image, image + k);
          }
        }
      }
    };
    std::vector<std::jthread> pool;  // joined on every exit (a refused thread throws)
    unsigned t = 1;
    for (; t < workers; ++t) {
      try {
        pool.emplace_back(expand, t, states * t / workers, states * (t + 1) / workers);
      } catch (const std::system_error&) {
        break;  // no thread to spare: this thread expands the rest
      }
    }
    expand(0, 0, states * 1 / workers);
    for (unsigned rest = t; rest < workers; ++rest) {
      expand(rest, states * rest / workers, states * (rest + 1) / workers);
    }
    for (auto& th : pool) th.join();
    if (stopped) return {};
    if (workers == 1) {
      frontier.swap(found[0]);  // the common case of small levels: no copy
    } else {
      frontier.clear();
      for (unsigned w = 0; w < workers; ++w) {
        frontier.insert(frontier.end(), found[w].begin(), found[w].end());
      }
    }
  }
  return dist;
}

}  // namespace permuzzle::loopover::detail
