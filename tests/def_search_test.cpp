// Search over definition files (issue 11, part B): the compiled ranking, whole-graph and
// depth-limited BFS, against published distance tables and the built-in Loopover BFS.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/def/bfs.hpp"
#include "permuzzle/puzzles/def/builder.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"
#include "permuzzle/puzzles/loopover/bfs.hpp"

namespace permuzzle::def {
namespace {

using Hist = std::vector<std::uint64_t>;

DefBfsResult run_bfs(const Definition& d, Metric metric = Metric::Htm, int max_depth = -1,
                     int bits = 0) {
  DefBfsOptions o;
  o.metric = metric;
  o.max_depth = max_depth;
  o.bits = bits;
  o.antipodes = 3;
  auto r = bfs(d, o, RunContext().with_threads(2));
  EXPECT_TRUE(static_cast<bool>(r)) << (r ? "" : r.error().message);
  return r ? *r : DefBfsResult{};
}

// Every rank unranks to a position that ranks back to it (the ranking is a bijection onto
// 0..N-1), on a sample of ranks.
void expect_ranking_bijective(const CompiledPuzzle& p) {
  const std::uint64_t n = p.states();
  const std::uint64_t step = std::max<std::uint64_t>(1, n / 20000);
  for (std::uint64_t r = 0; r < n; r += step) {
    ASSERT_EQ(p.rank(p.unrank(r)), r) << "rank " << r;
  }
}

TEST(DefSearch, TwoByTwoFixedCornerDistanceTable) {
  // OEIS A079761.
  const Hist expected{1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644};
  const Definition d = samples::cube2(true);
  auto p = CompiledPuzzle::compile(d);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->states(), 3674160u);
  expect_ranking_bijective(*p);
  for (int bits : {2, 4}) {
    const DefBfsResult r = run_bfs(d, Metric::Htm, -1, bits);
    EXPECT_EQ(r.histogram, expected);
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.max_distance, 11);
    if (bits == 4) {
      ASSERT_EQ(r.antipodes.size(), 3u);
      for (const auto& a : r.antipodes) EXPECT_EQ(a.size(), 11u);
    }
  }
}

}  // namespace
}  // namespace permuzzle::def
