#include "permuzzle/puzzles/def/group_facts.hpp"

#include "permuzzle/puzzles/def/compiled.hpp"

#include <fmt/format.h>

#include <cassert>
#include <map>
#include <tuple>

namespace permuzzle::def {

namespace {

// Explicit transversals of the backtrack search may use at most this much memory.
constexpr std::size_t MAX_TRANSVERSAL_BYTES = std::size_t(512) << 20;

std::vector<std::size_t> set_offsets(const Definition& d) {
  std::vector<std::size_t> offsets;
  std::size_t at = 0;
  for (const PieceSet& s : d.sets) {
    offsets.push_back(at);
    at += static_cast<std::size_t>(s.pieces) * static_cast<std::size_t>(s.orientations);
  }
  return offsets;
}

// One level of the stabiliser chain with explicit coset representatives: reps[r] maps the base
// point to orbit[r] (images, degree points each).
struct Level {
  Point base = 0;
  std::vector<Point> orbit;
  std::vector<Point> reps;  // orbit.size() * degree
};

// Sims' subgroup search for the stabiliser of a colouring (see group_facts.hpp).
class ColourStabiliser {
 public:
  // `image_colour` (the colouring the element must map `colour` onto; null: `colour` itself,
  // the stabiliser) is used by transporter().
  ColourStabiliser(const std::vector<Level>& levels, const std::vector<int>& colour,
                   std::size_t degree, std::uint64_t budget,
                   const std::vector<int>* image_colour = nullptr, const RunContext* run = nullptr)
      : levels_(levels),
        colour_(colour),
        image_colour_(image_colour != nullptr ? *image_colour : colour),
        degree_(degree),
        budget_(budget),
        run_(run) {}

  // An element g of the group with image_colour[g(x)] == colour[x] for every point x, if any.
  Result<std::optional<std::vector<Point>>> transporter() {
    std::vector<Point> identity(degree_);
    for (std::size_t x = 0; x < degree_; ++x) identity[x] = static_cast<Point>(x);
    std::optional<std::vector<Point>> g;
    auto ok = search(0, identity, g);
    if (!ok) return ok.error();
    return g;
  }

  Result<std::vector<Perm>> run() {
    std::vector<Perm> found;
    const std::size_t k = levels_.size();
    std::vector<Point> identity(degree_);
    for (std::size_t x = 0; x < degree_; ++x) identity[x] = static_cast<Point>(x);
    for (std::size_t l = k; l-- > 0;) {
      const Level& lv = levels_[l];
      std::vector<char> reached = orbit_of(lv.base, found);
      std::vector<char> failed(degree_, 0);
      for (std::size_t r = 0; r < lv.orbit.size(); ++r) {
        const Point gamma = lv.orbit[r];
        if (gamma == lv.base || colour_[gamma] != colour_[lv.base] || reached[gamma] ||
            failed[gamma]) {
          continue;
        }
        std::vector<Point> p(lv.reps.begin() + static_cast<std::ptrdiff_t>(r * degree_),
                             lv.reps.begin() + static_cast<std::ptrdiff_t>((r + 1) * degree_));
        std::optional<std::vector<Point>> g;
        auto ok = search(l + 1, p, g);
        if (!ok) return ok.error();
        if (g) {
          found.push_back(*Perm::from_images(std::move(*g)));
          reached = orbit_of(lv.base, found);
        } else {
          std::vector<char> o = orbit_of(gamma, found);
          for (std::size_t x = 0; x < degree_; ++x) failed[x] |= o[x];
        }
      }
    }
    return found;
  }

 private:
  std::vector<char> orbit_of(Point start, const std::vector<Perm>& gens) const {
    std::vector<char> seen(degree_, 0);
    std::vector<Point> queue{start};
    seen[start] = 1;
    for (std::size_t q = 0; q < queue.size(); ++q) {
      for (const Perm& g : gens) {
        Point y = g.image(queue[q]);
        if (!seen[y]) {
          seen[y] = 1;
          queue.push_back(y);
        }
      }
    }
    return seen;
  }

  // Depth-first over levels j.. of the coset of p; on success g holds the element.
  Status search(std::size_t j, const std::vector<Point>& p, std::optional<std::vector<Point>>& g) {
    if (++nodes_ > budget_) {
      return make_error("the stabiliser search of the solved pattern needs more than " +
                            std::to_string(budget_) + " nodes: the count is refused",
                        {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    if (run_ != nullptr && (nodes_ & 1023) == 0 && run_->should_stop()) return run_->stop_error();
    if (j == levels_.size()) {
      for (std::size_t x = 0; x < degree_; ++x) {
        if (image_colour_[p[x]] != colour_[x]) return Ok{};
      }
      g = p;
      return Ok{};
    }
    const Level& lv = levels_[j];
    std::vector<Point> next(degree_);
    for (std::size_t r = 0; r < lv.orbit.size(); ++r) {
      // The element u_r * p maps the base point to p(orbit[r]).
      if (image_colour_[p[lv.orbit[r]]] != colour_[lv.base]) continue;
      const Point* u = lv.reps.data() + r * degree_;
      for (std::size_t x = 0; x < degree_; ++x) next[x] = p[u[x]];
      auto ok = search(j + 1, next, g);
      if (!ok || g) return ok;
    }
    return Ok{};
  }

  const std::vector<Level>& levels_;
  const std::vector<int>& colour_;
  const std::vector<int>& image_colour_;
  std::size_t degree_;
  std::uint64_t budget_;
  const RunContext* run_;
  std::uint64_t nodes_ = 0;
};

}  // namespace

std::size_t expanded_degree(const Definition& d) {
  std::size_t n = 0;
  for (const PieceSet& s : d.sets) {
    n += static_cast<std::size_t>(s.pieces) * static_cast<std::size_t>(s.orientations);
  }
  return n;
}

Perm to_perm(const Definition& d, const State& s) {
  std::vector<Point> images(expanded_degree(d));
  const auto offsets = set_offsets(d);
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const auto o = static_cast<std::size_t>(d.sets[k].orientations);
    const SetState& set = s.sets[k];
    for (std::size_t i = 0; i < set.perm.size(); ++i) {
      const std::size_t piece = set.perm[i];
      for (std::size_t a = 0; a < o; ++a) {
        images[offsets[k] + piece * o + a] =
            static_cast<Point>(offsets[k] + i * o + (a + set.ori[i]) % o);
      }
    }
  }
  auto p = Perm::from_images(std::move(images));
  assert(p.ok());
  return std::move(*p);
}

State from_perm(const Definition& d, const Perm& p) {
  State s = d.identity();
  const auto offsets = set_offsets(d);
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const auto o = static_cast<std::size_t>(d.sets[k].orientations);
    for (std::size_t j = 0; j < s.sets[k].perm.size(); ++j) {
      const std::size_t image = p.image(static_cast<Point>(offsets[k] + j * o)) - offsets[k];
      const std::size_t i = image / o;
      s.sets[k].perm[i] = static_cast<std::uint8_t>(j);
      s.sets[k].ori[i] = static_cast<std::uint8_t>(image % o);
    }
  }
  return s;
}

Result<PermGroup> build_group(const Definition& d) {
  const std::size_t degree = expanded_degree(d);
  if (degree > MAX_GROUP_DEGREE ||
      degree * sizeof(Point) * d.base_moves.size() > (std::size_t(512) << 20)) {
    return make_error("the group of this puzzle acts on " + std::to_string(degree) +
                          " points (pieces times orientations) with " +
                          std::to_string(d.base_moves.size()) +
                          " generators: too large for Schreier–Sims here (at most " +
                          std::to_string(MAX_GROUP_DEGREE) + " points, 512 MiB of generators)",
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  std::vector<Perm> gens;
  std::vector<std::string> names;
  for (const BaseMove& b : d.base_moves) {
    gens.push_back(to_perm(d, b.effect));
    names.push_back(b.name);
  }
  SchreierSimsOptions options;
  options.randomized = expanded_degree(d) > 64;
  return PermGroup::from_generators(std::move(gens), std::move(names), options);
}

std::vector<int> pattern_colouring(const Definition& d) {
  std::vector<int> colour(expanded_degree(d));
  std::map<std::tuple<std::size_t, int, int>, int> ids;
  const auto offsets = set_offsets(d);
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const int o = d.sets[k].orientations;
    const SetState& set = d.solved.sets[k];
    for (std::size_t j = 0; j < set.perm.size(); ++j) {
      for (int c = 0; c < o; ++c) {
        const int ori = set.ori[j] == ORIENTATION_IGNORED ? -1 : ((set.ori[j] - c) % o + o) % o;
        auto key = std::make_tuple(k, static_cast<int>(set.perm[j]), ori);
        auto it = ids.try_emplace(key, static_cast<int>(ids.size())).first;
        colour[offsets[k] + j * static_cast<std::size_t>(o) + static_cast<std::size_t>(c)] =
            it->second;
      }
    }
  }
  return colour;
}

namespace {

// The generators among `gens` (not the identity) that fix every point of `points`.
std::vector<Perm> fixing_generators(const std::vector<Perm>& gens,
                                    const std::vector<Point>& points) {
  std::vector<Perm> out;
  for (const Perm& s : gens) {
    bool fixes = true;
    for (Point p : points) fixes = fixes && s.image(p) == p;
    if (fixes && !s.is_identity()) out.push_back(s);
  }
  return out;
}

// True when every point of `orbit` has the same colour (the colouring is kept on it by any
// permutation of the orbit).
bool one_colour(const std::vector<Point>& orbit, const std::vector<int>& col) {
  for (Point x : orbit) {
    if (col[x] != col[orbit.front()]) return false;
  }
  return true;
}

// Points a colouring does not cover (up to `degree`) get colours of their own.
std::vector<int> extended_colouring(const std::vector<int>& colour, std::size_t degree) {
  std::vector<int> col = colour;
  int next_colour = 0;
  for (int c : col) next_colour = std::max(next_colour, c + 1);
  col.resize(degree);
  for (std::size_t x = colour.size(); x < degree; ++x) col[x] = next_colour++;
  return col;
}

// The chain of g with explicit transversals: level i is generated by the strong generators
// fixing the base points before it. Refused past `max_bytes` of transversals.
Result<std::vector<Level>> chain_levels(const PermGroup& g, std::size_t degree,
                                        std::size_t max_bytes, const RunContext* run) {
  const std::vector<Point> base = g.base();
  std::vector<Perm> strong = g.strong_generators();
  for (Perm& s : strong) s = s.extended(degree);
  std::vector<Level> levels;
  std::size_t bytes = 0;
  for (std::size_t l = 0; l < base.size(); ++l) {
    std::vector<const Perm*> gens;
    for (const Perm& s : strong) {
      bool fixes = true;
      for (std::size_t e = 0; e < l && fixes; ++e) fixes = s.image(base[e]) == base[e];
      if (fixes) gens.push_back(&s);
    }
    Level lv;
    lv.base = base[l];
    std::vector<std::int64_t> index(degree, -1);
    lv.orbit.push_back(lv.base);
    index[lv.base] = 0;
    lv.reps.resize(degree);
    for (std::size_t x = 0; x < degree; ++x) lv.reps[x] = static_cast<Point>(x);
    for (std::size_t q = 0; q < lv.orbit.size(); ++q) {
      for (const Perm* s : gens) {
        const Point y = s->image(lv.orbit[q]);
        if (index[y] >= 0) continue;
        bytes += degree * sizeof(Point);
        if (bytes > max_bytes) {
          return make_error("the stabiliser search of the solved pattern needs more than " +
                                std::to_string(max_bytes >> 20) +
                                " MiB of transversals: the count is refused",
                            {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
        }
        if (run != nullptr && (lv.orbit.size() & 255) == 0 && run->should_stop()) {
          return run->stop_error();
        }
        index[y] = static_cast<std::int64_t>(lv.orbit.size());
        lv.orbit.push_back(y);
        // rep(y) = rep(orbit[q]) * s: apply the parent's representative, then s.
        const std::size_t parent = q * degree;
        const std::size_t at = lv.reps.size();
        lv.reps.resize(at + degree);
        for (std::size_t x = 0; x < degree; ++x) lv.reps[at + x] = s->image(lv.reps[parent + x]);
      }
    }
    levels.push_back(std::move(lv));
  }
  return levels;
}

// Generators of the stabiliser of `colour` in g (Sims' search over g's own chain).
Result<std::vector<Perm>> search_stabiliser(const PermGroup& g, const std::vector<int>& colour,
                                            std::uint64_t node_budget,
                                            std::size_t max_bytes = MAX_TRANSVERSAL_BYTES,
                                            const RunContext* run = nullptr) {
  const std::size_t degree = std::max(g.degree(), colour.size());
  // Step 1. The chain with explicit transversals.
  auto levels = chain_levels(g, degree, max_bytes, run);
  if (!levels) return levels.error();
  const std::vector<int> col = extended_colouring(colour, degree);
  // Step 2. The search; the stabiliser's order from its generators.
  ColourStabiliser search(*levels, col, degree, node_budget, nullptr, run);
  return search.run();
}

// An element t of g with image[t(x)] == colour[x] for every x (both colourings cover the same
// points), or none.
Result<std::optional<std::vector<Point>>> search_transporter(
    const PermGroup& g, const std::vector<int>& colour, const std::vector<int>& image,
    std::uint64_t node_budget, std::size_t max_bytes, const RunContext* run) {
  const std::size_t degree = std::max(g.degree(), colour.size());
  auto levels = chain_levels(g, degree, max_bytes, run);
  if (!levels) return levels.error();
  const std::vector<int> col = extended_colouring(colour, degree);
  const std::vector<int> img = extended_colouring(image, degree);
  ColourStabiliser search(*levels, col, degree, node_budget, &img, run);
  return search.transporter();
}

// The group generated by `gens` with `prefix` as the first base points (the trivial group for
// no generators).
Result<PermGroup> rebased(const std::vector<Perm>& gens, std::vector<Point> prefix,
                          std::size_t degree) {
  if (gens.empty()) return PermGroup();
  SchreierSimsOptions options;
  options.randomized = degree > 64;
  options.base_prefix = std::move(prefix);
  return PermGroup::from_generators(gens, {}, options);
}

}  // namespace

Result<mpz_class> colour_stabiliser_order(const PermGroup& g, const std::vector<int>& colour,
                                          std::uint64_t node_budget, bool direct_first,
                                          const RunContext& run) {
  // The stabiliser is cut down in steps so that the backtrack search only ever branches on one
  // orbit at a time (parity links between orbits made the one-shot search explode on big cubes):
  // Step 1. Points alone in their colour class are fixed by the stabiliser: start from their
  // pointwise stabiliser G0 (the strong generators fixing them, after a rebase that puts them
  // first).
  const std::size_t degree = std::max(g.degree(), colour.size());
  // Explicit transversals within MAX_TRANSVERSAL_BYTES and the run's memory budget.
  const std::size_t max_bytes = run.memory_budget() != 0
                                    ? static_cast<std::size_t>(std::min<std::uint64_t>(
                                          MAX_TRANSVERSAL_BYTES, run.memory_budget()))
                                    : MAX_TRANSVERSAL_BYTES;
  // Step 0. Most patterns are done fastest by one search over g's own chain (no rebuilds): try
  // it with a tenth of the budget first.
  if (direct_first) {
    auto direct = search_stabiliser(g, colour, node_budget / 10, max_bytes, &run);
    if (direct) {
      auto h = rebased(*direct, {}, degree);
      if (!h) return h.error();
      return h->order();
    }
    if (run.should_stop()) return run.stop_error();
    if (direct.error().kind != ErrorKind::LimitExceeded) return direct.error();
  }
  std::vector<int> col = colour;
  int next_colour = 0;
  for (int c : col) next_colour = std::max(next_colour, c + 1);
  col.resize(degree);
  for (std::size_t x = colour.size(); x < degree; ++x) col[x] = next_colour++;
  std::map<int, std::size_t> class_size;
  for (int c : col) ++class_size[c];
  std::vector<Point> singles;
  std::vector<char> moved(degree, 0);
  for (const Perm& s : g.generators()) {
    for (Point x : s.support()) moved[x] = 1;
  }
  for (std::size_t x = 0; x < degree; ++x) {
    if (moved[x] && class_size[col[x]] == 1) singles.push_back(static_cast<Point>(x));
  }
  std::vector<Perm> current = g.generators();
  if (!singles.empty()) {
    auto r = rebased(current, singles, degree);
    if (!r) return r.error();
    current = fixing_generators(r->strong_generators(), singles);
  }
  // Step 2. One orbit of G0 at a time: the stabiliser of the colouring restricted to the orbit
  // (every other point one shared colour) in the group found so far, its points first in the
  // base. G0 keeps its orbits, so the colouring is kept iff it is kept on every orbit.
  const auto orbit_list = orbits(current, degree);
  for (const auto& orbit : orbit_list) {
    if (current.empty()) break;
    if (orbit.size() < 2) continue;
    if (one_colour(orbit, col)) continue;
    auto r = rebased(current, orbit, degree);
    if (!r) return r.error();
    std::vector<int> restricted(degree, next_colour);
    for (Point x : orbit) restricted[x] = col[x];
    if (run.should_stop()) return run.stop_error();
    auto found = search_stabiliser(*r, restricted, node_budget, max_bytes, &run);
    if (!found) return found.error();
    current = std::move(*found);
  }
  auto h = rebased(current, {}, degree);
  if (!h) return h.error();
  return h->order();
}

Result<GroupFacts> group_facts(const Definition& d, const PermGroup& g, const RunContext& run) {
  GroupFacts f;
  f.group_order = g.order();
  auto stab = colour_stabiliser_order(g, pattern_colouring(d), STABILISER_SEARCH_NODES, true, run);
  if (!stab) return stab.error();
  f.stabiliser_order = *stab;
  assert(f.group_order % f.stabiliser_order == 0);
  f.positions = f.group_order / f.stabiliser_order;
  f.stabiliser_matters = f.stabiliser_order > 1;
  f.structure = g.describe();
  return f;
}

Result<GroupFacts> group_facts(const Definition& d, const RunContext& run) {
  auto g = build_group(d);
  if (!g) return g.error();
  if (run.should_stop()) return run.stop_error();
  return group_facts(d, *g, run);
}

State random_position(const Definition& d, const PermGroup& g, Rng& rng) {
  const State element = from_perm(d, g.random_element(rng).extended(expanded_degree(d)));
  return apply(d, d.solved, element);
}

namespace {

std::uint8_t perm_or_identity(const SetState& s, std::size_t i) {
  return s.perm.empty() ? static_cast<std::uint8_t>(i) : s.perm[i];
}
std::uint8_t ori_or_zero(const SetState& s, std::size_t i) {
  return s.ori.empty() ? 0 : s.ori[i];
}

// A set's part of a state with empty parts filled in (identity, orientation 0).
SetState full_part(const Definition& d, const State& s, std::size_t k) {
  SetState part;
  const auto n = static_cast<std::size_t>(d.sets[k].pieces);
  for (std::size_t i = 0; i < n; ++i) {
    part.perm.push_back(k < s.sets.size() ? perm_or_identity(s.sets[k], i)
                                          : static_cast<std::uint8_t>(i));
    part.ori.push_back(k < s.sets.size() ? ori_or_zero(s.sets[k], i) : 0);
  }
  return part;
}

Error unsolvable(std::string reason) {
  return make_error("this position cannot be reached from the solved state: " + std::move(reason),
                    {}, Error::NO_POSITION, ErrorKind::Unsolvable);
}

// Step 1 of check_reachable: invariants every move keeps (a set's permutation parity, two sets'
// parities together, a set's orientation sum), for a reason a user recognises.
std::optional<std::string> broken_invariant(const Definition& d, const State& pos) {
  const State solved = [&] {
    State s;
    for (std::size_t k = 0; k < d.sets.size(); ++k) s.sets.push_back(full_part(d, d.solved, k));
    return s;
  }();
  const std::size_t nsets = d.sets.size();
  std::vector<char> distinct(nsets, 1), ignored(nsets, 0);
  std::vector<int> parity(nsets, 0);  // the position's parity relative to the solved pattern
  std::vector<SetState> parts;
  for (std::size_t k = 0; k < nsets; ++k) {
    const SetState& sp = solved.sets[k];
    parts.push_back(full_part(d, pos, k));
    std::vector<char> seen(sp.perm.size(), 0);
    for (std::size_t i = 0; i < sp.perm.size(); ++i) {
      if (sp.perm[i] >= sp.perm.size() || seen[sp.perm[i]]) distinct[k] = 0;
      if (sp.perm[i] < sp.perm.size()) seen[sp.perm[i]] = 1;
      if (sp.ori[i] == ORIENTATION_IGNORED) ignored[k] = 1;
    }
    if (!distinct[k]) continue;
    // The position must hold the solved pattern's pieces (else position_of refused it).
    std::vector<char> has(sp.perm.size(), 0);
    for (std::uint8_t v : parts[k].perm) {
      if (v >= has.size() || has[v]) distinct[k] = 0;
      if (v < has.size()) has[v] = 1;
    }
    if (distinct[k]) parity[k] = arrangement_parity(parts[k].perm) ^ arrangement_parity(sp.perm);
  }
  // The moves' parities and orientation sums per set.
  std::vector<std::vector<int>> move_parity(d.base_moves.size(), std::vector<int>(nsets, 0));
  std::vector<char> sum_kept(nsets, 1);
  for (std::size_t m = 0; m < d.base_moves.size(); ++m) {
    for (std::size_t k = 0; k < nsets; ++k) {
      const SetState e = full_part(d, d.base_moves[m].effect, k);
      move_parity[m][k] = arrangement_parity(e.perm);
      int sum = 0;
      for (std::uint8_t o : e.ori) sum = (sum + o) % d.sets[k].orientations;
      if (sum != 0) sum_kept[k] = 0;
    }
  }
  auto fixed_parity = [&](std::size_t k) {
    for (const auto& mp : move_parity) {
      if (mp[k] != 0) return false;
    }
    return true;
  };
  for (std::size_t k = 0; k < nsets; ++k) {
    if (distinct[k] && parity[k] != 0 && fixed_parity(k)) {
      return fmt::format("odd permutation of {} (every move permutes {} evenly)", d.sets[k].name,
                         d.sets[k].name);
    }
  }
  for (std::size_t k = 0; k < nsets; ++k) {
    const int o = d.sets[k].orientations;
    if (o < 2 || ignored[k] || !sum_kept[k]) continue;
    int want = 0, have = 0;
    bool known = true;
    for (std::size_t i = 0; i < parts[k].ori.size(); ++i) {
      if (parts[k].ori[i] == ORIENTATION_IGNORED || parts[k].ori[i] >= o) known = false;
      have = (have + parts[k].ori[i]) % o;
      want = (want + solved.sets[k].ori[i]) % o;
    }
    if (known && have != want) {
      return fmt::format("{} orientation (twist) sum is {} mod {}, and every move keeps it at {}",
                         d.sets[k].name, have, o, want);
    }
  }
  for (std::size_t a = 0; a < nsets; ++a) {
    for (std::size_t b = a + 1; b < nsets; ++b) {
      if (!distinct[a] || !distinct[b] || parity[a] == parity[b]) continue;
      bool together = true;
      for (const auto& mp : move_parity) together = together && mp[a] == mp[b];
      if (together) {
        return fmt::format(
            "the permutations of {} and {} have different parities (one {} parity, the other "
            "{}), and every move changes both together (e.g. two pieces swapped)",
            d.sets[a].name, d.sets[b].name, parity[a] ? "odd" : "even", parity[b] ? "odd" : "even");
      }
    }
  }
  return std::nullopt;
}

// The colouring of the expanded points by a position, with the colour numbers of
// pattern_colouring (-1 where a colour is not one of the solved pattern's). A piece whose
// orientation the pattern ignores is read as position_of reads it.
std::vector<int> position_colouring(const Definition& d, const State& pos) {
  std::vector<int> colour(expanded_degree(d), -1);
  std::map<std::tuple<std::size_t, int, int>, int> ids;
  const auto offsets = set_offsets(d);
  // Step 1. The solved pattern's colour numbers (the same keys, in the same order).
  std::vector<std::vector<char>> value_ignored(d.sets.size()), value_tracked(d.sets.size());
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const int o = d.sets[k].orientations;
    const SetState set = full_part(d, d.solved, k);
    value_ignored[k].assign(256, 0);
    value_tracked[k].assign(256, 0);
    for (std::size_t j = 0; j < set.perm.size(); ++j) {
      (set.ori[j] == ORIENTATION_IGNORED ? value_ignored : value_tracked)[k][set.perm[j]] = 1;
      for (int c = 0; c < o; ++c) {
        const int ori = set.ori[j] == ORIENTATION_IGNORED ? -1 : ((set.ori[j] - c) % o + o) % o;
        ids.try_emplace(std::make_tuple(k, static_cast<int>(set.perm[j]), ori),
                        static_cast<int>(ids.size()));
      }
    }
  }
  // Step 2. The position's colours.
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const int o = d.sets[k].orientations;
    const SetState set = full_part(d, pos, k);
    for (std::size_t j = 0; j < set.perm.size(); ++j) {
      const std::uint8_t v = set.perm[j];
      const bool ignore =
          value_ignored[k][v] && (!value_tracked[k][v] || set.ori[j] == ORIENTATION_IGNORED);
      for (int c = 0; c < o; ++c) {
        const int ori = ignore                              ? -1
                        : set.ori[j] == ORIENTATION_IGNORED ? -2
                                                            : ((set.ori[j] - c) % o + o) % o;
        const auto it = ids.find(std::make_tuple(k, static_cast<int>(v), ori));
        colour[offsets[k] + j * static_cast<std::size_t>(o) + static_cast<std::size_t>(c)] =
            it == ids.end() ? -1 : it->second;
      }
    }
  }
  return colour;
}

// Step 2 of check_reachable: is there t in g with image[t(x)] == colour[x] for every x? The
// orbit-by-orbit steps of colour_stabiliser_order: the transporters on one orbit of the group
// left are a coset of the stabiliser of the colouring there, t0 * Stab; the next orbit is
// solved in Stab, with the image colouring seen through t0. nullopt: undecided (over budget).
Result<std::optional<bool>> transporter_exists(const PermGroup& g, const std::vector<int>& colour,
                                               const std::vector<int>& image_colour,
                                               const ReachabilityOptions& options,
                                               const RunContext& run) {
  const std::size_t degree = std::max(g.degree(), colour.size());
  const std::vector<int> col = extended_colouring(colour, degree);
  const std::vector<int> img = extended_colouring(image_colour, degree);
  auto over_budget = [](const Error& e) { return e.kind == ErrorKind::LimitExceeded; };
  // Step 2a. One search over g's own chain (a sift when every colour is on one point).
  {
    auto direct = search_transporter(g, col, img, options.node_budget / 4,
                                     options.max_transversal_bytes, &run);
    if (direct) return std::optional<bool>(direct->has_value());
    if (run.should_stop()) return run.stop_error();
    if (!over_budget(direct.error())) return direct.error();
  }
  // Step 2b. Points alone in their colour class go to the one point of that colour: fix them
  // first (a rebase puts them first in the base), then keep their pointwise stabiliser.
  int next_colour = 0;
  for (int c : col) next_colour = std::max(next_colour, c + 1);
  std::map<int, std::size_t> class_size;
  for (int c : col) ++class_size[c];
  std::vector<char> moved(degree, 0);
  for (const Perm& s : g.generators()) {
    for (Point x : s.support()) moved[x] = 1;
  }
  std::vector<Point> singles;
  for (std::size_t x = 0; x < degree; ++x) {
    if (moved[x] && class_size[col[x]] == 1) singles.push_back(static_cast<Point>(x));
  }
  std::vector<Point> t(degree);  // the transporter so far (images)
  for (std::size_t x = 0; x < degree; ++x) t[x] = static_cast<Point>(x);
  // Colourings restricted to `points` (every other point one shared colour), the image seen
  // through t. For an orbit of the group searched, the image side is restricted to the same
  // points (the group keeps them); for the singles, to the points of their colours.
  auto restricted_search = [&](const PermGroup& h, const std::vector<Point>& points,
                               bool by_colour) -> Result<std::optional<std::vector<Point>>> {
    std::vector<int> rc(degree, next_colour), ri(degree, next_colour);
    std::vector<char> in(degree, 0), colour_in(static_cast<std::size_t>(next_colour) + 1, 0);
    for (Point x : points) {
      in[x] = 1;
      rc[x] = col[x];
      colour_in[static_cast<std::size_t>(col[x])] = 1;
    }
    for (std::size_t y = 0; y < degree; ++y) {
      const int c = img[t[y]];
      const bool keep = by_colour ? c >= 0 && colour_in[static_cast<std::size_t>(c)] : in[y] != 0;
      if (keep) ri[y] = c;
    }
    return search_transporter(h, rc, ri, options.node_budget, options.max_transversal_bytes, &run);
  };
  // A failed step: over its budget the answer is undecided; anything else is the error.
  auto undecided_or = [&](const Error& e) -> Result<std::optional<bool>> {
    if (run.should_stop()) return run.stop_error();
    if (over_budget(e)) return std::optional<bool>();
    return e;
  };
  auto compose = [&](const std::vector<Point>& h0) {
    std::vector<Point> next(degree);
    for (std::size_t x = 0; x < degree; ++x) next[x] = t[h0[x]];  // h0, then t
    t = std::move(next);
  };
  std::vector<Perm> current = g.generators();
  if (!singles.empty()) {
    auto r = rebased(current, singles, degree);
    if (!r) return r.error();
    auto h0 = restricted_search(*r, singles, true);
    if (!h0) return undecided_or(h0.error());
    if (!h0->has_value()) return std::optional<bool>(false);
    compose(**h0);
    current = fixing_generators(r->strong_generators(), singles);
  }
  // Step 2c. One orbit of what is left at a time.
  for (const auto& orbit : orbits(current, degree)) {
    if (current.empty()) break;
    if (orbit.size() < 2) continue;
    if (one_colour(orbit, col)) continue;
    auto r = rebased(current, orbit, degree);
    if (!r) return r.error();
    auto h0 = restricted_search(*r, orbit, false);
    if (!h0) return undecided_or(h0.error());
    if (!h0->has_value()) return std::optional<bool>(false);
    compose(**h0);
    std::vector<int> restricted(degree, next_colour);
    for (Point x : orbit) restricted[x] = col[x];
    auto stab =
        search_stabiliser(*r, restricted, options.node_budget, options.max_transversal_bytes, &run);
    if (!stab) return undecided_or(stab.error());
    current = std::move(*stab);
  }
  // Step 2d. What is left keeps every orbit of one colour and every fixed point: t must already
  // map them right (processed orbits are right by construction).
  for (std::size_t x = 0; x < degree; ++x) {
    if (img[t[x]] != col[x]) return std::optional<bool>(false);
  }
  return std::optional<bool>(true);
}

}  // namespace

Result<Reachability> reachability(const Definition& d, const PermGroup& g, const State& position,
                                  const ReachabilityOptions& options, const RunContext& run) {
  Reachability out;
  // Step 1. Invariants (cheap, and the reason a user recognises).
  if (auto reason = broken_invariant(d, position)) {
    out.verdict = Reachability::Verdict::Unreachable;
    out.reason = std::move(*reason);
    return out;
  }
  // Step 2. The same colours as the solved pattern, then membership: some element of the group
  // maps the solved pattern's colouring onto the position's.
  const std::vector<int> colour = pattern_colouring(d);
  const std::vector<int> image = position_colouring(d, position);
  std::vector<int> a = colour, b = image;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b) {
    out.verdict = Reachability::Verdict::Unreachable;
    out.reason = "its pieces (or their orientations) are not those of the solved pattern";
    return out;
  }
  auto found = transporter_exists(g, colour, image, options, run);
  if (!found) return found.error();
  if (!found->has_value()) {
    out.verdict = Reachability::Verdict::Unknown;
    return out;
  }
  if (**found) return out;
  out.verdict = Reachability::Verdict::Unreachable;
  out.reason = "it is not in the group generated by the moves";
  return out;
}

Status check_reachable(const Definition& d, const PermGroup& g, const State& position,
                       const RunContext& run) {
  auto r = reachability(d, g, position, {}, run);
  if (!r) return r.error();
  if (r->verdict == Reachability::Verdict::Unreachable) return unsolvable(r->reason);
  return Ok{};
}

}  // namespace permuzzle::def
