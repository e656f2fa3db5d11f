// Cross-check of two front-end paths: the moves printed by `loopover solve` (optimal or fast
// multi-stage) are replayed by the independent `loopover apply` parser and must reach the goal.
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.hpp"

namespace permuzzle {
namespace loopover_replay_cli_test {

std::string join_moves(const nlohmann::json& moves) {
  std::string out;
  for (const auto& m : moves) out += (out.empty() ? "" : " ") + m.get<std::string>();
  return out;
}

TEST(LoopoverReplayCli, PrintedSolutionsReplayThroughApply) {
  struct Case {
    const char* size;
    const char* metric;
    int seed;
  };
  for (Case c : {Case{"3x3", "stm", 1}, Case{"2x4", "mtm", 2}, Case{"5x5", "stm", 4},
                 Case{"5x5", "mtm", 5}, Case{"4x6", "stm", 6}, Case{"7x7", "stm", 7}}) {
    std::string size = c.size;
    auto random =
        test::run_cli("loopover random " + size + " --seed " + std::to_string(c.seed) + " -q");
    ASSERT_EQ(random.exit_code, 0) << random.err;
    std::string position = random.out.substr(0, random.out.find('\n'));
    auto solve = test::run_cli("loopover solve --size " + size + " --metric " + c.metric + " " +
                               test::shell_quote(position) + " -q --json --tables " +
                               std::string(PERMUZZLE_TEST_TABLES_DIR));
    ASSERT_EQ(solve.exit_code, 0) << solve.err;
    auto solution = solve.json();
    std::string moves = join_moves(solution["moves"]);
    auto apply =
        test::run_cli("loopover apply --size " + size + " --from " + test::shell_quote(position) +
                      " " + test::shell_quote("--moves=" + moves) + " -q --json");
    ASSERT_EQ(apply.exit_code, 0) << apply.err;
    EXPECT_TRUE(apply.json()["solved"].get<bool>())
        << size << " " << c.metric << " seed " << c.seed << ": " << moves;
  }
}

}  // namespace loopover_replay_cli_test
}  // namespace permuzzle
