#include "permuzzle/puzzles/loopover/piece_pdb.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "core/huge_pages.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"
#include "puzzles/loopover/arrangement_table.hpp"

namespace permuzzle::loopover {

namespace {

constexpr std::uint32_t TABLE_FORMAT_VERSION = 1;
constexpr std::size_t HUGE_PAGE = 2u << 20;
using detail::UNSEEN_NIBBLE;

std::uint64_t falling(int n, int k) {  // n!/(n-k)!
  std::uint64_t r = 1;
  for (int i = 0; i < k; ++i) r *= static_cast<std::uint64_t>(n - i);
  return r;
}

// Dense ranks of the ordered `len`-tuples of distinct values of 0..n-1 packed as 4-bit digits,
// in lexicographic order; `rank` is indexed by the packed word, `word` by the rank.
void rank_tuples(int n, int len, std::vector<std::uint16_t>& rank,
                 std::vector<std::uint16_t>& word) {
  rank.assign(1u << 16, 0);
  word.clear();
  std::vector<int> t(static_cast<std::size_t>(len), 0);
  auto rec = [&](auto&& self, int i, std::uint32_t used, std::uint32_t w) -> void {
    if (i == len) {
      rank[w] = static_cast<std::uint16_t>(word.size());
      word.push_back(static_cast<std::uint16_t>(w));
      return;
    }
    for (int v = 0; v < n; ++v) {
      if (used >> v & 1) continue;
      self(self, i + 1, used | 1u << v, w | static_cast<std::uint32_t>(v) << (4 * i));
    }
  };
  rec(rec, 0, 0, 0);
}

std::uint8_t* allocate_entries(std::size_t bytes) {
  const std::size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
  void* p = std::aligned_alloc(HUGE_PAGE, rounded);
  if (p == nullptr) return nullptr;
  permuzzle::detail::advise_huge_pages(p, rounded);
  return static_cast<std::uint8_t*>(p);
}

std::string pattern_key(Metric metric, const std::vector<int>& pattern) {
  std::string s = fmt::format("piece-pdb-{}-cells", metric == Metric::Stm ? "stm" : "mtm");
  for (std::size_t i = 0; i < pattern.size(); ++i)
    s += fmt::format("{}{}", i ? "." : "-", pattern[i]);
  return s;
}

}  // namespace

void PiecePdb::Free::operator()(std::uint8_t* p) const {
  std::free(p);
}

// What the table store keeps (and shares between PiecePdb objects of one process): the entries
// and what follows from them.
struct PiecePdb::Entries {
  std::unique_ptr<std::uint8_t, Free> owner;
  std::vector<std::uint64_t> histogram;
  int max_distance = 0;
  bool capped = false;
};

PiecePdb::PiecePdb() = default;
PiecePdb::~PiecePdb() = default;
PiecePdb::PiecePdb(const PiecePdb&) = default;
PiecePdb::PiecePdb(PiecePdb&&) noexcept = default;
PiecePdb& PiecePdb::operator=(PiecePdb&&) noexcept = default;

// The breadth-first build; a friend of PiecePdb so it can fill the entries in place.
struct PdbBuilder {
  PiecePdb& t;
  const PiecePdbOptions& options;
  const RunContext& ctx;  // the build's: cancellation and deadline
  std::uint8_t* data = nullptr;
  std::vector<std::vector<std::uint8_t>> moves;  // moves[m][cell] = where move m sends cell

  // Claims an unseen entry for `value`; true when this call claimed it. Entries only ever go
  // from UNSEEN_NIBBLE (all bits set) to a distance, so an atomic AND on the byte is a safe claim
  // even when the other nibble of the byte is claimed by another thread at the same time.
  bool claim(std::uint64_t idx, std::uint8_t value) {
    std::atomic_ref<std::uint8_t> byte(data[idx >> 1]);
    const int shift = static_cast<int>(idx & 1) * 4;
    if (((byte.load(std::memory_order_relaxed) >> shift) & 0xF) != UNSEEN_NIBBLE) return false;
    const auto clear = static_cast<std::uint8_t>(~((UNSEEN_NIBBLE ^ value) << shift));
    const std::uint8_t old = byte.fetch_and(clear, std::memory_order_relaxed);
    return ((old >> shift) & 0xF) == UNSEEN_NIBBLE;
  }

  int entry(std::uint64_t idx) const {
    std::atomic_ref<std::uint8_t> byte(data[idx >> 1]);
    return (byte.load(std::memory_order_relaxed) >> ((idx & 1) * 4)) & 0xF;
  }

  // One level on head block `a`; returns how many entries it claimed at depth + 1.
  // Top-down: every entry of the block at `depth` claims its unseen neighbours. Bottom-up: every
  // unseen entry of the block looks for a neighbour at `depth` and stops at the first (the move
  // set is closed under inverses, so neighbours are predecessors). Either way a move maps the
  // whole block onto one block through one map of the free cells.
  std::uint64_t sweep_block(std::uint64_t a, int depth, bool bottom_up,
                            std::vector<std::uint16_t>& tails) {
    const std::uint64_t base = a * t.tail_size_;
    const int wanted = bottom_up ? UNSEEN_NIBBLE : depth;
    tails.clear();
    for (std::uint32_t b = 0; b < t.tail_size_; ++b) {
      if (entry(base + b) == wanted) tails.push_back(static_cast<std::uint16_t>(b));
    }
    if (tails.empty()) return 0;
    const int n = t.size_.cells();
    const int h = t.head_len_;
    const int tail_len = t.k_ - h;
    const std::uint32_t tail_mask = tail_len == 0 ? 0u : (1u << (4 * tail_len)) - 1;
    const std::uint32_t head = t.head_word_[a];
    std::uint8_t head_cells[4];
    std::uint32_t mask = 0;
    for (int i = 0; i < h; ++i) {
      head_cells[i] = static_cast<std::uint8_t>(head >> (4 * i) & 0xF);
      mask |= 1u << head_cells[i];
    }
    std::uint8_t free_cells[MAX_PDB_CELLS];
    int nf = 0;
    for (int c = 0; c < n; ++c) {
      if (!(mask >> c & 1)) free_cells[nf++] = static_cast<std::uint8_t>(c);
    }
    const auto next_value = static_cast<std::uint8_t>(depth + 1);
    std::uint64_t claimed = 0;
    for (const auto& mv : moves) {
      // Step 1. The image head block and the map of free cells (as ranks among free cells).
      std::uint32_t new_head = 0, new_mask = 0;
      for (int i = 0; i < h; ++i) {
        new_head |= static_cast<std::uint32_t>(mv[head_cells[i]]) << (4 * i);
        new_mask |= 1u << mv[head_cells[i]];
      }
      const std::uint64_t new_base =
          static_cast<std::uint64_t>(t.head_rank_[new_head]) * t.tail_size_;
      std::uint8_t phi[16] = {};
      for (int r = 0; r < nf; ++r) {
        const int c = mv[free_cells[r]];
        phi[r] = static_cast<std::uint8_t>(c - __builtin_popcount(new_mask & ((1u << c) - 1)));
      }
      std::uint8_t phi2[256];
      for (int x = 0; x < 256; ++x) {
        phi2[x] = static_cast<std::uint8_t>(phi[x & 15] | phi[x >> 4] << 4);
      }
      auto image = [&](std::uint16_t b) {
        const std::uint32_t w = t.tail_word_[b];
        const std::uint32_t nw =
            (phi2[w & 0xFF] | static_cast<std::uint32_t>(phi2[w >> 8]) << 8) & tail_mask;
        return new_base + t.tail_rank_[nw];
      };
      // Step 2. Every listed entry of the block through the same map.
      if (!bottom_up) {
        for (std::uint16_t b : tails) {
          if (claim(image(b), next_value)) ++claimed;
        }
        continue;
      }
      for (std::size_t i = 0; i < tails.size();) {
        if (entry(image(tails[i])) == depth) {
          if (claim(base + tails[i], next_value)) ++claimed;
          tails[i] = tails.back();
          tails.pop_back();
        } else {
          ++i;
        }
      }
      if (tails.empty()) break;
    }
    return claimed;
  }

  // Sets every unseen entry to the cap (single-threaded, after the last level); returns how
  // many there were.
  std::uint64_t cap_unseen() {
    const auto cap = static_cast<std::uint8_t>(options.cap);
    std::uint64_t count = 0;
    for (std::uint64_t i = 0; i < t.bytes(); ++i) {
      if ((i & 0xFFFFF) == 0 && ctx.should_stop()) return count;  // run() says stop
      std::uint8_t b = data[i];
      if ((b & 0xF) == UNSEEN_NIBBLE) {
        b = static_cast<std::uint8_t>((b & 0xF0) | cap);
        if (2 * i < t.entries_) ++count;
      }
      if ((b >> 4) == UNSEEN_NIBBLE) {
        b = static_cast<std::uint8_t>((b & 0x0F) | cap << 4);
        if (2 * i + 1 < t.entries_) ++count;
      }
      data[i] = b;
    }
    return count;
  }

  Status run() {
    Stopwatch t0;
    // Step 1. Goal: every tracked piece at home.
    std::uint8_t goal[MAX_PDB_PIECES];
    for (int i = 0; i < t.k_; ++i) goal[i] = static_cast<std::uint8_t>(t.pattern_[i]);
    const std::uint64_t g = t.index(goal);
    claim(g, 0);
    std::uint64_t reached = 1;
    t.histogram_.assign(1, 1);
    const int threads =
        options.threads > 0 ? options.threads : static_cast<int>(hardware_threads());
    std::uint64_t frontier = 1;
    // Step 2. Level by level: threads take head blocks from a shared counter.
    for (int depth = 0;; ++depth) {
      ctx.report(Progress{
          "building the piece pattern database", reached, t.entries_,
          fmt::format("depth {}, {:.1f}% ({:.1f} s)", depth,
                      100.0 * static_cast<double>(reached) / static_cast<double>(t.entries_),
                      t0.seconds())});
      if (depth == options.cap) {
        // Entries still unseen need more moves than the cap (or cannot be reached at all):
        // they get the cap, still a lower bound.
        if (reached != t.entries_) {
          const std::uint64_t capped = cap_unseen();
          if (ctx.should_stop()) return ctx.stop_error();
          t.histogram_.back() += capped;
          t.capped_ = true;
        }
        break;
      }
      // Bottom-up once the frontier outnumbers the unseen entries: each unseen entry then
      // finds a parent after a few moves, instead of every frontier entry trying every move.
      const bool bottom_up = frontier > t.entries_ - reached;
      std::atomic<std::uint64_t> next_block{0};
      std::atomic<std::uint64_t> level_count{0};
      std::atomic<bool> stopped{false};
      constexpr std::uint64_t CHUNK = 8;
      auto worker = [&] {
        std::vector<std::uint16_t> tails;
        tails.reserve(t.tail_size_);
        std::uint64_t count = 0;
        while (true) {
          // The run context, before every chunk of blocks (well under a millisecond each).
          if (stopped.load(std::memory_order_relaxed)) break;
          if (ctx.should_stop()) {
            stopped = true;
            break;
          }
          const std::uint64_t first = next_block.fetch_add(CHUNK);
          if (first >= t.head_size_) break;
          const std::uint64_t last = std::min(first + CHUNK, t.head_size_);
          for (std::uint64_t a = first; a < last; ++a) {
            count += sweep_block(a, depth, bottom_up, tails);
          }
        }
        level_count += count;
      };
      std::vector<std::jthread> pool;  // joined on every exit (a refused thread throws)
      for (int i = 1; i < threads; ++i) pool.emplace_back(worker);
      worker();
      for (auto& th : pool) th.join();
      if (stopped) return ctx.stop_error();
      if (level_count == 0) break;
      reached += level_count;
      frontier = level_count;
      t.histogram_.push_back(level_count);
    }
    t.max_distance_ = static_cast<int>(t.histogram_.size()) - 1;
    return Ok{};
  }
};

Result<PiecePdb> PiecePdb::build(BoardSize size, const std::vector<int>& pattern,
                                 const PiecePdbOptions& options) {
  Stopwatch t0;
  // Step 1. Check the board and the pattern.
  if (auto ok = validate_size(size); !ok) return ok.error();
  const int n = size.cells();
  if (n > MAX_PDB_CELLS) {
    return make_error(
        fmt::format("piece pattern databases need a board of at most {} cells", MAX_PDB_CELLS), {},
        Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  const int k = static_cast<int>(pattern.size());
  if (k < 1 || k > MAX_PDB_PIECES) {
    return make_error(fmt::format("a piece pattern has 1..{} pieces", MAX_PDB_PIECES), {},
                      Error::NO_POSITION, ErrorKind::InvalidInput);
  }
  std::uint32_t seen = 0;
  for (int c : pattern) {
    if (c < 0 || c >= n || (seen >> c & 1)) {
      return make_error("piece pattern cells must be distinct cells of the board", {},
                        Error::NO_POSITION, ErrorKind::InvalidInput);
    }
    seen |= 1u << c;
  }
  if (options.cap < 1 || options.cap > PDB_MAX_VALUE) {
    return make_error(
        fmt::format("a piece pattern database caps its values at 1..{}", PDB_MAX_VALUE), {},
        Error::NO_POSITION, ErrorKind::InvalidInput);
  }
  PiecePdb t;
  t.size_ = size;
  t.metric_ = options.metric;
  t.pattern_ = pattern;
  t.k_ = k;
  t.head_len_ = std::min(k, 4);
  t.head_size_ = falling(n, t.head_len_);
  t.tail_size_ = static_cast<std::uint32_t>(falling(n - t.head_len_, k - t.head_len_));
  t.entries_ = t.head_size_ * t.tail_size_;
  rank_tuples(n, t.head_len_, t.head_rank_, t.head_word_);
  rank_tuples(n - t.head_len_, k - t.head_len_, t.tail_rank_, t.tail_word_);

  // Step 2. The entries through the table store: shared in memory, or loaded from the cache
  // (verified), or built by breadth-first search and saved.
  std::string pattern_name = pattern_key(options.metric, pattern);
  if (options.cap != PDB_MAX_VALUE) pattern_name += fmt::format("-cap{}", options.cap);
  TableRecipe<Entries> recipe;
  recipe.key = TableKey{"loopover-" + format_size(size), pattern_name, TABLE_FORMAT_VERSION};
  // Every callback owns what it reads (the shape of the table: its ranking tables, 0.5 MB; the
  // options without the caller's pointers), so a store that allows it (the server's) can finish
  // a build after the request that started it has gone. Progress goes out through the run the
  // build is given.
  const std::uint64_t bytes = t.bytes();
  const std::uint64_t entries_count = t.entries_;
  auto shape = std::make_shared<PiecePdb>(t);  // no entries yet: the shape and ranking tables
  PiecePdbOptions owned_options = options;
  owned_options.tables = nullptr;
  owned_options.run = nullptr;
  recipe.bytes = bytes;
  recipe.background = true;
  recipe.allocate = [bytes]() -> std::shared_ptr<Entries> {
    auto e = std::make_shared<Entries>();
    e->owner.reset(allocate_entries(bytes));
    if (!e->owner) return nullptr;
    return e;
  };
  recipe.payload = [bytes](Entries& e) { return std::span<std::uint8_t>(e.owner.get(), bytes); };
  recipe.loaded = [entries_count, cap = options.cap](Entries& e) -> Status {
    // Histogram from byte counts (one pass over the bytes, not a lookup per entry); an odd
    // entry count leaves the last byte's high nibble unused.
    std::vector<std::uint64_t> byte_count(256, 0);
    const std::uint64_t full = entries_count / 2;
    const std::uint8_t* data = e.owner.get();
    for (std::uint64_t i = 0; i < full; ++i) ++byte_count[data[i]];
    e.histogram.assign(16, 0);
    for (int b = 0; b < 256; ++b) {
      e.histogram[static_cast<std::size_t>(b & 0xF)] += byte_count[static_cast<std::size_t>(b)];
      e.histogram[static_cast<std::size_t>(b >> 4)] += byte_count[static_cast<std::size_t>(b)];
    }
    if (entries_count % 2) {
      const std::uint64_t last = entries_count - 1;
      ++e.histogram[static_cast<std::size_t>((data[last >> 1] >> ((last & 1) << 2)) & 0xF)];
    }
    e.max_distance = 0;
    for (int d = 0; d <= PDB_MAX_VALUE; ++d) {
      if (e.histogram[static_cast<std::size_t>(d)]) e.max_distance = d;
    }
    e.histogram.resize(static_cast<std::size_t>(e.max_distance) + 1);
    e.capped = e.max_distance == cap;  // a cached table does not say; assume so
    return Ok{};
  };
  // Step 3. Breadth-first search from the goal over the tracked pieces' cells.
  recipe.build = [shape, owned_options, bytes, allocate = recipe.allocate](
                     const RunContext& run) -> Result<std::shared_ptr<Entries>> {
    auto e = allocate();
    if (!e) {
      return make_error(
          fmt::format("out of memory for a piece pattern database of {} bytes", bytes), {},
          Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    std::memset(e->owner.get(), 0xFF, bytes);
    PiecePdb& t = *shape;  // a build's own copy of the shape: histogram, depth and cap land here
    const BoardSize size = t.size_;
    const int n = size.cells();
    PdbBuilder builder{t, owned_options, run, nullptr, {}};
    builder.data = e->owner.get();
    for (const Move& move : metric_moves(size, owned_options.metric)) {
      Perm perm = move_perm(size, move);
      std::vector<std::uint8_t> mv(static_cast<std::size_t>(n));
      for (int c = 0; c < n; ++c) mv[c] = static_cast<std::uint8_t>(perm(static_cast<Point>(c)));
      builder.moves.push_back(std::move(mv));
    }
    if (auto ok = builder.run(); !ok) return ok.error();
    e->histogram = t.histogram_;
    e->max_distance = t.max_distance_;
    e->capped = t.capped_;
    return e;
  };
  std::unique_ptr<TableStore> own_tables;
  if (options.tables == nullptr) own_tables = std::make_unique<TableStore>();
  TableStore& store = options.tables ? *options.tables : *own_tables;
  TableReport report;
  const RunContext run = options.run ? *options.run : RunContext{};
  if (auto ok = run.check_memory(t.bytes(), fmt::format("the {}-piece pattern database of "
                                                        "Loopover {} ({} entries at 4 bits)",
                                                        k, format_size(size), t.entries_));
      !ok) {
    return ok.error();
  }
  auto entries = store.obtain(recipe, run, &report);
  if (!entries) return entries.error();
  t.entries_table_ = *entries;
  t.data_ = (*entries)->owner.get();
  t.histogram_ = (*entries)->histogram;
  t.max_distance_ = (*entries)->max_distance;
  t.capped_ = (*entries)->capped;
  t.loaded_from_cache_ = report.source != TableReport::Source::Built;
  switch (report.source) {
    case TableReport::Source::Memory:
      t.cache_detail_ = "shared in memory";
      break;
    case TableReport::Source::Loaded:
      t.cache_detail_ = "loaded " + report.path;
      break;
    case TableReport::Source::Built:
      if (report.saved) t.cache_detail_ = "saved to " + report.path;
      if (!report.warning.empty()) t.cache_detail_ = "not saved: " + report.warning;
      break;
  }
  t.seconds_ = t0.seconds();
  return t;
}

}  // namespace permuzzle::loopover
