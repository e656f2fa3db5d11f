#include "permuzzle/puzzles/loopover/bfs.hpp"
#include "permuzzle/core/cluster.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/loopover/symmetry.hpp"
#include "permuzzle/puzzles/loopover/symmetry_classes.hpp"
#include "permuzzle/search/bfs.hpp"
#include "permuzzle/search/bfs_checkpoint.hpp"
#include "permuzzle/search/bfs_distributed.hpp"
#include "permuzzle/search/bfs_space.hpp"
#include "puzzles/loopover/arrangement_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <memory>
#include <optional>

namespace permuzzle::loopover {

namespace {

using detail::UNSEEN_NIBBLE;
// The version of the ranking in the checkpoints' files (Lehmer ranks of row-major tiles, 4-bit
// entries): a checkpoint of another version is not resumed.
constexpr std::uint32_t CHECKPOINT_FORMAT = 1;
// The same for searches over symmetry classes (symmetry_classes.hpp's index, 2-bit entries).
constexpr std::uint32_t CLASS_CHECKPOINT_FORMAT = 1;

struct MoveMap {
  std::uint8_t dst[MAX_BFS_CELLS];  // content of cell i goes to cell dst[i]
};

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

// The neighbours of a rank for search/bfs.hpp: the position is kept between calls (ranks come
// in ascending order within a range, and ranks are lexicographic, so a nearby later rank is
// reached by a few next_permutation steps, amortised O(1), instead of an O(n^2) unrank), and
// its neighbours ranked by the NeighbourRanker.
class LoopoverExpander {
 public:
  LoopoverExpander(int n, const std::uint64_t* weight, const std::vector<SpanMove>* spans)
      : n_(n), spans_(spans), neighbours_(n, weight) {}

  template <class Visit>
  void for_each_neighbour(std::uint64_t rank, Visit&& visit) {
    if (rank != have_) {
      if (have_ < rank && rank - have_ <= 8) {
        for (; have_ < rank; ++have_) next_permutation(tiles_, n_);
      } else {
        unrank_position(rank, n_, tiles_);
        have_ = rank;
      }
      neighbours_.load(tiles_);
    }
    for (const SpanMove& m : *spans_) {
      if (visit(neighbours_.rank_after(m))) return;
    }
  }

 private:
  int n_;
  const std::vector<SpanMove>* spans_;
  NeighbourRanker neighbours_;
  std::uint8_t tiles_[MAX_BFS_CELLS] = {};
  std::uint64_t have_ = ~std::uint64_t{0};  // the rank of tiles_ (none yet)
};

// The moves of a metric as SpanMoves (each move's inverse is also in the list), and the Lehmer
// weights (n-1-i)!.
struct MoveSpans {
  std::vector<SpanMove> spans;
  std::uint64_t weight[MAX_BFS_CELLS] = {};
};

MoveSpans move_spans(BoardSize size, Metric metric) {
  const int n = size.cells();
  MoveSpans out;
  for (const Move& move : metric_moves(size, metric)) {
    Position p = goal_position(size);
    apply_move(size, p, move);
    MoveMap m{};
    for (int cell = 0; cell < n; ++cell) m.dst[p[cell] - 1] = static_cast<std::uint8_t>(cell);
    SpanMove sp;
    sp.lo = n;
    sp.hi = -1;
    for (int c = 0; c < n; ++c) {
      sp.src[m.dst[c]] = static_cast<std::uint8_t>(c);
      if (m.dst[c] != c) sp.lo = std::min(sp.lo, c), sp.hi = std::max(sp.hi, c);
    }
    out.spans.push_back(sp);
  }
  for (int i = 0; i < n; ++i) out.weight[i] = *factorial(n - 1 - i);
  return out;
}

// What every search shares: the size check, the run context (threads, the default budget), the
// search options (4-bit entries, levels reported; the completed ones are kept for a stopped run
// by search::record_completed_levels, once the checkpoints are attached).
struct SearchSetup {
  RunContext run;
  std::uint64_t total = 0;  // n!
  MoveSpans moves;
  search::BfsOptions bo;
  search::BfsCompletedLevels completed;  // ranks and positions per completed level
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();

  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
};

Result<std::unique_ptr<SearchSetup>> prepare_search(BoardSize size, const BfsOptions& options) {
  if (auto ok = validate_size(size); !ok) return ok.error();
  const int n = size.cells();
  if (n > MAX_BFS_CELLS) {
    return make_error(fmt::format("whole-graph BFS of {} is out of reach: {}! positions (the "
                                  "limit is {} cells)",
                                  format_size(size), n, MAX_BFS_CELLS),
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  auto s = std::make_unique<SearchSetup>();
  s->total = *factorial(n);  // n <= 16
  // Without a run context the machine's default budget still refuses what cannot fit.
  s->run = options.run ? *options.run : RunContext().with_memory_budget(default_memory_budget());
  s->run.with_threads(options.threads > 0 ? static_cast<unsigned>(options.threads)
                                          : hardware_threads());
  s->moves = move_spans(size, options.metric);
  s->bo.bits = search::BfsBits::Four;
  s->bo.undirected = true;  // every metric move's inverse is also a move
  s->bo.antipodes_limit = options.antipodes;
  SearchSetup* raw = s.get();
  if (options.on_level) {
    s->bo.on_level = [raw, &options](const search::BfsTable&, const std::vector<std::uint64_t>& h,
                                     const std::vector<std::uint64_t>& w) -> Status {
      options.on_level(static_cast<int>(h.size()) - 1, (w.empty() ? h : w).back(), raw->seconds());
      return Ok{};
    };
  }
  return s;
}

// The run stopped the search: what was known goes to options.partial (the levels finished so
// far; the level under way is partial and not counted).
void report_partial(const BfsStats& st, const SearchSetup& s, const BfsOptions& options) {
  if (!s.run.should_stop() || options.partial == nullptr) return;
  BfsStats known = st;
  known.histogram =
      s.completed.ranks.empty() ? std::vector<std::uint64_t>{1} : s.completed.positions;
  known.class_histogram =
      s.completed.ranks.empty() ? std::vector<std::uint64_t>{1} : s.completed.ranks;
  for (std::uint64_t c : known.histogram) known.states += c;
  for (std::uint64_t c : known.class_histogram) known.classes += c;
  known.seconds = s.seconds();
  *options.partial = std::move(known);
}

// The summary; up to 5 antipodes when the entries tell them apart (max_distance < 15).
void summarise(BfsStats& st, const search::BfsResult& r, int n) {
  st.histogram = r.weighted.empty() ? r.histogram : r.weighted;
  st.class_histogram = r.histogram;
  st.classes = r.reached;
  st.states = 0;
  for (std::uint64_t c : st.histogram) st.states += c;
  st.max_distance = r.max_distance;
  st.antipodes = st.histogram.back();
  st.antipode_classes = r.last_level;
  double sum = 0;
  for (std::size_t d = 0; d < st.histogram.size(); ++d)
    sum += static_cast<double>(d) * st.histogram[d];
  st.mean_distance = sum / static_cast<double>(st.states);
  if (!r.weighted.empty()) return;  // the caller turns class ranks into positions
  std::uint8_t tiles[MAX_BFS_CELLS];
  for (std::uint64_t a : r.antipodes) {
    unrank_position(a, n, tiles);
    st.sample_antipodes.emplace_back(tiles, tiles + n);
  }
}

// The search over symmetry classes (symmetry_classes.hpp): 2-bit entries over the class index,
// each class weighted by its orbit size; checkpoints as search_from_goal's.
Result<BfsStats> search_classes(BoardSize size, const BfsOptions& options, Cluster* cluster) {
  auto s = prepare_search(size, options);
  if (!s) return s.error();
  SearchSetup& setup = **s;
  auto classes = SymmetryClasses::create(size, options.metric, setup.run);
  if (!classes) return classes.error();
  auto space = search::BfsSpace::create(
      classes->states(), search::BfsBits::Two, cluster, setup.run,
      fmt::format("a breadth-first search of the {} board over its {} symmetries (2 bits for "
                  "each of {} class ranks)",
                  format_size(size), classes->group_order(), classes->states()));
  if (!space) return space.error();
  BfsStats st;
  st.size = size;
  st.metric = options.metric;
  st.symmetries = classes->group_order();
  st.table_bytes = space->table().bytes();
  setup.bo.bits = search::BfsBits::Two;
  const SymmetryClasses& cls = *classes;
  setup.bo.weight = [cls](std::uint64_t rank) { return cls.orbit_size(rank); };
  const std::uint64_t goal = cls.index(goal_position(size));
  const search::BfsCheckpointName name{
      options.checkpoint_dir, "loopover-bfs",
      fmt::format("{}-{}-classes{}-2bit", format_size(size),
                  options.metric == Metric::Stm ? "stm" : "mtm", cls.group_order()),
      CLASS_CHECKPOINT_FORMAT};
  auto resumed = space->use_checkpoints(name, options.resume, setup.bo);
  if (!resumed) return resumed.error();
  st.resumed_from = *resumed;
  search::record_completed_levels(setup.bo, setup.completed);
  auto r = space->search(
      std::span<const std::uint64_t>(&goal, 1), [&] { return cls.expander(); }, setup.run,
      setup.bo);
  st.distribution = space->distribution();
  if (!r) {
    report_partial(st, setup, options);
    return r.error();
  }
  summarise(st, *r, size.cells());
  // Each antipode class stands for its orbit: its positions, as many as asked for, in order.
  const std::vector<Perm> group = metric_symmetry_group(size, options.metric);
  for (std::uint64_t a : r->antipodes) {
    const Position rep = cls.position(a);
    std::vector<Position> orbit;
    for (const Perm& sigma : group) orbit.push_back(conjugate_position(size, rep, sigma));
    std::sort(orbit.begin(), orbit.end());
    orbit.erase(std::unique(orbit.begin(), orbit.end()), orbit.end());
    for (Position& p : orbit) {
      if (st.sample_antipodes.size() == options.antipodes) break;
      st.sample_antipodes.push_back(std::move(p));
    }
  }
  st.seconds = setup.seconds();
  return st;
}

// The search from the goal (search/bfs.hpp, 4-bit entries: the distance mod 15) in a table of
// its own, or this process's slice under `cluster`; with checkpoints (options.checkpoint_dir)
// when `checkpoints` is set.
Result<BfsStats> search_from_goal(BoardSize size, const BfsOptions& options, Cluster* cluster,
                                  bool checkpoints, std::optional<search::BfsSpace>& space) {
  auto s = prepare_search(size, options);
  if (!s) return s.error();
  SearchSetup& setup = **s;
  const int n = size.cells();
  auto created = search::BfsSpace::create(
      setup.total, search::BfsBits::Four, cluster, setup.run,
      fmt::format("a breadth-first search of the {} board (4 bits for each of {} positions)",
                  format_size(size), setup.total));
  if (!created) return created.error();
  space = std::move(*created);
  BfsStats st;
  st.size = size;
  st.metric = options.metric;
  st.table_bytes = space->table().bytes();
  const std::uint64_t goal = rank_position(goal_position(size).data(), n);
  if (checkpoints) {
    const search::BfsCheckpointName name{
        options.checkpoint_dir, "loopover-bfs",
        fmt::format("{}-{}-4bit", format_size(size), options.metric == Metric::Stm ? "stm" : "mtm"),
        CHECKPOINT_FORMAT};
    auto resumed = space->use_checkpoints(name, options.resume, setup.bo);
    if (!resumed) return resumed.error();
    st.resumed_from = *resumed;
  }
  search::record_completed_levels(setup.bo, setup.completed);
  auto r = space->search(
      std::span<const std::uint64_t>(&goal, 1),
      [&] { return LoopoverExpander(n, setup.moves.weight, &setup.moves.spans); }, setup.run,
      setup.bo);
  st.distribution = space->distribution();
  if (!r) {
    report_partial(st, setup, options);
    return r.error();
  }
  summarise(st, *r, n);
  st.seconds = setup.seconds();
  return st;
}

}  // namespace

Result<DistanceTable> DistanceTable::build(BoardSize size, const BfsOptions& options) {
  std::optional<search::BfsSpace> space;
  // The table of every position (distance()): never classes.
  auto st = search_from_goal(size, options, nullptr, false, space);
  if (!st) return st.error();
  DistanceTable table;
  table.stats_ = std::move(*st);
  table.table_ = space->release_table();
  return table;
}

Result<BfsStats> analyse(BoardSize size, const BfsOptions& options) {
  Cluster* cluster = options.run != nullptr ? options.run->cluster() : nullptr;
  if (options.symmetry == SymmetryMode::Auto && symmetry_classes_supported(size)) {
    return search_classes(size, options, cluster);
  }
  std::optional<search::BfsSpace> space;
  return search_from_goal(size, options, cluster, true, space);
}

int DistanceTable::distance(const Position& position) const {
  const int e = entry(rank_position(position.data(), static_cast<int>(position.size())));
  return e == static_cast<int>(UNSEEN_NIBBLE) ? -1 : e;
}

}  // namespace permuzzle::loopover
