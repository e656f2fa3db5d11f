#include "permuzzle/puzzles/cube/facelets.hpp"

#include <fmt/format.h>

#include <cctype>
#include <map>

namespace permuzzle::cube {

namespace {

struct Vec {
  int x = 0, y = 0, z = 0;
  bool operator==(const Vec&) const = default;
  bool operator<(const Vec& o) const { return std::tie(x, y, z) < std::tie(o.x, o.y, o.z); }
};
int dot(Vec a, Vec b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
Vec cross(Vec a, Vec b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
// Quarter turn clockwise as seen from the tip of the unit axis a: v' = a (a.v) - a x v.
Vec turn(Vec v, Vec a) {
  Vec c = cross(a, v);
  int d = dot(a, v);
  return {a.x * d - c.x, a.y * d - c.y, a.z * d - c.z};
}

struct Sticker {
  Vec pos, normal;
};

// Geometry of sticker i (see the header for the layout of the net).
Sticker sticker(int i) {
  int face = i / 9, r = (i % 9) / 3, c = i % 3;
  switch (face) {
    case 0:
      return {{c - 1, 1, r - 1}, {0, 1, 0}};  // U
    case 1:
      return {{1, 1 - r, 1 - c}, {1, 0, 0}};  // R
    case 2:
      return {{c - 1, 1 - r, 1}, {0, 0, 1}};  // F
    case 3:
      return {{c - 1, -1, 1 - r}, {0, -1, 0}};  // D
    case 4:
      return {{-1, 1 - r, c - 1}, {-1, 0, 0}};  // L
    default:
      return {{1 - c, 1 - r, -1}, {0, 0, -1}};  // B
  }
}

enum class Layers { Face, Slice, Wide, All };

struct MoveDef {
  Vec axis;
  Layers layers;
};

bool lookup(const std::string& name, MoveDef& def) {
  static const std::map<std::string, MoveDef> defs = {
      {"U", {{0, 1, 0}, Layers::Face}},   {"D", {{0, -1, 0}, Layers::Face}},
      {"R", {{1, 0, 0}, Layers::Face}},   {"L", {{-1, 0, 0}, Layers::Face}},
      {"F", {{0, 0, 1}, Layers::Face}},   {"B", {{0, 0, -1}, Layers::Face}},
      {"M", {{-1, 0, 0}, Layers::Slice}}, {"E", {{0, -1, 0}, Layers::Slice}},
      {"S", {{0, 0, 1}, Layers::Slice}},  {"x", {{1, 0, 0}, Layers::All}},
      {"y", {{0, 1, 0}, Layers::All}},    {"z", {{0, 0, 1}, Layers::All}},
      {"u", {{0, 1, 0}, Layers::Wide}},   {"d", {{0, -1, 0}, Layers::Wide}},
      {"r", {{1, 0, 0}, Layers::Wide}},   {"l", {{-1, 0, 0}, Layers::Wide}},
      {"f", {{0, 0, 1}, Layers::Wide}},   {"b", {{0, 0, -1}, Layers::Wide}},
  };
  auto it = defs.find(name);
  if (it == defs.end()) return false;
  def = it->second;
  return true;
}

}  // namespace

Perm move_perm(const std::string& name) {
  MoveDef def;
  if (!lookup(name, def)) return Perm(STICKERS);
  std::map<std::pair<Vec, Vec>, int> index;
  for (int i = 0; i < STICKERS; ++i) index[{sticker(i).pos, sticker(i).normal}] = i;
  std::vector<Point> images(STICKERS);
  for (int i = 0; i < STICKERS; ++i) {
    Sticker s = sticker(i);
    int layer = dot(s.pos, def.axis);
    bool moves = def.layers == Layers::All || (def.layers == Layers::Face && layer == 1) ||
                 (def.layers == Layers::Slice && layer == 0) ||
                 (def.layers == Layers::Wide && layer >= 0);
    images[i] = moves ? index.at({turn(s.pos, def.axis), turn(s.normal, def.axis)}) : i;
  }
  return *Perm::from_images(std::move(images));
}

Result<std::vector<CubeMove>> parse_moves(std::string_view text) {
  const std::string input(text);
  std::vector<CubeMove> moves;
  std::size_t i = 0;
  while (i < text.size()) {
    char ch = text[i];
    if (std::isspace(static_cast<unsigned char>(ch)) || ch == ',' || ch == '.') {
      ++i;
      continue;
    }
    std::size_t at = i;
    CubeMove m;
    m.name = std::string(1, ch);
    MoveDef def;
    if (!lookup(m.name, def)) {
      return make_error(
          "unknown move; expected one of U D L R F B, M E S, x y z, u d l r f b "
          "(or Uw ...)",
          input, at);
    }
    ++i;
    if (i < text.size() && text[i] == 'w') {
      if (!std::isupper(static_cast<unsigned char>(ch)) ||
          std::string("MES").find(ch) != std::string::npos) {
        return make_error("'w' (wide) only follows a face letter U D L R F B", input, i);
      }
      m.name = std::string(1, static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
      ++i;
    }
    if (i < text.size() && (text[i] == '2' || text[i] == '3' || text[i] == '1')) {
      m.turns = text[i] - '0';
      ++i;
    }
    if (i < text.size() && (text[i] == '\'' || text[i] == '-')) {
      m.turns = (4 - m.turns) % 4;
      ++i;
    }
    if (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      return make_error("unexpected digit; a move takes 2, 3 or ' as suffix", input, i);
    }
    if (m.turns == 0) continue;
    moves.push_back(m);
  }
  return moves;
}

std::string format_moves(const std::vector<CubeMove>& moves) {
  std::string out;
  for (const auto& m : moves) {
    if (!out.empty()) out += ' ';
    out += m.name;
    if (m.turns == 2) out += '2';
    if (m.turns == 3) out += '\'';
  }
  return out;
}

Perm moves_perm(const std::vector<CubeMove>& moves) {
  // move_perm builds a sticker index each time: each distinct move (a solution has at most 18)
  // is made once per call, which makes replaying a solution cheap next to finding it.
  std::map<std::pair<std::string, int>, Perm> made;
  Perm p(STICKERS);
  for (const auto& m : moves) {
    auto it = made.find({m.name, m.turns});
    if (it == made.end())
      it = made.emplace(std::pair{m.name, m.turns}, move_perm(m.name).pow(m.turns)).first;
    p *= it->second;
  }
  return p;
}

const std::array<int, 48>& gap_to_54() {
  static const std::array<int, 48> table = [] {
    std::array<int, 48> t{};
    const int face_54[6] = {0, 4, 2, 1, 5, 3};  // GAP faces U L F R B D in the URFDLB order
    for (int g = 0; g < 48; ++g) {
      int k = g % 8;
      t[g] = face_54[g / 8] * 9 + (k < 4 ? k : k + 1);
    }
    return t;
  }();
  return table;
}

Result<Perm> to_gap(const Perm& p54) {
  const auto& t = gap_to_54();
  std::array<int, STICKERS> inv;
  inv.fill(-1);
  for (int g = 0; g < 48; ++g) inv[t[g]] = g;
  std::vector<Point> images(48);
  for (int g = 0; g < 48; ++g) {
    int img = inv[p54.image(static_cast<Point>(t[g]))];
    if (img < 0) return make_error("the permutation moves a centre sticker");
    images[g] = static_cast<Point>(img);
  }
  return Perm::from_images(std::move(images));
}

std::vector<Perm> gap_generators() {
  std::vector<Perm> out;
  for (const char* name : {"U", "L", "F", "R", "B", "D"}) out.push_back(*to_gap(move_perm(name)));
  return out;
}

Perm from_gap(const Perm& p48) {
  const auto& t = gap_to_54();
  std::vector<Point> images(STICKERS);
  for (int i = 0; i < STICKERS; ++i) images[i] = i;
  for (int g = 0; g < 48; ++g) images[t[g]] = static_cast<Point>(t[p48.image(g)]);
  return *Perm::from_images(std::move(images));
}

std::string facelets_of(const Perm& p54) {
  std::string out(STICKERS, '?');
  for (int i = 0; i < STICKERS; ++i) out[p54.image(i)] = FACE_NAMES[i / 9];
  return out;
}

}  // namespace permuzzle::cube
