// Short words and the subgroup chain method, checked against independent breadth-first searches
// and published numbers (Thistlethwaite's stage indices and God's numbers).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/chain.hpp"
#include "permuzzle/group/words.hpp"

namespace permuzzle {
namespace group_words_test {

Perm P(const std::string& s) {
  return *Perm::parse(s);
}

PermGroup group_of(const std::vector<std::string>& texts) {
  std::vector<Perm> gens;
  for (const auto& t : texts) gens.push_back(P(t));
  return *PermGroup::from_generators(gens);
}

// Word lengths of every element by breadth-first search over the elements (moves: the given
// permutations), independent of the code under test.
std::map<Perm, std::size_t> element_distances(const std::vector<Perm>& moves, std::size_t n) {
  std::map<Perm, std::size_t> dist;
  std::vector<Perm> frontier{Perm(n)};
  dist[Perm(n)] = 0;
  for (std::size_t d = 1; !frontier.empty(); ++d) {
    std::vector<Perm> next;
    for (const Perm& x : frontier) {
      for (const Perm& m : moves) {
        Perm y = (x * m).extended(n);
        if (dist.emplace(y, d).second) next.push_back(y);
      }
    }
    frontier = std::move(next);
  }
  return dist;
}

std::vector<Perm> with_inverses(const std::vector<Perm>& gens) {
  std::vector<Perm> moves;
  for (const Perm& g : gens) {
    moves.push_back(g);
    moves.push_back(g.inverse());
  }
  return moves;
}

const std::vector<std::string> CUBE = {
    "(1,3,8,6)(2,5,7,4)(9,33,25,17)(10,34,26,18)(11,35,27,19)",
    "(9,11,16,14)(10,13,15,12)(1,17,41,40)(4,20,44,37)(6,22,46,35)",
    "(17,19,24,22)(18,21,23,20)(6,25,43,16)(7,28,42,13)(8,30,41,11)",
    "(25,27,32,30)(26,29,31,28)(3,38,43,19)(5,36,45,21)(8,33,48,24)",
    "(33,35,40,38)(34,37,39,36)(3,9,46,32)(2,12,47,29)(1,14,48,27)",
    "(41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40)"};

TEST(ShortWords, S4WordsAreBfsOptimal) {
  PermGroup s4 = group_of({"(1,2,3,4)", "(1,2)"});
  auto sw = ShortWords::build(s4);
  ASSERT_TRUE(sw.ok());
  auto dist = element_distances(with_inverses(s4.generators()), 4);
  ASSERT_EQ(dist.size(), 24u);
  for (const auto& [x, d] : dist) {
    auto w = (*sw)->word(x);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(s4.evaluate(w->word).extended(4), x);
    EXPECT_EQ(w->word.size(), d) << x.to_cycle_string();
    EXPECT_EQ(w->method, "bfs (optimal)");
  }
}

TEST(ShortWords, MinkwitzTablesBeyondTheBall) {
  // S7 (5,040 elements) from a 7-cycle and a transposition with a ball of 100 elements: most
  // words come from the word chain. Each is multiplied back, is at least the BFS distance and at
  // most twice the diameter.
  PermGroup s7 = group_of({"(1,2,3,4,5,6,7)", "(1,2)"});
  ShortWordOptions options;
  options.ball_elements = 100;
  options.feed_elements = 100;
  options.sift_tries = 20;
  options.time_budget_seconds = 1;
  auto sw = ShortWords::build(s7, options);
  ASSERT_TRUE(sw.ok());
  auto dist = element_distances(with_inverses(s7.generators()), 7);
  ASSERT_EQ(dist.size(), 5040u);
  std::size_t diameter = 0;
  for (const auto& [x, d] : dist) diameter = std::max(diameter, d);
  std::size_t chain_words = 0;
  for (const auto& [x, d] : dist) {
    auto w = (*sw)->word(x);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(s7.evaluate(w->word).extended(7), x);
    EXPECT_GE(w->word.size(), d);
    EXPECT_LE(w->word.size(), 2 * diameter);
    chain_words += w->method == "minkwitz+shortening";
  }
  EXPECT_GT(chain_words, 4000u);
  PermGroup a5 = group_of({"(1,2,3,4,5)", "(1,2,3)"});
  auto swa = ShortWords::build(a5);
  ASSERT_TRUE(swa.ok());
  EXPECT_FALSE((*swa)->word(P("(1,2)")).ok());  // odd: not in A5
}

TEST(ShortWords, ShorteningReplacesSubwordsByBallWords) {
  PermGroup s4 = group_of({"(1,2,3,4)", "(1,2)"});
  auto sw = ShortWords::build(s4);
  ASSERT_TRUE(sw.ok());
  // a a a = a^-1 (order 4), and b a b a b a ... : the result is never longer than BFS says.
  Word w = {{0, 1}, {0, 1}, {0, 1}, {1, 1}, {1, -1}, {0, 1}, {1, 1}, {0, 1}, {1, 1}};
  Word s = (*sw)->shorten(w);
  EXPECT_EQ(s4.evaluate(s), s4.evaluate(w));
  auto dist = element_distances(with_inverses(s4.generators()), 4);
  EXPECT_EQ(s.size(), dist.at(s4.evaluate(w).extended(4)));
}

TEST(ShortWords, CubeWordsMultiplyBack) {
  PermGroup cube = group_of(CUBE);
  ShortWordOptions options;
  options.ball_elements = 20000;
  options.feed_elements = 5000;
  options.sift_tries = 500;
  options.time_budget_seconds = 0.5;
  auto sw = ShortWords::build(cube, options);
  ASSERT_TRUE(sw.ok());
  Rng rng(3);
  for (int i = 0; i < 10; ++i) {
    Perm x = cube.random_element(rng);
    auto w = (*sw)->word(x);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(cube.evaluate(w->word).extended(48), x.extended(48));
    EXPECT_LE(w->word.size(), 120u);
    EXPECT_GE(w->word.size(), 1u);
  }
}

TEST(ChainFile, ParsesAndReportsPositions) {
  auto c = parse_chain("# S3 then S2\n(1,2,3) (1,2)\n a=(1,2)\n()\n(9,9)\n", "chain.txt");
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->size(), 2u);
  EXPECT_EQ((*c)[0].generators.size(), 2u);
  EXPECT_EQ((*c)[1].names[0], "a");
  EXPECT_EQ((*c)[1].line, 3u);
  auto bad = parse_chain("(1,2)\n(1,2) (3,x)\n", "f.txt");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("f.txt:2:"), std::string::npos) << bad.error().message;
  // Blanks inside a cycle do not split it.
  auto spaced = parse_chain("(1, 2, 3)(4, 5)\n", "s");
  ASSERT_TRUE(spaced.ok());
  EXPECT_EQ((*spaced)[0].generators[0], P("(1,2,3)(4,5)"));
}

// Stage i's coset distances by brute force: the distance of G_{i+1}·y is the least word length
// (moves: G_i's generators and inverses) of an element of y^-1·G_{i+1}.
std::vector<std::uint64_t> brute_histogram(const PermGroup& gi, const PermGroup& hi,
                                           std::size_t n) {
  auto dist = element_distances(with_inverses(gi.generators()), n);
  auto h = hi.generators().empty() ? std::vector<Perm>{Perm(n)} : *hi.elements();
  std::set<std::vector<Perm>> seen;
  std::vector<std::uint64_t> histogram;
  for (const auto& [y, d] : dist) {
    std::vector<Perm> coset;
    for (const Perm& e : h) coset.push_back((e * y).extended(n));
    std::sort(coset.begin(), coset.end());
    if (!seen.insert(coset).second) continue;
    std::size_t best = SIZE_MAX;
    Perm yi = y.inverse();
    for (const Perm& e : h) best = std::min(best, dist.at((yi * e).extended(n)));
    if (histogram.size() <= best) histogram.resize(best + 1);
    ++histogram[best];
  }
  return histogram;
}

TEST(SubgroupChain, StageLengthsAreCosetDistances) {
  // S5 > S4 > S3 > 1 with non-standard generators.
  PermGroup g0 = group_of({"(1,2,3,4,5)", "(1,2)"});
  auto chain_text = "(1,2,3,4) (2,3)\n(1,3) (1,2,3)\n";
  auto subgroups = parse_chain(chain_text, "chain");
  ASSERT_TRUE(subgroups.ok());
  PermGroup g1 = group_of({"(1,2,3,4)", "(2,3)"}), g2 = group_of({"(1,3)", "(1,2,3)"});
  auto chain = SubgroupChain::build(
      g0, *subgroups, {}, [&](const Perm& m) { return g0.word(m); }, RunContext{});
  ASSERT_TRUE(chain.ok()) << chain.error().message;
  const auto& stages = (*chain)->stages();
  ASSERT_EQ(stages.size(), 3u);
  EXPECT_EQ(stages[0].index, 5);
  EXPECT_EQ(stages[1].index, 4);
  EXPECT_EQ(stages[2].index, 6);
  EXPECT_EQ(stages[0].histogram, brute_histogram(g0, g1, 5));
  EXPECT_EQ(stages[1].histogram, brute_histogram(g1, g2, 5));
  EXPECT_EQ(stages[2].histogram, brute_histogram(g2, PermGroup(), 5));
  // Every element: the word multiplies back, and stage 1 takes exactly the coset distance.
  auto dist0 = element_distances(with_inverses(g0.generators()), 5);
  auto h1 = *g1.elements();
  for (const auto& [x, d] : dist0) {
    auto s = (*chain)->solve(x);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(g0.evaluate(s->word).extended(5), x);
    std::size_t best = SIZE_MAX;
    for (const Perm& e : h1) best = std::min(best, dist0.at((x.inverse() * e).extended(5)));
    EXPECT_EQ(s->stage_lengths[0], best);
    EXPECT_EQ(s->stage_lengths[0], (*chain)->distance(0, x));
  }
}

TEST(SubgroupChain, ThistlethwaiteLastTwoStages) {
  // G2 = <U, D, L2, R2, F2, B2> > G3 = <U2, D2, L2, R2, F2, B2> > 1 in the half-turn metric:
  // indices 29,400 and 663,552, God's numbers 13 and 15 (Thistlethwaite's published stages).
  auto sq = [](const std::string& s) { return (P(s) * P(s)).to_cycle_string(); };
  PermGroup g2 = group_of({CUBE[0], CUBE[5], sq(CUBE[1]), sq(CUBE[3]), sq(CUBE[2]), sq(CUBE[4])});
  std::string line;
  for (int f : {0, 5, 1, 3, 2, 4}) line += sq(CUBE[f]) + " ";
  auto subgroups = parse_chain(line + "\n", "thistlethwaite");
  ASSERT_TRUE(subgroups.ok());
  ChainOptions options;
  options.powers = true;
  auto chain = SubgroupChain::build(
      g2, *subgroups, options, [&](const Perm& m) { return g2.word(m); }, RunContext{});
  ASSERT_TRUE(chain.ok()) << chain.error().message;
  const auto& stages = (*chain)->stages();
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_EQ(stages[0].index, 29400);
  EXPECT_EQ(stages[0].gods_number, 13u);
  EXPECT_EQ(stages[1].index, 663552);
  EXPECT_EQ(stages[1].gods_number, 15u);
  Rng rng(11);
  for (int i = 0; i < 20; ++i) {
    Perm x = g2.random_element(rng);
    auto s = (*chain)->solve(x);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(g2.evaluate(s->word).extended(48), x.extended(48));
    EXPECT_EQ(s->stage_lengths[0], (*chain)->distance(0, x));
    EXPECT_LE(s->stage_lengths[0], 13u);
    EXPECT_LE(s->stage_lengths[1], 15u);
  }
}

TEST(SubgroupChain, RefusesASubgroupOutsideTheGroup) {
  PermGroup g0 = group_of({"(1,2,3)"});
  auto subgroups = parse_chain("(1,2)\n", "c");
  ASSERT_TRUE(subgroups.ok());
  auto chain = SubgroupChain::build(
      g0, *subgroups, {}, [&](const Perm& m) { return g0.word(m); }, RunContext{});
  ASSERT_FALSE(chain.ok());
  EXPECT_NE(chain.error().message.find("is not in G0"), std::string::npos);
}

TEST(GroupWordsCli, ChainAndChainInfoJson) {
  char path[] = "/tmp/permuzzle-chain-XXXXXX";
  int fd = mkstemp(path);
  std::string text = "(1,2,3,4) (2,3)\n(1,3) (1,2,3)\n";
  ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  close(fd);
  auto info = test::run_cli(std::string("--json group chain-info --chain ") + path +
                            " '(1,2,3,4,5)' '(1,2)'");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  auto j = info.json();
  ASSERT_EQ(j["stages"].size(), 3u);
  EXPECT_EQ(j["stages"][0]["index"], "5");
  EXPECT_TRUE(j["stages"][0]["gods_number"].is_number_integer());
  auto word = test::run_cli(std::string("--json group word --element '(1,5)(2,4)' --chain ") +
                            path + " '(1,2,3,4,5)' '(1,2)'");
  ASSERT_EQ(word.exit_code, 0) << word.err;
  auto w = word.json();
  EXPECT_EQ(w["verified"], true);
  EXPECT_EQ(w["length"], w["word"].size());
  ASSERT_EQ(w["stages"].size(), 3u);
  EXPECT_EQ(w["stages"][2]["index"], "6");
  EXPECT_NE(w["method"].get<std::string>().find("subgroup chain"), std::string::npos);
  auto plain = test::run_cli("--json group word --element '(1,5)(2,4)' '(1,2,3,4,5)' '(1,2)'");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.json()["method"], "bfs (optimal)");
  auto bad = test::run_cli(std::string("--json group chain-info --chain ") + path + " '(1,2,3)'");
  EXPECT_EQ(bad.exit_code, 2);
  std::remove(path);
}

}  // namespace group_words_test
}  // namespace permuzzle

namespace permuzzle {
namespace group_words_test {

TEST(SubgroupChain, LoopoverFastChainFile) {
  // data/chains/loopover4-fast.txt: S16 > S15 > S12 > S10 > S7 > 1 on the cells each stage still
  // moves, so the indices are 16, 15*14*13, 12*11, 10*9*8 and 7!.
  std::ifstream in(std::string(PERMUZZLE_DATA_DIR) + "/chains/loopover4-fast.txt");
  std::stringstream text;
  text << in.rdbuf();
  auto subgroups = parse_chain(text.str(), "loopover4-fast.txt");
  ASSERT_TRUE(subgroups.ok()) << subgroups.error().message;
  PermGroup g0 = group_of({"(1,2,3,4)", "(5,6,7,8)", "(9,10,11,12)", "(13,14,15,16)", "(1,5,9,13)",
                           "(2,6,10,14)", "(3,7,11,15)", "(4,8,12,16)"});
  auto chain = SubgroupChain::build(
      g0, *subgroups, {}, [&](const Perm& m) { return g0.word(m); }, RunContext{});
  ASSERT_TRUE(chain.ok()) << chain.error().message;
  std::vector<long> indices;
  for (const auto& st : (*chain)->stages()) indices.push_back(st.index.get_si());
  EXPECT_EQ(indices, (std::vector<long>{16, 2730, 132, 720, 5040}));
  Rng rng(5);
  for (int i = 0; i < 50; ++i) {
    Perm x = g0.random_element(rng);
    auto s = (*chain)->solve(x);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(g0.evaluate(s->word).extended(16), x.extended(16));
    EXPECT_EQ(s->stage_lengths[0], (*chain)->distance(0, x));
    std::size_t letters = 0;
    for (std::size_t l : s->stage_lengths) letters += l;
    EXPECT_LE(s->word.size(), letters);  // every stage move is one letter here
  }
}

}  // namespace group_words_test
}  // namespace permuzzle
