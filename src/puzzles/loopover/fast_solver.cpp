// Loopover fast multi-stage solver (see include/permuzzle/loopover/fast_solver.hpp and
// docs/loopover-fast.md).
//
// Data layouts:
// - A board state is `Board`: at[cell] = piece standing there, where[piece] = its cell. Pieces
//   are 0-based home cells (tile t is piece t-1). Cells are row-major, at most 81.
// - A stage table is one byte per partial arrangement of the stage's k target pieces over the
//   F free cells, indexed by the partial-permutation rank (see Ranker), holding the exact
//   distance (in the stage's subgroup and the chosen metric) to the arrangement with every
//   target piece home, or 0xFF for unreachable arrangements.
#include "permuzzle/puzzles/loopover/fast_solver.hpp"

#include "arrangement_table.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <tuple>
#include <unordered_set>

#include "permuzzle/core/run_context.hpp"

namespace permuzzle::loopover {

namespace {

constexpr int FAST_MAX_CELLS = 81;

using detail::bfs_table;
using detail::Ranker;
using detail::UNSEEN;

struct Board {
  std::array<std::uint8_t, FAST_MAX_CELLS> at{};
  std::array<std::uint8_t, FAST_MAX_CELLS> where{};
};

// One line shift as a cell map: the piece in cells[i] moves to dest[i].
struct MoveDef {
  Move move;
  std::vector<std::uint8_t> cells;
  std::vector<std::uint8_t> dest;
  std::array<std::uint8_t, FAST_MAX_CELLS> to{};  // full cell map (identity off the line)
  int inverse = -1;                               // index of the inverse move
};

// P(f, k) with saturation at `cap + 1`.
std::uint64_t arrangements(int f, int k, std::uint64_t cap) {
  std::uint64_t v = 1;
  for (int i = 0; i < k; ++i) {
    v *= static_cast<std::uint64_t>(f - i);
    if (v > cap) return cap + 1;
  }
  return v;
}

// One subgroup stage: lock block a0 x b0 kept, pieces of the block a1 x b1 (or of the whole
// free region when `final`) brought home with the lines that avoid the a0 x b0 block.
struct Stage {
  int a0 = 0, b0 = 0, a1 = 0, b1 = 0;
  bool final = false;
  int f = 0;                          // free cells
  std::vector<int> free_index;        // cell -> index among free cells, or -1
  std::vector<std::uint8_t> targets;  // tracked pieces (home cells)
  std::vector<int> moves;             // global move indices allowed in this stage
  std::vector<std::uint8_t> next;     // next[local move * f + free index]
  Ranker ranker;
  std::shared_ptr<const std::vector<std::uint8_t>> dist_table;  // from the table store
  const std::uint8_t* dist = nullptr;                           // dist_table's bytes
  std::vector<std::uint8_t> goal;  // free index of each target's home cell

  std::uint64_t rank_of(const Board& b, std::uint8_t* scratch) const {
    for (std::size_t i = 0; i < targets.size(); ++i)
      scratch[i] = static_cast<std::uint8_t>(free_index[b.where[targets[i]]]);
    return ranker.rank(scratch);
  }
};

// Setup table of the 3-cycle finisher: distance from the cells (x, y, z) of three tracked
// pieces to the cells (u, v, w) of some base commutator (a 4-move 3-cycle u->v->w->u).
struct Finisher {
  bool enabled = false;
  Ranker ranker;
  std::vector<std::uint8_t> dist;
  std::map<std::uint64_t, int> base_at;  // source rank -> base commutator index
  std::vector<std::vector<int>> base_moves;
  std::vector<std::array<std::uint8_t, 3>> base_cycle;
};

struct Candidate {
  Board board;
  std::vector<std::uint16_t> moves;  // global move indices, in the variant's frame
  int cost = 0;
  int variant = 0;  // symmetry index * 2 + inverse flag
  int score = 0;    // cost + next stage's exact distance (beam ordering)
};

}  // namespace

struct FastSolver::Impl {
  BoardSize size;
  Metric metric = Metric::Stm;
  std::uint64_t max_entries = 0;
  std::vector<MoveDef> moves;
  std::vector<Stage> stages;
  Finisher finisher;
  // Symmetries: cell maps sigma that send lines to lines; back[s][m] = sigma^-1 m sigma.
  std::vector<std::array<std::uint8_t, FAST_MAX_CELLS>> syms;
  std::vector<std::vector<std::uint16_t>> back;
  double build_seconds = 0;
  std::string plan;

  int cells() const { return size.cells(); }

  void apply(Board& b, int m) const {
    const MoveDef& d = moves[m];
    std::array<std::uint8_t, 9> tmp{};
    const std::size_t n = d.cells.size();
    for (std::size_t i = 0; i < n; ++i) tmp[i] = b.at[d.cells[i]];
    for (std::size_t i = 0; i < n; ++i) {
      b.at[d.dest[i]] = tmp[i];
      b.where[tmp[i]] = d.dest[i];
    }
  }

  bool solved(const Board& b) const {
    for (int i = 0; i < cells(); ++i)
      if (b.at[i] != i) return false;
    return true;
  }

  void build_moves();
  void build_symmetries();
  void plan_stages();
  Status build_stage(Stage& s, TableStore& tables, const RunContext& run);
  void build_finisher();

  void expand_stage(const Stage& s, const Candidate& c, int branch, int slack,
                    std::vector<Candidate>& out) const;
  std::uint64_t board_hash(const Board& b) const {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a over the cells
    for (int i = 0; i < cells(); ++i) h = (h ^ b.at[i]) * 1099511628211ULL;
    return h;
  }
  bool finish(Candidate& c) const;
  std::vector<Move> to_moves(const Candidate& c) const;
};

namespace {

// Shift normalised to (-L/2, L/2]; 0 means no move.
int normalise(int amount, int length) {
  amount %= length;
  if (amount < 0) amount += length;
  if (amount * 2 > length) amount -= length;
  return amount;
}

}  // namespace

void FastSolver::Impl::build_moves() {
  auto add = [&](Axis axis, int index, int amount) {
    MoveDef d;
    d.move = Move{axis, static_cast<std::uint8_t>(index), static_cast<std::int8_t>(amount)};
    for (int i = 0; i < cells(); ++i) d.to[i] = static_cast<std::uint8_t>(i);
    const int len = line_length(size, axis);
    for (int t = 0; t < len; ++t) {
      int cell = axis == Axis::Row ? index * size.cols + t : t * size.cols + index;
      int t2 = ((t + amount) % len + len) % len;
      int dest = axis == Axis::Row ? index * size.cols + t2 : t2 * size.cols + index;
      d.cells.push_back(static_cast<std::uint8_t>(cell));
      d.dest.push_back(static_cast<std::uint8_t>(dest));
      d.to[cell] = static_cast<std::uint8_t>(dest);
    }
    moves.push_back(std::move(d));
  };
  for (Axis axis : {Axis::Row, Axis::Column}) {
    const int lines = axis == Axis::Row ? size.rows : size.cols;
    const int len = line_length(size, axis);
    for (int index = 0; index < lines; ++index) {
      if (metric == Metric::Stm) {
        add(axis, index, 1);
        if (len > 2) add(axis, index, -1);
      } else {
        for (int a = 1; a < len; ++a) add(axis, index, normalise(a, len));
      }
    }
  }
  for (std::size_t m = 0; m < moves.size(); ++m) {
    for (std::size_t n = 0; n < moves.size(); ++n) {
      const auto& a = moves[m].move;
      const auto& b = moves[n].move;
      if (a.axis == b.axis && a.index == b.index &&
          normalise(a.amount + b.amount, line_length(size, a.axis)) == 0)
        moves[m].inverse = static_cast<int>(n);
    }
  }
}

void FastSolver::Impl::build_symmetries() {
  const int r = size.rows, c = size.cols;
  const int orientations = r == c ? 8 : 4;
  for (int o = 0; o < orientations; ++o) {
    for (int dr = 0; dr < r; ++dr) {
      for (int dc = 0; dc < c; ++dc) {
        std::array<std::uint8_t, FAST_MAX_CELLS> sigma{};
        for (int i = 0; i < r; ++i) {
          for (int j = 0; j < c; ++j) {
            int y = i, x = j;
            if (o & 1) y = r - 1 - y;
            if (o & 2) x = c - 1 - x;
            if (o & 4) std::swap(y, x);  // square boards only
            y = (y + dr) % r;
            x = (x + dc) % c;
            sigma[i * c + j] = static_cast<std::uint8_t>(y * c + x);
          }
        }
        syms.push_back(sigma);
      }
    }
  }
  // back[s][m]: the move n with n = sigma^-1 m sigma, i.e. n(x) = sigma^-1(m(sigma(x))).
  back.assign(syms.size(), std::vector<std::uint16_t>(moves.size()));
  for (std::size_t s = 0; s < syms.size(); ++s) {
    std::array<std::uint8_t, FAST_MAX_CELLS> inv{};
    for (int x = 0; x < cells(); ++x) inv[syms[s][x]] = static_cast<std::uint8_t>(x);
    for (std::size_t m = 0; m < moves.size(); ++m) {
      std::array<std::uint8_t, FAST_MAX_CELLS> want{};
      for (int x = 0; x < cells(); ++x) want[x] = inv[moves[m].to[syms[s][x]]];
      for (std::size_t n = 0; n < moves.size(); ++n) {
        if (std::equal(want.begin(), want.begin() + cells(), moves[n].to.begin())) {
          back[s][m] = static_cast<std::uint16_t>(n);
          break;
        }
      }
    }
  }
}

// Step 1: greedily grow the locked top-left block, each step bringing as many pieces home as a
// table of at most max_entries allows; stop with a final stage as soon as the whole free region
// fits in one table. Step 2: if growth stalls, the 3-cycle finisher does the rest.
void FastSolver::Impl::plan_stages() {
  const int r = size.rows, c = size.cols;
  int a = 0, b = 0;
  plan = "0x0";
  while (true) {
    const int f = r * c - a * b;
    if (arrangements(f, f, max_entries) <= max_entries) {
      Stage s;
      s.a0 = a, s.b0 = b, s.a1 = r, s.b1 = c, s.final = true;
      stages.push_back(std::move(s));
      plan += ">" + std::to_string(r) + "x" + std::to_string(c);
      return;
    }
    int best_k = 0, best_a = 0, best_b = 0, best_skew = 0;
    for (int a1 = std::max(a, 1); a1 <= r - 1; ++a1) {
      for (int b1 = std::max(b, 1); b1 <= c - 1; ++b1) {
        const int k = a1 * b1 - a * b;
        if (k <= 0 || arrangements(f, k, max_entries) > max_entries) continue;
        const int skew = std::abs(a1 * c - b1 * r);
        if (k > best_k || (k == best_k && skew < best_skew)) {
          best_k = k, best_a = a1, best_b = b1, best_skew = skew;
        }
      }
    }
    if (best_k == 0) break;
    Stage s;
    s.a0 = a, s.b0 = b, s.a1 = best_a, s.b1 = best_b;
    stages.push_back(std::move(s));
    a = best_a, b = best_b;
    plan += ">" + std::to_string(a) + "x" + std::to_string(b);
  }
  finisher.enabled = true;
  plan += ">3-cycles";
}

Status FastSolver::Impl::build_stage(Stage& s, TableStore& tables, const RunContext& run) {
  const int c = size.cols;
  s.free_index.assign(cells(), -1);
  for (int cell = 0; cell < cells(); ++cell) {
    const bool locked = cell / c < s.a0 && cell % c < s.b0;
    if (!locked) s.free_index[cell] = s.f++;
  }
  for (int cell = 0; cell < cells(); ++cell) {
    const bool in_new = s.final ? s.free_index[cell] >= 0
                                : (cell / c < s.a1 && cell % c < s.b1 && s.free_index[cell] >= 0);
    if (in_new) s.targets.push_back(static_cast<std::uint8_t>(cell));
  }
  for (std::size_t m = 0; m < moves.size(); ++m) {
    const Move& mv = moves[m].move;
    const bool allowed =
        mv.axis == Axis::Row ? (mv.index >= s.a0 || s.b0 == 0) : (mv.index >= s.b0 || s.a0 == 0);
    if (allowed) s.moves.push_back(static_cast<int>(m));
  }
  s.next.resize(s.moves.size() * s.f);
  for (std::size_t lm = 0; lm < s.moves.size(); ++lm) {
    for (int cell = 0; cell < cells(); ++cell) {
      if (s.free_index[cell] < 0) continue;
      s.next[lm * s.f + s.free_index[cell]] =
          static_cast<std::uint8_t>(s.free_index[moves[s.moves[lm]].to[cell]]);
    }
  }
  const int k = static_cast<int>(s.targets.size());
  s.ranker = Ranker(s.f, k);
  s.goal.resize(k);
  for (int i = 0; i < k; ++i) s.goal[i] = static_cast<std::uint8_t>(s.free_index[s.targets[i]]);
  const std::vector<std::uint8_t>& goal = s.goal;
  // Through the table store: cached tables are verified (header, size, checksum), else rebuilt.
  const TableKey key{
      "loopover-" + std::to_string(size.rows) + "x" + std::to_string(size.cols),
      std::string(metric == Metric::Stm ? "fast-stm-" : "fast-mtm-") + std::to_string(s.a0) + "x" +
          std::to_string(s.b0) + "-" +
          (s.final ? std::string("all") : std::to_string(s.a1) + "x" + std::to_string(s.b1)),
      1};
  TableRecipe<std::vector<std::uint8_t>> recipe;
  recipe.key = key;
  recipe.bytes = s.ranker.size();
  // Background-safe (a server's build outlives the request): the callbacks hold copies of what
  // they read.
  recipe.background = true;
  recipe.allocate = [bytes = s.ranker.size()] {
    return std::make_shared<std::vector<std::uint8_t>>(bytes);
  };
  recipe.payload = [](std::vector<std::uint8_t>& d) { return std::span<std::uint8_t>(d); };
  recipe.build = [ranker = s.ranker, f = s.f, move_count = static_cast<int>(s.moves.size()),
                  next = s.next, goal_rank = s.ranker.rank(goal.data())](
                     const RunContext& r) -> Result<std::shared_ptr<std::vector<std::uint8_t>>> {
    auto dist = std::make_shared<std::vector<std::uint8_t>>(
        bfs_table(ranker, f, move_count, next, {goal_rank}, &r));
    if (dist->empty()) return r.stop_error();
    return dist;
  };
  if (auto ok = run.check_memory(s.ranker.size(), fmt::format("a {}-entry stage table of the "
                                                              "fast Loopover solver",
                                                              s.ranker.size()));
      !ok) {
    return ok.error();
  }
  auto table = tables.obtain(recipe, run);
  if (!table) return table.error();
  s.dist_table = *table;
  s.dist = s.dist_table->data();
  return Ok{};
}

void FastSolver::Impl::build_finisher() {
  const int n = cells();
  // Step 1: base commutators [row i by x, column j by y] (x, y = +-1) that are 3-cycles.
  for (int i = 0; i < size.rows; ++i) {
    for (int j = 0; j < size.cols; ++j) {
      for (int x : {1, -1}) {
        for (int y : {1, -1}) {
          auto find = [&](Axis axis, int index, int amount) {
            for (std::size_t m = 0; m < moves.size(); ++m) {
              const Move& mv = moves[m].move;
              if (mv.axis == axis && mv.index == index &&
                  normalise(mv.amount - amount, line_length(size, axis)) == 0)
                return static_cast<int>(m);
            }
            return -1;
          };
          std::vector<int> seq = {find(Axis::Row, i, x), find(Axis::Column, j, y),
                                  find(Axis::Row, i, -x), find(Axis::Column, j, -y)};
          if (std::count(seq.begin(), seq.end(), -1)) continue;
          Board b;
          for (int q = 0; q < n; ++q) b.at[q] = b.where[q] = static_cast<std::uint8_t>(q);
          for (int m : seq) apply(b, m);
          std::vector<std::uint8_t> moved;
          for (int q = 0; q < n; ++q)
            if (b.at[q] != q) moved.push_back(static_cast<std::uint8_t>(q));
          if (moved.size() != 3) continue;
          // Cycle u -> v -> w: the piece from u now stands at v.
          std::uint8_t u = moved[0], v = b.where[u], w = b.where[v];
          finisher.base_moves.push_back(seq);
          finisher.base_cycle.push_back({u, v, w});
        }
      }
    }
  }
  // Step 2: multi-source BFS over the cells of three tracked pieces.
  finisher.ranker = Ranker(n, 3);
  std::vector<std::uint64_t> sources;
  for (std::size_t t = 0; t < finisher.base_cycle.size(); ++t) {
    auto cyc = finisher.base_cycle[t];
    for (int rot = 0; rot < 3; ++rot) {
      std::array<std::uint8_t, 3> p = {cyc[rot], cyc[(rot + 1) % 3], cyc[(rot + 2) % 3]};
      auto rk = finisher.ranker.rank(p.data());
      if (!finisher.base_at.count(rk)) finisher.base_at[rk] = static_cast<int>(t);
      sources.push_back(rk);
    }
  }
  std::vector<std::uint8_t> next(moves.size() * n);
  for (std::size_t m = 0; m < moves.size(); ++m)
    for (int q = 0; q < n; ++q) next[m * n + q] = moves[m].to[q];
  finisher.dist = bfs_table(finisher.ranker, n, static_cast<int>(moves.size()), next, sources);
}

// Expands candidate `c` by up to `branch` stage solutions of stage `s` that end on distinct
// boards: first the optimal ones (length d0), then, when `slack` > 0, ones of length d0 + 1 ..
// d0 + slack (a longer stage solution can leave the later stages much easier; the beam's score
// decides). Depth-first with the exact table as the bound: a move is taken at depth g only if
// g + 1 + dist(next) <= budget; commuting moves of one axis go in increasing line order and a
// move is never followed by its inverse (both only re-reach boards of shorter paths).
void FastSolver::Impl::expand_stage(const Stage& s, const Candidate& c, int branch, int slack,
                                    std::vector<Candidate>& out) const {
  std::array<std::uint8_t, FAST_MAX_CELLS> p{};
  const std::uint64_t r0 = s.rank_of(c.board, p.data());
  const int d0 = s.dist[r0];
  if (d0 == UNSEEN) return;
  const int k = static_cast<int>(s.targets.size());
  const int max_len = d0 + slack;
  const int nm = static_cast<int>(s.moves.size());
  std::vector<int> path(max_len + 1);
  // Per depth: the children's arrangements (nm * k bytes), their ranks, and which moves are
  // allowed. All children of a node are ranked and their table entries prefetched before any is
  // read: the large stage tables miss the cache, and the misses then overlap.
  std::vector<std::uint8_t> kids(static_cast<std::size_t>(max_len + 1) * nm * k);
  std::vector<std::uint64_t> kid_rank(static_cast<std::size_t>(max_len + 1) * nm);
  std::vector<std::uint8_t> allowed(static_cast<std::size_t>(max_len + 1) * nm);
  // End boards already emitted for this candidate (hash), so branch slots are not spent on
  // orders of commuting moves that reach the same board.
  std::vector<std::uint64_t> ends;
  int found = 0;
  int budget = d0;
  auto dfs = [&](auto&& self, int depth, const std::uint8_t* here, int h) -> void {
    if (found >= branch) return;
    if (depth == budget) {
      if (h != 0) return;
      Candidate n = c;
      for (int i = 0; i < depth; ++i) {
        const int gm = s.moves[path[i]];
        apply(n.board, gm);
        n.moves.push_back(static_cast<std::uint16_t>(gm));
      }
      const std::uint64_t key = board_hash(n.board);
      if (std::find(ends.begin(), ends.end(), key) != ends.end()) return;
      ends.push_back(key);
      n.cost += depth;
      out.push_back(std::move(n));
      ++found;
      return;
    }
    if (h == 0 && depth > 0) return;  // home early: a longer path through home is never useful
    const bool last = depth + 1 == budget;
    std::uint8_t* kid = &kids[static_cast<std::size_t>(depth) * nm * k];
    std::uint64_t* rk = &kid_rank[static_cast<std::size_t>(depth) * nm];
    std::uint8_t* ok = &allowed[static_cast<std::size_t>(depth) * nm];
    // Step 1. Children: canonical order (commuting moves of one axis in increasing line order,
    // no move followed by its inverse), arrangements, ranks and prefetches.
    for (int lm = 0; lm < nm; ++lm) {
      ok[lm] = 1;
      if (depth > 0) {
        const int pm = s.moves[path[depth - 1]];
        const Move& prev = moves[pm].move;
        const Move& cur = moves[s.moves[lm]].move;
        if ((prev.axis == cur.axis && cur.index < prev.index) || moves[pm].inverse == s.moves[lm]) {
          ok[lm] = 0;
          continue;
        }
      }
      const std::uint8_t* next = &s.next[static_cast<std::size_t>(lm) * s.f];
      std::uint8_t* q = kid + lm * k;
      for (int i = 0; i < k; ++i) q[i] = next[here[i]];
      if (last) {
        // The last move must bring every target home: compare instead of a table lookup (the
        // deepest level has most of the nodes).
        ok[lm] = std::equal(q, q + k, s.goal.begin());
      } else {
        rk[lm] = s.ranker.rank(q);
        __builtin_prefetch(&s.dist[rk[lm]]);
      }
    }
    // Step 2. Descend into the children the table allows within the budget.
    for (int lm = 0; lm < nm; ++lm) {
      if (!ok[lm]) continue;
      const int h2 = last ? 0 : s.dist[rk[lm]];
      if (depth + 1 + h2 > budget) continue;
      path[depth] = lm;
      self(self, depth + 1, kid + lm * k, h2);
      if (found >= branch) return;
    }
  };
  for (budget = d0; budget <= max_len && found < branch; ++budget) dfs(dfs, 0, p.data(), d0);
}

// Solves the rest of the board with conjugated 3-cycles (and one odd move when the remaining
// permutation is odd, which needs an even-length line). Returns false if it cannot.
bool FastSolver::Impl::finish(Candidate& c) const {
  const int n = cells();
  auto odd = [&](const Board& b) {
    int cycles = 0;
    std::array<bool, FAST_MAX_CELLS> seen{};
    for (int q = 0; q < n; ++q) {
      if (seen[q]) continue;
      ++cycles;
      for (int x = q; !seen[x]; x = b.at[x]) seen[x] = true;
    }
    return (n - cycles) % 2 == 1;
  };
  auto push = [&](int m) {
    apply(c.board, m);
    c.moves.push_back(static_cast<std::uint16_t>(m));
    c.cost += 1;
  };
  if (odd(c.board)) {
    // Step 1: parity fix by the unit move on an even-length line that leaves most pieces home.
    int best = -1, best_home = -1;
    for (std::size_t m = 0; m < moves.size(); ++m) {
      const Move& mv = moves[m].move;
      if (line_length(size, mv.axis) % 2 != 0 || std::abs(mv.amount) != 1) continue;
      Board b = c.board;
      apply(b, static_cast<int>(m));
      int home = 0;
      for (int q = 0; q < n; ++q) home += b.at[q] == q;
      if (home > best_home) best_home = home, best = static_cast<int>(m);
    }
    if (best < 0) return false;
    push(best);
  }
  // Step 2: greedy 3-cycles, cheapest setup per piece placed.
  for (int guard = 0; guard < 4 * n && !solved(c.board); ++guard) {
    std::vector<std::uint8_t> wrong;
    for (int q = 0; q < n; ++q)
      if (c.board.at[q] != q) wrong.push_back(static_cast<std::uint8_t>(q));
    double best_score = 1e9;
    std::array<std::uint8_t, 3> best_cycle{};
    auto consider = [&](std::uint8_t x, std::uint8_t y, std::uint8_t z, int placed) {
      std::array<std::uint8_t, 3> p = {x, y, z};
      const int d = finisher.dist[finisher.ranker.rank(p.data())];
      if (d == UNSEEN) return;
      const double score = (2.0 * d + 4.0) / placed;
      if (score < best_score) best_score = score, best_cycle = p;
    };
    for (auto x : wrong) {
      const std::uint8_t h1 = c.board.at[x];  // the piece at x belongs in cell h1
      const std::uint8_t h2 = c.board.at[h1];
      if (h2 != x) {
        consider(x, h1, h2, c.board.at[h2] == x ? 3 : 2);
      } else {
        for (auto z : wrong)
          if (z != x && z != h1) consider(x, h1, z, 1);
      }
    }
    if (best_score >= 1e9) return false;
    // Step 3: setup S moving the three pieces onto a base commutator's cells, the commutator,
    // then S^-1. The cycle x -> y -> z moves the piece at x to y, at y to z, at z to x.
    std::array<std::uint8_t, 3> p = best_cycle;
    std::vector<int> setup;
    int d = finisher.dist[finisher.ranker.rank(p.data())];
    while (d > 0) {
      bool stepped = false;
      for (std::size_t m = 0; m < moves.size() && !stepped; ++m) {
        std::array<std::uint8_t, 3> q = {moves[m].to[p[0]], moves[m].to[p[1]], moves[m].to[p[2]]};
        if (finisher.dist[finisher.ranker.rank(q.data())] == d - 1) {
          setup.push_back(static_cast<int>(m));
          p = q;
          --d;
          stepped = true;
        }
      }
      if (!stepped) return false;
    }
    auto it = finisher.base_at.find(finisher.ranker.rank(p.data()));
    if (it == finisher.base_at.end()) return false;
    for (int m : setup) push(m);
    for (int m : finisher.base_moves[it->second]) push(m);
    for (auto m = setup.rbegin(); m != setup.rend(); ++m) push(moves[*m].inverse);
  }
  return solved(c.board);
}

namespace {

// Merges maximal runs of same-axis moves (they commute): per line the shifts add up modulo
// the line length. Repeats until stable, since a run that vanishes can join its neighbours.
std::vector<Move> simplify(BoardSize size, std::vector<Move> seq) {
  bool changed = true;
  while (changed) {
    changed = false;
    std::vector<Move> out;
    std::size_t i = 0;
    while (i < seq.size()) {
      std::size_t j = i;
      const Axis axis = seq[i].axis;
      std::array<int, 9> sum{};
      while (j < seq.size() && seq[j].axis == axis) sum[seq[j].index] += seq[j].amount, ++j;
      const int len = line_length(size, axis);
      for (int line = 0; line < 9; ++line) {
        const int a = normalise(sum[line], len);
        if (a == 0) continue;
        out.push_back(Move{axis, static_cast<std::uint8_t>(line), static_cast<std::int8_t>(a)});
      }
      i = j;
    }
    changed = out.size() != seq.size();
    seq = std::move(out);
  }
  return seq;
}

// Independent check: plays `moves` on `start` by the rules (rows shift right, columns down for
// positive amounts) and reports whether the goal is reached.
bool replay_solves(BoardSize size, const Position& start, const std::vector<Move>& moves) {
  Position p = start;
  const int r = size.rows, c = size.cols;
  for (const Move& m : moves) {
    Position q = p;
    if (m.axis == Axis::Row) {
      if (m.index >= r) return false;
      for (int j = 0; j < c; ++j)
        q[m.index * c + ((j + m.amount) % c + c) % c] = p[m.index * c + j];
    } else {
      if (m.index >= c) return false;
      for (int i = 0; i < r; ++i)
        q[((i + m.amount) % r + r) % r * c + m.index] = p[i * c + m.index];
    }
    p = std::move(q);
  }
  for (int i = 0; i < r * c; ++i)
    if (p[i] != i + 1) return false;
  return true;
}

}  // namespace

// Moves of candidate `c` mapped back to the original frame, simplified, in the metric's form.
std::vector<Move> FastSolver::Impl::to_moves(const Candidate& c) const {
  const int s = c.variant / 2;
  const bool inverse = c.variant % 2;
  std::vector<int> idx;
  for (auto m : c.moves) idx.push_back(back[s][m]);
  if (inverse) {
    std::reverse(idx.begin(), idx.end());
    for (int& m : idx) m = moves[m].inverse;
  }
  std::vector<Move> seq;
  for (int m : idx) seq.push_back(moves[m].move);
  seq = simplify(size, std::move(seq));
  if (metric == Metric::Mtm) return seq;
  std::vector<Move> unit;
  for (const Move& m : seq) {
    for (int t = 0; t < std::abs(m.amount); ++t)
      unit.push_back(Move{m.axis, m.index, static_cast<std::int8_t>(m.amount > 0 ? 1 : -1)});
  }
  return unit;
}

int move_count(BoardSize size, const std::vector<Move>& moves, Metric metric) {
  int total = 0;
  for (const Move& m : moves) {
    const int a = normalise(m.amount, line_length(size, m.axis));
    if (a != 0) total += metric == Metric::Mtm ? 1 : std::abs(a);
  }
  return total;
}

FastSolver::FastSolver(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FastSolver::~FastSolver() = default;
FastSolver::FastSolver(FastSolver&&) noexcept = default;
FastSolver& FastSolver::operator=(FastSolver&&) noexcept = default;
BoardSize FastSolver::size() const {
  return impl_->size;
}
std::string FastSolver::plan() const {
  return impl_->plan;
}
double FastSolver::build_seconds() const {
  return impl_->build_seconds;
}

std::vector<FastStageInfo> FastSolver::stages() const {
  std::vector<FastStageInfo> out;
  for (const Stage& s : impl_->stages) {
    FastStageInfo info;
    info.from = std::to_string(s.a0) + "x" + std::to_string(s.b0);
    info.to = std::to_string(s.a1) + "x" + std::to_string(s.b1);
    info.pieces = static_cast<int>(s.targets.size());
    info.free_cells = s.f;
    std::vector<bool> line(impl_->size.rows + impl_->size.cols, false);
    for (int m : s.moves) {
      const Move& mv = impl_->moves[m].move;
      line[(mv.axis == Axis::Row ? 0 : impl_->size.rows) + mv.index] = true;
    }
    info.lines = static_cast<int>(std::count(line.begin(), line.end(), true));
    info.entries = s.dist_table->size();
    double sum = 0;
    std::uint64_t reached = 0;
    for (auto d : *s.dist_table) {
      if (d == UNSEEN) continue;
      sum += d;
      ++reached;
      info.max_distance = std::max<int>(info.max_distance, d);
    }
    info.mean_distance = reached ? sum / static_cast<double>(reached) : 0;
    out.push_back(info);
  }
  return out;
}

Result<FastSolver> FastSolver::create(BoardSize size, const FastSolveOptions& options) {
  if (size.rows < 2 || size.rows > 9 || size.cols < 2 || size.cols > 9) {
    return make_error("board size " + std::to_string(size.rows) + "x" + std::to_string(size.cols) +
                      " is out of range: expected rows and columns between 2 and 9");
  }
  if (options.max_table_entries < 1000 || options.max_table_entries > 2'000'000'000ULL) {
    return make_error("max_table_entries must be between 1000 and 2000000000");
  }
  const Stopwatch t0;
  auto impl = std::make_unique<Impl>();
  impl->size = size;
  impl->metric = options.metric;
  impl->max_entries = options.max_table_entries;
  impl->build_moves();
  impl->build_symmetries();
  impl->plan_stages();
  std::unique_ptr<TableStore> own_tables;
  if (options.tables == nullptr) own_tables = std::make_unique<TableStore>();
  for (auto& s : impl->stages) {
    if (auto ok = impl->build_stage(s, options.tables ? *options.tables : *own_tables,
                                    options.run ? *options.run : RunContext{});
        !ok)
      return ok.error();
  }
  if (impl->finisher.enabled) impl->build_finisher();
  impl->build_seconds = t0.seconds();
  return FastSolver(std::move(impl));
}

std::string FastSolver::plan_for(BoardSize size, const FastSolveOptions& options) {
  Impl im;
  im.size = size;
  im.metric = options.metric;
  im.max_entries = options.max_table_entries;
  im.plan_stages();
  return im.plan;
}

Result<FastSolveResult> FastSolver::solve(const Position& start,
                                          const FastSolveOptions& options) const {
  const Impl& im = *impl_;
  const Stopwatch t0;
  const int n = im.cells();
  // Step 1: validate.
  if (options.metric != im.metric) {
    return make_error("the solver was built for the other metric", {}, Error::NO_POSITION,
                      ErrorKind::InvalidInput);
  }
  if (static_cast<int>(start.size()) != n) {
    return make_error("position has " + std::to_string(start.size()) + " tiles, expected " +
                      std::to_string(n) + " for a " + std::to_string(im.size.rows) + "x" +
                      std::to_string(im.size.cols) + " board");
  }
  Board board;
  std::vector<bool> seen(n + 1, false);
  for (int q = 0; q < n; ++q) {
    const int t = start[q];
    if (t < 1 || t > n || seen[t]) {
      return make_error("tile " + std::to_string(t) + " in cell " + std::to_string(q + 1) +
                        (t < 1 || t > n ? " is out of range" : " appears twice") +
                        ": expected each of the tiles 1.." + std::to_string(n) + " once");
    }
    seen[t] = true;
    board.at[q] = static_cast<std::uint8_t>(t - 1);
    board.where[t - 1] = static_cast<std::uint8_t>(q);
  }
  {
    int cycles = 0;
    std::vector<bool> vis(n, false);
    for (int q = 0; q < n; ++q) {
      if (vis[q]) continue;
      ++cycles;
      for (int x = q; !vis[x]; x = board.at[x]) vis[x] = true;
    }
    if (im.size.rows % 2 == 1 && im.size.cols % 2 == 1 && (n - cycles) % 2 == 1) {
      return make_error(
          "odd permutation on an odd x odd board: every move is even, so this "
          "position cannot be solved",
          {}, Error::NO_POSITION, ErrorKind::Unsolvable);
    }
  }
  // Step 2: the starting beam: every symmetric image of the position and of its inverse.
  std::vector<Candidate> beam;
  const int num_syms = options.use_symmetry ? static_cast<int>(im.syms.size()) : 1;
  const int dirs = options.use_inverse ? 2 : 1;
  for (int s = 0; s < num_syms; ++s) {
    for (int inv = 0; inv < dirs; ++inv) {
      Board src = board;
      if (inv) {
        for (int q = 0; q < n; ++q) {
          src.at[board.at[q]] = static_cast<std::uint8_t>(q);
          src.where[q] = board.at[q];
        }
      }
      Candidate c;
      const auto& sigma = im.syms[s];
      for (int q = 0; q < n; ++q) {
        c.board.at[sigma[q]] = sigma[src.at[q]];
        c.board.where[sigma[src.at[q]]] = sigma[q];
      }
      c.variant = s * 2 + inv;
      beam.push_back(std::move(c));
    }
  }
  const int width = std::max(1, options.beam_width);
  const int branch = std::max(1, options.branch);
  const int examine = std::max(branch, options.examine);
  // Step 3: stage by stage, expand and keep the best `width` by cost + next stage's distance.
  std::array<std::uint8_t, FAST_MAX_CELLS> scratch{};
  for (std::size_t si = 0; si < im.stages.size(); ++si) {
    const Stage& st = im.stages[si];
    std::vector<Candidate> next;
    // A final stage ends on the goal, so a longer solution of it can only be worse.
    const int slack = st.final ? 0 : std::max(0, options.slack);
    const Stage* after = si + 1 < im.stages.size() ? &im.stages[si + 1] : nullptr;
    // Each partial solution examines up to `examine` stage solutions and keeps the `branch`
    // that leave the next stage easiest (cost + its exact distance), so one parent cannot
    // crowd the beam and the kept children are the good ones, not the first found.
    std::vector<Candidate> children;
    for (const auto& c : beam) {
      children.clear();
      im.expand_stage(st, c, examine, slack, children);
      for (auto& ch : children) {
        ch.score = ch.cost + (after ? after->dist[after->rank_of(ch.board, scratch.data())] : 0);
      }
      if (static_cast<int>(children.size()) > branch) {
        std::stable_sort(children.begin(), children.end(),
                         [](const Candidate& a, const Candidate& b) { return a.score < b.score; });
        children.resize(branch);
      }
      for (auto& ch : children) next.push_back(std::move(ch));
    }
    std::stable_sort(next.begin(), next.end(),
                     [](const Candidate& a, const Candidate& b) { return a.score < b.score; });
    // Keep the `width` best distinct boards: the rest of the solve depends only on the board,
    // so of two candidates on one board only the cheaper (earlier in this order) matters.
    std::unordered_set<std::uint64_t> kept;
    kept.reserve(static_cast<std::size_t>(width) * 2);
    std::size_t out_n = 0;
    for (std::size_t i = 0; i < next.size() && static_cast<int>(out_n) < width; ++i) {
      if (!kept.insert(im.board_hash(next[i].board)).second) continue;
      if (out_n != i) next[out_n] = std::move(next[i]);
      ++out_n;
    }
    next.resize(out_n);
    beam = std::move(next);
  }
  if (im.finisher.enabled) {
    std::vector<Candidate> done;
    const std::size_t tries = std::min<std::size_t>(beam.size(), 4);
    for (std::size_t i = 0; i < tries; ++i) {
      Candidate c = beam[i];
      if (im.finish(c)) done.push_back(std::move(c));
    }
    beam = std::move(done);
  }
  // Step 4: map back, simplify, verify by replay, keep the shortest.
  FastSolveResult best;
  int best_len = std::numeric_limits<int>::max();
  for (const auto& c : beam) {
    if (!im.solved(c.board)) continue;
    auto seq = im.to_moves(c);
    const int len = move_count(im.size, seq, im.metric);
    if (len >= best_len) continue;
    if (!replay_solves(im.size, start, seq)) continue;
    best_len = len;
    best.moves = std::move(seq);
  }
  if (best_len == std::numeric_limits<int>::max()) {
    return make_error("fast solver found no verified solution (internal error)", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  best.length = best_len;
  best.method = "multi-stage " + im.plan + ", beam " + std::to_string(width) + ", stage slack " +
                std::to_string(std::max(0, options.slack)) + " (not proven optimal)";
  best.seconds = t0.seconds();
  return best;
}

Result<FastSolveResult> solve_fast(BoardSize size, const Position& start,
                                   const FastSolveOptions& options) {
  if (options.tables == nullptr) {
    auto solver = FastSolver::create(size, options);
    if (!solver) return solver.error();
    return solver->solve(start, options);
  }
  // The solver is immutable after construction and solve() is const: one object per board,
  // metric and table limit is shared by every caller of the store, concurrently.
  const std::string key = "loopover-fast " + std::to_string(size.rows) + "x" +
                          std::to_string(size.cols) +
                          (options.metric == Metric::Stm ? " stm " : " mtm ") +
                          std::to_string(options.max_table_entries);
  auto solver =
      options.tables->shared<FastSolver>(key, [&]() -> Result<std::shared_ptr<FastSolver>> {
        auto created = FastSolver::create(size, options);
        if (!created) return created.error();
        return std::make_shared<FastSolver>(std::move(*created));
      });
  if (!solver) return solver.error();
  return (*solver)->solve(start, options);
}

}  // namespace permuzzle::loopover
