#include "permuzzle/search/bfs.hpp"

#include "core/huge_pages.hpp"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <thread>

namespace permuzzle::search {

namespace {

unsigned bits_of(BfsBits bits) {
  return static_cast<unsigned>(bits);
}

// Runs fn(worker, begin, end) over [0, states) in chunks taken in turn by `workers` threads.
// Returns false when the run was stopped between two chunks (some chunks then never ran).
//
// A stop is checked between chunks, so a chunk's size adapts to what one costs: chunks start at
// MIN_CHUNK ranks, double while one takes under CHUNK_GROW_BELOW, up to `chunk`, and halve when
// one takes over CHUNK_SHRINK_ABOVE. A fast expander works on chunks of `chunk` ranks; a slow one
// (a definition of thousands of moves, a 36-tile coordinate) stops within milliseconds. Sizes
// stay multiples of MIN_CHUNK, so every chunk begins on a whole word of 2- or 4-bit entries.
// `fixed`: every chunk has `chunk` ranks (the distributed BFS's blocks).
template <class Fn>
bool for_each_range(unsigned workers, std::uint64_t states, std::uint64_t chunk,
                    const RunContext& run, Fn&& fn, bool fixed = false) {
  using Clock = std::chrono::steady_clock;
  constexpr std::uint64_t MIN_CHUNK = 32;
  constexpr auto CHUNK_GROW_BELOW = std::chrono::milliseconds(2);
  constexpr auto CHUNK_SHRINK_ABOVE = std::chrono::milliseconds(20);
  std::atomic<std::uint64_t> next{0};
  std::atomic<std::uint64_t> size{fixed ? chunk : std::min(chunk, MIN_CHUNK)};
  std::atomic<bool> stopped{false};
  auto worker = [&](unsigned index) {
    while (!stopped.load(std::memory_order_relaxed)) {
      if (run.should_stop()) {
        stopped.store(true, std::memory_order_relaxed);
        break;
      }
      std::uint64_t taken = size.load(std::memory_order_relaxed);
      const std::uint64_t begin = next.fetch_add(taken, std::memory_order_relaxed);
      if (begin >= states) break;
      const auto start = Clock::now();
      fn(index, begin, std::min(states, begin + taken));
      if (fixed) continue;
      const auto spent = Clock::now() - start;
      if (spent < CHUNK_GROW_BELOW && taken < chunk) {
        size.compare_exchange_strong(taken, std::min(chunk, 2 * taken), std::memory_order_relaxed);
      } else if (spent > CHUNK_SHRINK_ABOVE && taken > MIN_CHUNK) {
        size.compare_exchange_strong(taken, std::max(MIN_CHUNK, taken / 2 / MIN_CHUNK * MIN_CHUNK),
                                     std::memory_order_relaxed);
      }
    }
  };
  std::vector<std::jthread> pool;
  for (unsigned t = 1; t < workers; ++t) pool.emplace_back(worker, t);
  worker(0);
  pool.clear();  // joins
  return !stopped.load();
}

}  // namespace

Result<BfsTable> BfsTable::create(std::uint64_t states, BfsBits bits) {
  if (bits != BfsBits::Two && bits != BfsBits::Four) {
    return make_error("BFS entries are 2 or 4 bits wide");
  }
  if (states == 0) return make_error("the BFS state space is empty");
  const std::uint64_t per_word = 64 / bits_of(bits);
  const std::uint64_t words = states / per_word + (states % per_word != 0 ? 1 : 0);
  if (words > std::numeric_limits<std::size_t>::max() / sizeof(std::uint64_t) / 2) {
    return make_error(fmt::format("a BFS over {} states does not fit in memory", states), {},
                      Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  BfsTable table;
  table.states_ = states;
  table.bits_ = bits;
  // Neighbours are looked up at random: 2 MiB pages save TLB misses. The advice is given to the
  // reserved memory before the fill touches it, so the fill's page faults take huge pages directly;
  // advice after the fill leaves the collapse to khugepaged, which is too slow to matter, and
  // MADV_COLLAPSE copies the whole table before any cancellation can be seen.
  table.words_.reserve(static_cast<std::size_t>(words));
  detail::advise_huge_pages(table.words_.data(),
                            static_cast<std::size_t>(words) * sizeof(std::uint64_t));
  table.words_.assign(static_cast<std::size_t>(words), ~std::uint64_t{0});
  return table;
}

unsigned BfsTable::entry(std::uint64_t rank) const {
  const unsigned b = bits_of(bits_);
  const unsigned per_word = 64 / b;
  return static_cast<unsigned>(words_[rank / per_word] >> ((rank % per_word) * b)) &
         ((1u << b) - 1);
}

Result<int> BfsTable::distance(std::uint64_t rank, const BfsResult& result) const {
  if (bits_ != BfsBits::Four || !result.complete || result.max_distance >= 15) {
    return make_error(
        "distances are stored only by a complete 4-bit search with a maximum "
        "distance below 15 (list the rank in BfsOptions::watch instead)");
  }
  if (rank >= states_) return make_error(fmt::format("rank {} is not below {}", rank, states_));
  const unsigned e = entry(rank);
  return e == unseen() ? -1 : static_cast<int>(e);
}

BfsLevel bfs_level(BfsBits bits, int depth, bool bottom_up, bool mod3) {
  BfsLevel level;
  level.depth = depth;
  level.bottom_up = bottom_up;
  if (bits == BfsBits::Two && mod3) {
    level.cur = static_cast<unsigned>(depth % 3);
    level.nxt = static_cast<unsigned>((depth + 1) % 3);
    level.stale = 3;  // nothing to clear
  } else if (bits == BfsBits::Two) {
    level.cur = 1u + static_cast<unsigned>(depth & 1);
    level.nxt = 1u + static_cast<unsigned>((depth + 1) & 1);
    level.stale = level.nxt;  // depth - 1 has the parity of depth + 1
    level.sweep = depth > 0;
  } else {
    level.cur = static_cast<unsigned>(depth % 15);
    level.nxt = static_cast<unsigned>((depth + 1) % 15);
    level.stale = 15;  // nothing to clear
  }
  return level;
}

bool last_level_distinct(BfsBits bits, int depth, bool mod3) {
  return bits == BfsBits::Two ? !mod3 || depth < 3 : depth < 15;
}

bool claim_start(BfsTable& table, std::uint64_t rank, bool mod3) {
  const BfsLevel level0 = bfs_level(table.bits(), 0, false, mod3);
  if (table.bits() == BfsBits::Two) return bfs_detail::claim<2>(table.words(), rank, level0.cur);
  return bfs_detail::claim<4>(table.words(), rank, level0.cur);
}

void sweep_range(BfsTable& table, const BfsLevel& level, std::uint64_t begin, std::uint64_t end) {
  if (!level.sweep) return;
  assert(table.bits() == BfsBits::Two && begin % 32 == 0);
  std::uint64_t* words = table.words();
  for (std::uint64_t wi = begin / 32; wi * 32 < end; ++wi) {
    // The range owns its words during the sweep phase (no claims run then).
    const std::uint64_t match = bfs_detail::fields_equal<2>(words[wi], level.stale);
    words[wi] &= ~(match | (match << 1));
  }
}

void record_completed_levels(BfsOptions& options, BfsCompletedLevels& out) {
  const bool weighted = static_cast<bool>(options.weight);
  out.ranks = options.resume_histogram;
  out.positions = weighted ? options.resume_weighted : options.resume_histogram;
  auto before = std::move(options.on_level);
  options.on_level = [&out, before = std::move(before), weighted](
                         const BfsTable& t, const std::vector<std::uint64_t>& h,
                         const std::vector<std::uint64_t>& w) -> Status {
    out.ranks = h;
    out.positions = weighted ? w : h;
    return before ? before(t, h, w) : Status(Ok{});
  };
}

namespace bfs_detail {

void make_on_own_threads(unsigned count, const std::function<void(unsigned)>& make) {
  if (count <= 1) {
    if (count == 1) make(0);
    return;
  }
  // Every thread stays alive until the last call is made: a thread that ended would leave its
  // arena free for the next one to take.
  std::atomic<unsigned> made{0};
  std::atomic<bool> all_made{false};
  std::vector<std::thread> threads;
  threads.reserve(count);
  for (unsigned i = 0; i < count; ++i) {
    threads.emplace_back([&, i] {
      make(i);
      made.store(i + 1);
      made.notify_all();
      all_made.wait(false);
    });
    for (unsigned now = made.load(); now != i + 1; now = made.load()) made.wait(now);
  }
  all_made.store(true);
  all_made.notify_all();
  for (std::thread& t : threads) t.join();
}

bool for_each_chunk(unsigned workers, std::uint64_t states, std::uint64_t chunk,
                    const RunContext& run,
                    const std::function<void(unsigned, std::uint64_t, std::uint64_t)>& fn) {
  return for_each_range(workers, states, chunk, run, fn, /*fixed=*/true);
}

Result<BfsResult> run_bfs(BfsTable& table, std::span<const std::uint64_t> starts, unsigned workers,
                          const ExpandFn& expand, const RunContext& run,
                          const BfsOptions& options) {
  // Step 1. Arguments.
  const std::uint64_t states = table.states();
  if (starts.empty()) return make_error("a BFS needs at least one start state");
  const bool mod3 = options.mod3 && table.bits() == BfsBits::Two;
  if (mod3 && !options.undirected) {
    return make_error("a BFS keeping distances mod 3 needs an undirected graph");
  }
  for (std::uint64_t s : starts) {
    if (s >= states) return make_error(fmt::format("start rank {} is not below {}", s, states));
  }
  for (std::uint64_t w : options.watch) {
    if (w >= states) return make_error(fmt::format("watched rank {} is not below {}", w, states));
  }
  Stopwatch clock;
  const std::uint64_t chunk = std::max<std::uint64_t>(32, (options.chunk + 31) / 32 * 32);

  // Step 2. Level 0: the starts (a rank listed twice counts once).
  BfsResult result;
  result.states = states;
  result.table_bytes = table.bytes();
  std::uint64_t level_size = 0;
  std::uint64_t reached = 0;
  int depth = 0;
  const bool weighed = static_cast<bool>(options.weight);
  if (weighed && !options.resume_histogram.empty() &&
      options.resume_weighted.size() != options.resume_histogram.size()) {
    return make_error("resuming a weighted BFS needs the positions of every level resumed");
  }
  if (options.resume_histogram.empty()) {
    std::uint64_t start_weight = 0;
    for (std::uint64_t s : starts) {
      if (claim_start(table, s, mod3)) {
        ++level_size;
        if (weighed) start_weight += options.weight(s);
      }
    }
    result.histogram.push_back(level_size);
    if (weighed) result.weighted.push_back(start_weight);
    reached = level_size;
  } else {
    result.histogram = options.resume_histogram;
    if (weighed) result.weighted = options.resume_weighted;
    level_size = result.histogram.back();
    for (std::uint64_t c : result.histogram) reached += c;
    depth = static_cast<int>(result.histogram.size()) - 1;
  }
  result.watch_distances.assign(options.watch.size(), -1);
  auto note_watched = [&](int depth) {
    for (std::size_t i = 0; i < options.watch.size(); ++i) {
      if (result.watch_distances[i] < 0 && table.entry(options.watch[i]) != table.unseen()) {
        result.watch_distances[i] = depth;
      }
    }
  };
  note_watched(depth);
  auto report = [&](int depth, std::uint64_t count) {
    if (!run.wants_progress()) return;
    run.report(Progress{options.phase, reached, states,
                        fmt::format("depth {}: {} positions, {} reached in {:.2f} s", depth, count,
                                    reached, clock.seconds())});
  };
  report(depth, level_size);
  if (auto ok = run.check(reached); !ok) return ok.error();
  if (options.on_level && options.resume_histogram.empty()) {
    if (auto ok = options.on_level(table, result.histogram, result.weighted); !ok) {
      return ok.error();
    }
  }

  // Step 3. One level at a time until one adds nothing (or max_depth).
  bool complete = false;
  bool was_bottom_up = false;
  while (true) {
    if (options.max_depth >= 0 && depth >= options.max_depth) break;
    const std::uint64_t unseen = states - reached;
    // Mod 3: a top-down level would re-expand every earlier level of its value, so once the
    // levels are bottom-up they stay so.
    const bool bottom_up =
        options.undirected && (level_size > unseen / 8 || (mod3 && was_bottom_up));
    was_bottom_up = bottom_up;
    BfsLevel level = bfs_level(table.bits(), depth, bottom_up, mod3);
    level.shared = workers > 1;
    if (level.sweep) {
      const bool done = for_each_range(workers, states, chunk, run,
                                       [&](unsigned, std::uint64_t begin, std::uint64_t end) {
                                         sweep_range(table, level, begin, end);
                                       });
      if (!done) return run.stop_error();
    }
    std::atomic<std::uint64_t> found{0}, found_weight{0};
    const bool done = for_each_range(
        workers, states, chunk, run, [&](unsigned worker, std::uint64_t begin, std::uint64_t end) {
          const BfsClaims claims = expand(worker, level, begin, end);
          found.fetch_add(claims.ranks, std::memory_order_relaxed);
          found_weight.fetch_add(claims.weight, std::memory_order_relaxed);
        });
    if (!done) return run.stop_error();
    const std::uint64_t count = found.load();
    if (count == 0) {
      complete = true;
      break;
    }
    ++depth;
    level_size = count;
    reached += count;
    result.histogram.push_back(count);
    if (weighed) result.weighted.push_back(found_weight.load());
    note_watched(depth);
    report(depth, count);
    if (auto ok = run.check(reached); !ok) return ok.error();
    if (options.on_level) {
      if (auto ok = options.on_level(table, result.histogram, result.weighted); !ok) {
        return ok.error();
      }
    }
  }

  // Step 4. Summary; the last level's first ranks (their entries still carry its value).
  result.reached = reached;
  result.complete = complete;
  result.max_distance = depth;
  result.last_level = result.histogram.back();
  if (last_level_distinct(table.bits(), depth, mod3) && options.antipodes_limit > 0) {
    const unsigned last = bfs_level(table.bits(), depth, false, mod3).cur;
    auto scan = [&]<unsigned BITS>() {
      constexpr unsigned PER_WORD = 64 / BITS;
      const std::uint64_t* words = table.words();
      for (std::uint64_t wi = 0; wi * PER_WORD < states; ++wi) {
        std::uint64_t match = fields_equal<BITS>(words[wi], last);
        while (match != 0) {
          const std::uint64_t r =
              wi * PER_WORD + static_cast<unsigned>(std::countr_zero(match)) / BITS;
          match &= match - 1;
          if (r >= states) return;
          result.antipodes.push_back(r);
          if (result.antipodes.size() == options.antipodes_limit) return;
        }
      }
    };
    if (table.bits() == BfsBits::Two) {
      scan.template operator()<2>();
    } else {
      scan.template operator()<4>();
    }
  }
  result.seconds = clock.seconds();
  return result;
}

}  // namespace bfs_detail

}  // namespace permuzzle::search
