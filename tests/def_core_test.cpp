// The definition-file model, reader and group facts (issue 11 part A). Facts from outside the
// code: published group orders and position counts, the built-in Loopover model, brute-force
// BFS for patterns with identical pieces and ignored orientations, and the spec's ksolve
// orientation example.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <unordered_set>

#include "cli_runner.hpp"
#include "def_test_data.hpp"
#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/def/group_facts.hpp"
#include "permuzzle/puzzles/def/reader.hpp"
#include "permuzzle/puzzles/loopover/group_facts.hpp"

namespace permuzzle {
namespace def_core_test {

using def::Definition;
using def::State;

using def::test_data::data_file;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Definition load(const std::string& name) {
  auto d = def::parse_definition(read_text(data_file(name)), name);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().describe());
  return d.ok() ? std::move(*d) : Definition{};
}

std::string key(const State& s) {
  std::string k;
  for (const auto& set : s.sets) {
    k.append(set.perm.begin(), set.perm.end());
    k.append(set.ori.begin(), set.ori.end());
  }
  return k;
}

// Every position reachable from the solved pattern, by brute force.
std::unordered_set<std::string> bfs_positions(const Definition& d) {
  std::unordered_set<std::string> seen{key(d.solved)};
  std::vector<State> queue{d.solved};
  for (std::size_t q = 0; q < queue.size(); ++q) {
    for (const def::Move& m : d.moves) {
      State next = def::apply(d, queue[q], m);
      if (seen.insert(key(next)).second) queue.push_back(std::move(next));
    }
  }
  return seen;
}

mpz_class positions(const Definition& d) {
  auto f = def::group_facts(d);
  EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().describe());
  return f.ok() ? f->positions : mpz_class(0);
}

mpz_class group_order(const Definition& d) {
  auto f = def::group_facts(d);
  return f.ok() ? f->group_order : mpz_class(0);
}

TEST(DefFacts, PublishedOrdersAndCounts) {
  EXPECT_EQ(group_order(load("3x3x3.tws")), mpz_class("43252003274489856000"));
  EXPECT_EQ(group_order(load("m24.tws")), mpz_class(244823040));
  EXPECT_EQ(positions(load("2x2x2-fixed-corner.tws")), mpz_class(3674160));
  EXPECT_EQ(positions(load("2x2x2.tws")), mpz_class(88179840));
  // Pyraminx without tips 933,120; with the four tips 81 times as many.
  EXPECT_EQ(positions(load("pyraminx.tws")), mpz_class(933120));
  EXPECT_EQ(positions(load("pyraminx-tips.tws")), mpz_class(75582720));
  EXPECT_EQ(positions(load("skewb.tws")), mpz_class(3149280));
  // TopSpin (20,4): every permutation of the 20 discs (n and k even), 20!.
  mpz_class f20;
  mpz_fac_ui(f20.get_mpz_t(), 20);
  EXPECT_EQ(group_order(load("topspin.tws")), f20);
}

TEST(DefFacts, FourCubeWithIdenticalCentres) {
  // The 4x4x4's published number of positions (centres identical in fours, one corner fixed);
  // the pattern's stabiliser is the even part of S4^6, 4!^6 / 2.
  auto f = def::group_facts(load("4x4x4-fixed-corner.tws"));
  ASSERT_TRUE(f.ok()) << f.error().describe();
  EXPECT_EQ(f->positions, mpz_class("7401196841564901869874093974498574336000000000"));
  EXPECT_EQ(f->stabiliser_order, mpz_class(95551488));
}

TEST(DefFacts, M24NeedsItsThirdGenerator) {
  Definition d = load("m24.tws");
  d.base_moves.pop_back();  // a and b alone: M23
  ASSERT_TRUE(def::finish_definition(d, "m23").ok());
  EXPECT_EQ(group_order(d), mpz_class(10200960));
}

TEST(DefFacts, LoopoverExportsMatchTheBuiltInModel) {
  for (auto [file, rows, cols] :
       {std::tuple{"loopover-3x3.tws", 3, 3}, std::tuple{"loopover-2x4.tws", 2, 4},
        std::tuple{"loopover-3x4.tws", 3, 4}, std::tuple{"loopover-4x4.tws", 4, 4}}) {
    auto builtin = loopover::group_facts({rows, cols});
    ASSERT_TRUE(builtin.ok());
    Definition d = load(file);
    EXPECT_EQ(positions(d), builtin->order) << file;
    auto f = def::group_facts(d);
    ASSERT_TRUE(f.ok());
    EXPECT_EQ(f->structure.structure, builtin->group) << file;
  }
}

TEST(DefFacts, IdenticalPiecesAndIgnoredOrientationsMatchBruteForce) {
  Definition d = load("identical-mini.tws");
  auto f = def::group_facts(d);
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(f->stabiliser_matters);
  EXPECT_EQ(f->positions, mpz_class(static_cast<unsigned long>(bfs_positions(d).size())));
  EXPECT_EQ(f->positions, mpz_class(1296));
}

// `base` with a random solved pattern: labels from a small range (identical pieces) and each
// orientation ignored ('?') with probability 1/ignore_one_in.
Definition random_pattern(const Definition& base, Rng& rng, std::uint64_t ignore_one_in) {
  Definition d = base;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    auto& set = d.solved.sets[k];
    const auto labels = 1 + rng.below(set.perm.size());
    for (std::size_t i = 0; i < set.perm.size(); ++i) {
      set.perm[i] = static_cast<std::uint8_t>(rng.below(labels));
      set.ori[i] = rng.below(ignore_one_in) == 0
                       ? def::ORIENTATION_IGNORED
                       : static_cast<std::uint8_t>(
                             rng.below(static_cast<std::uint64_t>(d.sets[k].orientations)));
    }
  }
  return d;
}

TEST(DefFacts, RandomPatternsMatchBruteForce) {
  // Random solved patterns (labels from a small range, random '?') on the mini puzzle and on
  // the 2x2x2 with a fixed corner restricted by a pattern: orbit size = BFS count.
  Definition base = load("identical-mini.tws");
  Rng rng(7);
  for (int trial = 0; trial < 25; ++trial) {
    Definition d = random_pattern(base, rng, 4);
    EXPECT_EQ(positions(d), mpz_class(static_cast<unsigned long>(bfs_positions(d).size())))
        << "trial " << trial << "\n"
        << def::format_state_body(d, d.solved);
  }
}

TEST(DefFacts, OrbitByOrbitSearchAgrees) {
  // The fallback path of the stabiliser search (pointwise stabiliser of lone colours, then one
  // orbit at a time) against the published 4x4x4 count and brute force on random patterns.
  Definition four = load("4x4x4-fixed-corner.tws");
  auto g4 = def::build_group(four);
  ASSERT_TRUE(g4.ok());
  auto stab = def::colour_stabiliser_order(*g4, def::pattern_colouring(four),
                                           def::STABILISER_SEARCH_NODES, false);
  ASSERT_TRUE(stab.ok()) << stab.error().describe();
  EXPECT_EQ(g4->order() / *stab, mpz_class("7401196841564901869874093974498574336000000000"));
  Definition base = load("identical-mini.tws");
  Rng rng(11);
  for (int trial = 0; trial < 15; ++trial) {
    Definition d = random_pattern(base, rng, 3);
    auto g = def::build_group(d);
    ASSERT_TRUE(g.ok());
    auto s = def::colour_stabiliser_order(*g, def::pattern_colouring(d),
                                          def::STABILISER_SEARCH_NODES, false);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(g->order() / *s, mpz_class(static_cast<unsigned long>(bfs_positions(d).size())))
        << "trial " << trial;
  }
}

TEST(DefFacts, FixedCornerCornerPatternMatchesBruteForce) {
  // The 2x2x2 with its top four corners identical, orientations of the bottom ignored.
  Definition d = load("2x2x2-fixed-corner.tws");
  auto& c = d.solved.sets[0];
  c.perm = {0, 0, 0, 0, 1, 2, 3};
  c.ori = {0, 0, 0, 0, def::ORIENTATION_IGNORED, def::ORIENTATION_IGNORED, 0};
  EXPECT_EQ(positions(d), mpz_class(static_cast<unsigned long>(bfs_positions(d).size())));
}

TEST(DefFacts, RandomPositionsAreReachable) {
  Definition d = load("identical-mini.tws");
  auto all = bfs_positions(d);
  auto g = def::build_group(d);
  ASSERT_TRUE(g.ok());
  Rng rng(3);
  std::unordered_set<std::string> drawn;
  for (int i = 0; i < 4000; ++i) {
    State s = def::random_position(d, *g, rng);
    EXPECT_TRUE(all.count(key(s)));
    drawn.insert(key(s));
  }
  // 4000 uniform draws from 1,296 positions miss a given one with probability ~4.5%: most seen.
  EXPECT_GT(drawn.size(), 1100u);
}

TEST(DefReader, KsolveMoveOrientationIsPerPiece) {
  // The spec's example: move perm 1 3 4 2 5 with piece orientations 0 1 2 0 1 is the state
  // 1 3 4 2 5 / 0 2 0 1 1; MoveTransformation gives the state form directly (0-based).
  const char* text =
      "Set P 5 3\n"
      "Move M\nP\n1 3 4 2 5\n0 1 2 0 1\nEnd\n"
      "MoveTransformation T\nP\n0 2 3 1 4\n0 2 0 1 1\nEnd\n";
  auto d = def::parse_definition(text, "spec.tws");
  ASSERT_TRUE(d.ok()) << d.error().describe();
  const auto& m = d->base_moves[0].effect.sets[0];
  EXPECT_EQ(m.perm, (std::vector<std::uint8_t>{0, 2, 3, 1, 4}));
  EXPECT_EQ(m.ori, (std::vector<std::uint8_t>{0, 2, 0, 1, 1}));
  EXPECT_EQ(d->base_moves[1].effect, d->base_moves[0].effect);
}

TEST(DefReader, PowersAreNamedAsInTheSpec) {
  const char* text =
      "Set A 5 1\nSet B 4 1\nSet C 3 1\nSet D 2 1\n"
      "Move F\nA\n2 3 4 5 1\nEnd\nMove G\nB\n2 3 4 1\nEnd\n"
      "Move H\nC\n2 3 1\nEnd\nMove K\nD\n2 1\nEnd\n";
  auto d = def::parse_definition(text, "powers.tws");
  ASSERT_TRUE(d.ok()) << d.error().describe();
  std::vector<std::string> names;
  std::vector<int> costs;
  for (const auto& m : d->moves) {
    names.push_back(m.name);
    costs.push_back(m.qtm_cost);
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"F", "F2", "F2'", "F'", "G", "G2", "G'", "H", "H'", "K"}));
  EXPECT_EQ(costs, (std::vector<int>{1, 2, 2, 1, 1, 2, 1, 1, 1, 1}));
  // F2' is F^3: applying it three times... equals F^9 = F^4 = F'.
  auto f2i = d->find_move("F2'");
  ASSERT_TRUE(f2i.ok());
  EXPECT_EQ(d->moves[*f2i].power, 3);
}

TEST(DefReader, AliasesSequencesRotationsIllegal) {
  const char* text =
      "# comment\n"
      "Name demo\n"
      "Set A 4 2\n"
      "Solved\nA\n1 1 2 2\n? ? 0 0\nEnd\n"
      "Move R\nA\n2 3 4 1\n1 0 0 1\nEnd\n"
      "Move x\nA\n4 1 2 3\nEnd\n"
      "MoveAlias Q R2\n"
      "MoveSequence S R Q R'\n"
      "Illegal A 1 3 4\n";
  auto d = def::parse_definition(text, "demo.tws");
  ASSERT_TRUE(d.ok()) << d.error().describe();
  EXPECT_EQ(d->name, "demo");
  ASSERT_EQ(d->rotations.size(), 1u);
  EXPECT_EQ(d->rotations[0].name, "x");
  ASSERT_EQ(d->base_moves.size(), 2u);
  EXPECT_EQ(d->base_moves[1].name, "S");
  // S = R R2 R' = R2.
  EXPECT_EQ(d->base_moves[1].effect, d->moves[*d->find_move("R2")].effect);
  auto q = d->find_move("Q");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(d->moves[*q].name, "R2");
  EXPECT_EQ(d->illegal[0][0], (std::vector<std::uint8_t>{2, 3}));
  EXPECT_EQ(d->solved.sets[0].ori[0], def::ORIENTATION_IGNORED);
  // Rotations are not search moves.
  EXPECT_FALSE(d->find_move("x").ok());
}

TEST(DefReader, ErrorsNameFileLineAndColumn) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Set A 4 1\nMove R\nA\n1 2 3\nEnd\n", "bad.tws:4:6: set 'A' has 4 pieces: expected 4"},
      {"Set A 4 1\nMove R\nA\n1 2 2 3\nEnd\n", "bad.tws:4:5: piece 2 appears twice"},
      {"Set A 4 1\nMove R\nA\n1 2 3 5\nEnd\n", "bad.tws:4:7: '5' is not a piece number"},
      {"Set A 4 3\nMove R\nA\n2 1 3 4\n0 0 3 0\nEnd\n", "bad.tws:5:5: '3' is not an orientation"},
      {"Set A 256 1\n", "bad.tws:1:7: expected a number of pieces from 1 to 255"},
      {"Set A 4 128\n", "bad.tws:1:9: expected a number of orientations from 1 to 127"},
      {"Set A 4 1\nMove R\nB\n", "bad.tws:3:1: unknown set 'B'"},
      {"Set A 4 1\nMove R\nA\n2 1 3 4\n", "unexpected end of the text: expected a set name or End"},
      {"Set A 4 1\nMove R\nA\n2 1 3 4\nEnd\nMoveSequence S R T\n",
       "bad.tws:6:18: unknown move 'T'"},
      {"Set A 4 1\nFoo\n", "bad.tws:2:1: unknown keyword 'Foo'"},
      {"Set A 4 1\nMove R\nA\n1 2 3 4\nEnd\n", "bad.tws:2:6: move 'R' does not move anything"},
      {"Set A 4 1\nMove R\nA\n2 1 3 4\n? 0 0 0\nEnd\n", "bad.tws:5:1: '?' is only allowed"},
      {"Set A 4 1\nSet A 3 1\n", "bad.tws:2:5: set 'A' is defined twice"},
  };
  for (const auto& [text, expected] : cases) {
    auto d = def::parse_definition(text, "bad.tws");
    ASSERT_FALSE(d.ok()) << text;
    EXPECT_NE(d.error().message.find(expected), std::string::npos)
        << "got: " << d.error().message << "\nexpected: " << expected;
  }
}

TEST(DefReader, ScramblesInEveryForm) {
  Definition d = load("2x2x2-fixed-corner.tws");
  auto moves = def::parse_move_sequence(d, "R U R' U2 F");
  ASSERT_TRUE(moves.ok());
  const State target = def::apply_moves(d, *moves);
  const std::string body = def::format_state_body(d, target);
  // ScrambleState is 0-based: shift every piece number down by one.
  std::string zero;
  {
    std::istringstream lines(body);
    std::string line;
    int n = 0;
    while (std::getline(lines, line)) {
      if (n++ == 1) {
        std::istringstream nums(line);
        int v;
        std::string out;
        while (nums >> v) out += (out.empty() ? "" : " ") + std::to_string(v - 1);
        line = out;
      }
      zero += line + "\n";
    }
  }
  const std::string text = "Scramble one\n" + body + "End\nScrambleState two\n" + zero +
                           "End\nScrambleAlg three\nR U R'\nU2 F\nEnd\n";
  auto s = def::parse_scrambles(d, text, "s.scr");
  ASSERT_TRUE(s.ok()) << s.error().describe();
  ASSERT_EQ(s->size(), 3u);
  for (const auto& sc : *s) EXPECT_EQ(sc.state, target) << sc.name;
  EXPECT_EQ((*s)[2].name, "three");
  auto st = def::parse_state(d, body, "--state");
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(*st, target);
  auto bad = def::parse_scrambles(d, "ScrambleAlg x\nR Q\nEnd\n", "s.scr");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("s.scr:2:3: unknown move 'Q'"), std::string::npos)
      << bad.error().message;
  auto bad_seq = def::parse_move_sequence(d, "R  Uw");
  ASSERT_FALSE(bad_seq.ok());
  EXPECT_EQ(bad_seq.error().position, 3u);
}

TEST(DefReader, PatternScramblesAcceptLabelsOrPermutations) {
  Definition d = load("identical-mini.tws");
  // Labels: the solved pattern's pieces rearranged; a permutation of all pieces is applied to
  // the pattern. Both describe the position after X.
  const State after_x = def::apply_moves(d, {*d.find_move("X")});
  auto by_perm = def::parse_state(d, "CORNERS 3 1 2 4 0 1 2 0 EDGES 2 1 3 0 1 0", "--state");
  ASSERT_TRUE(by_perm.ok()) << by_perm.error().describe();
  EXPECT_EQ(*by_perm, after_x);
  auto by_labels = def::parse_state(d, def::format_state_body(d, after_x), "--state");
  ASSERT_TRUE(by_labels.ok()) << by_labels.error().describe();
  EXPECT_EQ(*by_labels, after_x);
}

TEST(DefReader, FormatRoundTrips) {
  for (const char* name : {"3x3x3.tws", "pyraminx-tips.tws", "identical-mini.tws", "m24.tws"}) {
    Definition d = load(name);
    auto again = def::parse_definition(def::format_definition(d), name);
    ASSERT_TRUE(again.ok()) << again.error().describe();
    EXPECT_EQ(again->solved, d.solved);
    ASSERT_EQ(again->moves.size(), d.moves.size());
    for (std::size_t i = 0; i < d.moves.size(); ++i) {
      EXPECT_EQ(again->moves[i].name, d.moves[i].name);
      EXPECT_EQ(again->moves[i].effect, d.moves[i].effect);
    }
  }
}

TEST(DefReader, PermRepresentationIsAHomomorphism) {
  // to_perm(s then m) == to_perm(s) * to_perm(m) (GAP order) and from_perm inverts to_perm.
  Definition d = load("3x3x3.tws");
  State s = d.identity();
  Perm p = def::to_perm(d, s);
  for (std::size_t i : {0u, 4u, 7u, 11u, 13u, 17u, 2u}) {
    s = def::apply(d, s, d.moves[i]);
    p = p * def::to_perm(d, d.moves[i].effect);
    EXPECT_EQ(def::to_perm(d, s), p);
    EXPECT_EQ(def::from_perm(d, p), s);
  }
}

TEST(DefCli, InfoApplyRandomAndExports) {
  auto info = test::run_cli("--json def info " + data_file("identical-mini.tws"));
  ASSERT_EQ(info.exit_code, 0) << info.err;
  auto j = info.json();
  EXPECT_EQ(j["name"], "identical-mini");
  EXPECT_EQ(j["positions"], "1296");
  EXPECT_EQ(j["group_order"], "7776");
  EXPECT_EQ(j["stabiliser_matters"], true);
  EXPECT_EQ(j["sets"][0]["name"], "CORNERS");
  EXPECT_EQ(j["sets"][0]["orientations"], 3);
  EXPECT_EQ(j["moves"][0]["order"], 12);

  auto bad = test::run_cli("def apply " + data_file("2x2x2.tws") + " --moves " +
                           test::shell_quote("R U Q"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("unknown move 'Q'"), std::string::npos) << bad.err;

  // A random position pasted as a scramble gives the same state back.
  auto rnd = test::run_cli("--json def random " + data_file("2x2x2.tws") + " --seed 5");
  ASSERT_EQ(rnd.exit_code, 0) << rnd.err;
  Definition d = load("2x2x2.tws");
  auto s = def::parse_scrambles(d, rnd.json()["scramble"].get<std::string>(), "random");
  ASSERT_TRUE(s.ok()) << s.error().describe();
  auto g = def::build_group(d);
  ASSERT_TRUE(g.ok());
  EXPECT_TRUE(g->contains(def::to_perm(d, s->front().state)));

  // The committed generated files are what the exporters print today.
  auto cube = test::run_cli("cube export");
  EXPECT_EQ(cube.out, read_text(data_file("3x3x3.tws")));
  auto loop = test::run_cli("loopover export 3x4");
  EXPECT_EQ(loop.out, read_text(data_file("loopover-3x4.tws")));
}

TEST(DefApi, FileParameterTakesTheText) {
  // The web server and Python pass the file's text (or {name, text}) instead of a path.
  const api::Registry registry = api::make_registry();
  TableStore store;
  api::Session session{store, RunContext{}, api::default_data_dir()};
  const std::string text = read_text(data_file("identical-mini.tws"));
  auto info = registry.call("def", "info", {{"file", text}}, session);
  ASSERT_TRUE(info.ok()) << info.error().describe();
  EXPECT_EQ(info->json["positions"], "1296");
  auto named =
      registry.call("def", "apply",
                    {{"file", {{"name", "mini.tws"}, {"text", text}}}, {"moves", "X Y'"}}, session);
  ASSERT_TRUE(named.ok()) << named.error().describe();
  EXPECT_EQ(named->json["moves"], (nlohmann::json{"X", "Y'"}));
  auto bad = registry.call("def", "info",
                           {{"file", {{"name", "mini.tws"}, {"text", "Set A 0 1\n"}}}}, session);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("mini.tws:1:7:"), std::string::npos) << bad.error().message;
}

TEST(DefCli, KPuzzleJson) {
  // The 2x2x2 with a fixed corner as cubing.js KPuzzle JSON (0-based, state-form orientation),
  // written from the text file's moves: the same group.
  Definition d = load("2x2x2-fixed-corner.tws");
  nlohmann::json k;
  k["name"] = "kp";
  k["orbits"] = {{{"orbitName", "CORNERS"}, {"numPieces", 7}, {"numOrientations", 3}}};
  k["defaultPattern"]["CORNERS"] = {{"pieces", {0, 1, 2, 3, 4, 5, 6}},
                                    {"orientation", {0, 0, 0, 0, 0, 0, 0}}};
  for (const auto& b : d.base_moves) {
    const auto& e = b.effect.sets[0];
    k["moves"][b.name]["CORNERS"] = {
        {"permutation", std::vector<int>(e.perm.begin(), e.perm.end())},
        {"orientationDelta", std::vector<int>(e.ori.begin(), e.ori.end())}};
  }
  k["derivedMoves"]["S"] = "R U R'";
  // cubing.js alg notation, and a derived move that uses one sorted after it.
  k["derivedMoves"]["T"] = "[R: U2]";
  k["derivedMoves"]["A"] = "T (R U)2'";
  const std::string path = ::testing::TempDir() + "/def_kpuzzle.json";
  std::ofstream(path) << k.dump(1);
  auto info = test::run_cli("--json def info " + path);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_EQ(info.json()["positions"], "3674160");
  EXPECT_EQ(info.json()["moves"].size(), 6u);
  auto applied = test::run_cli("--json def apply " + path + " --moves A");
  ASSERT_EQ(applied.exit_code, 0) << applied.err;
  auto expected = def::parse_move_sequence(d, "R U2 R' U' R' U' R'");
  ASSERT_TRUE(expected.ok());
  auto got = def::parse_scrambles(d, applied.json()["scramble"].get<std::string>(), "a");
  ASSERT_TRUE(got.ok()) << got.error().describe();
  EXPECT_EQ(got->front().state, def::apply_moves(d, *expected));
  std::ofstream(path) << "{\"orbits\": [\n  {\"orbitName\": 3}\n";
  auto bad = test::run_cli("def info " + path);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("def_kpuzzle.json:3:1: not valid JSON"), std::string::npos) << bad.err;
}

}  // namespace def_core_test
}  // namespace permuzzle
