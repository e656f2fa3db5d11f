#include "permuzzle/puzzles/fifteen/groupoid.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace permuzzle::fifteen {

namespace {

// Reads non-negative numbers separated by blanks or commas, with the character position of
// each; values are capped just above 100 so that a long digit run cannot overflow (callers
// reject anything above 16 anyway).
Status scan_numbers(std::string_view text, const char* expected, std::vector<int>& values,
                    std::vector<std::size_t>& where) {
  std::size_t i = 0;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i])) || text[i] == ',') {
      ++i;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      return make_error(expected, std::string(text), i);
    }
    std::size_t start = i;
    int v = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      if (v < 1000) v = v * 10 + (text[i] - '0');
      ++i;
    }
    values.push_back(v);
    where.push_back(start);
  }
  return Ok{};
}

}  // namespace

Board16 goal_board() {
  Board16 b;
  for (int i = 0; i < CELLS; ++i) b[i] = static_cast<std::uint8_t>(i + 1);
  return b;
}

Result<Board16> parse_position(std::string_view text) {
  const std::string input(text);
  std::vector<int> values;
  std::vector<std::size_t> where;
  auto scanned = scan_numbers(
      text, "expected 16 labels (0 or 16 for the blank) separated by spaces", values, where);
  if (!scanned) return scanned.error();
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (values[k] > 16) {
      return make_error("labels are 1..15, and 0 or 16 for the blank", input, where[k]);
    }
    if (values[k] == 0) values[k] = 16;
  }
  if (values.size() != CELLS) {
    return make_error(fmt::format("expected 16 labels, got {}", values.size()), input);
  }
  Board16 b;
  std::array<bool, 17> seen{};
  for (int c = 0; c < CELLS; ++c) {
    if (seen[values[c]]) {
      return make_error(fmt::format("label {} appears twice", values[c] == 16 ? 0 : values[c]),
                        input, where[c]);
    }
    seen[values[c]] = true;
    b[c] = static_cast<std::uint8_t>(values[c]);
  }
  return b;
}

std::string format_position(const Board16& b) {
  std::string out;
  for (int c = 0; c < CELLS; ++c) {
    if (c) out += ' ';
    out += std::to_string(b[c] == BLANK ? 0 : b[c]);
  }
  return out;
}

int blank_cell(const Board16& b) {
  return static_cast<int>(std::find(b.begin(), b.end(), BLANK) - b.begin());
}

bool adjacent(int a, int b) {
  int ra = a / 4, ca = a % 4, rb = b / 4, cb = b % 4;
  return std::abs(ra - rb) + std::abs(ca - cb) == 1;
}

bool is_solvable(const Board16& b) {
  int inversions = 0;
  for (int i = 0; i < CELLS; ++i) {
    for (int j = i + 1; j < CELLS; ++j) inversions += b[i] > b[j];
  }
  int blank = blank_cell(b);
  int distance = (3 - blank / 4) + (3 - blank % 4);
  return inversions % 2 == distance % 2;
}

Board16 random_solvable(Rng& rng) {
  Board16 b = goal_board();
  rng.shuffle(b.begin(), b.end());
  if (!is_solvable(b)) {
    // Exchanging two tiles (not the blank) flips solvability: a bijection, so still uniform.
    int x = b[0] == BLANK ? 1 : 0, y = (b[x + 1] == BLANK) ? x + 2 : x + 1;
    std::swap(b[x], b[y]);
  }
  return b;
}

Perm code_of(const Board16& b) {
  std::vector<Point> images(CELLS);
  for (int c = 0; c < CELLS; ++c) images[c] = b[c] - 1u;
  return *Perm::from_images(std::move(images));
}

Result<Board16> position_of(const Perm& code) {
  if (code.largest_moved_point() > CELLS) {
    return make_error("a 15-puzzle code is a permutation of 1..16, got " + code.to_cycle_string());
  }
  Board16 b;
  for (int c = 0; c < CELLS; ++c) b[c] = static_cast<std::uint8_t>(code.image(c) + 1);
  return b;
}

Result<std::vector<int>> parse_path(std::string_view text) {
  const std::string input(text);
  std::vector<int> cells;
  std::vector<std::size_t> where;
  auto scanned =
      scan_numbers(text, "expected cell numbers 1..16 separated by commas", cells, where);
  if (!scanned) return scanned.error();
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (cells[k] < 1 || cells[k] > 16)
      return make_error("cells are numbered 1..16", input, where[k]);
  }
  if (cells.empty()) return make_error("empty blank path; expected e.g. 12,11,7,6,2", input);
  return cells;
}

Result<BlankPathResult> apply_blank_path(const Board16& start, const std::vector<int>& cells) {
  BlankPathResult r;
  r.end = start;
  r.product = Perm(CELLS);
  int blank = blank_cell(start);
  for (std::size_t k = 0; k < cells.size(); ++k) {
    int cell = cells[k] - 1;
    if (k == 0 && cell == blank) continue;  // the path may start at the blank's own cell
    if (!adjacent(blank, cell)) {
      return make_error(fmt::format("step {}: cell {} is not adjacent to the blank in cell {}",
                                    k + 1, cell + 1, blank + 1));
    }
    int label = r.end[cell];
    Perm t = *Perm::from_cycles({{static_cast<Point>(BLANK), static_cast<Point>(label)}}, CELLS);
    r.transpositions.push_back(t);
    r.product *= t;
    std::swap(r.end[cell], r.end[blank]);
    blank = cell;
  }
  r.code = code_of(start) * r.product;
  if (!(r.code == code_of(r.end))) {
    return make_error("internal: code product disagrees with the position", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  return r;
}

}  // namespace permuzzle::fifteen
