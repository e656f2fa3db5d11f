// Black-box tests of `permuzzle sliding ...`.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"

namespace permuzzle::test {
namespace sliding_cli_test {

const std::string SPEC = shell_quote("11 2 12 1 / 6 7 3 8 / 9 5 0 4 / 14 10 13 15");
// Small (5-5-5) pattern databases in the build tree, never the user's cache.
const std::string PDB = " --tables " +
                        shell_quote(std::string(PERMUZZLE_TEST_TABLES_DIR) + "/sliding-core") +
                        " --partition 5-5-5";

TEST(SlidingCli, SolveJsonSpecExampleIs46) {
  auto r = run_cli("sliding solve --size 4x4 " + SPEC + " --heuristic linear-conflict --json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  EXPECT_NE(j["method"].get<std::string>().find("linear-conflict"), std::string::npos);
  EXPECT_EQ(j["length"], 46);
  EXPECT_EQ(j["moves"].size(), 46u);
  EXPECT_EQ(j["optimal"], true);
  EXPECT_GT(j["nodes"].get<long long>(), 0);
  EXPECT_TRUE(j["seconds"].is_number());
  EXPECT_EQ(j["directions"].size(), 46u);
  // The tile moves replay to the goal through `apply`.
  std::string tiles;
  for (auto& t : j["moves"]) tiles += std::to_string(t.get<int>()) + " ";
  auto a = run_cli("sliding apply " + SPEC + " " + shell_quote(tiles) + " --json");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.json()["solved"], true);
}

TEST(SlidingCli, SolveWithPatternDatabasesByDefaultOn4x4) {
  auto r = run_cli("sliding solve --size 4x4 " + SPEC + PDB + " --json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["length"], 46);
  EXPECT_EQ(j["optimal"], true);
  EXPECT_NE(j["method"].get<std::string>().find("pdb"), std::string::npos);
  auto b = run_cli("sliding bound " + SPEC + PDB + " --json -q");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  int pdb = b.json()["pdb"]["total"];
  EXPECT_GE(pdb, 28);  // the 5-5-5 bound dominates Manhattan here; never above the optimum
  EXPECT_LE(pdb, 46);
  EXPECT_EQ(b.json()["pdb"]["partition"], "5-5-5");
  auto bad = run_cli("sliding solve --heuristic pdb " + shell_quote("1 2 3 4 5 6 7 0 8"));
  EXPECT_EQ(bad.exit_code, 2);
  auto bad2 = run_cli("sliding solve --bidirectional --heuristic pdb " + SPEC + PDB);
  EXPECT_EQ(bad2.exit_code, 2);
}

TEST(SlidingCli, SolveBlankFirstGoalAndBidirectional) {
  // Blank-first goal (Korf): 1 2 3 / 0 4 5 / 6 7 8 is three moves... from 0 1 2 / 3 4 5 / 6 7 8.
  auto r = run_cli("sliding solve --size 3x3 --goal blank-first " +
                   shell_quote("1 2 5 / 3 4 0 / 6 7 8") + " --json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["length"], 3);
  EXPECT_EQ(r.json()["moves"], nlohmann::json::parse("[5, 2, 1]"));
  auto b =
      run_cli("sliding solve " + shell_quote("8 6 7 2 5 4 3 0 1") + " --bidirectional --json -q");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(b.json()["length"], 31);
  EXPECT_GT(b.json()["nodes_backward"].get<long long>(), 0);
  EXPECT_NE(b.json()["method"].get<std::string>().find("bidirectional"), std::string::npos);
  auto t = run_cli("sliding solve " + shell_quote("8 6 7 2 5 4 3 0 1"));
  ASSERT_EQ(t.exit_code, 0);
  EXPECT_NE(t.out.find("31 moves"), std::string::npos);
  EXPECT_NE(t.out.find("directions:"), std::string::npos);
  EXPECT_NE(t.err.find("no solution shorter than"), std::string::npos);
}

TEST(SlidingCli, SolveRejectsBadInput) {
  struct Case {
    std::string args, needle;
  };
  for (const Case& c : std::vector<Case>{
           {"--size 3x3 " + shell_quote("1 2 3 4 5 6 7 8"), "wrong number of tiles"},
           {"--size 3x3 " + shell_quote("1 2 3 4 5 6 7 7 0"), "appears twice"},
           {shell_quote("1 2 3 4 5 6 8 7 0"), "cannot reach the goal"},
           {"--size 9x9 " + shell_quote("1 2 3"), "not supported"},
           {"--goal sideways " + shell_quote("1 2 3 4 5 6 7 8 0"), "goal"},
           {"--heuristic magic " + shell_quote("1 2 3 4 5 6 7 8 0"), "heuristic"},
       }) {
    auto r = run_cli("sliding solve " + c.args + " --json");
    EXPECT_EQ(r.exit_code, 2) << c.args;
    EXPECT_TRUE(r.out.empty()) << c.args;
    EXPECT_NE(r.err.find(c.needle), std::string::npos) << c.args << "\n" << r.err;
  }
}

TEST(SlidingCli, CheckBoundApplyRandom) {
  auto c = run_cli("sliding check " + shell_quote("1 2 3 4 5 6 8 7 0") + " --json");
  ASSERT_EQ(c.exit_code, 0);
  EXPECT_EQ(c.json()["solvable"], false);
  EXPECT_EQ(c.json()["inversions"], 1);
  auto b = run_cli("sliding bound --no-pdb " + SPEC + " --json");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(b.json()["manhattan"], 22);
  EXPECT_EQ(b.json()["linear_conflict"], 28);
  auto bt = run_cli("sliding bound --no-pdb " + SPEC);
  EXPECT_NE(bt.out.find("manhattan:         22"), std::string::npos) << bt.out;
  auto a = run_cli("sliding apply " + shell_quote("1 2 3 / 4 5 6 / 7 8 0") + " 'U L 5 6' --json");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.json()["directions"], nlohmann::json::parse(R"(["U","L","R","D"])"));
  EXPECT_EQ(a.json()["solved"], true);
  auto bad = run_cli("sliding apply " + shell_quote("1 2 3 / 4 5 6 / 7 8 0") + " 'U L 1'");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("not next to the blank"), std::string::npos);
  auto r1 = run_cli("sliding random --size 4x4 --seed 9 --count 5 --json");
  auto r2 = run_cli("sliding random --size 4x4 --seed 9 --count 5 --json");
  ASSERT_EQ(r1.exit_code, 0);
  EXPECT_EQ(r1.out, r2.out);
  EXPECT_EQ(r1.json()["positions"].size(), 5u);
  const auto positions = r1.json()["positions"];  // a copy: json() returns a temporary
  for (const auto& p : positions) {
    std::string flat;
    for (auto& v : p) flat += std::to_string(v.get<int>()) + " ";
    auto chk = run_cli("sliding check --size 4x4 " + shell_quote(flat) + " --json");
    EXPECT_EQ(chk.json()["solvable"], true) << flat;
  }
}

TEST(SlidingCli, PlayGame) {
  auto r = run_cli("sliding play " + shell_quote("1 2 3 4 5 6 7 0 8"), "U\nnonsense\nD\nR\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("moves: 3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Solved in 3 moves"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unexpected character"), std::string::npos);
  auto eof = run_cli("sliding play --size 3x3 --seed 4", "");
  EXPECT_EQ(eof.exit_code, 0);
  EXPECT_EQ(eof.out.find("Solved"), std::string::npos);
  auto bad = run_cli("sliding play " + shell_quote("1 2 3 4 5 6 8 7 0"));
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(SlidingCli, BfsJsonAndSvg) {
  std::string svg = "/tmp/permuzzle-sliding-test-" + std::to_string(::getpid()) + ".svg";
  auto r = run_cli("sliding bfs 3x3 --json -q --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["states"], 181440);
  EXPECT_EQ(j["max_distance"], 31);
  EXPECT_EQ(j["antipodes_count"], 2);
  EXPECT_EQ(j["components"], 2);
  EXPECT_EQ(j["histogram"].size(), 32u);
  EXPECT_EQ(j["histogram"][0], 1);
  EXPECT_EQ(j["histogram"][1], 2);
  std::ifstream in(svg);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find("</svg>"), std::string::npos);
  std::remove(svg.c_str());
  auto big = run_cli("sliding bfs 4x4 --json");
  EXPECT_NE(big.exit_code, 0);
  EXPECT_TRUE(big.out.empty());
  auto bad = run_cli("sliding bfs 3by3");
  EXPECT_EQ(bad.exit_code, 2);
  auto unwritable = run_cli("sliding bfs 2x2 --svg /nonexistent-dir/x.svg");
  EXPECT_EQ(unwritable.exit_code, 1);
}

// --symmetry: the fields of the interface (symmetries, classes); the square's transpose keeps
// the standard goal (the classes: (181,440 + the transpose's fixed positions) / 2), auto searches
// every position when its table fits, and a word not among the choices is refused.
TEST(SlidingCli, BfsSymmetryFields) {
  auto on = run_cli("--json -q sliding bfs --size 3x3 --symmetry on");
  ASSERT_EQ(on.exit_code, 0) << on.err;
  const auto j = on.json();
  EXPECT_EQ(j["symmetries"], 2);
  EXPECT_EQ(j["states"], 181440);
  EXPECT_GT(j["classes"].get<std::uint64_t>(), 181440u / 2);
  EXPECT_LT(j["classes"].get<std::uint64_t>(), 181440u);
  EXPECT_EQ(j["class_histogram"].size(), 32u);
  EXPECT_EQ(j["antipodes_count"], 2);
  auto automatic = run_cli("--json -q sliding bfs --size 3x3");
  ASSERT_EQ(automatic.exit_code, 0) << automatic.err;
  EXPECT_EQ(automatic.json()["symmetries"], 1);
  EXPECT_EQ(automatic.json()["classes"], 181440);
  EXPECT_EQ(automatic.json()["histogram"], j["histogram"]);
  EXPECT_EQ(automatic.json()["antipodes"], j["antipodes"]);
  auto bad = run_cli("sliding bfs --size 3x3 --symmetry all");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("symmetry"), std::string::npos) << bad.err;
}

}  // namespace sliding_cli_test
}  // namespace permuzzle::test
