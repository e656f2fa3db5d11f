// The symmetry group a definition file's puzzle has (puzzles/def/symmetry.hpp), against outside
// facts: the cube's 48 rotations and reflections (3x3x3, 2x2x2), the icosahedron's 120 (the
// megaminx), the tetrahedron's 24 (the pyraminx), issue 33's Loopover orders (3x3: 72, 4x4:
// 128), and the built-in Loopover groups (symmetry_classes.hpp, a second construction).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "cli_runner.hpp"
#include "def_test_data.hpp"
#include "permuzzle/puzzles/def/reader.hpp"
#include "permuzzle/puzzles/def/symmetry.hpp"
#include "permuzzle/puzzles/loopover/symmetry.hpp"

namespace permuzzle {
namespace def_symmetry_test {

using def::test_data::data_file;

def::Definition load(const std::string& name) {
  return def::test_data::data_definition(name);
}

TEST(DefSymmetry, OrdersOfKnownPuzzles) {
  const std::map<std::string, std::uint64_t> expected{{"3x3x3.tws", 48},
                                                      {"2x2x2.tws", 48},
                                                      {"megaminx.tws", 120},
                                                      {"pyraminx.tws", 24},
                                                      {"loopover-3x3.tws", 72},
                                                      {"loopover-4x4.tws", 128},
                                                      {"loopover-3x4.tws", 48},
                                                      {"loopover-2x4.tws", 16},
                                                      {"loopover-5x5.tws", 200},
                                                      {"pyraminx-tips.tws", 24},
                                                      {"m24.tws", 1}};
  for (const auto& [file, order] : expected) {
    auto g = def::symmetry_group(load(file), RunContext());
    ASSERT_TRUE(g.ok()) << file << ": " << g.error().message;
    EXPECT_EQ(g->order, order) << file;
    EXPECT_EQ(g->maps % g->central, 0u) << file;
  }
  // The 3x3x3's point maps: its 48 symmetries times the 3 twists of every corner at once and
  // the 2 flips of every edge at once, which conjugate every position to itself.
  auto cube = def::symmetry_group(load("3x3x3.tws"), RunContext());
  ASSERT_TRUE(cube.ok());
  EXPECT_EQ(cube->maps, 288u);
  EXPECT_EQ(cube->central, 6u);
}

// The Loopover files' symmetries are exactly the built-in groups (one set of tiles, one point
// per cell, row-major as the built-in cells): STM, the files' quarter-turn costs.
TEST(DefSymmetry, LoopoverFilesGiveTheBuiltInGroup) {
  for (const char* name : {"3x3", "3x4", "4x4", "2x4"}) {
    def::SymmetryOptions o;
    o.keep_elements = true;
    auto g = def::symmetry_group(load(std::string("loopover-") + name + ".tws"), RunContext(), o);
    ASSERT_TRUE(g.ok());
    std::set<std::vector<std::uint32_t>> found(g->elements.begin(), g->elements.end());
    std::set<std::vector<std::uint32_t>> built_in;
    const auto size = *loopover::parse_size(name);
    for (const Perm& p : loopover::metric_symmetry_group(size, loopover::Metric::Stm)) {
      built_in.insert(std::vector<std::uint32_t>(p.images().begin(), p.images().end()));
    }
    EXPECT_EQ(found, built_in) << name;
  }
}

// The point maps found form a group (closed under composition).
TEST(DefSymmetry, MapsFormAGroup) {
  def::SymmetryOptions o;
  o.keep_elements = true;
  auto g = def::symmetry_group(load("2x2x2.tws"), RunContext(), o);
  ASSERT_TRUE(g.ok());
  const std::set<std::vector<std::uint32_t>> all(g->elements.begin(), g->elements.end());
  EXPECT_EQ(all.size(), g->maps);
  for (const auto& a : g->elements) {
    for (const auto& b : g->elements) {
      std::vector<std::uint32_t> ab(a.size());
      for (std::size_t p = 0; p < a.size(); ++p) ab[p] = b[a[p]];
      ASSERT_TRUE(all.count(ab));
    }
  }
}

// The maps kept count against the run's memory budget as they grow: the 3x3x3 file's 288 maps
// (about 288 x (points x 4 + 40) bytes) are refused under a budget of half that, with the
// budget's message, and kept under one of twice that.
TEST(DefSymmetry, KeptMapsStayWithinTheMemoryBudget) {
  def::SymmetryOptions o;
  o.keep_elements = true;
  auto whole = def::symmetry_group(load("3x3x3.tws"), RunContext(), o);
  ASSERT_TRUE(whole.ok());
  const std::uint64_t kept = whole->maps * (whole->points * 4 + 40);
  auto refused =
      def::symmetry_group(load("3x3x3.tws"), RunContext().with_memory_budget(kept / 2), o);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::LimitExceeded);
  EXPECT_NE(refused.error().message.find("symmetry maps kept"), std::string::npos)
      << refused.error().message;
  auto fits = def::symmetry_group(load("3x3x3.tws"), RunContext().with_memory_budget(kept * 2), o);
  ASSERT_TRUE(fits.ok()) << fits.error().message;
  EXPECT_EQ(fits->maps, whole->maps);
}

TEST(DefSymmetry, InfoPrintsTheOrder) {
  auto r = test::run_cli("--json def info " + data_file("3x3x3.tws"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["symmetries"], 48);
}

}  // namespace def_symmetry_test
}  // namespace permuzzle
