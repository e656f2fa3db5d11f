// The time and memory contract of the cube, sliding, Loopover and triangular Loopover commands
// (issue 22): one time limit (the global --time-limit; the cube's "look for shorter solutions"
// budget is --budget), stopped commands answer what they knew within max(0.5 s, 10% of the
// limit) plus process start-up, tables, frontiers and perimeters are checked against the
// memory budget before they are allocated, and every long loop (searches, table builds,
// whole-graph BFS) stops when asked.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <stop_token>
#include <thread>

#include "cli_runner.hpp"
#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/cube/two_phase.hpp"
#include "permuzzle/puzzles/loopover/bfs.hpp"
#include "permuzzle/puzzles/loopover/piece_pdb.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"
#include "permuzzle/puzzles/sliding/pdb.hpp"
#include "permuzzle/puzzles/sliding/solver.hpp"

namespace permuzzle {
namespace limits_search_test {

using test::CliRun;
using test::shell_quote;

// The cube and sliding tables are shared with the other tests' cache.
const std::string TABLES = "PERMUZZLE_TABLES=" + std::string(PERMUZZLE_TEST_TABLES_DIR);

struct Timed {
  CliRun run;
  double seconds = 0;
};
Timed timed_cli(const std::string& env, const std::string& args) {
  const auto start = std::chrono::steady_clock::now();
  Timed t;
  t.run = test::run_cli_env(env, args);
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return t;
}

// The superflip (20 moves, every edge flipped): an optimal solve with the phase-1 table runs
// for hours.
const std::string SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

// Replays `moves` after `scramble` with `cube apply` (the solver is not asked): solved?
bool cube_solves(const std::string& scramble, const nlohmann::json& moves) {
  std::string all = scramble;
  for (const auto& m : moves) all += " " + m.get<std::string>();
  auto r = test::run_cli("--json cube apply " + shell_quote(all));
  return r.exit_code == 0 && r.json()["solved"] == true;
}

// The phase-1 table must exist before a 1 s limit can leave time for a search.
void ensure_cube_tables() {
  auto r = test::run_cli_env(TABLES, "-q cube solve --moves \"R U\"");
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

// Registry calls in one process, the tables loaded once (a table load is not part of what a
// time limit can shorten).
struct CubeSession {
  api::Registry registry = api::make_registry();
  TableStore store{std::string(PERMUZZLE_TEST_TABLES_DIR)};
  CubeSession() {
    auto warm = call({{"moves", "R U"}}, 0);
    EXPECT_TRUE(warm.ok()) << warm.error().describe();
  }
  Result<api::Output> call(const nlohmann::json& params, double limit,
                           const std::string& verb = "solve", const std::string& family = "cube") {
    api::Session session{store, RunContext{}, api::default_data_dir()};
    if (limit > 0) session.run.with_time_limit(std::chrono::duration<double>(limit));
    return registry.call(family, verb, params, session);
  }
};

TEST(CubeLimits, OptimalStoppedByTheTimeLimitAnswersTheBestSolutionSoFar) {
  CubeSession cube;
  auto random = cube.call({{"seed", 1}}, 0, "random");
  ASSERT_TRUE(random.ok());
  const std::string facelets = random->json["facelets"];
  // A random cube's optimal solve with the phase-1 table takes many minutes.
  Stopwatch watch;
  auto r = cube.call({{"facelets", facelets}, {"optimal", true}, {"threads", 1}}, 1.0);
  const double seconds = watch.seconds();
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_TRUE(r->stopped.has_value());
  EXPECT_EQ(r->stopped->kind, ErrorKind::LimitExceeded);
  EXPECT_LT(seconds, 2.5);  // 1 s + 0.5 s, and slack for a loaded machine
  const nlohmann::json& j = r->json;
  EXPECT_EQ(j["optimal"], false);
  EXPECT_EQ(j["complete"], false);
  EXPECT_EQ(j["verified"], true);
  EXPECT_LE(j["length"].get<int>(), 20);
  EXPECT_EQ(j["length"].get<std::size_t>(), j["moves"].size());
  EXPECT_GE(j["lower_bound"].get<int>(), 1);
  EXPECT_LE(j["lower_bound"].get<int>(), j["length"].get<int>());
  // Replayed by `cube apply`, not by the solver.
  std::string moves;
  for (const auto& m : j["moves"]) moves += m.get<std::string>() + " ";
  auto replay = cube.call({{"moves", moves}, {"start", facelets}}, 0, "apply");
  ASSERT_TRUE(replay.ok()) << replay.error().describe();
  EXPECT_EQ(replay->json["solved"], true);
  // The superflip: two-phase needs more than its 50 ms for 20 moves; IDA* proves a bound.
  r = cube.call({{"moves", SUPERFLIP}, {"optimal", true}, {"threads", 1}}, 1.0);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_TRUE(r->stopped.has_value());
  EXPECT_GE(r->json["lower_bound"].get<int>(), 10);
  EXPECT_LE(r->json["lower_bound"].get<int>(), 20);
  // Cancelled after 0.3 s: stopped too, with the Cancelled kind.
  std::stop_source source;
  api::Session session{cube.store, RunContext{}, api::default_data_dir()};
  session.run.with_stop_token(source.get_token());
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    source.request_stop();
  });
  watch.restart();
  r = cube.registry.call("cube", "solve",
                         {{"facelets", facelets}, {"optimal", true}, {"threads", 1}}, session);
  stopper.join();
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_TRUE(r->stopped.has_value());
  EXPECT_EQ(r->stopped->kind, ErrorKind::Cancelled);
  EXPECT_LT(watch.seconds(), 1.5);
}

TEST(CubeLimits, MaxLengthBelowEveryPossibleSolutionIsAnsweredNotSearchedForever) {
  ensure_cube_tables();
  // Below the position's lower bound: refused at once.
  auto t = timed_cli(TABLES,
                     "--time-limit 60 cube solve --max-length 5 --moves " + shell_quote(SUPERFLIP));
  EXPECT_EQ(t.run.exit_code, 3) << t.run.err;
  EXPECT_NE(t.run.err.find("no solution of at most 5 moves exists"), std::string::npos)
      << t.run.err;
  EXPECT_LT(t.seconds, 10.0);
  // Above the lower bound but below the optimum (7 moves, as --optimal proves): the two-phase
  // search cannot reach it, IDA* proves there is none.
  const std::string seven = "R U F D L B R";
  auto optimal =
      test::run_cli_env(TABLES, "--json cube solve --optimal --moves " + shell_quote(seven));
  ASSERT_EQ(optimal.exit_code, 0) << optimal.err;
  const int shortest = optimal.json()["length"];
  t = timed_cli(TABLES, "--time-limit 60 cube solve --moves " + shell_quote(seven) +
                            " --max-length " + std::to_string(shortest - 1));
  EXPECT_EQ(t.run.exit_code, 3) << t.run.err;
  EXPECT_NE(t.run.err.find(fmt::format("no solution of at most {} moves exists", shortest - 1)),
            std::string::npos)
      << t.run.err;
  EXPECT_NE(t.run.err.find(fmt::format("at least {} moves", shortest)), std::string::npos)
      << t.run.err;
  auto found = test::run_cli_env(TABLES, "--json cube solve --moves " + shell_quote(seven) +
                                             " --max-length " + std::to_string(shortest));
  ASSERT_EQ(found.exit_code, 0) << found.err;
  EXPECT_EQ(found.json()["length"], shortest);
  EXPECT_TRUE(cube_solves(seven, found.json()["moves"]));
}

TEST(CubeLimits, DefaultSolvesNeverExceedGodsNumber) {
  ensure_cube_tables();
  // bench cube fails (exit 1) when a solution is over its ceiling (20 by default).
  auto r = test::run_cli_env(TABLES, "--json bench cube --count 300 --seed 5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LE(r.json()["max_length"].get<int>(), 20);
  EXPECT_EQ(r.json()["all_verified"], true);
  for (int seed = 1; seed <= 5; ++seed) {
    auto f = test::run_cli("--json cube random --seed " + std::to_string(seed));
    ASSERT_EQ(f.exit_code, 0);
    auto s =
        test::run_cli_env(TABLES, "--json cube solve " + f.json()["facelets"].get<std::string>());
    ASSERT_EQ(s.exit_code, 0) << s.err;
    EXPECT_LE(s.json()["length"].get<int>(), 20);
  }
}

TEST(CubeLimits, TheBudgetHasItsOwnNameAndTheTimeLimitIsTheGlobalOne) {
  ensure_cube_tables();
  for (const char* bad : {"0", "-1", "nan", "inf"}) {
    auto r = test::run_cli_env(TABLES, std::string("cube solve --moves \"R U\" --budget ") + bad);
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("--budget"), std::string::npos) << r.err;
  }
  auto r = test::run_cli_env(TABLES, "cube solve --moves \"R U\" --optimal --budget 1");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = test::run_cli_env(TABLES, "--json cube solve --moves \"R U F\" --budget 0.05");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["length"], 3);
  // `--time-limit` after the command is the global limit now (no option of the same name).
  r = test::run_cli_env(TABLES, "--json cube solve --moves \"R U\" --time-limit 30");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["length"], 2);
  // The two-phase solver's budget in bench cube too.
  r = test::run_cli_env(TABLES, "bench cube --count 1 --budget 0");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // The H48 table is the optimal solver's; over the memory budget it is refused before it is
  // built (3.6 GiB), with what it needs.
  r = test::run_cli_env(TABLES, "bench cube --count 1 --h48");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--h48 is a table of the optimal solver"), std::string::npos) << r.err;
  r = test::run_cli_env(TABLES, "--memory 1000 bench cube --count 1 --optimal --h48");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("H48 table"), std::string::npos) << r.err;
  // With bench's own --memory, the largest that fits; below the smallest (h7), refused with it.
  r = test::run_cli_env(TABLES, "bench cube --count 1 --optimal --h48 --memory 3000");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("H48 table (h7"), std::string::npos) << r.err;
  // Without --h48, --memory takes the big table that fits, never an H48 one (which would fit
  // here): the build starts (its note names it) and stops at the time limit. (On a busy machine
  // the limit may come before the note: then only the absence of H48 is checked.)
  r = test::run_cli_env(TABLES, "--time-limit 1 bench cube --count 1 --optimal --memory 4000");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err.find("h48"), std::string::npos) << r.err;
  if (r.err.find("building cube-3x3x3") != std::string::npos) {
    EXPECT_NE(r.err.find("building cube-3x3x3 optimal-flipslice"), std::string::npos) << r.err;
  }
}

TEST(CubeLimits, BenchStoppedByTheTimeLimitReportsTheCubesSolved) {
  CubeSession cube;
  Stopwatch watch;
  auto r = cube.call({{"count", 1000000}}, 1.0, "cube", "bench");
  EXPECT_LT(watch.seconds(), 2.5);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_TRUE(r->stopped.has_value());
  const nlohmann::json& j = r->json;
  EXPECT_EQ(j["complete"], false);
  EXPECT_GT(j["solved"].get<std::uint64_t>(), 0u);
  EXPECT_LT(j["solved"].get<std::uint64_t>(), 1000000u);
  EXPECT_LE(j["max_length"].get<int>(), 20);
}

// One of Korf's two hardest 15-puzzle instances (#60, 66 moves to the blank-first goal): long
// with the 5-5-5 tables.
const std::string HARD_15 = "'11 14 13 1 2 3 12 4 15 7 9 5 10 6 8 0' --goal blank-first";
const std::string HARD_15_TILES = "11 14 13 1 2 3 12 4 15 7 9 5 10 6 8 0";

TEST(SlidingLimits, BidirectionalPerimeterIsCheckedAgainstTheMemoryBudget) {
  // 10^10 positions would take terabytes: refused before anything is stored.
  auto t = timed_cli("", "sliding solve --bidirectional --perimeter-states 10000000000 " + HARD_15);
  EXPECT_EQ(t.run.exit_code, 3) << t.run.err;
  EXPECT_NE(t.run.err.find("memory budget"), std::string::npos) << t.run.err;
  EXPECT_NE(t.run.err.find("perimeter"), std::string::npos) << t.run.err;
  EXPECT_LT(t.seconds, 5.0);
  // A budget of 64 MB refuses 5 million positions (about a gigabyte).
  auto r = test::run_cli("--memory 64 sliding solve --bidirectional --perimeter-states 5000000 " +
                         HARD_15);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("memory budget of"), std::string::npos) << r.err;
  // Within the budget, the perimeter's breadth-first search stops at the time limit.
  t = timed_cli("",
                "--time-limit 0.5 --memory 2000 sliding solve --bidirectional "
                "--perimeter-states 3000000 --heuristic manhattan " +
                    HARD_15);
  EXPECT_EQ(t.run.exit_code, 3) << t.run.err;
  EXPECT_NE(t.run.err.find("time limit"), std::string::npos) << t.run.err;
  EXPECT_LT(t.seconds, 2.5);
}

TEST(SlidingLimits, PatternDatabaseSolverHonoursTheTimeLimit) {
  // The 5-5-5 tables are small; solving the hardest instance with them takes minutes.
  auto warm = test::run_cli_env(TABLES, "-q sliding bound --partition 5-5-5 " + HARD_15);
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  auto t = timed_cli(
      TABLES, "--json --time-limit 1 sliding solve --partition 5-5-5 --threads 1 " + HARD_15);
  EXPECT_EQ(t.run.exit_code, 3) << t.run.err;
  EXPECT_NE(t.run.err.find("time limit"), std::string::npos) << t.run.err;
  EXPECT_LT(t.seconds, 2.5);
  // What it knew: no solution, and the bound proven so far (between the start's bound, 48 by
  // `sliding bound`, and the published optimum, 66).
  const nlohmann::json j = t.run.json();
  EXPECT_EQ(j["complete"], false);
  EXPECT_EQ(j["optimal"], false);
  EXPECT_GE(j["lower_bound"].get<int>(), 48);
  EXPECT_LE(j["lower_bound"].get<int>(), 66);
  // Two search threads (parallel iterations) stop as well.
  t = timed_cli(TABLES, "--time-limit 1 sliding solve --partition 5-5-5 --threads 2 " + HARD_15);
  EXPECT_EQ(t.run.exit_code, 3) << t.run.err;
  EXPECT_LT(t.seconds, 2.5);
}

TEST(SlidingLimits, PatternDatabaseSearchStopsOnTheStopToken) {
  std::stop_source source;
  RunContext run;
  run.with_stop_token(source.get_token());
  TableStore store(std::string(PERMUZZLE_TEST_TABLES_DIR));
  sliding::PdbOptions options;
  options.tables = &store;
  options.partition = "5-5-5";
  options.threads = 1;
  options.run = &run;
  const sliding::BoardSize size{4, 4};
  auto start = sliding::parse_position(HARD_15_TILES, size);
  ASSERT_TRUE(start.ok());
  auto solver = sliding::PdbSolver::create(size, options);
  ASSERT_TRUE(solver.ok()) << solver.error().describe();
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    source.request_stop();
  });
  Stopwatch watch;
  auto r = solver->solve(*start, sliding::blank_first_goal(size));
  const double seconds = watch.seconds();
  stopper.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Cancelled);
  EXPECT_LT(seconds, 1.5);
}

TEST(SlidingLimits, TableBuildsStopAndAreCheckedAgainstTheBudget) {
  const auto dir = std::filesystem::temp_directory_path() / "permuzzle-limits-pdb";
  std::filesystem::remove_all(dir);
  const sliding::BoardSize size{4, 4};
  auto start = sliding::parse_position(HARD_15_TILES, size);
  ASSERT_TRUE(start.ok());
  // Stopped while the (not cached) 6-6-3 tables are built.
  {
    std::stop_source source;
    source.request_stop();
    RunContext run;
    run.with_stop_token(source.get_token());
    TableStore store(dir.string());
    sliding::PdbOptions options;
    options.tables = &store;
    options.partition = "6-6-3";
    options.run = &run;
    Stopwatch watch;
    auto r = sliding::solve_with_pdb(size, *start, sliding::blank_first_goal(size), options);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::Cancelled) << r.error().describe();
    EXPECT_LT(watch.seconds(), 2.0);
  }
  // A build over the budget is refused before it allocates: the 7-tile table's build needs about
  // 90 MB (search array and table), the 8-tile one 1.7 GB.
  {
    RunContext run;
    run.with_memory_budget(std::uint64_t(64) << 20);
    TableStore store(dir.string());
    sliding::PdbOptions options;
    options.tables = &store;
    options.run = &run;
    Stopwatch watch;
    auto r = sliding::solve_with_pdb(size, *start, sliding::blank_first_goal(size), options);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::LimitExceeded) << r.error().describe();
    EXPECT_NE(r.error().message.find("memory budget"), std::string::npos);
    EXPECT_LT(watch.seconds(), 5.0);
  }
  std::filesystem::remove_all(dir);
  // The command checks the tables' own size first (288 MB for 7-8).
  auto cli = test::run_cli("--tables none --memory 100 sliding solve " + HARD_15);
  EXPECT_EQ(cli.exit_code, 3) << cli.err;
  EXPECT_NE(cli.err.find("pattern tables"), std::string::npos) << cli.err;
}

TEST(BfsLimits, SlidingBfsStoppedAnswersItsPartialHistogram) {
  auto t = timed_cli("", "--time-limit 1 --json sliding bfs 3x4");
  EXPECT_EQ(t.run.exit_code, 3) << t.run.err;
  EXPECT_LT(t.seconds, 3.0);
  const nlohmann::json j = t.run.json();
  EXPECT_EQ(j["complete"], false);
  const auto histogram = j["histogram"].get<std::vector<std::uint64_t>>();
  ASSERT_GE(histogram.size(), 1u);
  EXPECT_EQ(histogram[0], 1u);
  if (histogram.size() > 1) EXPECT_EQ(histogram[1], 2u);  // the blank in a corner: 2 moves
  std::uint64_t sum = 0;
  for (auto h : histogram) sum += h;
  EXPECT_EQ(j["states"], sum);
  // 3x4 needs 60 MB (2 bits for each of the 12!/2 positions of a parity class).
  auto r = test::run_cli("--memory 50 sliding bfs 3x4");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("memory budget"), std::string::npos) << r.err;
  // Unchanged answer when not stopped.
  r = test::run_cli("--json sliding bfs 3x3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["states"], 181440);
  EXPECT_EQ(r.json()["max_distance"], 31);
  EXPECT_FALSE(r.json().contains("complete"));
}

TEST(BfsLimits, LoopoverBfsStoppedAnswersItsPartialHistogram) {
  // The search over every position (over symmetry classes 3x4 takes about a second).
  auto t = timed_cli("", "--time-limit 1 --json loopover bfs 3x4 --symmetry none");
  EXPECT_EQ(t.run.exit_code, 3) << t.run.err;
  EXPECT_LT(t.seconds, 3.0);
  const nlohmann::json j = t.run.json();
  EXPECT_EQ(j["complete"], false);
  const auto histogram = j["histogram"].get<std::vector<std::uint64_t>>();
  ASSERT_GE(histogram.size(), 1u);
  EXPECT_EQ(histogram[0], 1u);
  if (histogram.size() > 1) EXPECT_EQ(histogram[1], 14u);  // 3 rows, 4 columns, 2 ways
  std::uint64_t sum = 0;
  for (auto h : histogram) sum += h;
  EXPECT_EQ(j["states"], sum);
  // 3x4 needs 240 MB (4 bits for each of 12! positions); its symmetry classes 2.9 MB.
  auto r = test::run_cli("--memory 100 loopover bfs 3x4 --symmetry none");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("memory budget"), std::string::npos) << r.err;
  EXPECT_EQ(test::run_cli("--memory 100 -q loopover bfs 3x4").exit_code, 0);
}

TEST(LoopoverLimits, PiecePatternDatabaseBuildStopsAtTheTimeLimit) {
  // A fresh cache: the 4x4 piece pattern database (about 15 s) is built on first use.
  const auto dir = std::filesystem::temp_directory_path() / "permuzzle-limits-loopover";
  std::filesystem::remove_all(dir);
  auto random = test::run_cli("--json loopover random 4x4 --seed 3");
  ASSERT_EQ(random.exit_code, 0) << random.err;
  const std::string position = random.json()["positions"][0];
  auto t = timed_cli("PERMUZZLE_TABLES=" + shell_quote(dir.string()),
                     "--time-limit 1 loopover solve --size 4x4 " + shell_quote(position));
  EXPECT_EQ(t.run.exit_code, 3) << t.run.err;
  EXPECT_NE(t.run.err.find("time limit"), std::string::npos) << t.run.err;
  EXPECT_LT(t.seconds, 2.5);
  // The budget is checked before the 260 MB table is allocated (over it, `loopover solve
  // --pattern auto` goes on with the walking distance alone).
  RunContext run;
  run.with_memory_budget(std::uint64_t(100) << 20);
  loopover::PiecePdbOptions options;
  options.run = &run;
  Stopwatch watch;
  auto pdb =
      loopover::PiecePdb::build(loopover::BoardSize{4, 4}, {0, 1, 2, 3, 4, 5, 6, 7}, options);
  ASSERT_FALSE(pdb.ok());
  EXPECT_EQ(pdb.error().kind, ErrorKind::LimitExceeded);
  EXPECT_NE(pdb.error().message.find("memory budget"), std::string::npos) << pdb.error().message;
  EXPECT_LT(watch.seconds(), 1.0);
  std::filesystem::remove_all(dir);
}

TEST(TriloopLimits, FirstUseTableBuildStopsAtTheTimeLimit) {
  // A fresh cache: the 4-row up-orbit table (3.6 M entries, about 5 s of CPU) is built first.
  const auto dir = std::filesystem::temp_directory_path() / "permuzzle-limits-triloop";
  std::filesystem::remove_all(dir);
  const std::string position = "10 16 13 7 14 11 2 15 5 4 8 9 3 1 6 12";
  auto t = timed_cli("PERMUZZLE_TABLES=" + shell_quote(dir.string()),
                     "--time-limit 0.5 triloop solve --rows 4 " + shell_quote(position));
  EXPECT_EQ(t.run.exit_code, 3) << t.run.err;
  EXPECT_NE(t.run.err.find("time limit"), std::string::npos) << t.run.err;
  EXPECT_LT(t.seconds, 2.5);
  std::filesystem::remove_all(dir);
}

// The conformance examples of this area's commands: each invalid example is refused as invalid
// input, and every expensive command but those whose cost is a first-use table says how to make
// it run long.
TEST(Conformance, InvalidExamplesOfTheSearchCommandsAreRefusedAsInvalidInput) {
  const api::Registry registry = api::make_registry();
  TableStore store;  // nothing here gets as far as a table
  const std::set<std::string> families = {"cube", "cube2", "sliding", "loopover", "triloop"};
  const std::set<std::string> benches = {"cube", "korf100", "korf24", "loopover", "loopover-fast"};
  int checked = 0;
  for (const api::Command& c : registry.commands()) {
    // (`cube export` and `loopover export` are the definition files' commands, not this area's.)
    const bool mine = (families.count(c.family) && c.verb != "export") ||
                      (c.family == "bench" && benches.count(c.verb));
    if (!mine) continue;
    EXPECT_FALSE(c.invalid_examples.empty()) << c.family << " " << c.verb;
    // Four are expensive for a first-use table build only (see their registration).
    const std::set<std::string> first_use_only = {"cube scramble", "cube2 solve", "triloop solve",
                                                  "loopover bound"};
    if (c.cost == api::Cost::Expensive && !first_use_only.count(c.family + " " + c.verb)) {
      EXPECT_FALSE(c.hard_example.is_null()) << c.family << " " << c.verb;
    }
    for (const nlohmann::json& params : c.invalid_examples) {
      api::Session session{store, RunContext{}, api::default_data_dir()};
      session.run.with_time_limit(std::chrono::seconds(5));
      auto r = registry.call(c.family, c.verb, params, session);
      ASSERT_FALSE(r.ok()) << c.family << " " << c.verb << " " << params.dump();
      EXPECT_EQ(r.error().kind, ErrorKind::InvalidInput)
          << c.family << " " << c.verb << " " << params.dump() << ": " << r.error().describe();
      ++checked;
    }
  }
  EXPECT_GE(checked, 30);
}

}  // namespace limits_search_test
}  // namespace permuzzle

namespace permuzzle {
namespace limits_search_test {

// What the conformance suite does with this area's hard examples (1 s limit, 256 MB budget),
// in-process and with the test tables: run by hand with --gtest_also_run_disabled_tests (the
// suite over every command is tests/conformance_test.cpp).
TEST(Conformance, DISABLED_HardExamplesOfTheSearchCommandsStopWithinTheLimit) {
  const api::Registry registry = api::make_registry();
  TableStore store(std::string(PERMUZZLE_TEST_TABLES_DIR));
  const std::set<std::string> families = {"cube", "cube2", "sliding", "loopover", "triloop"};
  const std::set<std::string> benches = {"cube", "korf100", "korf24", "loopover", "loopover-fast"};
  for (const api::Command& c : registry.commands()) {
    const bool mine = (families.count(c.family) && c.verb != "export") ||
                      (c.family == "bench" && benches.count(c.verb));
    if (!mine || c.hard_example.is_null()) continue;
    api::Session session{store, RunContext{}, api::default_data_dir()};
    session.run.with_time_limit(std::chrono::seconds(1));
    session.run.with_memory_budget(std::uint64_t(256) << 20);
    Stopwatch watch;
    auto r = registry.call(c.family, c.verb, c.hard_example, session);
    const double seconds = watch.seconds();
    const bool stopped =
        r.ok() ? r->stopped.has_value() : r.error().kind == ErrorKind::LimitExceeded;
    std::printf("%-8s %-14s %6.2f s  %s\n", c.family.c_str(), c.verb.c_str(), seconds,
                r.ok() ? (r->stopped ? ("stopped: " + r->stopped->message).c_str() : "answered")
                       : r.error().describe().c_str());
    EXPECT_TRUE(stopped) << c.family << " " << c.verb;
    EXPECT_LT(seconds, 1.5) << c.family << " " << c.verb;
  }
}

}  // namespace limits_search_test
}  // namespace permuzzle
