// Rubik's cube: geometry-derived moves against GAP's generators and Kociemba's cubie tables,
// the semidirect product against the sticker permutation product, the fundamental theorem.
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/cube/cubie.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"

namespace cube_test {

using namespace permuzzle;
using namespace permuzzle::cube;

namespace {

// groups.md: GAP's cube example.
const char* const GAP_GENS[6][2] = {
    {"U", "( 1, 3, 8, 6)( 2, 5, 7, 4)( 9,33,25,17)(10,34,26,18)(11,35,27,19)"},
    {"L", "( 9,11,16,14)(10,13,15,12)( 1,17,41,40)( 4,20,44,37)( 6,22,46,35)"},
    {"F", "(17,19,24,22)(18,21,23,20)( 6,25,43,16)( 7,28,42,13)( 8,30,41,11)"},
    {"R", "(25,27,32,30)(26,29,31,28)( 3,38,43,19)( 5,36,45,21)( 8,33,48,24)"},
    {"B", "(33,35,40,38)(34,37,39,36)( 3, 9,46,32)( 2,12,47,29)( 1,14,48,27)"},
    {"D", "(41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40)"}};

CubieState cubie(const std::string& moves) {
  auto m = parse_moves(moves);
  EXPECT_TRUE(m.ok());
  auto c = from_sticker_perm(moves_perm(*m));
  EXPECT_TRUE(c.ok());
  return *c;
}

}  // namespace

TEST(Cube, MovesEqualGapGenerators) {
  for (auto& [name, cycles] : GAP_GENS) {
    auto gap = Perm::parse(cycles);
    ASSERT_TRUE(gap.ok());
    auto mine = to_gap(move_perm(name));
    ASSERT_TRUE(mine.ok());
    EXPECT_EQ(*mine, gap->extended(48)) << name;
    EXPECT_EQ(from_gap(*gap), move_perm(name).extended(54)) << name;
  }
  const auto gens = gap_generators();  // what the benchmarks use
  ASSERT_EQ(gens.size(), 6u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(gens[i], Perm::parse(GAP_GENS[i][1])->extended(48));
}

// Kociemba's published cubie tables ("replaced by" form: position i holds cubie cp[i] with
// orientation co[i]) for U, R and F.
TEST(Cube, MovesEqualKociembaCubieTables) {
  struct Table {
    const char* move;
    int cp[8], co[8], ep[12], eo[12];
  };
  const Table tables[] = {
      {"U", {3, 0, 1, 2, 4, 5, 6, 7}, {0}, {3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11}, {0}},
      {"R",
       {4, 1, 2, 0, 7, 5, 6, 3},
       {2, 0, 0, 1, 1, 0, 0, 2},
       {8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0},
       {0}},
      {"F",
       {1, 5, 2, 3, 0, 4, 6, 7},
       {1, 2, 0, 0, 2, 1, 0, 0},
       {0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11},
       {0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0}},
  };
  for (const auto& t : tables) {
    CubieState c = cubie(t.move);
    for (int pos = 0; pos < 8; ++pos) {
      EXPECT_EQ(c.r[t.cp[pos]], pos) << t.move;
      EXPECT_EQ(c.v[t.cp[pos]], t.co[pos]) << t.move << " corner " << pos;
    }
    for (int pos = 0; pos < 12; ++pos) {
      EXPECT_EQ(c.s[t.ep[pos]], pos) << t.move;
      EXPECT_EQ(c.w[t.ep[pos]], t.eo[pos]) << t.move;
    }
  }
}

TEST(Cube, RigidMotionsOfFaceTurnsAndRotations) {
  // For face turns the rigid-motion reading equals the sticker reading of from_sticker_perm
  // (the same convention); x, y, z are rigid with order 4; x^-1 U x (turn the cube as L does,
  // which brings the B layer up, turn U, turn back) is a quarter turn of B.
  for (const char* face : {"U", "R", "F", "D", "L", "B"}) {
    auto a = cube::rigid_motion_cubies(cube::move_perm(face));
    auto b = cube::from_sticker_perm(cube::move_perm(face));
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a, *b) << face;
  }
  for (const char* r : {"x", "y", "z"}) {
    auto c = cube::rigid_motion_cubies(cube::move_perm(r));
    ASSERT_TRUE(c) << r;
    EXPECT_FALSE(c->is_solved());
    EXPECT_TRUE((*c * *c * *c * *c).is_solved()) << r;
  }
  auto x = *cube::rigid_motion_cubies(cube::move_perm("x"));
  auto u = *cube::from_sticker_perm(cube::move_perm("U"));
  auto b = *cube::from_sticker_perm(cube::move_perm("B"));
  EXPECT_EQ(x.inverse() * u * x, b);
}

TEST(Cube, SemidirectProductEqualsStickerProduct) {
  permuzzle::Rng rng(3);
  const char* names[] = {"U", "D", "L", "R", "F", "B"};
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<CubeMove> seq;
    CubieState product;
    for (int k = 0; k < 1 + static_cast<int>(rng() % 30); ++k) {
      CubeMove m{names[rng() % 6], 1 + static_cast<int>(rng() % 3)};
      seq.push_back(m);
      CubieState one = *from_sticker_perm(move_perm(m.name));
      for (int t = 0; t < m.turns; ++t) product = product * one;
    }
    auto direct = from_sticker_perm(moves_perm(seq));
    ASSERT_TRUE(direct.ok());
    EXPECT_EQ(*direct, product) << format_moves(seq);
    EXPECT_EQ(to_sticker_perm(product), moves_perm(seq));
    EXPECT_TRUE((product * product.inverse()).is_solved());
    EXPECT_TRUE(check_theorem(product).solvable());
  }
}

TEST(Cube, NotationAndSlices) {
  auto m = parse_moves("R U R' U' M2 E' S x y2 z' Rw u3 F-");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(format_moves(*m), "R U R' U' M2 E' S x y2 z' r u' F'");
  EXPECT_EQ(format_moves(*parse_moves("RUR'U'")), "R U R' U'");
  EXPECT_FALSE(parse_moves("R Q").ok());
  EXPECT_EQ(parse_moves("R Q").error().position, 2u);
  auto p = [](const char* s) { return moves_perm(*parse_moves(s)); };
  EXPECT_EQ(p("M"), p("R L' x'"));
  EXPECT_EQ(p("E"), p("U D' y'"));
  EXPECT_EQ(p("S"), p("F' B z"));
  EXPECT_EQ(p("r"), p("R M'"));
  EXPECT_EQ(p("R U").order(), 105);  // well-known orders
  EXPECT_EQ(p("R U R' U'").order(), 6);
  EXPECT_EQ(p("M2 E2 S2").order(), 2);
  EXPECT_EQ(facelets_of(p("")), "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB");
  // U turns the F face's top row to L: F1..F3 now show... the stickers of R.
  EXPECT_EQ(facelets_of(p("U")).substr(18, 3), "RRR");
  // The superflip is order 2 and flips every edge.
  CubieState superflip = cubie("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
  for (auto w : superflip.w) EXPECT_EQ(w, 1);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(superflip.s[i], i);
  EXPECT_TRUE(superflip.r == CubieState{}.r);
}

TEST(Cube, FundamentalTheorem) {
  permuzzle::Rng rng(9);
  for (int i = 0; i < 100; ++i) {
    CubieState c = random_state(rng);
    EXPECT_TRUE(check_theorem(c).solvable());
    auto reading = read_facelets(to_facelets(c));
    ASSERT_TRUE(reading.ok());
    ASSERT_TRUE(reading->valid);
    EXPECT_EQ(reading->state, c);
  }
  CubieState twisted;
  twisted.v[0] = 1;
  auto t = check_theorem(twisted);
  ASSERT_EQ(t.failures().size(), 1u);
  EXPECT_NE(t.failures()[0].find("twist"), std::string::npos);
  CubieState all;
  std::swap(all.s[0], all.s[1]);
  all.w[3] = 1;
  all.v[2] = 2;
  EXPECT_EQ(check_theorem(all).failures().size(), 3u);
  // A rotated solved cube reads as solved relative to its centres.
  auto rotated = read_facelets(facelets_of(moves_perm(*parse_moves("x y"))));
  ASSERT_TRUE(rotated.ok());
  EXPECT_TRUE(rotated->valid);
  EXPECT_TRUE(rotated->state.is_solved());
  // Impossible inputs.
  std::string solved = solved_facelets();
  std::string bad = solved;
  bad[0] = 'R';
  auto r = read_facelets(bad);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->valid);
  EXPECT_NE(r->problems[0].find("colour count"), std::string::npos);
  std::string swapped = solved;  // F2 <-> R2: the UF and UR edges exchanged (a reassembly)
  std::swap(swapped[19], swapped[10]);
  r = read_facelets(swapped);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->valid);
  ASSERT_EQ(check_theorem(r->state).failures().size(), 1u);
  EXPECT_NE(check_theorem(r->state).failures()[0].find("parity"), std::string::npos);
  std::string twice = solved;  // URF corner stickers painted onto UFL too: duplicate cubie
  twice[6] = 'U', twice[18] = 'R', twice[38] = 'F';
  r = read_facelets(twice);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->valid);
  bool duplicate = false;
  for (auto& pr : r->problems) duplicate |= pr.find("duplicate") != std::string::npos;
  EXPECT_TRUE(duplicate || !r->problems.empty());
  EXPECT_FALSE(read_facelets("UUU").ok());
}

TEST(CubeCli, CheckJson) {
  auto r = permuzzle::test::run_cli(
      "cube check UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["solvable"], true);
  EXPECT_TRUE(r.json()["failures"].empty());
  // Twist the URF corner in place: U9 R1 F3 = (8, 9, 20) rotated.
  std::string f = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
  f[8] = 'F', f[9] = 'U', f[20] = 'R';
  r = permuzzle::test::run_cli("cube check " + f + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["solvable"], false);
  ASSERT_EQ(r.json()["failures"].size(), 1u);
  EXPECT_NE(r.json()["failures"][0].get<std::string>().find("twist"), std::string::npos);
  r = permuzzle::test::run_cli("cube apply \"R U R' U'\" --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["order"], "6");
  r = permuzzle::test::run_cli("cube check UUU --json");
  EXPECT_EQ(r.exit_code, 2);
}

TEST(CubeCli, OrderAndSolveWithTwoPhase) {
  auto r = permuzzle::test::run_cli("cube order --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["order"], "43252003274489856000");  // groups.md
  r = permuzzle::test::run_cli("cube apply \"R U F' L2 D B'\" --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string scrambled = r.json()["facelets"];
  // The solver's tables are shared with tests/cube_two_phase_test.cpp's cache.
  const std::string env = "PERMUZZLE_TABLES=" + std::string(PERMUZZLE_TEST_TABLES_DIR);
  r = permuzzle::test::run_cli_env(env, "cube solve " + scrambled + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["verified"], true);
  EXPECT_LE(r.json()["length"].get<int>(), 6);
  EXPECT_EQ(r.json()["length"].get<std::size_t>(), r.json()["moves"].size());
  std::string moves;
  const nlohmann::json solved = r.json();  // a named copy: r.json() returns a temporary
  for (const auto& m : solved["moves"]) moves += m.get<std::string>() + " ";
  r = permuzzle::test::run_cli("cube apply " + permuzzle::test::shell_quote(moves) + " --start " +
                               scrambled + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["solved"], true) << moves << " " << r.out;
  std::string f = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
  f[8] = 'F', f[9] = 'U', f[20] = 'R';
  r = permuzzle::test::run_cli_env(env, "cube solve " + f);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("twist"), std::string::npos);
  // The same reasons as `cube check`: a flipped edge, a swapped pair, wrong colour counts.
  std::string flipped = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
  std::swap(flipped[5], flipped[10]);  // UR edge flipped
  r = permuzzle::test::run_cli_env(env, "cube solve " + flipped);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("flip"), std::string::npos) << r.err;
  std::string swapped = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
  std::swap(swapped[5], swapped[7]), std::swap(swapped[10], swapped[19]);  // UR <-> UF
  r = permuzzle::test::run_cli_env(env, "cube solve " + swapped);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("parity"), std::string::npos) << r.err;
  std::string colours = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
  colours[0] = 'R';
  r = permuzzle::test::run_cli_env(env, "cube solve " + colours);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("colour count"), std::string::npos) << r.err;
}

TEST(CubeCli, SolveMovesMaxLengthScrambleShowAndCube2) {
  const std::string env = "PERMUZZLE_TABLES=" + std::string(PERMUZZLE_TEST_TABLES_DIR);
  auto r = permuzzle::test::run_cli_env(
      env, "--json cube solve --moves \"R U R' U' F2 D L' B\" --max-length 8");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LE(r.json()["length"].get<int>(), 8);
  r = permuzzle::test::run_cli_env(env, "--json cube solve --moves \"R U2 F'\" --optimal");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["length"], 3);
  EXPECT_EQ(r.json()["optimal"], true);
  r = permuzzle::test::run_cli_env(env, "--json cube scramble --seed 3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string scramble = r.json()["scramble"], facelets = r.json()["facelets"];
  r = permuzzle::test::run_cli("--json cube apply " + permuzzle::test::shell_quote(scramble));
  EXPECT_EQ(r.json()["facelets"], facelets);
  r = permuzzle::test::run_cli("--json cube random --seed 3");
  EXPECT_EQ(r.json()["facelets"], facelets);
  r = permuzzle::test::run_cli("cube show --moves R --svg -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("<svg"), std::string::npos);
  r = permuzzle::test::run_cli_env(env, "--json cube2 solve UUUURRRRFFFFDDDDLLLLBBBB");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["length"], 0);
  EXPECT_EQ(r.json()["optimal"], true);
}

// `group word` on GAP's cube generators goes through the two-phase solver (quarter-turn metric):
// GAP's own word for a random element has about 92 letters, the group core's about 150.
TEST(CubeCli, GroupWordOnCubeGeneratorsUsesTheSolver) {
  const std::string gens =
      "U='(1,3,8,6)(2,5,7,4)(9,33,25,17)(10,34,26,18)(11,35,27,19)' "
      "L='(9,11,16,14)(10,13,15,12)(1,17,41,40)(4,20,44,37)(6,22,46,35)' "
      "F='(17,19,24,22)(18,21,23,20)(6,25,43,16)(7,28,42,13)(8,30,41,11)' "
      "R='(25,27,32,30)(26,29,31,28)(3,38,43,19)(5,36,45,21)(8,33,48,24)' "
      "B='(33,35,40,38)(34,37,39,36)(3,9,46,32)(2,12,47,29)(1,14,48,27)' "
      "D='(41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40)'";
  const std::string env = "PERMUZZLE_TABLES=" + std::string(PERMUZZLE_TEST_TABLES_DIR);
  const std::string element =
      "(1,11,27,8,43,16,46,38)(2,31,15,18,21,34,45,44,7,28)(3,25,24,22,40,48,9,6)(4,42,13)"
      "(5,37,39,29,26,12,47,36)(10,23,20)(14,32,35,17,33,19,30,41)";
  auto r = permuzzle::test::run_cli_env(
      env, "--json group word " + gens + " --element " + permuzzle::test::shell_quote(element));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = r.json();
  EXPECT_EQ(j["verified"], true);
  EXPECT_NE(j["method"].get<std::string>().find("cube"), std::string::npos);
  EXPECT_LE(j["length"].get<int>(), 30);
  EXPECT_EQ(j["length"].get<std::size_t>(), j["word"].size());
  // Multiply the letters back with `perm product` (another code path); X^-1 = X^3.
  const std::vector<std::string> cycles = {
      "(1,3,8,6)(2,5,7,4)(9,33,25,17)(10,34,26,18)(11,35,27,19)",
      "(9,11,16,14)(10,13,15,12)(1,17,41,40)(4,20,44,37)(6,22,46,35)",
      "(17,19,24,22)(18,21,23,20)(6,25,43,16)(7,28,42,13)(8,30,41,11)",
      "(25,27,32,30)(26,29,31,28)(3,38,43,19)(5,36,45,21)(8,33,48,24)",
      "(33,35,40,38)(34,37,39,36)(3,9,46,32)(2,12,47,29)(1,14,48,27)",
      "(41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40)"};
  const std::string names = "ULFRBD";
  std::string args;
  for (const auto& letter : j["word"]) {
    const std::string l = letter.get<std::string>();
    const std::string& g = cycles[names.find(l[0])];
    for (int k = 0; k < (l.size() > 1 ? 3 : 1); ++k) args += " '" + g + "'";
  }
  auto product = permuzzle::test::run_cli("perm product" + args);
  EXPECT_EQ(product.out, element + "\n");
  // Not the cube group: the generic short-word methods answer.
  r = permuzzle::test::run_cli("--json group word '(1,2,3)' '(3,4)' --element '(1,2)'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["method"].get<std::string>().find("cube"), std::string::npos);
}

}  // namespace cube_test
