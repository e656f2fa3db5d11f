#include "permuzzle/puzzles/loopover/board.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <numeric>
#include <optional>
#include <string_view>

namespace permuzzle::loopover {

namespace {

int mod(int a, int m) {
  return ((a % m) + m) % m;
}

}  // namespace

Status validate_size(BoardSize size) {
  if (size.rows < MIN_SIDE || size.rows > MAX_SIDE || size.cols < MIN_SIDE ||
      size.cols > MAX_SIDE) {
    return make_error(
        fmt::format("board size {}x{} is out of range: expected rows and columns "
                    "between {} and {}",
                    size.rows, size.cols, MIN_SIDE, MAX_SIDE));
  }
  return Ok{};
}

Result<BoardSize> parse_size(std::string_view text) {
  std::string input(text);
  auto fail = [&](std::size_t pos) {
    return make_error("bad board size: expected ROWSxCOLS with sides 2..9, e.g. 4x4 or 3x5", input,
                      pos);
  };
  std::size_t i = 0;
  auto number = [&](int& out) -> bool {
    std::size_t start = i;
    long value = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      value = value * 10 + (text[i] - '0');
      if (value > 1000) return false;
      ++i;
    }
    out = static_cast<int>(value);
    return i > start;
  };
  BoardSize size;
  if (!number(size.rows)) return fail(i);
  if (i >= text.size() || (text[i] != 'x' && text[i] != 'X' && text[i] != '*')) return fail(i);
  ++i;
  if (!number(size.cols)) return fail(i);
  if (i != text.size()) return fail(i);
  if (auto ok = validate_size(size); !ok) {
    Error e = ok.error();
    e.input = input;
    e.position = 0;
    return e;
  }
  return size;
}

std::string format_size(BoardSize size) {
  return fmt::format("{}x{}", size.rows, size.cols);
}

Position goal_position(BoardSize size) {
  Position p(static_cast<std::size_t>(size.cells()));
  std::iota(p.begin(), p.end(), std::uint8_t{1});
  return p;
}

bool is_goal(const Position& position) {
  for (std::size_t i = 0; i < position.size(); ++i) {
    if (position[i] != i + 1) return false;
  }
  return true;
}

Status validate_position(BoardSize size, const Position& position) {
  if (auto ok = validate_size(size); !ok) return ok;
  const std::size_t n = static_cast<std::size_t>(size.cells());
  if (position.size() != n) {
    return make_error(
        fmt::format("a {} position needs {} tiles, got {}", format_size(size), n, position.size()));
  }
  std::vector<int> seen(n + 1, -1);
  for (std::size_t i = 0; i < n; ++i) {
    int t = position[i];
    if (t < 1 || static_cast<std::size_t>(t) > n) {
      return make_error(
          fmt::format("tile {} in cell {} is out of range: a {} board has tiles "
                      "1..{}",
                      t, i + 1, format_size(size), n));
    }
    if (seen[t] >= 0) {
      return make_error(
          fmt::format("tile {} appears twice (cells {} and {}): expected each of "
                      "1..{} exactly once",
                      t, seen[t] + 1, i + 1, n));
    }
    seen[t] = static_cast<int>(i);
  }
  return Ok{};
}

Result<Position> parse_position(BoardSize size, std::string_view text) {
  if (auto ok = validate_size(size); !ok) return ok.error();
  std::string input(text);
  const std::size_t n = static_cast<std::size_t>(size.cells());
  Position position;
  std::vector<std::size_t> where;  // character offset of each tile, for error messages
  auto is_sep = [](char ch) {
    return std::isspace(static_cast<unsigned char>(ch)) || ch == ',' || ch == '/' || ch == ';' ||
           ch == '[' || ch == ']' || ch == '(' || ch == ')';
  };
  // Compact form: exactly `n` digits and nothing else on boards with <= 9 cells.
  bool compact = n <= 9 && text.size() == n && std::all_of(text.begin(), text.end(), [](char ch) {
                   return std::isdigit(static_cast<unsigned char>(ch));
                 });
  std::size_t i = 0;
  while (i < text.size()) {
    char ch = text[i];
    if (is_sep(ch)) {
      ++i;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(ch))) {
      return make_error(fmt::format("bad position: expected tile numbers 1..{} separated by "
                                    "blanks or commas",
                                    n),
                        input, i);
    }
    std::size_t start = i;
    int value = 0;
    if (compact) {
      value = ch - '0';
      ++i;
    } else {
      // Every digit is read (a long number is out of range as a whole, named as written).
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        if (value <= 1000) value = value * 10 + (text[i] - '0');
        ++i;
      }
    }
    if (value < 1 || static_cast<std::size_t>(value) > n) {
      return make_error(fmt::format("tile {} is out of range: a {} board has tiles 1..{}",
                                    text.substr(start, i - start), format_size(size), n),
                        input, start);
    }
    if (position.size() == n) {
      return make_error(
          fmt::format("too many tiles: a {} board has {} cells", format_size(size), n), input,
          start);
    }
    auto dup = std::find(position.begin(), position.end(), static_cast<std::uint8_t>(value));
    if (dup != position.end()) {
      return make_error(
          fmt::format("tile {} appears twice: expected each of 1..{} exactly once", value, n),
          input, start);
    }
    position.push_back(static_cast<std::uint8_t>(value));
    where.push_back(start);
  }
  if (position.size() != n) {
    return make_error(fmt::format("too few tiles: a {} board needs {} tiles (row-major), got {}",
                                  format_size(size), n, position.size()),
                      input, text.size());
  }
  return position;
}

std::string format_position(const Position& position) {
  std::string out;
  for (std::size_t i = 0; i < position.size(); ++i) {
    if (i) out += ' ';
    out += std::to_string(position[i]);
  }
  return out;
}

std::string format_grid(BoardSize size, const Position& position) {
  const int width = size.cells() >= 10 ? 2 : 1;
  std::string out;
  for (int r = 0; r < size.rows; ++r) {
    for (int c = 0; c < size.cols; ++c) {
      if (c) out += ' ';
      out += fmt::format("{:>{}}", position[static_cast<std::size_t>(r * size.cols + c)], width);
    }
    out += '\n';
  }
  return out;
}

Status validate_move(BoardSize size, const Move& move) {
  int lines = move.axis == Axis::Row ? size.rows : size.cols;
  if (move.index >= lines) {
    return make_error(
        fmt::format("move {} does not exist on a {} board", format_move(move), format_size(size)));
  }
  return Ok{};
}

void apply_move(BoardSize size, Position& position, const Move& move) {
  const int len = line_length(size, move.axis);
  const int k = mod(move.amount, len);
  if (k == 0) return;
  std::uint8_t line[MAX_SIDE];
  const int stride = move.axis == Axis::Row ? 1 : size.cols;
  const int first = move.axis == Axis::Row ? move.index * size.cols : move.index;
  for (int i = 0; i < len; ++i) line[i] = position[static_cast<std::size_t>(first + i * stride)];
  for (int i = 0; i < len; ++i) {
    position[static_cast<std::size_t>(first + ((i + k) % len) * stride)] = line[i];
  }
}

void apply_moves(BoardSize size, Position& position, const MoveSequence& moves) {
  for (const Move& m : moves) apply_move(size, position, m);
}

Move inverse(const Move& move) {
  return Move{move.axis, move.index, static_cast<std::int8_t>(-move.amount)};
}

MoveSequence inverse(const MoveSequence& moves) {
  MoveSequence out;
  out.reserve(moves.size());
  for (auto it = moves.rbegin(); it != moves.rend(); ++it) out.push_back(inverse(*it));
  return out;
}

int move_cost(BoardSize size, const Move& move, Metric metric) {
  const int len = line_length(size, move.axis);
  const int k = mod(move.amount, len);
  if (k == 0) return 0;
  if (metric == Metric::Mtm) return 1;
  return std::min(k, len - k);
}

std::vector<Move> metric_moves(BoardSize size, Metric metric) {
  std::vector<Move> out;
  for (Axis axis : {Axis::Row, Axis::Column}) {
    const int lines = axis == Axis::Row ? size.rows : size.cols;
    const int len = line_length(size, axis);
    std::vector<int> amounts;
    if (metric == Metric::Stm) {
      amounts = len == 2 ? std::vector<int>{1} : std::vector<int>{1, -1};
    } else {
      for (int k = 1; k < len; ++k) amounts.push_back(k <= len / 2 ? k : k - len);
    }
    for (int line = 0; line < lines; ++line) {
      for (int amount : amounts) {
        out.push_back(
            Move{axis, static_cast<std::uint8_t>(line), static_cast<std::int8_t>(amount)});
      }
    }
  }
  return out;
}

int sequence_length(BoardSize size, const MoveSequence& moves, Metric metric) {
  int total = 0;
  for (const Move& m : normalize(size, moves, metric)) total += move_cost(size, m, metric);
  return total;
}

MoveSequence normalize(BoardSize size, const MoveSequence& moves, Metric metric) {
  // Step 1. Merge consecutive moves on the same line (they compose by adding amounts).
  MoveSequence merged;
  for (const Move& m : moves) {
    if (!merged.empty() && merged.back().axis == m.axis && merged.back().index == m.index) {
      int len = line_length(size, m.axis);
      merged.back().amount = static_cast<std::int8_t>(mod(merged.back().amount + m.amount, len));
      if (merged.back().amount == 0) merged.pop_back();
    } else {
      int len = line_length(size, m.axis);
      if (mod(m.amount, len) != 0) {
        merged.push_back(m);
        merged.back().amount = static_cast<std::int8_t>(mod(m.amount, len));
      }
    }
  }
  // Step 2. Choose the shorter way round; STM splits into unit moves.
  MoveSequence out;
  for (Move m : merged) {
    int len = line_length(size, m.axis);
    int k = mod(m.amount, len);
    int signed_k = k <= len / 2 ? k : k - len;
    if (metric == Metric::Mtm) {
      m.amount = static_cast<std::int8_t>(signed_k);
      out.push_back(m);
    } else {
      Move unit = m;
      unit.amount = static_cast<std::int8_t>(signed_k > 0 ? 1 : -1);
      for (int i = 0; i < std::abs(signed_k); ++i) out.push_back(unit);
    }
  }
  return out;
}

Perm move_perm(BoardSize size, const Move& move) {
  // Cell x's piece goes to the cell where applying the move to "tile x+1 in cell x" puts it.
  Position p = goal_position(size);
  apply_move(size, p, move);
  std::vector<Point> images(static_cast<std::size_t>(size.cells()));
  for (std::size_t cell = 0; cell < p.size(); ++cell)
    images[p[cell] - 1u] = static_cast<Point>(cell);
  return *Perm::from_images(std::move(images));
}

Perm position_to_perm(const Position& position) {
  std::vector<Point> images(position.size());
  for (std::size_t cell = 0; cell < position.size(); ++cell) {
    images[position[cell] - 1u] = static_cast<Point>(cell);
  }
  return *Perm::from_images(std::move(images));
}

Position perm_to_position(BoardSize size, const Perm& perm) {
  Position p(static_cast<std::size_t>(size.cells()));
  for (std::size_t x = 0; x < p.size(); ++x) {
    p[perm.image(static_cast<Point>(x))] = static_cast<std::uint8_t>(x + 1);
  }
  return p;
}

// Notation -------------------------------------------------------------------------------
namespace {

class MoveParser {
 public:
  MoveParser(BoardSize size, std::string_view text) : size_(size), text_(text) {}

  Result<MoveSequence> parse() {
    MoveSequence out;
    if (auto ok = sequence(out, 0); !ok) return ok.error();
    if (pos_ < text_.size()) {
      return fail(text_[pos_] == ')' ? "unmatched ')'" : "unexpected character", pos_);
    }
    return out;
  }

 private:
  Error fail(const std::string& what, std::size_t at) const {
    return make_error(fmt::format("bad move sequence: {}; expected moves like `3 -B A` (columns "
                                  "1..{}, rows A..{}), groups `(2A)^3`, `-` for inverses",
                                  what, size_.cols, static_cast<char>('A' + size_.rows - 1)),
                      std::string(text_), at);
  }

  void skip_blanks() {
    while (pos_ < text_.size() &&
           (std::isspace(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == ',')) {
      ++pos_;
    }
  }

  Status sequence(MoveSequence& out, int depth) {
    if (depth > 64) return fail("parentheses nested too deeply", pos_);
    while (true) {
      skip_blanks();
      if (pos_ >= text_.size() || text_[pos_] == ')') return Ok{};
      if (auto ok = item(out, depth); !ok) return ok;
    }
  }

  // An exponent `^[-]NUMBER`, kept as its digits so that any size is exact: a single move
  // reduces it modulo its line length, a group repeats (and refuses what it cannot expand).
  struct Exponent {
    bool negative = false;
    std::string_view digits = "1";  // absent: 1
    std::size_t at = 0;             // where the number starts (for errors)
    // The value when it fits in 64 bits (after dropping leading zeros), else nullopt.
    std::optional<std::uint64_t> value() const {
      std::uint64_t v = 0;
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
      return v;
    }
    // The value modulo m (m > 0), exactly, whatever the number of digits.
    std::uint64_t modulo(std::uint64_t m) const {
      std::uint64_t r = 0;
      for (char d : digits) r = (r * 10 + static_cast<std::uint64_t>(d - '0')) % m;
      return r;
    }
  };

  Result<Exponent> exponent() {
    Exponent e;
    std::size_t save = pos_;
    skip_blanks();
    if (pos_ >= text_.size() || text_[pos_] != '^') {
      pos_ = save;
      return e;
    }
    std::size_t caret = pos_;
    ++pos_;
    skip_blanks();
    if (pos_ < text_.size() && text_[pos_] == '-') {
      e.negative = true;
      ++pos_;
    }
    if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      return fail("expected a number after '^'", pos_ < text_.size() ? pos_ : caret);
    }
    e.at = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    e.digits = text_.substr(e.at, pos_ - e.at);
    return e;
  }

  Status item(MoveSequence& out, int depth) {
    const std::size_t start = pos_;
    bool negative = false;
    if (text_[pos_] == '-') {
      negative = true;
      ++pos_;
      if (pos_ >= text_.size()) return fail("expected a move after '-'", start);
    }
    char ch = text_[pos_];
    if (ch == '(') {
      std::size_t open = pos_;
      ++pos_;
      MoveSequence inner;
      if (auto ok = sequence(inner, depth + 1); !ok) return ok;
      if (pos_ >= text_.size()) return fail("unclosed '('", open);
      ++pos_;  // ')'
      auto e = exponent();
      if (!e) return e.error();
      if (negative != e->negative) inner = inverse(inner);
      if (inner.empty()) return Ok{};
      // The group is expanded move by move: a repetition that does not fit is refused.
      const std::optional<std::uint64_t> times = e->value();
      if (!times || *times > (MAX_PARSED_MOVES - out.size()) / inner.size()) {
        return fail(fmt::format("sequence longer than {} moves", MAX_PARSED_MOVES), start);
      }
      for (std::uint64_t t = 0; t < *times; ++t) out.insert(out.end(), inner.begin(), inner.end());
      return Ok{};
    }
    Move move;
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      int col = ch - '0';
      if (col < 1 || col > size_.cols) {
        return fail(fmt::format("column {} does not exist on a {} board", col, format_size(size_)),
                    pos_);
      }
      move = Move{Axis::Column, static_cast<std::uint8_t>(col - 1), 1};
    } else if (std::isalpha(static_cast<unsigned char>(ch))) {
      int row = std::toupper(static_cast<unsigned char>(ch)) - 'A';
      if (row >= size_.rows) {
        return fail(fmt::format("row {} does not exist on a {} board", ch, format_size(size_)),
                    pos_);
      }
      move = Move{Axis::Row, static_cast<std::uint8_t>(row), 1};
    } else if (ch == ')') {
      return fail("unmatched ')'", pos_);
    } else {
      return fail("unexpected character", pos_);
    }
    ++pos_;
    auto e = exponent();
    if (!e) return e.error();
    // Exactly modulo the line length, keeping the sign: `B^5` on a line of 4 is `B`, `-B^5` is
    // `-B`, `B^1000000003` is `B^3`.
    const int len = line_length(size_, move.axis);
    int amount = static_cast<int>(e->modulo(static_cast<std::uint64_t>(len)));
    if (negative != e->negative) amount = -amount;
    if (amount == 0) return Ok{};
    if (out.size() + 1 > MAX_PARSED_MOVES) {
      return fail(fmt::format("sequence longer than {} moves", MAX_PARSED_MOVES), start);
    }
    move.amount = static_cast<std::int8_t>(amount);
    out.push_back(move);
    return Ok{};
  }

  BoardSize size_;
  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

Result<MoveSequence> parse_moves(BoardSize size, std::string_view text) {
  if (auto ok = validate_size(size); !ok) return ok.error();
  return MoveParser(size, text).parse();
}

std::string format_move(const Move& move) {
  std::string out;
  if (move.amount < 0) out += '-';
  if (move.axis == Axis::Row) {
    out += static_cast<char>('A' + move.index);
  } else {
    out += std::to_string(move.index + 1);
  }
  int k = std::abs(static_cast<int>(move.amount));
  if (k != 1) out += "^" + std::to_string(k);
  return out;
}

std::vector<std::string> format_move_list(const MoveSequence& moves) {
  std::vector<std::string> out;
  out.reserve(moves.size());
  for (const Move& m : moves) out.push_back(format_move(m));
  return out;
}

std::string format_moves(const MoveSequence& moves) {
  std::string out;
  for (const Move& m : moves) {
    if (!out.empty()) out += ' ';
    out += format_move(m);
  }
  return out;
}

// Solvability ------------------------------------------------------------------------------
bool all_moves_even(BoardSize size) {
  return size.rows % 2 == 1 && size.cols % 2 == 1;
}

int position_sign(const Position& position) {
  // Sign via cycle count: (-1)^(n - cycles).
  const std::size_t n = position.size();
  std::vector<char> seen(n, 0);
  std::size_t cycles = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (seen[i]) continue;
    ++cycles;
    for (std::size_t j = i; !seen[j]; j = position[j] - 1u) seen[j] = 1;
  }
  return (n - cycles) % 2 == 0 ? 1 : -1;
}

bool is_solvable(BoardSize size, const Position& position) {
  if (!validate_position(size, position)) return false;
  return !all_moves_even(size) || position_sign(position) == 1;
}

Position random_position(BoardSize size, Rng& rng) {
  Position p = goal_position(size);
  // Fisher-Yates from the last cell down with plain remainders of the raw draws (bias below
  // cells / 2^64), as seeded Loopover positions have always been drawn.
  for (std::size_t i = p.size() - 1; i > 0; --i) {
    std::size_t j = static_cast<std::size_t>(rng.next() % (i + 1));
    std::swap(p[i], p[j]);
  }
  // Swapping two fixed cells is a bijection between odd and even permutations, so the result
  // stays uniform over the even ones.
  if (all_moves_even(size) && position_sign(p) != 1) std::swap(p[0], p[1]);
  return p;
}

}  // namespace permuzzle::loopover
