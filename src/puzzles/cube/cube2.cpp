#include "permuzzle/puzzles/cube/cube2.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "coordinates.hpp"
#include "permuzzle/puzzles/cube/cubie.hpp"
#include "permuzzle/search/bfs.hpp"

namespace permuzzle::cube2 {

namespace {

constexpr int N_MOVES2 = 9;  // U, U2, U', R, R2, R', F, F2, F'
constexpr int N_PERM7 = 5040;
constexpr int N_TWIST6 = 729;

// The 3x3x3's corner stickers (URFDLB numbering, U/D sticker first, then clockwise).
constexpr int CORNER_FACELET54[8][3] = {{8, 9, 20},   {6, 18, 38},  {0, 36, 47},  {2, 45, 11},
                                        {29, 26, 15}, {27, 44, 24}, {33, 53, 42}, {35, 17, 51}};

// 3x3x3 sticker (a corner sticker) -> 2x2x2 sticker.
int to24(int s54) {
  const int face = s54 / 9, i = s54 % 9;
  return face * 4 + (i == 0 ? 0 : i == 2 ? 1 : i == 6 ? 2 : 3);
}

int corner24(int position, int k) {
  return to24(CORNER_FACELET54[position][k]);
}

// The 24-sticker permutation of a quarter turn (sticker x goes to image[x]).
std::array<int, STICKERS> quarter_turn(const std::string& name) {
  const Perm p = cube::move_perm(name);
  std::array<int, STICKERS> image{};
  for (int f = 0; f < 6; ++f) {
    for (int i : {0, 2, 6, 8}) {
      const int s = f * 9 + i;
      image[to24(s)] = to24(static_cast<int>(p.image(static_cast<Point>(s))));
    }
  }
  return image;
}

cube::detail::KCube quarter_cubie(char face) {
  return cube::detail::from_cubie(*cube::from_sticker_perm(cube::move_perm(std::string(1, face))));
}

int perm7_rank(const std::array<std::uint8_t, 8>& cp) {
  std::array<std::uint8_t, 7> p{};
  for (int i = 0, k = 0; i < 8; ++i) {
    if (i == 6) continue;
    p[k++] = static_cast<std::uint8_t>(cp[i] == 7 ? 6 : cp[i]);
  }
  int rank = 0;
  for (int i = 0; i < 7; ++i) {
    int smaller = 0;
    for (int j = i + 1; j < 7; ++j) smaller += p[j] < p[i];
    rank = rank * (7 - i) + smaller;
  }
  return rank;
}

int twist6(const std::array<std::uint8_t, 8>& co) {
  int t = 0;
  for (int i = 0; i < 6; ++i) t = 3 * t + co[i];
  return t;
}

struct MoveTables {
  std::vector<std::uint16_t> perm;   // [perm * 9 + m]
  std::vector<std::uint16_t> twist;  // [twist * 9 + m]
};

MoveTables move_tables() {
  std::array<cube::detail::KCube, N_MOVES2> moves;
  for (int f = 0; f < 3; ++f) {
    const auto q = quarter_cubie("URF"[f]);
    auto m = q;
    for (int p = 0; p < 3; ++p) moves[3 * f + p] = m, m = m * q;
  }
  MoveTables t;
  t.perm.resize(N_PERM7 * N_MOVES2);
  std::array<std::uint8_t, 7> p{0, 1, 2, 3, 4, 5, 6};
  for (int k = 0; k < N_PERM7; ++k, std::next_permutation(p.begin(), p.end())) {
    cube::detail::KCube c;
    for (int i = 0, j = 0; i < 8; ++i) {
      if (i == 6) continue;
      c.cp[i] = static_cast<std::uint8_t>(p[j] == 6 ? 7 : p[j]);
      ++j;
    }
    for (int m = 0; m < N_MOVES2; ++m) {
      auto d = c;
      d.corners_times(moves[m]);
      t.perm[k * N_MOVES2 + m] = static_cast<std::uint16_t>(perm7_rank(d.cp));
    }
  }
  t.twist.resize(N_TWIST6 * N_MOVES2);
  for (int tw = 0; tw < N_TWIST6; ++tw) {
    cube::detail::KCube c;
    int x = tw, sum = 0;
    for (int i = 5; i >= 0; --i) sum += c.co[i] = static_cast<std::uint8_t>(x % 3), x /= 3;
    c.co[7] = static_cast<std::uint8_t>((3 - sum % 3) % 3);
    for (int m = 0; m < N_MOVES2; ++m) {
      auto d = c;
      d.corners_times(moves[m]);
      t.twist[tw * N_MOVES2 + m] = static_cast<std::uint16_t>(twist6(d.co));
    }
  }
  return t;
}

std::string strip(std::string_view text) {
  std::string f;
  for (char ch : text) {
    if (!std::isspace(static_cast<unsigned char>(ch))) f += ch;
  }
  return f;
}

}  // namespace

std::uint32_t index_of(const Cube2& c) {
  return static_cast<std::uint32_t>(perm7_rank(c.cp)) * N_TWIST6 + twist6(c.co);
}

Result<Reading> read_facelets(std::string_view text) {
  // Step 1. 24 stickers, six colours four times each.
  const std::string f = strip(text);
  if (f.size() != STICKERS) {
    return make_error(fmt::format("a 2x2x2 facelet string has 24 stickers (URFDLB order, 4 per "
                                  "face), got {}",
                                  f.size()),
                      std::string(text));
  }
  Reading out;
  std::map<char, int> counts;
  for (char ch : f) ++counts[ch];
  if (counts.size() != 6) {
    out.problems.push_back(fmt::format("colours: {} colours are used (expected 6)", counts.size()));
  }
  for (auto [colour, n] : counts) {
    if (n != 4) {
      out.problems.push_back(
          fmt::format("colour count: colour '{}' appears {} times (expected 4)", colour, n));
    }
  }
  if (!out.problems.empty()) return out;
  // Step 2. Opposite colours: the one colour never on a cubie with a given colour.
  std::map<char, std::set<char>> together;
  for (int p = 0; p < 8; ++p) {
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) together[f[corner24(p, a)]].insert(f[corner24(p, b)]);
    }
  }
  std::map<char, char> opposite;
  for (auto [colour, n] : counts) {
    std::vector<char> never;
    for (auto [other, m] : counts) {
      if (!together[colour].count(other)) never.push_back(other);
    }
    if (never.size() != 1) {
      out.problems.push_back(fmt::format(
          "colours: cannot tell which colour is opposite '{}' ({} colours never share a cubie "
          "with it, expected 1)",
          colour, never.size()));
    } else {
      opposite[colour] = never[0];
    }
  }
  if (!out.problems.empty()) return out;
  // Step 3. Faces of the colours, from the cubie at DBL (taken as solved).
  std::map<char, int> face_of;  // colour -> face 0..5 (URFDLB)
  const char d = f[corner24(6, 0)], b = f[corner24(6, 1)], l = f[corner24(6, 2)];
  face_of[d] = 3, face_of[b] = 5, face_of[l] = 4;
  face_of[opposite[d]] = 0, face_of[opposite[b]] = 2, face_of[opposite[l]] = 1;
  if (face_of.size() != 6) {
    out.problems.push_back(fmt::format("impossible corner at DBL: colours {}{}{}", d, b, l));
    return out;
  }
  // Step 4. Every corner: which cubie, which twist.
  std::array<int, 8> at{};
  for (int p = 0; p < 8; ++p) {
    const int c0 = face_of[f[corner24(p, 0)]], c1 = face_of[f[corner24(p, 1)]],
              c2 = face_of[f[corner24(p, 2)]];
    const std::array<int, 3> fc{c0, c1, c2};
    const std::string colours = {f[corner24(p, 0)], f[corner24(p, 1)], f[corner24(p, 2)]};
    int k = 0;
    while (k < 3 && fc[k] != 0 && fc[k] != 3) ++k;
    at[p] = -1;
    if (k == 3) {
      out.problems.push_back(
          fmt::format("impossible corner at {}: colours {} have no U or D "
                      "colour",
                      cube::CORNER_NAMES[p], colours));
      continue;
    }
    const int a = fc[k], bb = fc[(k + 1) % 3], c = fc[(k + 2) % 3];
    for (int j = 0; j < 8; ++j) {
      const int ja = CORNER_FACELET54[j][0] / 9, jb = CORNER_FACELET54[j][1] / 9,
                jc = CORNER_FACELET54[j][2] / 9;
      if (a == ja && bb == jb && c == jc) {
        at[p] = j;
        out.state.cp[p] = static_cast<std::uint8_t>(j);
        out.state.co[p] = static_cast<std::uint8_t>(k);
      } else if (a == ja && bb == jc && c == jb) {
        out.problems.push_back(
            fmt::format("impossible corner at {}: colours {} are the {} cubie "
                        "in mirror image",
                        cube::CORNER_NAMES[p], colours, cube::CORNER_NAMES[j]));
        at[p] = -2;
      }
    }
    if (at[p] == -1) {
      out.problems.push_back(fmt::format("impossible corner at {}: no cubie has colours {}",
                                         cube::CORNER_NAMES[p], colours));
    }
  }
  for (int j = 0; j < 8; ++j) {
    const auto n = std::count(at.begin(), at.end(), j);
    if (n > 1) {
      out.problems.push_back(
          fmt::format("duplicate cubie: corner {} appears {} times", cube::CORNER_NAMES[j], n));
    }
  }
  if (!out.problems.empty()) return out;
  // Step 5. The twists must sum to 0 mod 3 (the only condition on a 2x2x2).
  int sum = 0;
  for (auto x : out.state.co) sum += x;
  if (sum % 3 != 0) {
    out.problems.push_back(
        fmt::format("twist: the corner twists sum to {} mod 3 (must be 0)", sum % 3));
    return out;
  }
  out.valid = true;
  return out;
}

namespace {

// The 9 neighbours of a position index (perm * 729 + twist), for search/bfs.hpp.
struct Cube2Expander {
  const MoveTables* tables;
  template <class Visit>
  void for_each_neighbour(std::uint64_t index, Visit&& visit) const {
    const auto p = static_cast<std::uint32_t>(index / N_TWIST6);
    const auto tw = static_cast<std::uint32_t>(index % N_TWIST6);
    for (int m = 0; m < N_MOVES2; ++m) {
      const std::uint64_t j = std::uint64_t{tables->perm[p * N_MOVES2 + m]} * N_TWIST6 +
                              tables->twist[tw * N_MOVES2 + m];
      if (visit(j)) return;
    }
  }
};

}  // namespace

Result<std::shared_ptr<const DistanceTable>> distance_table(TableStore& store,
                                                            const RunContext& run,
                                                            TableReport* report) {
  auto tables = std::make_shared<MoveTables>(move_tables());
  TableRecipe<DistanceTable> recipe;
  recipe.key = TableKey{"cube-2x2x2", "distance-htm-dbl-fixed", 1};
  recipe.bytes = POSITIONS;
  recipe.allocate = [] {
    auto t = std::make_shared<DistanceTable>();
    t->distance.resize(POSITIONS);
    return t;
  };
  recipe.payload = [](DistanceTable& t) { return std::span<std::uint8_t>(t.distance); };
  recipe.loaded = [](DistanceTable& t) -> Status {
    t.histogram.clear();
    for (auto d : t.distance) {
      if (d >= 15) return make_error("a distance above 14");
      if (t.histogram.size() <= d) t.histogram.resize(d + 1u, 0);
      ++t.histogram[d];
    }
    return Ok{};
  };
  // Background-safe (a server's build outlives the request): holds the move tables.
  recipe.background = true;
  recipe.build = [tables](const RunContext& r) -> Result<std::shared_ptr<DistanceTable>> {
    // Step 1. The search (search/bfs.hpp, 4-bit entries: God's number is 11 in HTM, so every
    // entry is the exact distance), from the solved cube (index 0).
    search::BfsOptions bo;
    bo.bits = search::BfsBits::Four;
    bo.undirected = true;  // U, U2, U' (R, F the same): every move's inverse is a move
    bo.antipodes_limit = 0;
    bo.phase = "building 2x2x2 distance table";
    const std::uint64_t solved = 0;
    auto table = search::BfsTable::create(POSITIONS, search::BfsBits::Four);
    if (!table) return table.error();
    auto bfs = search::bfs(
        *table, std::span<const std::uint64_t>(&solved, 1),
        [&] { return Cube2Expander{tables.get()}; }, r, bo);
    if (!bfs) return bfs.error();
    if (bfs->reached != POSITIONS || bfs->max_distance >= 15) {
      return make_error("internal: the 2x2x2 table did not fill", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }
    // Step 2. One byte per position, as the solver reads it.
    auto t = std::make_shared<DistanceTable>();
    t->distance.resize(POSITIONS);
    for (std::uint32_t i = 0; i < POSITIONS; ++i) {
      t->distance[i] = static_cast<std::uint8_t>(table->entry(i));
    }
    t->histogram = bfs->histogram;
    return t;
  };
  auto t = store.obtain(recipe, run, report);
  if (!t) return t.error();
  return *t;
}

Result<std::string> apply_moves(std::string_view facelets,
                                const std::vector<cube::CubeMove>& moves) {
  std::string f = strip(facelets);
  if (f.size() != STICKERS) {
    return make_error(fmt::format("a 2x2x2 facelet string has 24 stickers, got {}", f.size()),
                      std::string(facelets));
  }
  for (const auto& m : moves) {
    const auto q = quarter_turn(m.name);
    for (int k = 0; k < m.turns; ++k) {
      std::string g = f;
      for (int x = 0; x < STICKERS; ++x) g[q[x]] = f[x];
      f = g;
    }
  }
  return f;
}

Result<Solution> solve(const DistanceTable& table, std::string_view facelets) {
  auto reading = read_facelets(facelets);
  if (!reading) return reading.error();
  if (!reading->valid) {
    return make_error("unsolvable: " + reading->problems.front(), std::string(facelets),
                      Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  // Step 1. Descend the distance table: a move to a position one closer, until solved.
  const MoveTables t = move_tables();
  std::uint32_t i = index_of(reading->state);
  Solution s;
  while (table.distance[i] != 0) {
    const std::uint32_t p = i / N_TWIST6, tw = i % N_TWIST6;
    bool stepped = false;
    for (int m = 0; m < N_MOVES2 && !stepped; ++m) {
      const std::uint32_t j =
          std::uint32_t(t.perm[p * N_MOVES2 + m]) * N_TWIST6 + t.twist[tw * N_MOVES2 + m];
      if (table.distance[j] + 1 == table.distance[i]) {
        s.moves.push_back({std::string(1, "URF"[m / 3]), m % 3 + 1});
        i = j;
        stepped = true;
      }
    }
    if (!stepped) {
      return make_error("internal: the 2x2x2 table has no downhill move", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }
  }
  // Step 2. Replay on the stickers: every face one colour.
  auto end = apply_moves(facelets, s.moves);
  if (!end) return end.error();
  for (int face = 0; face < 6; ++face) {
    for (int k = 1; k < 4; ++k) {
      if ((*end)[face * 4 + k] != (*end)[face * 4]) {
        return make_error("internal: the 2x2x2 solution does not solve the cube", {},
                          Error::NO_POSITION, ErrorKind::Internal);
      }
    }
  }
  s.verified = true;
  return s;
}

}  // namespace permuzzle::cube2
