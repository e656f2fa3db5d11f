// Conjugacy classes, block systems, structure names and generator files, checked against facts
// from outside the code: partition numbers p(n) (classes of S_n), the class counts of A_n, M11,
// M24-free small groups and the structure names GAP 4.12 gives (recorded by running GAP outside
// the repository: NrConjugacyClasses and StructureDescription of the same generators), the cube
// group's 81,120 classes, brute force over all elements (classes by enumeration against the
// piece-structure method, blocks against every subset), and identities (class sizes add up to
// |G|, |C(x)| · |class| = |G| with C(x) counted element by element).
#include <gtest/gtest.h>

#include <map>

#include "cli_runner.hpp"
#include "permuzzle/group/blocks.hpp"
#include "permuzzle/group/classes.hpp"
#include "permuzzle/group/composition.hpp"
#include "permuzzle/group/generator_text.hpp"
#include "permuzzle/group/naming.hpp"
#include "permuzzle/group/sylow.hpp"

namespace permuzzle {
namespace group_structure_test {

PermGroup G(const std::vector<std::string>& gens) {
  std::vector<Perm> perms;
  for (const auto& g : gens) {
    auto p = Perm::parse(g);
    EXPECT_TRUE(p.ok()) << g;
    perms.push_back(p.ok() ? *p : Perm());
  }
  auto group = PermGroup::from_generators(perms);
  EXPECT_TRUE(group.ok());
  return group.ok() ? *group : PermGroup();
}

std::string cycle_text(std::size_t from, std::size_t to) {
  std::string s = "(";
  for (std::size_t i = from; i <= to; ++i) s += (i > from ? "," : "") + std::to_string(i);
  return s + ")";
}

PermGroup symmetric(std::size_t n) {
  return G({"(1,2)", cycle_text(1, n)});
}
PermGroup alternating(std::size_t n) {
  // (1,2,3) and an n-cycle (n odd) or (2,...,n) (n even) generate A_n.
  return G({"(1,2,3)", n % 2 ? cycle_text(1, n) : cycle_text(2, n)});
}

const std::vector<std::string> CUBE = {
    "(1,3,8,6)(2,5,7,4)(9,33,25,17)(10,34,26,18)(11,35,27,19)",
    "(9,11,16,14)(10,13,15,12)(1,17,41,40)(4,20,44,37)(6,22,46,35)",
    "(17,19,24,22)(18,21,23,20)(6,25,43,16)(7,28,42,13)(8,30,41,11)",
    "(25,27,32,30)(26,29,31,28)(3,38,43,19)(5,36,45,21)(8,33,48,24)",
    "(33,35,40,38)(34,37,39,36)(3,9,46,32)(2,12,47,29)(1,14,48,27)",
    "(41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40)"};
const std::vector<std::string> M11 = {"(1,2,3,4,5,6,7,8,9,10,11)", "(3,7,11,8)(4,10,5,6)"};
const std::vector<std::string> M24 = {
    "(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23)",
    "(3,17,10,7,9)(4,13,14,19,5)(8,18,11,12,23)(15,20,22,21,16)",
    "(1,24)(2,23)(3,12)(4,16)(5,18)(6,10)(7,20)(8,14)(9,21)(11,17)(13,22)(15,19)"};

mpz_class count_of(const PermGroup& g, bool by_enumeration = false) {
  ClassOptions options;
  options.count_only = true;
  options.by_enumeration = by_enumeration;
  auto classes = conjugacy_classes(g, options);
  EXPECT_TRUE(classes.ok()) << (classes.ok() ? "" : classes.error().message);
  return classes.ok() ? classes->count : mpz_class(-1);
}

TEST(ConjugacyClasses, SymmetricGroupsHavePartitionNumbers) {
  const unsigned long partitions[] = {1, 2, 3, 5, 7, 11, 15, 22, 30, 42, 56, 77, 101, 135, 176};
  for (std::size_t n = 2; n <= 15; ++n) {
    EXPECT_EQ(count_of(symmetric(n)), partitions[n - 1]) << "S" << n;
  }
  EXPECT_EQ(count_of(symmetric(40)), 37338);  // p(40)
}

TEST(ConjugacyClasses, AlternatingGroupsAsGapCountsThem) {
  // GAP 4.12: List([3..12], n -> NrConjugacyClasses(AlternatingGroup(n))).
  const unsigned long gap[] = {3, 4, 5, 7, 9, 14, 18, 24, 31, 43};
  for (std::size_t n = 3; n <= 12; ++n) EXPECT_EQ(count_of(alternating(n)), gap[n - 3]) << n;
}

TEST(ConjugacyClasses, CubeGroupHas81120) {
  PermGroup cube = G(CUBE);
  EXPECT_EQ(count_of(cube), 81120);
  ClassOptions options;
  auto classes = conjugacy_classes(cube, options);
  ASSERT_TRUE(classes.ok()) << classes.error().message;
  ASSERT_EQ(classes->classes.size(), 81120u);
  mpz_class total = 0;
  std::map<std::string, int> orders;
  for (const auto& c : classes->classes) {
    total += c.size;
    EXPECT_EQ(cube.order() % c.size, 0);
  }
  EXPECT_EQ(total, cube.order());
  EXPECT_TRUE(classes->classes[0].representative.is_identity());
  EXPECT_EQ(classes->classes[0].size, 1);
  // The superflip is central: a class of size 1 of order 2 (the only other one).
  EXPECT_EQ(classes->classes[1].size, 1);
  EXPECT_EQ(classes->classes[1].element_order, 2);
  EXPECT_GT(classes->classes[2].size, 1);
}

TEST(ConjugacyClasses, SmallGroupsAsGapCountsThem) {
  // GAP 4.12, NrConjugacyClasses of the same groups.
  EXPECT_EQ(count_of(G(M11)), 10);
  EXPECT_EQ(count_of(G({"(1,2,3,4)", "(1,3)"})), 5);                        // D8
  EXPECT_EQ(count_of(G({"(1,2,3,4,5)", "(2,5)(3,4)"})), 4);                 // D10
  EXPECT_EQ(count_of(G({"(1,2)", "(3,4,5,6,7,8)"})), 12);                   // C2 x C6
  EXPECT_EQ(count_of(G({"(1,2,3)", "(1,2)", "(4,5,6)", "(4,5)"})), 9);      // S3 x S3
  EXPECT_EQ(count_of(G({"(1,2,3)", "(1,2)", "(1,4)(2,5)(3,6)"})), 9);       // S3 wr S2
  EXPECT_EQ(count_of(G({"(1,2)", "(1,3,5)(2,4,6)", "(1,3)(2,4)"})), 10);    // C2 wr S3
  EXPECT_EQ(count_of(G({"(1,2,4,3)(5,6,8,7)", "(1,5,4,8)(2,7,3,6)"})), 5);  // Q8
  EXPECT_EQ(count_of(G({"(1,2)", cycle_text(1, 10), "(11,12)", cycle_text(11, 16)})), 462);
  // M24 (244,823,040 elements, no piece structure): random elements and backtrack (GAP: 26).
  ClassOptions options;
  auto m24 = conjugacy_classes(G(M24), options);
  ASSERT_TRUE(m24.ok()) << m24.error().message;
  EXPECT_EQ(m24->count, 26);
  mpz_class total = 0;
  for (const auto& c : m24->classes) total += c.size;
  EXPECT_EQ(total, G(M24).order());
}

TEST(Sylow, OrdersArePrimeParts) {
  // |Sylow_p| = the p-part of |G| (M24: 2^10, 3^3, 23; M11: 2^4, 3^2, 11; S6: 2^4, 3^2, 5).
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::pair<int, int>>>> cases = {
      {M24, {{2, 1024}, {3, 27}, {23, 23}, {13, 1}}},
      {M11, {{2, 16}, {3, 9}, {11, 11}}},
      {{"(1,2)", "(1,2,3,4,5,6)"}, {{2, 16}, {3, 9}, {5, 5}}}};
  for (const auto& [gens, primes] : cases) {
    PermGroup g = G(gens);
    for (const auto& [p, order] : primes) {
      auto sylow = sylow_subgroup(g, p);
      ASSERT_TRUE(sylow.ok()) << sylow.error().message;
      EXPECT_EQ(sylow->order(), order) << "p = " << p;
      for (const Perm& x : sylow->generators()) EXPECT_TRUE(g.contains(x));
    }
  }
  EXPECT_FALSE(sylow_subgroup(G(M11), 4).ok());
}

TEST(ConjugacyClasses, PieceMethodAgreesWithEnumeration) {
  const std::vector<std::vector<std::string>> groups = {
      {"(1,2)", "(1,3,5)(2,4,6)", "(1,3)(2,4)"},                // C2 wr S3
      {"(1,2)(3,4)", "(1,3,5)(2,4,6)", "(1,3)(2,4)"},           // twist sum 0
      {"(1,2,3)", "(1,4,7)(2,5,8)(3,6,9)", "(1,4)(2,5)(3,6)"},  // C3 wr S3
      {"(1,2,3)(4,6,5)", "(1,4,7)(2,5,8)(3,6,9)", "(1,4)(2,5)(3,6)(10,11)"},
      {"(1,2,3)(5,6)", "(1,2)(4,5)", "(7,8,9)(10,11)"},  // products with parity links
      {"(1,2)(3,4)", "(1,2,3)", "(5,6,7)", "(5,6)(7,8)"},
      {"(1,2,3)(4,5,6)", "(1,4)(2,5)(3,6)", "(1,4,7)(2,5,8)(3,6,9)", "(10,11)(1,2,3)"}};
  for (const auto& gens : groups) {
    PermGroup g = G(gens);
    ASSERT_TRUE(piece_structure(g).has_value()) << gens[0];
    ClassOptions pieces, enumeration;
    enumeration.by_enumeration = true;
    auto a = conjugacy_classes(g, pieces);
    auto b = conjugacy_classes(g, enumeration);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->method, "piece structure");
    ASSERT_EQ(a->count, b->count) << gens[0] << " order " << g.order().get_str();
    // The same classes: every piece representative's class (by enumeration) once, same size.
    auto elements = g.elements(100000);
    ASSERT_TRUE(elements.ok());
    std::map<std::string, std::size_t> class_of;  // element -> index into b
    for (std::size_t i = 0; i < b->classes.size(); ++i) {
      for (const Perm& y : *elements) {
        class_of[b->classes[i].representative.conjugate(y).to_cycle_string()] = i;
      }
    }
    std::vector<int> hit(b->classes.size(), 0);
    for (const auto& c : a->classes) {
      const std::size_t i = class_of.at(c.representative.to_cycle_string());
      ++hit[i];
      EXPECT_EQ(c.size, b->classes[i].size);
      // |C(x)| · |class| = |G|, C(x) counted element by element.
      std::size_t centraliser = 0;
      for (const Perm& y : *elements)
        centraliser += c.representative.conjugate(y) == c.representative;
      EXPECT_EQ(c.size * centraliser, g.order());
    }
    for (int h : hit) EXPECT_EQ(h, 1);
  }
}

TEST(Blocks, MinimalSystemsMatchBruteForce) {
  const std::vector<std::vector<std::string>> groups = {
      {"(1,2,3,4)", "(1,3)"},                     // D8: {1,3},{2,4}
      {"(1,2)", "(1,3,5)(2,4,6)", "(1,3)(2,4)"},  // C2 wr S3
      {"(1,2,3,4,5,6)"},                          // C6: blocks of 2 and of 3
      {"(1,2,3,4)", "(1,2)"},                     // S4: primitive
      {"(1,2,3)", "(1,2)", "(1,4)(2,5)(3,6)"},    // S3 wr S2
      {"(1,2,3,4,5,6,7,8)", "(1,3)(5,7)"}};
  for (const auto& gens : groups) {
    PermGroup g = G(gens);
    auto all = minimal_block_systems(g);
    ASSERT_TRUE(all.ok());
    ASSERT_EQ(all->size(), 1u);
    const auto& orbit = (*all)[0].orbit;
    auto elements = g.elements(100000);
    ASSERT_TRUE(elements.ok());
    // Every block containing the first point, by brute force over subsets.
    std::vector<std::vector<Point>> blocks;
    const std::size_t n = orbit.size();
    for (std::uint32_t mask = 1; mask < (1u << n) - 1; ++mask) {
      if (!(mask & 1) || std::popcount(mask) < 2) continue;
      std::vector<Point> b;
      for (std::size_t i = 0; i < n; ++i) {
        if (mask >> i & 1) b.push_back(orbit[i]);
      }
      bool is_block = true;
      for (const Perm& x : *elements) {
        std::vector<Point> image;
        for (Point p : b) image.push_back(x.image(p));
        std::sort(image.begin(), image.end());
        std::vector<Point> common;
        std::set_intersection(b.begin(), b.end(), image.begin(), image.end(),
                              std::back_inserter(common));
        if (!common.empty() && common != b) is_block = false;
      }
      if (is_block) blocks.push_back(b);
    }
    std::vector<std::vector<Point>> minimal;
    for (const auto& b : blocks) {
      bool contains = false;
      for (const auto& c : blocks) {
        contains = contains ||
                   (c.size() < b.size() && std::includes(b.begin(), b.end(), c.begin(), c.end()));
      }
      if (!contains) minimal.push_back(b);
    }
    std::vector<std::vector<Point>> found;
    for (const auto& system : (*all)[0].minimal_systems) {
      EXPECT_TRUE(is_block_system(g.generators(), system));
      found.push_back(system[0]);  // the block of the first point
    }
    std::sort(found.begin(), found.end());
    std::sort(minimal.begin(), minimal.end());
    EXPECT_EQ(found, minimal) << gens[0];
    EXPECT_EQ((*all)[0].primitive(), minimal.empty());
  }
}

TEST(StructureNames, AsGapSpellsThem) {
  // GAP 4.12 StructureDescription of the same groups.
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"(1,2)", "(3,4)"}, "C2 x C2"},
      {{"(1,2,3)", "(4,5,6)"}, "C3 x C3"},
      {{"(1,2,3)", "(4,5,6)", "(7,8,9)"}, "C3 x C3 x C3"},
      {{"(1,2)", "(3,4,5,6,7,8)"}, "C6 x C2"},
      {{"(1,2,3,4,5,6,7,8,9,10,11,12)"}, "C12"},
      {{"(1,2,3,4)", "(1,3)"}, "D8"},
      {{"(1,2,3,4,5)", "(2,5)(3,4)"}, "D10"},
      {{"(1,2)", "(1,2,3)"}, "S3"},
      {{"(1,2)", "(1,2,3,4,5,6,7,8,9,10)", "(11,12)", "(11,12,13,14,15,16)"}, "S10 x S6"},
      {{"(1,2,3)", "(1,2)", "(4,5,6)", "(4,5)"}, "S3 x S3"},
      {M11, "M11"},
      {{"(1,2,3,4,5,6,7,8,9,10,11)", "(3,7,11,8)(4,10,5,6)", "(1,12)(2,11)(3,6)(4,8)(5,9)(7,10)"},
       "M12"},
      {{"(1,2,3,4,5,6,7,8,9,10,11)(12,13,14,15,16,17,18,19,20,21,22)",
        "(1,4,5,9,3)(2,8,10,7,6)(12,15,16,20,14)(13,19,21,18,17)",
        "(1,21)(2,10,8,6)(3,13,4,17)(5,19,9,18)(11,22)(12,14,16,20)"},
       "M22"},
      {{M24[0], M24[1]}, "M23"},
      {M24, "M24"},
      {{"(3,8,6,4,9,7,5)", "(1,2,3)(4,7,5)(6,9,8)"}, "PSL(2,8)"},
      {{"(3,11,9,7,5)(4,12,10,8,6)", "(1,2,8)(3,7,9)(4,10,5)(6,12,11)"}, "PSL(2,11)"},
      {{"(3,7,5)(4,8,6)", "(1,2,6)(3,4,8)"}, "PSL(3,2)"},
      {{"(3,13,11,9,7,5)(4,14,12,10,8,6)", "(1,2,9)(3,8,10)(4,5,12)(6,13,14)"}, "PSL(2,13)"},
      // Too many normal subgroups to list: the cyclic central factors are split off.
      {{"(1,2,3,4)", "(1,3)", "(5,6)", "(7,8)", "(9,10)", "(11,12)", "(13,14)", "(15,16)",
        "(17,18)"},
       "C2 x C2 x C2 x C2 x C2 x C2 x C2 x D8"},
      {{"(1,2,4,7)(3,6,8,5)", "(1,3,4,8)(2,5,7,6)", "(9,10)", "(11,12)", "(13,14)", "(15,16)",
        "(17,18)", "(19,20)"},
       "C2 x C2 x C2 x C2 x C2 x C2 x Q8"},
      {{"(1,2,3,4)", "(1,3)", "(5,6,7,8)", "(9,10)", "(11,12)", "(13,14)", "(15,16)", "(17,18)"},
       "C2 x C2 x C2 x C2 x C2 x C4 x D8"},
  };
  for (const auto& [gens, name] : cases) {
    auto found = structure_name(G(gens));
    ASSERT_TRUE(found.has_value()) << name;
    EXPECT_EQ(*found, name);
  }
  // GAP: Q8 (a non-cyclic 2-group with one involution).
  EXPECT_EQ(structure_name(G({"(1,2,4,3)(5,6,8,7)", "(1,5,4,8)(2,7,3,6)"})).value_or(""), "Q8");
}

TEST(StructureNames, WreathAndPuzzleGroups) {
  // The issue's names (GAP 4.12 spells S12 wr S2 "(A12 x A12) : D8", S3 wr S2 "(S3 x S3) : C2").
  std::vector<std::string> s12_wr_s2 = {
      "(1,2)", cycle_text(1, 12),
      "(1,13)(2,14)(3,15)(4,16)(5,17)(6,18)(7,19)(8,20)(9,21)(10,22)(11,23)(12,24)"};
  EXPECT_EQ(structure_name(G(s12_wr_s2)).value_or(""), "S12 wr S2");
  EXPECT_EQ(structure_name(G({"(1,2,3,4,5)", "(1,2,3)", "(1,6)(2,7)(3,8)(4,9)(5,10)",
                              "(6,7,8,9,10)", "(1,6,11)(2,7,12)(3,8,13)(4,9,14)(5,10,15)"}))
                .value_or(""),
            "A5 wr S3");
  EXPECT_EQ(structure_name(G(CUBE)).value_or(""), "(C3^7 x C2^11) : ((A8 x A12) : C2)");
}

// GAP 4.12: the names of the composition factors of the same groups (CompositionSeries, then
// StructureDescription of each factor). Jordan–Hölder: the factors are unique up to order (GAP
// lists S6 x S5's as C2, A6, C2, A5), so they are compared as multisets.
TEST(CompositionSeries, FactorsAsGapNamesThem) {
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"(1,2)", "(1,2,3,4)"}, {"C2", "C3", "C2", "C2"}},
      {{"(1,2)", "(1,2,3,4,5)"}, {"C2", "A5"}},
      {M11, {"M11"}},
      {{"(1,2)", "(1,2,3,4,5,6)", "(7,8)", "(7,8,9,10,11)"}, {"C2", "A6", "C2", "A5"}},
  };
  for (const auto& [gens, gap_factors] : cases) {
    PermGroup g = G(gens);
    auto series = composition_series(g);
    ASSERT_TRUE(series.ok()) << series.error().message;
    auto ours = series->factors, theirs = gap_factors;
    std::sort(ours.begin(), ours.end());
    std::sort(theirs.begin(), theirs.end());
    EXPECT_EQ(ours, theirs);
  }
  // The cube group: C2 (the sign link), A8, A12, then the twists C2^11 and C3^7.
  PermGroup cube = G(CUBE);
  auto series = composition_series(cube);
  ASSERT_TRUE(series.ok()) << series.error().message;
  std::map<std::string, int> count;
  for (const auto& f : series->factors) ++count[f];
  EXPECT_EQ(count, (std::map<std::string, int>{{"A12", 1}, {"A8", 1}, {"C2", 12}, {"C3", 7}}));
  // Each group normal in the one before, the factor orders multiplying to |G|.
  mpz_class product = 1;
  for (std::size_t i = 0; i + 1 < series->groups.size(); ++i) {
    const PermGroup& top = series->groups[i];
    const PermGroup& below = series->groups[i + 1];
    for (const Perm& h : below.generators()) {
      EXPECT_TRUE(top.contains(h));
      for (const Perm& x : top.generators()) EXPECT_TRUE(below.contains(h.conjugate(x)));
    }
    product *= top.order() / below.order();
  }
  EXPECT_EQ(product, cube.order());
  EXPECT_EQ(series->groups.back().order(), 1);
}

TEST(GeneratorText, GapListsAndCycleLines) {
  // GAP prints long lists across lines (this is its output for MathieuGroup(24)).
  auto list = parse_generator_text(
      "[ ( 1, 2, 3, 4, 5, 6, 7, 8, 9,10,11,12,13,14,15,16,17,18,19,20,21,22,23), \n"
      "  ( 3,17,10, 7, 9)( 4,13,14,19, 5)( 8,18,11,12,23)(15,20,22,21,16), \n"
      "  ( 1,24)( 2,23)( 3,12)( 4,16)( 5,18)( 6,10)( 7,20)( 8,14)( 9,21)(11,17)\n"
      "    (13,22)(15,19) ]\n",
      "m24.g");
  ASSERT_TRUE(list.ok()) << list.error().message;
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ((*list)[2].perm, *Perm::parse(M24[2]));
  auto lines = parse_generator_text("# the 2x2 face\nU=(1,2,3,4) (5,6)(7,8)\nR := [2,1]\n", "f");
  ASSERT_TRUE(lines.ok()) << lines.error().message;
  ASSERT_EQ(lines->size(), 3u);
  EXPECT_EQ((*lines)[0].name, "U");
  EXPECT_EQ((*lines)[1].perm.to_cycle_string(), "(5,6)(7,8)");
  EXPECT_EQ((*lines)[2].name, "R");
  auto bad = parse_generator_text("(1,2)\n(3,x)\n", "bad.g");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("bad.g:2:1"), std::string::npos) << bad.error().message;
  EXPECT_FALSE(parse_generator_text("[ (1,2), ", "open").ok());
  EXPECT_FALSE(parse_generator_text("  # nothing\n", "empty").ok());
}

TEST(GroupStructureCli, ClassesBlocksDescribeAndFiles) {
  auto classes = test::run_cli("group conjugacy-classes --json '(1,2,3,4)' '(1,2)'");
  ASSERT_EQ(classes.exit_code, 0) << classes.err;
  EXPECT_EQ(classes.json()["count"], "5");
  EXPECT_EQ(classes.json()["classes"].size(), 5u);
  EXPECT_EQ(classes.json()["classes"][0]["representative"], "()");
  EXPECT_EQ(classes.json()["classes"][0]["size"], "1");
  auto many =
      test::run_cli("group conjugacy-classes --limit 10 '(1,2)' '" + cycle_text(1, 12) + "'");
  EXPECT_EQ(many.exit_code, 3) << many.err;  // 77 classes, more than --limit 10
  auto blocks = test::run_cli("group blocks --json '(1,2,3,4)' '(1,3)'");
  ASSERT_EQ(blocks.exit_code, 0) << blocks.err;
  EXPECT_EQ(blocks.json()["primitive"], false);
  EXPECT_EQ(blocks.json()["orbits"][0]["minimal_systems"][0]["blocks"],
            nlohmann::json::parse("[[1,3],[2,4]]"));
  auto d8 = test::run_cli("group describe --json '(1,2,3,4)' '(1,3)'");
  ASSERT_EQ(d8.exit_code, 0) << d8.err;
  EXPECT_EQ(d8.json()["structure"], "D8");
  EXPECT_EQ(d8.json()["order"], "8");
  auto from_stdin = test::run_cli("group order --json --generators-file -",
                                  "[ (1,2,3,4,5,6,7,8,9,10,11), "
                                  "( 3, 7,11, 8)( 4,10, 5, 6) ]\n");
  ASSERT_EQ(from_stdin.exit_code, 0) << from_stdin.err;
  EXPECT_EQ(from_stdin.json()["order"], "7920");
  // The issue's spelling, `--generators FILE|-`, is the same option on the command line.
  auto issue_spelling = test::run_cli("group describe --json --generators -",
                                      "[ (1,2,3,4,5,6,7,8,9,10,11), "
                                      "( 3, 7,11, 8)( 4,10, 5, 6) ]\n");
  ASSERT_EQ(issue_spelling.exit_code, 0) << issue_spelling.err;
  EXPECT_EQ(issue_spelling.json()["structure"], "M11");
  // A Sylow subgroup named in GAP's spelling (GAP 4.12: StructureDescription(SylowSubgroup(
  // SymmetricGroup(6), 2)) = "C2 x D8").
  auto sylow = test::run_cli("group sylow --json --prime 2 '(1,2)' '(1,2,3,4,5,6)'");
  ASSERT_EQ(sylow.exit_code, 0) << sylow.err;
  EXPECT_EQ(sylow.json()["order"], "16");
  EXPECT_EQ(sylow.json()["structure"], "C2 x D8");
  auto series = test::run_cli("group composition-series --json '(1,2)' '(1,2,3,4,5)'");
  ASSERT_EQ(series.exit_code, 0) << series.err;
  EXPECT_EQ(series.json()["factors"], nlohmann::json::parse(R"(["C2","A5"])"));
  auto both = test::run_cli("group order --generators-file - '(1,2)'", "(1,2)\n");
  EXPECT_EQ(both.exit_code, 2);
}

}  // namespace group_structure_test
}  // namespace permuzzle
