#include "permuzzle/puzzles/hanoi/position.hpp"

#include <fmt/format.h>

#include <cctype>

namespace permuzzle::hanoi {

int Position::top(int peg) const {
  for (int i = 0; i < disks(); ++i) {
    if (peg_of[i] == peg) return i + 1;
  }
  return 0;
}

Position tower(int disks, int pegs, int peg) {
  Position p;
  p.pegs = pegs;
  p.peg_of.assign(static_cast<std::size_t>(disks), static_cast<std::uint8_t>(peg));
  return p;
}

bool is_tower(const Position& p, int peg) {
  for (auto x : p.peg_of) {
    if (x != peg) return false;
  }
  return true;
}

namespace {

Result<Position> parse_lists(std::string_view text, int pegs, int disks) {
  const std::string input(text);
  std::size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  auto expect = [&](char c) -> bool {
    skip();
    if (i < text.size() && text[i] == c) {
      ++i;
      return true;
    }
    return false;
  };
  if (!expect('[')) return make_error("expected '[' starting the list of pegs", input, i);
  std::vector<std::vector<int>> lists;
  skip();
  if (i < text.size() && text[i] == ']') return make_error("a position needs pegs", input, i);
  while (true) {
    if (!expect('[')) return make_error("expected '[' starting a peg's list of disks", input, i);
    std::vector<int> peg;
    skip();
    if (i < text.size() && text[i] == ']') {
      ++i;
    } else {
      while (true) {
        skip();
        std::size_t start = i;
        long value = 0;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
          value = value * 10 + (text[i] - '0');
          if (value > MAX_DISKS)
            return make_error("disk number too large (at most 64 disks)", input, start);
          ++i;
        }
        if (start == i) return make_error("expected a disk number", input, i);
        if (value < 1) return make_error("disks are numbered from 1", input, start);
        if (!peg.empty() && value <= peg.back()) {
          return make_error(
              "a peg lists its disks top to bottom, smallest first (a larger disk "
              "cannot stand on a smaller one)",
              input, start);
        }
        peg.push_back(static_cast<int>(value));
        if (expect(',')) continue;
        if (expect(']')) break;
        return make_error("expected ',' or ']' in a peg's list of disks", input, i);
      }
    }
    lists.push_back(std::move(peg));
    if (expect(',')) continue;
    if (expect(']')) break;
    return make_error("expected ',' or ']' after a peg", input, i);
  }
  skip();
  if (i != text.size()) return make_error("unexpected text after the position", input, i);
  if (pegs != 0 && static_cast<int>(lists.size()) != pegs) {
    return make_error(fmt::format("the position has {} pegs, expected {}", lists.size(), pegs),
                      input);
  }
  if (lists.size() < 3 || lists.size() > MAX_PEGS) {
    return make_error(fmt::format("a position needs 3 to {} pegs, got {}", MAX_PEGS, lists.size()),
                      input);
  }
  int total = 0;
  for (auto& l : lists) total += static_cast<int>(l.size());
  if (disks != 0 && total != disks) {
    return make_error(fmt::format("the position has {} disks, expected {}", total, disks), input);
  }
  if (total < 1) return make_error("a position needs at least one disk", input);
  Position p;
  p.pegs = static_cast<int>(lists.size());
  p.peg_of.assign(static_cast<std::size_t>(total), 255);
  for (std::size_t peg = 0; peg < lists.size(); ++peg) {
    for (int d : lists[peg]) {
      if (d > total) {
        return make_error(fmt::format("disk {} listed but there are only {} disks (disks are "
                                      "numbered 1..{})",
                                      d, total, total),
                          input);
      }
      if (p.peg_of[d - 1] != 255) return make_error(fmt::format("disk {} listed twice", d), input);
      p.peg_of[d - 1] = static_cast<std::uint8_t>(peg);
    }
  }
  return p;
}

Result<Position> parse_letters(std::string_view text, int pegs, int disks) {
  const std::string input(text);
  if (pegs == 0) pegs = 3;
  Position p;
  p.pegs = pegs;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
    if (c < 'A' || c >= 'A' + pegs) {
      return make_error(fmt::format("expected a peg letter A..{} for each disk (disk 1 first)",
                                    static_cast<char>('A' + pegs - 1)),
                        input, i);
    }
    p.peg_of.push_back(static_cast<std::uint8_t>(c - 'A'));
  }
  if (p.peg_of.empty() || p.disks() > MAX_DISKS) {
    return make_error("a position needs 1 to 64 disks", input);
  }
  if (disks != 0 && p.disks() != disks) {
    return make_error(fmt::format("the position has {} disks, expected {}", p.disks(), disks),
                      input);
  }
  return p;
}

}  // namespace

Result<Position> parse_position(std::string_view text, int pegs, int disks) {
  std::size_t first = text.find_first_not_of(" \t\n");
  if (first == std::string_view::npos) {
    return make_error("empty position; expected e.g. \"[[1, 2], [], []]\" or \"AAB\"");
  }
  if (text[first] == '[') return parse_lists(text, pegs, disks);
  return parse_letters(text, pegs, disks);
}

std::string format_position(const Position& p) {
  std::string out = "[";
  for (int peg = 0; peg < p.pegs; ++peg) {
    out += peg ? ", [" : "[";
    bool first = true;
    for (int d = 0; d < p.disks(); ++d) {
      if (p.peg_of[d] != peg) continue;
      out += first ? "" : ", ";
      out += std::to_string(d + 1);
      first = false;
    }
    out += "]";
  }
  return out + "]";
}

std::string format_letters(const Position& p) {
  std::string out;
  for (auto x : p.peg_of) out += static_cast<char>('A' + x);
  return out;
}

std::string move_name(Move m) {
  return {static_cast<char>('A' + m.from), static_cast<char>('A' + m.to)};
}

Result<Move> parse_move(std::string_view text, int pegs) {
  const std::string input(text);
  if (text.size() != 2) {
    return make_error("a move is two peg letters, source then target (e.g. AB)", input);
  }
  Move m;
  for (int k = 0; k < 2; ++k) {
    char c = static_cast<char>(std::toupper(static_cast<unsigned char>(text[k])));
    if (c < 'A' || c >= 'A' + pegs) {
      return make_error(
          fmt::format("unknown peg; expected A..{}", static_cast<char>('A' + pegs - 1)), input, k);
    }
    (k == 0 ? m.from : m.to) = static_cast<std::uint8_t>(c - 'A');
  }
  if (m.from == m.to) return make_error("a move needs two different pegs", input);
  return m;
}

Status apply_move(Position& p, Move m) {
  if (m.from >= p.pegs || m.to >= p.pegs || m.from == m.to) {
    return make_error("illegal move " + move_name(m) + ": no such pair of pegs");
  }
  int disk = p.top(m.from);
  if (disk == 0) {
    return make_error(fmt::format("illegal move {}: peg {} is empty", move_name(m),
                                  static_cast<char>('A' + m.from)));
  }
  int onto = p.top(m.to);
  if (onto != 0 && onto < disk) {
    return make_error(fmt::format("illegal move {}: disk {} cannot go onto the smaller disk {}",
                                  move_name(m), disk, onto));
  }
  p.peg_of[disk - 1] = m.to;
  return Ok{};
}

Result<Position> replay(const Position& start, const std::vector<Move>& moves) {
  Position p = start;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (auto s = apply_move(p, moves[i]); !s) {
      Error e = s.error();
      e.message = fmt::format("move {}: {}", i + 1, e.message);
      return e;
    }
  }
  return p;
}

}  // namespace permuzzle::hanoi
