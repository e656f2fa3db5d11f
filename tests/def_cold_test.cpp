// Issue 24, the first answer from a cold table directory: the factored move tables of pattern
// databases (a tracked-pieces arrangement with orientations) against the moves computed on
// positions, and the BFS of such a database against the one computed without any move table.
#include <gtest/gtest.h>

#include "def_test_data.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/def/bfs.hpp"
#include "permuzzle/puzzles/def/builder.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"
#include "permuzzle/puzzles/def/reader.hpp"
#include "permuzzle/puzzles/def/solver.hpp"
#include "permuzzle/search/bfs.hpp"

namespace permuzzle::def {
namespace def_cold_test {

using test_data::data_definition;

// The 2x2x2 with the first `tracked` corners distinct and the others one identical piece whose
// orientation is ignored: a pattern database's projected puzzle.
Definition tracked_corners(int tracked) {
  Definition d = data_definition("2x2x2.tws");
  auto& set = d.solved.sets[0];
  for (std::size_t i = static_cast<std::size_t>(tracked); i < set.perm.size(); ++i) {
    set.perm[i] = static_cast<std::uint8_t>(tracked);
    set.ori[i] = ORIENTATION_IGNORED;
  }
  return d;
}

std::vector<std::uint64_t> histogram(const CompiledPuzzle& p) {
  auto table = search::BfsTable::create(p.states(), search::BfsBits::Two);
  EXPECT_TRUE(table.ok());
  if (!table.ok()) return {};
  search::BfsOptions bo;
  bo.bits = search::BfsBits::Two;
  bo.undirected = p.undirected();
  bo.antipodes_limit = 0;
  const std::uint64_t starts[] = {p.rank(p.solved())};
  auto r = search::bfs(
      *table, starts, [&] { return RankExpander(p); }, RunContext().with_threads(2), bo);
  EXPECT_TRUE(r.ok());
  return r.ok() ? r->histogram : std::vector<std::uint64_t>{};
}

TEST(DefColdStart, FactoredMoveTablesMatchMovesOnPositions) {
  for (int tracked : {3, 4, 5}) {
    for (Metric metric : {Metric::Htm, Metric::Qtm}) {
      const Definition d = tracked_corners(tracked);
      CompileOptions co;
      co.metric = metric;
      auto p = CompiledPuzzle::compile(d, co);
      ASSERT_TRUE(p.ok()) << p.error().describe();
      ASSERT_EQ(p->components().size(), 1u);
      const Component& c = p->components()[0];
      EXPECT_EQ(c.kind, Component::Kind::Mixed);
      EXPECT_FALSE(c.arrangement_moves.empty()) << "tracked " << tracked;
      EXPECT_FALSE(c.tabulated());
      // 8!/(8-k)! arrangements times 3^k orientations.
      std::uint64_t expected = 1;
      for (int i = 0; i < tracked; ++i) expected *= static_cast<std::uint64_t>((8 - i) * 3);
      EXPECT_EQ(p->states(), expected);
      // Every neighbour through the factored table = the rank of the position after the move,
      // on ranks in order (the expander's fast path within an arrangement) and at random.
      RankExpander ex(*p);
      std::vector<std::uint64_t> out(static_cast<std::size_t>(p->move_count()));
      Rng rng(static_cast<std::uint64_t>(tracked));
      for (std::uint64_t i = 0; i < 3000; ++i) {
        const std::uint64_t r = i < 1000 ? i : rng.below(p->states());
        ex.neighbours(r, out.data());
        for (int m = 0; m < p->move_count(); ++m) {
          Position pos = p->unrank(r);
          p->apply(pos, m);
          ASSERT_EQ(out[static_cast<std::size_t>(m)], p->rank(pos))
              << "tracked " << tracked << " rank " << r << " move " << m;
        }
      }
    }
  }
}

TEST(DefColdStart, FactoredTablesGiveTheBfsOfDirectMoves) {
  // The same projected puzzle without any move table (every neighbour computed from the
  // tracked pieces' slots): the same distances level by level.
  const Definition d = tracked_corners(4);
  auto factored = CompiledPuzzle::compile(d, {});
  CompileOptions none;
  none.max_table_bytes = 0;
  auto direct = CompiledPuzzle::compile(d, none);
  ASSERT_TRUE(factored.ok() && direct.ok());
  ASSERT_TRUE(direct->components()[0].arrangement_moves.empty());
  const auto h = histogram(*factored);
  EXPECT_EQ(h, histogram(*direct));
  std::uint64_t total = 0;
  for (std::uint64_t c : h) total += c;
  EXPECT_EQ(total, 136080u);  // every arrangement and twist of 4 corners is reached
}

TEST(DefColdStart, FilledBudgetKeepsTheMemoryAndTheAnswers) {
  // The planner's first tier (DefSolveOptions::fill_budget): the tables grow into the budget
  // their equal shares leave unused. On the six-face 2x2x2 at 1 MB: still within 2 M entries,
  // every corner still tracked, a larger largest table than the equal shares' 4 corners.
  const Definition d = data_definition("2x2x2.tws");
  DefSolveOptions o;
  o.memory_bytes = std::uint64_t{1} << 20;
  auto equal = DefSolver::plan(d, o, RunContext());
  o.fill_budget = true;
  auto filled = DefSolver::plan(d, o, RunContext());
  ASSERT_TRUE(equal.ok() && filled.ok());
  std::uint64_t total = 0, largest_equal = 0, largest_filled = 0;
  for (const PlannedTable& t : *equal) largest_equal = std::max(largest_equal, t.entries);
  for (const PlannedTable& t : *filled) {
    total += t.entries;
    largest_filled = std::max(largest_filled, t.entries);
  }
  EXPECT_LE(total, std::uint64_t{2} << 20);
  EXPECT_EQ(largest_equal, 136080u);    // 8 * 7 * 6 * 5 * 3^4
  EXPECT_EQ(largest_filled, 1632960u);  // 8 * 7 * 6 * 5 * 4 * 3^5
  EXPECT_EQ(filled->size(), equal->size());

  // The answers stay optimal: the fixed-corner 2x2x2 at 64 KB with filled tables against its
  // exact table (3,674,160 entries).
  const Definition fixed = samples::cube2(true);
  TableStore none;
  DefSolveOptions small;
  small.memory_bytes = 64 << 10;
  small.fill_budget = true;
  auto solver = DefSolver::create(fixed, small, none, RunContext());
  DefSolveOptions whole;
  whole.memory_bytes = std::uint64_t{16} << 20;
  auto exact = DefSolver::create(fixed, whole, none, RunContext());
  ASSERT_TRUE(solver.ok() && exact.ok());
  ASSERT_TRUE((*exact)->tables().front().exact);
  Rng rng(3);
  for (int i = 0; i < 8; ++i) {
    std::vector<std::size_t> moves;
    for (int k = 0; k < 25; ++k) moves.push_back(rng.below(fixed.moves.size()));
    auto a = (*solver)->solve_moves(moves, RunContext());
    auto b = (*exact)->solve_moves(moves, RunContext());
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->front().length, b->front().length);
    EXPECT_EQ(a->front().moves, b->front().moves);
  }
}

}  // namespace def_cold_test
}  // namespace permuzzle::def
