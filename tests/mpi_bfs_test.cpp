// The distributed BFS under a real mpirun (search/bfs_distributed.hpp, apps/cli/mpi_cluster.cpp):
// for 1 to 4 processes on this machine (--oversubscribe) the answers of `def bfs`, `sliding bfs`
// and `loopover bfs` are exactly those of the one-process run (and, for the 2x2x2 and the
// 8-puzzle, the published counts); a job
// whose process 1 dies in the middle of a level resumes from its checkpoint, with the same or
// another number of processes; the message buffers stay within their budget.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

#include "cli_runner.hpp"
#include "def_test_data.hpp"

namespace permuzzle {
namespace mpi_bfs_test {

using Hist = std::vector<std::uint64_t>;

using def::test_data::data_file;

bool have_mpirun() {
  return std::system("command -v mpirun >/dev/null 2>&1") == 0;
}

// `permuzzle --json --tables none <args>` as P processes of one mpirun job (root may run it:
// the test machine's CI runs as root), each with one thread (a BFS command's --threads 1, unless
// `one_thread` is false for a command without that option).
// Each job gets a session directory of its own (Open MPI's orte_tmpdir_base): with the default
// one shared under /tmp, two jobs launched at once by parallel tests (or a job started where a
// killed job's directory was left) failed under load with "ORTE_ERROR_LOG ... session_dir.c
// ... File exists".
test::CliRun mpirun(int processes, const std::string& args, const std::string& env = "",
                    bool one_thread = true) {
  // (unique: this process's id and the clock)
  const std::filesystem::path session =
      std::filesystem::path(::testing::TempDir()) /
      ("ompi-" + std::to_string(::getpid()) + "-" +
       std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  std::filesystem::remove_all(session);
  std::filesystem::create_directories(session);
  const std::string prefix =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
      "OMPI_MCA_orte_tmpdir_base=" +
      session.string() + " " + env + " mpirun --oversubscribe --bind-to none -np " +
      std::to_string(processes);
  // run_cli_env puts the program after the environment: mpirun and its options go there.
  test::CliRun run = test::run_cli_env(
      prefix, "--json --tables none " + args + (one_thread ? " --threads 1" : ""));
  std::filesystem::remove_all(session);
  return run;
}

class MpiBfs : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_mpirun()) GTEST_SKIP() << "mpirun is not installed (make test installs openmpi-bin)";
  }
};

// Every P gives the one-process answer of `args` (a BFS command): the fields listed, and the
// distribution's own (`processes`, `bytes_sent`, a time per level). Returns the one-process JSON.
nlohmann::json expect_same_for_every_p(const std::string& args,
                                       const std::vector<std::string>& fields) {
  const test::CliRun one = test::run_cli("--json --tables none " + args);
  EXPECT_EQ(one.exit_code, 0) << one.err;
  if (one.exit_code != 0) return {};
  const nlohmann::json expected = one.json();
  EXPECT_FALSE(expected.contains("processes"));
  for (int p = 1; p <= 4; ++p) {
    SCOPED_TRACE(args + " with " + std::to_string(p) + " processes");
    const test::CliRun run = mpirun(p, args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    if (run.exit_code != 0) continue;
    const nlohmann::json got = run.json();  // exactly one JSON object: process 0 alone prints
    for (const std::string& field : fields) {
      EXPECT_TRUE(expected.contains(field)) << field;
      EXPECT_EQ(got[field], expected[field]) << field;
    }
    EXPECT_EQ(got["processes"], p);
    EXPECT_EQ(got["level_seconds"].size(), expected["histogram"].size());
    if (p == 1) {
      EXPECT_EQ(got["bytes_sent"], 0);
    } else {
      EXPECT_GT(got["bytes_sent"].get<std::uint64_t>(), 0u);
    }
  }
  return expected;
}

// The same for `def bfs` of a data file: histogram, God's number, the antipodes as move
// sequences (walked back through the slices of all processes), checked against a published
// histogram where there is one.
void expect_same_for_every_p(const std::string& file, const std::string& options,
                             const Hist* published = nullptr) {
  const nlohmann::json expected =
      expect_same_for_every_p("def bfs " + data_file(file) + " " + options,
                              {"histogram", "max_distance", "antipodes", "complete", "bits"});
  if (published) {
    EXPECT_EQ(expected["histogram"].get<Hist>(), *published);
  }
}

// The 8-puzzle: every field of the one-process answer but the time, for every P; OEIS A089473
// (the 8-puzzle's positions per distance from the goal with the blank in a corner).
TEST_F(MpiBfs, EightPuzzleSameForEveryProcessCountAndOeis) {
  const nlohmann::json one = expect_same_for_every_p(
      "sliding bfs 3x3 --antipodes 2",
      {"histogram", "max_distance", "antipodes", "antipodes_count", "states", "arrangements",
       "mean_distance", "components", "component_sizes", "components_method"});
  const Hist a089473 = {1,     2,     4,     8,     16,    20,   39,   62,   116,   152,   286,
                        396,   748,   1024,  1893,  2512,  4485, 5638, 9529, 10878, 16993, 17110,
                        23952, 20224, 24047, 15578, 14560, 6274, 3910, 760,  221,   2};
  EXPECT_EQ(one["histogram"].get<Hist>(), a089473);
  EXPECT_EQ(one["components"], 2);
}

// The 8-puzzle from the centre goal over its 8 symmetries (the class index of
// sliding/symmetry_classes.hpp, sliced over the processes; the antipodes are orbits of the
// classes found in every slice): the one-process answer for every P, and the positions' answer.
TEST_F(MpiBfs, EightPuzzleClassesSameForEveryProcessCount) {
  const std::string goal = " --goal '1 2 3 4 0 5 6 7 8' --antipodes 5";
  const nlohmann::json one = expect_same_for_every_p(
      "sliding bfs 3x3 --symmetry on" + goal,
      {"histogram", "max_distance", "antipodes", "antipodes_count", "states", "symmetries",
       "classes", "class_histogram", "components", "component_sizes"});
  EXPECT_EQ(one["symmetries"], 8);
  const test::CliRun positions = test::run_cli("--json sliding bfs 3x3 --symmetry none" + goal);
  ASSERT_EQ(positions.exit_code, 0) << positions.err;
  for (const char* field : {"histogram", "antipodes", "antipodes_count", "component_sizes"}) {
    EXPECT_EQ(one[field], positions.json()[field]) << field;
  }
  EXPECT_EQ(one["antipodes_count"], 148);
}

// The built-in 3x3 Loopover for every P, and the same histogram as its definition file's BFS
// (a second, independent model: on three columns a half turn of a row is one move either way,
// so the file's half-turn metric is the built-in single-tile metric).
TEST_F(MpiBfs, BuiltInLoopoverSameForEveryProcessCountAndAsItsDefinitionFile) {
  // Over its 72 symmetries (the default) and over every position.
  const nlohmann::json one = expect_same_for_every_p(
      "loopover bfs 3x3",
      {"histogram", "max_distance", "antipodes_count", "states", "mean_distance",
       "sample_antipodes", "metric", "symmetries", "classes", "class_histogram"});
  EXPECT_EQ(one["symmetries"], 72);
  const nlohmann::json none = expect_same_for_every_p(
      "loopover bfs 3x3 --symmetry none",
      {"histogram", "max_distance", "antipodes_count", "states", "sample_antipodes"});
  EXPECT_EQ(one["histogram"], none["histogram"]);
  EXPECT_EQ(one["antipodes_count"], none["antipodes_count"]);
  const test::CliRun def = test::run_cli("--json --tables none def bfs " +
                                         data_file("loopover-3x3.tws") + " --antipodes 0");
  ASSERT_EQ(def.exit_code, 0) << def.err;
  EXPECT_EQ(one["histogram"], def.json()["histogram"]);
  // 9!/2: every move is a 3-cycle, so the even arrangements are the reachable ones.
  EXPECT_EQ(one["states"], 181440);
}

TEST_F(MpiBfs, LoopoverThreeByThreeSameForEveryProcessCount) {
  expect_same_for_every_p("loopover-3x3.tws", "--antipodes 3");
}

TEST_F(MpiBfs, TwoByTwoByTwoSameForEveryProcessCountAndOeis) {
  // OEIS A079761: the 2x2x2 (one corner fixed, half-turn metric) per distance.
  const Hist a079761 = {1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644};
  expect_same_for_every_p("2x2x2-fixed-corner.tws", "--antipodes 2", &a079761);
}

TEST_F(MpiBfs, PyraminxWithoutTipsSameForEveryProcessCount) {
  // 933,120 positions (pyraminx-tips.tws has 81 times as many: too slow for every test run).
  expect_same_for_every_p("pyraminx.tws", "--antipodes 2");
}

TEST_F(MpiBfs, ProcessKilledMidLevelResumesFromItsCheckpoint) {
  const std::string dir = ::testing::TempDir() + "/mpi-bfs-checkpoint";
  std::filesystem::remove_all(dir);
  const std::string args = "def bfs " + data_file("2x2x2-fixed-corner.tws") +
                           " --antipodes 0 --symmetry none --checkpoint " + dir;
  const test::CliRun one = test::run_cli("--json --tables none " + args + " --threads 1");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  // Process 1 dies when it sends its 40th batch (batches of at most 65,536 positions: in the
  // middle of the large levels), as a crashed node would: the job fails.
  const test::CliRun killed = mpirun(2, args, "PERMUZZLE_TEST_DIE_AFTER_BATCHES=40");
  EXPECT_NE(killed.exit_code, 0);
  EXPECT_EQ(killed.out.find("histogram"), std::string::npos);
  // Resumed by 2 processes: the same histogram, from a level after the start.
  const test::CliRun resumed = mpirun(2, args + " --resume");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(resumed.json()["histogram"], one.json()["histogram"]);
  const int from = resumed.json()["resumed_from"].get<int>();
  EXPECT_GT(from, 0);
  EXPECT_LT(from, one.json()["max_distance"].get<int>());
  // The checkpoint the resumed job left (its last level) is read by 3 processes and by 1.
  for (int p : {3, 1}) {
    const test::CliRun again = mpirun(p, args + " --resume");
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(again.json()["histogram"], one.json()["histogram"]);
    EXPECT_EQ(again.json()["resumed_from"], one.json()["max_distance"]);
  }
  std::filesystem::remove_all(dir);
}

// A job of 2 processes running `search` (a BFS command) with checkpoints in a directory named
// `name`, killed when process 1 sends its 12th batch, resumed by 2 and by 3 processes: the
// one-process answer's histogram and `antipodes_field`, from a level after the start (and,
// with 2 processes, before the end).
void expect_killed_job_resumes(const std::string& name, const std::string& search,
                               const std::string& antipodes_field) {
  const std::string dir = ::testing::TempDir() + "/" + name;
  std::filesystem::remove_all(dir);
  const std::string args = search + " --checkpoint " + dir;
  const test::CliRun one = test::run_cli("--json --tables none " + search);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const test::CliRun killed = mpirun(2, args, "PERMUZZLE_TEST_DIE_AFTER_BATCHES=12");
  EXPECT_NE(killed.exit_code, 0);
  EXPECT_EQ(killed.out.find("histogram"), std::string::npos);
  for (int p : {2, 3}) {
    const test::CliRun resumed = mpirun(p, args + " --resume");
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    EXPECT_EQ(resumed.json()["histogram"], one.json()["histogram"]);
    EXPECT_EQ(resumed.json()[antipodes_field], one.json()[antipodes_field]);
    const int from = resumed.json()["resumed_from"].get<int>();
    EXPECT_GT(from, 0);
    if (p == 2) EXPECT_LT(from, one.json()["max_distance"].get<int>());
  }
  std::filesystem::remove_all(dir);
}

// The same for the sliding puzzle's own command (its checkpoints are search/bfs_checkpoint's too).
TEST_F(MpiBfs, SlidingJobKilledMidLevelResumesFromItsCheckpoint) {
  expect_killed_job_resumes("mpi-sliding-checkpoint", "sliding bfs 2x5 --reachable-only",
                            "antipodes");
}

// And for Loopover's (its 4-bit table, 10! positions of the 2x5 board).
TEST_F(MpiBfs, LoopoverJobKilledMidLevelResumesFromItsCheckpoint) {
  expect_killed_job_resumes("mpi-loopover-checkpoint", "loopover bfs 2x5", "sample_antipodes");
}

TEST_F(MpiBfs, MessageBuffersStayWithinTheirBudget) {
  // 2 MB for 4 processes: small batches, many in flight, and the budget still holds.
  const test::CliRun run = mpirun(
      4, "def bfs " + data_file("2x2x2-fixed-corner.tws") + " --antipodes 0 --message-buffer 2");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = run.json();
  EXPECT_EQ(j["message_buffer_bytes"], 2u << 20);
  EXPECT_GT(j["message_buffer_peak_bytes"].get<std::uint64_t>(), 0u);
  EXPECT_LE(j["message_buffer_peak_bytes"].get<std::uint64_t>(), 2u << 20);
  EXPECT_EQ(j["histogram"].back(), 2644);
}

// A command that does not share its work is refused under a job of several processes (each would
// run the whole of it), and runs as usual with one process.
TEST_F(MpiBfs, OtherCommandsAreRefusedUnderSeveralProcesses) {
  const test::CliRun two = mpirun(2, "sliding random --size 3x3 --seed 5 --count 3", "", false);
  EXPECT_EQ(two.exit_code, 2) << two.out;
  EXPECT_NE(two.err.find("does not run over 2 processes"), std::string::npos) << two.err;
  const test::CliRun one = mpirun(1, "sliding random --size 3x3 --seed 5 --count 3", "", false);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const test::CliRun alone = test::run_cli("--json sliding random --size 3x3 --seed 5 --count 3");
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_EQ(one.json()["positions"], alone.json()["positions"]);
  EXPECT_EQ(one.json()["positions"].size(), 3u);
}

}  // namespace mpi_bfs_test
}  // namespace permuzzle
