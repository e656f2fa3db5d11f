// Action homomorphisms (see action.hpp).
#include "permuzzle/group/action.hpp"

#include <algorithm>

namespace permuzzle {

namespace {

// The image levels' explicit transversals are refused above this (without a run context too).
constexpr std::uint64_t MAX_TRANSVERSAL_BYTES = std::uint64_t{1} << 30;

}  // namespace

Result<PermGroup> group_from(std::vector<Perm> generators, std::size_t degree,
                             const RunContext* run, const mpz_class& known_order) {
  std::erase_if(generators, [](const Perm& x) { return x.is_identity(); });
  std::sort(generators.begin(), generators.end());
  generators.erase(std::unique(generators.begin(), generators.end()), generators.end());
  if (generators.empty()) generators.push_back(Perm(degree));
  SchreierSimsOptions options;
  options.randomized = degree > 64 || known_order > 0;
  options.known_order = known_order;
  options.run = run;
  return PermGroup::from_generators(std::move(generators), {}, options);
}

Result<PermGroup> with_fewer_generators(const PermGroup& g, const RunContext* run) {
  std::vector<Perm> kept;
  Result<PermGroup> sub = group_from({}, g.degree(), run);
  if (!sub) return sub.error();
  for (const Perm& x : g.generators()) {
    if (sub->order() == g.order()) break;
    if (sub->contains(x)) continue;
    kept.push_back(x);
    sub = group_from(kept, g.degree(), run);
    if (!sub) return sub.error();
  }
  if (sub->order() != g.order()) {
    return make_error("internal error: fewer generators give a smaller group", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  return sub;
}

Result<ActionHomomorphism> ActionHomomorphism::build(const PermGroup& g,
                                                     std::vector<Perm> image_generators,
                                                     std::size_t image_degree,
                                                     const RunContext* run) {
  const auto& gens = g.generators();
  if (image_generators.size() != gens.size()) {
    return make_error("internal error: one image per generator expected", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  ActionHomomorphism hom;
  hom.n_ = g.degree();
  hom.m_ = image_degree;
  hom.source_order_ = g.order();
  const std::size_t n = hom.n_, m = hom.m_, total = n + m;
  // Step 1. The image group.
  {
    auto image = group_from(image_generators, m, run);
    if (!image) return image.error();
    hom.image_ = std::move(*image);
  }
  // Step 2. G-hat, image points first in its base.
  std::vector<Perm> paired;
  std::vector<char> moved(m, 0);
  for (std::size_t i = 0; i < gens.size(); ++i) {
    std::vector<Point> images(total);
    for (std::size_t p = 0; p < n; ++p) images[p] = gens[i].image(static_cast<Point>(p));
    for (std::size_t j = 0; j < m; ++j) {
      const Point to = image_generators[i].image(static_cast<Point>(j));
      images[n + j] = static_cast<Point>(n + to);
      if (to != j) moved[j] = 1;
    }
    paired.push_back(*Perm::from_images(std::move(images)));
  }
  // G-hat is isomorphic to G (g -> (g, phi(g)) is one-to-one): its order is known.
  SchreierSimsOptions options;
  options.randomized = true;
  options.known_order = hom.source_order_;
  options.run = run;
  for (std::size_t j = 0; j < m; ++j) {
    if (moved[j]) options.base_prefix.push_back(static_cast<Point>(n + j));
  }
  std::erase_if(paired, [](const Perm& x) { return x.is_identity(); });
  if (paired.empty()) paired.push_back(Perm(total));
  auto hat = PermGroup::from_generators(std::move(paired), {}, options);
  if (!hat) return hat.error();
  // Step 3. The image levels' transversals (orbits of at most m points) and the kernel.
  const std::vector<Point> base = hat->base();
  const std::vector<Perm> strong = hat->strong_generators();
  auto restricted = [n](const Perm& x) {
    std::vector<Point> images(n);
    for (std::size_t p = 0; p < n; ++p) images[p] = x.image(static_cast<Point>(p));
    return *Perm::from_images(std::move(images));
  };
  std::size_t k = 0;
  std::uint64_t bytes = 0;
  for (; k < base.size() && base[k] >= n; ++k) {
    if (run && run->should_stop()) return run->stop_error();

    std::vector<const Perm*> level_gens;
    for (const Perm& s : strong) {
      bool fixes = true;
      for (std::size_t i = 0; i < k && fixes; ++i) fixes = s.image(base[i]) == base[i];
      if (fixes) level_gens.push_back(&s);
    }
    Level level;
    level.base = base[k];
    level.transversal.resize(m);
    level.in_orbit.assign(m, 0);
    std::vector<Point> queue{base[k]};
    level.in_orbit[base[k] - n] = 1;
    level.transversal[base[k] - n] = Perm(total);
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const Point from = queue[q];
      for (const Perm* s : level_gens) {
        const Point to = s->image(from);
        if (level.in_orbit[to - n]) continue;
        level.in_orbit[to - n] = 1;
        // Every transversal element holds n + m points.
        bytes += std::uint64_t(total) * sizeof(Point);
        if (bytes > MAX_TRANSVERSAL_BYTES) {
          return make_error("the action on " + std::to_string(m) +
                                " objects needs more than 1024 MiB of transversals",
                            {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
        }
        if (run && (queue.size() & 255) == 0) {
          if (auto st = run->check_memory(bytes, "the action homomorphism's transversals"); !st) {
            return st.error();
          }
        }
        level.transversal[to - n] = level.transversal[from - n] * *s;
        queue.push_back(to);
      }
    }
    hom.levels_.push_back(std::move(level));
  }
  for (const Perm& s : strong) {
    bool fixes = true;
    for (std::size_t i = 0; i < k && fixes; ++i) fixes = s.image(base[i]) == base[i];
    if (fixes) hom.kernel_.push_back(restricted(s));
  }
  std::erase_if(hom.kernel_, [](const Perm& x) { return x.is_identity(); });
  return hom;
}

Result<ActionHomomorphism> ActionHomomorphism::on_orbit(const PermGroup& g,
                                                        const std::vector<Point>& orbit,
                                                        const RunContext* run) {
  std::vector<std::int64_t> index(g.degree(), -1);
  for (std::size_t i = 0; i < orbit.size(); ++i) index[orbit[i]] = static_cast<std::int64_t>(i);
  std::vector<Perm> images;
  for (const Perm& x : g.generators()) {
    std::vector<Point> on_orbit(orbit.size());
    for (std::size_t i = 0; i < orbit.size(); ++i) {
      const std::int64_t to = index[x.image(orbit[i])];
      if (to < 0) {
        return make_error("internal error: not an orbit", {}, Error::NO_POSITION,
                          ErrorKind::Internal);
      }
      on_orbit[i] = static_cast<Point>(to);
    }
    images.push_back(*Perm::from_images(std::move(on_orbit)));
  }
  return build(g, std::move(images), orbit.size(), run);
}

Result<ActionHomomorphism> ActionHomomorphism::on_sets(
    const PermGroup& g, const std::vector<std::vector<Point>>& partition, const RunContext* run) {
  std::vector<std::int64_t> set_of(g.degree(), -1);
  for (std::size_t i = 0; i < partition.size(); ++i) {
    for (Point p : partition[i]) {
      if (p < set_of.size()) set_of[p] = static_cast<std::int64_t>(i);
    }
  }
  std::vector<Perm> images;
  for (const Perm& x : g.generators()) {
    std::vector<Point> on_sets(partition.size());
    for (std::size_t i = 0; i < partition.size(); ++i) {
      const Point first = x.image(partition[i].front());
      const std::int64_t to = first < set_of.size() ? set_of[first] : -1;
      if (to < 0) {
        return make_error("internal error: not an invariant partition", {}, Error::NO_POSITION,
                          ErrorKind::Internal);
      }
      on_sets[i] = static_cast<Point>(to);
    }
    auto perm = Perm::from_images(std::move(on_sets));
    if (!perm) {
      return make_error("internal error: not an invariant partition", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }
    images.push_back(std::move(*perm));
  }
  return build(g, std::move(images), partition.size(), run);
}

Result<Perm> ActionHomomorphism::lift(const Perm& t) const {
  const std::size_t total = n_ + m_;
  // r * w stays equal to (t on the image points); w is a product of G-hat's elements.
  std::vector<Point> images(total);
  for (std::size_t p = 0; p < n_; ++p) images[p] = static_cast<Point>(p);
  for (std::size_t j = 0; j < m_; ++j) images[n_ + j] = static_cast<Point>(n_ + t.image(j));
  Perm r = *Perm::from_images(std::move(images));
  Perm w(total);
  for (const Level& level : levels_) {
    const Point gamma = r.image(level.base);
    if (gamma < n_ || !level.in_orbit[gamma - n_]) break;
    const Perm& u = level.transversal[gamma - n_];
    r = r * u.inverse();
    w = u * w;
  }
  std::vector<Point> lifted(n_);
  for (std::size_t p = 0; p < n_; ++p) lifted[p] = w.image(static_cast<Point>(p));
  for (std::size_t j = 0; j < m_; ++j) {
    if (w.image(static_cast<Point>(n_ + j)) != n_ + t.image(static_cast<Point>(j))) {
      return make_error("internal error: " + t.to_cycle_string() + " is not in the image", {},
                        Error::NO_POSITION, ErrorKind::Internal);
    }
  }
  return *Perm::from_images(std::move(lifted));
}

Result<PermGroup> ActionHomomorphism::preimage(const PermGroup& t, const RunContext* run) const {
  std::vector<Perm> gens = kernel_;
  for (const Perm& x : t.generators()) {
    auto lifted = lift(x);
    if (!lifted) return lifted.error();
    gens.push_back(std::move(*lifted));
  }
  // |phi^-1(T)| = |kernel| |T| = |G| |T| / |image| (checked below: the order is only a bound
  // for the randomized construction, which falls back to the deterministic one short of it).
  auto result = group_from(std::move(gens), n_, run, source_order_ * t.order() / image_.order());
  if (!result) return result.error();
  if (result->order() * image_.order() != source_order_ * t.order()) {
    return make_error("internal error: the preimage has the wrong order", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  return result;
}

}  // namespace permuzzle
