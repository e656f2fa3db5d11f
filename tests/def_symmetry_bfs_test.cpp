// Whole-graph BFS of definition files over symmetry classes (issue 33): the published tables
// again, the same answers as the search of every position, and the classes checked against a
// brute force over every position.
#include <gtest/gtest.h>

#include <filesystem>

#include "def_test_data.hpp"
#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/def/bfs.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"
#include "permuzzle/puzzles/def/reader.hpp"
#include "permuzzle/puzzles/def/symmetry.hpp"
#include "permuzzle/puzzles/def/symmetry_classes.hpp"
#include "permuzzle/search/bfs.hpp"

namespace permuzzle::def {
namespace def_symmetry_bfs_test {

using Hist = std::vector<std::uint64_t>;
using test_data::data_definition;

DefBfsResult whole_bfs(const Definition& d, Metric metric, bool symmetry) {
  DefBfsOptions o;
  o.metric = metric;
  o.antipodes = 3;
  o.symmetry = symmetry;
  auto r = bfs(d, o, RunContext().with_threads(2));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  return r.ok() ? *r : DefBfsResult{};
}

std::uint64_t sum(const Hist& h) {
  std::uint64_t s = 0;
  for (std::uint64_t x : h) s += x;
  return s;
}

TEST(DefSymmetryBfs, PublishedTablesOverClasses) {
  // Positions per HTM distance: the pyraminx without tips and the skewb (Jaap's puzzle pages),
  // the 2x2x2 with a fixed corner (OEIS A079761). Their symmetry groups: the tetrahedron's 24
  // (rotations and mirror images), the skewb's 24, the 6 that keep the fixed corner.
  struct Case {
    const char* file;
    std::uint64_t symmetries;
    Hist histogram;
  };
  const Case cases[] = {
      {"pyraminx.tws", 24, {1, 8, 48, 288, 1728, 9896, 51808, 220111, 480467, 166276, 2457, 32}},
      {"skewb.tws", 24, {1, 8, 48, 288, 1728, 10248, 59304, 315198, 1225483, 1455856, 81028, 90}},
      {"2x2x2-fixed-corner.tws",
       6,
       {1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const Definition d = data_definition(c.file);
    const DefBfsResult r = whole_bfs(d, Metric::Htm, true);
    EXPECT_EQ(r.method, "symmetry") << r.symmetry_note;
    EXPECT_EQ(r.symmetries, c.symmetries);
    auto group = symmetry_group(d, RunContext());
    ASSERT_TRUE(group.ok());
    EXPECT_EQ(r.symmetries, group->order);  // what `def info` reports
    EXPECT_EQ(r.histogram, c.histogram);
    EXPECT_TRUE(r.complete);
    // Classes: at least positions / |G|, fewer than the positions, counted level by level.
    EXPECT_EQ(sum(r.class_histogram), r.classes);
    EXPECT_GE(r.classes * c.symmetries, sum(c.histogram));
    EXPECT_LT(r.classes, sum(c.histogram));
    EXPECT_LT(r.rank_space, sum(c.histogram));
    // Antipodes: walked back over the classes and replayed (bfs() refuses a failed replay).
    ASSERT_EQ(r.antipodes.size(), 3u);
    for (const auto& a : r.antipodes) EXPECT_EQ(a.size(), c.histogram.size() - 1);
  }
}

TEST(DefSymmetryBfs, SameAnswersAsEveryPosition) {
  // Both metrics, each file with and without its symmetries (the 3x3 Loopover file: 72, the
  // 2x4 one: 16, the 2x2x2 with a fixed corner: 6, where orientations depend on the corners'
  // permutation).
  for (const char* file :
       {"loopover-3x3.tws", "loopover-2x4.tws", "2x2x2-fixed-corner.tws", "pyraminx.tws"}) {
    const Definition d = data_definition(file);
    for (Metric m : {Metric::Htm, Metric::Qtm}) {
      SCOPED_TRACE(std::string(file) + (m == Metric::Htm ? " htm" : " qtm"));
      const DefBfsResult with = whole_bfs(d, m, true);
      const DefBfsResult without = whole_bfs(d, m, false);
      EXPECT_EQ(with.method, "symmetry") << with.symmetry_note;
      EXPECT_EQ(without.method, "ranked");
      EXPECT_EQ(without.symmetries, 1u);
      EXPECT_EQ(with.histogram, without.histogram);
      EXPECT_EQ(with.max_distance, without.max_distance);
      for (const auto& a : with.antipodes) {
        EXPECT_GE(a.size(), 1u);
      }
    }
  }
}

Result<DefSymmetryClasses> make_classes(const Definition& d, const CompiledPuzzle& p) {
  SymmetryOptions so;
  so.keep_elements = true;
  auto group = symmetry_group(d, RunContext(), so);
  if (!group) return group.error();
  return DefSymmetryClasses::create(p, *group, RunContext(), std::uint64_t{1} << 30);
}

// Every position of the puzzle sorted into its class by index(): the classes found are exactly
// the ones the BFS counted, each canonical, each holding orbit_size() positions, and the
// canonical member of each class indexes back to it.
void expect_classes_partition_positions(const std::string& file) {
  SCOPED_TRACE(file);
  const Definition d = data_definition(file);
  auto p = CompiledPuzzle::compile(d);
  ASSERT_TRUE(p.ok());
  auto classes = make_classes(d, *p);
  ASSERT_TRUE(classes.ok()) << classes.error().describe();
  std::vector<std::uint64_t> members(classes->states(), 0);
  for (std::uint64_t r = 0; r < p->states(); ++r) {
    const std::uint64_t index = classes->index(p->unrank(r));
    ASSERT_LT(index, classes->states());
    ++members[index];
  }
  std::uint64_t found = 0;
  for (std::uint64_t index = 0; index < members.size(); ++index) {
    if (members[index] == 0) continue;
    ++found;
    ASSERT_TRUE(classes->canonical(index)) << index;
    ASSERT_EQ(classes->orbit_size(index), members[index]) << index;
    ASSERT_EQ(classes->index(classes->position(index)), index);
  }
  const DefBfsResult r = whole_bfs(d, Metric::Htm, true);
  EXPECT_EQ(found, r.classes);
}

TEST(DefSymmetryClasses, ClassesPartitionThePositions) {
  expect_classes_partition_positions("loopover-3x3.tws");  // 181,440 positions, 72 symmetries
  expect_classes_partition_positions("pyraminx.tws");      // 933,120 positions, 24 symmetries
}

TEST(DefSymmetryClasses, ClassMembersShareTheirDistance) {
  // The 2x2x2 with a fixed corner: a symmetry turns the corners' orientations by amounts that
  // depend on where the corners stand (the offsets of the index). Every sampled position's
  // distance, from a BFS of every position, equals its class's canonical member's.
  const Definition d = data_definition("2x2x2-fixed-corner.tws");
  auto p = CompiledPuzzle::compile(d);
  ASSERT_TRUE(p.ok());
  auto table = search::BfsTable::create(p->states(), search::BfsBits::Four);
  ASSERT_TRUE(table.ok());
  search::BfsOptions bo;
  bo.bits = search::BfsBits::Four;
  bo.undirected = true;
  const std::uint64_t starts[] = {p->rank(p->solved())};
  auto done = search::bfs(
      *table, starts, [&] { return RankExpander(*p); }, RunContext(), bo);
  ASSERT_TRUE(done.ok());
  auto classes = make_classes(d, *p);
  ASSERT_TRUE(classes.ok()) << classes.error().describe();
  std::uint64_t moved = 0;
  for (std::uint64_t r = 0; r < p->states(); r += 101) {
    const Position pos = p->unrank(r);
    const std::uint64_t index = classes->index(pos);
    ASSERT_TRUE(classes->canonical(index));
    const Position member = classes->position(index);
    moved += member != pos ? 1 : 0;
    auto a = table->distance(r, *done);
    auto b = table->distance(p->rank(member), *done);
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_EQ(*a, *b) << "rank " << r;
  }
  EXPECT_GT(moved, 0u);
}

TEST(DefSymmetryBfs, CheckpointAndResumeOverClasses) {
  // Stopped after level 6, resumed from its checkpoint: the published table (OEIS A079761).
  const Definition d = data_definition("2x2x2-fixed-corner.tws");
  const std::string dir = ::testing::TempDir() + "/def-bfs-symmetry-checkpoint";
  std::filesystem::remove_all(dir);
  DefBfsOptions o;
  o.checkpoint_dir = dir;
  o.max_depth = 6;
  auto first = bfs(d, o, RunContext().with_threads(2));
  ASSERT_TRUE(first.ok()) << first.error().describe();
  EXPECT_EQ(first->method, "symmetry");
  EXPECT_FALSE(first->complete);
  o.max_depth = -1;
  o.resume = true;
  auto rest = bfs(d, o, RunContext().with_threads(2));
  ASSERT_TRUE(rest.ok()) << rest.error().describe();
  EXPECT_EQ(rest->resumed_from, 6);
  EXPECT_EQ(rest->histogram,
            (Hist{1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644}));
  EXPECT_EQ(rest->classes, whole_bfs(d, Metric::Htm, true).classes);
  std::filesystem::remove_all(dir);
}

TEST(DefSymmetryBfs, CommandReportsSymmetriesAndClasses) {
  api::Registry registry = api::make_registry();
  TableStore store;
  auto call = [&](const nlohmann::json& params) {
    api::Session session{store, RunContext(), api::default_data_dir()};
    return registry.call("def", "bfs", params, session);
  };
  const std::string text = test_data::data_text("pyraminx.tws");
  auto with = call({{"file", text}, {"antipodes", 1}});
  ASSERT_TRUE(with.ok()) << with.error().describe();
  EXPECT_EQ(with->json["symmetries"], 24);
  EXPECT_EQ(with->json["method"], "symmetry");
  EXPECT_LT(with->json["classes"].get<std::uint64_t>(), 933120u);
  EXPECT_EQ(with->json["positions"], 933120);
  auto without = call({{"file", text}, {"antipodes", 1}, {"symmetry", "none"}});
  ASSERT_TRUE(without.ok());
  EXPECT_EQ(without->json["symmetries"], 1);
  EXPECT_EQ(without->json["classes"], 933120);
  EXPECT_EQ(without->json["histogram"], with->json["histogram"]);
  EXPECT_FALSE(call({{"file", text}, {"symmetry", "some"}}).ok());
}

}  // namespace def_symmetry_bfs_test
}  // namespace permuzzle::def
