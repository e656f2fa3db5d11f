// The hanoi, binary, fifteen and cube families and their benchmarks as registry commands:
// bounded output and memory for the binary puzzle (the swap sequence streams through a replay
// and is kept only to be printed), exact integers (negative counts refused), `hanoi play`
// without --json, `hanoi graph --dot FILE`, and the benchmarks' checks.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "cli_runner.hpp"
#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/binary/board.hpp"
#include "permuzzle/puzzles/binary/solver.hpp"

namespace permuzzle {
namespace puzzles_api_test {

using test::run_cli;

// Runs the CLI with its address space limited to `kib` KiB (ulimit -v): an address-space limit
// bounds the resident set too, and an allocation past it fails (the CLI then exits 1, "out of
// memory").
test::CliRun run_cli_limited(std::uint64_t kib, const std::string& args) {
  return run_cli("--version >/dev/null && ulimit -v " + std::to_string(kib) + " && exec " +
                 std::string(PERMUZZLE_CLI_PATH) + " " + args);
}

Result<api::Output> call(const std::string& family, const std::string& verb,
                         const nlohmann::json& params) {
  static const api::Registry registry = api::make_registry();
  TableStore store;
  api::Session session{store, RunContext{}, api::default_data_dir()};
  return registry.call(family, verb, params, session);
}

// Our own replay of swap codes on a copy of the cells (independent of binary::Replayer).
std::vector<std::uint8_t> swap_cells(std::vector<std::uint8_t> cells, int cols,
                                     const std::vector<binary::SwapCode>& swaps, bool& all_valid) {
  all_valid = true;
  for (binary::SwapCode s : swaps) {
    std::size_t a = s >> 1, b = a + ((s & 1) ? static_cast<std::size_t>(cols) : 1);
    if (b >= cells.size() || cells[a] == cells[b]) {
      all_valid = false;
      break;
    }
    std::swap(cells[a], cells[b]);
  }
  return cells;
}

// A 1000 x 1000 board needs 125,121,008 swaps: 500 MB as a list. Counted and replayed as they are
// built, the whole run fits in 256 MB of address space (it needed the list before).
TEST(BinaryApi, LargeBoardRunsInBoundedMemory) {
  auto r = run_cli_limited(256 * 1024, "binary random --rows 1000 --cols 1000 --json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["verified"], true);
  EXPECT_EQ(j["moves_printed"], false);
  // The vertical part alone (every 1 in the lower half moves up past the middle) is a lower
  // bound: at least 1 swap per such 1, so far more than the 256 MB could hold as 4-byte codes.
  EXPECT_GT(j["swaps"].get<std::uint64_t>(), std::uint64_t(256) << 20 >> 2);
}

// Printing is bounded: a list whose text would pass 64 MB is refused before it is built
// (LimitExceeded, exit 3, the size named); below the bound it is printed in full.
TEST(BinaryApi, PrintedListIsBounded) {
  auto r = run_cli("binary random --rows 400 --cols 400 --max-print 100000000 --json");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("MB of text"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("64 MB"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  // The same through the API for `solve` on a board given as text.
  Rng rng(7);
  binary::Board big = binary::random_board(400, 400, 80000, rng);
  auto out =
      call("binary", "solve", {{"start", binary::format_board(big)}, {"max-print", 100000000}});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().kind, ErrorKind::LimitExceeded);
  // Without a larger --max-print the count and the replay come without the list.
  out = call("binary", "solve", {{"start", binary::format_board(big)}});
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->json["verified"], true);
  EXPECT_EQ(out->json["moves_printed"], false);
  EXPECT_FALSE(out->json.contains("moves"));
  // A list under the bound is printed whole and replays to the goal (our own replay).
  r = run_cli("binary random --rows 60 --cols 60 --seed 4 --max-print 10000000 --json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  ASSERT_EQ(j["moves"].size(), j["swaps"].get<std::size_t>());
  EXPECT_GT(j["moves"].size(), 10000u);  // more than the default --max-print
}

// The solver streams: every swap reaches the sink in order, the list is kept only up to
// keep_moves, the replay runs once as the swaps are built, and check_length can stop a solve.
TEST(BinaryApi, SolverStreamsItsSequence) {
  Rng rng(3);
  for (auto method : {binary::Method::Auto, binary::Method::NetworkSimplex}) {
    binary::Board start = binary::random_board(12, 9, 50, rng);
    binary::Board goal = binary::random_board(12, 9, 50, rng);
    if (method == binary::Method::Auto) goal = binary::default_goal(start);
    binary::SolveOptions o;
    o.method = method;
    o.keep_moves = 0;
    std::vector<binary::SwapCode> seen;
    o.on_swap = [&](binary::SwapCode s) { seen.push_back(s); };
    auto sol = binary::solve(start, goal, o);
    ASSERT_TRUE(sol.ok()) << sol.error().message;
    EXPECT_TRUE(sol->verified);
    EXPECT_FALSE(sol->moves_kept);
    EXPECT_TRUE(sol->moves.empty());
    EXPECT_EQ(sol->built, sol->swaps);
    ASSERT_EQ(seen.size(), sol->swaps);
    EXPECT_EQ(*binary::min_swaps_assignment(start, goal), sol->swaps);
    bool valid = false;
    EXPECT_EQ(swap_cells(start.cells, start.cols, seen, valid), goal.cells);
    EXPECT_TRUE(valid);
  }
  binary::Board start = *binary::parse_board("1101 0110 0100 1010");
  binary::SolveOptions o;
  std::uint64_t announced = 0;
  o.check_length = [&](std::uint64_t swaps) -> Status {
    announced = swaps;
    return make_error("too long", {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  };
  auto sol = binary::solve(start, binary::default_goal(start), o);
  ASSERT_FALSE(sol.ok());
  EXPECT_EQ(sol.error().kind, ErrorKind::LimitExceeded);
  EXPECT_EQ(announced, 8u);  // the spec example's minimum
}

TEST(BinaryApi, ReplayerNamesTheBadSwap) {
  // Cells 0 1 / 2 3 of "10 01" hold 1 0 / 0 1.
  binary::Board b = *binary::parse_board("10 01");
  binary::Replayer off(b);
  EXPECT_TRUE(off.apply(binary::swap_code(0, false)));   // cells 0 and 1: now 01 01
  EXPECT_FALSE(off.apply(binary::swap_code(1, false)));  // cell 1 has no right neighbour
  EXPECT_FALSE(off.apply(binary::swap_code(0, true)));   // refused after a failure
  EXPECT_EQ(off.count(), 1u);
  ASSERT_FALSE(off.status().ok());
  EXPECT_EQ(off.status().error().message, "swap 2 leaves the board");
  binary::Replayer equal(b);
  EXPECT_TRUE(equal.apply(binary::swap_code(0, false)));  // 01 01
  EXPECT_FALSE(equal.apply(binary::swap_code(0, true)));  // cells 0 and 2 are both 0
  EXPECT_EQ(equal.status().error().message, "swap 2 exchanges two equal cells (wasted move)");
  EXPECT_EQ(equal.board(), *binary::parse_board("01 01"));
}

// Counts, seeds and limits are Unsigned: a negative value is an error naming the option (exit 2),
// never wrapped to 2^64 - 1; values past a range are refused, not clamped.
TEST(PuzzlesApi, NegativeAndOutOfRangeIntegersAreRefused) {
  for (const char* args :
       {"binary random --seed -1", "binary random --max-print -5", "binary random --ones -2",
        "binary solve --start '10 01' --max-print -1", "hanoi numbers --max-disks -3",
        "hanoi solve -2", "hanoi solve 3 --pegs -3", "hanoi solve 99999999999999999999",
        "hanoi solve 65", "fifteen toroidal --check -1", "fifteen toroidal --check 1 --seed -7",
        "cube random --seed -1", "bench hanoi --disks -1", "bench hanoi --disks 16",
        "bench binary --size 0", "bench groups --repeats 0"}) {
    auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
  }
  auto r = run_cli("binary random --seed -1");
  EXPECT_NE(r.err.find("--seed"), std::string::npos) << r.err;
  // The largest seed is taken exactly (a random board, solved).
  r = run_cli("cube random --seed 18446744073709551615 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["seed"].get<std::uint64_t>(), 18446744073709551615ull);
}

TEST(PuzzlesApi, HanoiPlayRefusesJsonAndGraphWritesDot) {
  auto r = run_cli("hanoi play 2 --json", "AB\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("play is interactive; --json is not supported"), std::string::npos);
  // --dot FILE: the DOT goes to the file, the summary to stdout.
  std::string path = (std::filesystem::temp_directory_path() /
                      ("permuzzle-hanoi-" + std::to_string(::getpid()) + ".dot"))
                         .string();
  r = run_cli("hanoi graph 2 --dot " + path + " --json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["dot"], path);
  EXPECT_EQ(r.json()["positions"], 9);  // 3^2
  std::ifstream file(path);
  std::stringstream dot;
  dot << file.rdbuf();
  EXPECT_NE(dot.str().find("AA -- BA"), std::string::npos);
  std::filesystem::remove(path);
  // --dot alone (or '-'): the DOT replaces the text on stdout.
  r = run_cli("hanoi graph 2 --dot -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("// Tower of Hanoi state graph", 0), 0u) << r.out;
  // Over the DOT size limit: refused, nothing written.
  r = run_cli("hanoi graph 9 --dot " + path + " -q");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_FALSE(std::filesystem::exists(path));
}

// The benchmarks check what they measure against known values: the 3-peg tower's eccentricity
// 2^d - 1, the cube group's order 43252003274489856000 (spec/groups.md).
TEST(PuzzlesApi, BenchmarksCheckTheirResults) {
  auto r = run_cli("bench hanoi --disks 6 --json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["eccentricity"], 63);
  EXPECT_EQ(r.json()["positions"], 729);
  EXPECT_EQ(r.json()["sequence20_moves"], 1048575);
  r = run_cli("bench binary --size 40 --json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["verified"], true);
  r = run_cli("bench groups --repeats 1 --json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["cube_order"], "43252003274489856000");
  EXPECT_EQ(r.json()["membership_tests"], 10000);
}

}  // namespace puzzles_api_test
}  // namespace permuzzle
