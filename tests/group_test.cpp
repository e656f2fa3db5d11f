// PermGroup checked against facts from outside the code: |S_n| = n!, |A_n| = n!/2, the
// published order of the Rubik's cube group, the Loopover groups, and brute-force closure.
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/perm_group.hpp"

#include "permuzzle/group/cayley.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace permuzzle {
namespace group_test {

Perm P(const std::string& text) {
  auto p = Perm::parse(text);
  EXPECT_TRUE(p.ok()) << text;
  return p.ok() ? *p : Perm();
}

PermGroup G(const std::vector<std::string>& gens, const SchreierSimsOptions& options = {}) {
  std::vector<Perm> perms;
  for (const auto& g : gens) perms.push_back(P(g));
  auto group = PermGroup::from_generators(perms, {}, options);
  EXPECT_TRUE(group.ok());
  return *group;
}

mpz_class factorial(unsigned long n) {
  mpz_class f = 1;
  for (unsigned long i = 2; i <= n; ++i) f *= i;
  return f;
}

std::string cycle_of(std::size_t from, std::size_t to) {  // "(from,from+1,...,to)", 1-based
  std::string s = "(";
  for (std::size_t i = from; i <= to; ++i) s += (i > from ? "," : "") + std::to_string(i);
  return s + ")";
}

const std::vector<std::string> CUBE = {
    "( 1, 3, 8, 6)( 2, 5, 7, 4)( 9,33,25,17)(10,34,26,18)(11,35,27,19)",
    "( 9,11,16,14)(10,13,15,12)( 1,17,41,40)( 4,20,44,37)( 6,22,46,35)",
    "(17,19,24,22)(18,21,23,20)( 6,25,43,16)( 7,28,42,13)( 8,30,41,11)",
    "(25,27,32,30)(26,29,31,28)( 3,38,43,19)( 5,36,45,21)( 8,33,48,24)",
    "(33,35,40,38)(34,37,39,36)( 3, 9,46,32)( 2,12,47,29)( 1,14,48,27)",
    "(41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40)"};

const std::vector<std::string> LOOPOVER4 = {"(1,2,3,4)",     "(5,6,7,8)",  "(9,10,11,12)",
                                            "(13,14,15,16)", "(1,5,9,13)", "(2,6,10,14)",
                                            "(3,7,11,15)",   "(4,8,12,16)"};

const std::vector<std::string> TRILOOP4 = {
    "(2,4)",          "(5,7,9)(6,8)", "(10,12,14,16)(11,13,15)", "(1,2,5,10)(3,6,11)",
    "(4,7,12)(8,13)", "(9,14)",       "(1,4,9,16)(3,8,15)",      "(2,7,14)(6,13)",
    "(5,12)"};

TEST(PermGroup, SymmetricGroupOrdersAreFactorials) {
  for (std::size_t n = 2; n <= 20; ++n) {
    PermGroup s = G({"(1,2)", cycle_of(1, n)});
    EXPECT_EQ(s.order(), factorial(n)) << n;
    EXPECT_EQ(s.describe().structure, "S" + std::to_string(n));
    EXPECT_TRUE(s.describe().transitive);
  }
  PermGroup s80 = G({"(1,2)", cycle_of(1, 80)});
  EXPECT_EQ(s80.order(), factorial(80));
  EXPECT_EQ(s80.describe().structure, "S80");
}

TEST(PermGroup, AlternatingGroupOrdersAreHalfFactorials) {
  for (std::size_t n = 3; n <= 14; ++n) {
    std::vector<std::string> gens;  // the 3-cycles (1,2,k) generate A_n
    for (std::size_t k = 3; k <= n; ++k) gens.push_back("(1,2," + std::to_string(k) + ")");
    PermGroup a = G(gens);
    EXPECT_EQ(a.order(), factorial(n) / 2) << n;
    EXPECT_EQ(a.describe().structure, "A" + std::to_string(n));
    EXPECT_FALSE(a.contains(P("(1,2)")));
    if (n >= 4) EXPECT_TRUE(a.contains(P("(1,2)(3,4)")));
  }
}

TEST(PermGroup, LoopoverFourByFourIsS16) {
  PermGroup g = G(LOOPOVER4);
  EXPECT_EQ(g.order(), factorial(16));
  auto d = g.describe();
  EXPECT_EQ(d.structure, "S16");
  EXPECT_TRUE(d.recognised);
  EXPECT_TRUE(d.transitive);
}

TEST(PermGroup, LoopoverThreeByThreeIsA9) {
  PermGroup g = G({"(1,2,3)", "(4,5,6)", "(7,8,9)", "(1,4,7)", "(2,5,8)", "(3,6,9)"});
  EXPECT_EQ(g.order(), factorial(9) / 2);
  EXPECT_EQ(g.describe().structure, "A9");
  EXPECT_FALSE(g.contains(P("(1,2)")));
  EXPECT_TRUE(g.contains(P("(1,2)(3,4)")));
}

TEST(PermGroup, RubiksCubeGroupOrder) {
  PermGroup g = G(CUBE);
  EXPECT_EQ(g.order(), mpz_class("43252003274489856000"));
  EXPECT_EQ(g.degree(), 48u);
  auto d = g.describe();
  EXPECT_FALSE(d.recognised);
  EXPECT_EQ(d.structure, "order 43252003274489856000");
  EXPECT_EQ(d.orbits.size(), 2u);  // corner facelets and edge facelets
  // Known unreachable states: one twisted corner (UFR = facelets 8, 19, 25), one flipped edge
  // (UF = 7, 18), two facelets of different corners exchanged.
  EXPECT_FALSE(g.contains(P("(8,19,25)")));
  EXPECT_FALSE(g.contains(P("(7,18)")));
  EXPECT_FALSE(g.contains(P("(1,3)")));
  // Two opposite twists of the same corner cancel; the products of generators are members.
  EXPECT_TRUE(g.contains(P(CUBE[0]) * P(CUBE[3]) * P(CUBE[2]).inverse()));
  for (const auto& gen : CUBE) EXPECT_TRUE(g.contains(P(gen)));
  // The stabilizer of a facelet: each of the 24 corner facelets is reachable.
  PermGroup s = g.stabilizer(0);
  EXPECT_EQ(s.order() * 24, g.order());
  for (const Perm& h : s.generators()) EXPECT_EQ(h.image(0), 0u);
}

TEST(PermGroup, TriangularLoopoverIsS10xS6) {
  PermGroup g = G(TRILOOP4);
  EXPECT_EQ(g.order(), factorial(10) * factorial(6));
  auto d = g.describe();
  EXPECT_EQ(d.structure, "S10 x S6");
  EXPECT_TRUE(d.recognised);
  EXPECT_FALSE(d.transitive);
  ASSERT_EQ(d.orbits.size(), 2u);
}

TEST(PermGroup, DirectProductsAndSmallGroups) {
  EXPECT_EQ(G({"(1,2,3)", "(4,5)(6,7)", "(4,5,6)"}).describe().structure, "A4 x A3");
  EXPECT_EQ(G({"(1,2,3,4)"}).describe().structure, "C4");
  EXPECT_EQ(G({"(1,2,3,4)", "(5,6)"}).describe().structure, "C4 x S2");
  EXPECT_EQ(G({"()"}).describe().structure, "1");
  EXPECT_EQ(G({"()"}).order(), 1);
  // Dihedral group of the square: order 8, transitive, neither S4 nor A4 nor cyclic.
  auto d8 = G({"(1,2,3,4)", "(1,3)"}).describe();
  EXPECT_EQ(d8.structure, "order 8");
  EXPECT_FALSE(d8.recognised);
  EXPECT_TRUE(d8.transitive);
  // The diagonal S3 acting on two orbits is not the full product S3 x S3.
  auto diag = G({"(1,2)(4,5)", "(1,2,3)(4,5,6)"}).describe();
  EXPECT_EQ(diag.structure, "order 6");
}

TEST(PermGroup, DefaultConstructedIsTheTrivialGroup) {
  PermGroup trivial;
  EXPECT_EQ(trivial.order(), 1);
  EXPECT_TRUE(trivial.contains(Perm()));
  EXPECT_FALSE(trivial.contains(P("(1,2)")));
  EXPECT_EQ(trivial.describe().structure, "1");
  Rng rng(1);
  EXPECT_TRUE(trivial.random_element(rng).is_identity());
  ASSERT_TRUE(trivial.word(Perm()).ok());
  EXPECT_TRUE(trivial.word(Perm())->empty());
}

TEST(PermGroup, RejectsEmptyGeneratorList) {
  auto g = PermGroup::from_generators({});
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().message.find("empty generator list"), std::string::npos);
}

// Brute-force closure: breadth-first search over products with the generators.
std::set<Perm> closure(const std::vector<Perm>& gens, std::size_t n) {
  std::set<Perm> seen{Perm(n)};
  std::vector<Perm> frontier{Perm(n)};
  while (!frontier.empty()) {
    std::vector<Perm> next;
    for (const Perm& x : frontier) {
      for (const Perm& g : gens) {
        Perm y = (x * g).extended(n);
        if (seen.insert(y).second) next.push_back(y);
      }
    }
    frontier = std::move(next);
  }
  return seen;
}

Perm random_perm(std::size_t n, Rng& rng, std::size_t moved) {
  // A random permutation of a random subset of `moved` points of 0..n-1.
  std::vector<Point> pts(n), images(n);
  std::iota(pts.begin(), pts.end(), 0);
  std::iota(images.begin(), images.end(), 0);
  rng.shuffle(pts.begin(), pts.end());
  std::vector<Point> sub(pts.begin(), pts.begin() + moved), perm = sub;
  rng.shuffle(perm.begin(), perm.end());
  for (std::size_t i = 0; i < moved; ++i) images[sub[i]] = perm[i];
  return *Perm::from_images(images);
}

TEST(PermGroup, MembershipAgreesWithBruteForceClosure) {
  Rng rng(2024);
  const std::size_t n = 6;
  std::vector<Point> all(n);
  std::iota(all.begin(), all.end(), 0);
  std::vector<Perm> sym;  // all 720 elements of S6
  do sym.push_back(*Perm::from_images(all));
  while (std::next_permutation(all.begin(), all.end()));

  std::map<std::size_t, int> sizes;
  for (int trial = 0; trial < 150; ++trial) {
    std::size_t count = 1 + rng() % 3;
    std::vector<Perm> gens;
    for (std::size_t i = 0; i < count; ++i) gens.push_back(random_perm(n, rng, 2 + rng() % 5));
    std::set<Perm> truth = closure(gens, n);
    SchreierSimsOptions options;
    options.randomized = trial % 2 == 1;
    options.seed = static_cast<std::uint64_t>(trial);
    auto g = PermGroup::from_generators(gens, {}, options);
    ASSERT_TRUE(g.ok());
    ASSERT_EQ(g->order(), mpz_class(static_cast<unsigned long>(truth.size())));
    ++sizes[truth.size()];
    for (const Perm& x : sym) {
      ASSERT_EQ(g->contains(x), truth.count(x.extended(n)) == 1) << x.to_cycle_string();
    }
    // Elements listed by the chain are exactly the closure.
    auto elements = g->elements();
    ASSERT_TRUE(elements.ok());
    std::set<Perm> listed;
    for (const Perm& e : *elements) listed.insert(e.extended(n));
    EXPECT_EQ(listed, truth);
    EXPECT_EQ(elements->size(), truth.size());
  }
  EXPECT_GE(sizes.size(), 8u);  // the random groups really vary
}

TEST(PermGroup, RandomElementsAreUniform) {
  PermGroup s4 = G({"(1,2)", "(1,2,3,4)"});
  Rng rng(99);
  std::map<Perm, int> counts;
  const int samples = 48000;
  for (int i = 0; i < samples; ++i) {
    Perm x = s4.random_element(rng);
    ASSERT_TRUE(s4.contains(x));
    ++counts[x.extended(4)];
  }
  ASSERT_EQ(counts.size(), 24u);
  // Each count is Binomial(48000, 1/24): mean 2000, sd ~ 44; 6 sd is a safe band.
  for (const auto& [perm, c] : counts) EXPECT_NEAR(c, 2000, 270) << perm.to_cycle_string();

  PermGroup cube = G(CUBE);
  for (int i = 0; i < 200; ++i) EXPECT_TRUE(cube.contains(cube.random_element(rng)));
}

TEST(PermGroup, StabilizersAndBase) {
  PermGroup s7 = G({"(1,2)", cycle_of(1, 7)});
  PermGroup st = s7.stabilizer(3);
  EXPECT_EQ(st.order(), factorial(6));
  EXPECT_FALSE(st.contains(P("(4,5)")));
  EXPECT_TRUE(st.contains(P("(1,2,3,5,6,7)")));
  // A base: only the identity fixes every base point.
  PermGroup cube = G(CUBE);
  auto base = cube.base();
  EXPECT_FALSE(base.empty());
  Rng rng(5);
  for (int i = 0; i < 100; ++i) {
    Perm x = cube.random_element(rng);
    bool fixes_base = std::all_of(base.begin(), base.end(), [&](Point b) { return x(b) == b; });
    EXPECT_EQ(fixes_base, x.is_identity());
  }
  // Strong generators generate the same group.
  auto again = PermGroup::from_generators(cube.strong_generators());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->order(), cube.order());
}

TEST(PermGroup, ElementsRespectTheLimit) {
  auto e = G(CUBE).elements(1000);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().kind, ErrorKind::LimitExceeded);
  auto s3 = G({"(1,2)", "(1,2,3)"}).elements();
  ASSERT_TRUE(s3.ok());
  EXPECT_EQ(s3->size(), 6u);
  EXPECT_TRUE(std::is_sorted(s3->begin(), s3->end()));
}

TEST(PermGroup, RandomizedVariantIsExact) {
  SchreierSimsOptions randomized;
  randomized.randomized = true;
  // Large symmetric groups: the random chain reaches n!, which certifies it.
  PermGroup s300 = G({"(1,2)", cycle_of(1, 300)}, randomized);
  EXPECT_EQ(s300.order(), factorial(300));
  EXPECT_EQ(s300.degree(), 300u);
  EXPECT_TRUE(s300.contains(P("(17,299)(3,4,5)")));
  EXPECT_EQ(s300.describe().structure, "S300");
  // Loopover 10x10 (100 cells, even row/column cycles of length 10 are odd): S100.
  std::vector<std::string> loop10;
  for (int r = 0; r < 10; ++r) loop10.push_back(cycle_of(10 * r + 1, 10 * r + 10));
  for (int c = 1; c <= 10; ++c) {
    std::string s = "(";
    for (int r = 0; r < 10; ++r) s += (r ? "," : "") + std::to_string(10 * r + c);
    loop10.push_back(s + ")");
  }
  EXPECT_EQ(G(loop10, randomized).describe().structure, "S100");
  // Groups below the orbit bound fall back to the deterministic algorithm: same answers.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    randomized.seed = seed;
    EXPECT_EQ(G(CUBE, randomized).order(), mpz_class("43252003274489856000"));
  }
  PermGroup d8 = G({"(1,2,3,4)", "(1,3)"}, randomized);
  EXPECT_EQ(d8.order(), 8);
}

TEST(PermGroup, WordsMultiplyBackToTheElement) {
  PermGroup cube = *PermGroup::from_generators(
      [] {
        std::vector<Perm> g;
        for (const auto& s : CUBE) g.push_back(P(s));
        return g;
      }(),
      {"U", "L", "F", "R", "B", "D"});
  Rng rng(11);
  for (int i = 0; i < 20; ++i) {
    Perm x = cube.random_element(rng);
    auto w = cube.word(x);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(cube.evaluate(*w), x);
    for (const Letter& l : *w) EXPECT_TRUE(l.exponent == 1 || l.exponent == -1);
    EXPECT_LT(w->size(), 5000u);
  }
  auto id = cube.word(Perm());
  ASSERT_TRUE(id.ok());
  EXPECT_TRUE(id->empty());
  // A generator is found as itself (short words first).
  auto u = cube.word(P(CUBE[0]));
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(cube.word_to_string(*u), "U");
  EXPECT_FALSE(cube.word(P("(8,19,25)")).ok());
  // Loopover 3x3: every element of A9 we try has a verified word.
  PermGroup a9 = G({"(1,2,3)", "(4,5,6)", "(7,8,9)", "(1,4,7)", "(2,5,8)", "(3,6,9)"});
  for (int i = 0; i < 50; ++i) {
    Perm x = a9.random_element(rng);
    auto w = a9.word(x);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(a9.evaluate(*w), x);
  }
  EXPECT_EQ(a9.word_to_string(Word{{0, 1}, {4, -1}}), "g1 g5^-1");
}

TEST(Cayley, S3TableIsALatinSquareWithIdentityFirst) {
  auto t = cayley_table(G({"(1,2)", "(1,2,3)"}));
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->elements.size(), 6u);
  EXPECT_EQ(t->names[0], "()");
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(t->product[0][i], i);  // identity row = header
    EXPECT_EQ(t->product[i][0], i);  // identity column
    std::set<std::uint32_t> row(t->product[i].begin(), t->product[i].end()), col;
    for (std::size_t j = 0; j < 6; ++j) col.insert(t->product[j][i]);
    EXPECT_EQ(row.size(), 6u);
    EXPECT_EQ(col.size(), 6u);
    for (std::size_t j = 0; j < 6; ++j) {
      EXPECT_EQ(t->elements[t->product[i][j]], t->elements[i] * t->elements[j]);
    }
  }
  // S3 is not abelian: the table is not symmetric.
  bool symmetric = true;
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 6; ++j) symmetric &= t->product[i][j] == t->product[j][i];
  EXPECT_FALSE(symmetric);
  std::string text = format_cayley_table(*t);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "*       | ()      (2,3)   (1,2)   (1,2,3) (1,3,2) (1,3)  ");
}

TEST(Cayley, A4WithTwoDoubleTranspositionsHasThreeCosets) {
  PermGroup a4 = G({"(1,2,3)", "(1,2)(3,4)"});
  ASSERT_EQ(a4.order(), 12);
  auto cay = cayley_graph(a4, {P("(1,2)(3,4)"), P("(1,4)(2,3)")});
  ASSERT_TRUE(cay.ok());
  EXPECT_EQ(cay->elements.size(), 12u);
  EXPECT_EQ(cay->edges.size(), 24u);
  EXPECT_EQ(cay->component_count, 3u);
  std::map<std::uint32_t, int> sizes;
  for (auto c : cay->component) ++sizes[c];
  for (const auto& [c, size] : sizes) EXPECT_EQ(size, 4);
  // The generators generate A4: one component.
  auto whole = cayley_graph(a4, {}, {}, false);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->component_count, 1u);
  std::string dot = to_dot(*whole);
  EXPECT_NE(dot.find("graph Cayley {"), std::string::npos);
  EXPECT_NE(dot.find(" -- "), std::string::npos);
  // An element outside the group is refused.
  EXPECT_FALSE(cayley_graph(a4, {P("(1,2)")}).ok());
}

}  // namespace group_test
}  // namespace permuzzle
