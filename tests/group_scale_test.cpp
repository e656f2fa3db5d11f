// PermGroup at large degrees (Schreier vectors, S_n / A_n by Jordan's theorem), checked against
// order formulas from outside the code: |S_n| = n! and |A_n| = n!/2 (GMP's factorial), |M24| =
// 244,823,040 (ATLAS), |PSL(2,p)| = p(p^2-1)/2, |S_12 wr S_2| = 2 * 12!^2, the Rubik's cube
// group's published order; and the two chain representations against each other.
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/examples.hpp"
#include "permuzzle/group/perm_group.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace permuzzle {
namespace group_scale_test {

using Mode = SchreierSimsOptions::Transversals;

Perm P(const std::string& text) {
  auto p = Perm::parse(text);
  EXPECT_TRUE(p.ok()) << text;
  return p.ok() ? *p : Perm();
}

PermGroup G(const std::vector<Perm>& gens, Mode mode = Mode::Automatic) {
  SchreierSimsOptions options;
  options.randomized = true;
  options.transversals = mode;
  auto group = PermGroup::from_generators(gens, {}, options);
  EXPECT_TRUE(group.ok()) << (group.ok() ? "" : group.error().message);
  return group.ok() ? *group : PermGroup();
}

mpz_class factorial(unsigned long n) {
  mpz_class f;
  mpz_fac_ui(f.get_mpz_t(), n);
  return f;
}

Perm cycle(std::size_t from, std::size_t to) {  // (from, from+1, ..., to), 1-based
  std::vector<Point> c(to - from + 1);
  std::iota(c.begin(), c.end(), static_cast<Point>(from));
  return *Perm::from_cycles({c});
}

Perm random_perm(Rng& rng, std::size_t n) {
  std::vector<Point> images(n);
  std::iota(images.begin(), images.end(), Point{0});
  rng.shuffle(images.begin(), images.end());
  return *Perm::from_images(std::move(images));
}

// The standard generators of M24 on 24 points (GAP's MathieuGroup(24)).
std::vector<Perm> m24() {
  return {P("(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23)"),
          P("(3,17,10,7,9)(4,13,14,19,5)(8,18,11,12,23)(15,20,22,21,16)"),
          P("(1,24)(2,23)(3,12)(4,16)(5,18)(6,10)(7,20)(8,14)(9,21)(11,17)(13,22)(15,19)")};
}

// GAP's 48-facelet cube group (group/examples).
std::vector<Perm> cube() {
  return rubik_cube_generators();
}

TEST(GroupScale, M24AndTheCubeInBothRepresentations) {
  for (Mode mode : {Mode::Automatic, Mode::SchreierVectors}) {
    PermGroup m = G(m24(), mode);
    EXPECT_EQ(m.order(), mpz_class(244823040));
    PermGroup c = G(cube(), mode);
    EXPECT_EQ(c.order(), mpz_class("43252003274489856000"));
  }
  // Membership agrees between the two representations on elements and random permutations.
  PermGroup explicit_chain = G(cube(), Mode::Explicit);
  PermGroup vectors = G(cube(), Mode::SchreierVectors);
  Rng rng(11);
  for (int i = 0; i < 100; ++i) {
    Perm x = explicit_chain.random_element(rng);
    EXPECT_TRUE(vectors.contains(x));
    Perm y = vectors.random_element(rng);
    EXPECT_TRUE(explicit_chain.contains(y));
    Perm z = random_perm(rng, 48);
    EXPECT_EQ(vectors.contains(z), explicit_chain.contains(z));
  }
  EXPECT_FALSE(vectors.contains(P("(8,19,25)")));  // a single corner twist
}

TEST(GroupScale, PslTwoOnTheProjectiveLine) {
  for (std::uint64_t p : {5u, 7u, 11u, 13u, 31u, 101u}) {
    mpz_class expected = mpz_class(p) * (p * p - 1) / 2;
    EXPECT_EQ(G(psl2_generators(p)).order(), expected) << p;
    EXPECT_EQ(G(psl2_generators(p), Mode::SchreierVectors).order(), expected) << p;
  }
  // Degree 1032: Schreier vectors and the deterministic completion (not S_n, not abelian).
  EXPECT_EQ(G(psl2_generators(1031)).order(), mpz_class(1031) * (1031 * 1031 - 1) / 2);
}

TEST(GroupScale, WreathProductS12WrS2) {
  std::string swap;
  for (int i = 1; i <= 12; ++i)
    swap += "(" + std::to_string(i) + "," + std::to_string(i + 12) + ")";
  PermGroup w = G({P("(1,2)"), cycle(1, 12), P(swap)});
  EXPECT_EQ(w.order(), factorial(12) * factorial(12) * 2);
}

TEST(GroupScale, SymmetricAndAlternatingFromRandomGenerators) {
  Rng rng(2026);
  const std::size_t n = 1000;
  Perm a = random_perm(rng, n), b = random_perm(rng, n);
  if (a.sign() == 1 && b.sign() == 1) a = a * P("(1,2)");
  PermGroup s = G({a, b});
  EXPECT_EQ(s.order(), factorial(n));
  EXPECT_EQ(s.describe().structure, "S1000");
  EXPECT_TRUE(s.contains(P("(1,1000)")));
  EXPECT_FALSE(s.contains(P("(1,1001)")));
  // Two even random permutations: A_1000.
  Perm c = random_perm(rng, n), d = random_perm(rng, n);
  if (c.sign() == -1) c = c * P("(1,2)");
  if (d.sign() == -1) d = d * P("(1,2)");
  PermGroup alt = G({c, d});
  EXPECT_EQ(alt.order(), factorial(n) / 2);
  EXPECT_EQ(alt.describe().structure, "A1000");
  EXPECT_TRUE(alt.contains(P("(1,500,1000)")));
  EXPECT_FALSE(alt.contains(P("(1,1000)")));
  // A random element is in the group; a base is fixed only by the identity.
  Perm x = alt.random_element(rng);
  EXPECT_EQ(x.sign(), 1);
  EXPECT_EQ(alt.base().size(), n - 2);
  EXPECT_EQ(alt.strong_generator_count(), n - 2);
  // The stabilizer of a point is A_999 on the other points.
  PermGroup st = alt.stabilizer(0);
  EXPECT_EQ(st.order(), factorial(n - 1) / 2);
  EXPECT_FALSE(st.contains(P("(1,2,3)")));
  EXPECT_TRUE(st.contains(P("(2,3,4)")));
}

TEST(GroupScale, LongCycleAndLargeSymmetricGroup) {
  PermGroup c = G({cycle(1, 20000)});
  EXPECT_EQ(c.order(), mpz_class(20000));
  EXPECT_TRUE(c.contains(cycle(1, 20000).pow(7919)));
  EXPECT_FALSE(c.contains(P("(1,2)")));
  EXPECT_FALSE(c.contains(cycle(1, 19999)));
  Rng rng(3);
  EXPECT_TRUE(c.contains(c.random_element(rng)));
  // Its word problem would need 20,000 stored permutations of 20,000 points: refused at once.
  auto w = c.word(cycle(1, 20000));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().kind, ErrorKind::LimitExceeded);
  // S_20001 from the long cycle and a transposition, recognised without a chain.
  PermGroup s = G({cycle(1, 20001), P("(1,2)")});
  EXPECT_EQ(s.order(), factorial(20001));
  EXPECT_EQ(s.describe().structure, "S20001");
  EXPECT_TRUE(s.contains(P("(5,20001)(7,8,9)")));
  EXPECT_FALSE(s.contains(P("(5,20002)")));
}

TEST(GroupScale, TablesBeyondTheBudgetAreRefused) {
  SchreierSimsOptions options;
  options.transversals = Mode::Explicit;
  options.max_table_bytes = 1 << 20;
  auto g = PermGroup::from_generators({cycle(1, 5000)}, {}, options);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().kind, ErrorKind::LimitExceeded);
}

}  // namespace group_scale_test
}  // namespace permuzzle
