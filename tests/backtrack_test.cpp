// The backtrack search (backtrack.hpp) checked against facts from outside the code: GAP 4.12's
// answers for the Rubik's cube group, M24 and PSL(2,1031) (recorded from `gap -q`, see the
// comments), set stabilizers in S_n (S_k x S_{n-k}), and brute force over all elements of
// small groups (subgroups of S5 and S6): centralizers, normalizers, set stabilizers,
// intersections, centres and conjugacy, with |C(x)|·|x^G| = |G|.
#include "permuzzle/group/backtrack.hpp"

#include <gtest/gtest.h>

#include <set>

#include "cli_runner.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/examples.hpp"
#include "permuzzle/group/operations.hpp"

namespace permuzzle {
namespace backtrack_test {

Perm P(const std::string& text) {
  auto p = Perm::parse(text);
  EXPECT_TRUE(p.ok()) << text;
  return p.ok() ? *p : Perm();
}

PermGroup G(const std::vector<Perm>& perms) {
  SchreierSimsOptions options;
  options.randomized = true;
  auto group = PermGroup::from_generators(perms, {}, options);
  EXPECT_TRUE(group.ok());
  return group.ok() ? *group : PermGroup();
}

PermGroup G(const std::vector<std::string>& gens) {
  std::vector<Perm> perms;
  for (const auto& g : gens) perms.push_back(P(g));
  return G(perms);
}

const std::vector<std::string> CUBE = {
    "(1,3,8,6)(2,5,7,4)(9,33,25,17)(10,34,26,18)(11,35,27,19)",
    "(9,11,16,14)(10,13,15,12)(1,17,41,40)(4,20,44,37)(6,22,46,35)",
    "(17,19,24,22)(18,21,23,20)(6,25,43,16)(7,28,42,13)(8,30,41,11)",
    "(25,27,32,30)(26,29,31,28)(3,38,43,19)(5,36,45,21)(8,33,48,24)",
    "(33,35,40,38)(34,37,39,36)(3,9,46,32)(2,12,47,29)(1,14,48,27)",
    "(41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40)"};
enum Face { U, L, F, R, B, D };

const std::vector<std::string> M24 = {
    "(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23)",
    "(3,17,10,7,9)(4,13,14,19,5)(8,18,11,12,23)(15,20,22,21,16)",
    "(1,24)(2,23)(3,12)(4,16)(5,18)(6,10)(7,20)(8,14)(9,21)(11,17)(13,22)(15,19)"};

// Every answer group's generators must have the property and lie in G.
void expect_inside(const PermGroup& g, const PermGroup& answer) {
  for (const Perm& x : answer.generators()) EXPECT_TRUE(g.contains(x)) << x.to_cycle_string();
}

// GAP 4.12: Size(Centre(G)) = 2 for the cube group; the non-trivial element is the superflip
// (every edge flipped in place: only edge stickers move, in 12 transpositions).
TEST(Backtrack, CubeCentreIsTheSuperflip) {
  PermGroup cube = G(CUBE);
  auto z = center(cube);
  ASSERT_TRUE(z.ok()) << z.error().message;
  EXPECT_EQ(z->order(), 2);
  Perm superflip;
  for (const Perm& x : z->generators()) {
    if (!x.is_identity()) superflip = x;
  }
  EXPECT_EQ(superflip.cycle_type(), std::vector<std::size_t>(12, 2));
  for (Point p : superflip.support()) {
    // Each face's 8 stickers are numbered 1 2 3 / 4 . 5 / 6 7 8: the edges are 2, 4, 5, 7.
    const Point on_face = p % 8 + 1;
    EXPECT_TRUE(on_face == 2 || on_face == 4 || on_face == 5 || on_face == 7) << p + 1;
  }
  for (const Perm& s : cube.generators()) EXPECT_EQ(superflip * s, s * superflip);
}

// GAP 4.12: Size(Centralizer(G, U)) = 160526499840, Size(Centralizer(G, U*R)) = 3628800,
// Size(Centralizer(G, Group(U, R))) = 34560.
TEST(Backtrack, CubeCentralizersMatchGap) {
  PermGroup cube = G(CUBE);
  const Perm u = P(CUBE[U]), r = P(CUBE[R]);
  auto cu = centralizer(cube, u);
  ASSERT_TRUE(cu.ok()) << cu.error().message;
  EXPECT_EQ(cu->order(), mpz_class("160526499840"));
  for (const Perm& x : cu->generators()) EXPECT_EQ(x * u, u * x);
  expect_inside(cube, *cu);
  auto cur = centralizer(cube, u * r);
  ASSERT_TRUE(cur.ok());
  EXPECT_EQ(cur->order(), mpz_class("3628800"));
  auto cgroup = centralizer(cube, G({CUBE[U], CUBE[R]}));
  ASSERT_TRUE(cgroup.ok());
  EXPECT_EQ(cgroup->order(), mpz_class("34560"));
}

// GAP 4.12: Size(Normalizer(G, Subgroup(G, [U]))) = 321052999680 (= 2 |C(U)|: U is conjugate
// to U^-1), Size(Normalizer(G, Subgroup(G, [U, D]))) = 2359296.
TEST(Backtrack, CubeNormalizersMatchGap) {
  PermGroup cube = G(CUBE);
  auto nu = normalizer(cube, G({CUBE[U]}));
  ASSERT_TRUE(nu.ok()) << nu.error().message;
  EXPECT_EQ(nu->order(), mpz_class("321052999680"));
  PermGroup ud = G({CUBE[U], CUBE[D]});
  auto nud = normalizer(cube, ud);
  ASSERT_TRUE(nud.ok()) << nud.error().message;
  EXPECT_EQ(nud->order(), mpz_class("2359296"));
  for (const Perm& x : nud->generators()) {
    for (const Perm& s : ud.generators()) EXPECT_TRUE(ud.contains(s.conjugate(x)));
  }
}

// GAP 4.12: Size(Stabilizer(G, [1..8], OnSets)) = 963158999040; Size(Intersection(Group(U, R,
// F), Group(U, L, D))) = 9258883200; RepresentativeAction(G, U, U^-1) and (G, U, R) exist.
TEST(Backtrack, CubeSetStabilizerIntersectionConjugacyMatchGap) {
  PermGroup cube = G(CUBE);
  std::vector<Point> top = {0, 1, 2, 3, 4, 5, 6, 7};
  auto st = set_stabilizer(cube, top);
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(st->order(), mpz_class("963158999040"));
  auto meet = intersection(G({CUBE[U], CUBE[R], CUBE[F]}), G({CUBE[U], CUBE[L], CUBE[D]}));
  ASSERT_TRUE(meet.ok()) << meet.error().message;
  EXPECT_EQ(meet->order(), mpz_class("9258883200"));
  const Perm u = P(CUBE[U]);
  for (const Perm& y : {u.inverse(), P(CUBE[R]), P(CUBE[D])}) {
    auto c = find_conjugator(cube, u, y);
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(c->has_value()) << y.to_cycle_string();
    EXPECT_EQ(u.conjugate(**c), y);
    EXPECT_TRUE(cube.contains(**c));
  }
  // A quarter turn and a half turn have different cycle types; U and U*D' do not, but U*D' moves
  // two faces: not conjugate to one face turn.
  auto none = find_conjugator(cube, u, u * P(CUBE[D]).inverse());
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

// The normal closure of <U> in the cube group is the whole group (GAP 4.12: NormalClosure has
// size 43252003274489856000); <U> itself is not normal, the commutator subgroup is.
TEST(Backtrack, CubeNormalClosureAndIsNormal) {
  PermGroup cube = G(CUBE);
  PermGroup u = G({CUBE[U]});
  auto closure = normal_closure(cube, u);
  ASSERT_TRUE(closure.ok());
  EXPECT_EQ(closure->order(), cube.order());
  EXPECT_FALSE(is_normal(cube, u));
  EXPECT_TRUE(is_normal(cube, derived_subgroup(cube)));
  EXPECT_TRUE(is_normal(cube, cube));
}

// GAP 4.12 on M24 (generators a, b, c above): Size(Normalizer(M, Subgroup(M, [a]))) = 253,
// the same for [b]: 240, for [c]: 7680; Size(Centralizer(M, c)) = 7680, of b: 60;
// Size(Stabilizer(M, [1..8], OnSets)) = 384, of the octad [1,2,3,4,5,8,11,13]: 322560.
TEST(Backtrack, M24MatchesGap) {
  PermGroup m24 = G(M24);
  auto na = normalizer(m24, G({M24[0]}));
  ASSERT_TRUE(na.ok());
  EXPECT_EQ(na->order(), 253);
  auto nb = normalizer(m24, G({M24[1]}));
  ASSERT_TRUE(nb.ok());
  EXPECT_EQ(nb->order(), 240);
  auto nc = normalizer(m24, G({M24[2]}));
  ASSERT_TRUE(nc.ok());
  EXPECT_EQ(nc->order(), 7680);
  auto cc = centralizer(m24, P(M24[2]));
  ASSERT_TRUE(cc.ok());
  EXPECT_EQ(cc->order(), 7680);
  auto s8 = set_stabilizer(m24, {0, 1, 2, 3, 4, 5, 6, 7});
  ASSERT_TRUE(s8.ok());
  EXPECT_EQ(s8->order(), 384);
  auto octad = set_stabilizer(m24, {0, 1, 2, 3, 4, 7, 10, 12});
  ASSERT_TRUE(octad.ok());
  EXPECT_EQ(octad->order(), 322560);
  auto cb = centralizer(m24, P(M24[1]));
  ASSERT_TRUE(cb.ok());
  EXPECT_EQ(cb->order(), 60);
  auto z = center(m24);
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->order(), 1);
}

// PSL(2,1031): the normalizer of the translation x -> x+1 is the Borel subgroup of order
// 1031 * 515 (GAP 4.12 agrees); the inversion x -> -1/x (order 2) has a dihedral centralizer of
// order q+1 = 1032.
TEST(Backtrack, Psl2Normalizers) {
  auto gens = psl2_generators(1031);
  PermGroup psl = G(gens);
  auto ns = normalizer(psl, G(std::vector<Perm>{gens[0]}));
  ASSERT_TRUE(ns.ok()) << ns.error().message;
  EXPECT_EQ(ns->order(), 1031 * 515);
  auto ci = centralizer(psl, gens[1]);
  ASSERT_TRUE(ci.ok());
  EXPECT_EQ(ci->order(), 1032);
}

// A large transitive H (order 1327104 in S16, beyond the candidate pruning): GAP 4.12's
// Size(Normalizer(SymmetricGroup(16), H)) = 2654208.
TEST(Backtrack, NormalizerOfALargeTransitiveSubgroup) {
  PermGroup s16 = G(std::vector<std::string>{"(1,2)", "(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)"});
  PermGroup h =
      G({"(1,3)(2,4)", "(1,5,9,13)(2,6,10,14)(3,7,11,15)(4,8,12,16)", "(1,2)", "(5,6,7)"});
  ASSERT_EQ(h.order(), 1327104);
  auto n = normalizer(s16, h);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->order(), 2654208);
}

// S_n: the stabilizer of a k-set is S_k x S_{n-k}.
TEST(Backtrack, SymmetricSetStabilizers) {
  for (std::size_t n : {5u, 8u, 12u}) {
    std::string cycle = "(";
    for (std::size_t i = 1; i <= n; ++i) cycle += (i > 1 ? "," : "") + std::to_string(i);
    PermGroup s = G({"(1,2)", cycle + ")"});
    for (std::size_t k = 0; k <= n; ++k) {
      std::vector<Point> set;
      for (std::size_t i = 0; i < k; ++i) set.push_back(static_cast<Point>((3 * i) % n));
      std::sort(set.begin(), set.end());
      set.erase(std::unique(set.begin(), set.end()), set.end());
      auto st = set_stabilizer(s, set);
      ASSERT_TRUE(st.ok());
      mpz_class a, b;
      mpz_fac_ui(a.get_mpz_t(), set.size());
      mpz_fac_ui(b.get_mpz_t(), n - set.size());
      EXPECT_EQ(st->order(), a * b) << "n=" << n << " k=" << set.size();
    }
  }
}

// Brute force over every element of random subgroups of S5 and S6.
TEST(Backtrack, SmallGroupsAgainstBruteForce) {
  Rng rng(25);
  PermGroup s6 = G(std::vector<std::string>{"(1,2)", "(1,2,3,4,5,6)"});
  PermGroup s5 = G(std::vector<std::string>{"(1,2)", "(1,2,3,4,5)"});
  for (int trial = 0; trial < 40; ++trial) {
    const PermGroup& big = trial % 2 ? s6 : s5;
    std::vector<Perm> gens = {big.random_element(rng)};
    if (trial % 3) gens.push_back(big.random_element(rng));
    if (trial % 5 == 0) gens = {big.random_element(rng), big.random_element(rng)};
    PermGroup g = G(gens);
    auto all = g.elements(1000);
    ASSERT_TRUE(all.ok());
    auto everything = big.elements(1000);
    ASSERT_TRUE(everything.ok());
    // Centralizer of an element (of the big group) in g, and |C(x)|·|x^G| = |G|.
    Perm x = big.random_element(rng);
    std::size_t commuting = 0;
    std::set<Perm> klass;
    for (const Perm& e : *all) {
      commuting += e * x == x * e;
      klass.insert(x.conjugate(e));
    }
    auto cx = centralizer(g, x);
    ASSERT_TRUE(cx.ok());
    EXPECT_EQ(cx->order(), commuting) << trial;
    if (g.contains(x)) EXPECT_EQ(cx->order() * klass.size(), g.order());
    // Conjugacy: with y in the class (found) and a random y (agrees with the class).
    for (const Perm& y : {x.conjugate((*all)[rng.uniform<std::size_t>(0, all->size() - 1)]),
                          big.random_element(rng)}) {
      auto c = find_conjugator(g, x, y);
      ASSERT_TRUE(c.ok());
      EXPECT_EQ(c->has_value(), klass.count(y.extended(x.degree())) + klass.count(y) > 0)
          << trial << " " << x.to_cycle_string() << " " << y.to_cycle_string();
      if (c->has_value()) {
        EXPECT_EQ(x.conjugate(**c), y);
        EXPECT_TRUE(g.contains(**c));
      }
    }
    // Centre.
    std::size_t central = 0;
    for (const Perm& e : *all) {
      bool ok = true;
      for (const Perm& s : g.generators()) ok = ok && e * s == s * e;
      central += ok;
    }
    auto z = center(g);
    ASSERT_TRUE(z.ok());
    EXPECT_EQ(z->order(), central) << trial;
    // Normalizer in the big group of g, and of a cyclic subgroup.
    for (const PermGroup& h : {g, G(std::vector<Perm>{x})}) {
      std::size_t normalizing = 0;
      for (const Perm& e : *everything) {
        bool ok = true;
        for (const Perm& s : h.generators()) ok = ok && h.contains(s.conjugate(e));
        normalizing += ok;
      }
      auto n = normalizer(big, h);
      ASSERT_TRUE(n.ok());
      EXPECT_EQ(n->order(), normalizing) << trial;
    }
    // Set stabilizer of a random set.
    std::vector<Point> set;
    for (Point p = 0; p < 6; ++p) {
      if (rng.uniform<int>(0, 1)) set.push_back(p);
    }
    std::size_t stabilizing = 0;
    for (const Perm& e : *all) {
      bool ok = true;
      for (Point p : set) ok = ok && std::find(set.begin(), set.end(), e.image(p)) != set.end();
      stabilizing += ok;
    }
    auto st = set_stabilizer(g, set);
    ASSERT_TRUE(st.ok());
    EXPECT_EQ(st->order(), stabilizing) << trial;
    // Intersection with another random subgroup.
    PermGroup other = G({big.random_element(rng), big.random_element(rng)});
    std::size_t common = 0;
    for (const Perm& e : *all) common += other.contains(e);
    auto meet = intersection(g, other);
    ASSERT_TRUE(meet.ok());
    EXPECT_EQ(meet->order(), common) << trial;
    expect_inside(g, *meet);
    expect_inside(other, *meet);
  }
}

// The commands' JSON (the interface scripts rely on): "order" as a decimal string and
// "generators" wherever a group is the answer.
TEST(Backtrack, CliCommands) {
  using test::run_cli;
  std::string cube;
  for (const auto& g : CUBE) cube += " '" + g + "'";
  auto z = run_cli("--json group center" + cube);
  ASSERT_EQ(z.exit_code, 0) << z.err;
  EXPECT_EQ(z.json()["order"], "2");
  EXPECT_EQ(z.json()["generators"].size(), 1u);
  auto c = run_cli("--json group centralizer -e '" + CUBE[U] + "'" + cube);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(c.json()["order"], "160526499840");
  auto n = run_cli("--json group normalizer" + cube + " -s '" + CUBE[U] + "'");
  ASSERT_EQ(n.exit_code, 0) << n.err;
  EXPECT_EQ(n.json()["order"], "321052999680");
  auto st = run_cli("--json group set-stabilizer --set 1,2 '(1,2)' '(1,2,3,4,5)'");
  ASSERT_EQ(st.exit_code, 0) << st.err;
  EXPECT_EQ(st.json()["order"], "12");
  // A4 ∩ <(1,2), (3,4)> = {(), (1,2)(3,4)}.
  auto meet = run_cli("--json group intersection '(1,2,3)' '(2,3,4)' -s '(1,2)' -s '(3,4)'");
  ASSERT_EQ(meet.exit_code, 0) << meet.err;
  EXPECT_EQ(meet.json()["order"], "2");
  EXPECT_EQ(meet.json()["generators"][0], "(1,2)(3,4)");
  auto normal =
      run_cli("--json group is-normal '(1,2)' '(1,2,3,4)' -s '(1,2)(3,4)' -s '(1,3)(2,4)'");
  ASSERT_EQ(normal.exit_code, 0) << normal.err;
  EXPECT_EQ(normal.json()["is_normal"], true);
  auto closure = run_cli("--json group normal-closure '(1,2)' '(1,2,3,4)' -s '(1,2,3)'");
  ASSERT_EQ(closure.exit_code, 0) << closure.err;
  EXPECT_EQ(closure.json()["order"], "12");  // A4
  auto conj =
      run_cli("--json group is-conjugate -e '" + CUBE[U] + "' --to '" + CUBE[R] + "'" + cube);
  ASSERT_EQ(conj.exit_code, 0) << conj.err;
  EXPECT_EQ(conj.json()["conjugate"], true);
  auto both = run_cli("group centralizer -e '(1,2)' -s '(1,2)' '(1,2)' '(1,2,3)'");
  EXPECT_EQ(both.exit_code, 2);
}

// A stop request ends a search with the run's stop error.
TEST(Backtrack, HonoursTheStopRequest) {
  PermGroup cube = G(CUBE);
  std::stop_source source;
  source.request_stop();
  RunContext run;
  run.with_stop_token(source.get_token());
  auto c = centralizer(cube, P(CUBE[U]), &run);
  ASSERT_FALSE(c.ok());
}

}  // namespace backtrack_test
}  // namespace permuzzle
