// Triangular Loopover: model, notation, and solvers (docs/triloop.md).
//
// Data layouts:
// - A search state is `at`: at[cell] = piece (0-based home cell) standing there.
// - Orbit ranks: the up pieces' cells, as indices into up_cells(), form a permutation of the
//   up orbit, ranked by its Lehmer code; the same for the down orbit. The whole-graph table
//   (f <= 3) is indexed by rank_up * (down orbit size)! + rank_down.
// - Stage and setup tables: one byte per partial arrangement of k tracked pieces over the
//   candidate cells, indexed by the partial-permutation rank, 0xFF = unreachable.
#include "permuzzle/puzzles/loopover/triangular.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <numeric>
#include <unordered_map>

#include "arrangement_table.hpp"
#include "permuzzle/core/ranking.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/search/bfs.hpp"

namespace permuzzle::loopover {

namespace {

using detail::bfs_table;
using detail::Ranker;
using detail::UNSEEN;

int cell_of(int row, int pos) {
  return (row - 1) * (row - 1) + pos - 1;
}  // 1-based row/pos

}  // namespace

// --- model ------------------------------------------------------------------------------------

Result<TriBoard> TriBoard::create(int rows) {
  if (rows < MIN_ROWS || rows > MAX_ROWS) {
    return make_error("triangle with " + std::to_string(rows) +
                      " rows is out of range: expected 2..8 rows");
  }
  TriBoard b;
  b.rows_ = rows;
  const int f = rows;
  b.up_.assign(f * f, false);
  for (int i = 1; i <= f; ++i)
    for (int p = 1; p <= 2 * i - 1; p += 2) b.up_[cell_of(i, p)] = true;
  // Lines in the spec's positive direction: each cycle lists cells so that the piece in
  // cycle[j] moves to cycle[j+1].
  for (char family : {'D', 'L', 'R'}) {
    for (int k = 1; k <= f - 1; ++k) {
      std::vector<int> up, down;
      if (family == 'D') {  // row f-k+1, right to left
        const int i = f - k + 1;
        for (int p = 2 * i - 1; p >= 1; p -= 2) up.push_back(cell_of(i, p));
        for (int p = 2 * i - 2; p >= 2; p -= 2) down.push_back(cell_of(i, p));
      } else if (family == 'L') {  // strip k from the left side, bottom to top
        for (int i = f; i >= k; --i) up.push_back(cell_of(i, 2 * k - 1));
        for (int i = f; i >= k + 1; --i) down.push_back(cell_of(i, 2 * k));
      } else {  // strip k from the right side, top to bottom
        for (int i = k; i <= f; ++i) up.push_back(cell_of(i, 2 * i - 2 * k + 1));
        for (int i = k + 1; i <= f; ++i) down.push_back(cell_of(i, 2 * i - 2 * k));
      }
      b.line_cycles_.push_back({up, down});
      const bool involution = up.size() <= 2 && down.size() <= 2;
      b.moves_.push_back(TriMove{family, k, 1});
      if (!involution) b.moves_.push_back(TriMove{family, k, -1});
    }
  }
  b.inverse_.resize(b.moves_.size());
  for (std::size_t m = 0; m < b.moves_.size(); ++m) {
    TriMove inv = b.moves_[m];
    inv.dir = -inv.dir;
    b.inverse_[m] = b.move_index(inv);
  }
  return b;
}

std::vector<int> TriBoard::up_cells() const {
  std::vector<int> out;
  for (int c = 0; c < cells(); ++c)
    if (up_[c]) out.push_back(c);
  return out;
}

std::vector<int> TriBoard::down_cells() const {
  std::vector<int> out;
  for (int c = 0; c < cells(); ++c)
    if (!up_[c]) out.push_back(c);
  return out;
}

int TriBoard::line_of(const TriMove& move) const {
  const int family = move.family == 'D' ? 0 : move.family == 'L' ? 1 : 2;
  return family * (rows_ - 1) + move.index - 1;
}

int TriBoard::move_index(const TriMove& move) const {
  if (move.index < 1 || move.index > rows_ - 1) return -1;
  for (std::size_t m = 0; m < moves_.size(); ++m) {
    const TriMove& x = moves_[m];
    if (x.family != move.family || x.index != move.index) continue;
    if (x.dir == move.dir) return static_cast<int>(m);
    const auto& cyc = line_cycles_[line_of(move)];
    if (cyc[0].size() <= 2 && cyc[1].size() <= 2) return static_cast<int>(m);  // involution
  }
  return -1;
}

std::vector<int> TriBoard::move_map(const TriMove& move) const {
  std::vector<int> to(cells());
  std::iota(to.begin(), to.end(), 0);
  for (const auto& cyc : line_cycles_[line_of(move)]) {
    const int len = static_cast<int>(cyc.size());
    for (int j = 0; j < len; ++j) to[cyc[j]] = cyc[((j + move.dir) % len + len) % len];
  }
  return to;
}

Perm TriBoard::move_perm(const TriMove& move) const {
  auto to = move_map(move);
  return Perm::from_images(std::vector<Point>(to.begin(), to.end())).value();
}

std::vector<Perm> TriBoard::generators() const {
  std::vector<Perm> out;
  for (const auto& name : generator_names()) {
    out.push_back(move_perm(TriMove{name[0], std::stoi(name.substr(1)), 1}));
  }
  return out;
}

std::vector<std::string> TriBoard::generator_names() const {
  std::vector<std::string> out;
  for (char family : {'D', 'L', 'R'})
    for (int k = 1; k <= rows_ - 1; ++k) out.push_back(fmt::format("{}{}", family, k));
  return out;
}

std::string TriBoard::format_move(const TriMove& move) {
  return fmt::format("{}{}{}", move.dir < 0 ? "-" : "", move.family, move.index);
}

std::string TriBoard::format_moves(const std::vector<TriMove>& moves) {
  std::string out;
  for (const auto& m : moves) {
    if (!out.empty()) out += ' ';
    out += format_move(m);
  }
  return out;
}

Result<std::vector<TriMove>> TriBoard::parse_moves(std::string_view text) const {
  std::vector<TriMove> out;
  const std::string input(text);
  std::size_t i = 0;
  while (i < text.size()) {
    const char ch = text[i];
    if (ch == ' ' || ch == ',' || ch == '\t') {
      ++i;
      continue;
    }
    const std::size_t start = i;
    int dir = 1;
    if (ch == '-') {
      dir = -1;
      ++i;
    }
    if (i >= text.size() || !std::strchr("DLRdlr", text[i]) || text[i] == '\0') {
      return make_error(
          "bad move: expected D, L or R (optionally after '-') followed by a line "
          "number 1.." +
              std::to_string(rows_ - 1),
          input, i);
    }
    const char family = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
    ++i;
    const std::size_t digits = i;
    // Every digit is read: a long number is out of range as a whole, never cut short.
    int index = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      if (index <= rows_) index = index * 10 + (text[i] - '0');
      ++i;
    }
    if (i == digits) {
      return make_error("bad move: expected a line number after '" + std::string(1, family) + "'",
                        input, i);
    }
    if (index < 1 || index > rows_ - 1) {
      return make_error(fmt::format("line number {} out of range: a triangle with {} rows has "
                                    "lines 1..{} in each direction",
                                    text.substr(digits, i - digits), rows_, rows_ - 1),
                        input, digits);
    }
    (void)start;
    out.push_back(TriMove{family, index, dir});
  }
  return out;
}

Result<TriPosition> TriBoard::parse_position(std::string_view text) const {
  const std::string input(text);
  const int n = cells();
  TriPosition pos;
  std::vector<std::size_t> offsets;
  std::size_t i = 0;
  while (i < text.size()) {
    const char ch = text[i];
    if (ch == ' ' || ch == ',' || ch == '\t' || ch == '\n') {
      ++i;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(ch))) {
      return make_error("bad position: expected " + std::to_string(n) + " labels 1.." +
                            std::to_string(n) + " separated by spaces or commas",
                        input, i);
    }
    const std::size_t start = i;
    // Every digit is read: a long number is out of range as a whole, never cut short.
    int v = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      if (v <= n) v = v * 10 + (text[i] - '0');
      ++i;
    }
    if (v < 1 || v > n) {
      return make_error(
          fmt::format("label {} out of range: expected 1..{}", text.substr(start, i - start), n),
          input, start);
    }
    pos.push_back(static_cast<std::uint8_t>(v));
    offsets.push_back(start);
  }
  if (static_cast<int>(pos.size()) != n) {
    return make_error("bad position: got " + std::to_string(pos.size()) + " labels, expected " +
                          std::to_string(n) + " (one per cell of a triangle with " +
                          std::to_string(rows_) + " rows)",
                      input);
  }
  std::vector<int> seen(n + 1, -1);
  for (int c = 0; c < n; ++c) {
    if (seen[pos[c]] >= 0) {
      return make_error("label " + std::to_string(pos[c]) + " appears twice (cells " +
                            std::to_string(seen[pos[c]] + 1) + " and " + std::to_string(c + 1) +
                            "): expected each label once",
                        input, offsets[c]);
    }
    seen[pos[c]] = c;
  }
  for (int c = 0; c < n; ++c) {
    if (up_[c] != up_[pos[c] - 1]) {
      return make_error("piece " + std::to_string(pos[c]) + " points " +
                            (up_[pos[c] - 1] ? "up" : "down") + " but stands in cell " +
                            std::to_string(c + 1) + ", which points " + (up_[c] ? "up" : "down") +
                            ": up and down pieces never mix, so this position is unreachable",
                        input, offsets[c], ErrorKind::Unsolvable);
    }
  }
  return pos;
}

TriPosition TriBoard::solved() const {
  TriPosition p(cells());
  for (int c = 0; c < cells(); ++c) p[c] = static_cast<std::uint8_t>(c + 1);
  return p;
}

TriPosition TriBoard::apply(TriPosition position, const std::vector<TriMove>& moves) const {
  for (const auto& m : moves) {
    auto to = move_map(m);
    TriPosition next(position.size());
    for (int c = 0; c < cells(); ++c) next[to[c]] = position[c];
    position = std::move(next);
  }
  return position;
}

TriPosition TriBoard::random_position(Rng& rng) const {
  TriPosition p = solved();
  for (const auto& orbit : {up_cells(), down_cells()}) {
    std::vector<std::uint8_t> labels;
    for (int c : orbit) labels.push_back(static_cast<std::uint8_t>(c + 1));
    rng.shuffle(labels.begin(), labels.end());
    for (std::size_t j = 0; j < orbit.size(); ++j) p[orbit[j]] = labels[j];
  }
  return p;
}

std::string TriBoard::render(const TriPosition& position) const {
  std::string out;
  const int width = cells() >= 10 ? 2 : 1;
  for (int i = 1; i <= rows_; ++i) {
    out += std::string(static_cast<std::size_t>((rows_ - i) * (width + 1)), ' ');
    for (int p = 1; p <= 2 * i - 1; ++p) {
      std::string label = std::to_string(position[cell_of(i, p)]);
      label = std::string(width - std::min<int>(width, label.size()), ' ') + label;
      out += label + (p % 2 == 1 ? "^" : "v") + (p < 2 * i - 1 ? " " : "");
    }
    out += "\n";
  }
  return out;
}

// --- solvers ----------------------------------------------------------------------------------

namespace {

using Clock = std::chrono::steady_clock;

struct Puzzle {
  const TriBoard* board = nullptr;
  int n = 0;
  std::vector<std::vector<int>> to;  // per move index: cell map
  std::vector<int> up, down;         // orbit cells
  std::vector<int> orbit_index;      // cell -> index inside its orbit

  explicit Puzzle(const TriBoard& b) : board(&b), n(b.cells()) {
    for (const auto& m : b.moves()) to.push_back(b.move_map(m));
    up = b.up_cells();
    down = b.down_cells();
    orbit_index.assign(n, 0);
    for (std::size_t j = 0; j < up.size(); ++j) orbit_index[up[j]] = static_cast<int>(j);
    for (std::size_t j = 0; j < down.size(); ++j) orbit_index[down[j]] = static_cast<int>(j);
  }
  int num_moves() const { return static_cast<int>(to.size()); }
  void apply(std::vector<std::uint8_t>& at, int m) const {
    std::vector<std::uint8_t> next(n);
    for (int c = 0; c < n; ++c) next[to[m][c]] = at[c];
    at.swap(next);
  }
  // Cells (as orbit indices) of the pieces of one orbit, in piece order.
  void orbit_cells(const std::vector<std::uint8_t>& at, const std::vector<int>& orbit,
                   std::uint8_t* out) const {
    for (int c : orbit) out[orbit_index[at[c]]] = static_cast<std::uint8_t>(orbit_index[c]);
  }
  // Move table restricted to an orbit: next[m * size + j].
  std::vector<std::uint8_t> orbit_next(const std::vector<int>& orbit) const {
    std::vector<std::uint8_t> next(to.size() * orbit.size());
    for (std::size_t m = 0; m < to.size(); ++m)
      for (std::size_t j = 0; j < orbit.size(); ++j)
        next[m * orbit.size() + j] = static_cast<std::uint8_t>(orbit_index[to[m][orbit[j]]]);
    return next;
  }
};

std::vector<std::uint8_t> to_at(const TriPosition& p) {
  std::vector<std::uint8_t> at(p.size());
  for (std::size_t c = 0; c < p.size(); ++c) at[c] = static_cast<std::uint8_t>(p[c] - 1);
  return at;
}

// Same-family lines are disjoint, so runs of one family commute: per line the shifts add up
// modulo the line's order. Repeats until stable.
std::vector<TriMove> simplify(const TriBoard& board, std::vector<TriMove> seq) {
  const int f = board.rows();
  auto order_of = [&](const TriMove& m) {
    auto to = board.move_map(TriMove{m.family, m.index, 1});
    int order = 1;
    std::vector<bool> seen(to.size(), false);
    for (std::size_t c = 0; c < to.size(); ++c) {
      if (seen[c]) continue;
      int len = 0;
      for (std::size_t x = c; !seen[x]; x = to[x]) seen[x] = true, ++len;
      order = std::lcm(order, len);
    }
    return order;
  };
  bool changed = true;
  while (changed) {
    std::vector<TriMove> out;
    for (std::size_t i = 0; i < seq.size();) {
      std::size_t j = i;
      std::vector<int> sum(f + 1, 0);
      while (j < seq.size() && seq[j].family == seq[i].family) sum[seq[j].index] += seq[j].dir, ++j;
      for (int k = 1; k < f; ++k) {
        const int order = order_of(TriMove{seq[i].family, k, 1});
        int a = ((sum[k] % order) + order) % order;
        if (a == 0) continue;
        const bool back = a * 2 > order;
        const int count = back ? order - a : a;
        for (int t = 0; t < count; ++t) out.push_back(TriMove{seq[i].family, k, back ? -1 : 1});
      }
      i = j;
    }
    // Involutions are written without '-'.
    for (auto& m : out) m = board.moves()[board.move_index(m)];
    changed = out.size() != seq.size();
    seq = std::move(out);
  }
  return seq;
}

// Optimal: IDA* with h = max(exact up-orbit distance, exact down-orbit distance).
struct OrbitTables {
  Ranker up_rank, down_rank;
  std::shared_ptr<const std::vector<std::uint8_t>> up_table;  // from the table store (on disk)
  const std::uint8_t* up_dist = nullptr;                      // up_table's bytes
  std::vector<std::uint8_t> down_dist;
};

// `run`: cancellation and deadline of the two breadth-first searches (a stopped build returns
// the run's error).
Result<std::shared_ptr<OrbitTables>> build_orbit_tables(const Puzzle& pz, TableStore& tables,
                                                        const RunContext& run) {
  auto made = std::make_shared<OrbitTables>();
  OrbitTables& t = *made;
  const int fu = static_cast<int>(pz.up.size()), fd = static_cast<int>(pz.down.size());
  t.up_rank = Ranker(fu, fu);
  t.down_rank = Ranker(fd, fd);
  std::vector<std::uint8_t> id(64);
  std::iota(id.begin(), id.end(), 0);
  TableRecipe<std::vector<std::uint8_t>> recipe;
  recipe.key = TableKey{"triloop-" + std::to_string(pz.board->rows()), "up-orbit", 1};
  recipe.bytes = t.up_rank.size();
  // Background-safe (a server's build outlives the request): the callbacks hold copies of what
  // they read.
  recipe.background = true;
  recipe.allocate = [bytes = t.up_rank.size()] {
    return std::make_shared<std::vector<std::uint8_t>>(bytes);
  };
  recipe.payload = [](std::vector<std::uint8_t>& d) { return std::span<std::uint8_t>(d); };
  recipe.build = [ranker = t.up_rank, fu, move_count = pz.num_moves(), next = pz.orbit_next(pz.up),
                  goal_rank = t.up_rank.rank(id.data())](
                     const RunContext& r) -> Result<std::shared_ptr<std::vector<std::uint8_t>>> {
    auto dist = std::make_shared<std::vector<std::uint8_t>>(
        bfs_table(ranker, fu, move_count, next, {goal_rank}, &r));
    if (dist->empty()) return r.stop_error();
    return dist;
  };
  auto up = tables.obtain(recipe, run);
  if (!up) return up.error();
  t.up_table = *up;
  t.up_dist = t.up_table->data();
  t.down_dist = bfs_table(t.down_rank, fd, pz.num_moves(), pz.orbit_next(pz.down),
                          {t.down_rank.rank(id.data())}, &run);
  if (t.down_dist.empty()) return run.stop_error();
  return made;
}

struct Ida {
  const Puzzle& pz;
  const OrbitTables& t;
  std::vector<int> path;
  std::array<std::uint8_t, 64> scratch{};
  const RunContext* run = nullptr;  // asked every 4096 nodes
  std::uint64_t nodes = 0;
  bool stopped = false;

  int h(const std::vector<std::uint8_t>& at) {
    pz.orbit_cells(at, pz.up, scratch.data());
    const int hu = t.up_dist[t.up_rank.rank(scratch.data())];
    pz.orbit_cells(at, pz.down, scratch.data());
    const int hd = t.down_dist[t.down_rank.rank(scratch.data())];
    return std::max(hu, hd);
  }
  bool dfs(std::vector<std::uint8_t>& at, int g, int bound, int& next_bound) {
    if ((++nodes & 4095) == 0 && run && run->should_stop()) stopped = true;
    if (stopped) return false;
    const int hv = h(at);
    if (hv == 0) return true;  // both orbits solved
    if (g + hv > bound) {
      next_bound = std::min(next_bound, g + hv);
      return false;
    }
    const auto& moves = pz.board->moves();
    for (int m = 0; m < pz.num_moves(); ++m) {
      if (!path.empty()) {
        const int prev = path.back();
        if (pz.board->inverse_index(prev) == m) continue;  // undoes the last move
        const TriMove& a = moves[prev];
        const TriMove& b = moves[m];
        // Same-family lines are disjoint and commute: only increasing line order.
        if (a.family == b.family && b.index < a.index) continue;
      }
      std::vector<std::uint8_t> next = at;
      pz.apply(next, m);
      path.push_back(m);
      if (dfs(next, g + 1, bound, next_bound)) return true;
      path.pop_back();
    }
    return false;
  }
};

// Near-optimal for larger f, orbit by orbit. (Locking solved rows is no option here: below a
// locked row the down cells of the next row are only reachable through that row itself.)
// Stage 1: the down orbit by conjugated commutators of lines sharing one up and one down cell
// (a 3-cycle on each orbit; the up orbit is still free). Stage 2: the up orbit by conjugated
// pure up 3-cycles (commutators of a row and a strip sharing only an up cell), which leave the
// down orbit alone. Each stage first fixes its orbit's parity with one move that is odd there.
struct Staged {
  const Puzzle& pz;
  std::vector<int> moves_out;

  void push(std::vector<std::uint8_t>& at, int m) {
    pz.apply(at, m);
    moves_out.push_back(m);
  }

  // 3-cycles on one orbit. `bases`: move sequences whose effect on `orbit` is a 3-cycle (and,
  // when `pure`, the identity elsewhere).
  bool solve_orbit(std::vector<std::uint8_t>& at, const std::vector<int>& orbit, bool pure) {
    const int fo = static_cast<int>(orbit.size());
    if (fo < 2) return true;
    auto orbit_odd = [&]() {
      std::vector<bool> seen(fo, false);
      int cycles = 0;
      for (int j = 0; j < fo; ++j) {
        if (seen[j]) continue;
        ++cycles;
        for (int x = j; !seen[x]; x = pz.orbit_index[at[orbit[x]]]) seen[x] = true;
      }
      return (fo - cycles) % 2 == 1;
    };
    auto effect = [&](const std::vector<int>& seq) {
      std::vector<std::uint8_t> b(pz.n);
      std::iota(b.begin(), b.end(), 0);
      for (int m : seq) pz.apply(b, m);
      return b;
    };
    // Step 1: parity of this orbit, by one move that is odd on it (and, when `pure`, fixes the
    // other orbit).
    if (orbit_odd()) {
      int best = -1;
      for (int m = 0; m < pz.num_moves() && best < 0; ++m) {
        auto b = effect({m});
        std::vector<bool> seen(pz.n, false);
        int moved_other = 0, odd_here = 0;
        for (int c = 0; c < pz.n; ++c) {
          if (b[c] != c && pz.board->is_up(c) != pz.board->is_up(orbit[0])) ++moved_other;
          if (seen[c] || pz.board->is_up(c) != pz.board->is_up(orbit[0])) continue;
          int len = 0;
          for (int x = c; !seen[x]; x = b[x]) seen[x] = true, ++len;
          odd_here += (len - 1) % 2;
        }
        if (odd_here % 2 == 1 && (!pure || moved_other == 0)) best = m;
      }
      if (best < 0) return false;
      push(at, best);
    }
    // Step 2: base commutators a b a^-1 b^-1.
    std::vector<std::vector<int>> base_moves;
    std::vector<std::array<std::uint8_t, 3>> base_cycle;
    for (int a = 0; a < pz.num_moves(); ++a) {
      for (int b = 0; b < pz.num_moves(); ++b) {
        std::vector<int> seq = {a, b, pz.board->inverse_index(a), pz.board->inverse_index(b)};
        auto e = effect(seq);  // e[c]: the piece now in cell c
        std::vector<int> moved;
        bool other = false;
        for (int c = 0; c < pz.n; ++c) {
          if (e[c] == c) continue;
          if (pz.board->is_up(c) == pz.board->is_up(orbit[0]))
            moved.push_back(c);
          else
            other = true;
        }
        if (moved.size() != 3 || (pure && other)) continue;
        // Piece from u now at v: v is the cell holding u.
        std::array<std::uint8_t, 3> cyc{};
        int u = moved[0];
        for (int j = 0; j < 3; ++j) {
          cyc[j] = static_cast<std::uint8_t>(pz.orbit_index[u]);
          int v = static_cast<int>(std::find(e.begin(), e.end(), u) - e.begin());
          u = v;
        }
        base_moves.push_back(seq);
        base_cycle.push_back(cyc);
      }
    }
    if (base_moves.empty()) return is_orbit_solved(at, orbit);
    // Step 3: setup table over the cells of three tracked pieces of this orbit.
    Ranker ranker(fo, 3);
    std::unordered_map<std::uint64_t, int> base_at;
    std::vector<std::uint64_t> sources;
    for (std::size_t t = 0; t < base_cycle.size(); ++t) {
      for (int rot = 0; rot < 3; ++rot) {
        std::array<std::uint8_t, 3> p = {base_cycle[t][rot], base_cycle[t][(rot + 1) % 3],
                                         base_cycle[t][(rot + 2) % 3]};
        auto r = ranker.rank(p.data());
        base_at.emplace(r, static_cast<int>(t));
        sources.push_back(r);
      }
    }
    const auto next = pz.orbit_next(orbit);
    auto dist = bfs_table(ranker, fo, pz.num_moves(), next, sources);
    // Step 4: greedy cheapest 3-cycle per piece placed.
    for (int guard = 0; guard < 4 * fo && !is_orbit_solved(at, orbit); ++guard) {
      std::vector<std::uint8_t> cur(fo);  // cur[j] = orbit index of the piece in orbit cell j
      for (int j = 0; j < fo; ++j) cur[j] = static_cast<std::uint8_t>(pz.orbit_index[at[orbit[j]]]);
      std::vector<std::uint8_t> wrong;
      for (int j = 0; j < fo; ++j)
        if (cur[j] != j) wrong.push_back(static_cast<std::uint8_t>(j));
      double best_score = 1e9;
      std::array<std::uint8_t, 3> best{};
      auto consider = [&](std::uint8_t x, std::uint8_t y, std::uint8_t z, int placed) {
        std::array<std::uint8_t, 3> p = {x, y, z};
        const int d = dist[ranker.rank(p.data())];
        if (d == UNSEEN) return;
        const double score = (2.0 * d + 4.0) / placed;
        if (score < best_score) best_score = score, best = p;
      };
      for (auto x : wrong) {
        const std::uint8_t h1 = cur[x], h2 = cur[h1];
        if (h2 != x) {
          consider(x, h1, h2, cur[h2] == x ? 3 : 2);
        } else {
          for (auto z : wrong)
            if (z != x && z != h1) consider(x, h1, z, 1);
        }
      }
      if (best_score >= 1e9) return false;
      std::array<std::uint8_t, 3> p = best;
      int d = dist[ranker.rank(p.data())];
      std::vector<int> setup;
      while (d > 0) {
        bool stepped = false;
        for (int m = 0; m < pz.num_moves() && !stepped; ++m) {
          std::array<std::uint8_t, 3> q = {next[m * fo + p[0]], next[m * fo + p[1]],
                                           next[m * fo + p[2]]};
          if (dist[ranker.rank(q.data())] == d - 1) {
            setup.push_back(m);
            p = q;
            --d;
            stepped = true;
          }
        }
        if (!stepped) return false;
      }
      auto it = base_at.find(ranker.rank(p.data()));
      if (it == base_at.end()) return false;
      for (int m : setup) push(at, m);
      for (int m : base_moves[it->second]) push(at, m);
      for (auto m = setup.rbegin(); m != setup.rend(); ++m) push(at, pz.board->inverse_index(*m));
    }
    return is_orbit_solved(at, orbit);
  }

  bool is_orbit_solved(const std::vector<std::uint8_t>& at, const std::vector<int>& orbit) const {
    for (int c : orbit)
      if (at[c] != c) return false;
    return true;
  }
};

}  // namespace

std::uint64_t tri_state_index(const TriBoard& board, const TriPosition& position) {
  Puzzle pz(board);
  auto at = to_at(position);
  std::array<std::uint8_t, 64> s{};
  Ranker ru(static_cast<int>(pz.up.size()), static_cast<int>(pz.up.size()));
  Ranker rd(static_cast<int>(pz.down.size()), static_cast<int>(pz.down.size()));
  pz.orbit_cells(at, pz.up, s.data());
  const auto a = ru.rank(s.data());
  pz.orbit_cells(at, pz.down, s.data());
  return a * rd.size() + rd.rank(s.data());
}

namespace {

// The neighbours of a state index (tri_state_index) for search/bfs.hpp, stepped with
// TriBoard::apply on whole positions: independent of the solver's orbit move tables.
class TriangularExpander {
 public:
  explicit TriangularExpander(const TriBoard& board)
      : board_(&board),
        up_(board.up_cells()),
        down_(board.down_cells()),
        ru_(static_cast<int>(up_.size()), static_cast<int>(up_.size())),
        rd_(static_cast<int>(down_.size()), static_cast<int>(down_.size())) {}

  template <class Visit>
  void for_each_neighbour(std::uint64_t index, Visit&& visit) const {
    // The orbit ranks give, for piece j of an orbit, the orbit index of its cell; the piece
    // belongs on the orbit's cell j (label cell + 1).
    std::array<std::uint8_t, 64> su{}, sd{};
    ru_.unrank(index / rd_.size(), su.data());
    rd_.unrank(index % rd_.size(), sd.data());
    TriPosition p(static_cast<std::size_t>(board_->cells()));
    for (std::size_t j = 0; j < up_.size(); ++j) p[up_[su[j]]] = up_[j] + 1;
    for (std::size_t j = 0; j < down_.size(); ++j) p[down_[sd[j]]] = down_[j] + 1;
    for (const auto& m : board_->moves()) {
      if (visit(tri_state_index(*board_, board_->apply(p, {m})))) return;
    }
  }

 private:
  const TriBoard* board_;
  std::vector<int> up_, down_;
  Ranker ru_, rd_;
};

}  // namespace

Result<std::vector<std::uint8_t>> triangular_bfs(const TriBoard& board) {
  if (board.rows() > 3) {
    return make_error("whole-graph BFS of triangular Loopover is limited to f <= 3", {},
                      Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  // search/bfs.hpp over S_up x S_down (at most 6! 3! = 4320 states for f = 3), every rank
  // watched so that each distance is exact whatever the depth.
  const std::uint64_t states = *factorial(static_cast<int>(board.up_cells().size())) *
                               *factorial(static_cast<int>(board.down_cells().size()));
  search::BfsOptions bo;
  bo.bits = search::BfsBits::Two;
  bo.undirected = true;  // a shift of a line is undone by the opposite shift
  bo.antipodes_limit = 0;
  bo.watch.resize(states);
  std::iota(bo.watch.begin(), bo.watch.end(), std::uint64_t{0});
  const std::uint64_t goal = tri_state_index(board, board.solved());
  auto r = search::bfs(
      states, std::span<const std::uint64_t>(&goal, 1), [&] { return TriangularExpander(board); },
      RunContext().with_threads(1), bo);
  if (!r) return r.error();
  std::vector<std::uint8_t> dist(states, UNSEEN);
  for (std::uint64_t i = 0; i < states; ++i) {
    if (r->watch_distances[i] >= 0) dist[i] = static_cast<std::uint8_t>(r->watch_distances[i]);
  }
  return dist;
}

Result<TriSolveResult> solve_triangular(const TriBoard& board, const TriPosition& start,
                                        const TriSolveOptions& options) {
  const auto t0 = Clock::now();
  const int n = board.cells();
  // Step 1: validate (labels once each, pieces in their own orbit).
  if (static_cast<int>(start.size()) != n) {
    return make_error("position has " + std::to_string(start.size()) + " labels, expected " +
                      std::to_string(n));
  }
  std::vector<bool> seen(n + 1, false);
  for (int c = 0; c < n; ++c) {
    if (start[c] < 1 || start[c] > n || seen[start[c]])
      return make_error("position must hold each label 1.." + std::to_string(n) + " once");
    seen[start[c]] = true;
    if (board.is_up(c) != board.is_up(start[c] - 1))
      return make_error("piece " + std::to_string(start[c]) + " is in the wrong orbit (cell " +
                            std::to_string(c + 1) + "): unreachable position",
                        {}, Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  Puzzle pz(board);
  auto at = to_at(start);
  TriSolveResult res;
  std::vector<int> path;
  // Step 2: solve.
  if (board.rows() <= std::min(options.optimal_max_rows, 4)) {
    // The tables are immutable once built: shared through the caller's store (else built for
    // this call only).
    std::unique_ptr<TableStore> own_tables;
    if (options.tables == nullptr) own_tables = std::make_unique<TableStore>();
    TableStore& store = options.tables ? *options.tables : *own_tables;
    auto tables = store.shared<OrbitTables>(
        "triloop-" + std::to_string(board.rows()) + " orbit tables",
        [&] { return build_orbit_tables(pz, store, options.run ? *options.run : RunContext{}); });
    if (!tables) return tables.error();
    Ida ida{pz, **tables, {}, {}, options.run};
    const int h0 = ida.h(at);
    int bound = h0;
    while (true) {
      int next_bound = 1 << 20;
      std::vector<std::uint8_t> s = at;
      if (ida.dfs(s, 0, bound, next_bound)) break;
      if (ida.stopped) return options.run->stop_error();
      if (next_bound >= (1 << 20))
        return make_error("no solution found", {}, Error::NO_POSITION, ErrorKind::Internal);
      bound = next_bound;
    }
    path = ida.path;
    res.optimal = true;
    res.method = "IDA* with exact up-orbit and down-orbit distance tables (optimal)";
  } else {
    Staged st{pz, {}};
    std::vector<std::uint8_t> s = at;
    if (!st.solve_orbit(s, pz.down, false) || !st.solve_orbit(s, pz.up, true)) {
      return make_error("stage-wise solver failed (internal error)", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }
    path = st.moves_out;
    res.optimal = false;
    res.method = "stage-wise: down orbit, then up orbit, by conjugated 3-cycles (not optimal)";
  }
  for (int m : path) res.moves.push_back(board.moves()[m]);
  if (!res.optimal) res.moves = simplify(board, std::move(res.moves));
  // Step 3: verify by replay.
  if (board.apply(start, res.moves) != board.solved()) {
    return make_error("solution failed verification (internal error)", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  res.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return res;
}

}  // namespace permuzzle::loopover
