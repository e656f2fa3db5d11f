// Search over definition files (issue 11, part B): the compiled ranking, whole-graph and
// depth-limited BFS, against published distance tables and the built-in Loopover BFS.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/def/bfs.hpp"
#include "permuzzle/puzzles/def/builder.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"
#include "permuzzle/puzzles/def/reader.hpp"
#include "permuzzle/puzzles/def/solver.hpp"
#include "permuzzle/puzzles/loopover/bfs.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"
#include "permuzzle/puzzles/loopover/optimal_solver.hpp"
#include "permuzzle/search/bfs.hpp"

namespace permuzzle::def {
namespace def_search_test {

using Hist = std::vector<std::uint64_t>;

DefBfsResult run_bfs(const Definition& d, Metric metric = Metric::Htm, int max_depth = -1,
                     int bits = 0) {
  DefBfsOptions o;
  o.metric = metric;
  o.max_depth = max_depth;
  o.bits = bits;
  o.antipodes = 3;
  auto r = bfs(d, o, RunContext().with_threads(2));
  EXPECT_TRUE(static_cast<bool>(r)) << (r ? "" : r.error().message);
  return r ? *r : DefBfsResult{};
}

// Every rank unranks to a position that ranks back to it (the ranking is a bijection onto
// 0..N-1), on a sample of ranks.
void expect_ranking_bijective(const CompiledPuzzle& p) {
  const std::uint64_t n = p.states();
  const std::uint64_t step = std::max<std::uint64_t>(1, n / 20000);
  for (std::uint64_t r = 0; r < n; r += step) {
    ASSERT_EQ(p.rank(p.unrank(r)), r) << "rank " << r;
  }
}

TEST(DefSearch, TwoByTwoFixedCornerDistanceTable) {
  // OEIS A079761.
  const Hist expected{1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644};
  const Definition d = samples::cube2(true);
  auto p = CompiledPuzzle::compile(d);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->states(), 3674160u);
  expect_ranking_bijective(*p);
  for (int bits : {2, 4}) {
    const DefBfsResult r = run_bfs(d, Metric::Htm, -1, bits);
    EXPECT_EQ(r.histogram, expected);
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.max_distance, 11);
    if (bits == 4) {
      ASSERT_EQ(r.antipodes.size(), 3u);
      for (const auto& a : r.antipodes) EXPECT_EQ(a.size(), 11u);
    }
  }
}

TEST(DefSearch, CubeFirstLayersDepthLimited) {
  // OEIS A080601 / A080602; the 3x3x3 rank space exceeds 2^64, so this is the sparse search.
  const Definition d = samples::cube3();
  const DefBfsResult htm = run_bfs(d, Metric::Htm, 4);
  EXPECT_EQ(htm.histogram, (Hist{1, 18, 243, 3240, 43239}));
  EXPECT_EQ(htm.method, "sparse");
  EXPECT_EQ(htm.symmetries, 1u);
  EXPECT_EQ(htm.classes, htm.reached);  // every position
  EXPECT_FALSE(htm.complete);
  for (const auto& a : htm.antipodes) EXPECT_EQ(a.size(), 4u);
  const DefBfsResult qtm = run_bfs(d, Metric::Qtm, 5);
  EXPECT_EQ(qtm.histogram, (Hist{1, 12, 114, 1068, 10011, 93840}));
  // The whole graph is refused with a clear error.
  DefBfsOptions o;
  auto r = bfs(d, o, RunContext());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::LimitExceeded);
  EXPECT_NE(r.error().message.find("--max-depth"), std::string::npos);
}

TEST(DefSearch, RankedAndSparseAgree) {
  // Two independent methods on the 2x2x2 with six faces (88,179,840 ranks): the first levels.
  const Definition d = samples::cube2(false);
  auto p = CompiledPuzzle::compile(d);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->states(), 88179840u);
  expect_ranking_bijective(*p);
  DefBfsOptions o;
  o.max_depth = 5;
  o.antipodes = 2;
  o.symmetry = false;
  auto ranked = bfs(d, o, RunContext().with_threads(2));
  ASSERT_TRUE(ranked) << ranked.error().message;
  EXPECT_EQ(ranked->method, "ranked");
  o.sparse = true;
  auto sparse = bfs(d, o, RunContext());
  ASSERT_TRUE(sparse) << sparse.error().message;
  EXPECT_EQ(sparse->method, "sparse");
  EXPECT_EQ(ranked->histogram, sparse->histogram);
  EXPECT_EQ(ranked->histogram, (Hist{1, 18, 243, 2874, 28000, 205416}));
}

TEST(DefSearch, LoopoverMatchesBuiltIn) {
  for (auto [rows, cols] : {std::pair{3, 3}, std::pair{2, 4}}) {
    const Definition d = samples::loopover(rows, cols);
    for (auto [metric, lm] : {std::pair{Metric::Qtm, loopover::Metric::Stm},
                              std::pair{Metric::Htm, loopover::Metric::Mtm}}) {
      loopover::BfsOptions lo;
      lo.metric = lm;
      lo.threads = 2;
      auto built_in = loopover::DistanceTable::build({rows, cols}, lo);
      ASSERT_TRUE(built_in);
      const DefBfsResult r = run_bfs(d, metric);
      EXPECT_EQ(r.histogram, built_in->stats().histogram) << rows << "x" << cols;
      EXPECT_TRUE(r.complete);
    }
  }
}

// Brute force on patterns kept as raw byte vectors in a std::map: the moves applied by their
// definition (new[i] = old[perm[i]], orientation + ori[i] unless '?').
Hist brute_force(const Definition& d, const std::vector<std::size_t>& moves) {
  using Raw = std::vector<std::uint8_t>;
  auto pack = [&](const State& s) {
    Raw r;
    for (const auto& part : s.sets) {
      r.insert(r.end(), part.perm.begin(), part.perm.end());
      r.insert(r.end(), part.ori.begin(), part.ori.end());
    }
    return r;
  };
  std::map<Raw, int> dist;
  std::vector<State> frontier{full_solved(d)};
  dist[pack(frontier[0])] = 0;
  Hist h{1};
  for (int depth = 1; !frontier.empty(); ++depth) {
    std::vector<State> next;
    for (const State& s : frontier) {
      for (std::size_t m : moves) {
        State t = s;
        const State& e = d.moves[m].effect;
        for (std::size_t k = 0; k < d.sets.size(); ++k) {
          for (std::size_t i = 0; i < t.sets[k].perm.size(); ++i) {
            t.sets[k].perm[i] = s.sets[k].perm[e.sets[k].perm[i]];
            const std::uint8_t o = s.sets[k].ori[e.sets[k].perm[i]];
            t.sets[k].ori[i] =
                o == ORIENTATION_IGNORED
                    ? o
                    : static_cast<std::uint8_t>((o + e.sets[k].ori[i]) % d.sets[k].orientations);
          }
        }
        if (dist.emplace(pack(t), depth).second) next.push_back(t);
      }
    }
    if (!next.empty()) h.push_back(next.size());
    frontier = std::move(next);
  }
  return h;
}

TEST(DefSearch, IdenticalPiecesAndIgnoredOrientationsCountedByBruteForce) {
  // A twisty puzzle of 6 pieces with 3 orientations: two 4-cycles sharing two slots.
  DefinitionBuilder b("twisty");
  b.set("P", 6, 3).set("Q", 4, 1);
  b.move("X", {{perm_from_cycles(6, {{0, 1, 2, 3}}), {1, 2, 0, 0, 0, 0}},
               {perm_from_cycles(4, {{0, 1}}), {}}});
  b.move("Y", {{perm_from_cycles(6, {{2, 3, 4, 5}}), {0, 0, 2, 0, 1, 0}},
               {perm_from_cycles(4, {{1, 2, 3}}), {}}});
  const std::uint8_t Q = ORIENTATION_IGNORED;
  const std::vector<std::pair<std::vector<std::uint8_t>, std::vector<std::uint8_t>>> patterns{
      {{0, 1, 2, 3, 4, 5}, {0, 0, 0, 0, 0, 0}},  // distinct
      {{0, 0, 1, 1, 2, 2}, {0, 0, 0, 0, 0, 0}},  // identical pairs
      {{0, 1, 2, 3, 4, 5}, {0, Q, 0, Q, 0, 0}},  // some orientations ignored
      {{0, 0, 0, 1, 1, 1}, {Q, Q, Q, 1, 2, 0}},  // both, with a twisted solved pattern
      {{0, 0, 0, 0, 0, 0}, {Q, Q, Q, Q, Q, Q}},  // nothing matters in P
  };
  for (const auto& [perm, ori] : patterns) {
    b.solved(0, perm, ori).solved(1, {0, 0, 1, 1});
    auto d = b.build();
    ASSERT_TRUE(d) << d.error().message;
    for (Metric metric : {Metric::Htm, Metric::Qtm}) {
      std::vector<std::size_t> moves;
      for (std::size_t m = 0; m < d->moves.size(); ++m) {
        if (metric == Metric::Htm || d->moves[m].qtm_cost == 1) moves.push_back(m);
      }
      const Hist expected = brute_force(*d, moves);
      auto p = CompiledPuzzle::compile(*d, {metric});
      ASSERT_TRUE(p);
      expect_ranking_bijective(*p);
      EXPECT_EQ(run_bfs(*d, metric, -1, 2).histogram, expected);
      EXPECT_EQ(run_bfs(*d, metric, -1, 4).histogram, expected);
      DefBfsOptions o;
      o.metric = metric;
      o.sparse = true;
      o.max_depth = 100;
      auto sparse = bfs(*d, o, RunContext());
      ASSERT_TRUE(sparse);
      EXPECT_EQ(sparse->histogram, expected);
    }
  }
}

TEST(DefSearch, CheckpointAndResume) {
  const Definition d = samples::cube2(true);
  const std::string dir = ::testing::TempDir() + "/def-bfs-checkpoint";
  DefBfsOptions o;
  o.checkpoint_dir = dir;
  o.max_depth = 6;
  o.bits = 2;
  auto first = bfs(d, o, RunContext().with_threads(2));
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_FALSE(first->complete);
  o.max_depth = -1;
  o.resume = true;
  auto rest = bfs(d, o, RunContext().with_threads(2));
  ASSERT_TRUE(rest) << rest.error().message;
  EXPECT_EQ(rest->resumed_from, 6);
  EXPECT_EQ(rest->histogram,
            (Hist{1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644}));
  EXPECT_TRUE(rest->complete);
}

// Optimal lengths from the solver = BFS distances (a 4-bit whole-graph table).
void expect_solver_matches_bfs(const Definition& d, Metric metric, std::uint64_t memory,
                               int samples) {
  auto p = CompiledPuzzle::compile(d, {metric});
  ASSERT_TRUE(p);
  auto table = search::BfsTable::create(p->states(), search::BfsBits::Four);
  ASSERT_TRUE(table);
  search::BfsOptions bo;
  bo.bits = search::BfsBits::Four;
  bo.undirected = true;
  const std::uint64_t starts[] = {p->rank(p->solved())};
  auto r = search::bfs(
      *table, starts, [&] { return RankExpander(*p); }, RunContext().with_threads(2), bo);
  ASSERT_TRUE(r);
  ASSERT_LT(r->max_distance, 15);
  TableStore store;
  DefSolveOptions so;
  so.metric = metric;
  so.memory_bytes = memory;
  auto solver = DefSolver::create(d, so, store, RunContext());
  ASSERT_TRUE(solver) << solver.error().message;
  Rng rng(11);
  for (int i = 0; i < samples; ++i) {
    std::uint64_t rank = rng.below(p->states());
    while (table->entry(rank) == table->unseen()) rank = rng.below(p->states());
    const State start = p->state_of(p->unrank(rank));
    auto sol = (*solver)->solve(start, RunContext());
    ASSERT_TRUE(sol) << sol.error().message;
    EXPECT_EQ(sol->front().length, *table->distance(rank, *r)) << "rank " << rank;
  }
}

TEST(DefSearch, SolverLengthsEqualBfsDistances) {
  // Small budgets force several inexact pattern databases.
  expect_solver_matches_bfs(samples::cube2(true), Metric::Htm, 64 << 10, 40);
  expect_solver_matches_bfs(samples::cube2(true), Metric::Qtm, 64 << 10, 8);
  expect_solver_matches_bfs(samples::loopover(3, 3), Metric::Qtm, 16 << 10, 12);
  expect_solver_matches_bfs(samples::loopover(3, 3), Metric::Htm, 1 << 20, 12);
}

TEST(DefSearch, ThreadsGiveTheOneThreadAnswer) {
  // Several threads split each iteration below depth 3 and take the subtrees in the one-thread
  // order: the same first solution, the same node count, and with --all-optimal the same list.
  const Definition d = samples::cube2(true);
  for (bool all : {false, true}) {
    TableStore store;
    DefSolveOptions so;
    so.memory_bytes = 64 << 10;  // inexact databases: deeper searches
    so.all_optimal = all;
    auto solver = DefSolver::create(d, so, store, RunContext());
    ASSERT_TRUE(solver) << solver.error().message;
    Rng rng(5);
    for (int i = 0; i < 6; ++i) {
      std::vector<std::size_t> scramble;
      for (int k = 0; k < 9; ++k) scramble.push_back(rng.below(d.moves.size()));
      auto one = (*solver)->solve_moves(scramble, RunContext().with_threads(1));
      auto two = (*solver)->solve_moves(scramble, RunContext().with_threads(2));
      auto three = (*solver)->solve_moves(scramble, RunContext().with_threads(3));
      ASSERT_TRUE(one && two && three);
      ASSERT_EQ(one->size(), two->size());
      ASSERT_EQ(one->size(), three->size());
      for (std::size_t k = 0; k < one->size(); ++k) {
        EXPECT_EQ((*one)[k].moves, (*two)[k].moves);
        EXPECT_EQ((*one)[k].moves, (*three)[k].moves);
      }
      EXPECT_EQ(one->front().nodes, two->front().nodes);
      EXPECT_EQ(one->front().nodes, three->front().nodes);
      if (all) EXPECT_GE(one->size(), 1u);
    }
  }
}

// Solves `count` seeded scrambles of `length` moves on one thread with a lookup option on and
// off: the lookups only cut subtrees without a solution inside the bound (they are admissible),
// so the first solutions in the search order are the same. Returns the node totals (on, off).
std::pair<std::uint64_t, std::uint64_t> lookup_nodes(const Definition& d, std::uint64_t memory,
                                                     bool DefSolveOptions::*lookup,
                                                     std::uint64_t seed, int length,
                                                     std::size_t count) {
  std::uint64_t on_total = 0, off_total = 0;
  std::vector<std::vector<std::string>> first;  // the solutions with the lookup
  for (bool on : {true, false}) {
    TableStore store;
    DefSolveOptions so;
    so.memory_bytes = memory;
    so.*lookup = on;
    auto solver = DefSolver::create(d, so, store, RunContext());
    EXPECT_TRUE(solver) << solver.error().message;
    if (!solver) return {0, 0};
    Rng rng(seed);
    for (std::size_t i = 0; i < count; ++i) {
      std::vector<std::size_t> scramble;
      for (int k = 0; k < length; ++k) scramble.push_back(rng.below(d.moves.size()));
      auto r = (*solver)->solve_moves(scramble, RunContext().with_threads(1));
      EXPECT_TRUE(r) << r.error().message;
      if (!r) return {0, 0};
      (on ? on_total : off_total) += r->front().nodes;
      if (on) {
        first.push_back(r->front().moves);
      } else {
        EXPECT_EQ(r->front().moves, first[i]);
      }
    }
  }
  return {on_total, off_total};
}

TEST(DefSearch, InverseLookupsKeepTheAnswerAndCutNodes) {
  // Dual lookups on group-like puzzles: the same solutions and fewer nodes; the lengths are
  // checked against BFS in SolverLengthsEqualBfsDistances.
  for (const Definition& d : {samples::cube2(true), samples::loopover(3, 3)}) {
    const auto [with, without] =
        lookup_nodes(d, 16 << 10, &DefSolveOptions::inverse_lookups, 9, 12, 8);
    EXPECT_LT(with, without) << d.name;
  }
}

// 3x3 Loopover with the quarter turn of the board as a rotation (a file's `Move x`): rows become
// columns, so it is a symmetry of the moves.
Definition loopover_with_rotation() {
  Definition d = samples::loopover(3, 3);
  BaseMove x;
  x.name = "x";
  x.order = 4;
  x.effect = d.identity();
  // The piece of cell (r, c) goes to cell (c, 2 - r): slot (r', c') receives cell (2 - c', r').
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      x.effect.sets[0].perm[static_cast<std::size_t>(r * 3 + c)] =
          static_cast<std::uint8_t>((2 - c) * 3 + r);
    }
  }
  d.rotations.push_back(x);
  return d;
}

TEST(DefSearch, SymmetryLookupsFromRotations) {
  // Optimal lengths still equal BFS distances with the symmetry lookups on (admissibility), the
  // first solutions are those without them, and they cut nodes.
  const Definition d = loopover_with_rotation();
  expect_solver_matches_bfs(d, Metric::Htm, 16 << 10, 30);
  const auto [with, without] =
      lookup_nodes(d, 16 << 10, &DefSolveOptions::symmetry_lookups, 4, 12, 8);
  EXPECT_LT(with, without);
}

TEST(DefSearch, CubeExportRotationsAreSymmetries) {
  // `cube export --size 2` writes x, y, z; every rotation maps the face turns to face turns, so
  // the solver uses them: the same solutions, fewer nodes on ten-move scrambles.
  std::ifstream in(std::string(PERMUZZLE_DATA_DIR) + "/puzzles/2x2x2.tws");
  std::stringstream text;
  text << in.rdbuf();
  auto d = parse_definition(text.str(), "2x2x2.tws");
  ASSERT_TRUE(d) << d.error().describe();
  ASSERT_EQ(d->rotations.size(), 3u);
  const auto [with, without] =
      lookup_nodes(*d, 256 << 10, &DefSolveOptions::symmetry_lookups, 2, 10, 5);
  EXPECT_LT(with, without);
}

TEST(DefSearch, SolverAllOptimalAndExactTable) {
  // With room for the whole puzzle the table is exact; "R U" has exactly one optimal solution
  // among canonical sequences in HTM, "R2" is one move.
  const Definition d = samples::cube2(true);
  TableStore store;
  DefSolveOptions so;
  so.all_optimal = true;
  auto solver = DefSolver::create(d, so, store, RunContext());
  ASSERT_TRUE(solver);
  ASSERT_EQ((*solver)->tables().size(), 1u);
  EXPECT_TRUE((*solver)->tables()[0].exact);
  auto moves = [&](std::vector<std::string> names) {
    std::vector<std::size_t> out;
    for (const auto& n : names) {
      for (std::size_t m = 0; m < d.moves.size(); ++m) {
        if (d.moves[m].name == n) out.push_back(m);
      }
    }
    return out;
  };
  auto a = (*solver)->solve_moves(moves({"R", "U"}), RunContext());
  ASSERT_TRUE(a);
  ASSERT_EQ(a->size(), 1u);
  EXPECT_EQ(a->front().moves, (std::vector<std::string>{"U'", "R'"}));
  // R U2 R' U: commuting-free, 4 moves; solved state: zero moves.
  auto b = (*solver)->solve_moves({}, RunContext());
  ASSERT_TRUE(b);
  EXPECT_EQ(b->front().length, 0);
}

// 4x4 Loopover positions solved from the definition (samples::loopover, the same moves as
// data/puzzles/loopover-4x4.tws) and by the built-in optimal solver (walking distance, a second
// independent method): equal optimal lengths, both replayed. A def position lists the tile of
// each cell, as a Loopover Position does; the def's row/column moves are one-cell shifts
// (order 4), so HTM = Loopover MTM and QTM (R1 2 costs 2) = STM.
// The positions are short seeded scrambles (8 random def moves from solved, seeds 3-5), not
// full random positions: with 4 MB of def tables a random position takes 0.2-3 s in HTM (see
// docs/def-search.md) and far longer in QTM, too slow for a unit test; these solve in
// milliseconds (optimal lengths 7-12).
TEST(DefSearch, LoopoverFourByFourMatchesBuiltInSolver) {
  const Definition d = samples::loopover(4, 4);
  const loopover::BoardSize size{4, 4};
  const int SCRAMBLE_MOVES = 8;
  auto to_state = [&](const loopover::Position& pos) {
    State s = full_solved(d);
    for (std::size_t c = 0; c < pos.size(); ++c) {
      s.sets[0].perm[c] = static_cast<std::uint8_t>(pos[c] - 1);
    }
    return s;
  };
  auto to_position = [&](const State& s) {
    loopover::Position pos(s.sets[0].perm.size());
    for (std::size_t c = 0; c < pos.size(); ++c) {
      pos[c] = static_cast<std::uint8_t>(s.sets[0].perm[c] + 1);
    }
    return pos;
  };
  for (auto [metric, lm] : {std::pair{Metric::Htm, loopover::Metric::Mtm},
                            std::pair{Metric::Qtm, loopover::Metric::Stm}}) {
    // The built-in walking-distance tables take 10-20 s to build: cached with the other tests'.
    TableStore store(PERMUZZLE_TEST_TABLES_DIR);
    DefSolveOptions so;
    so.metric = metric;
    so.memory_bytes = 4 << 20;
    auto solver = DefSolver::create(d, so, store, RunContext().with_threads(2));
    ASSERT_TRUE(solver) << solver.error().message;
    auto built_in = loopover::OptimalSolver::create(size, lm, &store);
    ASSERT_TRUE(built_in) << built_in.error().message;
    std::vector<loopover::Position> starts;
    for (std::uint64_t seed : {3, 4, 5}) {
      Rng rng(seed);
      std::vector<std::size_t> scramble;
      for (int i = 0; i < SCRAMBLE_MOVES; ++i) scramble.push_back(rng.below(d.moves.size()));
      starts.push_back(to_position(replay(d, full_solved(d), scramble)));
    }
    for (const loopover::Position& pos : starts) {
      auto ours = (*solver)->solve(to_state(pos), RunContext());
      ASSERT_TRUE(ours) << ours.error().message;
      loopover::OptimalSolveOptions lo;
      lo.metric = lm;
      auto theirs = built_in->solve(pos, lo);
      ASSERT_TRUE(theirs) << theirs.error().message;
      EXPECT_EQ(ours->front().length, theirs->length) << loopover::format_position(pos);
      // Both answers replayed here: the built-in one on the board, ours on the definition
      // (names looked up, the length recounted with each move's cost in the metric).
      loopover::Position check = pos;
      loopover::apply_moves(size, check, theirs->moves);
      EXPECT_TRUE(loopover::is_goal(check));
      std::vector<std::size_t> seq;
      int recount = 0;
      for (const std::string& name : ours->front().moves) {
        for (std::size_t m = 0; m < d.moves.size(); ++m) {
          if (d.moves[m].name != name) continue;
          seq.push_back(m);
          recount += metric == Metric::Htm ? 1 : d.moves[m].qtm_cost;
        }
      }
      ASSERT_EQ(seq.size(), ours->front().moves.size());
      EXPECT_EQ(replay(d, to_state(pos), seq), full_solved(d));
      EXPECT_EQ(recount, ours->front().length);
    }
  }
}

// --max-length: IDA* meets the optimal length first, so there is no shorter non-optimal answer;
// a limit below the optimal length is refused with the proven lower bound, a limit at or above
// it changes nothing. A run out of time has no answer yet and stays an error.
TEST(DefSearch, SolverMaxLengthAndTimeLimit) {
  const Definition d = samples::cube2(true);
  auto index = [&](const std::string& name) {
    for (std::size_t m = 0; m < d.moves.size(); ++m) {
      if (d.moves[m].name == name) return m;
    }
    return d.moves.size();
  };
  // "R U F" from solved: three moves of distinct faces, no shorter way back (HTM distance 3).
  const std::vector<std::size_t> scramble{index("R"), index("U"), index("F")};
  TableStore store;
  DefSolveOptions so;
  so.memory_bytes = 64 << 10;
  for (int limit : {0, 1, 2, 3, 4}) {
    so.max_length = limit;
    auto solver = DefSolver::create(d, so, store, RunContext());
    ASSERT_TRUE(solver) << solver.error().message;
    auto r = (*solver)->solve_moves(scramble, RunContext());
    if (limit < 3) {
      ASSERT_FALSE(r) << "limit " << limit;
      EXPECT_EQ(r.error().kind, ErrorKind::LimitExceeded);
      EXPECT_NE(r.error().message.find(fmt::format("no solution of length {} or less", limit)),
                std::string::npos)
          << r.error().message;
    } else {
      ASSERT_TRUE(r) << r.error().message;
      EXPECT_EQ(r->front().length, 3);
    }
  }
  // A deep position and a time limit already passed: an error, not an answer.
  so.max_length = 100;
  auto solver = DefSolver::create(d, so, store, RunContext());
  ASSERT_TRUE(solver);
  std::vector<std::size_t> deep;
  for (const char* m : {"R", "U2", "F'", "R2", "U", "F2", "R'", "U'", "F", "R"}) {
    deep.push_back(index(m));
  }
  auto r = (*solver)->solve_moves(deep, RunContext().with_time_limit(std::chrono::seconds(0)));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::LimitExceeded);
}

TEST(DefSearch, QuickPassAnswersWithinACapOrATimeLimit) {
  // With --max-length the caller accepts any solution within the cap: a weighted pass (closest
  // child first) answers random 4x4 Loopover positions after few nodes, replayed, within the
  // cap. Under a time limit alone its answer stands in when the optimal search runs out of
  // time: an answer, not an error.
  const Definition d = samples::loopover(4, 4);
  TableStore store;
  DefSolveOptions so;
  so.memory_bytes = 1 << 20;
  Rng rng(3);
  std::vector<State> starts;
  for (int i = 0; i < 3; ++i) {
    State st = full_solved(d);
    rng.shuffle(st.sets[0].perm.begin(), st.sets[0].perm.end());
    starts.push_back(st);
  }
  so.accept_non_optimal = true;
  so.max_length = 40;
  auto capped = DefSolver::create(d, so, store, RunContext());
  ASSERT_TRUE(capped) << capped.error().message;
  for (const State& st : starts) {
    auto r = (*capped)->solve(st, RunContext().with_threads(1));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_LE(r->front().length, 40);
    EXPECT_LT(r->front().nodes, 1'000'000u);
    std::vector<std::size_t> moves;
    for (const std::string& name : r->front().moves) moves.push_back(*d.find_move(name));
    EXPECT_EQ(replay(d, st, moves), full_solved(d));
  }
  so.accept_non_optimal = false;
  so.max_length = 100;
  auto plain = DefSolver::create(d, so, store, RunContext());
  ASSERT_TRUE(plain);
  // 3 s: room for the quick pass (milliseconds here) on a loaded machine; IDA* with these
  // tables needs minutes for this position, so the answer is the quick one.
  auto r = (*plain)->solve(starts[0],
                           RunContext().with_threads(1).with_time_limit(std::chrono::seconds(3)));
  EXPECT_FALSE(r && r->front().optimal) << "IDA* finished within the limit: pick a harder case";
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_GT(r->front().length, 0);
}

}  // namespace def_search_test
}  // namespace permuzzle::def

#include "cli_runner.hpp"

namespace permuzzle::def {
namespace def_search_test {

TEST(DefSearchCli, JsonContract) {
  const std::string data = std::string(PERMUZZLE_DATA_DIR) + "/puzzles/";
  auto bfs = test::run_cli("--json --quiet def bfs " + data + "loopover-2x4.tws --antipodes 2");
  ASSERT_EQ(bfs.exit_code, 0) << bfs.err;
  const auto j = bfs.json();
  EXPECT_TRUE(j["complete"].get<bool>());
  std::uint64_t total = 0;
  for (const auto& c : j["histogram"]) total += c.get<std::uint64_t>();
  EXPECT_EQ(total, 40320u);  // 8!: the row moves are 4-cycles, odd permutations
  EXPECT_EQ(j["max_distance"].get<int>() + 1, static_cast<int>(j["histogram"].size()));
  EXPECT_EQ(j["antipodes"].size(), 2u);
  // The 3x3x3 whole graph is refused (exit 3: over a limit) with the way out in the message.
  auto big = test::run_cli("--quiet def bfs " + data + "3x3x3.tws");
  EXPECT_EQ(big.exit_code, 3);
  EXPECT_NE(big.err.find("--max-depth"), std::string::npos);
  // One entry per scramble, each verified.
  char path[] = "/tmp/permuzzle-def-scr-XXXXXX";
  const int fd = mkstemp(path);
  const std::string scr = "ScrambleAlg a\nR U\nEnd\nScrambleAlg b\nF2\nEnd\n";
  ASSERT_EQ(write(fd, scr.data(), scr.size()), static_cast<ssize_t>(scr.size()));
  close(fd);
  auto solve = test::run_cli("--json --quiet --tables none def solve " + data +
                             "2x2x2-fixed-corner.tws --scramble " + path);
  std::remove(path);
  ASSERT_EQ(solve.exit_code, 0) << solve.err;
  const auto s = solve.json()["solutions"];
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0]["name"], "a");
  EXPECT_EQ(s[0]["length"], 2);
  EXPECT_EQ(s[1]["moves"], nlohmann::json::array({"F2"}));
  EXPECT_TRUE(s[1]["verified"].get<bool>());
  EXPECT_TRUE(s[1]["optimal"].get<bool>());
  // --max-length below the optimal length: exit 3 (over a limit) with the proven bound.
  auto short_limit = test::run_cli("--quiet --tables none def solve " + data +
                                   "2x2x2-fixed-corner.tws --moves \"R U F\" --max-length 2");
  EXPECT_EQ(short_limit.exit_code, 3);
  EXPECT_NE(short_limit.err.find("no solution of length 2 or less exists"), std::string::npos)
      << short_limit.err;
  EXPECT_NE(short_limit.err.find("at least 3 long"), std::string::npos) << short_limit.err;
}

}  // namespace def_search_test
}  // namespace permuzzle::def
