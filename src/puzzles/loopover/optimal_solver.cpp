#include "permuzzle/puzzles/loopover/optimal_solver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <optional>
#include <set>

#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/loopover/symmetry.hpp"
#include "permuzzle/search/ida.hpp"

namespace permuzzle::loopover {

namespace {

constexpr int OPTIMAL_MAX_CELLS = 32;
constexpr int MAX_DEPTH = 128;
constexpr int MAX_PROBES = 64;
// Pattern probes are prefetched and read in groups of this many (measured on 4x4 STM: 8 with the
// reordering below beats all 16 at once by ~10%, and groups of 2 or 4).
constexpr int PROBE_GROUP = 8;

// A move as the search applies it: the line's cells in order and the shift.
struct SearchMove {
  Move move;
  int cost = 1;  // in the solver's metric
  int len = 0;
  std::array<std::uint8_t, MAX_SIDE> cells{};
};

}  // namespace

Position inverse_position(const Position& position) {
  Position q(position.size());
  for (std::size_t cell = 0; cell < position.size(); ++cell) {
    q[position[cell] - 1u] = static_cast<std::uint8_t>(cell + 1);
  }
  return q;
}

// One pattern lookup: the pattern state of the conjugate tau^-1 s tau of the position s (or of
// its inverse). Its piece i is the piece with home src[i] = tau^-1(pattern[i]), standing in cell
// s(src[i]); the conjugate has it in cell tau(s(src[i])) = vmap[q[src[i]]] with q 1-based
// (q[h] = s(h) + 1). For the inverse, s^-1(c) + 1 = p[c] (the tile in cell c) replaces q.
struct Probe {
  bool inverse = false;
  std::array<std::uint8_t, MAX_PDB_PIECES> src{};
  std::array<std::uint8_t, OPTIMAL_MAX_CELLS + 1> vmap{};  // 1-based cell or tile -> 0-based cell
};

struct OptimalSolver::Impl {
  BoardSize size;
  Metric metric = Metric::Stm;
  WalkingDistanceTable vertical;
  WalkingDistanceTable horizontal;
  std::vector<SearchMove> moves;  // rows first (by line, then amount), then columns
  PiecePdb pdb;
  bool has_pdb = false;
  std::vector<Probe> probes;  // position and inverse probe of each image, interleaved
  double build_seconds = 0;
  std::string pattern_note;  // why an automatic pattern database is not used (empty: used)

  // The probes a search uses: all, or without the inverse ones, at most `max_probes` (0 = all).
  int select_probes(bool use_inverse, int max_probes, const Probe** out) const {
    int n = 0;
    for (const Probe& pr : probes) {
      if (pr.inverse && !use_inverse) continue;
      if (max_probes > 0 && n == max_probes) break;
      out[n++] = &pr;
    }
    return n;
  }

  // The table indices of `count` probes (p: tile per cell, q: cell per tile, both 1-based),
  // each prefetched at once.
  void pattern_indices(const std::uint8_t* p, const std::uint8_t* q, const Probe* const* list,
                       int count, std::uint32_t* idx) const {
    const int k = pdb.pieces();
    for (int j = 0; j < count; ++j) {
      const Probe& pr = *list[j];
      const std::uint8_t* from = pr.inverse ? p : q;
      std::uint8_t cells[MAX_PDB_PIECES];
      for (int i = 0; i < k; ++i) cells[i] = pr.vmap[from[pr.src[i]]];
      idx[j] = static_cast<std::uint32_t>(pdb.index(cells));
      pdb.prefetch(idx[j]);
    }
  }

  // Max over the probes (p: tile per cell, q: cell per tile, both 1-based), returning early
  // with the first value above `limit` (its position in `cut`, else -1). Probes go in groups:
  // a group's indices are computed and prefetched together (their cache misses overlap), then
  // read in order.
  int pattern_bound(const std::uint8_t* p, const std::uint8_t* q, int limit,
                    const Probe* const* list, int count, int group = MAX_PROBES,
                    int* cut = nullptr) const {
    int best = 0;
    for (int first = 0; first < count; first += group) {
      const int last = std::min(count, first + group);
      std::uint32_t idx[MAX_PROBES];
      pattern_indices(p, q, list + first, last - first, idx);
      for (int j = first; j < last; ++j) {
        best = std::max(best, pdb.value(idx[j - first]));
        if (best > limit) {
          if (cut) *cut = j;
          return best;
        }
      }
    }
    if (cut) *cut = -1;
    return best;
  }
};

namespace {

// One IDA* run; the state lives here and is modified in place (apply / undo).
class Search {
 public:
  Search(const OptimalSolver::Impl& impl, const OptimalSolveOptions& options)
      : impl_(impl), options_(options), cells_(impl.size.cells()) {
    if (impl.has_pdb) {
      probe_count_ =
          impl.select_probes(options.use_inverse, options.max_pattern_probes, probes_.data());
    }
    // Per depth, the children waiting for their walking distance (allocated once here; the
    // search itself never allocates).
    kids_.resize((MAX_DEPTH + 1) * impl.moves.size());
  }

  // The IDA* kernel (search/ida.hpp): the driver runs the bound loop, limits and replay.
  using Move = loopover::Move;

  // Loads the root; its bound, rounded up to the solution's parity when every move is odd.
  int start(const Position& start) {
    for (int i = 0; i < cells_; ++i) p_[i] = start[static_cast<std::size_t>(i)];
    for (int i = 0; i < cells_; ++i) q_[p_[i] - 1] = static_cast<std::uint8_t>(i + 1);
    d0_ = evaluate_all();
    int h0 = heuristic(d0_);
    if (impl_.has_pdb) {
      h0 = std::max(
          h0, impl_.pattern_bound(p_.data(), q_.data(), INT_MAX, probes_.data(), probe_count_));
    }
    int bound = h0;
    if (fixed_parity() && bound % 2 != (position_sign(start) < 0 ? 1 : 0)) ++bound;
    return bound;
  }

  search::IdaIteration iterate(int bound, search::IdaControl& control) {
    control_ = &control;
    next_bound_ = INT_MAX;
    depth_ = 0;
    const bool found = impl_.metric == Metric::Stm ? dfs<Metric::Stm>(0, bound, d0_, Last{})
                                                   : dfs<Metric::Mtm>(0, bound, d0_, Last{});
    return {found, next_bound_};
  }

  std::uint64_t nodes() const { return nodes_; }
  MoveSequence solution() const { return MoveSequence(path_.begin(), path_.begin() + depth_); }

  // With every move odd (STM on even x even boards) a solution's length has the position's
  // parity: bounds go up by 2.
  bool fixed_parity() const {
    return impl_.metric == Metric::Stm && impl_.size.rows % 2 == 0 && impl_.size.cols % 2 == 0;
  }

 private:
  struct Dist {
    int vp = 0, hp = 0, vq = 0, hq = 0;
  };
  struct Last {
    int axis = -1;  // -1: no move yet
    int line = -1;
    int dir = 0;  // STM: direction of the run on `line`
    int run = 0;  // STM: length of that run
  };
  // A child waiting for its walking distance (the moved axis' table, position and inverse).
  struct Kid {
    const SearchMove* sm = nullptr;
    Last next;
    std::uint64_t p_index = 0;
    std::uint64_t q_index = 0;
    Dist nd;
    std::array<std::uint32_t, PROBE_GROUP> probe_index{};  // first pattern group (table indices)
  };

  int heuristic(const Dist& d) const {
    int a = d.vp + d.hp;
    if (!options_.use_inverse) return a;
    return std::max(a, d.vq + d.hq);
  }

  Dist evaluate_all() const {
    Dist d;
    d.vp = impl_.vertical.distance(p_.data());
    d.hp = impl_.horizontal.distance(p_.data());
    d.vq = impl_.vertical.distance(q_.data());
    d.hq = impl_.horizontal.distance(q_.data());
    return d;
  }

  void apply(const SearchMove& m, int amount) {
    std::uint8_t tmp[MAX_SIDE];
    const int len = m.len;
    for (int i = 0; i < len; ++i) tmp[i] = p_[m.cells[i]];
    int k = ((amount % len) + len) % len;
    for (int i = 0; i < len; ++i) {
      int dst = i + k;
      if (dst >= len) dst -= len;
      std::uint8_t cell = m.cells[dst];
      p_[cell] = tmp[i];
      q_[tmp[i] - 1] = static_cast<std::uint8_t>(cell + 1);
    }
  }

  template <Metric M>
  bool dfs(int g, int bound, const Dist& d, const Last& last) {
    const int h = heuristic(d);
    if (g + h > bound) {
      next_bound_ = std::min(next_bound_, g + h);
      return false;
    }
    if (h == 0) {  // both relaxations solved: every tile in its home row and column
      depth_ = g;
      return true;
    }
    if (impl_.has_pdb && g > 0) {
      int cut = -1;
      const int hp = impl_.pattern_bound(p_.data(), q_.data(), bound - g, probes_.data(),
                                         probe_count_, PROBE_GROUP, &cut);
      // A probe that cut moves one place forward: the probes that cut most often drift to the
      // first group, whose cut saves the misses of the later groups.
      if (cut > 0) std::swap(probes_[cut], probes_[cut - 1]);
      if (g + hp > bound) {
        next_bound_ = std::min(next_bound_, g + hp);
        return false;
      }
    }
    if (!control_->keep_going(nodes_)) return false;
    // Step 1. The children in canonical order: their walking-distance indices, prefetched, so
    // that the table misses of all children overlap.
    Kid* kids = &kids_[static_cast<std::size_t>(g) * impl_.moves.size()];
    int count = 0;
    for (const SearchMove& sm : impl_.moves) {
      const int axis = static_cast<int>(sm.move.axis);
      const int line = sm.move.index;
      Last next;
      next.axis = axis;
      next.line = line;
      // Canonical order: a same-axis block visits lines in increasing order, each line once.
      if (axis == last.axis) {
        if (line < last.line) continue;
        if (line == last.line) {
          if constexpr (M == Metric::Mtm) {
            continue;
          } else {
            if (sm.move.amount != last.dir) continue;
            const int len = sm.len;
            const int max_run = sm.move.amount > 0 ? len / 2 : (len - 1) / 2;
            if (last.run + 1 > max_run) continue;
            next.run = last.run + 1;
          }
        } else {
          next.run = 1;
        }
      } else {
        next.run = 1;
      }
      if constexpr (M == Metric::Stm) next.dir = sm.move.amount;
      apply(sm, sm.move.amount);
      const WalkingDistanceTable& wd =
          sm.move.axis == Axis::Column ? impl_.vertical : impl_.horizontal;
      Kid& kid = kids[count++];
      kid.sm = &sm;
      kid.next = next;
      kid.p_index = wd.index(p_.data());
      wd.prefetch(kid.p_index);
      if (options_.use_inverse) {
        kid.q_index = wd.index(q_.data());
        wd.prefetch(kid.q_index);
      }
      apply(sm, -sm.move.amount);
    }
    // Step 2. Each child's walking distance; the children within the bound compute and
    // prefetch their first group of pattern probes (again overlapping the misses of siblings).
    const int first_group = std::min(probe_count_, PROBE_GROUP);
    const Probe* group[PROBE_GROUP];
    std::copy(probes_.begin(), probes_.begin() + first_group, group);
    int passed = 0;
    for (int i = 0; i < count; ++i) {
      Kid& kid = kids[i];
      const SearchMove& sm = *kid.sm;
      ++nodes_;
      kid.nd = d;
      if (sm.move.axis == Axis::Column) {
        kid.nd.vp = impl_.vertical.distance_of_index(kid.p_index);
        if (options_.use_inverse) kid.nd.vq = impl_.vertical.distance_of_index(kid.q_index);
      } else {
        kid.nd.hp = impl_.horizontal.distance_of_index(kid.p_index);
        if (options_.use_inverse) kid.nd.hq = impl_.horizontal.distance_of_index(kid.q_index);
      }
      const int f = g + sm.cost + heuristic(kid.nd);
      if (f > bound) {
        next_bound_ = std::min(next_bound_, f);
        continue;
      }
      if (first_group > 0) {
        apply(sm, sm.move.amount);
        impl_.pattern_indices(p_.data(), q_.data(), group, first_group, kid.probe_index.data());
        apply(sm, -sm.move.amount);
      }
      kids[passed++] = kid;
    }
    // Step 3. The first pattern group of each remaining child, then the search below it (whose
    // entry checks all the probes).
    for (int i = 0; i < passed; ++i) {
      const Kid& kid = kids[i];
      const SearchMove& sm = *kid.sm;
      const int g1 = g + sm.cost;
      int hp = 0;
      for (int j = 0; j < first_group; ++j) {
        hp = std::max(hp, impl_.pdb.value(kid.probe_index[static_cast<std::size_t>(j)]));
        if (g1 + hp > bound) {
          promote(group[j]);
          break;
        }
      }
      if (g1 + hp > bound) {
        next_bound_ = std::min(next_bound_, g1 + hp);
        continue;
      }
      apply(sm, sm.move.amount);
      path_[g] = sm.move;
      const bool found = dfs<M>(g1, bound, kid.nd, kid.next);
      apply(sm, -sm.move.amount);
      if (found) return true;
      if (control_->stopped()) return false;
    }
    return false;
  }

  // Moves a probe that cut one place forward in the search's probe order.
  void promote(const Probe* probe) {
    for (int j = 1; j < probe_count_; ++j) {
      if (probes_[static_cast<std::size_t>(j)] == probe) {
        std::swap(probes_[static_cast<std::size_t>(j)], probes_[static_cast<std::size_t>(j - 1)]);
        return;
      }
    }
  }

  const OptimalSolver::Impl& impl_;
  const OptimalSolveOptions& options_;
  int cells_;
  std::array<std::uint8_t, OPTIMAL_MAX_CELLS> p_{};  // tile per cell
  std::array<std::uint8_t, OPTIMAL_MAX_CELLS> q_{};  // inverse position: q[tile-1] = cell+1
  std::array<Move, MAX_DEPTH> path_{};
  std::array<const Probe*, MAX_PROBES> probes_{};
  int probe_count_ = 0;
  std::vector<Kid> kids_;  // [depth * moves + i]
  int depth_ = 0;
  int next_bound_ = INT_MAX;
  std::uint64_t nodes_ = 0;
  Dist d0_;  // the root's walking distances
  search::IdaControl* control_ = nullptr;
};

}  // namespace

OptimalSolver::OptimalSolver(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OptimalSolver::~OptimalSolver() = default;
OptimalSolver::OptimalSolver(OptimalSolver&&) noexcept = default;
OptimalSolver& OptimalSolver::operator=(OptimalSolver&&) noexcept = default;

std::vector<int> default_pattern(BoardSize size) {
  if (size.cells() > MAX_PDB_CELLS) return {};
  // Whole rows or whole columns, whichever tracks more pieces (rows on a tie).
  const int rows = std::min(size.rows, MAX_PDB_PIECES / size.cols);
  const int cols = std::min(size.cols, MAX_PDB_PIECES / size.rows);
  std::vector<int> cells;
  if (rows * size.cols >= cols * size.rows) {
    for (int c = 0; c < rows * size.cols; ++c) cells.push_back(c);
  } else {
    for (int r = 0; r < size.rows; ++r) {
      for (int c = 0; c < cols; ++c) cells.push_back(r * size.cols + c);
    }
  }
  return cells;
}

Result<OptimalSolver> OptimalSolver::create(BoardSize size, Metric metric, TableStore* tables) {
  OptimalSolverConfig config;
  config.tables = tables;
  return create(size, metric, config);
}

namespace {

// The probes of a pattern: one per distinct image tau^-1(pattern) (as a set of pieces) over the
// board symmetries tau; two symmetries with the same image give the same value (the pattern
// graph has an automorphism between them). Each image gives a position probe and, right after it,
// an inverse probe.
std::vector<Probe> make_probes(BoardSize size, const std::vector<int>& pattern) {
  std::vector<Probe> out;
  std::set<std::vector<int>> images;
  for (const Perm& tau : symmetry_group(size)) {
    const Perm inv = tau.inverse();
    Probe pr;
    std::vector<int> image;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
      pr.src[i] = static_cast<std::uint8_t>(inv(static_cast<Point>(pattern[i])));
      image.push_back(pr.src[i]);
    }
    std::sort(image.begin(), image.end());
    if (!images.insert(image).second) continue;
    for (int v = 1; v <= size.cells(); ++v) {
      pr.vmap[v] = static_cast<std::uint8_t>(tau(static_cast<Point>(v - 1)));
    }
    out.push_back(pr);
  }
  if (out.size() * 2 > MAX_PROBES) out.resize(MAX_PROBES / 2);
  std::vector<Probe> both;
  for (Probe pr : out) {
    both.push_back(pr);
    pr.inverse = true;
    both.push_back(pr);
  }
  return both;
}

}  // namespace

Result<OptimalSolver> OptimalSolver::create(BoardSize size, Metric metric,
                                            const OptimalSolverConfig& config) {
  TableStore* tables = config.tables;
  if (auto ok = validate_size(size); !ok) return ok.error();
  if (size.cells() > MAX_OPTIMAL_CELLS) {
    return make_error(fmt::format("optimal solving of {} is out of reach (more than {} cells); "
                                  "use the fast solver",
                                  format_size(size), MAX_OPTIMAL_CELLS),
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  Stopwatch t0;
  auto impl = std::make_unique<Impl>();
  impl->size = size;
  impl->metric = metric;
  auto both = WalkingDistanceTable::build_pair(
      size, metric, WalkingDistanceTable::DEFAULT_MAX_STATES, tables, config.run);
  if (!both) return both.error();
  impl->vertical = std::move(both->vertical);
  impl->horizontal = std::move(both->horizontal);
  impl->vertical.advise_huge_pages();
  impl->horizontal.advise_huge_pages();
  // Move list: rows then columns; STM amounts +1, -1 (one of them on lines of 2); MTM every
  // nonzero shift, written the shorter way round.
  for (const Move& move : metric_moves(size, metric)) {
    SearchMove sm;
    sm.move = move;
    sm.cost = 1;
    sm.len = line_length(size, move.axis);
    for (int i = 0; i < sm.len; ++i) {
      sm.cells[i] = static_cast<std::uint8_t>(move.axis == Axis::Row ? move.index * size.cols + i
                                                                     : i * size.cols + move.index);
    }
    impl->moves.push_back(sm);
  }
  // Pattern database and its probes.
  std::vector<int> pattern;
  if (config.pattern == PatternChoice::Auto) pattern = default_pattern(size);
  if (config.pattern == PatternChoice::Cells) pattern = config.pattern_cells;
  if (!pattern.empty()) {
    PiecePdbOptions po;
    po.metric = metric;
    po.threads = config.threads;
    po.tables = tables;
    po.run = config.run;
    // A store that builds in the background (a server) may still be building the automatic
    // pattern table: the request waits for it at most half its remaining time, then searches on
    // the walking distance alone (admissible too) while the table goes on being built.
    std::optional<RunContext> waiting;
    if (config.pattern == PatternChoice::Auto && tables != nullptr && config.run != nullptr &&
        tables->options().background_builds && config.run->deadline()) {
      const auto left = *config.run->deadline() - RunContext::Clock::now();
      waiting = *config.run;
      waiting->with_time_limit(std::chrono::duration<double>(std::max(left / 2, left.zero())));
      po.run = &*waiting;
    }
    auto pdb = PiecePdb::build(size, pattern, po);
    if (pdb) {
      impl->pdb = std::move(*pdb);
      impl->has_pdb = true;
      impl->probes = make_probes(size, pattern);
    } else if (config.pattern == PatternChoice::Cells) {
      return pdb.error();
    } else {
      if (config.run != nullptr && config.run->should_stop()) return config.run->stop_error();
      impl->pattern_note = pdb.error().message;
    }
    // Auto: a pattern that cannot be built (memory) only leaves the walking distance.
  }
  impl->build_seconds = t0.seconds();
  return OptimalSolver(std::move(impl));
}

BoardSize OptimalSolver::size() const {
  return impl_->size;
}
Metric OptimalSolver::metric() const {
  return impl_->metric;
}
double OptimalSolver::build_seconds() const {
  return impl_->build_seconds;
}
const WalkingDistanceTable& OptimalSolver::vertical() const {
  return impl_->vertical;
}
const WalkingDistanceTable& OptimalSolver::horizontal() const {
  return impl_->horizontal;
}

int OptimalSolver::bound(const Position& position) const {
  Position q = inverse_position(position);
  int a = impl_->vertical.distance(position.data()) + impl_->horizontal.distance(position.data());
  int b = impl_->vertical.distance(q.data()) + impl_->horizontal.distance(q.data());
  int h = std::max({a, b, pattern_bound(position)});
  if (impl_->metric == Metric::Stm && impl_->size.rows % 2 == 0 && impl_->size.cols % 2 == 0 &&
      h % 2 != (position_sign(position) < 0 ? 1 : 0)) {
    ++h;
  }
  return h;
}

int OptimalSolver::pattern_bound(const Position& position) const {
  if (!impl_->has_pdb) return 0;
  Position q = inverse_position(position);
  std::array<const Probe*, MAX_PROBES> list{};
  const int n = impl_->select_probes(true, 0, list.data());
  return impl_->pattern_bound(position.data(), q.data(), INT_MAX, list.data(), n);
}
const std::string& OptimalSolver::pattern_note() const {
  return impl_->pattern_note;
}
const PiecePdb* OptimalSolver::pattern_db() const {
  return impl_->has_pdb ? &impl_->pdb : nullptr;
}
int OptimalSolver::probes() const {
  return static_cast<int>(impl_->probes.size());
}

Result<OptimalSolveResult> OptimalSolver::solve(const Position& start,
                                                const OptimalSolveOptions& options) const {
  return solve(start, options, RunContext());
}

Result<OptimalSolveResult> OptimalSolver::solve(const Position& start,
                                                const OptimalSolveOptions& options,
                                                const RunContext& run) const {
  if (auto ok = validate_position(impl_->size, start); !ok) return ok.error();
  if (!is_solvable(impl_->size, start)) {
    return make_error(fmt::format("this position cannot be solved: on an odd x odd board ({}) "
                                  "every move is an even permutation, and this position is odd",
                                  format_size(impl_->size)),
                      {}, Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  if (options.metric != impl_->metric) {
    return make_error("solver tables were built for another metric", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  Search kernel(*impl_, options);
  search::IdaOptions ida;
  ida.max_bound = MAX_DEPTH;  // path_ holds MAX_DEPTH moves
  ida.bound_step = kernel.fixed_parity() ? 2 : 0;
  ida.node_limit = options.max_nodes;
  ida.on_iteration = options.on_iteration;
  const BoardSize size = impl_->size;
  auto found = search::ida_star(kernel, start, run, ida,
                                [size](const Position& root, const MoveSequence& moves) {
                                  Position check = root;
                                  apply_moves(size, check, moves);
                                  return is_goal(check);
                                });
  if (!found) return found.error();
  OptimalSolveResult result;
  result.moves = std::move(found->moves);
  result.length = sequence_length(size, result.moves, impl_->metric);
  result.initial_bound = found->initial_bound;
  result.nodes = found->nodes;
  result.seconds = found->seconds;
  return result;
}

}  // namespace permuzzle::loopover
