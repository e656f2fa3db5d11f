#include "permuzzle/puzzles/def/symmetry_classes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <set>

namespace permuzzle::def {

// Named, not anonymous: the unity build puts this file beside symmetry.cpp.
namespace symmetry_classes_detail {

constexpr std::uint32_t NONE = std::numeric_limits<std::uint32_t>::max();
// O's size: at least this many values when a choice is left (its classes are few anyway)...
constexpr std::uint64_t OUTER_MIN = 4096;
// ... about positions / OUTER_SHARE (its tables cost about what as many BFS steps cost)...
constexpr std::uint64_t OUTER_SHARE = 256;
// ... and never more than this.
constexpr std::uint64_t OUTER_MAX = std::uint64_t{1} << 22;
// Entries of one digit-wise addition table (an orientation coordinate's offsets).
constexpr std::uint64_t ADD_TABLE_MAX = std::uint64_t{1} << 23;

Error refusal(std::string message) {
  return make_error(std::move(message), {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
}

// One map restricted to one piece group: where its slots, labels and orientations go.
struct GroupMap {
  std::uint32_t to_group = 0;
  std::vector<std::uint8_t> slot_to;   // group slot j -> slot of to_group
  std::vector<std::uint8_t> label_to;  // label -> label of to_group
  std::uint8_t e = 1;                  // the orientation unit
  std::vector<std::uint8_t> t;         // per slot j: t_j
  std::vector<std::uint8_t> c;         // per label: c(label) (see the header)
};
using Action = std::vector<GroupMap>;  // per group

void conjugate(const CompiledPuzzle& p, const Action& a, const Position& in, Position& out) {
  for (std::size_t g = 0; g < in.size(); ++g) {
    const GroupMap& m = a[g];
    const PieceGroup& from = p.groups()[g];
    const int o = from.orientations;
    GroupState& dst = out[m.to_group];
    for (std::size_t j = 0; j < in[g].labels.size(); ++j) {
      const std::uint8_t label = in[g].labels[j];
      const std::uint8_t to = m.slot_to[j];
      dst.labels[to] = m.label_to[label];
      dst.ori[to] = from.label_ignored[label]
                        ? 0
                        : static_cast<std::uint8_t>((m.e * in[g].ori[j] + m.t[j] + m.c[label]) % o);
    }
  }
}

// The parts a component reads: (group, kind) pairs.
using Signature = std::set<std::pair<std::size_t, int>>;
Signature signature(const Component& c) {
  Signature s;
  if (c.kind == Component::Kind::Joint) {
    for (const Component& part : c.parts) s.insert({part.group, static_cast<int>(part.kind)});
  } else {
    s.insert({c.group, static_cast<int>(c.kind)});
  }
  return s;
}

// The stored digits of an orientation coordinate (compiled.cpp's ori_rank: slot 0 most
// significant, the last slot left out when the sum is fixed).
int stored_digits(const PieceGroup& g) {
  return g.size() - (g.ori_sum_fixed ? 1 : 0);
}
std::uint64_t encode_digits(const PieceGroup& g, const std::vector<int>& digits) {
  std::uint64_t r = 0;
  for (int j = 0; j < stored_digits(g); ++j) {
    r = r * static_cast<std::uint64_t>(g.orientations) +
        static_cast<std::uint64_t>(digits[static_cast<std::size_t>(j)]);
  }
  return r;
}
std::vector<int> decode_digits(const PieceGroup& g, std::uint64_t r) {
  std::vector<int> digits(static_cast<std::size_t>(g.size()), 0);
  for (int j = stored_digits(g) - 1; j >= 0; --j) {
    digits[static_cast<std::size_t>(j)] =
        static_cast<int>(r % static_cast<std::uint64_t>(g.orientations));
    r /= static_cast<std::uint64_t>(g.orientations);
  }
  return digits;
}

}  // namespace symmetry_classes_detail

using namespace symmetry_classes_detail;

// The tables (see the header). Components are named by their index in the puzzle.
struct DefSymmetryData {
  const CompiledPuzzle* p = nullptr;
  int moves = 0;
  std::uint64_t actions = 0;
  // O.
  std::vector<std::size_t> outer;           // components
  std::vector<std::uint64_t> outer_weight;  // mixed radix, the first most significant
  std::uint64_t outer_size = 1;
  std::vector<std::uint32_t> class_of;    // per O value
  std::vector<std::uint16_t> action_of;   // per O value: an action taking it to rep
  std::vector<std::uint64_t> rep;         // per class: its O value
  std::vector<std::uint32_t> stab_begin;  // per class + 1: its stabiliser's actions (no identity)
  std::vector<std::uint16_t> stab;
  // R.
  struct Rest {
    std::size_t component = 0;
    std::uint64_t size = 1, weight = 1;    // weight in r
    const std::uint32_t* moves = nullptr;  // the component's move table
    std::vector<std::uint32_t> image;      // [action]: the R component it goes to
    std::vector<std::uint32_t> conj;       // [action * size + value]: the image's value
    // Offsets (an orientation depending on a permutation in O): [action * |O| + o], added by
    // `add` ([value * size + offset]) into the image component's value; empty: none.
    std::vector<std::uint32_t> offset;
  };
  std::vector<Rest> rest;
  std::vector<std::vector<std::uint32_t>> add;  // per R component (as an image): its addition table
  std::uint64_t rest_size = 1;
  std::uint64_t bytes = 0;

  // The R values conjugated by an action; `from` is the O value of the position before it.
  // Writes the image's component values to `out` (indexed by R component) and returns r.
  std::uint64_t conj_rest(std::uint64_t action, const std::uint32_t* values, std::uint64_t from,
                          std::uint32_t* out) const {
    std::uint64_t r = 0;
    for (std::size_t i = 0; i < rest.size(); ++i) {
      const Rest& x = rest[i];
      const std::uint32_t to = x.image[action];
      std::uint32_t v = x.conj[action * x.size + values[i]];
      if (!x.offset.empty()) {
        const std::uint32_t off = x.offset[action * outer_size + from];
        v = add[to][static_cast<std::uint64_t>(v) * rest[to].size + off];
      }
      out[to] = v;
      r += v * rest[to].weight;
    }
    return r;
  }
  // The canonical r of class k from R values already conjugated to rep(k) (`values`, r):
  // the smallest over the stabiliser. `scratch` has room for the R components.
  std::uint64_t canonical_rest(std::uint64_t k, const std::uint32_t* values, std::uint64_t r,
                               std::uint32_t* scratch) const {
    for (std::uint32_t s = stab_begin[k]; s < stab_begin[k + 1]; ++s) {
      r = std::min(r, conj_rest(stab[s], values, rep[k], scratch));
    }
    return r;
  }
  void decode_rest(std::uint64_t r, std::uint32_t* values) const {
    for (std::size_t i = rest.size(); i-- > 0;) {
      values[i] = static_cast<std::uint32_t>(r % rest[i].size);
      r /= rest[i].size;
    }
  }
  void decode_outer(std::uint64_t o, std::uint32_t* values) const {
    for (std::size_t i = 0; i < outer.size(); ++i) {
      values[i] =
          static_cast<std::uint32_t>((o / outer_weight[i]) % p->components()[outer[i]].size);
    }
  }
};

namespace symmetry_classes_detail {

class Builder {
 public:
  Builder(const CompiledPuzzle& p, const SymmetryGroup& g, const RunContext& run,
          std::uint64_t memory)
      : p_(p), g_(g), run_(run), memory_(memory) {}

  Result<std::shared_ptr<DefSymmetryData>> build() {
    d_ = std::make_shared<DefSymmetryData>();
    d_->p = &p_;
    d_->moves = p_.move_count();
    if (auto ok = DefSymmetryClasses::supports(p_); !ok) return ok.error();
    if (g_.order < 2) return refusal("the puzzle has no symmetry but the identity");
    if (auto ok = make_actions(); !ok) return ok.error();
    if (actions_.size() < 2) return refusal("the puzzle has no symmetry but the identity");
    if (actions_.size() > std::numeric_limits<std::uint16_t>::max()) {
      return refusal("more symmetries than the tables number");
    }
    d_->actions = actions_.size();
    if (auto ok = split(); !ok) return ok.error();
    if (auto ok = outer_classes(); !ok) return ok.error();
    if (auto ok = rest_tables(); !ok) return ok.error();
    return d_;
  }

 private:
  // Step 1. One action per conjugation function: maps that differ by a map commuting with every
  // move act alike on positions, and their GroupMaps agree on everything conjugate() reads
  // (t_j + c(label) together; symmetry.hpp's order counts the same cosets, checked).
  Status make_actions() {
    const std::size_t np = g_.point_list.size();
    if (g_.elements.empty()) return refusal("the symmetry group's elements were not kept");
    index_points();
    std::set<std::vector<std::uint8_t>> seen;
    std::uint64_t tried = 0;
    for (const auto& phi : g_.elements) {
      // Polled by maps tried, not by actions kept: most maps repeat an action (the tips file:
      // 157,464 maps, 24 actions), and a stop waited 0.2-0.4 s for the loop's end.
      if ((tried++ & 255) == 0 && run_.should_stop()) return run_.stop_error();
      auto a = action_of(phi);
      if (!a) return a.error();
      if (!seen.insert(key_of(*a)).second) continue;
      std::vector<std::uint32_t> inv(np);
      for (std::size_t q = 0; q < np; ++q) inv[phi[q]] = static_cast<std::uint32_t>(q);
      auto b = action_of(inv);
      if (!b) return b.error();
      actions_.push_back(std::move(*a));
      inverses_.push_back(std::move(*b));
    }
    if (actions_.size() != g_.order) {
      return refusal(
          fmt::format("{} conjugations found for {} symmetries", actions_.size(), g_.order));
    }
    return Ok{};
  }

  // What conjugate() reads of an action.
  std::vector<std::uint8_t> key_of(const Action& a) const {
    std::vector<std::uint8_t> key;
    for (std::size_t gi = 0; gi < a.size(); ++gi) {
      const GroupMap& m = a[gi];
      const int o = p_.groups()[gi].orientations;
      key.push_back(static_cast<std::uint8_t>(m.to_group));
      key.push_back(static_cast<std::uint8_t>(m.to_group >> 8));
      key.push_back(m.e);
      key.insert(key.end(), m.slot_to.begin(), m.slot_to.end());
      key.insert(key.end(), m.label_to.begin(), m.label_to.end());
      for (std::size_t j = 0; j < m.t.size(); ++j) {
        for (std::size_t l = 0; l < m.c.size(); ++l) {
          key.push_back(static_cast<std::uint8_t>((m.t[j] + m.c[l]) % o));
        }
      }
    }
    return key;
  }

  void index_points() {
    const Definition& def = p_.definition();
    const auto& pts = g_.point_list;
    point_index_.assign(def.sets.size(), {});
    where_.assign(def.sets.size(), {});
    for (std::size_t k = 0; k < def.sets.size(); ++k) {
      point_index_[k].assign(
          static_cast<std::size_t>(def.sets[k].pieces * def.sets[k].orientations), NONE);
      where_[k].assign(static_cast<std::size_t>(def.sets[k].pieces), {NONE, NONE});
    }
    for (std::size_t q = 0; q < pts.size(); ++q) {
      const auto o = static_cast<std::uint32_t>(def.sets[pts[q].set].orientations);
      point_index_[pts[q].set][pts[q].slot * o + pts[q].ori] = static_cast<std::uint32_t>(q);
    }
    for (std::size_t gi = 0; gi < p_.groups().size(); ++gi) {
      const PieceGroup& g = p_.groups()[gi];
      for (int j = 0; j < g.size(); ++j) {
        where_[g.set][g.slots[static_cast<std::size_t>(j)]] = {static_cast<std::uint32_t>(gi),
                                                               static_cast<std::uint32_t>(j)};
      }
    }
  }

  // The map on groups (point_index_ and where_ filled).
  Result<Action> action_of(const std::vector<std::uint32_t>& phi) const {
    const auto& pts = g_.point_list;
    const auto& point_index = point_index_;
    const auto& where = where_;
    Action a(p_.groups().size());
    for (std::size_t gi = 0; gi < p_.groups().size(); ++gi) {
      const PieceGroup& g = p_.groups()[gi];
      GroupMap& m = a[gi];
      const int o = g.orientations;
      const auto n = static_cast<std::size_t>(g.size());
      m.slot_to.assign(n, 0);
      m.t.assign(n, 0);
      m.to_group = NONE;
      int e = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const std::uint32_t slot = g.slots[j];
        const std::uint32_t base = point_index[g.set][slot * static_cast<std::uint32_t>(o)];
        std::uint32_t to_group = static_cast<std::uint32_t>(gi),
                      to_slot = static_cast<std::uint32_t>(j);
        int t = 0, unit = 1;
        if (base != NONE) {
          const SymmetryPoint& img = pts[phi[base]];
          t = static_cast<int>(img.ori);
          if (o > 1) {
            const SymmetryPoint& one = pts[phi[base + 1]];
            unit = ((static_cast<int>(one.ori) - t) % o + o) % o;
          }
          std::tie(to_group, to_slot) = where[img.set][img.slot];
          if (to_group == NONE)
            return refusal("a symmetry moves a piece to a slot outside the groups");
        }
        if (m.to_group == NONE) m.to_group = to_group;
        if (m.to_group != to_group) {
          return refusal("a symmetry splits a piece orbit over several orbits");
        }
        if (e == 0) e = unit;
        if (e != unit) return refusal("a symmetry turns the orientations of one orbit two ways");
        m.slot_to[j] = static_cast<std::uint8_t>(to_slot);
        m.t[j] = static_cast<std::uint8_t>(t);
      }
      m.e = static_cast<std::uint8_t>(e == 0 ? 1 : e);
      const PieceGroup& h = p_.groups()[m.to_group];
      if (h.size() != g.size() || h.orientations != o ||
          h.multiplicity.size() != g.multiplicity.size()) {
        return refusal("a symmetry maps a piece orbit onto an unlike one");
      }
      // Labels and c(label), the same for every home of a label.
      const std::size_t labels = g.multiplicity.size();
      m.label_to.assign(labels, 0xFF);
      m.c.assign(labels, 0xFF);
      for (std::size_t j = 0; j < n; ++j) {
        const std::uint8_t label = g.solved_labels[j];
        const std::uint8_t to = h.solved_labels[m.slot_to[j]];
        const int c = ((h.solved_ori[m.slot_to[j]] - m.e * g.solved_ori[j] - m.t[j]) % o + o) % o;
        if (m.label_to[label] == 0xFF) {
          m.label_to[label] = to;
          m.c[label] = static_cast<std::uint8_t>(g.label_ignored[label] ? 0 : c);
        } else if (m.label_to[label] != to || (!g.label_ignored[label] && m.c[label] != c)) {
          return refusal("identical pieces are turned differently by a symmetry");
        }
        if (g.label_ignored[label] != h.label_ignored[to]) {
          return refusal("a symmetry maps an ignored orientation onto a kept one");
        }
      }
    }
    return a;
  }

  // Whether the conjugate of an orientation part of group g depends on the group's labels:
  // c(label) differs between labels for some action.
  bool ori_depends_on_labels(std::size_t g) const {
    for (const Action& a : actions_) {
      const auto& c = a[g].c;
      for (std::size_t l = 0; l < c.size(); ++l) {
        if (!p_.groups()[g].label_ignored[l] && c[l] != c[0]) return true;
      }
    }
    return false;
  }

  // Step 2. Components into O and R.
  Status split() {
    const auto& comps = p_.components();
    const std::size_t nc = comps.size();
    std::vector<Signature> sig(nc);
    std::map<Signature, std::size_t> by_sig;
    for (std::size_t k = 0; k < nc; ++k) {
      sig[k] = signature(comps[k]);
      by_sig[sig[k]] = k;
    }
    // The component each action sends each component to.
    image_.assign(actions_.size(), std::vector<std::size_t>(nc));
    for (std::size_t a = 0; a < actions_.size(); ++a) {
      for (std::size_t k = 0; k < nc; ++k) {
        Signature s;
        for (const auto& [g, kind] : sig[k]) s.insert({actions_[a][g].to_group, kind});
        auto it = by_sig.find(s);
        if (it == by_sig.end() || comps[it->second].size != comps[k].size) {
          return refusal("a symmetry maps a coordinate onto pieces no coordinate holds");
        }
        image_[a][k] = it->second;
      }
    }
    // Dependencies: an orientation part whose conjugate depends on the labels needs the group's
    // permutation in the same component, or (a lone orientation component) in O.
    std::vector<std::size_t> needs(nc, NONE);
    std::map<std::size_t, std::size_t> perm_of;  // group -> its Perm component
    for (std::size_t k = 0; k < nc; ++k) {
      if (comps[k].kind == Component::Kind::Perm) perm_of[comps[k].group] = k;
    }
    for (std::size_t k = 0; k < nc; ++k) {
      for (const auto& [g, kind] : sig[k]) {
        if (kind != static_cast<int>(Component::Kind::Ori) || !ori_depends_on_labels(g)) continue;
        if (sig[k].count({g, static_cast<int>(Component::Kind::Perm)})) continue;
        if (comps[k].kind != Component::Kind::Ori || !perm_of.count(g)) {
          return refusal("an orientation coordinate depends on a permutation held elsewhere");
        }
        needs[k] = perm_of[g];
      }
    }
    // Orbits of components under the actions: O takes whole orbits.
    std::vector<std::size_t> orbit(nc);
    std::iota(orbit.begin(), orbit.end(), 0);
    auto root = [&](std::size_t k) {
      while (orbit[k] != k) k = orbit[k] = orbit[orbit[k]];
      return k;
    };
    for (std::size_t a = 0; a < actions_.size(); ++a) {
      for (std::size_t k = 0; k < nc; ++k) orbit[root(image_[a][k])] = root(k);
    }
    std::map<std::size_t, std::vector<std::size_t>> orbits;
    for (std::size_t k = 0; k < nc; ++k) orbits[root(k)].push_back(k);
    auto orbit_size = [&](const std::vector<std::size_t>& o) {
      std::uint64_t s = 1;
      for (std::size_t k : o) {
        if (s > OUTER_MAX) return OUTER_MAX + 1;
        s *= comps[k].size;
      }
      return s;
    };
    std::vector<bool> in_outer(nc, false);
    std::uint64_t size = 1;
    auto take = [&](std::size_t r) {
      for (std::size_t k : orbits[r]) in_outer[k] = true;
      size *= orbit_size(orbits[r]);
    };
    // Required: the permutations lone orientation components depend on.
    for (std::size_t k = 0; k < nc; ++k) {
      if (needs[k] == NONE || in_outer[needs[k]]) continue;
      if (size > OUTER_MAX / std::max<std::uint64_t>(1, orbit_size(orbits[root(needs[k])]))) {
        return refusal("the permutations the orientations depend on are too many to tabulate");
      }
      take(root(needs[k]));
    }
    // Then the largest orbits that keep O within its share, smallest first if none fits.
    const std::uint64_t limit = std::min(OUTER_MAX, std::max(OUTER_MIN, p_.states() / OUTER_SHARE));
    std::vector<std::size_t> roots;
    for (const auto& [r, members] : orbits) {
      if (!in_outer[members[0]]) roots.push_back(r);
    }
    std::sort(roots.begin(), roots.end(), [&](std::size_t x, std::size_t y) {
      return orbit_size(orbits[x]) > orbit_size(orbits[y]);
    });
    for (std::size_t r : roots) {
      const std::uint64_t s = orbit_size(orbits[r]);
      if (s > 1 && size <= limit / s) take(r);
    }
    if (size == 1) {
      for (auto it = roots.rbegin(); it != roots.rend(); ++it) {
        const std::uint64_t s = orbit_size(orbits[*it]);
        if (s > 1 && s <= OUTER_MAX) {
          take(*it);
          break;
        }
      }
    }
    if (size == 1) return refusal("no coordinate is small enough to tabulate its classes");
    // A dependent orientation in O needs its permutation there too (it is: required above).
    for (std::size_t k = 0; k < nc; ++k) {
      if (in_outer[k] && needs[k] != NONE && !in_outer[needs[k]]) {
        return refusal("an orientation coordinate depends on a permutation held elsewhere");
      }
    }
    // Layout: O and R in the components' order.
    std::uint64_t rs = 1;
    for (std::size_t k = 0; k < nc; ++k) {
      if (in_outer[k]) {
        d_->outer.push_back(k);
      } else {
        rest_index_[k] = d_->rest.size();
        DefSymmetryData::Rest x;
        x.component = k;
        x.size = comps[k].size;
        x.moves = comps[k].table.data();
        d_->rest.push_back(std::move(x));
        needs_.push_back(needs[k]);
        rs *= comps[k].size;
      }
    }
    d_->outer_size = size;
    d_->outer_weight.assign(d_->outer.size(), 1);
    for (std::size_t i = d_->outer.size(); i-- > 1;) {
      d_->outer_weight[i - 1] = d_->outer_weight[i] * comps[d_->outer[i]].size;
    }
    for (std::size_t i = d_->rest.size(); i-- > 0;) {
      d_->rest[i].weight =
          i + 1 < d_->rest.size() ? d_->rest[i + 1].weight * d_->rest[i + 1].size : 1;
    }
    d_->rest_size = rs;
    return Ok{};
  }

  Position outer_position(std::uint64_t o) const {
    Position pos = p_.solved();
    for (std::size_t i = 0; i < d_->outer.size(); ++i) {
      const std::size_t k = d_->outer[i];
      p_.set_coordinate(k, (o / d_->outer_weight[i]) % p_.components()[k].size, pos);
    }
    return pos;
  }
  std::uint64_t outer_value(const Position& pos) const {
    std::uint64_t o = 0;
    for (std::size_t i = 0; i < d_->outer.size(); ++i) {
      o += p_.coordinate(d_->outer[i], pos) * d_->outer_weight[i];
    }
    return o;
  }

  // Step 3. The classes of O.
  Status outer_classes() {
    const std::uint64_t n = d_->outer_size;
    const std::uint64_t bytes = n * (sizeof(std::uint32_t) + sizeof(std::uint16_t));
    if (bytes > memory_) return refusal("the classes' table passes the memory budget");
    d_->class_of.assign(n, NONE);
    d_->action_of.assign(n, 0);
    d_->stab_begin.push_back(0);
    Position conj = p_.solved();
    for (std::uint64_t o = 0; o < n; ++o) {
      if (d_->class_of[o] != NONE) continue;
      if ((d_->rep.size() & 1023) == 0 && run_.should_stop()) return run_.stop_error();
      const auto k = static_cast<std::uint32_t>(d_->rep.size());
      d_->rep.push_back(o);
      const Position pos = outer_position(o);
      for (std::size_t a = 0; a < actions_.size(); ++a) {
        // The inverse takes o to x; the action takes x back to o.
        conjugate(p_, inverses_[a], pos, conj);
        const std::uint64_t x = outer_value(conj);
        if (d_->class_of[x] == NONE) {
          d_->class_of[x] = k;
          d_->action_of[x] = static_cast<std::uint16_t>(a);
        } else if (x == o && a != 0) {
          d_->stab.push_back(static_cast<std::uint16_t>(a));
        }
      }
      d_->stab_begin.push_back(static_cast<std::uint32_t>(d_->stab.size()));
    }
    d_->bytes += bytes + d_->rep.size() * 12 + d_->stab.size() * 2;
    return Ok{};
  }

  // Step 4. R's conjugation, offset and addition tables.
  Status rest_tables() {
    const std::size_t nr = d_->rest.size();
    const std::size_t na = actions_.size();
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < nr; ++i) {
      bytes += na * d_->rest[i].size * 4 + na * 4;
      if (needs_[i] != NONE) {
        const std::uint64_t s = d_->rest[i].size;
        bytes += na * d_->outer_size * 4 + s * s * 4;
        if (s * s > ADD_TABLE_MAX) return refusal("an orientation coordinate is too large to add");
      }
    }
    if (d_->bytes + bytes > memory_) return refusal("the symmetry tables pass the memory budget");
    d_->bytes += bytes;
    d_->add.resize(nr);
    const Position solved = p_.solved();
    Position pos = solved, conj = solved;
    for (std::size_t i = 0; i < nr; ++i) {
      DefSymmetryData::Rest& x = d_->rest[i];
      const std::size_t k = x.component;
      x.image.assign(na, 0);
      x.conj.assign(na * x.size, 0);
      for (std::size_t a = 0; a < na; ++a) {
        x.image[a] = static_cast<std::uint32_t>(rest_index_.at(image_[a][k]));
        for (std::uint64_t v = 0; v < x.size; ++v) {
          if ((v & 4095) == 0 && run_.should_stop()) return run_.stop_error();
          pos = solved;
          p_.set_coordinate(k, v, pos);
          conjugate(p_, actions_[a], pos, conj);
          x.conj[a * x.size + v] = static_cast<std::uint32_t>(p_.coordinate(image_[a][k], conj));
        }
      }
      if (needs_[i] == NONE) continue;
      // Offsets: per action and O value, c(label at j) - c(solved label at j), placed at the
      // image slot of j, as a value of the image component (an orientation coordinate).
      const Component& comp = p_.components()[k];
      const std::size_t g = comp.group;
      x.offset.assign(na * d_->outer_size, 0);
      for (std::uint64_t o = 0; o < d_->outer_size; ++o) {
        if ((o & 1023) == 0 && run_.should_stop()) return run_.stop_error();
        const Position op = outer_position(o);
        for (std::size_t a = 0; a < na; ++a) {
          const GroupMap& m = actions_[a][g];
          const PieceGroup& h = p_.groups()[m.to_group];
          std::vector<int> digits(static_cast<std::size_t>(h.size()), 0);
          const int ori = h.orientations;
          for (std::size_t j = 0; j < op[g].labels.size(); ++j) {
            const std::uint8_t now = op[g].labels[j], home = p_.groups()[g].solved_labels[j];
            digits[m.slot_to[j]] = ((m.c[now] - m.c[home]) % ori + ori) % ori;
          }
          x.offset[a * d_->outer_size + o] = static_cast<std::uint32_t>(encode_digits(h, digits));
        }
      }
    }
    // Addition tables of the image components that receive offsets.
    for (std::size_t i = 0; i < nr; ++i) {
      if (needs_[i] == NONE) continue;
      for (std::size_t a = 0; a < na; ++a) {
        const std::size_t to = d_->rest[i].image[a];
        if (!d_->add[to].empty()) continue;
        const std::uint64_t s = d_->rest[to].size;
        const PieceGroup& h = p_.groups()[p_.components()[d_->rest[to].component].group];
        d_->add[to].assign(s * s, 0);
        // Every value's digits once, then the sums digit by digit.
        const auto n = static_cast<std::size_t>(h.size());
        std::vector<std::uint8_t> digits(s * n);
        for (std::uint64_t u = 0; u < s; ++u) {
          const std::vector<int> du = decode_digits(h, u);
          for (std::size_t j = 0; j < n; ++j) digits[u * n + j] = static_cast<std::uint8_t>(du[j]);
        }
        const auto o = static_cast<std::uint64_t>(h.orientations);
        const auto stored = static_cast<std::size_t>(stored_digits(h));
        for (std::uint64_t u = 0; u < s; ++u) {
          if ((u & 63) == 0 && run_.should_stop()) return run_.stop_error();
          for (std::uint64_t v = 0; v < s; ++v) {
            std::uint64_t r = 0;
            for (std::size_t j = 0; j < stored; ++j) {
              r = r * o + (digits[u * n + j] + digits[v * n + j]) % o;
            }
            d_->add[to][u * s + v] = static_cast<std::uint32_t>(r);
          }
        }
      }
    }
    return Ok{};
  }

  const CompiledPuzzle& p_;
  const SymmetryGroup& g_;
  const RunContext& run_;
  std::uint64_t memory_;
  std::shared_ptr<DefSymmetryData> d_;
  std::vector<Action> actions_, inverses_;
  std::vector<std::vector<std::uint32_t>> point_index_;  // [set][slot * o + r] -> point
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> where_;  // [set][slot]
  std::vector<std::vector<std::size_t>> image_;    // [action][component] -> component
  std::map<std::size_t, std::size_t> rest_index_;  // component -> R index
  std::vector<std::size_t> needs_;                 // per R component: its permutation, or NONE
};

}  // namespace symmetry_classes_detail

Status DefSymmetryClasses::supports(const CompiledPuzzle& puzzle) {
  if (!puzzle.ranked()) return refusal("the positions have no ranking");
  if (!puzzle.undirected()) return refusal("a move's inverse is not among the moves");
  for (const Component& c : puzzle.components()) {
    if (!c.tabulated()) return refusal("a coordinate is too large for a move table");
  }
  return Ok{};
}

Result<DefSymmetryClasses> DefSymmetryClasses::create(const CompiledPuzzle& puzzle,
                                                      const SymmetryGroup& group,
                                                      const RunContext& run,
                                                      std::uint64_t memory_bytes) {
  Builder b(puzzle, group, run, memory_bytes);
  auto data = b.build();
  if (!data) return data.error();
  DefSymmetryClasses c;
  c.data_ = std::move(*data);
  return c;
}

std::uint64_t DefSymmetryClasses::states() const {
  return data_->rep.size() * data_->rest_size;
}
std::uint64_t DefSymmetryClasses::group_order() const {
  return data_->actions;
}
std::uint64_t DefSymmetryClasses::table_bytes() const {
  return data_->bytes;
}

std::uint64_t DefSymmetryClasses::index(const Position& position) const {
  const DefSymmetryData& d = *data_;
  const CompiledPuzzle& p = *d.p;
  std::uint64_t o = 0;
  for (std::size_t i = 0; i < d.outer.size(); ++i) {
    o += p.coordinate(d.outer[i], position) * d.outer_weight[i];
  }
  std::vector<std::uint32_t> values(d.rest.size()), image(d.rest.size()), scratch(d.rest.size());
  for (std::size_t i = 0; i < d.rest.size(); ++i) {
    values[i] = static_cast<std::uint32_t>(p.coordinate(d.rest[i].component, position));
  }
  const std::uint64_t k = d.class_of[o];
  std::uint64_t r = d.conj_rest(d.action_of[o], values.data(), o, image.data());
  r = d.canonical_rest(k, image.data(), r, scratch.data());
  return k * d.rest_size + r;
}

Position DefSymmetryClasses::position(std::uint64_t index) const {
  const DefSymmetryData& d = *data_;
  const CompiledPuzzle& p = *d.p;
  Position pos = p.solved();
  const std::uint64_t k = index / d.rest_size, r = index % d.rest_size;
  for (std::size_t i = 0; i < d.outer.size(); ++i) {
    const std::size_t c = d.outer[i];
    p.set_coordinate(c, (d.rep[k] / d.outer_weight[i]) % p.components()[c].size, pos);
  }
  std::vector<std::uint32_t> values(d.rest.size());
  d.decode_rest(r, values.data());
  for (std::size_t i = 0; i < d.rest.size(); ++i) {
    p.set_coordinate(d.rest[i].component, values[i], pos);
  }
  return pos;
}

bool DefSymmetryClasses::canonical(std::uint64_t index) const {
  const DefSymmetryData& d = *data_;
  const std::uint64_t k = index / d.rest_size, r = index % d.rest_size;
  if (d.stab_begin[k] == d.stab_begin[k + 1]) return true;
  std::vector<std::uint32_t> values(d.rest.size()), scratch(d.rest.size());
  d.decode_rest(r, values.data());
  return d.canonical_rest(k, values.data(), r, scratch.data()) == r;
}

std::uint64_t DefSymmetryClasses::orbit_size(std::uint64_t index) const {
  const DefSymmetryData& d = *data_;
  const std::uint64_t k = index / d.rest_size, r = index % d.rest_size;
  if (d.stab_begin[k] == d.stab_begin[k + 1]) return d.actions;
  std::vector<std::uint32_t> values(d.rest.size()), scratch(d.rest.size());
  d.decode_rest(r, values.data());
  std::uint64_t fixed = 1;  // the identity
  for (std::uint32_t s = d.stab_begin[k]; s < d.stab_begin[k + 1]; ++s) {
    if (d.conj_rest(d.stab[s], values.data(), d.rep[k], scratch.data()) == r) ++fixed;
  }
  return d.actions / fixed;
}

DefSymmetryClasses::Expander::Expander(const DefSymmetryData* data)
    : d_(data),
      moves_(data->moves),
      outer_(data->outer.size()),
      rest_(data->rest.size()),
      after_(data->rest.size()),
      image_(data->rest.size()) {}

void DefSymmetryClasses::Expander::load(std::uint64_t index) {
  const DefSymmetryData& d = *d_;
  const std::uint64_t k = index / d.rest_size, r = index % d.rest_size;
  if (have_ == ~std::uint64_t{0} || k != k_) d.decode_outer(d.rep[k], outer_.data());
  k_ = k;
  have_ = index;
  d.decode_rest(r, rest_.data());
  canonical_ = d.stab_begin[k] == d.stab_begin[k + 1] ||
               d.canonical_rest(k, rest_.data(), r, image_.data()) == r;
}

std::uint64_t DefSymmetryClasses::Expander::neighbour(int move) {
  const DefSymmetryData& d = *d_;
  const CompiledPuzzle& p = *d.p;
  const auto m = static_cast<std::uint64_t>(move);
  const auto mc = static_cast<std::uint64_t>(moves_);
  std::uint64_t o = 0;
  for (std::size_t i = 0; i < outer_.size(); ++i) {
    o += std::uint64_t{p.components()[d.outer[i]].table[outer_[i] * mc + m]} * d.outer_weight[i];
  }
  for (std::size_t i = 0; i < rest_.size(); ++i) after_[i] = d.rest[i].moves[rest_[i] * mc + m];
  const std::uint64_t k = d.class_of[o];
  std::uint64_t r = d.conj_rest(d.action_of[o], after_.data(), o, image_.data());
  if (d.stab_begin[k] != d.stab_begin[k + 1]) {
    r = d.canonical_rest(k, image_.data(), r, after_.data());
  }
  return k * d.rest_size + r;
}

}  // namespace permuzzle::def
