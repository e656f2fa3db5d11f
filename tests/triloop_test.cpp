// Triangular Loopover: the spec's cycles, orbits, the group (by the group core), and optimal
// lengths cross-checked against whole-graph BFS.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "cli_runner.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/puzzles/loopover/triangular.hpp"

namespace permuzzle::loopover {
namespace triloop_test {

Perm cycles(const char* text) {
  return Perm::parse(text).value().extended(16);
}

TEST(Triloop, SpecCyclesForFourRows) {
  auto b = TriBoard::create(4).value();
  EXPECT_EQ(b.move_perm({'D', 2, 1}), cycles("(9,7,5)(8,6)"));
  EXPECT_EQ(b.move_perm({'L', 3, 1}), cycles("(14,9)"));
  EXPECT_EQ(b.move_perm({'R', 1, -1}), cycles("(16,9,4,1)(15,8,3)"));
  EXPECT_EQ(b.move_perm({'R', 1, 1}), cycles("(1,4,9,16)(3,8,15)"));
  // The nine generators of groups.md, each up to direction.
  std::vector<Perm> reference;
  for (const char* g :
       {"(2,4)", "(5,7,9)(6,8)", "(10,12,14,16)(11,13,15)", "(1,2,5,10)(3,6,11)", "(4,7,12)(8,13)",
        "(9,14)", "(1,4,9,16)(3,8,15)", "(2,7,14)(6,13)", "(5,12)"})
    reference.push_back(cycles(g));
  auto gens = b.generators();
  ASSERT_EQ(gens.size(), 9u);
  for (const auto& r : reference) {
    bool found = false;
    for (const auto& g : gens) found = found || g == r || g == r.inverse();
    EXPECT_TRUE(found) << r.to_cycle_string();
  }
  // Parsing and printing round-trip, and the inverse undoes the move.
  auto moves = b.parse_moves("D2 -R1,L3").value();
  ASSERT_EQ(moves.size(), 3u);
  EXPECT_EQ(TriBoard::format_moves(moves), "D2 -R1 L3");
  EXPECT_EQ(b.apply(b.apply(b.solved(), {{'R', 1, 1}}), {{'R', 1, -1}}), b.solved());
}

TEST(Triloop, OrbitSizesAndGroupOrders) {
  for (int f = 2; f <= 8; ++f) {
    auto b = TriBoard::create(f).value();
    const int n = f * f;
    const int up = (n + f) / 2, down = (n - f) / 2;
    EXPECT_EQ(static_cast<int>(b.up_cells().size()), up);
    EXPECT_EQ(static_cast<int>(b.down_cells().size()), down);
    EXPECT_EQ(static_cast<int>(b.generators().size()), 3 * (f - 1));
    auto g = PermGroup::from_generators(b.generators(), b.generator_names());
    ASSERT_TRUE(g.ok());
    mpz_class expected = 1;
    for (int i = 2; i <= up; ++i) expected *= i;
    for (int i = 2; i <= down; ++i) expected *= i;
    EXPECT_EQ(g->order(), expected) << "f = " << f;
    // The orbits the group core finds are exactly the up and the down cells.
    auto orbits = g->orbits();
    std::set<std::vector<Point>> found(orbits.begin(), orbits.end());
    std::vector<Point> ups, downs;
    for (int c : b.up_cells()) ups.push_back(c);
    for (int c : b.down_cells()) downs.push_back(c);
    EXPECT_TRUE(found.count(ups)) << "f = " << f;
    if (downs.size() > 1) EXPECT_TRUE(found.count(downs)) << "f = " << f;
  }
}

TEST(Triloop, OptimalEqualsBfsForTwoAndThreeRows) {
  for (int f : {2, 3}) {
    auto b = TriBoard::create(f).value();
    auto dist = triangular_bfs(b).value();
    std::map<int, int> hist;
    for (auto d : dist) {
      ASSERT_NE(d, 0xFF);  // the whole S_up x S_down is reached
      ++hist[d];
    }
    Rng rng(f);
    for (int t = 0; t < (f == 2 ? 12 : 150); ++t) {
      auto p = b.random_position(rng);
      auto res = solve_triangular(b, p);
      ASSERT_TRUE(res.ok());
      EXPECT_TRUE(res->optimal);
      EXPECT_EQ(b.apply(p, res->moves), b.solved());
      EXPECT_EQ(static_cast<int>(res->moves.size()), dist[tri_state_index(b, p)]);
    }
  }
}

TEST(Triloop, OptimalFourRowsMatchesBoundedBfs) {
  // Exact distances up to depth 5 by BFS from the goal over whole positions.
  auto b = TriBoard::create(4).value();
  std::map<TriPosition, int> dist;
  std::vector<TriPosition> frontier = {b.solved()};
  dist[b.solved()] = 0;
  for (int d = 1; d <= 4; ++d) {
    std::vector<TriPosition> next;
    for (const auto& p : frontier)
      for (const auto& m : b.moves()) {
        auto q = b.apply(p, {m});
        if (dist.emplace(q, d).second) next.push_back(q);
      }
    frontier.swap(next);
  }
  // One in-memory store: the orbit tables are built once for the 25 solves.
  TableStore tables;
  TriSolveOptions options;
  options.tables = &tables;
  Rng rng(4);
  for (int t = 0; t < 25; ++t) {
    TriPosition p = b.solved();
    for (int s = 0; s < 4; ++s) p = b.apply(p, {b.moves()[rng() % b.moves().size()]});
    auto res = solve_triangular(b, p, options);
    ASSERT_TRUE(res.ok());
    EXPECT_EQ(b.apply(p, res->moves), b.solved());
    EXPECT_EQ(static_cast<int>(res->moves.size()), dist.at(p));
  }
}

TEST(Triloop, StageWiseSolvesLargeTriangles) {
  for (int f = 5; f <= 8; ++f) {
    auto b = TriBoard::create(f).value();
    Rng rng(f);
    auto p = b.random_position(rng);
    auto res = solve_triangular(b, p);
    ASSERT_TRUE(res.ok()) << res.error().message;
    EXPECT_FALSE(res->optimal);
    EXPECT_EQ(b.apply(p, res->moves), b.solved());
  }
}

TEST(Triloop, BadInput) {
  EXPECT_FALSE(TriBoard::create(1).ok());
  EXPECT_FALSE(TriBoard::create(9).ok());
  auto b = TriBoard::create(3).value();
  EXPECT_FALSE(b.parse_moves("D3").ok());  // line 3 of 3 rows is a single cell
  EXPECT_FALSE(b.parse_moves("X1").ok());
  EXPECT_FALSE(b.parse_moves("D").ok());
  auto bad = b.parse_moves("D1 Q2");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().position, 3u);
  EXPECT_FALSE(b.parse_position("1 2 3").ok());
  EXPECT_FALSE(b.parse_position("1 1 3 4 5 6 7 8 9").ok());
  auto wrong_orbit = b.parse_position("1 2 3 4 5 6 7 9 8");
  ASSERT_FALSE(wrong_orbit.ok());
  EXPECT_EQ(wrong_orbit.error().kind, ErrorKind::Unsolvable);
}

TEST(TriloopCli, GroupSolveAndErrors) {
  using permuzzle::test::run_cli;
  auto g = run_cli("triloop group 4 --json");
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_EQ(g.json()["group"], "S10 x S6");
  EXPECT_EQ(g.json()["order"], "2612736000");
  auto s = run_cli("triloop solve --rows 3 '9 7 3 1 4 8 2 6 5' --json");
  ASSERT_EQ(s.exit_code, 0) << s.err;
  auto j = s.json();
  EXPECT_EQ(j["length"], 5);
  EXPECT_EQ(j["optimal"], true);
  EXPECT_EQ(j["moves"].size(), 5u);
  // Replay the printed moves through `apply`.
  std::string moves;
  for (const auto& m : j["moves"]) moves += " " + m.get<std::string>();
  auto check = run_cli("triloop apply --rows 3 --position '9 7 3 1 4 8 2 6 5' " +
                       permuzzle::test::shell_quote(moves) + " --json");
  ASSERT_EQ(check.exit_code, 0) << check.err;
  EXPECT_EQ(check.json()["solved"], true);
  EXPECT_EQ(run_cli("triloop solve --rows 3 '1 2 3 4 5 6 7 9 8' --json").exit_code, 2);
  EXPECT_EQ(run_cli("triloop solve --rows 3 '1 2 3' --json").exit_code, 2);
  EXPECT_EQ(run_cli("triloop group 9 --json").exit_code, 2);
  EXPECT_EQ(run_cli("triloop apply --rows 3 'D1 Z'").exit_code, 2);
  auto play = run_cli("triloop play --rows 2 --seed 3", "q\n");
  EXPECT_EQ(play.exit_code, 0);
}

}  // namespace triloop_test
}  // namespace permuzzle::loopover
