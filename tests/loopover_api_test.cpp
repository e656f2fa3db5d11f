// The loopover and triloop families as registry commands: integers are exact or refused (never
// clamped or wrapped), play is CLI-only, and the solver choice is made by the library.
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.hpp"
#include "permuzzle/api/registry.hpp"

namespace permuzzle::test {
namespace loopover_api_test {

const std::string TABLES = std::string(" --tables ") + PERMUZZLE_TEST_TABLES_DIR;

// Row A of the 4x4 goal shifted one cell LEFT (`-A`, spec section 4): tile 2 in cell 1.
const std::string MINUS_A_4X4 = "2 3 4 1 5 6 7 8 9 10 11 12 13 14 15 16";

std::string applied(const std::string& moves) {
  auto r = run_cli("loopover apply --size 4x4 " + shell_quote("--moves=" + moves) + " --json");
  EXPECT_EQ(r.exit_code, 0) << moves << ": " << r.err;
  return r.exit_code == 0 ? r.json()["position"].get<std::string>() : std::string();
}

TEST(LoopoverApi, ExponentsOfAnySizeAreReducedExactly) {
  // 1000000003 = 4 * 250000000 + 3, and A^3 = A^-1 on a line of 4.
  EXPECT_EQ(applied("A^1000000003"), MINUS_A_4X4);
  EXPECT_EQ(applied(" -A"), MINUS_A_4X4);
  // 10^30 + 1 = 1 (mod 4): far beyond 64 bits, still exact.
  EXPECT_EQ(applied("A^-1000000000000000000000000000001"), MINUS_A_4X4);
  EXPECT_EQ(applied("-A^1000000000000000000000000000001"), MINUS_A_4X4);
  // 10^30 = 0 (mod 4): the identity.
  EXPECT_EQ(applied("A^1000000000000000000000000000000"), "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16");
  // A group cannot be reduced without changing the sequence: too long is refused, not cut.
  auto group = run_cli("loopover apply --size 4x4 '(A)^1000000000000000000000' --json");
  EXPECT_EQ(group.exit_code, 2);
  EXPECT_NE(group.err.find("longer than"), std::string::npos) << group.err;
}

TEST(LoopoverApi, RegistryCallGivesTheSameResult) {
  const api::Registry registry = api::make_registry();
  TableStore store;
  api::Session session{store, RunContext{}, ""};
  auto out =
      registry.call("loopover", "apply", {{"size", "4x4"}, {"moves", "A^1000000003"}}, session);
  ASSERT_TRUE(out) << out.error().describe();
  EXPECT_EQ(out->json["position"], MINUS_A_4X4);
  // The verbs the CLI had, except play (interactive, CLI-only).
  for (const char* verb :
       {"solve", "random", "check", "bound", "apply", "bfs", "group", "symmetries"}) {
    EXPECT_NE(registry.find("loopover", verb), nullptr) << verb;
  }
  EXPECT_EQ(registry.find("loopover", "play"), nullptr);
  EXPECT_EQ(registry.find("triloop", "play"), nullptr);
  EXPECT_NE(registry.find("bench", "loopover"), nullptr);
  EXPECT_NE(registry.find("bench", "loopover-fast"), nullptr);
  // A negative count through the API is an error naming the parameter, not 2^64-1.
  auto negative = registry.call("loopover", "random", {{"size", "3x3"}, {"count", -1}}, session);
  ASSERT_FALSE(negative);
  EXPECT_NE(negative.error().message.find("count"), std::string::npos);
}

TEST(LoopoverApi, LongNumbersAreRefusedAsWritten) {
  auto tile = run_cli("loopover check --size 3x3 '1 2 3 4 5 6 7 8 99999999999'");
  EXPECT_EQ(tile.exit_code, 2);
  EXPECT_NE(tile.err.find("tile 99999999999 is out of range"), std::string::npos) << tile.err;
  // Triangular Loopover: a line number or label is read whole, never cut after a few digits.
  auto line = run_cli("triloop apply --rows 3 'D99999999999'");
  EXPECT_EQ(line.exit_code, 2);
  EXPECT_NE(line.err.find("line number 99999999999 out of range"), std::string::npos) << line.err;
  auto label = run_cli("triloop solve --rows 3 '1 2 3 4 5 6 7 8 1000009'");
  EXPECT_EQ(label.exit_code, 2);
  EXPECT_NE(label.err.find("label 1000009 out of range"), std::string::npos) << label.err;
  // Leading zeros are still the same small number.
  auto zeros = run_cli("triloop apply --rows 3 'D0001' --json");
  ASSERT_EQ(zeros.exit_code, 0) << zeros.err;
  EXPECT_EQ(zeros.json()["moves"][0], "D1");
}

TEST(LoopoverApi, NegativeCountsSeedsAndLimitsAreErrors) {
  for (const char* args : {
           "loopover random 3x3 --count -1",
           "loopover random 3x3 --seed -1",
           "loopover random 3x3 --count 0",
           "loopover solve --size 3x3 --max-nodes -5 '1 2 3 4 5 6 7 8 9'",
           "loopover bfs 2x2 --threads -2",
           "loopover bfs 2x2 --threads 0",
           "bench loopover --size 3x3 --count -1",
           "bench loopover --size 3x3 --seed -1",
           "bench loopover --size 3x3 --probes -1",
           "bench loopover-fast --size 3x3 --count -1",
           "bench loopover-fast --size 3x3 --beam -1",
           "triloop random --seed -1",
           "triloop random --rows -4",
           "triloop group -4",
           "loopover play 2x2 --seed -1",
           "triloop play --rows 2 --seed -1",
       }) {
    auto r = run_cli(std::string(args) + " -q" + TABLES, "q\n");
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
  }
}

TEST(LoopoverApi, PlayRefusesJson) {
  for (const char* args : {"loopover play 2x2 --json", "triloop play --rows 2 --json"}) {
    auto r = run_cli(args, "q\n");
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("play is interactive; --json is not supported"), std::string::npos)
        << r.err;
  }
}

TEST(LoopoverApi, LargeBoardsUseTheFastSolverOnce) {
  // 3x6 has 18 cells: above AUTO_FAST_CELLS, so the library picks the fast solver; its answer is
  // replayed here through `apply`, an independent path.
  auto random = run_cli("loopover random 3x6 --seed 9 -q");
  ASSERT_EQ(random.exit_code, 0) << random.err;
  std::string position = random.out.substr(0, random.out.find('\n'));
  auto solve =
      run_cli("loopover solve --size 3x6 " + shell_quote(position) + " --json -q" + TABLES);
  ASSERT_EQ(solve.exit_code, 0) << solve.err;
  auto j = solve.json();
  EXPECT_EQ(j["optimal"], false);
  EXPECT_EQ(j["verified"], true);
  std::string moves;
  for (const auto& m : j["moves"]) moves += (moves.empty() ? "" : " ") + m.get<std::string>();
  auto apply = run_cli("loopover apply --size 3x6 --from " + shell_quote(position) + " " +
                       shell_quote("--moves=" + moves) + " --json");
  ASSERT_EQ(apply.exit_code, 0) << apply.err;
  EXPECT_EQ(apply.json()["solved"], true);
  // An odd permutation on an odd x odd board is refused by the solver itself (exit 2).
  auto odd = run_cli(
      "loopover solve --size 3x7 --fast '2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 16 "
      "17 18 19 20 21'" +
      TABLES);
  EXPECT_EQ(odd.exit_code, 2) << odd.err;
}

}  // namespace loopover_api_test
}  // namespace permuzzle::test
