#include "permuzzle/puzzles/loopover/bfs.hpp"
#include "permuzzle/core/run_context.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <thread>

namespace permuzzle::loopover {

namespace {

constexpr std::uint8_t UNSEEN = 0xF;
constexpr std::uint64_t CHUNK = 1u << 16;  // ranks per work item (a multiple of 16: whole words)

struct MoveMap {
  std::uint8_t dst[MAX_BFS_CELLS];  // content of cell i goes to cell dst[i]
};

// The 16 entries of ranks r..r+15 (r a multiple of 16) as one word, read atomically. Callers
// of the skip test only ask whether an entry they want is there, and no thread writes such an
// entry during the level: top-down wants `cur` entries (claims only turn UNSEEN into nxt),
// bottom-up wants UNSEEN entries of its own chunk (only the chunk's owner claims them).
inline std::uint64_t word_at(std::uint64_t* words, std::uint64_t r) {
  return std::atomic_ref<std::uint64_t>(words[r >> 4]).load(std::memory_order_relaxed);
}

inline int load_entry(std::uint64_t* words, std::uint64_t rank) {
  return static_cast<int>((word_at(words, rank) >> ((rank & 15) * 4)) & 0xF);
}

// Sets an UNSEEN entry to `value`; returns true when this call changed it. Safe against
// concurrent writers of the same value (AND with the same mask is idempotent) and of the other
// entries of the word (their bits are ones in the mask).
inline bool claim(std::uint64_t* words, std::uint64_t rank, int value) {
  const int shift = static_cast<int>((rank & 15) * 4);
  const std::uint64_t mask =
      ~(std::uint64_t{0xF} << shift) | (static_cast<std::uint64_t>(value) << shift);
  std::atomic_ref<std::uint64_t> word(words[rank >> 4]);
  const std::uint64_t old = word.fetch_and(mask, std::memory_order_relaxed);
  return ((old >> shift) & 0xF) == UNSEEN;
}

// Whether some 4-bit field of `w` equals `value` (the classic zero-nibble test on w ^
// value*0x1..1).
inline bool has_nibble(std::uint64_t w, int value) {
  constexpr std::uint64_t ONES = 0x1111111111111111ULL, HIGHS = 0x8888888888888888ULL;
  const std::uint64_t x = w ^ (ONES * static_cast<std::uint64_t>(value));
  return ((x - ONES) & ~x & HIGHS) != 0;
}

// Next permutation in lexicographic order (the rank order of rank_position); n <= 12.
inline void next_permutation(std::uint8_t* t, int n) {
  int i = n - 2;
  while (i >= 0 && t[i] > t[i + 1]) --i;
  if (i < 0) return;
  int j = n - 1;
  while (t[j] < t[i]) --j;
  const std::uint8_t x = t[i];
  t[i] = t[j];
  t[j] = x;
  for (int a = i + 1, b = n - 1; a < b; ++a, --b) {
    const std::uint8_t y = t[a];
    t[a] = t[b];
    t[b] = y;
  }
}

// Neighbour ranks without re-ranking whole positions. Lehmer digit i of a position is the
// number of smaller tiles at cells after i, with weight (n-1-i)!. A move permutes the cells of
// one line, all inside [lo, hi]; digits outside that range see the same set of later tiles,
// so only digits lo..hi change. Per position: the prefix sums of the weighted digits and, per
// cell, the set of tiles after it; per move: lo, hi and where each cell's new tile comes from.
struct SpanMove {
  int lo = 0, hi = 0;
  std::uint8_t src[MAX_BFS_CELLS] = {};  // the tile arriving at cell i stood at cell src[i]
};

class NeighbourRanker {
 public:
  NeighbourRanker(int n, const std::uint64_t* weight) : n_(n), weight_(weight) {}
  // Prepares `tiles` (1..n); returns its rank.
  std::uint64_t load(const std::uint8_t* tiles) {
    tiles_ = tiles;
    after_[n_ - 1] = 0;
    for (int i = n_ - 2; i >= 0; --i) after_[i] = after_[i + 1] | (1u << (tiles[i + 1] - 1));
    prefix_[0] = 0;
    for (int i = 0; i < n_; ++i) {
      const auto below =
          static_cast<std::uint64_t>(std::popcount(after_[i] & ((1u << (tiles[i] - 1)) - 1u)));
      prefix_[i + 1] = prefix_[i] + below * weight_[i];
    }
    return prefix_[n_];
  }
  std::uint64_t rank_after(const SpanMove& m) const {
    std::uint64_t r = prefix_[m.lo] + (prefix_[n_] - prefix_[m.hi + 1]);
    std::uint32_t later = after_[m.hi];
    for (int i = m.hi; i >= m.lo; --i) {
      const int t = tiles_[m.src[i]] - 1;
      r += static_cast<std::uint64_t>(std::popcount(later & ((1u << t) - 1u))) * weight_[i];
      later |= 1u << t;
    }
    return r;
  }

 private:
  int n_;
  const std::uint64_t* weight_;
  const std::uint8_t* tiles_ = nullptr;
  std::uint32_t after_[MAX_BFS_CELLS] = {};
  std::uint64_t prefix_[MAX_BFS_CELLS + 1] = {};
};

}  // namespace

Result<DistanceTable> DistanceTable::build(BoardSize size, const BfsOptions& options) {
  if (auto ok = validate_size(size); !ok) return ok.error();
  const int n = size.cells();
  if (n > MAX_BFS_CELLS) {
    return make_error(fmt::format("whole-graph BFS of {} is out of reach: {}! positions (the "
                                  "limit is {} cells, 479,001,600 positions)",
                                  format_size(size), n, MAX_BFS_CELLS),
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t total = *factorial(n);  // n <= 12
  DistanceTable table;
  const std::uint64_t bytes = (total + 15) / 16 * sizeof(std::uint64_t);
  if (options.run) {
    auto ok = options.run->check_memory(
        bytes, fmt::format("a breadth-first search of the {} board (4 bits for each of {} "
                           "positions)",
                           format_size(size), total));
    if (!ok) return ok.error();
  }
  table.words_.assign(static_cast<std::size_t>((total + 15) / 16), ~std::uint64_t{0});
  std::uint64_t* nib = table.words_.data();

  // Step 1. The move maps of the metric (each move's inverse is also in the list).
  std::vector<MoveMap> moves;
  for (const Move& move : metric_moves(size, options.metric)) {
    Position p = goal_position(size);
    apply_move(size, p, move);
    MoveMap m{};
    for (int cell = 0; cell < n; ++cell) m.dst[p[cell] - 1] = static_cast<std::uint8_t>(cell);
    moves.push_back(m);
  }
  const int move_count = static_cast<int>(moves.size());
  std::vector<SpanMove> spans(moves.size());
  for (std::size_t m = 0; m < moves.size(); ++m) {
    SpanMove& sp = spans[m];
    sp.lo = n;
    sp.hi = -1;
    for (int c = 0; c < n; ++c) {
      sp.src[moves[m].dst[c]] = static_cast<std::uint8_t>(c);
      if (moves[m].dst[c] != c) sp.lo = std::min(sp.lo, c), sp.hi = std::max(sp.hi, c);
    }
  }
  std::uint64_t weight[MAX_BFS_CELLS];
  for (int i = 0; i < n; ++i) weight[i] = *factorial(n - 1 - i);

  // Step 2. Level 0: the goal.
  Position goal = goal_position(size);
  claim(nib, rank_position(goal.data(), n), 0);
  BfsStats& st = table.stats_;
  st.size = size;
  st.metric = options.metric;
  st.histogram.push_back(1);
  std::uint64_t seen = 1;
  if (options.on_level) options.on_level(0, 1, 0.0);
  const int threads = options.threads > 0 ? options.threads : static_cast<int>(hardware_threads());

  // Step 3. One level at a time until no new position appears.
  for (int depth = 0;; ++depth) {
    const int cur = depth % 15;
    const int nxt = (depth + 1) % 15;
    const std::uint64_t frontier = st.histogram.back();
    const std::uint64_t unseen = total - seen;
    const bool bottom_up = frontier > unseen / 8;
    std::atomic<std::uint64_t> next_chunk{0};
    std::atomic<std::uint64_t> found{0};
    auto worker = [&]() {
      std::uint64_t local = 0;
      std::uint8_t tiles[MAX_BFS_CELLS];
      NeighbourRanker neighbours(n, weight);
      while (true) {
        if (options.run && options.run->should_stop()) break;
        const std::uint64_t begin = next_chunk.fetch_add(CHUNK);
        if (begin >= total) break;
        const std::uint64_t end = std::min(total, begin + CHUNK);
        // `tiles` holds the position of rank `have` (none yet: have = total). Ranks are
        // lexicographic, so a nearby later rank is reached by a few next_permutation steps
        // (amortised O(1)) instead of an O(n^2) unrank.
        std::uint64_t have = total;
        auto load = [&](std::uint64_t r) {
          if (have < r && r - have <= 8) {
            for (; have < r; ++have) next_permutation(tiles, n);
          } else {
            unrank_position(static_cast<std::uint32_t>(r), n, tiles);
            have = r;
          }
        };
        const int wanted = bottom_up ? UNSEEN : cur;
        for (std::uint64_t r = begin; r < end; ++r) {
          // 16 entries per 64-bit word: skip words without a wanted entry (most words in the
          // sparse levels at either end of the search).
          if ((r & 15) == 0 && end - r >= 16 && !has_nibble(word_at(nib, r), wanted)) {
            r += 15;
            continue;
          }
          const int e = load_entry(nib, r);
          if (e != wanted) continue;
          load(r);
          neighbours.load(tiles);
          if (bottom_up) {
            for (int m = 0; m < move_count; ++m) {
              if (load_entry(nib, neighbours.rank_after(spans[m])) == cur) {
                claim(nib, r, nxt);
                ++local;
                break;
              }
            }
          } else {
            for (int m = 0; m < move_count; ++m) {
              const std::uint64_t nr = neighbours.rank_after(spans[m]);
              if (load_entry(nib, nr) == UNSEEN && claim(nib, nr, nxt)) ++local;
            }
          }
        }
      }
      found.fetch_add(local);
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    if (options.run && options.run->should_stop()) {
      if (options.partial) {
        // The levels finished so far (this one is partial and not counted).
        BfsStats known = st;
        known.states = seen;
        known.table_bytes = bytes;
        known.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        *options.partial = std::move(known);
      }
      return options.run->stop_error();
    }
    const std::uint64_t count = found.load();
    if (count == 0) break;
    st.histogram.push_back(count);
    seen += count;
    if (options.on_level) {
      options.on_level(
          depth + 1, count,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  }

  // Step 4. Summary.
  st.states = seen;
  st.max_distance = static_cast<int>(st.histogram.size()) - 1;
  st.antipodes = st.histogram.back();
  double sum = 0;
  for (std::size_t d = 0; d < st.histogram.size(); ++d)
    sum += static_cast<double>(d) * st.histogram[d];
  st.mean_distance = sum / static_cast<double>(seen);
  st.table_bytes = table.words_.size() * sizeof(std::uint64_t);
  if (st.max_distance < 15) {
    std::uint8_t tiles[MAX_BFS_CELLS];
    for (std::uint64_t r = 0; r < total && st.sample_antipodes.size() < 5; ++r) {
      if (table.entry(static_cast<std::uint32_t>(r)) == st.max_distance) {
        unrank_position(static_cast<std::uint32_t>(r), n, tiles);
        st.sample_antipodes.emplace_back(tiles, tiles + n);
      }
    }
  }
  st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return table;
}

int DistanceTable::distance(const Position& position) const {
  const int e = entry(rank_position(position.data(), static_cast<int>(position.size())));
  return e == UNSEEN ? -1 : e;
}

}  // namespace permuzzle::loopover
