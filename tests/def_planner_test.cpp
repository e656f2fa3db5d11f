// Issue 24, parts 1 and 2: joint coordinates (ranks of the reachable combinations of small
// coordinates only) and the tiered table planner, against outside facts and a second method:
// published positions counts and God's numbers, the BFS of the same puzzle written without the
// redundancy, and the distances of exact tables.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "def_test_data.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/def/bfs.hpp"
#include "permuzzle/puzzles/def/builder.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"
#include "permuzzle/puzzles/def/planner.hpp"
#include "permuzzle/puzzles/def/reader.hpp"

namespace permuzzle::def {
namespace def_planner_test {

using test_data::data_text;

Definition parse(const std::string& text, const std::string& name) {
  auto d = parse_definition(text, name);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().describe());
  return d.ok() ? std::move(*d) : Definition{};
}

// The project's pyraminx with a second set COPY that every move turns exactly as CENTERS (as
// twsearch's pyraminx file has two corner sets moving together): the same 933,120 positions,
// but 81 times as many ranks when the sets are ranked apart.
std::string pyraminx_with_copy() {
  std::istringstream in(data_text("pyraminx.tws"));
  std::string out;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += lines[i] + "\n";
    if (lines[i] == "Set CENTERS 4 3") out += "Set COPY 4 3\n";
    if (lines[i] == "CENTERS" && i + 2 < lines.size()) {
      out += lines[i + 1] + "\n" + lines[i + 2] + "\n";
      out += "COPY\n";  // its two lines follow as CENTERS' own
      ++i;
      out += lines[i] + "\n";
      ++i;
      out += lines[i] + "\n";
    }
  }
  return out;
}

DefBfsResult whole_bfs(const Definition& d, Metric metric = Metric::Htm) {
  DefBfsOptions o;
  o.metric = metric;
  o.antipodes = 1;
  o.symmetry = false;  // the joint ranking itself
  auto r = bfs(d, o, RunContext().with_threads(2));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  return r.ok() ? *r : DefBfsResult{};
}

TEST(DefJoint, CoupledSetsRankOnlyTheirReachableCombinations) {
  const Definition plain = parse(data_text("pyraminx.tws"), "pyraminx");
  const Definition coupled = parse(pyraminx_with_copy(), "pyraminx-copy");
  ASSERT_EQ(coupled.sets.size(), 3u);
  // Ranked apart: 81 times the positions. Joined: exactly the positions (933,120, published).
  auto apart = CompiledPuzzle::compile(coupled);
  ASSERT_TRUE(apart.ok());
  EXPECT_EQ(apart->states(), 933120u * 81u);
  CompileOptions co;
  co.joint_raw_limit = std::uint64_t{1} << 27;
  auto joined = CompiledPuzzle::compile(coupled, co);
  ASSERT_TRUE(joined.ok());
  EXPECT_EQ(joined->states(), 933120u);
  // The ranking is a bijection onto 0..N-1 over reachable positions.
  for (std::uint64_t r = 0; r < joined->states(); r += 7) {
    const Position p = joined->unrank(r);
    ASSERT_TRUE(joined->joint_reachable(p));
    ASSERT_EQ(joined->rank(p), r);
  }
  // The BFS of the coupled file equals the plain file's, level by level, in both metrics.
  for (Metric m : {Metric::Htm, Metric::Qtm}) {
    const DefBfsResult a = whole_bfs(plain, m);
    const DefBfsResult b = whole_bfs(coupled, m);
    EXPECT_EQ(a.histogram, b.histogram);
    EXPECT_EQ(b.rank_space, 933120u);
    EXPECT_TRUE(b.complete);
    EXPECT_EQ(b.antipodes.size(), 1u);  // walked back and replayed
  }
}

TEST(DefJoint, SkewbBfsRanksFewerThanTheProduct) {
  // Skewb: 3,149,280 positions (published). The fixed tetrad's twists and the moving tetrad
  // are coupled (a third of their combinations are reachable): joined, the ranks are exactly
  // the positions, a third of the product.
  const Definition d = parse(data_text("skewb.tws"), "skewb");
  auto apart = CompiledPuzzle::compile(d);
  ASSERT_TRUE(apart.ok());
  const DefBfsResult r = whole_bfs(d);
  std::uint64_t total = 0;
  for (auto c : r.histogram) total += c;
  EXPECT_EQ(total, 3149280u);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.rank_space * 3, apart->states());
  EXPECT_EQ(r.rank_space, 3149280u);
}

TEST(DefJoint, TwoBitModThreeWalksBackTheSameAntipodes) {
  // 2x2x2 with a fixed corner: 2 bits holding the distance mod 3 give the published histogram
  // (OEIS A079761) and the same antipodes, walked back and replayed, as 4 bits (mod 15).
  const Definition d = samples::cube2(true);
  for (Metric m : {Metric::Htm, Metric::Qtm}) {
    DefBfsOptions o;
    o.metric = m;
    o.antipodes = 5;
    o.bits = 2;
    auto two = bfs(d, o, RunContext().with_threads(2));
    o.bits = 4;
    auto four = bfs(d, o, RunContext().with_threads(1));
    ASSERT_TRUE(two.ok() && four.ok());
    EXPECT_EQ(two->bits, 2);
    EXPECT_EQ(two->histogram, four->histogram);
    EXPECT_EQ(two->antipodes, four->antipodes);
    EXPECT_EQ(two->antipodes.size(), 5u);
    EXPECT_EQ(two->max_distance, m == Metric::Htm ? 11 : 14);
    if (m == Metric::Htm) {
      EXPECT_EQ(two->histogram,
                (std::vector<std::uint64_t>{1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072,
                                            1887748, 623800, 2644}));
    }
  }
}

TEST(DefPlanner, TiersGrowAndAnswersMatchExactDistances) {
  // 2x2x2 with a fixed corner, 16 MB: tier 1 (1 MB) tracks part of the corners; the exact
  // table (3,674,160 entries) is the last tier. Every answer equals the exact distance.
  const Definition d = samples::cube2(true);
  TableStore none;
  PlannedSolveOptions po;
  po.solve.memory_bytes = std::uint64_t{16} << 20;
  po.positions = 6;
  auto planned = PlannedSolver::create(d, po, none, RunContext().with_threads(2));
  ASSERT_TRUE(planned.ok()) << planned.error().describe();
  const auto& tiers = (*planned)->tiers();
  ASSERT_EQ(tiers.size(), 2u);
  EXPECT_LT(tiers[0].entries(), tiers[1].entries());
  EXPECT_EQ(tiers[1].entries(), 3674160u);
  EXPECT_EQ((*planned)->tier(), 1);
  DefSolveOptions exact_options;
  exact_options.memory_bytes = std::uint64_t{16} << 20;
  auto exact = DefSolver::create(d, exact_options, none, RunContext());
  ASSERT_TRUE(exact.ok());
  ASSERT_TRUE((*exact)->tables().front().exact);
  Rng rng(11);
  for (int i = 0; i < 6; ++i) {
    std::vector<std::size_t> moves;
    for (int k = 0; k < 25; ++k) moves.push_back(rng.below(d.moves.size()));
    const State st = replay(d, full_solved(d), moves);
    auto a = (*planned)->solve(st, RunContext().with_threads(2));
    auto b = (*exact)->solve(st, RunContext());
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->front().length, b->front().length);
    EXPECT_EQ(a->front().moves, b->front().moves);  // IDA*'s first solution, any admissible bound
    EXPECT_TRUE(a->front().optimal);
  }
  for (const TableUse& t : (*planned)->tables()) EXPECT_FALSE(t.why.empty());
}

TEST(DefPlanner, AntipodesAtGodsNumberInBothMetrics) {
  // 2x2x2 (fixed corner): God's number 11 in the half-turn metric, 14 in the quarter-turn one
  // (published); the BFS's antipodes, solved cold by the planner, take exactly that.
  const Definition d = samples::cube2(true);
  for (auto [metric, gods] : {std::pair{Metric::Htm, 11}, std::pair{Metric::Qtm, 14}}) {
    const DefBfsResult b = whole_bfs(d, metric);
    ASSERT_EQ(b.max_distance, gods);
    ASSERT_FALSE(b.antipodes.empty());
    std::vector<std::size_t> moves;
    for (const std::string& name : b.antipodes.front()) {
      for (std::size_t m = 0; m < d.moves.size(); ++m) {
        if (d.moves[m].name == name) moves.push_back(m);
      }
    }
    TableStore none;
    PlannedSolveOptions po;
    po.solve.metric = metric;
    po.solve.memory_bytes = std::uint64_t{64} << 20;
    auto planned = PlannedSolver::create(d, po, none, RunContext().with_threads(2));
    ASSERT_TRUE(planned.ok());
    auto r = (*planned)->solve(replay(d, full_solved(d), moves), RunContext().with_threads(2));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->front().length, gods);
    EXPECT_TRUE(r->front().optimal);
  }
}

}  // namespace def_planner_test
}  // namespace permuzzle::def
