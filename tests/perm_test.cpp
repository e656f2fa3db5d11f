// Facts about permutations that come from outside the code: GAP's conventions and definitions.
#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/rng.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "cli_runner.hpp"

namespace permuzzle {
namespace perm_test {

Perm P(const char* text) {
  auto p = Perm::parse(text);
  EXPECT_TRUE(p.ok()) << text;
  return p.ok() ? *p : Perm();
}

TEST(Perm, ProductAppliesLeftFactorFirst) {
  // GAP: (1,2)*(2,3) = (1,3,2): 1 -> 2 -> 3, 3 -> 3 -> 2, 2 -> 1 -> 1.
  EXPECT_EQ(P("(1,2)") * P("(2,3)"), P("(1,3,2)"));
  EXPECT_EQ((P("(1,2)") * P("(2,3)")).to_cycle_string(), "(1,3,2)");
  // The definition: image under a*b is image under b of image under a.
  Rng rng(7);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<Point> ia(9), ib(9);
    std::iota(ia.begin(), ia.end(), 0);
    std::iota(ib.begin(), ib.end(), 0);
    rng.shuffle(ia.begin(), ia.end());
    rng.shuffle(ib.begin(), ib.end());
    Perm a = *Perm::from_images(ia), b = *Perm::from_images(ib);
    for (Point x = 0; x < 9; ++x) EXPECT_EQ((a * b).image(x), b.image(a.image(x)));
  }
}

TEST(Perm, ParsesGapCyclesAndListsAndPrintsThem) {
  EXPECT_EQ(P("(1,2,3)(4,5)").to_list_string(), "[2,3,1,5,4]");
  EXPECT_EQ(P("[2,4,5,1,3]").to_cycle_string(), "(1,2,4)(3,5)");
  EXPECT_EQ(P(" ( 1 , 2 )\t( 3,4 ) ").to_cycle_string(), "(1,2)(3,4)");
  EXPECT_EQ(P("()").to_cycle_string(), "()");
  EXPECT_TRUE(P("()").is_identity());
  // Cycles multiply left to right as in GAP: (1,2)(2,3) is the product (1,2)*(2,3).
  EXPECT_EQ(P("(1,2)(2,3)"), P("(1,3,2)"));
  EXPECT_EQ(P("(3,1,2)").to_cycle_string(), "(1,2,3)");
}

TEST(Perm, RejectsMalformedInputWithPosition) {
  struct Case {
    const char* text;
    std::size_t position;
  };
  for (Case c : {Case{"(1,2", 4}, Case{"(1,0)", 3}, Case{"(1,2,1)", 5}, Case{"(1,,2)", 3},
                 Case{"(1,2)x", 5}, Case{"[1,1]", 3}, Case{"[1,3]", 3}, Case{"(a)", 1}}) {
    auto p = Perm::parse(c.text);
    ASSERT_FALSE(p.ok()) << c.text;
    EXPECT_EQ(p.error().position, c.position) << c.text << ": " << p.error().describe();
  }
  EXPECT_FALSE(Perm::parse("").ok());
  EXPECT_FALSE(Perm::parse("(99999999999)").ok());
}

TEST(Perm, OrderSignCycleType) {
  EXPECT_EQ(P("(1,2,3)(4,5)").order(), 6);
  EXPECT_EQ(P("(1,2,3,4,5,6,7)(8,9,10,11,12)(13,14,15)(16,17)").order(), 210);
  EXPECT_EQ(P("(1,2,3)(4,5)").sign(), -1);
  EXPECT_EQ(P("(1,2,3)").sign(), 1);
  EXPECT_EQ(P("(1,2,3)(4,5)").cycle_type(), (std::vector<std::size_t>{3, 2}));
  EXPECT_EQ(P("(2,5)").support(), (std::vector<Point>{1, 4}));
  EXPECT_EQ(P("(1,2)").extended(4).fixed_points(), (std::vector<Point>{2, 3}));
  // Landau's function g(30) = 4620 is the largest order in S30; one element reaching it:
  // cycle lengths 3,4,5,7,11 (sum 30).
  Perm landau = *Perm::from_cycles({{1, 2, 3},
                                    {4, 5, 6, 7},
                                    {8, 9, 10, 11, 12},
                                    {13, 14, 15, 16, 17, 18, 19},
                                    {20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30}});
  EXPECT_EQ(landau.order(), 4620);
}

TEST(Perm, SignByCyclesEqualsSignByInversions) {
  Rng rng(2024);
  for (int trial = 0; trial < 500; ++trial) {
    std::size_t n = 1 + rng() % 40;
    std::vector<Point> images(n);
    std::iota(images.begin(), images.end(), 0);
    rng.shuffle(images.begin(), images.end());
    // Brute-force inversion count as the independent reference.
    int inversions = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) inversions += images[i] > images[j];
    Perm p = *Perm::from_images(images);
    EXPECT_EQ(p.sign(), inversions % 2 ? -1 : 1);
    EXPECT_EQ(p.sign_by_inversions(), p.sign());
  }
}

TEST(Perm, InversePowerConjugateCommutator) {
  Perm a = P("(1,2,3,4,5)"), b = P("(1,2)(3,6)");
  EXPECT_TRUE((a * a.inverse()).is_identity());
  EXPECT_EQ(a.pow(5), Perm());
  EXPECT_EQ(a.pow(-1), a.inverse());
  EXPECT_EQ(a.pow(7), a * a);
  // GAP: (1,2,3,4,5)^((1,2)(3,6)) = (1,6,4,5,2) (relabel each point by b).
  EXPECT_EQ(a.conjugate(b), P("(2,1,6,4,5)"));
  EXPECT_EQ(commutator(a, b), a.inverse() * b.inverse() * a * b);
  EXPECT_EQ(commutator(P("(1,2)"), P("(3,4)")), Perm());
}

TEST(Perm, Orbits) {
  auto o = orbits({P("(1,2)"), P("(2,3)"), P("(5,6)")}, 7);
  ASSERT_EQ(o.size(), 4u);
  EXPECT_EQ(o[0], (std::vector<Point>{0, 1, 2}));
  EXPECT_EQ(o[1], (std::vector<Point>{3}));
  EXPECT_EQ(o[2], (std::vector<Point>{4, 5}));
}

TEST(PermCli, ProductOrderAndJson) {
  auto run = test::run_cli("perm product '(1,2)' '(2,3)'");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "(1,3,2)\n");
  auto order = test::run_cli("perm order '(1,2,3)(4,5)' --json");
  EXPECT_EQ(order.exit_code, 0);
  EXPECT_EQ(order.json()["order"], "6");
}

TEST(PermCli, MalformedCycleIsOneClearErrorWithExitTwo) {
  auto run = test::run_cli("perm order '(1,2,2)' --json");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("repeated"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("character 6"), std::string::npos) << run.err;
  auto zero = test::run_cli("perm sign '(0,1)'");
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.err.find("point 0"), std::string::npos) << zero.err;
}

}  // namespace perm_test
}  // namespace permuzzle
