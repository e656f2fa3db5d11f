// Tower of Hanoi positions and moves (spec section 1).
//
// Data layout: a Position stores, for every disk, the peg it stands on: peg_of[i] is the peg
// (0 = A, 1 = B, ...) of disk i+1 (disk 1 is the smallest). The order of disks on a peg is
// implied (a legal position always has smaller disks above larger ones), so every vector of
// pegs is a legal position and vice versa.
// Text forms: `[[1, 2], [], []]` (peg by peg, top to bottom) and the compact letter form
// `AAB` (the peg of disk 1, disk 2, ...). A move is two letters, source then target: `AB`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/core/result.hpp"

namespace permuzzle::hanoi {

inline constexpr int MAX_DISKS = 64;
inline constexpr int MAX_PEGS = 26;  // pegs are named A..Z

struct Move {
  std::uint8_t from = 0;
  std::uint8_t to = 0;
  bool operator==(const Move&) const = default;
};

struct Position {
  int pegs = 3;
  std::vector<std::uint8_t> peg_of;  // peg_of[i] = peg of disk i+1

  int disks() const { return static_cast<int>(peg_of.size()); }
  bool operator==(const Position&) const = default;
  // Smallest disk (1-based) on `peg`, or 0 when the peg is empty.
  int top(int peg) const;
};

// All `disks` disks on `peg`.
Position tower(int disks, int pegs, int peg);
bool is_tower(const Position& p, int peg);

// Parses either text form. `pegs` = 0 infers the peg count from the list form (3 for the
// letter form); otherwise the text must agree with it. `disks` = 0 accepts any count.
Result<Position> parse_position(std::string_view text, int pegs = 0, int disks = 0);
std::string format_position(const Position& p);  // "[[1, 2], [], []]"
std::string format_letters(const Position& p);   // "AAB"

std::string move_name(Move m);  // "AB"
Result<Move> parse_move(std::string_view text, int pegs);
// Applies a move if it is legal; otherwise an error saying why (empty source, larger disk
// onto a smaller one, same peg).
Status apply_move(Position& p, Move m);

// Replays `moves` from `start`; an error names the first illegal move.
Result<Position> replay(const Position& start, const std::vector<Move>& moves);

}  // namespace permuzzle::hanoi
