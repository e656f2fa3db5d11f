// Piece pattern databases and the optimal solver that probes them, checked against facts from
// outside the code under test: whole-graph BFS distances (bfs.hpp) and the walking-distance-only
// solver. Only small tables are built here (the 4x4 8-piece table belongs to `permuzzle bench`).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/loopover/bfs.hpp"
#include "permuzzle/puzzles/loopover/optimal_solver.hpp"
#include "permuzzle/puzzles/loopover/piece_pdb.hpp"
#include "permuzzle/puzzles/loopover/symmetry.hpp"
#include "permuzzle/puzzles/loopover/walking_distance.hpp"

namespace permuzzle::loopover {
namespace loopover_pdb_test {

std::string metric_label(const ::testing::TestParamInfo<Metric>& info) {
  return info.param == Metric::Stm ? "Stm" : "Mtm";
}

// The whole-graph distances of a board (the independent reference of these tests).
Result<DistanceTable> bfs_distances(BoardSize size, Metric metric) {
  BfsOptions bo;
  bo.metric = metric;
  return DistanceTable::build(size, bo);
}

// The optimal solver with its automatically chosen pattern database (no table cache).
Result<OptimalSolver> auto_pattern_solver(BoardSize size, Metric metric) {
  OptimalSolverConfig config;
  config.pattern = PatternChoice::Auto;
  return OptimalSolver::create(size, metric, config);
}

// A position `length` random moves (metric moves) from the goal.
Position scramble(BoardSize size, int length, Rng& rng) {
  Position p = goal_position(size);
  for (int i = 0; i < length; ++i) {
    const Axis axis = rng() % 2 ? Axis::Row : Axis::Column;
    const int lines = axis == Axis::Row ? size.rows : size.cols;
    const auto line = static_cast<std::uint8_t>(rng() % static_cast<unsigned>(lines));
    apply_move(size, p, Move{axis, line, static_cast<std::int8_t>(rng() % 2 ? 1 : -1)});
  }
  return p;
}

// Cells of the pattern's pieces in a position (the table's index argument).
std::vector<std::uint8_t> pattern_cells(const Position& p, const std::vector<int>& pattern) {
  std::vector<std::uint8_t> cells;
  for (int home : pattern) {
    for (std::size_t c = 0; c < p.size(); ++c) {
      if (p[c] == home + 1) cells.push_back(static_cast<std::uint8_t>(c));
    }
  }
  return cells;
}

TEST(LoopoverPdb, IndexIsPerfect) {
  // Every arrangement of 6 pieces on 3x3 and of 3 pieces on 4x4 gets its own index in range.
  for (auto [size, pattern] : {std::pair{BoardSize{3, 3}, std::vector<int>{0, 1, 2, 3, 4, 5}},
                               std::pair{BoardSize{4, 4}, std::vector<int>{5, 0, 9}}}) {
    auto pdb = PiecePdb::build(size, pattern);
    ASSERT_TRUE(pdb.ok()) << pdb.error().describe();
    const int n = size.cells();
    const int k = static_cast<int>(pattern.size());
    std::vector<char> hit(pdb->entries(), 0);
    std::vector<std::uint8_t> cells(static_cast<std::size_t>(k));
    std::uint64_t count = 0;
    auto rec = [&](auto&& self, int i, std::uint32_t used) -> void {
      if (i == k) {
        const std::uint64_t idx = pdb->index(cells.data());
        ASSERT_LT(idx, pdb->entries());
        ASSERT_FALSE(hit[idx]);
        hit[idx] = 1;
        ++count;
        return;
      }
      for (int c = 0; c < n; ++c) {
        if (used >> c & 1) continue;
        cells[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(c);
        self(self, i + 1, used | 1u << c);
      }
    };
    rec(rec, 0, 0);
    EXPECT_EQ(count, pdb->entries());
  }
}

class LoopoverPdbMetric : public ::testing::TestWithParam<Metric> {};

// With every piece tracked the table IS the whole puzzle: it must equal BFS everywhere.
TEST_P(LoopoverPdbMetric, WholeBoardPatternEqualsBfs) {
  const Metric metric = GetParam();
  for (BoardSize size : {BoardSize{2, 4}, BoardSize{2, 3}}) {
    std::vector<int> all;
    for (int c = 0; c < size.cells(); ++c) all.push_back(c);
    PiecePdbOptions po;
    po.metric = metric;
    auto pdb = PiecePdb::build(size, all, po);
    ASSERT_TRUE(pdb.ok()) << pdb.error().describe();
    auto bfs = bfs_distances(size, metric);
    ASSERT_TRUE(bfs.ok());
    EXPECT_EQ(pdb->max_distance(), bfs->stats().max_distance);
    std::uint8_t tiles[MAX_BFS_CELLS];
    for (std::uint64_t r = 0; r < *factorial(size.cells()); ++r) {
      unrank_position(static_cast<std::uint32_t>(r), size.cells(), tiles);
      Position p(tiles, tiles + size.cells());
      ASSERT_EQ(pdb->distance(pattern_cells(p, all).data()), bfs->distance(p))
          << format_size(size) << " " << format_position(p);
    }
  }
}

// The full solver bound (walking distance and all pattern probes, position and inverse) never
// exceeds the BFS distance, on every 3x3 position; and the probes add something.
TEST_P(LoopoverPdbMetric, BoundAdmissibleOnAll3x3) {
  const Metric metric = GetParam();
  const BoardSize size{3, 3};
  auto bfs = bfs_distances(size, metric);
  ASSERT_TRUE(bfs.ok());
  auto solver = auto_pattern_solver(size, metric);
  ASSERT_TRUE(solver.ok()) << solver.error().describe();
  ASSERT_NE(solver->pattern_db(), nullptr);
  EXPECT_EQ(solver->pattern_db()->pieces(), 6);
  EXPECT_EQ(solver->probes(), 12);  // 3 row pairs + 3 column pairs, position and inverse
  auto plain = OptimalSolver::create(size, metric);
  ASSERT_TRUE(plain.ok());
  std::uint8_t tiles[MAX_BFS_CELLS];
  std::uint64_t stronger = 0;
  for (std::uint32_t r = 0; r < *factorial(9); ++r) {
    unrank_position(r, 9, tiles);
    Position p(tiles, tiles + 9);
    const int d = bfs->distance(p);
    if (d < 0) continue;
    const int b = solver->bound(p);
    ASSERT_LE(b, d) << format_position(p);
    ASSERT_GE(b, plain->bound(p));
    if (b > plain->bound(p)) ++stronger;
  }
  EXPECT_GT(stronger, 1000u);
}

// Optimal lengths with the pattern equal BFS distances on random positions.
TEST_P(LoopoverPdbMetric, SolverMatchesBfs) {
  const Metric metric = GetParam();
  Rng rng(77);
  for (BoardSize size : {BoardSize{3, 3}, BoardSize{2, 4}, BoardSize{4, 2}}) {
    auto bfs = bfs_distances(size, metric);
    ASSERT_TRUE(bfs.ok());
    auto solver = auto_pattern_solver(size, metric);
    ASSERT_TRUE(solver.ok()) << solver.error().describe();
    OptimalSolveOptions so;
    so.metric = metric;
    for (int i = 0; i < 30; ++i) {
      Position p = random_position(size, rng);
      auto sol = solver->solve(p, so);
      ASSERT_TRUE(sol.ok()) << sol.error().describe();
      EXPECT_EQ(sol->length, bfs->distance(p)) << format_size(size) << " " << format_position(p);
      Position q = p;
      apply_moves(size, q, sol->moves);
      EXPECT_TRUE(is_goal(q));
    }
    for (const Position& p : bfs->stats().sample_antipodes) {
      auto sol = solver->solve(p, so);
      ASSERT_TRUE(sol.ok());
      EXPECT_EQ(sol->length, bfs->stats().max_distance);
    }
  }
}

// 4x4 with a small pattern (5 pieces of row A and B): same lengths as the walking-distance-only
// solver, bound never above them, and conjugates of a position solved in equal length.
TEST_P(LoopoverPdbMetric, FourByFourMatchesWalkingDistanceSolver) {
  const Metric metric = GetParam();
  const BoardSize size{4, 4};
  // A private cache directory: the second solver loads the walking-distance tables (a few
  // seconds to build) instead of building them again.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("permuzzle-pdb4-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  TableStore store(dir.string()), fresh(dir.string());
  OptimalSolverConfig config;
  config.tables = &store;
  config.pattern = PatternChoice::Cells;
  config.pattern_cells = {0, 1, 2, 3, 4};
  auto solver = OptimalSolver::create(size, metric, config);
  ASSERT_TRUE(solver.ok()) << solver.error().describe();
  EXPECT_GT(solver->probes(), 16);  // 5 pieces are less symmetric than a pair of rows
  auto plain = OptimalSolver::create(size, metric, &fresh);  // from the disk, not memory
  if (metric == Metric::Stm) {
    // A server's store (background builds) and a request with a deadline: the automatic pattern
    // table (rows A-B, 260 MB, not on disk) goes on building in the background, and the request
    // gets a solver on the walking distance alone (from the disk), told why, well before its
    // deadline. The store's destructor stops the build.
    TableStore::Options background;
    background.background_builds = true;
    TableStore server(dir.string(), background);
    RunContext request;
    request.with_time_limit(std::chrono::seconds(2));
    OptimalSolverConfig automatic;
    automatic.tables = &server;
    automatic.run = &request;
    automatic.pattern = PatternChoice::Auto;
    auto quick = OptimalSolver::create(size, metric, automatic);
    ASSERT_TRUE(quick.ok()) << quick.error().describe();
    EXPECT_EQ(quick->pattern_db(), nullptr);
    EXPECT_NE(quick->pattern_note().find("in the background"), std::string::npos)
        << quick->pattern_note();
    EXPECT_FALSE(request.should_stop());
  }
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain->vertical().loaded_from_cache());
  OptimalSolveOptions so;
  so.metric = metric;
  Rng rng(5);
  const auto group = symmetry_group(size);
  // Scrambles short enough for the walking-distance-only solver to stay quick.
  for (int i = 0; i < 3; ++i) {
    Position p = scramble(size, metric == Metric::Stm ? 9 : 6, rng);
    auto a = solver->solve(p, so);
    auto b = plain->solve(p, so);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->length, b->length) << format_position(p);
    EXPECT_LE(solver->bound(p), b->length);
    EXPECT_LE(a->nodes, b->nodes);
    for (int j = 0; j < 3; ++j) {
      const Perm& sigma = group[rng() % group.size()];
      Position c = conjugate_position(size, p, sigma);
      auto s = solver->solve(c, so);
      ASSERT_TRUE(s.ok());
      EXPECT_EQ(s->length, a->length) << format_position(c);
    }
  }
  // Uniformly random positions too (13-15 moves; the walking-distance solver takes a fraction of
  // a second on them in STM, seconds in MTM).
  if (metric == Metric::Stm) {
    for (int i = 0; i < 3; ++i) {
      Position p = random_position(size, rng);
      auto a = solver->solve(p, so);
      auto b = plain->solve(p, so);
      ASSERT_TRUE(a.ok() && b.ok());
      EXPECT_EQ(a->length, b->length) << format_position(p);
      EXPECT_LE(solver->bound(p), b->length);
      EXPECT_LE(solver->pattern_bound(p), b->length);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Loopover, LoopoverPdbMetric, ::testing::Values(Metric::Stm, Metric::Mtm),
                         metric_label);

TEST(LoopoverPdb, ThreadCountDoesNotChangeTheTable) {
  PiecePdbOptions one, two;
  one.threads = 1;
  two.threads = 2;
  const std::vector<int> pattern{0, 1, 2, 4, 5};  // 5 of 12 cells: 95,040 entries
  auto a = PiecePdb::build(BoardSize{3, 4}, pattern, one);
  auto b = PiecePdb::build(BoardSize{3, 4}, pattern, two);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->histogram(), b->histogram());
  for (std::uint64_t i = 0; i < a->entries(); ++i) ASSERT_EQ(a->value(i), b->value(i)) << i;
}

// A capped table (farther arrangements get the cap: 2x7 STM needs it at 14) is min(exact, cap).
TEST(LoopoverPdb, CappedTableIsTheExactTableCut) {
  const std::vector<int> pattern{0, 1, 2, 3, 4, 5};
  auto exact = PiecePdb::build(BoardSize{3, 3}, pattern);
  ASSERT_TRUE(exact.ok());
  EXPECT_FALSE(exact->capped());
  PiecePdbOptions po;
  po.cap = 5;
  auto capped = PiecePdb::build(BoardSize{3, 3}, pattern, po);
  ASSERT_TRUE(capped.ok());
  EXPECT_TRUE(capped->capped());
  EXPECT_EQ(capped->max_distance(), 5);
  std::uint64_t at_cap = 0;
  for (std::uint64_t i = 0; i < exact->entries(); ++i) {
    ASSERT_EQ(capped->value(i), std::min(exact->value(i), 5)) << i;
    at_cap += capped->value(i) == 5;
  }
  EXPECT_EQ(capped->histogram().back(), at_cap);
  po.cap = 15;
  EXPECT_FALSE(PiecePdb::build(BoardSize{3, 3}, pattern, po).ok());
}

TEST(LoopoverPdb, DefaultPatterns) {
  EXPECT_EQ(default_pattern(BoardSize{4, 4}), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(default_pattern(BoardSize{4, 3}), (std::vector<int>{0, 1, 3, 4, 6, 7, 9, 10}));
  EXPECT_EQ(default_pattern(BoardSize{3, 3}), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(default_pattern(BoardSize{4, 5}).empty());
}

TEST(LoopoverPdb, BadPatternsAreRejected) {
  EXPECT_FALSE(PiecePdb::build(BoardSize{3, 3}, {}).ok());
  EXPECT_FALSE(PiecePdb::build(BoardSize{3, 3}, {0, 0}).ok());
  EXPECT_FALSE(PiecePdb::build(BoardSize{3, 3}, {9}).ok());
  EXPECT_FALSE(PiecePdb::build(BoardSize{3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8}).ok());
  EXPECT_FALSE(PiecePdb::build(BoardSize{4, 5}, {0}).ok());
}

// Cached tables load with the same entries; another pattern never loads them.
TEST(LoopoverPdb, CacheRoundTrip) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("permuzzle-pdb-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  TableStore store(dir.string()), fresh(dir.string());
  PiecePdbOptions po;
  po.tables = &store;
  const BoardSize size{3, 3};
  auto built = PiecePdb::build(size, {0, 1, 2, 3}, po);
  ASSERT_TRUE(built.ok());
  EXPECT_FALSE(built->loaded_from_cache());
  EXPECT_EQ(built->cache_detail().rfind("saved to ", 0), 0u) << built->cache_detail();
  auto shared = PiecePdb::build(size, {0, 1, 2, 3}, po);
  ASSERT_TRUE(shared.ok());
  EXPECT_EQ(shared->cache_detail(), "shared in memory");
  po.tables = &fresh;  // a second store reads the file
  auto loaded = PiecePdb::build(size, {0, 1, 2, 3}, po);
  ASSERT_TRUE(loaded.ok());
  EXPECT_TRUE(loaded->loaded_from_cache());
  EXPECT_EQ(loaded->cache_detail().rfind("loaded ", 0), 0u) << loaded->cache_detail();
  EXPECT_EQ(loaded->max_distance(), built->max_distance());
  EXPECT_EQ(loaded->capped(), built->capped());
  EXPECT_EQ(loaded->histogram(), built->histogram());
  for (std::uint64_t i = 0; i < built->entries(); ++i) ASSERT_EQ(loaded->value(i), built->value(i));
  auto other = PiecePdb::build(size, {0, 1, 2, 4}, po);
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(other->loaded_from_cache());
  po.metric = Metric::Mtm;
  auto mtm = PiecePdb::build(size, {0, 1, 2, 3}, po);
  ASSERT_TRUE(mtm.ok());
  EXPECT_FALSE(mtm->loaded_from_cache());
  std::filesystem::remove_all(dir);
}

// The first sparse walking-distance table (3x5's horizontal relaxation: 45^5 indices, too many
// for a direct array) is saved by the table store and loads with the same states and distances.
// It used to be searched again on every solve (about 50 s of CPU on this machine before a 3x5
// solve of a few milliseconds).
TEST(LoopoverWalkingDistance, SparseTablesAreSavedAndLoadedIntact) {
  const BoardSize size{3, 5};
  const auto dir = std::filesystem::temp_directory_path() /
                   ("permuzzle-wd-sparse-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  TableStore store(dir.string());
  auto built = WalkingDistanceTable::build(size, Axis::Row, Metric::Stm,
                                           WalkingDistanceTable::DEFAULT_MAX_STATES, &store);
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_FALSE(built->loaded_from_cache());
  auto loaded = WalkingDistanceTable::build(size, Axis::Row, Metric::Stm,
                                            WalkingDistanceTable::DEFAULT_MAX_STATES, &store);
  ASSERT_TRUE(loaded.ok());
  EXPECT_TRUE(loaded->loaded_from_cache());
  EXPECT_EQ(loaded->states(), built->states());
  EXPECT_EQ(loaded->max_distance(), built->max_distance());
  Rng rng(5);
  Position p = goal_position(size);
  EXPECT_EQ(loaded->distance(p.data()), 0);
  for (int i = 0; i < 2000; ++i) {
    rng.shuffle(p.begin(), p.end());
    ASSERT_EQ(loaded->distance(p.data()), built->distance(p.data())) << format_position(p);
  }
  std::filesystem::remove_all(dir);
}

// A server's table store builds in the background: a request that stops before the walking-
// distance tables are ready leaves them building (the recipe holds copies of what it reads, not
// the request's locals), and a later request gets tables equal to ones built in the caller's
// thread without a store. Both tables of the pair are built at once.
TEST(LoopoverWalkingDistance, BuildsOutlivingTheirRequestFinishInTheBackground) {
  const BoardSize size{3, 4};
  const auto dir = std::filesystem::temp_directory_path() /
                   ("permuzzle-wd-background-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  for (Metric metric : {Metric::Stm, Metric::Mtm}) {
    TableStore::Options options;
    options.background_builds = true;
    TableStore store(dir.string(), options);
    {
      RunContext hurried;
      hurried.with_time_limit(std::chrono::microseconds(1));
      auto early = WalkingDistanceTable::build_pair(
          size, metric, WalkingDistanceTable::DEFAULT_MAX_STATES, &store, &hurried);
      if (!early) {
        EXPECT_NE(early.error().message.find("in the background"), std::string::npos)
            << early.error().describe();
      }
    }
    RunContext patient;
    auto later = WalkingDistanceTable::build_pair(
        size, metric, WalkingDistanceTable::DEFAULT_MAX_STATES, &store, &patient);
    ASSERT_TRUE(later.ok()) << later.error().describe();
    auto vertical = WalkingDistanceTable::build(size, Axis::Column, metric);
    auto horizontal = WalkingDistanceTable::build(size, Axis::Row, metric);
    ASSERT_TRUE(vertical.ok() && horizontal.ok());
    EXPECT_EQ(later->vertical.states(), vertical->states());
    EXPECT_EQ(later->horizontal.states(), horizontal->states());
    EXPECT_EQ(later->vertical.max_distance(), vertical->max_distance());
    Rng rng(11);
    for (int i = 0; i < 200; ++i) {
      Position p = random_position(size, rng);
      EXPECT_EQ(later->vertical.distance(p.data()), vertical->distance(p.data()));
      EXPECT_EQ(later->horizontal.distance(p.data()), horizontal->distance(p.data()));
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace loopover_pdb_test
}  // namespace permuzzle::loopover
