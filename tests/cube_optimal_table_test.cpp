// The optimal solver's pruning-table machinery without the 2.3 GiB table: the corner-combination
// tables against the cubie model, and the generic row builder with a trivial extra coordinate
// against the phase-1 table (built by the independent nibble BFS and checked against Kociemba's
// published distribution in cube_two_phase_test.cpp), entry by entry.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <unordered_map>

#include "../src/puzzles/cube/coordinates.hpp"
#include "../src/puzzles/cube/optimal_table.hpp"
#include "../src/puzzles/cube/solver_tables.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/cube/two_phase.hpp"

namespace permuzzle::cube {
namespace cube_optimal_table_test {

using namespace detail;

const SolverTables& tables() {
  static TableStore store(std::string(PERMUZZLE_TEST_TABLES_DIR));
  static std::shared_ptr<const SolverTables> t = *solver_tables(store, RunContext{});
  return *t;
}

TEST(CubeOptimalTable, CornerCombinationTablesAgreeWithCubies) {
  const CoordTables& t = *tables().coords;
  Rng rng(11);
  std::set<int> seen;
  for (int i = 0; i < 300; ++i) {
    const KCube x = from_cubie(random_state(rng));
    seen.insert(x.ccomb());
    int sm = 0, cm = 0;
    for (int j = 0; j < 12; ++j) sm |= (x.ep[j] >= 8) << j;
    for (int j = 0; j < 8; ++j) cm |= (x.cp[j] < 4) << j;
    EXPECT_EQ(t.slice_of_mask[sm], x.slice());
    EXPECT_EQ(t.ccomb_of_mask[cm], x.ccomb());
    for (int m = 0; m < N_MOVES; ++m) {
      EXPECT_EQ((x * t.basics.moves[m]).ccomb(), t.ccomb_move[x.ccomb() * N_MOVES + m]);
    }
    for (int s = 0; s < N_SYM_D4H; ++s) {
      EXPECT_EQ(t.basics.conj(x, s).ccomb(), t.ccomb_conj[x.ccomb() * N_SYM_D4H + s]);
    }
  }
  EXPECT_EQ(KCube{}.ccomb(), 0);
  EXPECT_GT(seen.size(), 60u);  // of 70
  for (int v : seen) EXPECT_LT(v, N_CCOMB);
}

// The cube after n random face turns.
Result<CubieState> random_scramble(Rng& rng, int n) {
  std::vector<CubeMove> scramble;
  for (int k = 0; k < n; ++k) {
    scramble.push_back({std::string(1, "URFDLB"[rng.below(6)]), int(rng.below(3)) + 1});
  }
  return from_sticker_perm(moves_perm(scramble));
}

// The row builder with the trivial extra coordinate is the phase-1 table mod 3.
TEST(CubeOptimalTable, TrivialExtraCoordinateGivesThePhaseOneTable) {
  const SolverTables& st = tables();
  const CoordTables& t = *st.coords;
  const std::array<std::uint8_t, N_MOVES> zero_move{};
  const std::array<std::uint8_t, N_SYM_D4H> zero_conj{};
  const ExtraCoord trivial{1, zero_move.data(), zero_conj.data()};
  Mod3Table m3;
  std::vector<std::uint64_t> per_depth;
  ASSERT_TRUE(build_mod3_table(t, trivial, 2, m3, {}, {}, &per_depth));
  std::vector<std::uint64_t> expected(13, 0);
  std::uint64_t mismatches = 0;
  for (std::uint32_t c = 0; c < N_FLIPSLICE_CLASS; ++c) {
    for (int tw = 0; tw < N_TWIST; ++tw) {
      const int d = st.phase1->get(std::uint64_t(c) * N_TWIST + tw);
      ++expected[d];
      mismatches += m3.get(c, tw) != d % 3;
    }
  }
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(per_depth, expected);
  // Descending the mod-3 table gives the exact distances.
  Rng rng(3);
  for (int i = 0; i < 200; ++i) {
    const KCube x = from_cubie(random_state(rng));
    EXPECT_EQ(mod3_exact_distance(t, trivial, m3, x.twist(), x.flip(), x.slice(), 0),
              phase1_distance(t, *st.phase1, x.twist(), x.flip(), x.slice()));
  }
}

// The big table's search (mod-3 tracking, the inverse's bound anchored on the phase-1 table,
// nxopt's tricks (a) and (b)) run on the table of the phase-1 size: optimal lengths must equal
// the breadth-first distances, and the lengths of the phase-1-only solver on deeper scrambles
// (if a trick were not admissible, some length would come out too long).
// A table of the phase-1 size (no corner part) times the slice edges' order of q values (none
// for q = 1).
std::shared_ptr<const OptimalTable> phase1_sized_table(int q) {
  const std::array<std::uint8_t, N_MOVES> zero_move{};
  const std::array<std::uint8_t, N_SYM_D4H> zero_conj{};
  auto o = std::make_shared<OptimalTable>();
  o->corners = 1;
  if (q > 1) o->order = std::make_shared<SliceOrder>(SliceOrder::make(*tables().coords, q));
  build_mod3_table(*tables().coords, {q, zero_move.data(), zero_conj.data(), o->order.get()}, 2,
                   o->table, {}, {}, &o->per_depth);
  return o;
}

std::shared_ptr<const OptimalTable> small_table() {
  static std::shared_ptr<const OptimalTable> made = phase1_sized_table(1);
  return made;
}

// Whole cubes by breadth-first search to depth 5 (layer d: the cubes at distance d).
const std::vector<std::vector<KCube>>& cube_layers() {
  static const std::vector<std::vector<KCube>> layers = [] {
    const CubeBasics& b = tables().coords->basics;
    auto key = [](const KCube& c) {
      return std::string(reinterpret_cast<const char*>(&c), sizeof c);
    };
    std::unordered_map<std::string, int> seen{{key(KCube{}), 0}};
    std::vector<std::vector<KCube>> out{{KCube{}}};
    for (int d = 1; d <= 5; ++d) {
      std::vector<KCube> next;
      for (const KCube& c : out.back()) {
        for (int m = 0; m < N_MOVES; ++m) {
          const KCube n = c * b.moves[m];
          if (seen.emplace(key(n), d).second) next.push_back(n);
        }
      }
      out.push_back(std::move(next));
    }
    return out;
  }();
  return layers;
}

// The optimal solver with `table` gives every cube its breadth-first distance: all cubes of
// depth <= `all_to`, `samples` random ones of each deeper layer.
void expect_breadth_first_distances(std::shared_ptr<const OptimalTable> table, int all_to,
                                    std::size_t samples, std::uint64_t seed) {
  const auto& layers = cube_layers();
  ASSERT_EQ(layers[5].size(), 574908u);  // published
  OptimalOptions o;
  o.table = std::move(table);
  Rng rng(seed);
  for (int d = 0; d <= 5; ++d) {
    const std::size_t n = d <= all_to ? layers[d].size() : samples;
    for (std::size_t i = 0; i < n; ++i) {
      const KCube& c = d <= all_to ? layers[d][i] : layers[d][rng.below(layers[d].size())];
      auto s = solve_optimal(tables(), to_cubie(c), o, RunContext{}.with_threads(1));
      ASSERT_TRUE(s);
      EXPECT_EQ(s->length, d);
      EXPECT_TRUE(s->optimal && s->verified);
    }
  }
}

TEST(CubeOptimalTable, SearchWithTricksGivesBreadthFirstDistances) {
  expect_breadth_first_distances(small_table(), 2, 100, 8);
}

TEST(CubeOptimalTable, SearchWithTricksAgreesWithThePhaseOneSolver) {
  OptimalOptions o;
  o.table = small_table();
  Rng rng(21);
  std::uint64_t nodes_old = 0, nodes_new = 0;
  for (int i = 0; i < 4; ++i) {
    auto c = random_scramble(rng, 8);
    ASSERT_TRUE(c);
    auto old = solve_optimal(tables(), *c, {}, RunContext{}.with_threads(2));
    auto one = solve_optimal(tables(), *c, o, RunContext{}.with_threads(1));
    auto two = solve_optimal(tables(), *c, o, RunContext{}.with_threads(2));
    OptimalOptions single = o;  // one subtree at a time: a plain depth-first search
    single.lanes = 1;
    auto plain = solve_optimal(tables(), *c, single, RunContext{}.with_threads(1));
    ASSERT_TRUE(old && one && two && plain);
    EXPECT_EQ(one->length, old->length);
    EXPECT_EQ(format_moves(one->moves), format_moves(two->moves));
    EXPECT_EQ(one->nodes, two->nodes);
    EXPECT_EQ(format_moves(one->moves), format_moves(plain->moves));
    EXPECT_EQ(one->nodes, plain->nodes);
    nodes_old += old->nodes, nodes_new += one->nodes;
  }
  EXPECT_LT(nodes_new, nodes_old);  // the tricks prune
  // The quarter-turn metric: R2 U costs 3.
  OptimalOptions q = o;
  q.metric = Metric::Qtm;
  auto c = from_sticker_perm(moves_perm(*parse_moves("R2 U")));
  ASSERT_TRUE(c);
  auto s = solve_optimal(tables(), *c, q, RunContext{});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->length, 3);
}

// The slice edges' order (the larger tables' extra coordinate) against the cubie model: its move
// and conjugation tables give the order of the moved and conjugated cubes, the goal's order is
// kept by U and D (so H' still contains them), and it takes exactly Q values.
TEST(CubeOptimalTable, SliceOrderTablesAgreeWithCubies) {
  const CoordTables& t = *tables().coords;
  EXPECT_EQ(SliceOrder::make(t, 4).size, 0);  // no subgroup of index 4 is normalised by D4
  for (int q : {2, 3, 6}) {
    const SliceOrder o = SliceOrder::make(t, q);
    ASSERT_EQ(o.size, q);
    EXPECT_EQ(o.of(KCube{}), 0);
    Rng rng(40 + q);
    std::set<int> seen;
    for (int i = 0; i < 300; ++i) {
      const KCube x = from_cubie(random_state(rng));
      const int v = o.of(x), slice = x.slice();
      seen.insert(v);
      for (int m = 0; m < N_MOVES; ++m) {
        EXPECT_EQ(o.of(x * t.basics.moves[m]), o.move[(slice * N_MOVES + m) * q + v]);
      }
      for (int s = 0; s < N_SYM_D4H; ++s) {
        EXPECT_EQ(o.of(t.basics.conj(x, s)), o.conj[(slice * N_SYM_D4H + s) * q + v]);
      }
    }
    EXPECT_EQ(seen.size(), std::size_t(q));
    for (int m : {0, 1, 2, 9, 10, 11}) {  // U and D turns at the goal's slice
      for (int v = 0; v < q; ++v) EXPECT_EQ(o.move[(0 * N_MOVES + m) * q + v], v);
    }
  }
}

// Symmetric positions search one subtree of each class of conjugate ones: every position of
// depth <= 5 with a symmetry (up to 40 a layer) still gets its breadth-first distance, with no
// more nodes than the full search; the checkerboard (R2 L2 U2 D2 F2 B2, 6 moves) likewise.
TEST(CubeOptimalTable, SymmetricPositionsSearchOneSubtreeOfEachClass) {
  const CubeBasics& b = tables().coords->basics;
  OptimalOptions reduced, full;
  reduced.table = full.table = small_table();
  full.reduce_by_symmetry = false;
  std::uint64_t nodes_reduced = 0, nodes_full = 0;
  int symmetric = 0;
  for (int d = 1; d <= 5; ++d) {
    int taken = 0;
    for (const KCube& c : cube_layers()[d]) {
      bool has_symmetry = false;
      for (int s = 1; s < N_SYM && !has_symmetry; ++s) has_symmetry = b.conj(c, s) == c;
      if (!has_symmetry) continue;
      auto r = solve_optimal(tables(), to_cubie(c), reduced, RunContext{}.with_threads(2));
      auto f = solve_optimal(tables(), to_cubie(c), full, RunContext{}.with_threads(1));
      ASSERT_TRUE(r && f);
      EXPECT_EQ(r->length, d);
      EXPECT_EQ(f->length, d);
      EXPECT_TRUE(r->optimal && r->verified);
      EXPECT_NE(r->method.find("one subtree of each class"), std::string::npos) << r->method;
      EXPECT_LE(r->nodes, f->nodes);
      nodes_reduced += r->nodes, nodes_full += f->nodes;
      ++symmetric;
      if (++taken == 40) break;
    }
  }
  EXPECT_GT(symmetric, 100);
  EXPECT_LT(nodes_reduced, nodes_full);
  auto checkerboard = from_sticker_perm(moves_perm(*parse_moves("R2 L2 U2 D2 F2 B2")));
  ASSERT_TRUE(checkerboard);
  auto r = solve_optimal(tables(), *checkerboard, reduced, RunContext{});
  auto f = solve_optimal(tables(), *checkerboard, full, RunContext{});
  ASSERT_TRUE(r && f);
  EXPECT_EQ(r->length, 6);
  EXPECT_EQ(f->length, 6);
  EXPECT_NE(r->method.find("position's 48 symmetries"), std::string::npos) << r->method;
  EXPECT_LT(r->nodes * 2, f->nodes) << r->nodes << " " << f->nodes;  // 6,299 against 18,743
  // The quarter-turn metric searches every subtree (the completeness argument needs the
  // half-turn metric).
  OptimalOptions qtm = reduced;
  qtm.metric = Metric::Qtm;
  auto q = solve_optimal(tables(), *checkerboard, qtm, RunContext{});
  ASSERT_TRUE(q);
  EXPECT_EQ(q->length, 12);  // six half turns
  EXPECT_EQ(q->method.find("each class"), std::string::npos) << q->method;
  // A random cube has no symmetry: the same search either way.
  Rng rng(4);
  auto c = random_scramble(rng, 8);
  ASSERT_TRUE(c);
  auto r8 = solve_optimal(tables(), *c, reduced, RunContext{});
  auto f8 = solve_optimal(tables(), *c, full, RunContext{});
  ASSERT_TRUE(r8 && f8);
  if (r8->method.find("each class") == std::string::npos) EXPECT_EQ(r8->nodes, f8->nodes);
}

// A table of the phase-1 size times the slice edges' order mod V4 (Q = 6; the 13.8 GiB table's
// order part without the corners): its entries against a breadth-first search of the coordinate
// itself (raw twist, flip, slice and order, no symmetry) to depth 5, and the search on it
// against breadth-first distances of whole cubes.
std::shared_ptr<const OptimalTable> order_table() {
  static std::shared_ptr<const OptimalTable> made = phase1_sized_table(6);
  return made;
}

TEST(CubeOptimalTable, SliceOrderTableAgreesWithBreadthFirstSearch) {
  const CoordTables& t = *tables().coords;
  auto o = order_table();
  ASSERT_EQ(o->table.extra, 6);
  const std::array<std::uint8_t, N_MOVES> zero_move{};
  const std::array<std::uint8_t, N_SYM_D4H> zero_conj{};
  const ExtraCoord x{6, zero_move.data(), zero_conj.data(), o->order.get()};
  std::uint64_t sum = 0;
  for (auto v : o->per_depth) sum += v;
  EXPECT_EQ(sum, o->table.entries());
  EXPECT_EQ(o->per_depth[0], 1u);
  // Step 1. Breadth-first search of (twist, flip, slice, order) from the goal (move tables
  // only, no symmetry).
  const auto layers = raw_coordinate_layers(t, x, 5);
  // Step 2. Every coordinate within depth 5 has its distance's residue in the table, and on a
  // sample the exact distance by descent.
  Rng rng(5);
  std::uint64_t wrong = 0, descents = 0, coordinates = 0;
  for (int d = 0; d <= 5; ++d) {
    for (const auto& [tw, fl, sl, q] : layers[d]) {
      const Mod3Index i = mod3_index(t, x, tw, fl, sl, q);
      wrong += o->table.get(i.row, i.entry) != d % 3;
      ++coordinates;
      if (rng.below(100) == 0) {
        ++descents;
        EXPECT_EQ(mod3_exact_distance(t, x, o->table, tw, fl, sl, q), d);
      }
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(descents, 100u);
  EXPECT_GT(layers[5].size(), 10000u);
  // Step 3. The table's check (random entries: within 1 of their neighbours, at least the
  // phase-1 distance).
  auto check = check_optimal_table(tables(), *o, 2000, 7);
  ASSERT_TRUE(check) << check.error().message;
  EXPECT_EQ(check->samples, 2000u);
  EXPECT_EQ(check->bfs_depth, 5);
  EXPECT_EQ(check->bfs_coordinates, coordinates);
}

// The four big tables' sizes (64430 rows of 2187 x 70 x Q entries at 2 bits, rows padded to 64
// bytes, and a 256-byte trailer) and the choice of the largest that fits a budget.
TEST(CubeOptimalTable, TableSizesAndTheChoiceByMemory) {
  const std::uint64_t rows = 64430;
  auto padded = [](std::uint64_t entries) { return ((entries + 3) / 4 + 63) / 64 * 64; };
  for (int q : OPTIMAL_TABLE_ORDERS) {
    EXPECT_EQ(optimal_table_entries(q), rows * 2187 * 70 * std::uint64_t(q));
    EXPECT_EQ(optimal_table_bytes(q), rows * padded(2187 * 70 * std::uint64_t(q)) + 256);
  }
  EXPECT_EQ(optimal_table_bytes(1), 2469988736u);  // the 2.3 GiB table of docs/cube.md
  EXPECT_EQ(optimal_table_bytes(6), 14799313536u);
  constexpr std::uint64_t MIB = 1 << 20;
  EXPECT_EQ(optimal_table_order_for(2000 * MIB), 0);
  EXPECT_EQ(optimal_table_order_for(4096 * MIB), 1);
  EXPECT_EQ(optimal_table_order_for(4800 * MIB), 2);
  EXPECT_EQ(optimal_table_order_for(7150 * MIB), 3);
  EXPECT_EQ(optimal_table_order_for(14200 * MIB), 6);
  EXPECT_EQ(optimal_table_order_for(~std::uint64_t(0)), 6);
  EXPECT_NE(optimal_table_name(6).find("13.8 GiB"), std::string::npos);
  EXPECT_NE(optimal_table_name(1).find("2.3 GiB"), std::string::npos);
  // The H48 h7 table: 3393 classes x 34650 edge separations x 2^7 flips at 2 bits, with h0 (4
  // bits) and its coordinate tables.
  EXPECT_EQ(h48_tables_bytes(7), 3393ull * 34650 * 128 / 4 + (3393ull * 34650 + 1) / 2 + 8'000'000);
  EXPECT_NE(h48_table_name(7).find("3.5 GiB H48 table (h7"), std::string::npos);
  // Each further flip doubles the hK table; --memory takes the largest K that fits.
  EXPECT_EQ(h48_tables_bytes(9) - h48_tables_bytes(7), 3393ull * 34650 * (512 - 128) / 4);
  EXPECT_NE(h48_table_name(9).find("14.0 GiB H48 table (h9"), std::string::npos);
  EXPECT_EQ(h48_table_k_for(h48_tables_bytes(9)), 9);
  EXPECT_EQ(h48_table_k_for(h48_tables_bytes(9) - 1), 8);
  EXPECT_EQ(h48_table_k_for(h48_tables_bytes(8) - 1), 7);
  EXPECT_EQ(h48_table_k_for(h48_tables_bytes(7) - 1), 0);
}

// A build polls its stop while it fills the table (tens of seconds for the largest) and between
// rows: stopped at the second poll, it has filled no more than one 64 MiB piece of the 211 MB.
TEST(CubeOptimalTable, BuildStopsWhileFillingTheTable) {
  const std::array<std::uint8_t, N_MOVES> zero_move{};
  const std::array<std::uint8_t, N_SYM_D4H> zero_conj{};
  const SliceOrder order = SliceOrder::make(*tables().coords, 6);
  Mod3Table m3;
  int polls = 0;
  EXPECT_FALSE(build_mod3_table(
      *tables().coords, {6, zero_move.data(), zero_conj.data(), &order}, 2, m3,
      [&] { return ++polls >= 2; }, {}, nullptr));
  EXPECT_EQ(polls, 2);
  EXPECT_EQ(m3.data.size(), std::size_t(64) << 20);
  EXPECT_GT(m3.bytes(), 3 * m3.data.size());
}

// The check finds a wrong entry near the goal: a copy of the phase-1-sized table with the entry
// of the coordinates one R turn away set to distance 2's residue.
TEST(CubeOptimalTable, TableCheckFindsAWrongEntry) {
  const CoordTables& t = *tables().coords;
  ASSERT_TRUE(check_optimal_table(tables(), *small_table(), 100, 1));
  OptimalTable broken = *small_table();
  const std::array<std::uint8_t, N_MOVES> zero_move{};
  const std::array<std::uint8_t, N_SYM_D4H> zero_conj{};
  const ExtraCoord x{1, zero_move.data(), zero_conj.data(), nullptr};
  const int r = 3;  // R
  const Mod3Index i = mod3_index(t, x, t.twist_move[r], t.flip_move[r], t.slice_move[r], 0);
  ASSERT_EQ(broken.table.get(i.row, i.entry), 1);
  std::uint8_t& byte = broken.table.data[broken.table.byte_index(i.row, i.entry)];
  byte =
      static_cast<std::uint8_t>((byte & ~(3 << ((i.entry & 3) * 2))) | (2 << ((i.entry & 3) * 2)));
  auto check = check_optimal_table(tables(), broken, 100, 1);
  ASSERT_FALSE(check);
  EXPECT_NE(check.error().message.find("at distance 1 have residue 2"), std::string::npos)
      << check.error().message;
}

TEST(CubeOptimalTable, SearchWithSliceOrderGivesBreadthFirstDistances) {
  expect_breadth_first_distances(order_table(), 1, 60, 9);
  OptimalOptions o;
  o.table = order_table();
  Rng rng(9);
  // Deeper scrambles: the same lengths as the phase-1-sized table without the order, in fewer
  // nodes (the order's table is at least the phase-1 distance everywhere), one answer on 1 and 2
  // threads.
  OptimalOptions plain;
  plain.table = small_table();
  std::uint64_t nodes_plain = 0, nodes_order = 0;
  for (int i = 0; i < 4; ++i) {
    auto c = random_scramble(rng, 9);
    ASSERT_TRUE(c);
    auto without = solve_optimal(tables(), *c, plain, RunContext{}.with_threads(1));
    auto one = solve_optimal(tables(), *c, o, RunContext{}.with_threads(1));
    auto two = solve_optimal(tables(), *c, o, RunContext{}.with_threads(2));
    ASSERT_TRUE(without && one && two);
    EXPECT_EQ(one->length, without->length);
    EXPECT_EQ(format_moves(one->moves), format_moves(two->moves));
    EXPECT_EQ(one->nodes, two->nodes);
    nodes_plain += without->nodes, nodes_order += one->nodes;
  }
  EXPECT_LT(nodes_order, nodes_plain);
}
}  // namespace cube_optimal_table_test
}  // namespace permuzzle::cube

namespace permuzzle::cube {
namespace cube_optimal_table_test {
// By hand (needs a big table in ~/.cache/permuzzle, built by `permuzzle bench cube --optimal
// --memory N`; PERMUZZLE_TABLE_ORDER picks it: 1 (default), 2, 3 or 6): how far the phase-1
// anchor leaves the inverse's bound below the big table's exact distance, on random cubes.
TEST(CubeOptimalTable, DISABLED_InverseAnchorGap) {
  const char* env = std::getenv("PERMUZZLE_TABLE_ORDER");
  const int order = env ? std::atoi(env) : 1;
  TableStore home(std::string(std::getenv("HOME")) + "/.cache/permuzzle");
  auto big = optimal_table(home, tables(), RunContext{}, nullptr, order);
  ASSERT_TRUE(big);
  const CoordTables& t = *tables().coords;
  const SliceOrder* so = (*big)->order.get();
  const ExtraCoord x{(*big)->table.extra, t.ccomb_move.data(), t.ccomb_conj.data(), so};
  std::map<int, int> gap, exact;
  Rng rng(1);
  for (int i = 0; i < 3000; ++i) {
    const KCube z = from_cubie(random_state(rng));
    const int e = z.ccomb() * x.order_size() + (so ? so->of(z) : 0);
    const int f = mod3_exact_distance(t, x, (*big)->table, z.twist(), z.flip(), z.slice(), e);
    const int low = phase1_distance(t, *tables().phase1, z.twist(), z.flip(), z.slice());
    const int lb = low + ((f % 3) - low % 3 + 3) % 3;
    ++gap[f - lb];
    ++exact[f];
  }
  for (auto [g, n] : gap) std::printf("gap %d: %d\n", g, n);
  for (auto [g, n] : exact) std::printf("distance %d: %d\n", g, n);
}
}  // namespace cube_optimal_table_test
}  // namespace permuzzle::cube
