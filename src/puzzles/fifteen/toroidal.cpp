#include "permuzzle/puzzles/fifteen/toroidal.hpp"

namespace permuzzle::fifteen {

const std::array<Perm, 4>& toroidal_generators() {
  static const std::array<Perm, 4> gens = {
      *Perm::parse("(1,4,3,2)(5,8,7,6)(9,12,11,10)(13,15,14)(20,21,22,23)"),
      *Perm::parse("(1,2,3,4)(5,6,7,8)(9,10,11,12)(13,14,15)(20,23,22,21)"),
      *Perm::parse("(1,13,9,5)(2,14,10,6)(3,15,11,7)(4,12,8)(16,17,18,19)"),
      *Perm::parse("(1,5,9,13)(2,6,10,14)(3,7,11,15)(4,8,12)(16,19,18,17)")};
  return gens;
}

bool is_legal(const Board16& b, TileMove m) {
  int blank = blank_cell(b), rb = blank / 4, cb = blank % 4;
  switch (m) {
    case TileMove::L:
      return cb < 3;  // the tile right of the blank slides left
    case TileMove::R:
      return cb > 0;
    case TileMove::U:
      return rb < 3;  // the tile below the blank slides up
    case TileMove::D:
      return rb > 0;
  }
  return false;
}

Board16 apply_move(const Board16& b, TileMove m) {
  int blank = blank_cell(b);
  int tile = blank + (m == TileMove::L ? 1 : m == TileMove::R ? -1 : m == TileMove::U ? 4 : -4);
  Board16 out = b;
  std::swap(out[blank], out[tile]);
  return out;
}

Perm to_toroidal(const Board16& b) {
  int blank = blank_cell(b), a = (blank / 4 + 1) % 4, c = (blank % 4 + 1) % 4;
  std::vector<Point> images(23);
  for (int r = 0; r < 4; ++r) {
    for (int col = 0; col < 4; ++col) {
      int label = b[((r + a) % 4) * 4 + (col + c) % 4];
      if (label != BLANK) images[label - 1] = static_cast<Point>(r * 4 + col);
    }
  }
  for (int j = 0; j < 4; ++j) {
    images[15 + j] = static_cast<Point>(15 + (j + a) % 4);
    images[19 + j] = static_cast<Point>(19 + (j + c) % 4);
  }
  return *Perm::from_images(std::move(images));
}

Result<Board16> from_toroidal(const Perm& g) {
  if (g.largest_moved_point() > 23) {
    return make_error("a toroidal element moves only points 1..23, got " + g.to_cycle_string());
  }
  int a = static_cast<int>(g.image(15)) - 15, c = static_cast<int>(g.image(19)) - 19;
  if (a < 0 || a > 3 || c < 0 || c > 3) {
    return make_error("points 16..19 and 20..23 must be rotated among themselves: " +
                      g.to_cycle_string());
  }
  for (int j = 0; j < 4; ++j) {
    if (static_cast<int>(g.image(15 + j)) != 15 + (j + a) % 4 ||
        static_cast<int>(g.image(19 + j)) != 19 + (j + c) % 4) {
      return make_error("points 16..19 and 20..23 must carry rotations (shift counters): " +
                        g.to_cycle_string());
    }
  }
  Board16 b;
  for (int t = 1; t <= 15; ++t) {
    int k = static_cast<int>(g.image(t - 1));
    if (k > 14) return make_error("points 1..15 must be permuted among themselves");
    int r = k / 4, col = k % 4;
    b[((r + a) % 4) * 4 + (col + c) % 4] = static_cast<std::uint8_t>(t);
  }
  b[((3 + a) % 4) * 4 + (3 + c) % 4] = BLANK;
  return b;
}

}  // namespace permuzzle::fifteen
