#include "permuzzle/puzzles/sliding/bfs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <optional>
#include <queue>
#include <utility>

#include "permuzzle/core/cluster.hpp"
#include "permuzzle/core/ranking.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"
#include "permuzzle/puzzles/sliding/symmetry_classes.hpp"
#include "permuzzle/search/bfs.hpp"
#include "permuzzle/search/bfs_checkpoint.hpp"
#include "permuzzle/search/bfs_distributed.hpp"
#include "permuzzle/search/bfs_space.hpp"

namespace permuzzle::sliding {

namespace {

// The version of the ranking in the checkpoints' files (SlidingRanking: ranks within a parity
// class).
constexpr std::uint32_t CHECKPOINT_FORMAT = 1;
// The same for searches over symmetry classes (symmetry_classes.hpp's index).
constexpr std::uint32_t CLASS_CHECKPOINT_FORMAT = 1;

using detail::permutation_parity;

// The tiles' order of a position of n cells (the non-blank cells in cell order); returns the
// blank's cell.
int tiles_of(const std::uint8_t* p, int n, std::uint8_t* t) {
  int blank = 0, m = 0;
  for (int c = 0; c < n; ++c) {
    if (p[c] == 0) {
      blank = c;
    } else {
      t[m++] = p[c];
    }
  }
  return blank;
}

// The neighbours of ranks of one parity class, for search/bfs.hpp. A horizontal move keeps the
// tiles' order, so its rank is the rank +- (n-1)!/2. A vertical move rotates the tiles' order
// between the blank's old and new cells; only the Lehmer digits of that span change, so the
// neighbour's rank comes from the position's prefix sums of weighted digits (as Loopover's
// NeighbourRanker does).
class SlidingExpander {
 public:
  SlidingExpander(const SlidingRanking& ranking, int klass)
      : ranking_(&ranking),
        klass_(klass),
        m_(ranking.size().cells() - 1),
        rows_(ranking.size().rows),
        cols_(ranking.size().cols),
        per_blank_(ranking.per_blank()) {}

  template <class Visit>
  void for_each_neighbour(std::uint64_t rank, Visit&& visit) {
    load(rank);
    const int row = blank_ / cols_, col = blank_ % cols_;
    if (col > 0 && visit(rank - per_blank_)) return;
    if (col + 1 < cols_ && visit(rank + per_blank_)) return;
    if (row > 0) {
      // The blank goes up: the tile at t[blank-cols] moves to t[blank-1], the ones between
      // move one place to the left.
      const int lo = blank_ - cols_, hi = blank_ - 1;
      std::uint64_t r = prefix_[lo] + (prefix_[m_] - prefix_[hi + 1]);
      std::uint32_t later = after_[hi];
      r += digit(later, t_[lo], hi);
      for (int i = hi - 1; i >= lo; --i) r += digit(later, t_[i + 1], i);
      if (visit(static_cast<std::uint64_t>(lo) * per_blank_ + (r >> 1))) return;
    }
    if (row + 1 < rows_) {
      // The blank goes down: the tile at t[blank+cols-1] moves to t[blank], the ones between
      // move one place to the right.
      const int lo = blank_, hi = blank_ + cols_ - 1;
      std::uint64_t r = prefix_[lo] + (prefix_[m_] - prefix_[hi + 1]);
      std::uint32_t later = after_[hi];
      for (int i = hi; i > lo; --i) r += digit(later, t_[i - 1], i);
      r += digit(later, t_[hi], lo);
      visit(static_cast<std::uint64_t>(blank_ + cols_) * per_blank_ + (r >> 1));
    }
  }

 private:
  // Weighted Lehmer digit of tile `tile` at index i of the new order, `later` the tiles after
  // it (updated).
  std::uint64_t digit(std::uint32_t& later, std::uint8_t tile, int i) const {
    const unsigned v = tile - 1u;
    const auto below = static_cast<std::uint64_t>(std::popcount(later & ((1u << v) - 1u)));
    later |= 1u << v;
    return below * ranking_->weight(i);
  }

  // Per cell of t: the set of later tiles, and the weighted digits' prefix sums; the parity.
  int prepare() {
    after_[m_ - 1] = 0;
    for (int i = m_ - 2; i >= 0; --i) after_[i] = after_[i + 1] | (1u << (t_[i + 1] - 1));
    prefix_[0] = 0;
    int parity = 0;
    for (int i = 0; i < m_; ++i) {
      const auto below =
          static_cast<std::uint64_t>(std::popcount(after_[i] & ((1u << (t_[i] - 1)) - 1u)));
      prefix_[i + 1] = prefix_[i] + below * ranking_->weight(i);
      parity ^= static_cast<int>(below & 1);
    }
    return parity;
  }

  void load(std::uint64_t rank) {
    if (rank == loaded_) return;
    if (loaded_ < rank && rank - loaded_ <= 4 &&
        rank / per_blank_ == static_cast<unsigned>(blank_)) {
      // A nearby later rank with the same blank: lex(t) = 2q + digit becomes 2(q + 1) by
      // stepping from 2q (last two tiles ascending) twice in lexicographic order (amortised
      // O(1), an unrank is O(n^2)); then the parity picks the last digit as below.
      for (; loaded_ < rank; ++loaded_) {
        if (t_[m_ - 2] > t_[m_ - 1]) std::swap(t_[m_ - 2], t_[m_ - 1]);
        std::next_permutation(t_, t_ + m_);
        std::next_permutation(t_, t_ + m_);
      }
    } else {
      loaded_ = rank;
      blank_ = static_cast<int>(rank / per_blank_);
      unrank_permutation(2 * (rank % per_blank_), m_, t_, 1);
    }
    if (prepare() != ranking_->tiles_parity(klass_, blank_)) {
      // lex(t) is even here (the last two tiles ascending): swapping them turns the last digit
      // from 0 to 1 (weight 1) and changes nothing else before it.
      std::swap(t_[m_ - 2], t_[m_ - 1]);
      after_[m_ - 2] = 1u << (t_[m_ - 1] - 1);
      prefix_[m_ - 1] = prefix_[m_ - 2] + 1;
      prefix_[m_] = prefix_[m_ - 1];
    }
  }

  const SlidingRanking* ranking_;
  int klass_, m_, rows_, cols_;
  std::uint64_t per_blank_;
  std::uint64_t loaded_ = ~std::uint64_t{0};
  int blank_ = 0;
  std::uint8_t t_[BFS_MAX_CELLS] = {};
  std::uint32_t after_[BFS_MAX_CELLS] = {};
  std::uint64_t prefix_[BFS_MAX_CELLS + 1] = {};
};

// 2 bits: turns every reached entry (a last level keeps its value) into "expanded", so another
// search can run in the same table.
void clear_frontier(search::BfsTable& table) {
  std::uint64_t* words = table.words();
  const std::uint64_t n = table.bytes() / sizeof(std::uint64_t);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t unseen = search::bfs_detail::fields_equal<2>(words[i], 3);
    words[i] &= unseen | (unseen << 1);
  }
}

// The first local entry at or after `from` not reached (table.states() when none).
std::uint64_t first_unreached_local(const search::BfsTable& table, std::uint64_t from) {
  const std::uint64_t* words = table.words();
  for (std::uint64_t wi = from / 32; wi * 32 < table.states(); ++wi) {
    std::uint64_t match = search::bfs_detail::fields_equal<2>(words[wi], 3);
    if (wi * 32 < from) match &= ~std::uint64_t{0} << ((from - wi * 32) * 2);
    if (match != 0) {
      return std::min(table.states(), wi * 32 + static_cast<unsigned>(std::countr_zero(match)) / 2);
    }
  }
  return table.states();
}

// The first local entry at or after `from` not reached whose rank `usable` accepts (a class
// index that is canonical), table.states() when none.
template <class Usable>
std::uint64_t first_unreached_usable(const search::BfsSpace& space, std::uint64_t from,
                                     const Usable& usable) {
  const search::BfsTable& table = space.table();
  for (from = first_unreached_local(table, from); from < table.states();
       from = first_unreached_local(table, from + 1)) {
    if (usable(space.rank_of(from))) return from;
  }
  return table.states();
}

// The positions of entry value `last` that come first in the lexicographic order of whole
// arrangements (the order of today's and earlier answers), at most `limit`, ascending; every
// process gets the same list. `positions_of(rank, out)` gives the positions a rank stands for
// (one; a class's orbit). False (on every process) when the run stopped the scan.
template <class PositionsOf>
bool first_antipodes(const search::BfsSpace& space, int cells, unsigned last, std::size_t limit,
                     const RunContext& run, const PositionsOf& positions_of,
                     std::vector<Position>& out) {
  if (limit == 0) return true;
  std::priority_queue<std::pair<std::uint64_t, Position>> best;  // (lex rank, position), max
  const search::BfsTable& table = space.table();
  const std::uint64_t* words = table.words();
  bool stopped = false;
  std::vector<Position> members;
  for (std::uint64_t wi = 0; wi * 32 < table.states() && !stopped; ++wi) {
    if ((wi & 0xFFFFF) == 0 && run.should_stop()) stopped = true;
    std::uint64_t match = search::bfs_detail::fields_equal<2>(words[wi], last);
    while (match != 0) {
      const std::uint64_t r =
          space.rank_of(wi * 32 + static_cast<unsigned>(std::countr_zero(match)) / 2);
      match &= match - 1;
      if (r >= space.states()) break;
      positions_of(r, members);
      for (Position& p : members) {
        const std::uint64_t lex = rank_permutation(p.data(), cells);
        if (best.size() < limit) {
          best.emplace(lex, std::move(p));
        } else if (lex < best.top().first) {
          best.pop();
          best.emplace(lex, std::move(p));
        }
      }
    }
  }
  if (space.any(stopped)) return false;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> first;
  for (; !best.empty(); best.pop()) first.emplace_back(best.top().first, 0);
  std::sort(first.begin(), first.end());
  if (space.cluster() != nullptr) {
    first = search::distributed_smallest(*space.cluster(), first, limit);
  }
  out.clear();
  for (const auto& entry : first) {
    Position p(static_cast<std::size_t>(cells));
    unrank_permutation(entry.first, cells, p.data());
    out.push_back(std::move(p));
  }
  return true;
}

}  // namespace

SlidingRanking::SlidingRanking(BoardSize size) : size_(size), cells_(size.cells()) {
  const int m = cells_ - 1;
  per_blank_ = *factorial(m) / 2;  // m <= 15
  for (int i = 0; i < m; ++i) weight_[i] = *factorial(m - 1 - i);
}

int SlidingRanking::parity_class(const Position& p) const {
  std::uint8_t t[BFS_MAX_CELLS];
  const int blank = tiles_of(p.data(), cells_, t);
  return tiles_parity(permutation_parity(t, cells_ - 1), blank);
}

std::uint64_t SlidingRanking::rank(const std::uint8_t* cells) const {
  std::uint8_t t[BFS_MAX_CELLS];
  const int blank = tiles_of(cells, cells_, t);
  return static_cast<std::uint64_t>(blank) * per_blank_ + rank_permutation(t, cells_ - 1, 1) / 2;
}

int SlidingRanking::unrank_tiles(std::uint64_t rank, int klass, std::uint8_t* t) const {
  const int m = cells_ - 1;
  const int blank = static_cast<int>(rank / per_blank_);
  unrank_permutation(2 * (rank % per_blank_), m, t, 1);
  if (permutation_parity(t, m) != tiles_parity(klass, blank)) std::swap(t[m - 2], t[m - 1]);
  return blank;
}

void SlidingRanking::position(std::uint64_t rank, int klass, std::uint8_t* cells) const {
  std::uint8_t t[BFS_MAX_CELLS];
  const int blank = unrank_tiles(rank, klass, t);
  for (int c = 0, i = 0; c < cells_; ++c) cells[c] = c == blank ? 0 : t[i++];
}

Position SlidingRanking::position(std::uint64_t rank, int klass) const {
  Position p(static_cast<std::size_t>(cells_), 0);
  position(rank, klass, p.data());
  return p;
}

Result<BfsResult> bfs(BoardSize size, const Position& goal, const BfsOptions& options) {
  Stopwatch clock;
  if (auto s = check_board_size(size); !s) return s.error();
  if (size.cells() > BFS_MAX_CELLS) {
    return make_error(fmt::format("whole-graph search is limited to {} cells (4x4, 2x8); {} has "
                                  "{}! arrangements",
                                  BFS_MAX_CELLS, to_string(size), size.cells()),
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  if (auto s = check_position(size, goal, "goal"); !s) return s.error();
  // Without a run context the machine's default budget still refuses what cannot fit.
  const RunContext run =
      options.run ? *options.run : RunContext().with_memory_budget(default_memory_budget());

  // Step 1. The index: the ranks of one parity class or, by options.symmetry when board maps
  // keep the goal, the classes of conjugate positions (symmetry_classes.hpp; an index per parity
  // class, both of one size). The table: 2 bits for each (this process's slice of it under a
  // cluster, with the message buffers), checked against the memory budget before it is
  // allocated.
  const int n = size.cells();
  const SlidingRanking ranking(size);
  const int goal_class = ranking.parity_class(goal);
  BfsResult res;
  res.arrangements = *factorial(n);                  // n <= 16
  const std::uint64_t positions = ranking.states();  // of a parity class
  const bool goal_symmetric = goal_symmetries(size, goal).size() > 1;
  // Under a cluster of any size (even one process under mpirun) the distributed search, so that
  // the answer carries its figures as def bfs's does.
  std::optional<search::BfsSpace> created;
  if (options.symmetry != SymmetryMode::On || !goal_symmetric) {
    auto plain = search::BfsSpace::create(
        positions, search::BfsBits::Two, run.cluster(), run,
        fmt::format("a breadth-first search of the {} board (2 bits for each of the {} "
                    "positions of a parity class)",
                    to_string(size), positions));
    // Auto falls back to the classes when the positions' table is refused (the same on every
    // process: the same budget and size).
    if (plain) {
      created = std::move(*plain);
    } else if (options.symmetry != SymmetryMode::Auto || !goal_symmetric) {
      return plain.error();
    }
  }
  std::optional<SlidingSymmetryClasses> classes[2];
  if (!created) {
    for (int k = 0; k < 2; ++k) classes[k].emplace(ranking, goal, k);
    auto symmetric = search::BfsSpace::create(
        classes[0]->states(), search::BfsBits::Two, run.cluster(), run,
        fmt::format("a breadth-first search of the {} board over its {} symmetries (2 bits for "
                    "each of the {} class indices of a parity class)",
                    to_string(size), classes[0]->group_order(), classes[0]->states()));
    if (!symmetric) return symmetric.error();
    created = std::move(*symmetric);
  }
  const bool symmetric = classes[0].has_value();
  res.symmetries = symmetric ? classes[0]->group_order() : 1;
  const std::uint64_t states = symmetric ? classes[0]->states() : positions;
  search::BfsSpace& space = *created;
  res.memory_bytes = space.table().bytes();

  search::BfsOptions bo;
  bo.bits = search::BfsBits::Two;
  bo.undirected = true;  // every move is undone by the opposite one
  bo.antipodes_limit = 0;
  // Over classes each index weighs its orbit's positions (set before the checkpoints are
  // attached: they record the positions per level too).
  const auto weigh = [&](int klass) -> std::function<std::uint64_t(std::uint64_t)> {
    if (!symmetric) return nullptr;
    const SlidingSymmetryClasses& cls = *classes[klass];
    return [&cls](std::uint64_t index) { return cls.orbit_size(index); };
  };
  bo.weight = weigh(goal_class);
  // A search of one component from `start` (an index of class `klass`) in the table as it is.
  const auto search_from = [&](std::uint64_t start, int klass) {
    const std::span<const std::uint64_t> starts(&start, 1);
    if (!symmetric) {
      return space.search(
          starts, [&] { return SlidingExpander(ranking, klass); }, run, bo);
    }
    const SlidingSymmetryClasses& cls = *classes[klass];
    bo.weight = weigh(klass);
    return space.search(
        starts, [&] { return cls.expander(); }, run, bo);
  };
  // The positions a search reached.
  const auto positions_reached = [](const search::BfsResult& r) {
    if (r.weighted.empty()) return r.reached;
    std::uint64_t sum = 0;
    for (std::uint64_t w : r.weighted) sum += w;
    return sum;
  };

  // Step 2. The goal's component, level by level (reported, and kept when the run stops).
  if (options.on_layer) {
    bo.on_level = [&](const search::BfsTable&, const std::vector<std::uint64_t>& h,
                      const std::vector<std::uint64_t>& w) -> Status {
      const std::vector<std::uint64_t>& positions = w.empty() ? h : w;
      std::uint64_t total = 0;
      for (std::uint64_t c : positions) total += c;
      options.on_layer(static_cast<int>(positions.size()) - 1, positions.back(), total);
      return Ok{};
    };
  }
  const std::uint64_t goal_rank = ranking.rank(goal);
  const std::uint64_t goal_index = symmetric ? classes[goal_class]->index(goal) : goal_rank;
  const search::BfsCheckpointName checkpoint{
      options.checkpoint_dir, "sliding-bfs",
      symmetric ? fmt::format("{}-class{}-goal{}-symmetries{}-2bit", to_string(size), goal_class,
                              goal_rank, res.symmetries)
                : fmt::format("{}-class{}-goal{}-2bit", to_string(size), goal_class, goal_rank),
      symmetric ? CLASS_CHECKPOINT_FORMAT : CHECKPOINT_FORMAT};
  auto resumed = space.use_checkpoints(checkpoint, options.resume, bo);
  if (!resumed) return resumed.error();
  res.resumed_from = *resumed;
  search::BfsCompletedLevels completed;
  search::record_completed_levels(bo, completed);
  auto r = search_from(goal_index, goal_class);
  res.distribution = space.distribution();
  if (!r) {
    if (!run.should_stop()) return r.error();
    res.complete = false;
    res.histogram = completed.positions;
    res.class_histogram = completed.ranks;
    for (auto h : res.histogram) res.states += h;
    for (auto h : res.class_histogram) res.classes += h;
    res.seconds = clock.seconds();
    return res;
  }
  res.histogram = symmetric ? r->weighted : r->histogram;
  res.class_histogram = r->histogram;
  res.classes = r->reached;
  res.max_distance = r->max_distance;
  res.antipodes_count = res.histogram.back();
  long double weighted = 0;
  for (std::size_t d = 0; d < res.histogram.size(); ++d) {
    res.states += res.histogram[d];
    weighted += static_cast<long double>(d) * static_cast<long double>(res.histogram[d]);
  }
  res.mean_distance = static_cast<double>(weighted / static_cast<long double>(res.states));
  res.component_sizes.push_back(res.states);
  const unsigned last = search::bfs_level(search::BfsBits::Two, res.max_distance, false).cur;
  // The positions an index of the goal's class stands for: its class's orbit, or itself.
  const auto positions_of = [&](std::uint64_t index, std::vector<Position>& out) {
    if (symmetric) {
      out = classes[goal_class]->orbit(index);
    } else {
      out.assign(1, ranking.position(index, goal_class));
    }
  };
  if (!first_antipodes(space, n, last,
                       static_cast<std::size_t>(std::max(0, options.antipodes_limit)), run,
                       positions_of, res.antipodes)) {
    res.complete = false;  // the histogram is whole; the antipodes' list and components are not
    res.seconds = clock.seconds();
    return res;
  }

  // Step 3. The other components: what the goal's class still holds, then the other class,
  // each time from the first position (class) not reached (the smallest over the processes).
  if (options.count_all_components) {
    bo.on_level = nullptr;        // no checkpoints of these searches
    bo.resume_histogram.clear();  // they start afresh
    bo.resume_weighted.clear();
    for (int pass = 0; pass < 2; ++pass) {
      const int klass = pass == 0 ? goal_class : 1 - goal_class;
      const auto usable = [&](std::uint64_t index) {
        return !symmetric || classes[klass]->canonical(index);
      };
      std::uint64_t covered = 0;
      if (pass == 0) {
        covered = res.states;
      } else {
        std::fill_n(space.table().words(), space.table().bytes() / sizeof(std::uint64_t),
                    ~std::uint64_t{0});
      }
      std::uint64_t local_next = 0;
      while (covered < positions) {
        clear_frontier(space.table());
        local_next = first_unreached_usable(space, local_next, usable);
        const std::uint64_t next = space.min(local_next < space.table().states()
                                                 ? space.rank_of(local_next)
                                                 : std::numeric_limits<std::uint64_t>::max());
        if (next >= states) {
          return make_error("internal: the sliding components do not cover the parity class");
        }
        auto other = search_from(next, klass);
        if (!other) {
          if (!run.should_stop()) return other.error();
          // The goal's component is whole; the count of components is not.
          res.complete = false;
          res.seconds = clock.seconds();
          return res;
        }
        res.component_sizes.push_back(positions_reached(*other));
        covered += res.component_sizes.back();
      }
    }
    res.components = static_cast<int>(res.component_sizes.size());
    res.components_method = "breadth-first search of every component";
  } else {
    // Relabelling two tiles maps the graph onto itself and the goal's component onto a
    // component of the other parity of the same size; if the two fill the space there are 2.
    if (2 * res.states == res.arrangements) {
      res.components = 2;
      res.component_sizes.push_back(res.states);
      res.components_method =
          "goal component searched; the other half is its image under swapping two tile labels";
    }
  }
  res.seconds = clock.seconds();
  return res;
}

}  // namespace permuzzle::sliding
