#include "permuzzle/puzzles/def/builder.hpp"

#include <fmt/format.h>

namespace permuzzle::def {

std::vector<std::uint8_t> perm_from_cycles(int pieces,
                                           const std::vector<std::vector<int>>& cycles) {
  std::vector<std::uint8_t> perm(static_cast<std::size_t>(pieces));
  for (int i = 0; i < pieces; ++i) perm[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
  for (const auto& c : cycles) {
    // The piece from slot c[k] arrives in slot c[k+1]: state form perm[c[k+1]] = c[k].
    for (std::size_t k = 0; k < c.size(); ++k) {
      perm[static_cast<std::size_t>(c[(k + 1) % c.size()])] = static_cast<std::uint8_t>(c[k]);
    }
  }
  return perm;
}

DefinitionBuilder::DefinitionBuilder(std::string name) {
  d_.name = std::move(name);
}

DefinitionBuilder& DefinitionBuilder::set(std::string name, int pieces, int orientations) {
  d_.sets.push_back({std::move(name), pieces, orientations});
  SetState s;
  for (int i = 0; i < pieces; ++i) s.perm.push_back(static_cast<std::uint8_t>(i));
  s.ori.assign(static_cast<std::size_t>(pieces), 0);
  d_.solved.sets.push_back(std::move(s));
  d_.illegal.emplace_back();
  return *this;
}

DefinitionBuilder& DefinitionBuilder::solved(std::size_t set, std::vector<std::uint8_t> perm,
                                             std::vector<std::uint8_t> ori) {
  if (ori.empty()) ori.assign(perm.size(), 0);
  d_.solved.sets[set] = {std::move(perm), std::move(ori)};
  return *this;
}

DefinitionBuilder& DefinitionBuilder::move(std::string name, std::vector<SetState> effect) {
  bases_.emplace_back(std::move(name), std::move(effect));
  return *this;
}

State compose(const Definition& d, const State& a, const State& b) {
  State r = a;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const int o = d.sets[k].orientations;
    for (std::size_t i = 0; i < a.sets[k].perm.size(); ++i) {
      const std::uint8_t from = b.sets[k].perm[i];
      r.sets[k].perm[i] = a.sets[k].perm[from];
      r.sets[k].ori[i] = static_cast<std::uint8_t>((a.sets[k].ori[from] + b.sets[k].ori[i]) % o);
    }
  }
  return r;
}

Result<Definition> DefinitionBuilder::build() const {
  Definition d = d_;
  State identity;
  for (const PieceSet& s : d.sets) {
    SetState part;
    for (int i = 0; i < s.pieces; ++i) part.perm.push_back(static_cast<std::uint8_t>(i));
    part.ori.assign(static_cast<std::size_t>(s.pieces), 0);
    identity.sets.push_back(std::move(part));
  }
  for (const auto& [name, parts] : bases_) {
    State effect = identity;
    for (std::size_t k = 0; k < parts.size() && k < d.sets.size(); ++k) {
      if (!parts[k].perm.empty()) {
        if (parts[k].perm.size() != effect.sets[k].perm.size()) {
          return make_error(fmt::format("move {}: set {} needs {} pieces", name, d.sets[k].name,
                                        d.sets[k].pieces));
        }
        effect.sets[k].perm = parts[k].perm;
      }
      if (!parts[k].ori.empty()) effect.sets[k].ori = parts[k].ori;
    }
    // Step 1. The order and the powers.
    std::vector<State> powers{effect};
    while (!(powers.back() == identity)) {
      powers.push_back(compose(d, powers.back(), effect));
      if (powers.size() > 100000) return make_error("move " + name + ": order too large");
    }
    const int order = static_cast<int>(powers.size());
    if (order == 1) return make_error("move " + name + " is the identity");
    const std::size_t base = d.base_moves.size();
    d.base_moves.push_back({name, order, effect});
    // Step 2. Names: the short way clockwise X, X2, ...; the inverse side X', X2', ...
    for (int p = 1; p < order; ++p) {
      Move m;
      m.base = base;
      m.power = p;
      m.qtm_cost = std::min(p, order - p);
      if (p <= order / 2) {
        m.name = p == 1 ? name : name + std::to_string(p);
      } else {
        const int q = order - p;
        m.name = q == 1 ? name + "'" : name + std::to_string(q) + "'";
      }
      m.effect = powers[static_cast<std::size_t>(p - 1)];
      d.moves.push_back(std::move(m));
    }
  }
  return d;
}

}  // namespace permuzzle::def

namespace permuzzle::def::samples {

namespace {

using Bytes = std::vector<std::uint8_t>;

// Kociemba's "replaced by" tables are state form: cp[i] is the cubie that arrives in slot i.
const Bytes CP[6] = {{3, 0, 1, 2, 4, 5, 6, 7}, {4, 1, 2, 0, 7, 5, 6, 3}, {1, 5, 2, 3, 0, 4, 6, 7},
                     {0, 1, 2, 3, 5, 6, 7, 4}, {0, 2, 6, 3, 4, 1, 5, 7}, {0, 1, 3, 7, 4, 5, 2, 6}};
const Bytes CO[6] = {{0, 0, 0, 0, 0, 0, 0, 0}, {2, 0, 0, 1, 1, 0, 0, 2}, {1, 2, 0, 0, 2, 1, 0, 0},
                     {0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 2, 0, 0, 2, 1, 0}, {0, 0, 1, 2, 0, 0, 2, 1}};
const Bytes EP[6] = {
    {3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11}, {8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0},
    {0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11}, {0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11},
    {0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11}, {0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7}};
const Bytes EO[6] = {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                     {0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                     {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1}};
const char* FACES[6] = {"U", "R", "F", "D", "L", "B"};

}  // namespace

Definition cube2(bool fixed_corner) {
  DefinitionBuilder b(fixed_corner ? "2x2x2 (U R F)" : "2x2x2");
  b.set("CORNERS", 8, 3);
  const int faces[6] = {0, 1, 2, 3, 4, 5};
  for (int f : faces) {
    if (fixed_corner && f >= 3) continue;
    b.move(FACES[f], {{CP[f], CO[f]}});
  }
  return *b.build();
}

Definition cube3() {
  DefinitionBuilder b("3x3x3");
  b.set("CORNERS", 8, 3).set("EDGES", 12, 2);
  for (int f = 0; f < 6; ++f) b.move(FACES[f], {{CP[f], CO[f]}, {EP[f], EO[f]}});
  return *b.build();
}

Definition loopover(int rows, int cols) {
  DefinitionBuilder b(fmt::format("Loopover {}x{}", rows, cols));
  const int n = rows * cols;
  b.set("TILES", n, 1);
  for (int r = 0; r < rows; ++r) {
    std::vector<int> cycle;
    for (int c = 0; c < cols; ++c) cycle.push_back(r * cols + c);
    b.move(fmt::format("R{}", r + 1), {{perm_from_cycles(n, {cycle}), {}}});
  }
  for (int c = 0; c < cols; ++c) {
    std::vector<int> cycle;
    for (int r = 0; r < rows; ++r) cycle.push_back(r * cols + c);
    b.move(fmt::format("C{}", c + 1), {{perm_from_cycles(n, {cycle}), {}}});
  }
  return *b.build();
}

}  // namespace permuzzle::def::samples
