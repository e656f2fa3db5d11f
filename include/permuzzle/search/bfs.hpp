// Whole-graph breadth-first search over a ranked state space (states 0..N-1).
//
// The puzzle supplies N, the ranks of the start states and, per thread, an expander: an object
// with `template <class Visit> void for_each_neighbour(std::uint64_t rank, Visit&& visit)` that
// calls visit(neighbour_rank) for each neighbour and returns as soon as visit returns true. Ranks
// reach an expander in ascending order within a range, so it may keep an incremental unranking.
//
// Storage (BfsTable), one entry per rank in 64-bit words, every concurrent access a 64-bit atomic:
// - 2 bits: 3 = not reached, 1 and 2 = the frontier of the current and of the next level (their
//   roles swap every level), 0 = expanded. Before level d expands, one sweep turns the level d-1
//   entries (which carry the value the new level is about to write) into 0. Exact per-distance
//   counts; the last level keeps its value, so the antipodes can be listed at the end.
// - 4 bits: 15 = not reached, otherwise the distance mod 15, kept for good: distance(rank) is
//   exact when the maximum distance is below 15. Levels d and d-15 share a value, so from
//   depth 15 on a top-down level also re-expands level d-15 (harmless: all its neighbours are
//   reached; the claims fail) and the antipodes cannot be told apart from level d-15.
// - 2 bits, mod 3 (BfsOptions::mod3, undirected graphs): 3 = not reached, otherwise the distance
//   mod 3, kept for good (no sweep). The neighbours of a position are at distances d-1, d, d+1,
//   three different values, so a walk to a neighbour one closer reaches the start (antipodes
//   can be walked back, as with 4 bits, at half the memory). Top-down levels re-expand the
//   levels d-3, d-6, ... (harmless: their neighbours are all reached; cheap while levels are
//   small), and once a level is bottom-up every later one is (an unreached entry's neighbours
//   are at distance d or more, so a neighbour with value d mod 3 is at distance d).
// Any rank's exact distance in either mode: list it in BfsOptions::watch.
//
// Symmetry classes: a rank may stand for several positions (a class of positions under a
// symmetry group, ranked by its canonical member). BfsOptions::weight gives the positions of a
// rank; every claim then also adds its weight, and BfsResult::weighted holds the positions per
// distance beside the ranks per distance (histogram). The ranks the puzzle never produces (not
// canonical) are never claimed; its expander visits no neighbour of them, so a bottom-up level
// leaves them alone too.
//
// A level is a scan of the rank ranges: top-down (each frontier entry claims its unreached
// neighbours with an atomic AND) while the frontier is small, bottom-up (each unreached entry
// looks for a neighbour in the frontier and claims itself) once it is large, which needs an
// undirected graph (BfsOptions::undirected). The ranges are independent work items: the threads
// take them in turn here, and a distributed backend can hand them out with the same primitives
// (bfs_level, sweep_range, expand_range). Cancellation, the deadline and the node limit (positions
// reached) are checked between ranges and after every level.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"

namespace permuzzle::search {

enum class BfsBits : std::uint8_t { Two = 2, Four = 4 };

class BfsTable;

struct BfsOptions {
  BfsBits bits = BfsBits::Two;
  int max_depth = -1;       // expand no level past this distance (-1: until the graph is done)
  bool undirected = false;  // every neighbour relation is symmetric: allows bottom-up levels
  std::size_t antipodes_limit = 10;  // how many ranks of the last level to list
  std::vector<std::uint64_t> watch;  // ranks whose exact distance to report
  // Most ranks per work item (rounded up to whole words). Items start at 32 ranks and grow to this
  // while they take under 2 ms, so that a stop, checked between items, is prompt whatever an
  // expansion costs (search/bfs.cpp: for_each_range).
  std::uint64_t chunk = 1u << 16;
  std::string phase = "bfs";  // Progress::phase
  bool mod3 = false;  // 2 bits holding the distance mod 3 (see the file comment; needs undirected)
  // Resuming: the positions per distance 0..D of a search whose table (passed to bfs()) already
  // holds those levels, level D being the frontier, as it was when on_level was called for D.
  // The starts are then not claimed again, and watched ranks reached before D report -1.
  std::vector<std::uint64_t> resume_histogram;
  // Resuming a weighted search: its positions per distance 0..D (resume_histogram's levels).
  std::vector<std::uint64_t> resume_weighted;
  // Called after every completed level (and after level 0) with the table, the ranks per
  // distance and (with `weight`; else empty) the positions per distance so far, while no level
  // runs (for checkpoints); an error stops the search with it.
  std::function<Status(const BfsTable&, const std::vector<std::uint64_t>& histogram,
                       const std::vector<std::uint64_t>& weighted)>
      on_level;
  // The positions a rank stands for (symmetry classes: the size of its orbit); null: 1 each.
  // Called from every worker thread (and, distributed, by the owner of a claimed rank): it must
  // be safe to call concurrently.
  std::function<std::uint64_t(std::uint64_t rank)> weight;
};

struct BfsResult {
  std::uint64_t states = 0;              // N, the size of the rank space
  std::uint64_t reached = 0;             // ranks reached from the starts
  std::vector<std::uint64_t> histogram;  // ranks per distance 0..max_distance
  // With BfsOptions::weight: the positions per distance (sum of the claimed ranks' weights);
  // empty otherwise.
  std::vector<std::uint64_t> weighted;
  bool complete = false;         // every reachable rank was reached (no max_depth cut)
  int max_distance = 0;          // the last level with positions
  std::uint64_t last_level = 0;  // positions at max_distance (antipodes when complete)
  // The first antipodes_limit ranks at max_distance, ascending (empty with 4 bits and
  // max_distance >= 15, where levels share values).
  std::vector<std::uint64_t> antipodes;
  std::vector<int> watch_distances;  // per BfsOptions::watch entry; -1 = not reached
  double seconds = 0;
  std::uint64_t table_bytes = 0;
};

// The levels a search completed, for the answer of a run that is stopped (a time limit, a
// cancellation): the ranks per distance and the positions per distance (the weighted histogram
// with BfsOptions::weight, else the ranks again); a resumed search's levels from the start.
struct BfsCompletedLevels {
  std::vector<std::uint64_t> ranks;
  std::vector<std::uint64_t> positions;
};
// Keeps `out` up to date after every level, besides what options.on_level already does. Call it
// once the checkpoints are attached (they set the resumed levels) and the weight is set.
void record_completed_levels(BfsOptions& options, BfsCompletedLevels& out);

// One level's entry values, as every range of it needs them.
struct BfsLevel {
  int depth = 0;
  unsigned cur = 0;    // value of the frontier (the positions at `depth`)
  unsigned nxt = 0;    // value written for depth + 1
  unsigned stale = 0;  // 2 bits: value of depth - 1 entries that sweep_range clears
  // The level starts with a sweep (2 bits, not mod 3, from depth 1): only then do two levels'
  // values alternate, so that level d - 1 must become "expanded" before level d + 1 is written.
  bool sweep = false;
  bool bottom_up = false;
  // Other threads claim entries of this table during the level: top-down claims must be
  // atomic read-modify-writes. With one worker they are plain loads and stores.
  bool shared = true;
};

class BfsTable {
 public:
  // Every entry "not reached". LimitExceeded when N entries do not fit in memory's address range.
  static Result<BfsTable> create(std::uint64_t states, BfsBits bits);

  std::uint64_t states() const { return states_; }
  BfsBits bits() const { return bits_; }
  unsigned unseen() const { return bits_ == BfsBits::Two ? 3u : 15u; }
  std::uint64_t bytes() const { return words_.size() * sizeof(std::uint64_t); }
  std::uint64_t* words() { return words_.data(); }
  const std::uint64_t* words() const { return words_.data(); }
  // The raw entry of a rank (not for use while a level runs on other threads).
  unsigned entry(std::uint64_t rank) const;
  // 4 bits after a complete search with max_distance < 15: the distance, -1 if not reached.
  Result<int> distance(std::uint64_t rank, const BfsResult& result) const;

 private:
  std::uint64_t states_ = 0;
  BfsBits bits_ = BfsBits::Two;
  std::vector<std::uint64_t> words_;
};

BfsLevel bfs_level(BfsBits bits, int depth, bool bottom_up, bool mod3 = false);
// Whether the entries of the last level (`depth`) differ from every other level's, so that the
// antipodes can be listed by scanning for its value: 2 bits except mod 3 from depth 3 on, 4 bits
// below depth 15.
bool last_level_distinct(BfsBits bits, int depth, bool mod3);
// Marks a start rank at depth 0; true when it was not marked before.
bool claim_start(BfsTable& table, std::uint64_t rank, bool mod3 = false);
// When level.sweep: clears the level d-1 entries of [begin, end) (begin a multiple of 32) to
// "expanded". Call on every range before any range of the level expands; otherwise nothing to do.
void sweep_range(BfsTable& table, const BfsLevel& level, std::uint64_t begin, std::uint64_t end);

// What a scan claimed: ranks, and their weights (BfsOptions::weight; 0 without one).
struct BfsClaims {
  std::uint64_t ranks = 0;
  std::uint64_t weight = 0;
  BfsClaims& operator+=(const BfsClaims& o) {
    ranks += o.ranks;
    weight += o.weight;
    return *this;
  }
};
using BfsWeight = std::function<std::uint64_t(std::uint64_t rank)>;

namespace bfs_detail {

// Bit 0 of each BITS-wide field of `w` that equals `value`.
template <unsigned BITS>
inline std::uint64_t fields_equal(std::uint64_t w, unsigned value) {
  if constexpr (BITS == 2) {
    constexpr std::uint64_t LOW = 0x5555555555555555ULL;
    const std::uint64_t x = w ^ (LOW * value);
    return ~(x | (x >> 1)) & LOW;
  } else {
    constexpr std::uint64_t LOW = 0x1111111111111111ULL;
    const std::uint64_t x = w ^ (LOW * value);
    std::uint64_t t = x | (x >> 1);
    t |= t >> 2;
    return ~t & LOW;
  }
}

template <unsigned BITS>
inline unsigned load_entry(std::uint64_t* words, std::uint64_t rank) {
  constexpr unsigned PER_WORD = 64 / BITS;
  const std::uint64_t w =
      std::atomic_ref<std::uint64_t>(words[rank / PER_WORD]).load(std::memory_order_relaxed);
  return static_cast<unsigned>(w >> ((rank % PER_WORD) * BITS)) & ((1u << BITS) - 1);
}

// Turns a "not reached" entry (all ones) into `value`; true when this call changed it. An AND
// with the same mask is idempotent and leaves the word's other entries alone, so concurrent
// claims of any entries of the word are safe.
template <unsigned BITS>
inline bool claim(std::uint64_t* words, std::uint64_t rank, unsigned value) {
  constexpr unsigned PER_WORD = 64 / BITS;
  constexpr std::uint64_t FIELD = (std::uint64_t{1} << BITS) - 1;
  const unsigned shift = static_cast<unsigned>(rank % PER_WORD) * BITS;
  const std::uint64_t mask = ~(FIELD << shift) | (static_cast<std::uint64_t>(value) << shift);
  const std::uint64_t old = std::atomic_ref<std::uint64_t>(words[rank / PER_WORD])
                                .fetch_and(mask, std::memory_order_relaxed);
  return ((old >> shift) & FIELD) == FIELD;
}

// claim() when no other thread writes the table: a plain load and store.
template <unsigned BITS>
inline void claim_exclusive(std::uint64_t* words, std::uint64_t rank, unsigned value) {
  constexpr unsigned PER_WORD = 64 / BITS;
  constexpr std::uint64_t FIELD = (std::uint64_t{1} << BITS) - 1;
  const unsigned shift = static_cast<unsigned>(rank % PER_WORD) * BITS;
  std::atomic_ref<std::uint64_t> word(words[rank / PER_WORD]);
  word.store(word.load(std::memory_order_relaxed) &
                 (~(FIELD << shift) | (static_cast<std::uint64_t>(value) << shift)),
             std::memory_order_relaxed);
}

// The scan of one range. A word is read once and its matching entries processed from that
// snapshot: no thread changes an entry this scan wants during the level (top-down wants `cur`
// entries, claims only turn "not reached" ones into `nxt`; bottom-up wants the "not reached"
// entries of its own range, which only their owner claims).
// With a run, its stop is checked every STOP_CHECK_EXPANSIONS expansions, and the scan ends
// there (the level is then abandoned: run_bfs returns the stop): an expansion can cost
// milliseconds (a definition of thousands of moves), so waiting for the range's end could not.
inline constexpr std::uint32_t STOP_CHECK_EXPANSIONS = 64;
// `weight`: BfsOptions::weight, null for 1 a rank.
template <unsigned BITS, class Expander>
BfsClaims expand_range_bits(BfsTable& table, const BfsLevel& level, std::uint64_t begin,
                            std::uint64_t end, Expander& expander, const RunContext* run = nullptr,
                            const BfsWeight* weight = nullptr) {
  constexpr unsigned PER_WORD = 64 / BITS;
  constexpr unsigned UNSEEN = (1u << BITS) - 1;
  std::uint64_t* words = table.words();
  const unsigned cur = level.cur, nxt = level.nxt;
  const unsigned wanted = level.bottom_up ? UNSEEN : cur;
  BfsClaims found;
  std::uint32_t expansions = 0;
  const bool weighed = weight != nullptr && *weight;
  auto weigh = [&](std::uint64_t rank) { return weighed ? (*weight)(rank) : 0; };
  auto must_stop = [&] {
    return run != nullptr && ++expansions % STOP_CHECK_EXPANSIONS == 0 && run->should_stop();
  };
  for (std::uint64_t wi = begin / PER_WORD; wi * PER_WORD < end; ++wi) {
    const std::uint64_t w =
        std::atomic_ref<std::uint64_t>(words[wi]).load(std::memory_order_relaxed);
    std::uint64_t match = fields_equal<BITS>(w, wanted);
    const std::uint64_t base = wi * PER_WORD;
    if (base < begin) match &= ~std::uint64_t{0} << ((begin - base) * BITS);
    if (end - base < PER_WORD) match &= (std::uint64_t{1} << ((end - base) * BITS)) - 1;
    if (level.bottom_up) {
      // The range owns its words during a bottom-up level (only their owner claims their
      // "not reached" entries; others only read them, and a claim turns UNSEEN into nxt, which
      // no reader is looking for): the word's claims are collected and written once.
      std::uint64_t claimed = 0;
      while (match != 0) {
        const unsigned field = static_cast<unsigned>(std::countr_zero(match));
        match &= match - 1;
        const std::uint64_t rank = base + field / BITS;
        if (must_stop()) return found;
        expander.for_each_neighbour(rank, [&](std::uint64_t neighbour) {
          if (load_entry<BITS>(words, neighbour) != cur) return false;
          claimed |= std::uint64_t{1} << field;
          return true;
        });
      }
      if (claimed != 0) {
        found.ranks += static_cast<std::uint64_t>(std::popcount(claimed));
        if (weighed) {
          for (std::uint64_t c = claimed; c != 0; c &= c - 1) {
            found.weight += weigh(base + static_cast<unsigned>(std::countr_zero(c)) / BITS);
          }
        }
        // Every claimed field is all ones (UNSEEN): clear the bits that nxt does not have.
        std::uint64_t clear = 0;
        for (unsigned b = 0; b < BITS; ++b) {
          if (((nxt >> b) & 1u) == 0) clear |= claimed << b;
        }
        std::atomic_ref<std::uint64_t>(words[wi]).store(w & ~clear, std::memory_order_relaxed);
      }
      continue;
    }
    // A position's children are collected first and their words prefetched together, then
    // claimed: the claims are locked read-modify-writes, which would otherwise wait for one
    // cache miss after another (a table of gigabytes misses on nearly every child; the 3x5
    // Loopover classes: 2.8 GB). Children past BUFFERED are claimed at once.
    constexpr std::size_t BUFFERED = 64;
    std::uint64_t children[BUFFERED];
    auto take = [&](std::uint64_t neighbour) {
      if (load_entry<BITS>(words, neighbour) != UNSEEN) return;
      // Another thread may claim the same entry: only the atomic claim says who did.
      if (!level.shared) {
        claim_exclusive<BITS>(words, neighbour, nxt);
      } else if (!claim<BITS>(words, neighbour, nxt)) {
        return;
      }
      ++found.ranks;
      found.weight += weigh(neighbour);
    };
    while (match != 0) {
      const std::uint64_t rank = base + static_cast<unsigned>(std::countr_zero(match)) / BITS;
      match &= match - 1;
      if (must_stop()) return found;
      std::size_t count = 0;
      expander.for_each_neighbour(rank, [&](std::uint64_t neighbour) {
        if (count < BUFFERED) {
          children[count++] = neighbour;
          __builtin_prefetch(&words[neighbour / PER_WORD], 1);
        } else {
          take(neighbour);
        }
        return false;
      });
      for (std::size_t i = 0; i < count; ++i) take(children[i]);
    }
  }
  return found;
}

// One expander per thread, each on cache lines of its own: expanders keep their current position
// and write it for every rank, and two of them sharing a line cost the 3x4 Loopover BFS a third
// of its speed on two threads (33.6 s instead of 24 s). The object is aligned; the heap buffers
// an expander writes for every rank (a definition file's coordinates, its classes' values) would
// still be allocated one after another, in the same lines (twsearch's pyraminx file on two
// threads: 7.0 s instead of 4.4 s), so each expander is made on a thread of its own
// (make_on_own_threads), whose allocations malloc serves from an arena of that thread.
template <class Expander>
struct alignas(128) ThreadExpander {
  Expander expander;
};
// Calls make(i) for i = 0..count-1 in order (never two at once), each on a thread of its own;
// the threads end together once the last call has returned. One call: on this thread.
void make_on_own_threads(unsigned count, const std::function<void(unsigned)>& make);
template <class MakeExpander>
auto thread_expanders(unsigned workers, MakeExpander& make_expander) {
  using Expander = decltype(make_expander());
  std::vector<ThreadExpander<Expander>> expanders;
  expanders.reserve(workers);
  make_on_own_threads(
      workers, [&](unsigned) { expanders.push_back(ThreadExpander<Expander>{make_expander()}); });
  return expanders;
}

// The level loop shared by every puzzle: `expand(worker, level, begin, end)` scans one range
// with that worker's expander and returns the positions it claimed.
// Runs fn(worker, begin, end) over [0, states) in chunks taken in turn by `workers` threads;
// false when the run was stopped between two chunks (some chunks then never ran).
bool for_each_chunk(unsigned workers, std::uint64_t states, std::uint64_t chunk,
                    const RunContext& run,
                    const std::function<void(unsigned, std::uint64_t, std::uint64_t)>& fn);

using ExpandFn = std::function<BfsClaims(unsigned worker, const BfsLevel& level,
                                         std::uint64_t begin, std::uint64_t end)>;
Result<BfsResult> run_bfs(BfsTable& table, std::span<const std::uint64_t> starts, unsigned workers,
                          const ExpandFn& expand, const RunContext& run, const BfsOptions& options);

}  // namespace bfs_detail

// Scans [begin, end) for one level (begin a multiple of 32); returns the ranks claimed (and
// their weights, with `weight`). With a run, a stop ends the scan within STOP_CHECK_EXPANSIONS
// expansions (the level is then incomplete: the caller abandons it).
template <class Expander>
BfsClaims expand_range(BfsTable& table, const BfsLevel& level, std::uint64_t begin,
                       std::uint64_t end, Expander& expander, const RunContext* run = nullptr,
                       const BfsWeight* weight = nullptr) {
  if (table.bits() == BfsBits::Two) {
    return bfs_detail::expand_range_bits<2>(table, level, begin, end, expander, run, weight);
  }
  return bfs_detail::expand_range_bits<4>(table, level, begin, end, expander, run, weight);
}

// The whole search into a table the caller keeps (for BfsTable::distance afterwards).
// `make_expander()` is called once per thread.
template <class MakeExpander>
Result<BfsResult> bfs(BfsTable& table, std::span<const std::uint64_t> starts,
                      MakeExpander&& make_expander, const RunContext& run,
                      const BfsOptions& options = {}) {
  const unsigned workers = std::max(1u, run.threads());
  auto expanders = bfs_detail::thread_expanders(workers, make_expander);
  const bfs_detail::ExpandFn expand = [&](unsigned worker, const BfsLevel& level,
                                          std::uint64_t begin, std::uint64_t end) {
    return expand_range(table, level, begin, end, expanders[worker].expander, &run,
                        &options.weight);
  };
  return bfs_detail::run_bfs(table, starts, workers, expand, run, options);
}

// The same with a table of its own, dropped at the end.
template <class MakeExpander>
Result<BfsResult> bfs(std::uint64_t states, std::span<const std::uint64_t> starts,
                      MakeExpander&& make_expander, const RunContext& run,
                      const BfsOptions& options = {}) {
  auto table = BfsTable::create(states, options.bits);
  if (!table) return table.error();
  return bfs(*table, starts, std::forward<MakeExpander>(make_expander), run, options);
}

}  // namespace permuzzle::search
