#include "permuzzle/puzzles/cube/cubie.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "permuzzle/puzzles/cube/facelets.hpp"

namespace permuzzle::cube {

const char* const CORNER_NAMES[8] = {"URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB"};
const char* const EDGE_NAMES[12] = {"UR", "UF", "UL", "UB", "DR", "DF",
                                    "DL", "DB", "FR", "FL", "BL", "BR"};

namespace {

// Sticker indices (URFDLB numbering) of each cubie position, U/D (else F/B) sticker first
// (the tables of Kociemba's solvers).
constexpr int CORNER_FACELET[8][3] = {{8, 9, 20},   {6, 18, 38},  {0, 36, 47},  {2, 45, 11},
                                      {29, 26, 15}, {27, 44, 24}, {33, 53, 42}, {35, 17, 51}};
constexpr int EDGE_FACELET[12][2] = {{5, 10},  {7, 19},  {3, 37},  {1, 46},  {32, 16}, {28, 25},
                                     {30, 43}, {34, 52}, {23, 12}, {21, 41}, {50, 39}, {48, 14}};

int face_of(int sticker) {
  return sticker / 9;
}

template <std::size_t N>
int perm_sign(const std::array<std::uint8_t, N>& p) {
  int sign = 1;
  std::array<bool, N> seen{};
  for (std::size_t i = 0; i < N; ++i) {
    if (seen[i]) continue;
    std::size_t len = 0;
    for (std::size_t j = i; !seen[j]; j = p[j]) seen[j] = true, ++len;
    if (len % 2 == 0) sign = -sign;
  }
  return sign;
}

template <std::size_t N>
std::string cycles_text(const std::array<std::uint8_t, N>& p) {
  std::vector<Point> images(p.begin(), p.end());
  return Perm::from_images(images)->to_cycle_string();
}

}  // namespace

CubieState CubieState::operator*(const CubieState& b) const {
  CubieState c;
  for (int i = 0; i < 8; ++i) {
    c.r[i] = b.r[r[i]];
    c.v[i] = static_cast<std::uint8_t>((v[i] + b.v[r[i]]) % 3);
  }
  for (int i = 0; i < 12; ++i) {
    c.s[i] = b.s[s[i]];
    c.w[i] = static_cast<std::uint8_t>((w[i] + b.w[s[i]]) % 2);
  }
  return c;
}

CubieState CubieState::inverse() const {
  // c * c^-1 = id: r' = r^-1 and v[i] + v'[r[i]] = 0.
  CubieState c;
  for (int i = 0; i < 8; ++i) {
    c.r[r[i]] = static_cast<std::uint8_t>(i);
    c.v[r[i]] = static_cast<std::uint8_t>((3 - v[i]) % 3);
  }
  for (int i = 0; i < 12; ++i) {
    c.s[s[i]] = static_cast<std::uint8_t>(i);
    c.w[s[i]] = w[i];
  }
  return c;
}

std::string CubieState::describe() const {
  std::string vs, ws;
  for (auto x : v) {
    if (!vs.empty()) vs += ',';
    vs += static_cast<char>('0' + x);
  }
  for (auto x : w) {
    if (!ws.empty()) ws += ',';
    ws += static_cast<char>('0' + x);
  }
  return fmt::format("r = {}  v = [{}]  s = {}  w = [{}]", cycles_text(r), vs, cycles_text(s), ws);
}

Perm to_sticker_perm(const CubieState& c) {
  std::vector<Point> images(STICKERS);
  for (int i = 0; i < STICKERS; ++i) images[i] = i;
  for (int j = 0; j < 8; ++j) {
    for (int n = 0; n < 3; ++n) {
      images[CORNER_FACELET[j][n]] = CORNER_FACELET[c.r[j]][(n + c.v[j]) % 3];
    }
  }
  for (int j = 0; j < 12; ++j) {
    for (int n = 0; n < 2; ++n) {
      images[EDGE_FACELET[j][n]] = EDGE_FACELET[c.s[j]][(n + c.w[j]) % 2];
    }
  }
  return *Perm::from_images(std::move(images));
}

std::string to_facelets(const CubieState& c) {
  return facelets_of(to_sticker_perm(c));
}

Result<CubieState> rigid_motion_cubies(const Perm& p54) {
  CubieState c;
  auto image = [&](int sticker) {
    return static_cast<int>(p54.image(static_cast<Point>(sticker)));
  };
  for (int i = 0; i < 8; ++i) {
    bool found = false;
    for (int j = 0; j < 8 && !found; ++j) {
      for (int k = 0; k < 3 && !found; ++k) {
        found = image(CORNER_FACELET[i][0]) == CORNER_FACELET[j][k] &&
                image(CORNER_FACELET[i][1]) == CORNER_FACELET[j][(k + 1) % 3] &&
                image(CORNER_FACELET[i][2]) == CORNER_FACELET[j][(k + 2) % 3];
        if (found) {
          c.r[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(j);
          c.v[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(k);
        }
      }
    }
    if (!found) return make_error("not a rigid motion of the cube: a corner's stickers split");
  }
  for (int i = 0; i < 12; ++i) {
    bool found = false;
    for (int j = 0; j < 12 && !found; ++j) {
      for (int k = 0; k < 2 && !found; ++k) {
        found = image(EDGE_FACELET[i][0]) == EDGE_FACELET[j][k] &&
                image(EDGE_FACELET[i][1]) == EDGE_FACELET[j][1 - k];
        if (found) {
          c.s[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(j);
          c.w[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(k);
        }
      }
    }
    if (!found) return make_error("not a rigid motion of the cube: an edge's stickers split");
  }
  return c;
}

Result<CubieState> from_sticker_perm(const Perm& p54) {
  auto reading = read_facelets(facelets_of(p54));
  if (!reading) return reading.error();
  if (!reading->valid) return make_error("not a cube position: " + reading->problems.front());
  if (!(to_sticker_perm(reading->state) == p54.extended(STICKERS))) {
    return make_error("the permutation moves centres or is not a rigid cube motion");
  }
  return reading->state;
}

std::vector<std::string> TheoremCheck::failures() const {
  std::vector<std::string> out;
  if (corner_sign != edge_sign) {
    out.push_back(
        fmt::format("parity: the corner permutation is {} but the edge permutation is "
                    "{} (they must agree)",
                    corner_sign > 0 ? "even" : "odd", edge_sign > 0 ? "even" : "odd"));
  }
  if (twist_sum != 0) {
    out.push_back(fmt::format("twist: the corner twists sum to {} mod 3 (must be 0)", twist_sum));
  }
  if (flip_sum != 0) out.push_back("flip: the edge flips sum to 1 mod 2 (must be 0)");
  return out;
}

TheoremCheck check_theorem(const CubieState& c) {
  TheoremCheck t;
  t.corner_sign = perm_sign(c.r);
  t.edge_sign = perm_sign(c.s);
  int tw = 0, fl = 0;
  for (auto x : c.v) tw += x;
  for (auto x : c.w) fl += x;
  t.twist_sum = tw % 3;
  t.flip_sum = fl % 2;
  return t;
}

Result<FaceletReading> read_facelets(std::string_view text) {
  // Step 1. 54 non-blank characters.
  std::string f;
  for (char ch : text) {
    if (!std::isspace(static_cast<unsigned char>(ch))) f += ch;
  }
  if (f.size() != STICKERS) {
    return make_error(fmt::format("a facelet string has 54 stickers (URFDLB order, 9 per face), "
                                  "got {}",
                                  f.size()),
                      std::string(text));
  }
  FaceletReading out;
  // Step 2. Centres define the colours; each colour must appear nine times.
  std::map<char, int> face_of_colour;
  for (int face = 0; face < 6; ++face) {
    char centre = f[face * 9 + 4];
    if (face_of_colour.count(centre)) {
      out.problems.push_back(
          fmt::format("centres: faces {} and {} have the same centre colour '{}'",
                      FACE_NAMES[face_of_colour[centre]], FACE_NAMES[face], centre));
    } else {
      face_of_colour[centre] = face;
    }
  }
  if (!out.problems.empty()) return out;
  std::map<char, int> counts;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (!face_of_colour.count(f[i])) {
      out.problems.push_back(
          fmt::format("colour: sticker {}{} has colour '{}', which is no "
                      "centre's colour",
                      FACE_NAMES[i / 9], i % 9 + 1, f[i]));
    }
    ++counts[f[i]];
  }
  for (auto [colour, face] : face_of_colour) {
    if (counts[colour] != 9) {
      out.problems.push_back(
          fmt::format("colour count: colour '{}' (face {}) appears {} times "
                      "(expected 9)",
                      colour, FACE_NAMES[face], counts[colour]));
    }
  }
  if (!out.problems.empty()) return out;
  std::vector<int> face(STICKERS);
  for (int i = 0; i < STICKERS; ++i) face[i] = face_of_colour[f[i]];
  // Step 3. Identify every cubie and its orientation.
  std::array<int, 8> corner_at;  // cubie found at each position
  std::array<int, 12> edge_at;
  std::array<int, 8> twist_at;
  std::array<int, 12> flip_at;
  for (int p = 0; p < 8; ++p) {
    corner_at[p] = -1;
    int k = 0;
    while (k < 3 && face[CORNER_FACELET[p][k]] != 0 && face[CORNER_FACELET[p][k]] != 3) ++k;
    int c0 = face[CORNER_FACELET[p][0]], c1 = face[CORNER_FACELET[p][1]],
        c2 = face[CORNER_FACELET[p][2]];
    std::string colours = {FACE_NAMES[c0], FACE_NAMES[c1], FACE_NAMES[c2]};
    if (k == 3) {
      out.problems.push_back(
          fmt::format("impossible corner at {}: colours {} have no U or D "
                      "sticker",
                      CORNER_NAMES[p], colours));
      continue;
    }
    int a = face[CORNER_FACELET[p][k]], b = face[CORNER_FACELET[p][(k + 1) % 3]],
        c = face[CORNER_FACELET[p][(k + 2) % 3]];
    for (int j = 0; j < 8; ++j) {
      int ja = face_of(CORNER_FACELET[j][0]), jb = face_of(CORNER_FACELET[j][1]),
          jc = face_of(CORNER_FACELET[j][2]);
      if (a == ja && b == jb && c == jc) {
        corner_at[p] = j;
        twist_at[p] = k;
      } else if (a == ja && b == jc && c == jb) {
        out.problems.push_back(
            fmt::format("impossible corner at {}: colours {} are the {} cubie "
                        "in mirror image (stickers swapped)",
                        CORNER_NAMES[p], colours, CORNER_NAMES[j]));
        corner_at[p] = -2;
      }
    }
    if (corner_at[p] == -1) {
      out.problems.push_back(fmt::format("impossible corner at {}: no cubie has colours {}",
                                         CORNER_NAMES[p], colours));
    }
  }
  for (int p = 0; p < 12; ++p) {
    edge_at[p] = -1;
    int a = face[EDGE_FACELET[p][0]], b = face[EDGE_FACELET[p][1]];
    for (int j = 0; j < 12; ++j) {
      int ja = face_of(EDGE_FACELET[j][0]), jb = face_of(EDGE_FACELET[j][1]);
      if (a == ja && b == jb) edge_at[p] = j, flip_at[p] = 0;
      if (a == jb && b == ja) edge_at[p] = j, flip_at[p] = 1;
    }
    if (edge_at[p] == -1) {
      out.problems.push_back(fmt::format("impossible edge at {}: no cubie has colours {}{}",
                                         EDGE_NAMES[p], FACE_NAMES[a], FACE_NAMES[b]));
    }
  }
  // Step 4. Every cubie exactly once.
  for (int j = 0; j < 8; ++j) {
    int n = static_cast<int>(std::count(corner_at.begin(), corner_at.end(), j));
    if (n > 1)
      out.problems.push_back(
          fmt::format("duplicate cubie: corner {} appears {} times", CORNER_NAMES[j], n));
    if (n == 0)
      out.problems.push_back(
          fmt::format("missing cubie: corner {} does not appear", CORNER_NAMES[j]));
  }
  for (int j = 0; j < 12; ++j) {
    int n = static_cast<int>(std::count(edge_at.begin(), edge_at.end(), j));
    if (n > 1)
      out.problems.push_back(
          fmt::format("duplicate cubie: edge {} appears {} times", EDGE_NAMES[j], n));
    if (n == 0)
      out.problems.push_back(fmt::format("missing cubie: edge {} does not appear", EDGE_NAMES[j]));
  }
  if (!out.problems.empty()) return out;
  for (int p = 0; p < 8; ++p) {
    out.state.r[corner_at[p]] = static_cast<std::uint8_t>(p);
    out.state.v[corner_at[p]] = static_cast<std::uint8_t>(twist_at[p]);
  }
  for (int p = 0; p < 12; ++p) {
    out.state.s[edge_at[p]] = static_cast<std::uint8_t>(p);
    out.state.w[edge_at[p]] = static_cast<std::uint8_t>(flip_at[p]);
  }
  out.valid = true;
  return out;
}

CubieState random_state(Rng& rng) {
  CubieState c;
  rng.shuffle(c.r.begin(), c.r.end());
  rng.shuffle(c.s.begin(), c.s.end());
  // Uniform over the parity-matched pairs: fix a mismatch by a transposition of two edges
  // (a bijection between the odd/even halves, so the result stays uniform).
  if (perm_sign(c.r) != perm_sign(c.s)) std::swap(c.s[0], c.s[1]);
  int tw = 0, fl = 0;
  // Plain remainders of raw draws (bias below 3 / 2^64), as seeded cubes have always been drawn.
  for (int i = 0; i < 7; ++i) tw += c.v[i] = static_cast<std::uint8_t>(rng.next() % 3);
  for (int i = 0; i < 11; ++i) fl += c.w[i] = static_cast<std::uint8_t>(rng.next() % 2);
  c.v[7] = static_cast<std::uint8_t>((3 - tw % 3) % 3);
  c.w[11] = static_cast<std::uint8_t>(fl % 2);
  return c;
}

}  // namespace permuzzle::cube
