// The H48 coordinates and their h0 table (src/puzzles/cube/h48.hpp) against facts from outside
// the code: Tronto's count of corner classes (3393, nissy-core doc/h48.md), the definition of the
// target subgroup (every half-turn word keeps the coordinates; the cubie model's moves and
// symmetries move them as the tables say), and a breadth-first search over the coordinates of
// whole cubes (no tables, no symmetry) for the table's first levels.
#include <gtest/gtest.h>

#include <algorithm>
#include <unordered_map>

#include "../src/puzzles/cube/coordinates.hpp"
#include "../src/puzzles/cube/h48.hpp"
#include "../src/puzzles/cube/solver_tables.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/puzzles/cube/two_phase.hpp"

namespace permuzzle::cube {
namespace cube_h48_test {

using namespace detail;

// The h11 coordinates of x's entries by conjugating whole cubes (the reference EdgeState is
// checked against): the class's symmetry first, then its stabiliser's variants.
std::vector<std::uint64_t> h11_by_cubes(const H48Coords& h, const CubeBasics& b, const KCube& x) {
  const std::uint32_t cs = h.cocsep_class_sym[h.cocsep(x)];
  const KCube y = b.conj(x, static_cast<int>(cs & 63));
  const std::uint64_t row = std::uint64_t(cs >> 6) * N_ESEP;
  std::vector<std::uint64_t> out{(row + h.esep(y)) * 2048 + static_cast<std::uint64_t>(y.flip())};
  for (int s = 1; s < N_SYM; ++s) {
    if (!((h.cocsep_stabilizer[cs >> 6] >> s) & 1)) continue;
    const KCube z = b.conj(y, s);
    out.push_back((row + h.esep(z)) * 2048 + static_cast<std::uint64_t>(z.flip()));
  }
  return out;
}

struct Fixture {
  CoordTables t = CoordTables::make();
  H48Coords h = H48Coords::make(t);
};

// The cocsep values of each class, counted.
std::vector<int> orbit_sizes(const H48Coords& h) {
  std::vector<int> orbit(N_COCSEP_CLASS, 0);
  for (int x = 0; x < N_COCSEP; ++x) ++orbit[h.cocsep_class_sym[x] >> 6];
  return orbit;
}

TEST(CubeH48, CornerClassesAreTrontos3393) {
  const Fixture f;
  const H48Coords& h = f.h;
  ASSERT_EQ(h.cocsep_rep.size(), 3393u);  // nissy-core doc/h48.md
  const std::vector<int> orbit = orbit_sizes(h);
  std::uint64_t sum = 0;
  for (int c = 0; c < N_COCSEP_CLASS; ++c) {
    // Orbit-stabiliser: the class's values times its representative's stabiliser is 48.
    EXPECT_EQ(orbit[c] * __builtin_popcountll(h.cocsep_stabilizer[c]), 48) << c;
    sum += static_cast<std::uint64_t>(orbit[c]);
  }
  EXPECT_EQ(sum, std::uint64_t(N_COCSEP));  // 3^7 x C(8,4)
  for (int x = 0; x < N_COCSEP; x += 7) {
    const std::uint32_t cs = h.cocsep_class_sym[x];
    const KCube rep = f.t.basics.conj(h.corners_cube(x), static_cast<int>(cs & 63));
    EXPECT_EQ(h.cocsep(rep), static_cast<int>(h.cocsep_rep[cs >> 6])) << x;
  }
}

// A random word in the half-turn group <U2, R2, F2, D2, L2, B2>, inside the target subgroup.
KCube half_turn_word(const CubeBasics& b, Rng& rng) {
  KCube g;
  for (int i = 0; i < 30; ++i) g = g * b.moves[3 * static_cast<int>(rng.below(6)) + 1];
  return g;
}

TEST(CubeH48, CoordinatesAreCosetsOfTheTetradSubgroupMovedAsTheCubiesAre) {
  const Fixture f;
  const H48Coords& h = f.h;
  const CubeBasics& b = f.t.basics;
  Rng rng(48);
  int changed_by_quarter_turn = 0;
  for (int i = 0; i < 300; ++i) {
    const KCube x = from_cubie(random_state(rng));
    // Left multiplication by the subgroup keeps the coordinates; by a quarter turn it does not
    // (in general).
    const KCube g = half_turn_word(b, rng);
    EXPECT_EQ(h.cocsep(g * x), h.cocsep(x));
    EXPECT_EQ(h.esep(g * x), h.esep(x));
    EXPECT_EQ(h.h0_index(g * x), h.h0_index(x));
    changed_by_quarter_turn += h.cocsep(b.moves[0] * x) != h.cocsep(x);
    for (int m = 0; m < N_MOVES; ++m) {
      const KCube y = x * b.moves[m];
      EXPECT_EQ(h.cocsep_after(f.t, h.cocsep(x), m), h.cocsep(y));
      EXPECT_EQ(h.esep_move[h.esep(x) * N_MOVES + m], h.esep(y));
    }
    // Conjugation is a function of the coordinates: the tables (made on other cubes with the
    // same coordinates) give this cube's conjugates.
    for (int s = 0; s < N_SYM; ++s) {
      const KCube y = b.conj(x, s);
      EXPECT_EQ(h.esep_conj[h.esep(x) * N_SYM + s], h.esep(y));
      EXPECT_EQ(h.cocsep(b.conj(h.corners_cube(h.cocsep(x)), s)), h.cocsep(y));
      // A cube and its conjugates have one h0 entry up to the stabiliser's images.
      const std::uint32_t cs = h.cocsep_class_sym[h.cocsep(y)];
      EXPECT_EQ(cs >> 6, h.cocsep_class_sym[h.cocsep(x)] >> 6);
    }
  }
  EXPECT_GT(changed_by_quarter_turn, 250);
}

// The h11 coordinate kept through moves in tables (EdgeState) against conjugating whole cubes:
// the same entries, in the same order, along random walks.
TEST(CubeH48, EdgeStateFollowsTheCubes) {
  const Fixture f;
  const H48Coords& h = f.h;
  const CubeBasics& b = f.t.basics;
  Rng rng(4812);
  int symmetric = 0;
  for (int walk = 0; walk < 60; ++walk) {
    KCube x = walk % 3 ? from_cubie(random_state(rng)) : half_turn_word(b, rng);
    H48Coords::EdgeState st = h.state_of(x);
    for (int step = 0; step < 40; ++step) {
      std::vector<std::uint64_t> by_state;
      const std::vector<std::uint64_t> by_cube = h11_by_cubes(h, b, x);
      const auto k2 = h.for_each_h11_variant(st, [&](std::uint64_t i) { by_state.push_back(i); });
      ASSERT_EQ(by_cube, by_state) << walk << " " << step;
      EXPECT_EQ(*std::min_element(by_cube.begin(), by_cube.end()), k2);
      EXPECT_EQ(by_cube.front(), h.h11_of(st));
      EXPECT_EQ(by_cube.front(), h.h11_of_cube(x));
      symmetric += by_cube.size() > 1;
      const int m = static_cast<int>(rng.below(N_MOVES));
      x = x * b.moves[m];
      st = h.after(f.t, st, m);
    }
  }
  EXPECT_GT(symmetric, 0);
}

TEST(CubeH48, H0TableIsTheBreadthFirstDistanceOfItsCoordinate) {
  const Fixture f;
  const H48Coords& h = f.h;
  const CubeBasics& b = f.t.basics;
  H48H0Table table;
  ASSERT_TRUE(build_h48_h0(f.t, h, 2, table, {}, {}));
  ASSERT_EQ(table.nibbles.size(), H48H0Table::BYTES);
  std::uint64_t entries = 0;
  for (const std::uint64_t n : table.per_depth) entries += n;
  EXPECT_EQ(entries, H48_H0_ENTRIES);
  // The corners' own distances (their breadth-first search, the searches' first bound): each
  // class's least h0 distance over the edges is its corners' distance (the edges can be put
  // in place along with them: equal, not just at least), the same for every member.
  std::vector<int> least(N_COCSEP_CLASS, 99);
  for (std::uint64_t i = 0; i < H48_H0_ENTRIES; ++i) {
    int& l = least[i / N_ESEP];
    l = std::min(l, table.get(i));
  }
  for (int x = 0; x < N_COCSEP; ++x) {
    ASSERT_EQ(h.cocsep_distance[x], least[h.cocsep_class_sym[x] >> 6]) << x;
  }
  // Step 1. Positions per distance: each entry stands for its class's orbit of corner values
  // (one per value, with the edges conjugated along).
  const std::vector<int> orbit = orbit_sizes(h);
  std::vector<std::uint64_t> weighted(table.per_depth.size(), 0);
  for (std::uint64_t i = 0; i < H48_H0_ENTRIES; ++i) {
    weighted[table.get(i)] += static_cast<std::uint64_t>(orbit[i / N_ESEP]);
  }
  std::uint64_t raw = 0;
  for (std::size_t d = 0; d < weighted.size(); ++d) {
    EXPECT_GT(weighted[d], 0u) << d;
    raw += weighted[d];
  }
  EXPECT_EQ(raw, std::uint64_t(5'304'568'500));  // C(8,4) 3^7 C(12,4) C(8,4), doc/h48.md
  // Step 2. Breadth-first search over the coordinates of whole cubes, to depth 5, without the
  // tables: every coordinate met has the table's value, and the counts per depth agree.
  constexpr int DEPTH = 5;
  std::unordered_map<std::uint64_t, int> depth_of;
  auto key = [&](const KCube& x) { return std::uint64_t(h.cocsep(x)) * N_ESEP + h.esep(x); };
  std::vector<KCube> layer{KCube{}};
  depth_of[key(KCube{})] = 0;
  for (int d = 0;; ++d) {
    EXPECT_EQ(weighted[d], layer.size()) << d;
    for (const KCube& x : layer) EXPECT_EQ(table.get(h.h0_index(x)), d);
    if (d == DEPTH) break;
    std::vector<KCube> next;
    for (const KCube& x : layer) {
      for (int m = 0; m < N_MOVES; ++m) {
        const KCube y = x * b.moves[m];
        if (depth_of.emplace(key(y), d + 1).second) next.push_back(y);
      }
    }
    layer = std::move(next);
  }
  // Step 3. Random cubes: beyond the search's depth unless it met them; neighbours within one
  // of each other; a neighbour one closer unless at the goal (so the values are distances).
  Rng rng(480);
  for (int i = 0; i < 2000; ++i) {
    KCube x = from_cubie(random_state(rng));
    if (i % 4 == 1) x = half_turn_word(b, rng) * x;
    const int v = table.get(h.h0_index(x));
    const auto it = depth_of.find(key(x));
    if (it != depth_of.end()) {
      EXPECT_EQ(v, it->second);
    } else {
      EXPECT_GT(v, DEPTH);
    }
    bool closer = false;
    for (int m = 0; m < N_MOVES; ++m) {
      const int w = table.get(h.h0_index(x * b.moves[m]));
      EXPECT_LE(std::abs(w - v), 1);
      closer |= w == v - 1;
    }
    EXPECT_TRUE(closer || v == 0);
  }
}

// The depth-first method (build_h48_k2) against the breadth-first h0 table: with K = 0 every
// entry is its exact distance, clipped to the 2-bit layout.
TEST(CubeH48, DepthFirstH0TableIsTheBreadthFirstOneClipped) {
  const Fixture f;
  H48H0Table exact;
  ASSERT_TRUE(build_h48_h0(f.t, f.h, 2, exact, {}, {}));
  constexpr int BASE = 5;
  H48K2Table k2;
  ASSERT_TRUE(build_h48_k2(f.t, f.h, 0, BASE, 4, 2, k2, {}, {}));
  ASSERT_EQ(k2.data.size(), H48K2Table::bytes(0));
  std::array<std::uint64_t, 4> counts{};
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < H48_H0_ENTRIES; ++i) {
    const int want = std::clamp(exact.get(i) - BASE, 0, 3);
    wrong += k2.get(i) != want;
    ++counts[k2.get(i)];
  }
  EXPECT_EQ(wrong, 0u);
  for (int v = 0; v < 4; ++v) EXPECT_GT(counts[v], 0u) << v;
}

// With K = 2 (untracked flips) each entry is the least distance of the h11 coordinates it stands
// for: checked against a breadth-first search over the h11 coordinates of whole cubes (no
// symmetry), to base + 2 moves.
TEST(CubeH48, DepthFirstH2TableIsTheLeastDistanceOfItsCoordinates) {
  const Fixture f;
  const H48Coords& h = f.h;
  const CubeBasics& b = f.t.basics;
  constexpr int K = 2, BASE = 4, DEPTH = BASE + 2;
  H48K2Table k2;
  ASSERT_TRUE(build_h48_k2(f.t, h, K, BASE, 3, 2, k2, {}, {}));
  // Step 1. Breadth-first search over (cocsep, esep, flip) of whole cubes, no tables of symmetry.
  auto key = [&](const KCube& x) {
    return (std::uint64_t(h.cocsep(x)) * N_ESEP + h.esep(x)) * 2048 + x.flip();
  };
  std::unordered_map<std::uint64_t, int> depth_of{{key(KCube{}), 0}};
  // The least depth met of each table entry (of the entries the cubes look up).
  std::unordered_map<std::uint64_t, int> least;
  auto entry = [&](const KCube& x) { return k2.index_of_h11(h11_by_cubes(h, b, x).front()); };
  std::vector<KCube> layer{KCube{}};
  least.emplace(entry(KCube{}), 0);
  for (int d = 0; d < DEPTH; ++d) {
    std::vector<KCube> next;
    for (const KCube& x : layer) {
      for (int m = 0; m < N_MOVES; ++m) {
        const KCube y = x * b.moves[m];
        if (!depth_of.emplace(key(y), d + 1).second) continue;
        next.push_back(y);
        least.emplace(entry(y), d + 1);  // first met = least (layers in order)
      }
    }
    layer = std::move(next);
  }
  ASSERT_GT(least.size(), 40000u);
  // Step 2. Every entry the search met holds its least depth, clipped; random cubes' entries that
  // it did not meet hold "base + 3 or more".
  for (const auto& [e, d] : least) EXPECT_EQ(k2.get(e), std::clamp(d - BASE, 0, 3)) << e;
  Rng rng(4811);
  int far = 0;
  for (int i = 0; i < 3000; ++i) {
    KCube x = from_cubie(random_state(rng));
    if (i % 2) {  // near the goal: a few moves from a half-turn word
      x = half_turn_word(b, rng);
      for (int j = 0; j < 4; ++j) x = x * b.moves[rng.below(N_MOVES)];
    }
    const auto it = least.find(entry(x));
    if (it == least.end()) {
      EXPECT_EQ(k2.get(entry(x)), 3);
      ++far;
    } else {
      EXPECT_EQ(k2.get(entry(x)), std::clamp(it->second - BASE, 0, 3));
    }
  }
  EXPECT_GT(far, 1000);
}

// The depth-first build halted for checkpoints, then cancelled, and a new build resumed from one
// of its checkpoints: the same table as one build without halts (the checkpoint alone is not).
TEST(CubeH48, DepthFirstBuildResumesFromItsCheckpoints) {
  const Fixture f;
  constexpr int K = 2, BASE = 4, SHORT = 4;
  // Step 1. The whole build.
  H48K2Table whole;
  ASSERT_TRUE(build_h48_k2(f.t, f.h, K, BASE, SHORT, 2, whole, {}, {}));
  // Step 2. A build with a checkpoint due after every 10 starts it finishes (as a time would be),
  // keeping the table of the third checkpoint and cancelled after it. One thread: with two, a
  // busy machine may let the other thread take nearly every start before the main thread (the one
  // that asks whether a checkpoint is due) finishes 30; the resumed build below has two.
  H48K2Table first;
  std::vector<std::uint64_t> saved_at;
  std::vector<std::uint8_t> kept;
  int finished = 0;
  H48BuildResume halting;
  halting.due = [&] { return finished >= 10; };
  halting.save = [&](std::uint64_t next_start) {
    finished = 0;
    saved_at.push_back(next_start);
    if (saved_at.size() == 3) kept.assign(first.data.begin(), first.data.end());
  };
  EXPECT_FALSE(build_h48_k2(
      f.t, f.h, K, BASE, SHORT, 1, first, [&] { return saved_at.size() >= 3; },
      [&](std::uint64_t, std::uint64_t) { ++finished; }, halting));
  ASSERT_EQ(saved_at.size(), 3u);
  EXPECT_TRUE(std::is_sorted(saved_at.begin(), saved_at.end()));
  EXPECT_GT(saved_at[2], 0u);
  EXPECT_FALSE(std::equal(kept.begin(), kept.end(), whole.data.begin(), whole.data.end()));
  // Step 3. A new build from the kept table.
  H48K2Table second;
  second.data.assign(kept.begin(), kept.end());
  H48BuildResume from;
  from.first_start = saved_at[2];
  ASSERT_TRUE(build_h48_k2(f.t, f.h, K, BASE, SHORT, 2, second, {}, {}, from));
  EXPECT_TRUE(
      std::equal(second.data.begin(), second.data.end(), whole.data.begin(), whole.data.end()));
}

// The search on H48 tables (small ones: h2 with base 5) against the phase-1 search, an independent
// bound: the same optimal lengths on scrambles of 3 to 12 moves, every solution replayed; the
// QTM and symmetric positions go through the same driver.
TEST(CubeH48, SearchOnH48TablesFindsTheOptimalLengths) {
  TableStore store(std::string(PERMUZZLE_TEST_TABLES_DIR));
  const auto tables = solver_tables(store, RunContext{});
  ASSERT_TRUE(tables);
  const CoordTables& t = *(*tables)->coords;
  auto h48 = std::make_shared<H48Tables>();
  auto coords = std::make_shared<H48Coords>(H48Coords::make(t));
  auto h0 = std::make_shared<H48H0Table>();
  auto k2 = std::make_shared<H48K2Table>();
  ASSERT_TRUE(build_h48_h0(t, *coords, 2, *h0, {}, {}));
  ASSERT_TRUE(build_h48_k2(t, *coords, 2, 5, 4, 2, *k2, {}, {}));
  h48->coords = coords;
  h48->h0 = h0;
  h48->k2 = k2;
  // The bench's sample check of a table (IDA* with h0 per sampled entry) agrees with this one,
  // which the test above checks against breadth-first search, and refuses a wrong one.
  auto check = check_h48_table(**tables, *h48, 20, 7, RunContext{});
  ASSERT_TRUE(check) << check.error().message;
  EXPECT_GE(check->per_value[0], 1u);  // "at most the base": rare in h2 (draws run out)
  EXPECT_EQ(check->per_value[1], 20u);
  EXPECT_EQ(check->per_value[2], 20u);
  EXPECT_EQ(check->per_value[3], 20u);
  auto wrong = std::make_shared<H48Tables>(*h48);
  auto all_two = std::make_shared<H48K2Table>(*k2);
  std::fill(all_two->data.begin(), all_two->data.end(), 0xAA);
  wrong->k2 = all_two;
  auto refused = check_h48_table(**tables, *wrong, 20, 7, RunContext{});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("H48 table check: entry"), std::string::npos);
  OptimalOptions with_h48;
  with_h48.h48 = h48;
  OptimalOptions one_end = with_h48;
  one_end.both_ends = false;
  std::uint64_t nodes_both = 0, nodes_one = 0;
  Rng rng(4813);
  for (int length = 3; length <= 12; ++length) {
    for (int i = 0; i < 3; ++i) {
      KCube x;
      for (int j = 0, last = -1; j < length; ++j) {
        int m;
        do {
          m = static_cast<int>(rng.below(N_MOVES));
        } while (!allowed_after(last, m));
        x = x * t.basics.moves[m];
        last = m;
      }
      const CubieState c = to_cubie(x);
      auto a = solve_optimal(**tables, c, with_h48, RunContext{}.with_threads(2));
      auto b = solve_optimal(**tables, c, {}, RunContext{}.with_threads(2));
      auto one = solve_optimal(**tables, c, one_end, RunContext{}.with_threads(2));
      ASSERT_TRUE(a && b && one) << length;
      EXPECT_EQ(a->length, b->length) << length << " " << i;
      EXPECT_EQ(one->length, b->length) << length << " " << i;
      EXPECT_TRUE(a->optimal && a->verified && one->verified);
      EXPECT_NE(a->method.find("H48 h2"), std::string::npos) << a->method;
      EXPECT_NE(a->method.find("from both ends"), std::string::npos) << a->method;
      nodes_both += a->nodes;
      nodes_one += one->nodes;
    }
  }
  // The bench's check of every table size (check_scramble_lengths) on these tables at 13 and 14
  // moves (h2 is the weakest table: the most nodes), then the same check refuses a table that
  // overestimates one entry: its first scramble's own (3 moves; base + 3 = 8 from the corrupted
  // entry), so the search starts at a bound of 8 and proves a longer "optimal" length.
  auto longer =
      check_scramble_lengths(**tables, with_h48, 13, 14, 1, 4817, RunContext{}.with_threads(2));
  ASSERT_TRUE(longer) << longer.error().message;
  ASSERT_EQ(longer->size(), 2u);
  for (const ScrambleCheck& c : *longer) {
    EXPECT_LE(c.optimal, c.moves) << c.scramble;
    EXPECT_GT(c.reference_nodes, 0u);
  }
  auto shortest = check_scramble_lengths(**tables, with_h48, 3, 3, 1, 4817, RunContext{});
  ASSERT_TRUE(shortest) << shortest.error().message;
  auto scramble = parse_moves(shortest->at(0).scramble);
  ASSERT_TRUE(scramble);
  KCube first;
  for (const CubeMove& m : *scramble) {
    const int face = static_cast<int>(std::string_view(FACE_NAMES).find(m.name[0]));
    first = first * t.basics.moves[face * 3 + m.turns - 1];
  }
  auto overestimating = std::make_shared<H48K2Table>(*k2);
  const std::uint64_t entry = overestimating->index_of_h11(coords->h11_of_cube(first));
  overestimating->data[entry >> 2] |= static_cast<std::uint8_t>(3 << ((entry & 3) * 2));
  auto wrong_entry = std::make_shared<H48Tables>(*h48);
  wrong_entry->k2 = overestimating;
  OptimalOptions with_wrong_entry = with_h48;
  with_wrong_entry.h48 = wrong_entry;
  auto refused_scramble =
      check_scramble_lengths(**tables, with_wrong_entry, 3, 3, 1, 4817, RunContext{});
  ASSERT_FALSE(refused_scramble);
  EXPECT_NE(refused_scramble.error().message.find("scramble check: " + shortest->at(0).scramble),
            std::string::npos)
      << refused_scramble.error().message;
  // The search from both ends takes the inverse's side (a search of the cube's side alone would
  // count the same nodes). On these short scrambles it saves nothing (498,227 nodes against
  // 496,978); on random cubes with h9 it saves 7% (docs/cube.md).
  EXPECT_NE(nodes_both, nodes_one);
  // A position with 48 symmetries inside the half-turn group (every H48 bound 0): the
  // checkerboard R2 L2 U2 D2 F2 B2, 6 moves.
  auto board =
      solve_optimal(**tables,
                    to_cubie(KCube{} * t.basics.moves[4] * t.basics.moves[13] * t.basics.moves[1] *
                             t.basics.moves[10] * t.basics.moves[7] * t.basics.moves[16]),
                    with_h48, RunContext{});
  ASSERT_TRUE(board);
  EXPECT_EQ(board->length, 6);
  OptimalOptions qtm = with_h48;
  qtm.metric = Metric::Qtm;
  auto q =
      solve_optimal(**tables, to_cubie(t.basics.moves[4] * t.basics.moves[0]), qtm, RunContext{});
  ASSERT_TRUE(q);
  EXPECT_EQ(q->length, 3);  // R2 U: three quarter turns
}

}  // namespace cube_h48_test
}  // namespace permuzzle::cube
