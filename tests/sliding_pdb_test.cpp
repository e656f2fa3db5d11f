// PDB solver checked against published optima (Korf 1985), the spec's example, an independent
// IDA* with the Manhattan bound written here, and damaged table files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <tuple>

#include "cli_runner.hpp"
#include "permuzzle/puzzles/sliding/instances.hpp"
#include "permuzzle/puzzles/sliding/pdb.hpp"

namespace permuzzle::sliding {
namespace sliding_pdb_test {

const std::string TABLES = std::string(PERMUZZLE_TEST_TABLES_DIR) + "/sliding-pdb";

// One store for the test process: solvers share the tables in memory, as in the CLI.
TableStore& test_tables() {
  static TableStore store(TABLES);
  return store;
}

PdbOptions fast_options() {
  PdbOptions o;
  o.tables = &test_tables();
  o.partition = "5-5-5";  // builds in well under a second
  return o;
}

const PdbSolver& solver_555() {
  static PdbSolver solver = [] {
    auto s = PdbSolver::create({4, 4}, fast_options());
    EXPECT_TRUE(s.ok());
    return std::move(*s);
  }();
  return solver;
}

Position standard_goal(int n) {
  Position g(n);
  std::iota(g.begin(), g.end(), 1);
  g.back() = 0;
  return g;
}
Position blank_first_goal(int n) {
  Position g(n);
  std::iota(g.begin(), g.end(), 0);
  return g;
}

// Independent reference: plain IDA* with the Manhattan distance on a 4x4 board.
class ManhattanIda {
 public:
  ManhattanIda(Position start, const Position& goal) : board_(std::move(start)) {
    for (int x = 0; x < 16; ++x) goal_cell_[goal[x]] = x;
  }
  int solve() {
    blank_ = static_cast<int>(std::find(board_.begin(), board_.end(), 0) - board_.begin());
    for (bound_ = manhattan();; bound_ += 2) {
      if (dfs(0, -1)) return bound_;
    }
  }

 private:
  int dist(int tile, int cell) const {
    int g = goal_cell_[tile];
    return std::abs(g / 4 - cell / 4) + std::abs(g % 4 - cell % 4);
  }
  int manhattan() const {
    int h = 0;
    for (int x = 0; x < 16; ++x)
      if (board_[x]) h += dist(board_[x], x);
    return h;
  }
  bool dfs(int g, int prev) {
    int h = manhattan();
    if (h == 0) return g == bound_;
    if (g + h > bound_) return false;
    const int delta[4] = {-4, 4, -1, 1};
    for (int d = 0; d < 4; ++d) {
      int to = blank_ + delta[d];
      if (to < 0 || to >= 16 || (d >= 2 && to / 4 != blank_ / 4) || to == prev) continue;
      int from = blank_;
      std::swap(board_[to], board_[from]);
      blank_ = to;
      bool found = dfs(g + 1, from);
      blank_ = from;
      std::swap(board_[to], board_[from]);
      if (found) return true;
    }
    return false;
  }
  Position board_;
  int goal_cell_[16] = {};
  int blank_ = 0;
  int bound_ = 0;
};

Position random_walk(Position p, int steps, std::mt19937& rng) {
  int blank = static_cast<int>(std::find(p.begin(), p.end(), 0) - p.begin());
  int prev = -1;
  for (int s = 0; s < steps;) {
    const int delta[4] = {-4, 4, -1, 1};
    int d = static_cast<int>(rng() % 4);
    int to = blank + delta[d];
    if (to < 0 || to >= 16 || (d >= 2 && to / 4 != blank / 4) || to == prev) continue;
    std::swap(p[to], p[blank]);
    prev = blank;
    blank = to;
    ++s;
  }
  return p;
}

Position replay(Position p, const SolveResult& r) {
  for (int tile : r.tiles) {
    auto t = std::find(p.begin(), p.end(), tile) - p.begin();
    auto b = std::find(p.begin(), p.end(), 0) - p.begin();
    EXPECT_EQ(std::abs(t / 4 - b / 4) + std::abs(t % 4 - b % 4), 1);
    std::swap(p[t], p[b]);
  }
  return p;
}

TEST(SlidingPdb, SpecExampleHasOptimalLength46) {
  // 11 2 12 1 / 6 7 3 8 / 9 5 . 4 / 14 10 13 15, standard goal (spec section 2).
  Position start = {11, 2, 12, 1, 6, 7, 3, 8, 9, 5, 0, 4, 14, 10, 13, 15};
  auto bound = solver_555().bound(start, standard_goal(16));
  ASSERT_TRUE(bound.ok());
  EXPECT_GE(bound->total, 22);  // additive PDBs dominate Manhattan (22 for this position)
  EXPECT_LE(bound->total, 46);
  EXPECT_EQ(bound->total % 2, 0);
  EXPECT_EQ(std::accumulate(bound->parts.begin(), bound->parts.end(), 0), bound->total);
  auto solved = solver_555().solve(start, standard_goal(16));
  ASSERT_TRUE(solved.ok()) << solved.error().message;
  EXPECT_EQ(solved->moves.size(), 46u);
  EXPECT_TRUE(solved->optimal);
  EXPECT_EQ(replay(start, *solved), standard_goal(16));
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Korf's 100 instances (published length, start), shortest first.
std::vector<std::pair<int, Position>> korf100_by_length() {
  auto parsed = parse_benchmark_instances(
      read_text(std::string(PERMUZZLE_DATA_DIR) + "/korf100.txt"), {4, 4}, "korf100.txt");
  EXPECT_TRUE(parsed.ok());
  std::vector<std::pair<int, Position>> all;
  if (parsed)
    for (const auto& inst : *parsed) all.push_back({inst.published, inst.start});
  std::stable_sort(all.begin(), all.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return all;
}

TEST(SlidingInstances, KorfFilesParseWithThePublishedSums) {
  // data/README: Korf's 100 lengths sum to 5305, Korf & Felner's 50 to 5039.
  for (auto [file, size, count, sum] : {std::tuple{"korf100.txt", BoardSize{4, 4}, 100, 5305},
                                        std::tuple{"korf24.txt", BoardSize{5, 5}, 50, 5039}}) {
    auto parsed = parse_benchmark_instances(read_text(std::string(PERMUZZLE_DATA_DIR) + "/" + file),
                                            size, file);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    ASSERT_EQ(static_cast<int>(parsed->size()), count);
    int total = 0;
    for (const auto& inst : *parsed) total += inst.published;
    EXPECT_EQ(total, sum) << file;
  }
}

TEST(SlidingInstances, BadLinesAreNamed) {
  const BoardSize s{2, 2};
  struct Case {
    const char* text;
    const char* expected;
  };
  for (const Case& c : {Case{"1 2 3 0 4\n1 1 2 0 3", "line 2"}, Case{"1 2 3 0", "4 numbers"},
                        Case{"1 2 3 7 4", "out of range"}, Case{"1 2 3 0 x", "not a number"},
                        Case{"1 2 3 0 0", "not positive"}, Case{"1 2 3 0 4 5", "6 numbers"}}) {
    auto parsed = parse_benchmark_instances(c.text, s, "mine.txt");
    ASSERT_FALSE(parsed.ok()) << c.text;
    EXPECT_NE(parsed.error().message.find(c.expected), std::string::npos) << parsed.error().message;
    EXPECT_NE(parsed.error().message.find("mine.txt"), std::string::npos);
  }
  auto ok = parse_benchmark_instances("\n3 1 2 0 6\n\n", s, "mine.txt");
  ASSERT_TRUE(ok.ok());
  ASSERT_EQ(ok->size(), 1u);
  EXPECT_EQ((*ok)[0].line, 2);
  EXPECT_EQ((*ok)[0].published, 6);
}

// Found by fuzz/fuzz_korf.cpp: iostreams read "31-" as 31 (and a lone "-" as nothing), and a
// length past INT_MAX was narrowed to another number (4294967297 became 1).
TEST(SlidingInstances, TrailingJunkAndHugeLengthsAreRefused) {
  const BoardSize s{2, 2};
  struct Case {
    const char* text;
    const char* expected;
  };
  for (const Case& c :
       {Case{"1 2 3 0 31-", "'31-' is not a number"}, Case{"1 2 3 0 31 -", "'-' is not a number"},
        Case{"1 2 3 0 4294967297", "too large"}, Case{"1 2 3 0 2147483648", "too large"},
        Case{"1 2 3 0 99999999999999999999", "too large"}}) {
    auto parsed = parse_benchmark_instances(c.text, s, "mine.txt");
    ASSERT_FALSE(parsed.ok()) << c.text;
    EXPECT_NE(parsed.error().message.find(c.expected), std::string::npos) << parsed.error().message;
  }
  auto largest = parse_benchmark_instances("1 2 3 0\t2147483647\r\n", s, "mine.txt");
  ASSERT_TRUE(largest.ok()) << largest.error().message;
  ASSERT_EQ(largest->size(), 1u);
  EXPECT_EQ((*largest)[0].published, 2147483647);
}

TEST(SlidingPdb, ShortestKorfInstancesHavePublishedLengths) {
  const auto all = korf100_by_length();
  ASSERT_EQ(all.size(), 100u);
  for (int i = 0; i < 6; ++i) {
    auto solved = solver_555().solve(all[i].second, blank_first_goal(16));
    ASSERT_TRUE(solved.ok());
    EXPECT_EQ(static_cast<int>(solved->moves.size()), all[i].first);
    EXPECT_EQ(replay(all[i].second, *solved), blank_first_goal(16));
  }
}

// Parallel iterations must not change anything but the time: same moves, same node count.
TEST(SlidingPdb, TwoThreadsFindTheSequentialSolutionWithTheSameNodeCount) {
  PdbOptions one = fast_options(), two = fast_options();
  one.search_threads = 1;
  two.search_threads = 2;
  auto sequential = PdbSolver::create({4, 4}, one);
  auto parallel = PdbSolver::create({4, 4}, two);
  ASSERT_TRUE(sequential.ok() && parallel.ok());
  const auto all = korf100_by_length();
  std::uint64_t largest = 0;
  for (int i = 0; i < 12; ++i) {
    auto a = sequential->solve(all[i].second, blank_first_goal(16));
    auto b = parallel->solve(all[i].second, blank_first_goal(16));
    ASSERT_TRUE(a.ok() && b.ok());
    largest = std::max(largest, b->nodes);
    EXPECT_EQ(static_cast<int>(b->moves.size()), all[i].first);
    EXPECT_EQ(a->moves, b->moves) << "instance with length " << all[i].first;
    EXPECT_EQ(a->nodes, b->nodes) << "instance with length " << all[i].first;
  }
  // Iterations after one of 20,000 nodes run in parallel: make sure some did.
  EXPECT_GT(largest, 200'000u);
}

TEST(SlidingPdb, BoundIsAdmissibleAndSolverOptimalAgainstManhattanIda) {
  std::mt19937 rng(12345);
  // Goals with the blank in a corner, on an edge and in the centre use different frames.
  std::vector<Position> goals = {standard_goal(16), blank_first_goal(16)};
  Position centre = standard_goal(16);
  std::swap(centre[5], centre[15]);
  goals.push_back(centre);
  Position edge = blank_first_goal(16);
  std::swap(edge[0], edge[2]);
  goals.push_back(edge);
  for (const auto& goal : goals) {
    for (int i = 0; i < 25; ++i) {
      Position start = random_walk(goal, 20 + i % 15, rng);
      int exact = ManhattanIda(start, goal).solve();
      auto bound = solver_555().bound(start, goal);
      ASSERT_TRUE(bound.ok());
      EXPECT_LE(bound->total, exact);
      auto solved = solver_555().solve(start, goal);
      ASSERT_TRUE(solved.ok());
      EXPECT_EQ(static_cast<int>(solved->moves.size()), exact);
      EXPECT_EQ(replay(start, *solved), goal);
    }
  }
}

TEST(SlidingPdb, ReflectedPositionHasTheSameBound) {
  // Reflecting a position and its goal about the main diagonal swaps the direct and the
  // reflected lookups, so the bound (their maximum) must not change.
  std::mt19937 rng(7);
  Position goal = blank_first_goal(16);
  for (int i = 0; i < 50; ++i) {
    Position s = random_walk(goal, 80, rng);
    Position r(16);
    auto t = [](int x) { return (x % 4) * 4 + x / 4; };
    for (int x = 0; x < 16; ++x) r[t(x)] = static_cast<std::uint8_t>(t(s[x]));
    auto a = solver_555().bound(s, goal);
    auto b = solver_555().bound(r, goal);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->total, b->total);
  }
}

TEST(SlidingPdb, BadInputIsRejected) {
  Position goal = standard_goal(16);
  Position unsolvable = goal;
  std::swap(unsolvable[0], unsolvable[1]);
  auto r = solve_with_pdb({4, 4}, unsolvable, goal, fast_options());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Unsolvable);
  EXPECT_FALSE(solve_with_pdb({3, 3}, standard_goal(9), standard_goal(9), fast_options()).ok());
  Position dup = goal;
  dup[3] = dup[4];
  EXPECT_FALSE(pdb_bound({4, 4}, dup, goal, fast_options()).ok());
  PdbOptions bad = fast_options();
  bad.partition = "9-6";
  EXPECT_FALSE(pdb_bound({4, 4}, goal, goal, bad).ok());
}

TEST(SlidingPdb, DamagedTableFilesAreRebuiltAndReported) {
  const std::string dir = TABLES + "-damage";
  std::filesystem::remove_all(dir);
  PdbOptions o = fast_options();
  // A new store for every step, so that each one goes to the disk (not to memory).
  TableStore first(dir), second(dir), third(dir);
  o.tables = &first;
  ASSERT_TRUE(PdbSolver::create({4, 4}, o).ok());
  std::vector<std::filesystem::path> files;
  for (auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".pztable") files.push_back(e.path());  // not the lock files
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 2u);
  // Flip one payload byte of the first file, truncate the second.
  {
    std::fstream f(files[0], std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-10, std::ios::end);
    char c = 0;
    f.read(&c, 1);
    f.seekp(-10, std::ios::end);
    c = static_cast<char>(c ^ 0x5a);
    f.write(&c, 1);
  }
  std::filesystem::resize_file(files[1], std::filesystem::file_size(files[1]) / 2);
  std::vector<std::string> messages;
  o.on_table_progress = [&](const std::string& what, double) { messages.push_back(what); };
  o.tables = &second;
  auto solver = PdbSolver::create({4, 4}, o);
  ASSERT_TRUE(solver.ok());
  int rebuilt = 0;
  for (auto& m : messages)
    rebuilt += m.find("rebuilding") != std::string::npos && m.find("corrupt") != std::string::npos;
  EXPECT_EQ(rebuilt, 2);
  // The rebuilt tables load cleanly and give the right answer.
  messages.clear();
  o.tables = &third;
  solver = PdbSolver::create({4, 4}, o);
  ASSERT_TRUE(solver.ok());
  for (auto& m : messages) EXPECT_EQ(m.find("rebuilding"), std::string::npos) << m;
  Position start = {11, 2, 12, 1, 6, 7, 3, 8, 9, 5, 0, 4, 14, 10, 13, 15};
  auto solved = solver->solve(start, standard_goal(16));
  ASSERT_TRUE(solved.ok());
  EXPECT_EQ(solved->moves.size(), 46u);
  std::filesystem::remove_all(dir);
}

TEST(SlidingPdbCli, BenchKorfJsonOnShortestInstances) {
  // The five shortest of Korf's 100 (instances 82, 79, 88, 97, 12 in data/korf100.txt).
  std::ifstream in(std::string(PERMUZZLE_DATA_DIR) + "/korf100.txt");
  std::vector<std::pair<int, std::string>> all;
  std::string line;
  while (std::getline(in, line)) {
    int len = std::stoi(line.substr(line.find_last_of(' ') + 1));
    all.push_back({len, line});
  }
  std::stable_sort(all.begin(), all.end());
  const std::string file = TABLES + "-short.txt";
  std::filesystem::create_directories(TABLES);
  {
    std::ofstream out(file);
    for (int i = 0; i < 5; ++i) out << all[i].second << "\n";
  }
  auto run = test::run_cli("--quiet bench korf100 --partition 5-5-5 --json --tables " + TABLES +
                           " --file " + file);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto j = run.json();
  EXPECT_EQ(j["instances"], 5);
  EXPECT_EQ(j["lengths_match"], true);
  EXPECT_GT(j["nodes"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(j["signature"].get<std::string>().size(), 16u);
  // Same instances, same node counts: the signature is deterministic.
  auto again = test::run_cli("--quiet bench korf100 --partition 5-5-5 --json --tables " + TABLES +
                             " --file " + file);
  EXPECT_EQ(again.json()["signature"], j["signature"]);
  auto bad = test::run_cli("bench korf100 --first 101 --tables " + TABLES);
  EXPECT_EQ(bad.exit_code, 2);
}

}  // namespace sliding_pdb_test
}  // namespace permuzzle::sliding
