// Canonical-sequence automaton: sequence counts from the literature, and a second method
// (breadth-first search of positions in a hash set) showing that no position is lost.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "permuzzle/puzzles/cube/facelets.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"
#include "permuzzle/search/canonical.hpp"

namespace permuzzle::search {
namespace search_canonical_test {

// The 18 face moves of the 3x3x3 cube: U U2 U' R R2 R' ... B' (faces in URFDLB order).
std::vector<Perm> cube_moves(const std::string& faces) {
  std::vector<Perm> moves;
  for (char f : faces) {
    const Perm q = cube::move_perm(std::string(1, f));
    moves.push_back(q);
    moves.push_back(q * q);
    moves.push_back(q * q * q);
  }
  return moves;
}

// The 2x2x2 cube: the 3x3x3 face turns restricted to the 24 corner stickers (0, 2, 6, 8 of each
// face), renumbered 0..23.
std::vector<Perm> pocket_cube_moves(const std::string& faces) {
  std::vector<int> to_corner(cube::STICKERS, -1);
  std::vector<int> corners;
  for (int face = 0; face < 6; ++face) {
    for (int k : {0, 2, 6, 8}) {
      to_corner[static_cast<std::size_t>(face * 9 + k)] = static_cast<int>(corners.size());
      corners.push_back(face * 9 + k);
    }
  }
  std::vector<Perm> moves;
  for (const Perm& m : cube_moves(faces)) {
    std::vector<Point> images;
    for (int s : corners) {
      images.push_back(static_cast<Point>(to_corner[m.image(static_cast<Point>(s))]));
    }
    moves.push_back(*Perm::from_images(images));
  }
  return moves;
}

// Loopover STM moves as permutations of the cells (the tile in cell x goes to cell x^p).
std::vector<Perm> loopover_moves(loopover::BoardSize size) {
  std::vector<Perm> moves;
  for (const loopover::Move& m : loopover::metric_moves(size, loopover::Metric::Stm)) {
    loopover::Position p = loopover::goal_position(size);
    loopover::apply_move(size, p, m);
    std::vector<Point> images(p.size());
    for (std::size_t cell = 0; cell < p.size(); ++cell)
      images[p[cell] - 1u] = static_cast<Point>(cell);
    moves.push_back(*Perm::from_images(images));
  }
  return moves;
}

// Positions at each distance 0..max_length, by breadth-first search in a set (no automaton).
std::vector<std::uint64_t> position_counts(const std::vector<Perm>& moves, int max_length) {
  std::set<std::vector<Point>> seen;
  std::vector<Perm> frontier{Perm(moves[0].degree())};
  seen.insert(frontier[0].images());
  std::vector<std::uint64_t> counts{1};
  for (int d = 1; d <= max_length; ++d) {
    std::vector<Perm> next;
    for (const Perm& p : frontier) {
      for (const Perm& m : moves) {
        Perm q = (p * m).extended(moves[0].degree());
        if (seen.insert(q.images()).second) next.push_back(q);
      }
    }
    counts.push_back(next.size());
    frontier.swap(next);
  }
  return counts;
}

// Distinct positions reached by the canonical sequences of length <= max_length.
std::size_t canonical_positions(const CanonicalAutomaton& a, const std::vector<Perm>& moves,
                                int max_length) {
  std::set<std::vector<Point>> seen;
  const std::size_t degree = moves[0].degree();
  auto walk = [&](auto&& self, const Perm& p, int state, int left) -> void {
    seen.insert(p.extended(degree).images());
    if (left == 0) return;
    for (int m = 0; m < a.moves(); ++m) {
      const int t = a.next(state, m);
      if (t != CanonicalAutomaton::PRUNED)
        self(self, p * moves[static_cast<std::size_t>(m)], t, left - 1);
    }
  };
  walk(walk, Perm(degree), CanonicalAutomaton::START, max_length);
  return seen.size();
}

std::vector<std::uint64_t> as_u64(const std::vector<mpz_class>& v) {
  std::vector<std::uint64_t> out;
  for (const mpz_class& x : v) out.push_back(x.get_ui());
  return out;
}

// Half-turn metric on the 3x3x3: canonical sequences 1, 18, 243, 3240, 43254, 577368
// (Korf 1997: a(n) = 12 a(n-1) + 18 a(n-2)); positions 1, 18, 243, 3240, 43239 (OEIS A080601),
// the same up to depth 3. Every position within 4 moves has a canonical sequence.
TEST(CanonicalAutomaton, CubeHalfTurnMetric) {
  const std::vector<Perm> moves = cube_moves("URFDLB");
  auto a = CanonicalAutomaton::build(moves);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->families(), 6);
  EXPECT_TRUE(a->commute(0, 3));   // U D
  EXPECT_FALSE(a->commute(0, 1));  // U R
  for (int f = 0; f < 6; ++f) EXPECT_TRUE(a->closed(f));
  const auto counts = a->count_sequences(7);
  EXPECT_EQ(as_u64(counts),
            (std::vector<std::uint64_t>{1, 18, 243, 3240, 43254, 577368, 7706988, 102876480}));
  const auto positions = position_counts(moves, 4);
  EXPECT_EQ(positions, (std::vector<std::uint64_t>{1, 18, 243, 3240, 43239}));
  EXPECT_EQ(canonical_positions(*a, moves, 4), 1u + 18 + 243 + 3240 + 43239);
}

// Without commutation (the fallback when commuting families give too many states): only a face
// turned twice in a row is pruned, 18 x 15^(n-1) sequences of n moves (each move any of the
// other five faces' 15 turns), one state per last face plus the start.
TEST(CanonicalAutomaton, WithoutCommutationOnlyRepeatsArePruned) {
  const std::vector<Perm> moves = cube_moves("URFDLB");
  CanonicalOptions options;
  options.use_commutation = false;
  auto a = CanonicalAutomaton::build(moves, options);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->states(), 7);
  EXPECT_FALSE(a->commute(0, 3));  // U D taken as not commuting
  EXPECT_EQ(as_u64(a->count_sequences(3)), (std::vector<std::uint64_t>{1, 18, 270, 4050}));
  // Still complete: every position within 4 moves has such a sequence.
  EXPECT_EQ(canonical_positions(*a, moves, 4), 1u + 18 + 243 + 3240 + 43239);
}

// Supplied families give the same automaton as derived ones; numbering is by first appearance.
TEST(CanonicalAutomaton, GivenFamilies) {
  const std::vector<Perm> moves = cube_moves("URFDLB");
  CanonicalOptions options;
  for (int f = 0; f < 6; ++f) options.families.insert(options.families.end(), 3, 50 - f);
  auto given = CanonicalAutomaton::build(moves, options);
  auto derived = CanonicalAutomaton::build(moves);
  ASSERT_TRUE(given.ok() && derived.ok());
  EXPECT_EQ(given->table(), derived->table());
  options.families.pop_back();
  EXPECT_FALSE(CanonicalAutomaton::build(moves, options).ok());
}

// The 2x2x2 in the half-turn metric with U, R, F: no two families commute, so 9 * 6^(n-1)
// canonical sequences; positions 1, 9, 54, 321, 1847 (OEIS A079761).
TEST(CanonicalAutomaton, PocketCube) {
  const std::vector<Perm> moves = pocket_cube_moves("URF");
  auto a = CanonicalAutomaton::build(moves);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(as_u64(a->count_sequences(5)),
            (std::vector<std::uint64_t>{1, 9, 54, 324, 1944, 11664}));
  EXPECT_EQ(position_counts(moves, 4), (std::vector<std::uint64_t>{1, 9, 54, 321, 1847}));
  EXPECT_EQ(canonical_positions(*a, moves, 5), 1u + 9 + 54 + 321 + 1847 + 9992);
}

// Loopover 3x3: the 3 rows commute with each other, as do the 3 columns; a state is a set of
// rows or a set of columns (1 + 7 + 7 = 15). Every position within 5 moves keeps a canonical
// sequence, and each length has at least as many sequences as positions.
TEST(CanonicalAutomaton, Loopover3x3) {
  const std::vector<Perm> moves = loopover_moves(loopover::BoardSize{3, 3});
  ASSERT_EQ(moves.size(), 12u);
  auto a = CanonicalAutomaton::build(moves);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->families(), 6);
  EXPECT_EQ(a->states(), 15);
  const int depth = 5;
  const auto positions = position_counts(moves, depth);
  const auto sequences = as_u64(a->count_sequences(depth));
  std::uint64_t ball = 0;
  for (int d = 0; d <= depth; ++d) {
    EXPECT_GE(sequences[static_cast<std::size_t>(d)], positions[static_cast<std::size_t>(d)]);
    ball += positions[static_cast<std::size_t>(d)];
  }
  EXPECT_EQ(canonical_positions(*a, moves, depth), ball);
  // Rules (a) and (b) on single pairs: two moves of one line pruned; two commuting lines only
  // in increasing family order; a row and a column in either order.
  auto first_move = [&](int family) {
    int m = 0;
    while (a->family_of(m) != family) ++m;
    return m;
  };
  auto pair = [&](int m1, int m2) { return a->next(a->next(CanonicalAutomaton::START, m1), m2); };
  for (int f = 0; f < 6; ++f) {
    for (int g = 0; g < 6; ++g) {
      const int mf = first_move(f), mg = first_move(g);
      const bool pruned = f == g || (a->commute(f, g) && f > g);
      EXPECT_EQ(pair(mf, mg) == CanonicalAutomaton::PRUNED, pruned) << f << " " << g;
    }
  }
}

// A family that is not closed under products (R and R2 without R') is not merged with itself:
// R R = R2 must stay reachable.
TEST(CanonicalAutomaton, OpenFamilyIsNotMerged) {
  const Perm r = cube::move_perm("R");
  const Perm u = cube::move_perm("U");
  const std::vector<Perm> moves{r, r * r, u};
  CanonicalOptions options;
  options.families = {0, 0, 1};
  auto a = CanonicalAutomaton::build(moves, options);
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->closed(0));
  EXPECT_NE(a->next(a->next(CanonicalAutomaton::START, 0), 0), CanonicalAutomaton::PRUNED);
  EXPECT_EQ(canonical_positions(*a, moves, 4), [&] {
    std::size_t total = 0;
    for (auto c : position_counts(moves, 4)) total += c;
    return total;
  }());
}

TEST(CanonicalAutomaton, RefusesBadInput) {
  EXPECT_FALSE(CanonicalAutomaton::build({}).ok());
  EXPECT_FALSE(CanonicalAutomaton::build({Perm(3)}).ok());
  // 20 commuting transpositions on disjoint points: 2^20 states > the limit.
  std::vector<Perm> moves;
  for (Point i = 0; i < 20; ++i) moves.push_back(*Perm::from_cycles({{2 * i + 1, 2 * i + 2}}, 40));
  auto a = CanonicalAutomaton::build(moves);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().kind, ErrorKind::LimitExceeded);
}

}  // namespace search_canonical_test
}  // namespace permuzzle::search
