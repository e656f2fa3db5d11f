#include "permuzzle/puzzles/loopover/symmetry.hpp"

#include <algorithm>
#include <numeric>
#include <set>

namespace permuzzle::loopover {

namespace {

Perm cell_map(BoardSize size, auto&& f) {
  std::vector<Point> images(static_cast<std::size_t>(size.cells()));
  for (int r = 0; r < size.rows; ++r) {
    for (int c = 0; c < size.cols; ++c) {
      auto [r2, c2] = f(r, c);
      images[static_cast<std::size_t>(r * size.cols + c)] = static_cast<Point>(r2 * size.cols + c2);
    }
  }
  return *Perm::from_images(std::move(images));
}

}  // namespace

std::vector<Symmetry> symmetry_generators(BoardSize size) {
  const int R = size.rows, C = size.cols;
  std::vector<Symmetry> out;
  out.push_back({"shift-rows", cell_map(size, [&](int r, int c) {
                   return std::pair{r, (c + 1) % C};
                 })});
  out.push_back({"shift-columns", cell_map(size, [&](int r, int c) {
                   return std::pair{(r + 1) % R, c};
                 })});
  out.push_back({"mirror-left-right", cell_map(size, [&](int r, int c) {
                   return std::pair{r, C - 1 - c};
                 })});
  out.push_back({"mirror-top-bottom", cell_map(size, [&](int r, int c) {
                   return std::pair{R - 1 - r, c};
                 })});
  if (R == C) {
    // Clockwise: (r, c) -> (c, R-1-r); on 4x4 cell 1 -> 4 -> 16 -> 13 (groups.md).
    out.push_back({"quarter-turn", cell_map(size, [&](int r, int c) {
                     return std::pair{c, R - 1 - r};
                   })});
  }
  return out;
}

namespace {

// Every product of the generators, identity first.
std::vector<Perm> closure(BoardSize size, const std::vector<Perm>& generators) {
  std::vector<Perm> elements{Perm(static_cast<std::size_t>(size.cells()))};
  std::set<std::vector<Point>> seen{elements[0].images()};
  for (std::size_t i = 0; i < elements.size(); ++i) {
    for (const Perm& g : generators) {
      Perm next = elements[i] * g;
      if (seen.insert(next.images()).second) elements.push_back(next);
    }
  }
  return elements;
}

std::vector<Perm> generator_cells(BoardSize size) {
  std::vector<Perm> out;
  for (Symmetry& g : symmetry_generators(size)) out.push_back(std::move(g.cells));
  return out;
}

}  // namespace

std::vector<Perm> symmetry_group(BoardSize size) {
  return closure(size, generator_cells(size));
}

std::vector<Perm> metric_symmetry_group(BoardSize size, Metric metric) {
  std::vector<Perm> generators = generator_cells(size);
  if (metric == Metric::Mtm) {
    // The scalings by the units other than +-1 (those are already there: shifts and mirrors).
    const int R = size.rows, C = size.cols;
    for (int a = 2; a + 1 < C; ++a) {
      if (std::gcd(a, C) != 1) continue;
      generators.push_back(cell_map(size, [&](int r, int c) { return std::pair{r, a * c % C}; }));
    }
    for (int a = 2; a + 1 < R; ++a) {
      if (std::gcd(a, R) != 1) continue;
      generators.push_back(cell_map(size, [&](int r, int c) { return std::pair{a * r % R, c}; }));
    }
  }
  return closure(size, generators);
}

Position conjugate_position(BoardSize size, const Position& position, const Perm& sigma) {
  Perm s = position_to_perm(position);
  return perm_to_position(size, s.conjugate(sigma));
}

MoveSequence conjugate_moves(BoardSize size, const MoveSequence& moves, const Perm& sigma) {
  // The image of move m is sigma^-1 m sigma; find it among the moves with the same shift size.
  MoveSequence out;
  const Perm inv = sigma.inverse();
  for (const Move& m : moves) {
    const Perm target = inv * move_perm(size, m) * sigma;
    bool found = false;
    for (Axis axis : {Axis::Row, Axis::Column}) {
      const int lines = axis == Axis::Row ? size.rows : size.cols;
      for (int line = 0; line < lines && !found; ++line) {
        for (int sign : {1, -1}) {
          Move cand{axis, static_cast<std::uint8_t>(line),
                    static_cast<std::int8_t>(sign * std::abs(static_cast<int>(m.amount)))};
          if (move_perm(size, cand) == target) {
            out.push_back(cand);
            found = true;
            break;
          }
        }
      }
    }
  }
  return out;
}

namespace {

// Work one move type needs: what the moves of the OTHER axis's lines must do, seen from one
// axis. For the column-move count ("across" = rows, "along" = columns): dist_sum and touches from
// each piece's cyclic row distance, lifts and broken from the pieces standing in their home row.
struct AxisWork {
  int dist_sum = 0;  // sum of cyclic distances across the lines
  int touches = 0;   // sum of ceil(distance / most one move brings a piece closer)
  int lifts = 0;     // pieces that must leave their home line and come back
  int broken = 0;    // complete lines whose break is not already paid by a lift
};

// The grid seen as `lines` parallel lines of `length` cells (for the column-move count: the r
// rows of c cells). line_of(cell)/pos_of(cell) give a cell's line and position along it. Pieces
// change line only through moves of the other axis, whose lines have `lines` cells, so the
// distance between lines is cyclic modulo `lines` (`across`).
AxisWork axis_work(const Position& position, int lines, int length, Metric metric, auto&& line_of,
                   auto&& pos_of) {
  AxisWork w;
  const int across = lines;
  const int reach = metric == Metric::Stm ? 1 : across / 2;
  std::vector<std::vector<int>> offsets(static_cast<std::size_t>(lines),
                                        std::vector<int>(static_cast<std::size_t>(length), 0));
  std::vector<int> at_home(static_cast<std::size_t>(lines), 0);
  for (std::size_t cell = 0; cell < position.size(); ++cell) {
    const int home = position[cell] - 1;
    const int here_line = line_of(static_cast<int>(cell)), home_line = line_of(home);
    const int d0 = std::abs(here_line - home_line);
    const int d = std::min(d0, across - d0);
    w.dist_sum += d;
    w.touches += (d + reach - 1) / reach;
    if (d == 0) {
      const int off = ((pos_of(static_cast<int>(cell)) - pos_of(home)) % length + length) % length;
      ++offsets[static_cast<std::size_t>(here_line)][static_cast<std::size_t>(off)];
      ++at_home[static_cast<std::size_t>(here_line)];
    }
  }
  std::vector<int> line_lifts(static_cast<std::size_t>(lines), 0);
  for (int l = 0; l < lines; ++l) {
    const auto& o = offsets[static_cast<std::size_t>(l)];
    line_lifts[static_cast<std::size_t>(l)] =
        at_home[static_cast<std::size_t>(l)] - *std::max_element(o.begin(), o.end());
    w.lifts += line_lifts[static_cast<std::size_t>(l)];
  }
  // Moves across the lines are needed unless every piece is in its home line at one common
  // offset per line (then shifts along the lines alone solve it).
  if (w.dist_sum > 0 || w.lifts > 0) {
    for (int l = 0; l < lines; ++l) {
      if (at_home[static_cast<std::size_t>(l)] == length &&
          line_lifts[static_cast<std::size_t>(l)] == 0)
        ++w.broken;
    }
  }
  return w;
}

int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

}  // namespace

// Why the bound is admissible (STM and MTM). Take any solution; let V be its number of column
// moves and H its number of row moves. Count column-move "touches": a column move shifts one
// whole column, so it touches exactly r pieces, one in each row; the touches over the solution
// sum to r * V. Now count what each piece needs:
// (1) A touch changes a piece's row by the shift amount, so its cyclic row distance to home
//     drops by at most 1 (STM) or floor(r/2) (MTM): a piece at row distance d needs at least
//     ceil(d / reach) touches.
// (2) Lifts. Take the pieces that stand in their home row at the start (distance 0, so (1) asks
//     nothing of them). One that is never touched by a column move stays in that row all the
//     time and is moved only by that row's shifts, which move every piece of the row by the same
//     amount; all such "stayers" of a row therefore need the same shift to get home, i.e. they
//     share one column offset (cell column - home column, mod c). So at most the largest
//     same-offset class stays, and every other one is touched at least once; a touched piece
//     leaves the row and must come back, which needs a second touch (one shift by a nonzero
//     amount cannot return it). Each of these lifts needs >= 2 touches.
// (3) Broken rows. Before the first column move only row shifts happen, so every row still holds
//     its starting set of pieces. The first column move takes one piece out of EVERY row; in a
//     row that holds exactly its own c pieces that piece is at distance 0, so it becomes a lifted
//     piece needing >= 2 touches. This forces at least one lift in such a row, which adds to (2)
//     only when (2) found none there; and it applies only if the solution has a column move at
//     all, which every solution does unless all pieces are in their home rows with one common
//     offset per row (then V = 0 is possible and the term is 0).
// Pieces counted in (1) are not at distance 0 and the pieces in (2)/(3) are, so the needs add:
// r * V >= touches + 2 * (lifts + broken), hence V >= the ceiling. The same with rows and columns
// exchanged bounds H, and the two counts are of disjoint move sets, so H + V is a bound. Parity
// (STM only): a shift of a line of length L is an L-cycle, odd iff L is even; the product of the
// moves of a solution has the sign of the position. If both sides are even every move is odd,
// so the length has the position's parity; if only c is even, row moves are the odd ones and H
// has the position's parity (column moves are even); if only r is even, V has it. Rounding the
// corresponding count up by one to the right parity keeps it a bound. In MTM a shift by a has
// sign (-1)^(a(L-1)), so no parity is forced and there is no fix.
SeedsBound seeds_bound(BoardSize size, const Position& position, Metric metric) {
  SeedsBound b;
  const int R = size.rows, C = size.cols;
  // Step 1. Column-move work: row distances, pieces lifted out of their home rows, broken rows.
  const AxisWork v = axis_work(
      position, R, C, metric, [&](int cell) { return cell / C; },
      [&](int cell) { return cell % C; });
  // Step 2. Row-move work: the same transposed.
  const AxisWork h = axis_work(
      position, C, R, metric, [&](int cell) { return cell % C; },
      [&](int cell) { return cell / C; });
  b.vertical_sum = v.dist_sum;
  b.horizontal_sum = h.dist_sum;
  b.vertical = ceil_div(v.touches, R);
  b.horizontal = ceil_div(h.touches, C);
  b.row_lifts = v.lifts;
  b.broken_rows = v.broken;
  b.column_lifts = h.lifts;
  b.broken_columns = h.broken;
  int col_moves = ceil_div(v.touches + 2 * (v.lifts + v.broken), R);
  int row_moves = ceil_div(h.touches + 2 * (h.lifts + h.broken), C);
  b.lift_moves = (col_moves - b.vertical) + (row_moves - b.horizontal);
  // Step 3. Parity (STM).
  if (metric == Metric::Stm) {
    const int parity = position_sign(position) < 0 ? 1 : 0;
    const bool row_odd = C % 2 == 0, col_odd = R % 2 == 0;
    if (row_odd && col_odd) {
      if ((row_moves + col_moves) % 2 != parity) b.parity_fix = 1;
    } else if (row_odd) {
      if (row_moves % 2 != parity) b.parity_fix = 1;
    } else if (col_odd) {
      if (col_moves % 2 != parity) b.parity_fix = 1;
    }
  }
  b.total = row_moves + col_moves + b.parity_fix;
  return b;
}

}  // namespace permuzzle::loopover
