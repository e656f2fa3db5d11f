// The BFS over symmetry classes (symmetry_classes.hpp) against outside facts: the group orders
// of issue 33 (3x3: 72, 4x4: 128, 3x5: 60 in STM and 120 in MTM), a second construction of the
// group (every affine map of rows and columns tried, kept when it maps moves to moves; the
// group itself is a closure of generators), Burnside's count of the classes, the
// published 3x4 table, and the search over every position (DistanceTable) on every board it
// reaches in a test.
#include <gtest/gtest.h>
#include <algorithm>

#include <filesystem>
#include <map>
#include <numeric>
#include <set>

#include "loopover_bfs_resume.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/loopover/bfs.hpp"
#include "permuzzle/puzzles/loopover/symmetry.hpp"
#include "permuzzle/puzzles/loopover/symmetry_classes.hpp"

namespace permuzzle::loopover {
namespace loopover_symmetry_classes_test {

std::set<std::vector<Point>> as_set(const std::vector<Perm>& perms) {
  std::set<std::vector<Point>> out;
  for (const Perm& p : perms) out.insert(p.images());
  return out;
}

// The second construction, by brute force: every map (r, c) -> (a r + b, e c + f) of the cells
// (a, e units mod the line length: +-1 in STM, where a move shifts by one; any unit in MTM, where
// x -> 2x maps a shift by k to one by 2k) and, on square boards, its transpose, kept when it
// maps every move to a move.
std::set<std::vector<Point>> affine_move_symmetries(BoardSize size, Metric metric) {
  auto units = [&](int n) {
    std::vector<int> out;
    for (int a = 1; a < n || (n == 1 && a == 1); ++a) {
      if (std::gcd(a, n) == 1 && (metric == Metric::Mtm || a == 1 || a == n - 1)) out.push_back(a);
    }
    return out;
  };
  std::set<std::vector<Point>> moves;
  for (const Move& m : metric_moves(size, metric)) moves.insert(move_perm(size, m).images());
  std::set<std::vector<Point>> out;
  const int n = size.rows * size.cols;
  for (int transpose = 0; transpose < (size.rows == size.cols ? 2 : 1); ++transpose) {
    for (int a : units(size.rows)) {
      for (int b = 0; b < size.rows; ++b) {
        for (int e : units(size.cols)) {
          for (int f = 0; f < size.cols; ++f) {
            std::vector<Point> images(static_cast<std::size_t>(n));
            for (int r = 0; r < size.rows; ++r) {
              for (int c = 0; c < size.cols; ++c) {
                int r2 = (a * r + b) % size.rows, c2 = (e * c + f) % size.cols;
                if (transpose) std::swap(r2, c2);
                images[static_cast<std::size_t>(r * size.cols + c)] =
                    static_cast<Point>(r2 * size.cols + c2);
              }
            }
            const Perm g = *Perm::from_images(images);
            bool keeps = true;
            for (const Move& m : metric_moves(size, metric)) {
              keeps = keeps && moves.count((g.inverse() * move_perm(size, m) * g).images()) > 0;
            }
            if (keeps) out.insert(images);
          }
        }
      }
    }
  }
  return out;
}

// Issue 33's orders; every element maps each metric move to a metric move and fixes the goal;
// the group is exactly the brute-force set above.
TEST(LoopoverSymmetryClasses, GroupOrders) {
  const std::map<std::pair<std::string, Metric>, std::size_t> expected{
      {{"3x3", Metric::Stm}, 72},  {{"3x3", Metric::Mtm}, 72},  {{"4x4", Metric::Stm}, 128},
      {{"4x4", Metric::Mtm}, 128}, {{"3x4", Metric::Stm}, 48},  {{"3x4", Metric::Mtm}, 48},
      {{"3x5", Metric::Stm}, 60},  {{"3x5", Metric::Mtm}, 120}, {{"2x5", Metric::Stm}, 20},
      {{"2x5", Metric::Mtm}, 40},  {{"5x5", Metric::Mtm}, 800}};
  for (const auto& [key, order] : expected) {
    const BoardSize size = *parse_size(key.first);
    const Metric metric = key.second;
    const auto group = metric_symmetry_group(size, metric);
    EXPECT_EQ(group.size(), order) << key.first;
    EXPECT_EQ(as_set(group).size(), group.size()) << key.first;
    EXPECT_TRUE(group[0].is_identity());
    std::set<std::vector<Point>> moves;
    for (const Move& m : metric_moves(size, metric)) moves.insert(move_perm(size, m).images());
    for (const Perm& g : group) {
      for (const Move& m : metric_moves(size, metric)) {
        const Perm image = g.inverse() * move_perm(size, m) * g;
        ASSERT_TRUE(moves.count(image.images())) << key.first << " " << format_move(m);
      }
      EXPECT_EQ(conjugate_position(size, goal_position(size), g), goal_position(size));
    }
    EXPECT_EQ(as_set(group), affine_move_symmetries(size, metric)) << key.first;
  }
}

// Burnside: the classes of positions number the mean, over the group, of the positions each
// element fixes. A position commuting with g lies in g's centraliser in S_n, of order
// prod_i i^(m_i) m_i! (m_i cycles of length i); in A_n (odd x odd boards) half of it, unless
// the cycle lengths are distinct and odd (then the centraliser is inside A_n).
std::uint64_t burnside_classes(BoardSize size, Metric metric) {
  const bool even_only = size.rows % 2 == 1 && size.cols % 2 == 1;
  std::uint64_t sum = 0;
  const auto group = metric_symmetry_group(size, metric);
  for (const Perm& g : group) {
    std::map<std::size_t, std::uint64_t> cycles;  // length -> count
    std::vector<bool> seen(static_cast<std::size_t>(size.cells()), false);
    for (int x = 0; x < size.cells(); ++x) {
      std::size_t len = 0;
      for (Point y = static_cast<Point>(x); !seen[y]; y = g.image(y)) {
        seen[y] = true;
        ++len;
      }
      if (len > 0) ++cycles[len];
    }
    std::uint64_t order = 1;
    bool inside_an = true;
    for (const auto& [len, m] : cycles) {
      for (std::uint64_t i = 0; i < m; ++i) order *= len;
      for (std::uint64_t i = 2; i <= m; ++i) order *= i;
      if (len % 2 == 0 || m > 1) inside_an = false;
    }
    sum += even_only && !inside_an ? order / 2 : order;
  }
  return sum / group.size();
}

// Every canonical index, with its orbit size: the classes are Burnside's count and their
// orbits add up to every reachable position; an index's position comes back to it.
TEST(LoopoverSymmetryClasses, OrbitsCoverEveryPositionOnce) {
  for (const char* text : {"2x2", "2x3", "3x3", "2x4", "4x2", "2x5", "3x4"}) {
    for (Metric metric : {Metric::Stm, Metric::Mtm}) {
      const BoardSize size = *parse_size(text);
      auto cls = SymmetryClasses::create(size, metric, RunContext());
      ASSERT_TRUE(cls.ok()) << cls.error().message;
      std::uint64_t classes = 0, positions = 0;
      for (std::uint64_t i = 0; i < cls->states(); ++i) {
        if (!cls->canonical(i)) continue;
        ++classes;
        positions += cls->orbit_size(i);
        if (i % 997 == 0) ASSERT_EQ(cls->index(cls->position(i)), i) << text;
      }
      const std::uint64_t all =
          *factorial(size.cells()) / (size.rows % 2 == 1 && size.cols % 2 == 1 ? 2 : 1);
      EXPECT_EQ(positions, all) << text;
      EXPECT_EQ(classes, burnside_classes(size, metric)) << text;
      EXPECT_EQ(cls->group_order(), metric_symmetry_group(size, metric).size());
    }
  }
}

// The index of a class is the same from every member, and its position is a member.
TEST(LoopoverSymmetryClasses, IndexIsInvariantUnderTheGroup) {
  Rng rng(33);
  for (const char* text : {"3x3", "3x4", "4x3", "2x5", "3x5"}) {
    for (Metric metric : {Metric::Stm, Metric::Mtm}) {
      const BoardSize size = *parse_size(text);
      auto cls = SymmetryClasses::create(size, metric, RunContext());
      ASSERT_TRUE(cls.ok()) << cls.error().message;
      const auto group = metric_symmetry_group(size, metric);
      for (int i = 0; i < 20; ++i) {
        const Position p = random_position(size, rng);
        const std::uint64_t index = cls->index(p);
        ASSERT_TRUE(cls->canonical(index));
        const Position rep = cls->position(index);
        bool member = false;
        for (const Perm& g : group) {
          const Position q = conjugate_position(size, p, g);
          ASSERT_EQ(cls->index(q), index) << text << " " << format_position(p);
          member = member || q == rep;
        }
        EXPECT_TRUE(member) << text;
      }
    }
  }
}

// Every table the search over all positions computes in a test is unchanged over classes:
// histogram, positions, antipodes (their count, and each listed one at the last distance).
TEST(LoopoverSymmetryClasses, TablesEqualTheSearchOverEveryPosition) {
  for (const char* text : {"2x2", "2x3", "3x2", "3x3", "2x4", "4x2", "2x5"}) {
    for (Metric metric : {Metric::Stm, Metric::Mtm}) {
      const BoardSize size = *parse_size(text);
      BfsOptions o;
      o.metric = metric;
      o.threads = 2;
      auto plain = DistanceTable::build(size, o);
      ASSERT_TRUE(plain.ok());
      o.symmetry = SymmetryMode::Auto;
      auto sym = analyse(size, o);
      ASSERT_TRUE(sym.ok()) << sym.error().message;
      EXPECT_EQ(sym->histogram, plain->stats().histogram) << text;
      EXPECT_EQ(sym->states, plain->stats().states) << text;
      EXPECT_EQ(sym->antipodes, plain->stats().antipodes) << text;
      EXPECT_EQ(sym->max_distance, plain->stats().max_distance) << text;
      EXPECT_EQ(sym->symmetries, metric_symmetry_group(size, metric).size());
      EXPECT_EQ(sym->classes, burnside_classes(size, metric)) << text;
      std::uint64_t classes = 0;
      for (std::uint64_t c : sym->class_histogram) classes += c;
      EXPECT_EQ(classes, sym->classes);
      ASSERT_FALSE(sym->sample_antipodes.empty());
      for (const Position& a : sym->sample_antipodes) {
        EXPECT_EQ(plain->distance(a), sym->max_distance) << text << " " << format_position(a);
      }
      // Without symmetry analyse() is the search over every position.
      o.symmetry = SymmetryMode::None;
      auto none = analyse(size, o);
      ASSERT_TRUE(none.ok());
      EXPECT_EQ(none->symmetries, 1u);
      EXPECT_EQ(none->classes, none->states);
      EXPECT_EQ(none->sample_antipodes, plain->stats().sample_antipodes);
    }
  }
}

// Over classes the antipodes are listed as positions, the orbits of the antipode classes: with
// room for all of them, the same 2,475 positions as the search over every position lists.
TEST(LoopoverSymmetryClasses, AntipodesAreEveryPositionOfTheirClasses) {
  BfsOptions o;
  o.threads = 1;
  o.antipodes = 3000;
  o.symmetry = SymmetryMode::Auto;
  auto sym = analyse(BoardSize{3, 3}, o);
  o.symmetry = SymmetryMode::None;
  auto none = analyse(BoardSize{3, 3}, o);
  ASSERT_TRUE(sym.ok() && none.ok());
  EXPECT_EQ(sym->symmetries, 72u);
  EXPECT_EQ(sym->antipodes, 2475u);
  std::vector<Position> a = sym->sample_antipodes, b = none->sample_antipodes;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a.size(), 2475u);
  EXPECT_EQ(a, b);
  o.symmetry = SymmetryMode::Auto;
  o.antipodes = 7;
  auto few = analyse(BoardSize{3, 3}, o);
  ASSERT_TRUE(few.ok());
  EXPECT_EQ(few->sample_antipodes.size(), 7u);
}

// The published 3x4 STM table (docs/loopover.md: 479,001,600 positions, God's number 14, six
// antipodes), in about a second over 9,993,860 classes.
TEST(LoopoverSymmetryClasses, Published3x4Stm) {
  BfsOptions o;
  o.symmetry = SymmetryMode::Auto;
  o.threads = 2;
  auto t = analyse(BoardSize{3, 4}, o);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const std::vector<std::uint64_t> published{1,         14,       135,     1252,     11135,
                                             93138,     732983,   5342410, 34108194, 155751268,
                                             249363563, 33420160, 177155,  186,      6};
  EXPECT_EQ(t->histogram, published);
  EXPECT_EQ(t->states, 479001600u);
  EXPECT_EQ(t->symmetries, 48u);
  EXPECT_EQ(t->antipodes, 6u);
  // The antipodes listed are positions at distance 14; `2 1 4 3 6 5 8 7 10 9 12 11` (every pair
  // of columns swapped) is one.
  const Position known = *parse_position(BoardSize{3, 4}, "2 1 4 3 6 5 8 7 10 9 12 11");
  auto cls = SymmetryClasses::create(BoardSize{3, 4}, Metric::Stm, RunContext());
  ASSERT_TRUE(cls.ok());
  bool found = false;
  for (const Position& a : t->sample_antipodes) found = found || cls->index(a) == cls->index(known);
  EXPECT_TRUE(found);
}

// A stopped search over classes resumes from its checkpoint with the same table.
TEST(LoopoverSymmetryClasses, StoppedSearchResumesFromItsCheckpoint) {
  const BoardSize size{2, 5};
  const std::string dir = ::testing::TempDir() + "/loopover-classes-checkpoint";
  BfsOptions o;
  o.symmetry = SymmetryMode::Auto;
  const test::StoppedAndResumed run = test::stop_and_resume(size, o, dir, 6);
  EXPECT_FALSE(run.stopped_ok);
  EXPECT_EQ(run.partial.histogram.size(), 7u);
  const auto& rest = run.resumed;
  ASSERT_TRUE(rest.ok()) << rest.error().message;
  EXPECT_EQ(rest->resumed_from, 6);
  auto whole = DistanceTable::build(size);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(rest->histogram, whole->stats().histogram);
  EXPECT_EQ(std::vector<std::uint64_t>(rest->histogram.begin(), rest->histogram.begin() + 7),
            run.partial.histogram);
  // A checkpoint of classes does not resume a search of every position.
  const RunContext unlimited = RunContext().with_threads(2);
  o.symmetry = SymmetryMode::None;
  o.checkpoint_dir = dir;
  o.run = &unlimited;
  o.resume = true;
  EXPECT_FALSE(analyse(size, o).ok());
  std::filesystem::remove_all(dir);
}

}  // namespace loopover_symmetry_classes_test
}  // namespace permuzzle::loopover
