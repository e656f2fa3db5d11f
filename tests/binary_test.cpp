// Binary swap puzzle: spec example, grid min-cost flow vs the assignment formulation vs BFS on
// every position of small boards, the separable shortcut vs network simplex, sequences replayed.
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/binary/board.hpp"
#include "permuzzle/puzzles/binary/graph.hpp"
#include "permuzzle/puzzles/binary/solver.hpp"

namespace binary_test {

using namespace permuzzle::binary;

TEST(Binary, SpecExample) {
  auto start = parse_board("1101 0110 0100 1010");
  ASSERT_TRUE(start.ok());
  Board goal = default_goal(*start);
  EXPECT_EQ(format_board(goal), "1111 1111 0000 0000");
  EXPECT_EQ(*min_swaps_flow(*start, goal), 8u);
  EXPECT_EQ(*min_swaps_assignment(*start, goal), 8u);
  for (auto method : {Method::Auto, Method::NetworkSimplex}) {
    SolveOptions o;
    o.method = method;
    auto sol = solve(*start, goal, o);
    ASSERT_TRUE(sol.ok());
    EXPECT_EQ(sol->swaps, 8u);
    EXPECT_EQ(sol->moves.size(), 8u);
    EXPECT_TRUE(sol->verified);
    EXPECT_EQ(*replay(*start, sol->moves), goal);
  }
}

TEST(Binary, ParseErrors) {
  EXPECT_FALSE(parse_board("110 01").ok());
  EXPECT_FALSE(parse_board("1102").ok());
  EXPECT_FALSE(parse_board("").ok());
  auto a = parse_board("11 00"), b = parse_board("10 00");
  EXPECT_FALSE(solve(*a, *b).ok());
  // a swap of two equal cells is rejected by replay
  EXPECT_FALSE(replay(*a, {swap_code(0, false)}).ok());
}

// Random start and goal boards (generally not separable): network simplex on the grid graph
// equals the assignment formulation, and the built sequence has exactly that length.
TEST(Binary, FlowMatchesAssignmentOnRandomBoards) {
  permuzzle::Rng rng(11);
  for (int trial = 0; trial < 60; ++trial) {
    int rows = 1 + static_cast<int>(rng() % 9), cols = 1 + static_cast<int>(rng() % 9);
    std::size_t ones = rng() % (rows * cols + 1);
    Board start = random_board(rows, cols, ones, rng), goal = random_board(rows, cols, ones, rng);
    auto a = min_swaps_assignment(start, goal);
    ASSERT_TRUE(a.ok());
    SolveOptions o;
    o.method = Method::NetworkSimplex;
    auto sol = solve(start, goal, o);
    ASSERT_TRUE(sol.ok()) << sol.error().message << " " << format_board(start) << " -> "
                          << format_board(goal);
    EXPECT_EQ(sol->swaps, *a) << format_board(start) << " -> " << format_board(goal);
    EXPECT_TRUE(sol->verified);
    auto any = solve(start, goal);  // Auto: separable when it applies
    ASSERT_TRUE(any.ok());
    EXPECT_EQ(any->swaps, *a);
    EXPECT_TRUE(any->verified);
  }
}

// The separable shortcut agrees with the network simplex on default goals.
TEST(Binary, SeparableMatchesNetworkSimplex) {
  permuzzle::Rng rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    int rows = 2 + static_cast<int>(rng() % 30), cols = 2 + static_cast<int>(rng() % 30);
    Board start = random_board(rows, cols, rng() % (rows * cols + 1), rng);
    Board goal = default_goal(start);
    SolveOptions sep, ns;
    sep.method = Method::Separable;
    ns.method = Method::NetworkSimplex;
    auto a = solve(start, goal, sep);
    auto b = solve(start, goal, ns);
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(a->swaps, b->swaps);
    EXPECT_TRUE(a->verified);
    EXPECT_EQ(a->moves.size(), a->swaps);
  }
}

// Whole graphs: BFS distance = min-cost flow for EVERY position (4x4, all k; 5x4, k = 10).
TEST(Binary, BfsAgreesWithFlowOnEveryPosition) {
  std::uint64_t total = 0;
  for (int k = 0; k <= 16; ++k) {
    Board goal{4, 4, std::vector<std::uint8_t>(16, 0)};
    for (int i = 0; i < k; ++i) goal.cells[i] = 1;
    BinaryGraphOptions o;
    o.diameter_limit = 0;
    auto s = summarize_graph(goal, o);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->flow_mismatches, 0u);
    EXPECT_EQ(s->flow_checked, s->positions);
    total += s->positions;
  }
  EXPECT_EQ(total, 65536u);  // every 0/1 board of 4x4, each checked
  Board goal{5, 4, std::vector<std::uint8_t>(20, 0)};
  for (int i = 0; i < 10; ++i) goal.cells[i] = 1;
  BinaryGraphOptions o;
  o.diameter_limit = 0;
  auto s = summarize_graph(goal, o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->positions, 184756u);  // C(20, 10)
  EXPECT_EQ(s->flow_checked, 184756u);
  EXPECT_EQ(s->flow_mismatches, 0u);
  // The farthest position from 11111 11111 00000 ... is the mirror-image staircase; its
  // distance is also given by the flow.
  ASSERT_FALSE(s->antipodes.empty());
  EXPECT_EQ(*min_swaps_flow(s->antipodes[0], goal), static_cast<std::uint64_t>(s->eccentricity));
}

TEST(BinaryCli, SolveJson) {
  auto r = permuzzle::test::run_cli("binary solve --start '1101 0110 0100 1010' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["swaps"], 8);
  EXPECT_EQ(j["verified"], true);
  ASSERT_EQ(j["moves"].size(), 8u);
  // replay the printed moves ourselves
  std::vector<int> cells;
  for (char c : std::string("1101011001001010")) cells.push_back(c - '0');
  for (auto& m : j["moves"]) {
    int a = m[0].get<int>() * 4 + m[1].get<int>(), b = m[2].get<int>() * 4 + m[3].get<int>();
    int dist =
        std::abs(m[0].get<int>() - m[2].get<int>()) + std::abs(m[1].get<int>() - m[3].get<int>());
    EXPECT_EQ(dist, 1);
    EXPECT_NE(cells[a], cells[b]);
    std::swap(cells[a], cells[b]);
  }
  std::string end;
  for (int c : cells) end += static_cast<char>('0' + c);
  EXPECT_EQ(end, "1111111100000000");
  r = permuzzle::test::run_cli("binary solve --start '10 01' --goal '11 00' --json");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.json()["swaps"], 1);
  r = permuzzle::test::run_cli("binary solve --start '11 00' --goal '10 00' --json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("ones"), std::string::npos);
  r = permuzzle::test::run_cli("binary solve --start '11 0'");
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace binary_test
