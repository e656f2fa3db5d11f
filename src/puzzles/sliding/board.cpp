#include "permuzzle/puzzles/sliding/board.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>

namespace permuzzle::sliding {

namespace {

struct Token {
  int value = 0;  // -1 for '.'
  std::size_t offset = 0;
  int row = 0;
};

int count_inversions(const Position& p) {
  int inv = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == 0) continue;
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      if (p[j] != 0 && p[j] < p[i]) ++inv;
    }
  }
  return inv;
}

int blank_cell(const Position& p) {
  return static_cast<int>(std::find(p.begin(), p.end(), 0) - p.begin());
}

}  // namespace

Status check_board_size(BoardSize size) {
  const bool thin = std::min(size.rows, size.cols) <= MAX_THIN_SIDE;
  if (size.rows < 2 || size.cols < 2 || size.rows > MAX_SIDE || size.cols > MAX_SIDE ||
      size.cells() > (thin ? MAX_CELLS : MAX_BROAD_CELLS)) {
    return make_error(
        fmt::format("board {}x{} is not supported: expected 2 to {} rows and columns, and at "
                    "most {} cells unless a side is {} or less (thin boards such as 2x16 or 3x16)",
                    size.rows, size.cols, MAX_SIDE, MAX_BROAD_CELLS, MAX_THIN_SIDE));
  }
  return Ok{};
}

Result<BoardSize> parse_board_size(const std::string& text) {
  BoardSize size;
  auto x = text.find_first_of("xX");
  auto all_digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 3 &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
  };
  if (x == std::string::npos || !all_digits(text.substr(0, x)) || !all_digits(text.substr(x + 1))) {
    return make_error("board size must look like RxC, e.g. 4x4 or 2x6", text,
                      x == std::string::npos ? 0 : x);
  }
  size.rows = std::stoi(text.substr(0, x));
  size.cols = std::stoi(text.substr(x + 1));
  if (auto s = check_board_size(size); !s) {
    Error e = s.error();
    e.input = text;
    return e;
  }
  return size;
}

std::string to_string(BoardSize size) {
  return fmt::format("{}x{}", size.rows, size.cols);
}

Status check_position(BoardSize size, const Position& p, const std::string& what) {
  int n = size.cells();
  if (static_cast<int>(p.size()) != n) {
    return make_error(fmt::format("{} has {} tiles, expected {} for a {} board", what, p.size(), n,
                                  to_string(size)));
  }
  std::vector<bool> seen(n, false);
  for (int v : p) {
    if (v >= n) {
      return make_error(
          fmt::format("{}: tile {} is out of range, expected 1..{} and a blank", what, v, n - 1));
    }
    if (seen[v]) return make_error(fmt::format("{}: tile {} appears twice", what, v));
    seen[v] = true;
  }
  return Ok{};
}

Result<Position> parse_position(const std::string& text, std::optional<BoardSize> size,
                                BoardSize* inferred) {
  // Step 1. Tokenize: numbers and '.', with row breaks at '/', ';' and newlines.
  std::vector<Token> tokens;
  int row = 0;
  bool row_has_tokens = false;
  for (std::size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '/' || c == ';' || c == '\n') {
      if (row_has_tokens) ++row;
      row_has_tokens = false;
      ++i;
    } else if (c == ' ' || c == '\t' || c == ',' || c == '\r') {
      ++i;
    } else if (c == '.' || c == '_') {
      tokens.push_back({-1, i, row});
      row_has_tokens = true;
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t start = i;
      int v = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        v = std::min(v * 10 + (text[i] - '0'), 1000);
        ++i;
      }
      tokens.push_back({v, start, row});
      row_has_tokens = true;
    } else {
      return make_error(
          "unexpected character in position: expected numbers (0 or '.' for the blank), rows "
          "separated by '/' or newlines",
          text, i);
    }
  }
  int rows_given = row_has_tokens ? row + 1 : row;
  if (tokens.empty()) return make_error("empty position: expected the tiles row by row", text);

  // Step 2. The board size: given, or from the grid shape, or from a square count.
  int n = static_cast<int>(tokens.size());
  if (rows_given > 1) {
    std::vector<int> per_row(rows_given, 0);
    for (const auto& t : tokens) ++per_row[t.row];
    for (int r = 0; r < rows_given; ++r) {
      if (per_row[r] != per_row[0]) {
        auto it =
            std::find_if(tokens.begin(), tokens.end(), [&](const Token& t) { return t.row == r; });
        return make_error(fmt::format("row {} has {} tiles but row 1 has {}: all rows must have "
                                      "the same length",
                                      r + 1, per_row[r], per_row[0]),
                          text, it->offset);
      }
    }
    BoardSize shape{rows_given, per_row[0]};
    if (size && !(shape == *size)) {
      return make_error(
          fmt::format("the grid is {} but the board is {}", to_string(shape), to_string(*size)),
          text);
    }
    size = shape;
  }
  if (!size) {
    int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
    if (side * side != n) {
      return make_error(fmt::format("cannot tell the board size from {} tiles: give --size RxC or "
                                    "separate rows with '/'",
                                    n),
                        text);
    }
    size = BoardSize{side, side};
  }
  if (auto s = check_board_size(*size); !s) return s.error();
  int cells = size->cells();
  if (n != cells) {
    return make_error(fmt::format("wrong number of tiles: got {}, expected {} for a {} board", n,
                                  cells, to_string(*size)),
                      text, n > cells ? tokens[cells].offset : text.size());
  }

  // Step 3. Which symbol is the blank: '.', else 0, else rows*cols.
  bool has_dot =
      std::any_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.value < 0; });
  bool has_zero =
      std::any_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.value == 0; });
  int blank_value = has_dot ? -1 : has_zero ? 0 : cells;
  Position p(cells);
  std::vector<int> seen_at(cells, -1);
  for (int i = 0; i < n; ++i) {
    const Token& t = tokens[i];
    int v = t.value;
    if (t.value < 0 || (t.value == cells && blank_value == cells)) v = 0;
    if (v >= cells) {
      return make_error(fmt::format("tile {} is out of range: expected tiles 1..{} and one blank "
                                    "(0, '.' or {})",
                                    t.value, cells - 1, cells),
                        text, t.offset);
    }
    if (seen_at[v] >= 0) {
      return make_error(
          v == 0 ? std::string("the blank appears twice") : fmt::format("tile {} appears twice", v),
          text, t.offset);
    }
    seen_at[v] = i;
    p[i] = static_cast<std::uint8_t>(v);
  }
  for (int v = 0; v < cells; ++v) {
    if (seen_at[v] < 0) {
      return make_error(v == 0
                            ? std::string("no blank: expected 0, '.' or ") + std::to_string(cells)
                            : fmt::format("tile {} is missing", v),
                        text);
    }
  }
  if (inferred) *inferred = *size;
  return p;
}

Position standard_goal(BoardSize size) {
  Position g(size.cells());
  std::iota(g.begin(), g.end(), 1);
  g.back() = 0;
  return g;
}

Position blank_first_goal(BoardSize size) {
  Position g(size.cells());
  std::iota(g.begin(), g.end(), 0);
  return g;
}

Result<Position> parse_goal(const std::string& text, BoardSize size) {
  if (text.empty() || text == "standard") return standard_goal(size);
  if (text == "blank-first" || text == "korf") return blank_first_goal(size);
  auto g = parse_position(text, size);
  if (!g) {
    Error e = g.error();
    e.message = "goal: " + e.message + " (or use 'standard' / 'blank-first')";
    return e;
  }
  return g;
}

std::string format_board(BoardSize size, const Position& p) {
  int width = size.cells() - 1 >= 10 ? 2 : 1;
  std::string out;
  for (int r = 0; r < size.rows; ++r) {
    for (int c = 0; c < size.cols; ++c) {
      int v = p[r * size.cols + c];
      if (c) out += ' ';
      out += v == 0 ? fmt::format("{:>{}}", ".", width) : fmt::format("{:>{}}", v, width);
    }
    out += '\n';
  }
  return out;
}

std::string format_flat(const Position& p) {
  std::string out;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (i) out += ' ';
    out += std::to_string(p[i]);
  }
  return out;
}

std::string format_grid_line(BoardSize size, const Position& p) {
  std::string out;
  for (int i = 0; i < size.cells(); ++i) {
    if (i) out += i % size.cols == 0 ? " / " : " ";
    out += std::to_string(p[i]);
  }
  return out;
}

char direction_letter(Direction d) {
  return "UDLR"[static_cast<int>(d)];
}

Direction opposite(Direction d) {
  static constexpr Direction OPP[4] = {Direction::Down, Direction::Up, Direction::Right,
                                       Direction::Left};
  return OPP[static_cast<int>(d)];
}

namespace {
// Cell the blank moves to, or -1.
int target_cell(BoardSize size, int blank, Direction d) {
  int r = blank / size.cols, c = blank % size.cols;
  switch (d) {
    case Direction::Up:
      return r > 0 ? blank - size.cols : -1;
    case Direction::Down:
      return r + 1 < size.rows ? blank + size.cols : -1;
    case Direction::Left:
      return c > 0 ? blank - 1 : -1;
    case Direction::Right:
      return c + 1 < size.cols ? blank + 1 : -1;
  }
  return -1;
}
}  // namespace

int tile_for_direction(BoardSize size, const Position& p, Direction d) {
  int t = target_cell(size, blank_cell(p), d);
  return t < 0 ? -1 : p[t];
}

bool apply_direction(BoardSize size, Position& p, Direction d) {
  int b = blank_cell(p);
  int t = target_cell(size, b, d);
  if (t < 0) return false;
  std::swap(p[b], p[t]);
  return true;
}

Result<MoveSequence> apply_moves(BoardSize size, Position& p, const std::string& text) {
  MoveSequence seq;
  int cells = size.cells();
  for (std::size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    std::size_t start = i;
    Direction d;
    char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (u == 'U' || u == 'D' || u == 'L' || u == 'R') {
      d = u == 'U'   ? Direction::Up
          : u == 'D' ? Direction::Down
          : u == 'L' ? Direction::Left
                     : Direction::Right;
      ++i;
      int tile = tile_for_direction(size, p, d);
      if (tile < 0) {
        return make_error(fmt::format("move {} ({}): the blank cannot move {} from row {}, column "
                                      "{}",
                                      seq.directions.size() + 1, u,
                                      u == 'U'   ? "up"
                                      : u == 'D' ? "down"
                                      : u == 'L' ? "left"
                                                 : "right",
                                      blank_cell(p) / size.cols + 1, blank_cell(p) % size.cols + 1),
                          text, start);
      }
      apply_direction(size, p, d);
      seq.directions.push_back(d);
      seq.tiles.push_back(tile);
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      int v = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        v = std::min(v * 10 + (text[i] - '0'), 1000);
        ++i;
      }
      if (v < 1 || v >= cells) {
        return make_error(fmt::format("move {}: tile {} does not exist, expected 1..{} or U/D/L/R",
                                      seq.directions.size() + 1, v, cells - 1),
                          text, start);
      }
      bool found = false;
      for (Direction cand : {Direction::Up, Direction::Down, Direction::Left, Direction::Right}) {
        if (tile_for_direction(size, p, cand) == v) {
          apply_direction(size, p, cand);
          seq.directions.push_back(cand);
          seq.tiles.push_back(v);
          found = true;
          break;
        }
      }
      if (!found) {
        return make_error(
            fmt::format("move {}: tile {} is not next to the blank", seq.directions.size() + 1, v),
            text, start);
      }
    } else {
      return make_error("unexpected character in moves: expected tile numbers or U, D, L, R", text,
                        i);
    }
  }
  return seq;
}

Result<std::vector<int>> replay(BoardSize size, Position& p, const std::vector<Direction>& moves) {
  std::vector<int> tiles;
  tiles.reserve(moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) {
    int t = tile_for_direction(size, p, moves[i]);
    if (t < 0) {
      return make_error(fmt::format("move {} ({}) is illegal", i + 1, direction_letter(moves[i])),
                        {}, Error::NO_POSITION, ErrorKind::Internal);
    }
    apply_direction(size, p, moves[i]);
    tiles.push_back(t);
  }
  return tiles;
}

std::string format_directions(const std::vector<Direction>& moves) {
  std::string out;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (i) out += ' ';
    out += direction_letter(moves[i]);
  }
  return out;
}

std::string format_tiles(const std::vector<int>& tiles) {
  std::string out;
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    if (i) out += ' ';
    out += std::to_string(tiles[i]);
  }
  return out;
}

Solvability solvability(BoardSize size, const Position& p, const Position& goal) {
  Solvability s;
  s.inversions = count_inversions(p);
  s.goal_inversions = count_inversions(goal);
  s.blank_row = blank_cell(p) / size.cols;
  s.goal_blank_row = blank_cell(goal) / size.cols;
  s.even_columns = size.cols % 2 == 0;
  int row_distance = std::abs(s.blank_row - s.goal_blank_row);
  s.parity = (s.inversions + (s.even_columns ? row_distance : 0)) % 2;
  s.goal_parity = s.goal_inversions % 2;
  s.solvable = s.parity == s.goal_parity;
  if (s.even_columns) {
    s.reason = fmt::format(
        "{} inversions + blank row distance {} (row {} vs goal row {}) = {} ({}); the goal has {} "
        "inversions ({}); with an even number of columns a move keeps this sum's parity, so the "
        "position is {}",
        s.inversions, row_distance, s.blank_row + 1, s.goal_blank_row + 1,
        s.inversions + row_distance, s.parity ? "odd" : "even", s.goal_inversions,
        s.goal_parity ? "odd" : "even", s.solvable ? "solvable" : "NOT solvable");
  } else {
    s.reason = fmt::format(
        "{} inversions ({}); the goal has {} inversions ({}); with an odd number of columns a "
        "move keeps the inversion parity, so the position is {}",
        s.inversions, s.parity ? "odd" : "even", s.goal_inversions, s.goal_parity ? "odd" : "even",
        s.solvable ? "solvable" : "NOT solvable");
  }
  return s;
}

Position random_position(BoardSize size, const Position& goal, SplitMixRng& rng) {
  Position p = goal;
  for (std::size_t i = p.size() - 1; i > 0; --i) std::swap(p[i], p[rng.below(i + 1)]);
  if (!solvability(size, p, goal).solvable) {
    // Swap the first two tiles (not the blank): flips the inversion parity only.
    int a = p[0] == 0 ? 1 : 0;
    int b = p[a + 1] == 0 ? a + 2 : a + 1;
    std::swap(p[a], p[b]);
  }
  return p;
}

}  // namespace permuzzle::sliding
