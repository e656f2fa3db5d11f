// Group operations checked against facts from outside the code: Z(S_n) = 1, Z(D_8) = C2,
// [S_n, S_n] = A_n, the cube group's commutator subgroup has index 2, S_4 is solvable and S_5
// is not, M24 is 5-transitive with point stabilizer M23 (order 10,200,960) and a 5-point
// stabilizer of order 48; conjugacy and cosets against brute force over all elements.
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/operations.hpp"

#include <gtest/gtest.h>

#include <numeric>

#include "cli_runner.hpp"

namespace permuzzle {
namespace group_operations_test {

Perm P(const std::string& text) {
  auto p = Perm::parse(text);
  EXPECT_TRUE(p.ok()) << text;
  return p.ok() ? *p : Perm();
}

PermGroup G(const std::vector<std::string>& gens) {
  std::vector<Perm> perms;
  for (const auto& g : gens) perms.push_back(P(g));
  SchreierSimsOptions options;
  options.randomized = true;
  auto group = PermGroup::from_generators(perms, {}, options);
  EXPECT_TRUE(group.ok());
  return group.ok() ? *group : PermGroup();
}

std::string cycle_text(std::size_t n) {
  std::string s = "(";
  for (std::size_t i = 1; i <= n; ++i) s += (i > 1 ? "," : "") + std::to_string(i);
  return s + ")";
}

PermGroup symmetric(std::size_t n) {
  return G({"(1,2)", cycle_text(n)});
}

mpz_class factorial(unsigned long n) {
  mpz_class f;
  mpz_fac_ui(f.get_mpz_t(), n);
  return f;
}

const std::vector<std::string> M24 = {
    "(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23)",
    "(3,17,10,7,9)(4,13,14,19,5)(8,18,11,12,23)(15,20,22,21,16)",
    "(1,24)(2,23)(3,12)(4,16)(5,18)(6,10)(7,20)(8,14)(9,21)(11,17)(13,22)(15,19)"};
const std::vector<std::string> CUBE = {
    "(1,3,8,6)(2,5,7,4)(9,33,25,17)(10,34,26,18)(11,35,27,19)",
    "(9,11,16,14)(10,13,15,12)(1,17,41,40)(4,20,44,37)(6,22,46,35)",
    "(17,19,24,22)(18,21,23,20)(6,25,43,16)(7,28,42,13)(8,30,41,11)",
    "(25,27,32,30)(26,29,31,28)(3,38,43,19)(5,36,45,21)(8,33,48,24)",
    "(33,35,40,38)(34,37,39,36)(3,9,46,32)(2,12,47,29)(1,14,48,27)",
    "(41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40)"};

TEST(GroupOperations, CentreDerivedSolvableAbelian) {
  for (std::size_t n = 3; n <= 6; ++n) {
    auto z = centre(symmetric(n));
    ASSERT_TRUE(z.ok());
    EXPECT_EQ(z->order(), 1) << n;
    PermGroup d = derived_subgroup(symmetric(n));
    EXPECT_EQ(d.order(), factorial(n) / 2) << n;
    for (const Perm& g : d.generators()) EXPECT_EQ(g.sign(), 1);
  }
  PermGroup d8 = G({"(1,2,3,4)", "(1,3)"});
  auto z = centre(d8);
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->order(), 2);
  EXPECT_TRUE(z->contains(P("(1,3)(2,4)")));
  EXPECT_TRUE(is_solvable(symmetric(4)));
  EXPECT_FALSE(is_solvable(symmetric(5)));
  EXPECT_TRUE(is_solvable(d8));
  EXPECT_FALSE(is_abelian(d8));
  EXPECT_TRUE(is_abelian(G({"(1,2,3)", "(4,5)"})));
  // The cube group: [G,G] has index 2 (the even positions), and G is not solvable.
  PermGroup cube = G(CUBE);
  EXPECT_EQ(derived_subgroup(cube).order() * 2, cube.order());
  EXPECT_FALSE(is_solvable(cube));
  // Large: [S_1000, S_1000] = A_1000 (recognised, not searched).
  PermGroup s1000 = symmetric(1000);
  EXPECT_EQ(derived_subgroup(s1000).order(), factorial(1000) / 2);
  EXPECT_FALSE(is_solvable(s1000));
}

TEST(GroupOperations, StabilizersOfM24AndSymmetricGroups) {
  PermGroup m24 = G(M24);
  EXPECT_EQ(pointwise_stabilizer(m24, {0}).order(), 10200960);  // M23
  EXPECT_EQ(pointwise_stabilizer(m24, {0, 1, 2, 3, 4}).order(), 48);
  PermGroup st = pointwise_stabilizer(symmetric(5), {0, 1});
  EXPECT_EQ(st.order(), 6);
  EXPECT_FALSE(st.contains(P("(1,3)")));
  EXPECT_TRUE(st.contains(P("(3,4,5)")));
  EXPECT_EQ(pointwise_stabilizer(symmetric(1000), {0, 1, 2}).order(), factorial(997));
}

TEST(GroupOperations, SubgroupsIndexCosetsOrbits) {
  PermGroup s4 = symmetric(4), a4 = G({"(1,2,3)", "(2,3,4)"}), s3 = G({"(1,2)", "(1,2,3)"});
  EXPECT_TRUE(is_subgroup(a4, s4));
  EXPECT_FALSE(is_subgroup(s4, a4));
  EXPECT_EQ(*subgroup_index(s4, a4), 2);
  EXPECT_FALSE(subgroup_index(a4, s4).ok());
  auto reps = right_coset_representatives(s4, s3);
  ASSERT_TRUE(reps.ok());
  ASSERT_EQ(reps->size(), 4u);
  // Brute force: the representatives lie in distinct cosets and the cosets cover S_4.
  for (std::size_t i = 0; i < reps->size(); ++i) {
    for (std::size_t j = 0; j < i; ++j)
      EXPECT_FALSE(s3.contains((*reps)[i] * (*reps)[j].inverse()));
  }
  auto pairs = set_orbit(symmetric(5), {0, 1});
  ASSERT_TRUE(pairs.ok());
  EXPECT_EQ(pairs->size(), 10u);  // C(5,2)
  auto rotations = set_orbit(G({"(1,2,3,4,5,6)"}), {0, 2});
  ASSERT_TRUE(rotations.ok());
  EXPECT_EQ(rotations->size(), 6u);
}

TEST(GroupOperations, ConjugacyAgainstBruteForce) {
  for (const PermGroup& g : {symmetric(4), G({"(1,2,3)", "(2,3,4)"}), G({"(1,2,3,4)", "(1,3)"})}) {
    auto all = g.elements();
    ASSERT_TRUE(all.ok());
    for (const Perm& x : *all) {
      for (const Perm& y : *all) {
        bool brute = std::any_of(all->begin(), all->end(),
                                 [&](const Perm& c) { return x.conjugate(c) == y; });
        auto c = conjugating_element(g, x, y);
        ASSERT_TRUE(c.ok());
        ASSERT_EQ(c->has_value(), brute) << x.to_cycle_string() << " " << y.to_cycle_string();
        if (*c) {
          EXPECT_EQ(x.conjugate(**c), y);
          EXPECT_TRUE(g.contains(**c));
        }
      }
    }
  }
  // In A_4, (1,2,3) and (1,3,2) are not conjugate (the class splits); in S_4 they are.
  auto split = conjugating_element(G({"(1,2,3)", "(2,3,4)"}), P("(1,2,3)"), P("(1,3,2)"));
  ASSERT_TRUE(split.ok());
  EXPECT_FALSE(split->has_value());
  // S_1000: conjugate random elements, by aligning cycles.
  PermGroup s1000 = symmetric(1000);
  Rng rng(4);
  Perm x = s1000.random_element(rng), c = s1000.random_element(rng);
  auto found = conjugating_element(s1000, x, x.conjugate(c));
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ(x.conjugate(**found), x.conjugate(c));
}

TEST(GroupOperations, CliVerbs) {
  using test::run_cli;
  auto st = run_cli("--json group stabilizer --points 1,2 '(1,2)' '(1,2,3,4,5)'");
  ASSERT_EQ(st.exit_code, 0) << st.err;
  EXPECT_EQ(st.json()["order"], "6");
  EXPECT_EQ(st.json()["structure"], "S3");
  auto sub = run_cli("--json group is-subgroup '(1,2)' '(1,2,3,4)' -s '(1,2,3)' -s '(2,3,4)'");
  ASSERT_EQ(sub.exit_code, 0) << sub.err;
  EXPECT_EQ(sub.json()["is_subgroup"], true);
  EXPECT_EQ(sub.json()["index"], "2");
  auto conj = run_cli("--json group is-conjugate -e '(1,2,3)' --to '(1,3,2)' '(1,2,3)' '(2,3,4)'");
  ASSERT_EQ(conj.exit_code, 0) << conj.err;
  EXPECT_EQ(conj.json()["conjugate"], false);
  auto z = run_cli("--json group center '(1,2,3,4)' '(1,3)'");
  ASSERT_EQ(z.exit_code, 0) << z.err;
  EXPECT_EQ(z.json()["order"], "2");
  auto d = run_cli("--json group derived-subgroup '(1,2)' '(1,2,3,4,5)'");
  EXPECT_EQ(d.json()["structure"], "A5");
  EXPECT_EQ(run_cli("--json group is-solvable '(1,2)' '(1,2,3,4)'").json()["is_solvable"], true);
  EXPECT_EQ(run_cli("--json group is-abelian '(1,2)' '(1,2,3)'").json()["is_abelian"], false);
  auto orbit = run_cli("--json group orbit --set 1,2 '(1,2,3,4)'");
  EXPECT_EQ(orbit.json()["length"], 4);
  auto bad = run_cli("group stabilizer --points 1,x '(1,2)'");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(bad.out.empty());
}

}  // namespace group_operations_test
}  // namespace permuzzle
