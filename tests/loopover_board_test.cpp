// Loopover board model and notation, checked against the spec's examples (section 4).
#include <gtest/gtest.h>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"

namespace permuzzle::loopover {
namespace loopover_board_test {

Perm cycles(const std::string& text, std::size_t degree) {
  return Perm::parse(text)->extended(degree);
}

TEST(LoopoverBoard, SpecCyclesOn4x6) {
  BoardSize size{4, 6};
  auto three = parse_moves(size, "3");
  ASSERT_TRUE(three.ok());
  ASSERT_EQ(three->size(), 1u);
  EXPECT_EQ(move_perm(size, (*three)[0]), cycles("(3,9,15,21)", 24));
  auto minus_b = parse_moves(size, "-B");
  ASSERT_TRUE(minus_b.ok());
  EXPECT_EQ(move_perm(size, (*minus_b)[0]), cycles("(12,11,10,9,8,7)", 24));
}

TEST(LoopoverBoard, SpecGeneratorsOn4x4) {
  // groups.md: rows (1,2,3,4)... columns (1,5,9,13)...
  BoardSize size{4, 4};
  EXPECT_EQ(move_perm(size, *parse_moves(size, "A").value().begin()), cycles("(1,2,3,4)", 16));
  EXPECT_EQ(move_perm(size, *parse_moves(size, "D").value().begin()), cycles("(13,14,15,16)", 16));
  EXPECT_EQ(move_perm(size, *parse_moves(size, "1").value().begin()), cycles("(1,5,9,13)", 16));
  EXPECT_EQ(move_perm(size, *parse_moves(size, "4").value().begin()), cycles("(4,8,12,16)", 16));
}

TEST(LoopoverBoard, PositionMatchesPermProduct) {
  // Applying a sequence to the goal equals the GAP product of the move permutations.
  BoardSize size{3, 5};
  auto moves = parse_moves(size, "3 -B A (2AA-2-A)^2 -5 C");
  ASSERT_TRUE(moves.ok());
  Position p = goal_position(size);
  apply_moves(size, p, *moves);
  Perm product(15);
  for (const Move& m : *moves) product *= move_perm(size, m);
  EXPECT_EQ(position_to_perm(p), product);
  EXPECT_EQ(perm_to_position(size, product), p);
}

TEST(LoopoverBoard, TranspositionWordSwapsCells1And2) {
  // Spec: (2AA-2-A)^(c-1) swaps the pieces in cells 1 and 2. What holds: 2AA-2-A is
  // (1,2) times a (c-1)-cycle, so its (c-1)-th power is (1,2) when c is even and the identity
  // when c is odd. The transposed word (B11-B-1)^(r-1) swaps cells 1 and c+1 when r is even.
  for (int r = 3; r <= 9; ++r) {
    for (int c = 3; c <= 9; ++c) {
      BoardSize size{r, c};
      Position p = goal_position(size);
      apply_moves(size, p, *parse_moves(size, "(2AA-2-A)^" + std::to_string(c - 1)));
      Position expected = goal_position(size);
      if (c % 2 == 0) std::swap(expected[0], expected[1]);
      EXPECT_EQ(p, expected) << r << "x" << c;
      Position q = goal_position(size);
      apply_moves(size, q, *parse_moves(size, "(B11-B-1)^" + std::to_string(r - 1)));
      Position expected_q = goal_position(size);
      if (r % 2 == 0) std::swap(expected_q[0], expected_q[static_cast<std::size_t>(c)]);
      EXPECT_EQ(q, expected_q) << r << "x" << c;
    }
  }
}

TEST(LoopoverBoard, ParserGroupsExponentsInverses) {
  BoardSize size{4, 4};
  EXPECT_EQ(parse_moves(size, "(2AA-2-A)^3")->size(), 15u);
  EXPECT_EQ(format_moves(*parse_moves(size, "(AB)^-1")), "-B -A");
  EXPECT_EQ(format_moves(*parse_moves(size, "-(A 2)")), "-2 -A");
  EXPECT_EQ(format_moves(*parse_moves(size, "B^2 -3^3 a")), "B^2 -3^3 A");
  EXPECT_TRUE(parse_moves(size, "")->empty());
  // Round trip through the printer.
  auto seq = parse_moves(size, "3 -B A 4 -D 1");
  EXPECT_EQ(format_moves(*seq), "3 -B A 4 -D 1");
  // A sequence followed by its inverse is the identity.
  Position p = goal_position(size);
  apply_moves(size, p, *seq);
  apply_moves(size, p, inverse(*seq));
  EXPECT_TRUE(is_goal(p));
}

TEST(LoopoverBoard, ParserErrorPositions) {
  BoardSize size{4, 4};
  struct Case {
    const char* text;
    std::size_t position;
  } cases[] = {{"A B 5", 4}, {"A E", 2}, {"(AB", 0},   {"AB)", 2},
               {"A^x", 2},   {"A -", 2}, {"A ? B", 2}, {"- A", 1}};
  for (const auto& c : cases) {
    auto r = parse_moves(size, c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error().position, c.position) << c.text << ": " << r.error().describe();
  }
  EXPECT_FALSE(parse_moves(size, "(AB)^999999999").ok());
}

// Found by fuzz/fuzz_loopover.cpp: an empty group (or one whose moves cancel to nothing, like
// `(A^4)` on a line of 4) with a huge exponent spun through the exponent doing nothing, about a
// second per 10^9; a thousand of them would hang. Now it costs nothing.
TEST(LoopoverBoard, EmptyGroupsWithHugeExponentsAreFree) {
  BoardSize size{4, 4};
  std::string text;
  for (int i = 0; i < 1000; ++i) text += i % 2 ? "()^999999999 " : "(A^4)^-999999999 ";
  text += "B";
  auto moves = parse_moves(size, text);
  ASSERT_TRUE(moves.ok()) << moves.error().describe();
  EXPECT_EQ(format_moves(*moves), "B");
}

TEST(LoopoverBoard, Metrics) {
  BoardSize size{4, 5};
  auto seq = *parse_moves(size, "A A A 2 -2 B^4");
  // A A A on a row of 5 = A^3 = -A^2: 2 in STM, 1 in MTM; 2 -2 cancels; B^4 = -B.
  EXPECT_EQ(sequence_length(size, seq, Metric::Stm), 3);
  EXPECT_EQ(sequence_length(size, seq, Metric::Mtm), 2);
  EXPECT_EQ(format_moves(normalize(size, seq, Metric::Stm)), "-A -A -B");
}

TEST(LoopoverBoard, PositionParsingAndValidation) {
  BoardSize size{2, 2};
  EXPECT_EQ(*parse_position(size, "2134"), (Position{2, 1, 3, 4}));
  EXPECT_EQ(*parse_position(size, "[[2,1],[3,4]]"), (Position{2, 1, 3, 4}));
  auto dup = parse_position(size, "1 2 2 4");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().position, 4u);
  EXPECT_FALSE(parse_position(size, "1 2 3").ok());
  EXPECT_FALSE(parse_position(size, "1 2 3 5").ok());
  EXPECT_FALSE(parse_position(size, "1 2 3 4 5").ok());
  EXPECT_FALSE(parse_position(size, "1 2 x 4").ok());
  BoardSize big{4, 4};
  auto p = parse_position(big, "16 2 3 4 5 6 7 8 9 10 11 12 13 14 15 1");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ((*p)[0], 16);
  EXPECT_FALSE(parse_size("10x3").ok());
  EXPECT_FALSE(parse_size("4x").ok());
  EXPECT_EQ(*parse_size("3X5"), (BoardSize{3, 5}));
}

TEST(LoopoverBoard, SolvabilityAndRandomPositions) {
  BoardSize odd{3, 3};
  Position swapped = goal_position(odd);
  std::swap(swapped[0], swapped[1]);
  EXPECT_FALSE(is_solvable(odd, swapped));
  EXPECT_TRUE(is_solvable(BoardSize{3, 4}, goal_position(BoardSize{3, 4})));
  Rng rng(42);
  int odd_count = 0;
  for (int i = 0; i < 200; ++i) {
    Position p = random_position(odd, rng);
    EXPECT_TRUE(validate_position(odd, p).ok());
    EXPECT_EQ(position_sign(p), 1);
    Position q = random_position(BoardSize{3, 4}, rng);
    EXPECT_TRUE(validate_position(BoardSize{3, 4}, q).ok());
    odd_count += position_sign(q) < 0;
  }
  // Both parities occur on 3x4 (a fair coin gives 200 of one kind with probability 2^-199).
  EXPECT_GT(odd_count, 50);
  EXPECT_LT(odd_count, 150);
  Rng a(7), b(7);
  EXPECT_EQ(random_position(BoardSize{5, 5}, a), random_position(BoardSize{5, 5}, b));
}

}  // namespace loopover_board_test
}  // namespace permuzzle::loopover
