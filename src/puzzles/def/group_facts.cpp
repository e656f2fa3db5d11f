#include "permuzzle/puzzles/def/group_facts.hpp"

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
  ColourStabiliser(const std::vector<Level>& levels, const std::vector<int>& colour,
                   std::size_t degree, std::uint64_t budget)
      : levels_(levels), colour_(colour), degree_(degree), budget_(budget) {}

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
    if (j == levels_.size()) {
      for (std::size_t x = 0; x < degree_; ++x) {
        if (colour_[p[x]] != colour_[x]) return Ok{};
      }
      g = p;
      return Ok{};
    }
    const Level& lv = levels_[j];
    std::vector<Point> next(degree_);
    for (std::size_t r = 0; r < lv.orbit.size(); ++r) {
      // The element u_r * p maps the base point to p(orbit[r]).
      if (colour_[p[lv.orbit[r]]] != colour_[lv.base]) continue;
      const Point* u = lv.reps.data() + r * degree_;
      for (std::size_t x = 0; x < degree_; ++x) next[x] = p[u[x]];
      auto ok = search(j + 1, next, g);
      if (!ok || g) return ok;
    }
    return Ok{};
  }

  const std::vector<Level>& levels_;
  const std::vector<int>& colour_;
  std::size_t degree_;
  std::uint64_t budget_;
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

Result<mpz_class> colour_stabiliser_order(const PermGroup& g, const std::vector<int>& colour,
                                          std::uint64_t node_budget) {
  const std::size_t degree = std::max(g.degree(), colour.size());
  // Step 1. The chain: level i is generated by the strong generators fixing the base points
  // before it; its transversal is built explicitly.
  const std::vector<Point> base = g.base();
  std::vector<Perm> strong = g.strong_generators();
  for (Perm& s : strong) s = s.extended(degree);
  std::vector<int> col = colour;
  // Points the colouring does not cover get colours of their own.
  int next_colour = 0;
  for (int c : col) next_colour = std::max(next_colour, c + 1);
  col.resize(degree);
  for (std::size_t x = colour.size(); x < degree; ++x) col[x] = next_colour++;
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
        if (bytes > MAX_TRANSVERSAL_BYTES) {
          return make_error("the stabiliser search of the solved pattern needs more than " +
                                std::to_string(MAX_TRANSVERSAL_BYTES >> 20) +
                                " MiB of transversals: the count is refused",
                            {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
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
  // Step 2. The search; the stabiliser's order from its generators.
  ColourStabiliser search(levels, col, degree, node_budget);
  auto found = search.run();
  if (!found) return found.error();
  if (found->empty()) return mpz_class(1);
  auto h = PermGroup::from_generators(std::move(*found));
  if (!h) return h.error();
  return h->order();
}

Result<GroupFacts> group_facts(const Definition& d, const PermGroup& g) {
  GroupFacts f;
  f.group_order = g.order();
  auto stab = colour_stabiliser_order(g, pattern_colouring(d));
  if (!stab) return stab.error();
  f.stabiliser_order = *stab;
  assert(f.group_order % f.stabiliser_order == 0);
  f.positions = f.group_order / f.stabiliser_order;
  f.stabiliser_matters = f.stabiliser_order > 1;
  f.structure = g.describe();
  return f;
}

Result<GroupFacts> group_facts(const Definition& d) {
  auto g = build_group(d);
  if (!g) return g.error();
  return group_facts(d, *g);
}

State random_position(const Definition& d, const PermGroup& g, Rng& rng) {
  const State element = from_perm(d, g.random_element(rng).extended(expanded_degree(d)));
  return apply(d, d.solved, element);
}

}  // namespace permuzzle::def
