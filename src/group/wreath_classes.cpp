// Conjugacy classes of full wreath products (see wreath_classes.hpp).
#include "permuzzle/group/wreath_classes.hpp"

#include "permuzzle/core/ranking.hpp"

#include <algorithm>

#include "permuzzle/group/action.hpp"
#include "permuzzle/group/blocks.hpp"

namespace permuzzle {

namespace {

// One block system of G recognised as H wr S_k.
struct WreathForm {
  std::size_t k = 0, m = 0;
  // point_of[i][j] = phi_i(j): the point of block i that stands for the j-th point of B_0.
  std::vector<std::vector<Point>> point_of;
  PermGroup h;  // on 0..m-1 (j = index in B_0)
};

Result<std::optional<WreathForm>> wreath_form(const PermGroup& g, const BlockSystem& blocks,
                                              const RunContext* run) {
  const std::size_t k = blocks.size(), m = blocks.front().size();
  auto on_blocks = ActionHomomorphism::on_sets(g, blocks, run);
  if (!on_blocks) return on_blocks.error();
  if (on_blocks->image().order() != factorial_mpz(k)) return std::optional<WreathForm>();
  // Step 1. H: the stabiliser of B_0 (preimage of the image's point stabiliser) on B_0.
  auto block_stabiliser = on_blocks->preimage(on_blocks->image().stabilizer(0), run);
  if (!block_stabiliser) return block_stabiliser.error();
  auto on_b0 = ActionHomomorphism::on_orbit(*block_stabiliser, blocks.front(), run);
  if (!on_b0) return on_b0.error();
  mpz_class expected = factorial_mpz(k);
  for (std::size_t i = 0; i < k; ++i) expected *= on_b0->image().order();
  if (expected != g.order()) return std::optional<WreathForm>();
  // Step 2. g_i: a lift of the transposition (0, i) of the blocks.
  WreathForm form;
  form.k = k, form.m = m;
  form.h = on_b0->image();
  form.point_of.push_back(blocks.front());
  for (std::size_t i = 1; i < k; ++i) {
    std::vector<Point> images(k);
    for (std::size_t b = 0; b < k; ++b) images[b] = static_cast<Point>(b);
    std::swap(images[0], images[i]);
    auto lifted = on_blocks->lift(*Perm::from_images(std::move(images)));
    if (!lifted) return lifted.error();
    std::vector<Point> points;
    for (Point p : blocks.front()) points.push_back(lifted->image(p));
    form.point_of.push_back(std::move(points));
  }
  return std::optional<WreathForm>(std::move(form));
}

// A type (l, c): a cycle of l blocks with cycle product in H's class c.
struct CycleType {
  std::size_t length = 0;
  std::size_t h_class = 0;
};

}  // namespace

std::optional<Result<ConjugacyClasses>> wreath_product_classes(const PermGroup& g,
                                                               const ClassOptions& options,
                                                               const RunContext* run) {
  // Step 1. A transitive group with a minimal block system that makes it a full wreath product.
  const auto orbits = g.orbits();
  if (orbits.size() != 1) return std::nullopt;
  auto systems = minimal_block_systems(g.generators(), orbits.front(), run);
  if (!systems) return Result<ConjugacyClasses>(systems.error());
  std::optional<WreathForm> form;
  for (const BlockSystem& blocks : systems->minimal_systems) {
    auto found = wreath_form(g, blocks, run);
    if (!found) return Result<ConjugacyClasses>(found.error());
    if (*found) {
      form = std::move(*found);
      break;
    }
  }
  if (!form) return std::nullopt;
  const std::size_t k = form->k, m = form->m, n = g.degree();
  // Step 2. The classes of H and their centraliser orders.
  ClassOptions h_options;
  h_options.list_limit = options.list_limit;
  auto h_classes = conjugacy_classes(form->h, h_options, run);
  if (!h_classes) return Result<ConjugacyClasses>(h_classes.error());
  const auto& hc = h_classes->classes;
  std::vector<mpz_class> h_centraliser;
  for (const auto& c : hc) h_centraliser.push_back(form->h.order() / c.size);
  std::vector<CycleType> types;
  for (std::size_t l = 1; l <= k; ++l) {
    for (std::size_t c = 0; c < hc.size(); ++c) types.push_back({l, c});
  }
  // Step 3. The count (coefficient of x^k) and the sum of 1/|C| over the classes (which must
  // be 1: the class sizes add up to |G|), type by type, any multiplicity.
  std::vector<mpz_class> count(k + 1, 0);
  std::vector<mpq_class> weight(k + 1, 0);
  count[0] = 1, weight[0] = 1;
  for (const CycleType& t : types) {
    if (run && run->should_stop()) return Result<ConjugacyClasses>(run->stop_error());
    const mpz_class cycle_centraliser = h_centraliser[t.h_class] * t.length;
    std::vector<mpq_class> next(k + 1, 0);
    for (std::size_t s = 0; s <= k; ++s) {
      // m copies of the type: weight 1 / (cycle_centraliser^m · m!).
      mpq_class w = 1;
      for (std::size_t copies = 0; copies * t.length <= s; ++copies) {
        if (copies > 0) w /= mpq_class(cycle_centraliser * copies);
        next[s] += weight[s - copies * t.length] * w;
      }
    }
    weight = std::move(next);
    for (std::size_t s = t.length; s <= k; ++s) count[s] += count[s - t.length];
  }
  if (weight[k] != 1)
    return Result<ConjugacyClasses>(internal_error("wreath class sizes do not add up"));
  ConjugacyClasses result;
  result.method = "wreath product (classes of the base group)";
  result.count = count[k];
  if (options.count_only) return Result<ConjugacyClasses>(std::move(result));
  if (count[k] > options.list_limit) {
    return Result<ConjugacyClasses>(make_error(
        "the group has " + count[k].get_str() + " conjugacy classes, more than the listing limit " +
            std::to_string(options.list_limit) + " (ask for --count-only, or raise --limit)",
        {}, Error::NO_POSITION, ErrorKind::LimitExceeded));
  }
  // Step 4. Every multiset of types with lengths adding up to k, in order of the type list
  // (multiplicities chosen type by type), and its representative and centraliser.
  std::vector<std::size_t> multiplicity(types.size(), 0);
  mpz_class total = 0;
  std::uint64_t visited = 0;
  Status status = Ok{};
  auto emit = [&]() -> Status {
    std::vector<Point> images(n);
    for (std::size_t p = 0; p < n; ++p) images[p] = static_cast<Point>(p);
    mpz_class centraliser = 1;
    std::size_t next_block = 0;
    for (std::size_t t = 0; t < types.size(); ++t) {
      const std::size_t copies = multiplicity[t];
      if (copies == 0) continue;
      const CycleType& type = types[t];
      centraliser *= factorial_mpz(copies);
      const Perm& r = hc[type.h_class].representative;
      for (std::size_t copy = 0; copy < copies; ++copy) {
        centraliser *= h_centraliser[type.h_class] * type.length;
        // Blocks next_block .. next_block + l - 1 in a cycle; f = r on the first, 1 elsewhere.
        for (std::size_t step = 0; step < type.length; ++step) {
          const std::size_t from = next_block + step;
          const std::size_t to = next_block + (step + 1) % type.length;
          for (std::size_t j = 0; j < m; ++j) {
            const std::size_t f_j = step == 0 ? r.image(static_cast<Point>(j)) : j;
            images[form->point_of[from][j]] = form->point_of[to][f_j];
          }
        }
        next_block += type.length;
      }
    }
    auto x = Perm::from_images(std::move(images));
    if (!x || !g.contains(*x)) return internal_error("a wreath class representative is not in G");
    const mpz_class size = g.order() / centraliser;
    total += size;
    result.classes.push_back({*x, size, x->order()});
    return Ok{};
  };
  // Depth-first over the types: `left` block positions remain to be covered.
  auto choose = [&](auto&& self, std::size_t t, std::size_t left) -> void {
    if (!status) return;
    if ((++visited & 1023) == 0 && run && run->should_stop()) {
      status = run->stop_error();
      return;
    }
    if (left == 0) {
      status = emit();
      return;
    }
    if (t == types.size()) return;
    const std::size_t l = types[t].length;
    for (std::size_t copies = left / l + 1; copies-- > 0;) {
      multiplicity[t] = copies;
      self(self, t + 1, left - copies * l);
      if (!status) break;
    }
    multiplicity[t] = 0;
  };
  choose(choose, 0, k);
  if (!status) return Result<ConjugacyClasses>(status.error());
  if (total != g.order() || result.classes.size() != count[k]) {
    return Result<ConjugacyClasses>(internal_error("wreath class sizes do not add up to |G|"));
  }
  return Result<ConjugacyClasses>(std::move(result));
}

}  // namespace permuzzle
