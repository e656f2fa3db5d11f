#include "permuzzle/loopover/symmetry.hpp"

#include <algorithm>
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

std::vector<Perm> symmetry_group(BoardSize size) {
  auto gens = symmetry_generators(size);
  std::vector<Perm> elements{Perm(static_cast<std::size_t>(size.cells()))};
  std::set<std::vector<Point>> seen{elements[0].images()};
  for (std::size_t i = 0; i < elements.size(); ++i) {
    for (const auto& g : gens) {
      Perm next = elements[i] * g.cells;
      if (seen.insert(next.images()).second) elements.push_back(next);
    }
  }
  return elements;
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

SeedsBound seeds_bound(BoardSize size, const Position& position, Metric metric) {
  SeedsBound b;
  const int R = size.rows, C = size.cols;
  for (int cell = 0; cell < size.cells(); ++cell) {
    const int home = position[static_cast<std::size_t>(cell)] - 1;
    const int dc = std::abs(cell % C - home % C);
    const int dr = std::abs(cell / C - home / C);
    b.horizontal_sum += std::min(dc, C - dc);
    b.vertical_sum += std::min(dr, R - dr);
  }
  // One row move changes the column distance of C pieces by at most 1 (STM) or C/2 (MTM).
  const int per_row_move = metric == Metric::Stm ? C : C * (C / 2);
  const int per_col_move = metric == Metric::Stm ? R : R * (R / 2);
  b.horizontal = (b.horizontal_sum + per_row_move - 1) / per_row_move;
  b.vertical = (b.vertical_sum + per_col_move - 1) / per_col_move;
  b.total = b.horizontal + b.vertical;
  if (metric == Metric::Stm && R % 2 == 0 && C % 2 == 0) {
    const int parity = position_sign(position) < 0 ? 1 : 0;
    if (b.total % 2 != parity) b.parity_fix = 1;
  }
  b.total += b.parity_fix;
  return b;
}

}  // namespace permuzzle::loopover
