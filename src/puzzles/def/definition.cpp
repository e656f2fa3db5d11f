#include "permuzzle/puzzles/def/definition.hpp"

#include <cassert>

namespace permuzzle::def {

State Definition::identity() const {
  State s;
  s.sets.resize(sets.size());
  for (std::size_t k = 0; k < sets.size(); ++k) {
    const auto n = static_cast<std::size_t>(sets[k].pieces);
    s.sets[k].perm.resize(n);
    s.sets[k].ori.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) s.sets[k].perm[i] = static_cast<std::uint8_t>(i);
  }
  return s;
}

Result<std::size_t> Definition::find_move(std::string_view name) const {
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (moves[i].name == name) return i;
  }
  for (const auto& [alias, target] : aliases) {
    if (alias != name) continue;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      if (moves[i].name == target) return i;
    }
    return make_error("move alias '" + alias + "' names '" + target +
                      "', which is not a search move (a rotation?)");
  }
  std::string known;
  for (std::size_t i = 0; i < moves.size() && i < 40; ++i) {
    known += (known.empty() ? "" : " ") + moves[i].name;
  }
  if (moves.size() > 40) known += " ...";
  return make_error("unknown move '" + std::string(name) + "': expected one of " + known);
}

State apply(const Definition& d, const State& s, const State& move_effect) {
  assert(s.sets.size() == d.sets.size() && move_effect.sets.size() == d.sets.size());
  State out;
  out.sets.resize(s.sets.size());
  for (std::size_t k = 0; k < s.sets.size(); ++k) {
    const SetState& a = s.sets[k];
    const SetState& m = move_effect.sets[k];
    SetState& r = out.sets[k];
    const std::size_t n = a.perm.size();
    const int o = d.sets[k].orientations;
    r.perm.resize(n);
    r.ori.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t from = m.perm[i];
      r.perm[i] = a.perm[from];
      const std::uint8_t ao = a.ori[from];
      r.ori[i] = ao == ORIENTATION_IGNORED ? ORIENTATION_IGNORED
                                           : static_cast<std::uint8_t>((ao + m.ori[i]) % o);
    }
  }
  return out;
}

}  // namespace permuzzle::def
