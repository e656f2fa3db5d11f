#include "permuzzle/puzzles/binary/solver.hpp"

#include <fmt/format.h>

#include <lemon/network_simplex.h>
#include <lemon/smart_graph.h>
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <optional>

#include "permuzzle/core/run_context.hpp"

namespace permuzzle::binary {

namespace {

using Graph = lemon::SmartDigraph;

// LEMON's network simplex has no way to be stopped, and it is the one long loop of this puzzle
// (a random 400x400 board: about 10 s). Its flow type is a template parameter, so the flows carry
// a pointer to a probe that every comparison of two flows counts down; every 4096 comparisons the
// probe asks the RunContext and throws FlowStopped to leave the simplex (whose state is all in
// vectors: nothing leaks). Flow comparisons happen on every pivot (the leaving-arc search), so a
// stop is seen within milliseconds; the price is about 1.7x the time of plain ints, more than
// paid back by the candidate-list pivot rule (3-5x faster than the default block search on these
// grid graphs).
struct FlowStopped {};

struct FlowProbe {
  const RunContext* run = nullptr;
  std::uint32_t countdown = CHECK_EVERY;
  static constexpr std::uint32_t CHECK_EVERY = 4096;

  void count() {
    if (--countdown != 0) return;
    countdown = CHECK_EVERY;
    if (run != nullptr && run->should_stop()) throw FlowStopped{};
  }
};

class CheckedFlow {
 public:
  CheckedFlow() = default;
  CheckedFlow(int v) : v_(v) {}  // NOLINT: LEMON writes `flow = 0` and compares with literals
  CheckedFlow(int v, FlowProbe* probe) : v_(v), probe_(probe) {}
  explicit operator long long() const { return v_; }
  int value() const { return v_; }

  friend CheckedFlow operator+(CheckedFlow a, CheckedFlow b) { return {a.v_ + b.v_, a.or_(b)}; }
  friend CheckedFlow operator-(CheckedFlow a, CheckedFlow b) { return {a.v_ - b.v_, a.or_(b)}; }
  CheckedFlow operator-() const { return {-v_, probe_}; }
  CheckedFlow& operator+=(CheckedFlow b) { return *this = *this + b; }
  CheckedFlow& operator-=(CheckedFlow b) { return *this = *this - b; }
  // Flow times cost (LEMON's total cost).
  friend long long operator*(CheckedFlow a, long long c) { return a.v_ * c; }
  friend long long operator*(long long c, CheckedFlow a) { return a.v_ * c; }

  friend bool operator<(CheckedFlow a, CheckedFlow b) {
    if (FlowProbe* p = a.or_(b)) p->count();
    return a.v_ < b.v_;
  }
  friend bool operator>(CheckedFlow a, CheckedFlow b) { return a.v_ > b.v_; }
  friend bool operator<=(CheckedFlow a, CheckedFlow b) { return a.v_ <= b.v_; }
  friend bool operator>=(CheckedFlow a, CheckedFlow b) { return a.v_ >= b.v_; }
  friend bool operator==(CheckedFlow a, CheckedFlow b) { return a.v_ == b.v_; }
  friend bool operator!=(CheckedFlow a, CheckedFlow b) { return a.v_ != b.v_; }

 private:
  FlowProbe* or_(CheckedFlow b) const { return probe_ != nullptr ? probe_ : b.probe_; }
  int v_ = 0;
  FlowProbe* probe_ = nullptr;
};

}  // namespace
}  // namespace permuzzle::binary

// LEMON reads the largest flow (its "infinite" capacity) from numeric_limits.
template <>
struct std::numeric_limits<permuzzle::binary::CheckedFlow> : std::numeric_limits<int> {
  static permuzzle::binary::CheckedFlow max() { return std::numeric_limits<int>::max(); }
  static permuzzle::binary::CheckedFlow min() { return std::numeric_limits<int>::min(); }
  static permuzzle::binary::CheckedFlow lowest() { return std::numeric_limits<int>::lowest(); }
};

namespace permuzzle::binary {
namespace {

using Simplex = lemon::NetworkSimplex<Graph, CheckedFlow, long long>;

// The grid graph: node i = cell i; for each neighbouring pair two arcs (forward then backward)
// added in cell order, right neighbour before lower neighbour, so arc ids can be recomputed.
void build_grid(Graph& g, int rows, int cols) {
  const int n = rows * cols;
  g.reserveNode(n);
  g.reserveArc(4 * n);
  for (int i = 0; i < n; ++i) g.addNode();
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      int i = r * cols + c;
      if (c + 1 < cols) {
        g.addArc(g.nodeFromId(i), g.nodeFromId(i + 1));
        g.addArc(g.nodeFromId(i + 1), g.nodeFromId(i));
      }
      if (r + 1 < rows) {
        g.addArc(g.nodeFromId(i), g.nodeFromId(i + cols));
        g.addArc(g.nodeFromId(i + cols), g.nodeFromId(i));
      }
    }
  }
}

// Net flows across each cell's right and lower edge (positive = rightwards / downwards).
struct GridFlow {
  long long cost = 0;
  std::vector<std::int32_t> right, down;
};

// `run` (may be null): asked every few thousand flow comparisons (see FlowProbe).
Result<GridFlow> grid_flow(const Board& start, const Board& goal, const RunContext* run) {
  const int rows = start.rows, cols = start.cols, n = rows * cols;
  Graph g;
  build_grid(g, rows, cols);
  FlowProbe probe{run};
  // A read map over a vector (LEMON's own node maps of a class type need C++17's allocator).
  struct SupplyMap {
    using Key = Graph::Node;
    using Value = CheckedFlow;
    const Graph* graph;
    std::vector<CheckedFlow> by_id;
    Value operator[](Key node) const { return by_id[static_cast<std::size_t>(graph->id(node))]; }
  } supply{&g, {}};
  supply.by_id.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    supply.by_id.emplace_back(int(start.cells[i]) - int(goal.cells[i]), &probe);
  }
  Graph::ArcMap<long long> cost(g, 1);
  Simplex simplex(g);
  simplex.costMap(cost).supplyMap(supply);
  Simplex::ProblemType outcome;
  try {
    outcome = simplex.run(Simplex::CANDIDATE_LIST);
  } catch (const FlowStopped&) {
    return run->stop_error();
  }
  if (outcome != Simplex::OPTIMAL) {
    return make_error("internal: min-cost flow found no optimal solution", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  GridFlow f;
  f.cost = simplex.totalCost();
  f.right.assign(n, 0);
  f.down.assign(n, 0);
  int arc = 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      int i = r * cols + c;
      if (c + 1 < cols) {
        f.right[i] = (simplex.flow(g.arcFromId(arc)) - simplex.flow(g.arcFromId(arc + 1))).value();
        arc += 2;
      }
      if (r + 1 < rows) {
        f.down[i] = (simplex.flow(g.arcFromId(arc)) - simplex.flow(g.arcFromId(arc + 1))).value();
        arc += 2;
      }
    }
  }
  return f;
}

// Exact shortcut when the surplus cells (start 1, goal 0) and the deficit cells (start 0,
// goal 1) are separated by a horizontal line (every surplus row >= every deficit row, or <=):
// then every piece moves the same vertical distance in any matching, so the vertical part of
// the cost is the constant |sum of surplus rows - sum of deficit rows|, and the horizontal part
// is the 1-D transport of the surplus columns onto the deficit columns, solved exactly by
// matching both sorted. (The same with rows and columns exchanged.) This lower bound is reached
// by routing each matched pair along an L-shaped shortest path, so the summed flow is optimal
// (and therefore has no cycles). The default goal (1s fill the rows from the top) is always
// separated. Returns false when the instance is not separated.
bool separable_flow(const Board& start, const Board& goal, GridFlow& f) {
  const int rows = start.rows, cols = start.cols, n = rows * cols;
  int s_min_r = rows, s_max_r = -1, d_min_r = rows, d_max_r = -1;
  int s_min_c = cols, s_max_c = -1, d_min_c = cols, d_max_c = -1;
  for (int i = 0; i < n; ++i) {
    int r = i / cols, c = i % cols;
    if (start.cells[i] > goal.cells[i]) {
      s_min_r = std::min(s_min_r, r), s_max_r = std::max(s_max_r, r);
      s_min_c = std::min(s_min_c, c), s_max_c = std::max(s_max_c, c);
    } else if (start.cells[i] < goal.cells[i]) {
      d_min_r = std::min(d_min_r, r), d_max_r = std::max(d_max_r, r);
      d_min_c = std::min(d_min_c, c), d_max_c = std::max(d_max_c, c);
    }
  }
  f.right.assign(n, 0);
  f.down.assign(n, 0);
  f.cost = 0;
  if (s_max_r < 0) return true;  // start == goal
  const bool by_rows = s_min_r >= d_max_r || s_max_r <= d_min_r;
  const bool by_cols = s_min_c >= d_max_c || s_max_c <= d_min_c;
  if (!by_rows && !by_cols) return false;
  // Step 1. Surplus and deficit cells, each sorted by column (by row when separated by
  // columns): a counting sort, since the cells are scanned in row-major order.
  std::vector<int> sur, def;
  auto collect = [&](bool column_major) {
    int outer = column_major ? cols : rows, inner = column_major ? rows : cols;
    for (int a = 0; a < outer; ++a) {
      for (int b = 0; b < inner; ++b) {
        int i = column_major ? b * cols + a : a * cols + b;
        if (start.cells[i] > goal.cells[i]) sur.push_back(i);
        if (start.cells[i] < goal.cells[i]) def.push_back(i);
      }
    }
  };
  collect(by_rows);
  // Step 2. Route pair k along an L-shaped path: vertically in the piece's column to the hole's
  // row, then horizontally in that row. Difference arrays keep this O(cells + pairs).
  std::vector<std::int32_t> vdiff(static_cast<std::size_t>(n) + cols, 0),
      hdiff(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t k = 0; k < sur.size(); ++k) {
    int pr = sur[k] / cols, pc = sur[k] % cols, hr = def[k] / cols, hc = def[k] % cols;
    f.cost += std::abs(pr - hr) + std::abs(pc - hc);
    // vertical edge (r, c)-(r+1, c) is down[r * cols + c]; moving up uses rows hr..pr-1 with -1
    if (pr > hr) {
      vdiff[hr * cols + pc] -= 1;
      vdiff[pr * cols + pc] += 1;
    } else if (pr < hr) {
      vdiff[pr * cols + pc] += 1;
      vdiff[hr * cols + pc] -= 1;
    }
    // horizontal edge (r, c)-(r, c+1) is right[r * cols + c]
    if (pc < hc) {
      hdiff[hr * cols + pc] += 1;
      hdiff[hr * cols + hc] -= 1;
    } else if (pc > hc) {
      hdiff[hr * cols + hc] -= 1;
      hdiff[hr * cols + pc] += 1;
    }
  }
  for (int c = 0; c < cols; ++c) {
    std::int32_t acc = 0;
    for (int r = 0; r < rows; ++r) {
      acc += vdiff[r * cols + c];
      f.down[r * cols + c] = acc;
    }
  }
  for (int r = 0; r < rows; ++r) {
    std::int32_t acc = 0;
    for (int c = 0; c < cols; ++c) {
      acc += hdiff[r * cols + c];
      f.right[r * cols + c] = acc;
    }
  }
  return true;
}

// Step-by-step construction of the swap sequence from the flow (see solver.hpp); every swap goes
// to `emit` as it is made, so nothing here grows with the length of the sequence.
// `stopped` (set by `emit` when the run asks to stop) ends the construction early.
template <class Emit>
Status build_sequence(const Board& start, GridFlow& f, Emit&& emit, const bool& stopped) {
  const int cols = start.cols;
  const std::uint32_t n = static_cast<std::uint32_t>(start.size());
  std::vector<std::uint8_t> cur = start.cells;
  auto& right = f.right;
  auto& down = f.down;
  // The next cell along an arc carrying flow out of u, or n when there is none.
  auto next = [&](std::uint32_t u) -> std::uint32_t {
    int c = static_cast<int>(u % cols);
    if (right[u] > 0) return u + 1;
    if (down[u] > 0) return u + cols;
    if (c > 0 && right[u - 1] < 0) return u - 1;
    if (u >= static_cast<std::uint32_t>(cols) && down[u - cols] < 0) return u - cols;
    return n;
  };
  // Consumes one unit of flow on the arc u -> v and records the swap.
  auto consume = [&](std::uint32_t u, std::uint32_t v) {
    std::uint32_t lo = u < v ? u : v;
    bool vertical = cols == 1 || (u > v ? u - v : v - u) != 1;
    if (vertical) {
      down[lo] += u < v ? -1 : 1;
    } else {
      right[lo] += u < v ? -1 : 1;
    }
    std::swap(cur[u], cur[v]);
    emit(swap_code(lo, vertical));
  };
  // Step 1. Every 1 with outgoing flow starts walks; a walk's end cell may start new ones.
  std::vector<std::uint32_t> work, path;
  for (std::uint32_t u = 0; u < n; ++u) {
    if (cur[u] == 1 && next(u) != n) work.push_back(u);
  }
  // Initial sources in row-major order; cells that become new sources go on a stack handled
  // at once (keeps the walks short and local in memory).
  std::vector<std::uint32_t> fresh;
  std::size_t next_initial = 0;
  while (next_initial < work.size() || !fresh.empty()) {
    std::uint32_t s;
    if (!fresh.empty()) {
      s = fresh.back();
      fresh.pop_back();
    } else {
      s = work[next_initial++];
    }
    while (cur[s] == 1 && next(s) != n) {
      if (stopped) return Ok{};
      // Step 2. Follow flow through identical 1s until a 0 (exists: flow is acyclic and every
      // 1 reached has outflow >= inflow > 0).
      path.assign(1, s);
      while (cur[path.back()] == 1) {
        std::uint32_t v = next(path.back());
        if (v == n || path.size() > n) {
          return make_error("internal: flow walk got stuck (flow not acyclic?)", {},
                            Error::NO_POSITION, ErrorKind::Internal);
        }
        path.push_back(v);
      }
      // Step 3. Swap backwards: the front 1 moves into the 0, each 1 behind follows.
      for (std::size_t i = path.size() - 1; i > 0; --i) consume(path[i - 1], path[i]);
      std::uint32_t end = path.back();
      if (next(end) != n) fresh.push_back(end);
    }
  }
  for (std::uint32_t u = 0; u < n; ++u) {
    if (right[u] != 0 || down[u] != 0) {
      return make_error("internal: flow left over after building the sequence", {},
                        Error::NO_POSITION, ErrorKind::Internal);
    }
  }
  return Ok{};
}

}  // namespace

Result<std::uint64_t> min_swaps_flow(const Board& start, const Board& goal) {
  if (auto s = check_compatible(start, goal); !s) return s.error();
  auto f = grid_flow(start, goal, nullptr);
  if (!f) return f.error();
  return static_cast<std::uint64_t>(f->cost);
}

Result<std::uint64_t> min_swaps_assignment(const Board& start, const Board& goal,
                                           std::size_t max_ones) {
  if (auto s = check_compatible(start, goal); !s) return s.error();
  std::vector<int> from, to;
  for (int i = 0; i < static_cast<int>(start.size()); ++i) {
    if (start.cells[i]) from.push_back(i);
    if (goal.cells[i]) to.push_back(i);
  }
  if (from.size() > max_ones) {
    return make_error(fmt::format("the assignment formulation is limited to {} ones", max_ones), {},
                      Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  const int k = static_cast<int>(from.size()), cols = start.cols;
  if (k == 0) return std::uint64_t{0};
  Graph g;
  for (int i = 0; i < 2 * k; ++i) g.addNode();
  Graph::ArcMap<long long> cost(g);
  for (int a = 0; a < k; ++a) {
    for (int b = 0; b < k; ++b) {
      auto arc = g.addArc(g.nodeFromId(a), g.nodeFromId(k + b));
      cost[arc] = std::abs(from[a] / cols - to[b] / cols) + std::abs(from[a] % cols - to[b] % cols);
    }
  }
  Graph::NodeMap<int> supply(g);
  for (int i = 0; i < k; ++i) {
    supply[g.nodeFromId(i)] = 1;
    supply[g.nodeFromId(k + i)] = -1;
  }
  Simplex simplex(g);
  simplex.costMap(cost).supplyMap(supply);
  if (simplex.run() != Simplex::OPTIMAL) {
    return make_error("internal: assignment found no optimal solution", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  return static_cast<std::uint64_t>(simplex.totalCost());
}

std::uint64_t flow_bytes(std::uint64_t cells, bool network_simplex) {
  const std::uint64_t per_cell = network_simplex ? 400 : 40;
  return cells > UINT64_MAX / per_cell ? UINT64_MAX : cells * per_cell;
}

Result<Solution> solve(const Board& start, const Board& goal, const SolveOptions& options) {
  if (auto s = check_compatible(start, goal); !s) return s.error();
  const RunContext* run = options.run;
  if (run) {
    // The separable arrays are allocated first whatever the method (network simplex after).
    const bool simplex = options.method == Method::NetworkSimplex;
    if (auto s = run->check_memory(
            flow_bytes(start.size(), simplex),
            fmt::format("the minimal swaps of a {}x{} board", start.rows, start.cols));
        !s) {
      return s.error();
    }
  }
  auto say = [&](const std::string& s) {
    if (options.on_progress) options.on_progress(s);
  };
  Solution sol;
  // Step 1. Minimal number of swaps: min-cost flow on the grid graph.
  Stopwatch t0;
  Result<GridFlow> f = GridFlow{};
  if (options.method != Method::NetworkSimplex && separable_flow(start, goal, *f)) {
    sol.method = "separable transport (exact: constant vertical part + sorted 1-D matching)";
  } else {
    if (options.method == Method::Separable) {
      return make_error(
          "the separable method needs surplus and deficit cells separated by a "
          "horizontal or vertical line");
    }
    say(fmt::format("min-cost flow on the {}x{} grid graph...", start.rows, start.cols));
    if (run) {
      if (auto s = run->check_memory(
              flow_bytes(start.size(), true),
              fmt::format("the min-cost flow of a {}x{} board", start.rows, start.cols));
          !s) {
        return s.error();
      }
      if (run->should_stop()) return run->stop_error();
    }
    f = grid_flow(start, goal, run);
    if (!f) return f.error();
    sol.method = "min-cost flow on the grid graph (LEMON network simplex)";
  }
  sol.swaps = static_cast<std::uint64_t>(f->cost);
  sol.stats.flow_seconds = t0.seconds();
  if (options.check_length) {
    if (auto s = options.check_length(sol.swaps); !s) return s.error();
  }
  if (!options.build_sequence) return sol;
  // Step 2. A sequence of exactly that length, each swap replayed on a separate board as it is
  // built (one verification, in O(cells) memory however long the sequence is), and kept only
  // when it is short enough.
  Stopwatch t1;
  say(fmt::format("building and replaying {} swaps...", sol.swaps));
  sol.moves_kept = sol.swaps <= options.keep_moves;
  if (sol.moves_kept && run) {
    if (auto s = run->check_memory(sol.swaps * sizeof(SwapCode) + flow_bytes(start.size(), false),
                                   fmt::format("keeping the {} swaps", sol.swaps));
        !s) {
      return s.error();
    }
  }
  if (sol.moves_kept) sol.moves.reserve(sol.swaps);
  bool stopped = false;
  std::optional<Replayer> replayer;
  if (options.replay) replayer.emplace(start);
  auto emit = [&](SwapCode s) {
    if (run && (sol.built & 65535) == 65535 && !stopped) stopped = run->should_stop();
    ++sol.built;
    if (replayer) replayer->apply(s);
    if (sol.moves_kept) sol.moves.push_back(s);
    if (options.on_swap) options.on_swap(s);
  };
  if (auto s = build_sequence(start, *f, emit, stopped); !s) return s.error();
  if (stopped) return run->stop_error();
  sol.stats.sequence_seconds = t1.seconds();
  if (sol.built != sol.swaps) {
    return make_error("internal: sequence length differs from the flow cost", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  // Step 3. The replay's verdict.
  if (replayer) {
    if (auto s = replayer->status(); !s) {
      return make_error("internal: replaying the built sequence failed: " + s.error().message, {},
                        Error::NO_POSITION, ErrorKind::Internal);
    }
    if (!(replayer->board() == goal)) {
      return make_error("internal: replayed sequence does not reach the goal", {},
                        Error::NO_POSITION, ErrorKind::Internal);
    }
    sol.verified = true;
  }
  return sol;
}

struct FlowOracle::Impl {
  Graph g;
  Graph::ArcMap<long long> cost;
  Graph::NodeMap<int> supply;
  Simplex simplex;
  int n;
  Impl(int rows, int cols)
      : cost(g), supply(g), simplex((build_grid(g, rows, cols), g)), n(rows * cols) {
    for (Graph::ArcIt a(g); a != lemon::INVALID; ++a) cost[a] = 1;
    simplex.costMap(cost);
  }
};

FlowOracle::FlowOracle(int rows, int cols) : impl_(new Impl(rows, cols)) {}
FlowOracle::~FlowOracle() {
  delete impl_;
}

std::uint64_t FlowOracle::distance(std::uint64_t start_mask, std::uint64_t goal_mask) {
  for (int i = 0; i < impl_->n; ++i) {
    impl_->supply[impl_->g.nodeFromId(i)] =
        static_cast<int>((start_mask >> i) & 1) - static_cast<int>((goal_mask >> i) & 1);
  }
  impl_->simplex.supplyMap(impl_->supply);
  impl_->simplex.run();
  return static_cast<std::uint64_t>(impl_->simplex.totalCost());
}

}  // namespace permuzzle::binary
