// The sliding family in the API layer: what `sliding bound`/`solve` say before building tables,
// the solver's own checks, `sliding play --json`, and the checks of `bench korf100`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "cli_runner.hpp"
#include "permuzzle/api/registry.hpp"
#include "permuzzle/puzzles/sliding/pdb.hpp"

namespace permuzzle::test {
namespace sliding_api_test {

namespace fs = std::filesystem;

const std::string SPEC = shell_quote("11 2 12 1 / 6 7 3 8 / 9 5 0 4 / 14 10 13 15");
// The small (5-5-5) tables shared with sliding_cli_test.cpp, never the user's cache.
const std::string SHARED_TABLES = std::string(PERMUZZLE_TEST_TABLES_DIR) + "/sliding-core";
const std::string SMALL = " --tables " + shell_quote(SHARED_TABLES) + " --partition 5-5-5";

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() /
          ("permuzzle-sliding-api-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

std::string write_file(const std::string& name, const std::string& content) {
  std::string path = temp_path(name);
  std::ofstream(path) << content;
  return path;
}

// The first `lines` lines of Korf's instance file.
std::string korf_lines(int lines) {
  std::ifstream in(std::string(PERMUZZLE_DATA_DIR) + "/korf100.txt");
  std::string out, line;
  for (int i = 0; i < lines && std::getline(in, line); ++i) out += line + "\n";
  return out;
}

TEST(SlidingApi, TableCostOf78MatchesTheCacheFilesAndTheBuilderBlocks) {
  // Payloads of the two cache files (C(16,7) * 7! / 2 and C(16,8) * 8! / 2 bytes of 4-bit
  // entries), and the builder's search array of the 8-tile table: 35,347 blocks (docs/
  // sliding-pdb.md) x 8! placements, one byte each.
  auto cost = sliding::pdb_table_cost({4, 4});
  ASSERT_TRUE(cost) << cost.error().describe();
  EXPECT_EQ(cost->partition, "7-8");
  EXPECT_EQ(cost->table_bytes, 11440ull * 5040 / 2 + 12870ull * 40320 / 2);
  EXPECT_EQ(cost->build_peak_bytes, cost->table_bytes + 35347ull * 40320);
  auto korf = sliding::pdb_table_cost({5, 5});
  ASSERT_TRUE(korf);
  EXPECT_EQ(korf->partition, "6-6-6-6");
  EXPECT_FALSE(sliding::pdb_table_cost({3, 3}));
  EXPECT_FALSE(sliding::pdb_table_cost({4, 4}, "9-7"));
}

TEST(SlidingApi, BoundSaysWhatItBuildsBeforeBuildingIt) {
  const std::string dir = temp_path("tables");
  fs::remove_all(dir);
  auto first = run_cli("sliding bound " + SPEC + " --tables " + shell_quote(dir) +
                       " --partition 5-5-5 --json");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const std::string announce = "building the 5-5-5 pattern tables for 4x4";
  const auto said = first.err.find(announce);
  ASSERT_NE(said, std::string::npos) << first.err;
  EXPECT_NE(first.err.find("once, cached in " + dir, said), std::string::npos) << first.err;
  // Said once, before the first line of the builder itself.
  EXPECT_EQ(first.err.find(announce, said + 1), std::string::npos) << first.err;
  const auto built = first.err.find("sliding-4x4 pattern");
  ASSERT_NE(built, std::string::npos) << first.err;
  EXPECT_LT(said, built);
  EXPECT_EQ(first.json()["pdb"]["partition"], "5-5-5");
  // Cached now: loaded, nothing announced.
  auto second = run_cli("sliding bound " + SPEC + " --tables " + shell_quote(dir) +
                        " --partition 5-5-5 --json");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.err.find("building"), std::string::npos) << second.err;
  EXPECT_NE(second.err.find("loaded"), std::string::npos) << second.err;
  EXPECT_EQ(second.json()["pdb"], first.json()["pdb"]);
  fs::remove_all(dir);
}

TEST(SlidingApi, UnsolvableIsRefusedBeforeAnyTableAndSolveIsVerifiedOnce) {
  const std::string dir = temp_path("untouched");
  fs::remove_all(dir);
  TableStore store(dir);
  api::Session session{store, RunContext{}, api::default_data_dir()};
  const api::Registry registry = api::make_registry();
  // 11 and 2 exchanged: odd, cannot reach the goal.
  auto bad = registry.call("sliding", "solve",
                           {{"position", "2 11 12 1 / 6 7 3 8 / 9 5 0 4 / 14 10 13 15"}}, session);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::Unsolvable);
  EXPECT_NE(bad.error().message.find("cannot reach the goal"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir) && !fs::is_empty(dir));  // no table was built or saved
  // The auto heuristic on 3x3 (no pattern databases): linear conflict; 31 moves (the 8-puzzle's
  // antipode, BFS), verified by the solver's own replay.
  auto ok = registry.call("sliding", "solve", {{"position", "8 6 7 2 5 4 3 0 1"}}, session);
  ASSERT_TRUE(ok) << ok.error().describe();
  EXPECT_EQ(ok->json["length"], 31);
  EXPECT_EQ(ok->json["verified"], true);
  EXPECT_NE(ok->json["method"].get<std::string>().find("linear-conflict"), std::string::npos);
  fs::remove_all(dir);
}

TEST(SlidingApi, PlayRefusesJson) {
  auto r = run_cli("sliding play " + shell_quote("1 2 3 4 5 6 7 0 8") + " --json", "R\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("play is interactive; --json is not supported (use apply, solve or random)"),
            std::string::npos)
      << r.err;
}

TEST(SlidingApi, BenchKorf100ChecksPublishedLengths) {
  // Instances 1 and 2 of Korf's file: 57 and 55 moves.
  const std::string good = write_file("good.txt", korf_lines(2));
  // Named through "..": the header names the file really read.
  const std::string detour = fs::path(good).parent_path().string() + "/../" +
                             fs::path(good).parent_path().filename().string() + "/" +
                             fs::path(good).filename().string();
  auto r = run_cli("bench korf100 --file " + shell_quote(detour) + SMALL);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string real = fs::canonical(good).string();
  EXPECT_EQ(r.out.rfind(real + " with pattern databases 5-5-5", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("all match the published optima"), std::string::npos) << r.out;
  auto j = run_cli("bench korf100 --file " + shell_quote(good) + SMALL + " --json -q");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(j.json()["instances"], 2);
  EXPECT_EQ(j.json()["file"], real);
  // Two instances at once by default: every hardware thread (no cap), at most one per instance.
  EXPECT_EQ(j.json()["jobs"], std::min(2u, std::max(1u, std::thread::hardware_concurrency())));

  // A published length that the optimal solver does not reproduce: the check fails (exit 1).
  std::string lines = korf_lines(2);
  lines.replace(lines.find(" 57\n"), 4, " 59\n");
  const std::string wrong = write_file("wrong.txt", lines);
  auto w = run_cli("bench korf100 --file " + shell_quote(wrong) + SMALL + " --json -q");
  EXPECT_EQ(w.exit_code, 1) << w.err;
  EXPECT_TRUE(w.out.empty()) << w.out;
  EXPECT_NE(w.err.find("57 moves, published 59"), std::string::npos) << w.err;

  // Empty, missing or unreadable instance files and --first 0 are bad input (exit 2).
  const std::string empty = write_file("empty.txt", "\n\n");
  for (const std::string& args :
       {"--file " + shell_quote(empty), "--file " + shell_quote(temp_path("missing.txt")),
        "--file " + shell_quote(fs::temp_directory_path().string()), std::string("--first 0")}) {
    auto e = run_cli("bench korf100 " + args + SMALL + " --json -q");
    EXPECT_EQ(e.exit_code, 2) << args << "\n" << e.err;
    EXPECT_TRUE(e.out.empty()) << args;
  }
  auto first0 = run_cli("bench korf24 --first 0 --json");
  EXPECT_EQ(first0.exit_code, 2);
  EXPECT_NE(first0.err.find("first"), std::string::npos);
  for (const std::string& f : {good, wrong, empty}) fs::remove(f);
}

}  // namespace sliding_api_test
}  // namespace permuzzle::test
