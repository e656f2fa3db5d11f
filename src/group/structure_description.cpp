// GAP's StructureDescription on the multiplication table (see structure_description.hpp).
#include "permuzzle/group/structure_description.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <set>

namespace permuzzle {

namespace {

using Elem = std::uint32_t;
using Subgroup = std::vector<Elem>;  // sorted element indices, the identity (0) first

// Complement searches may try this many candidate generator tuples per group named.
constexpr std::uint64_t COMPLEMENT_BUDGET = 200000;
// More normal subgroups than this: no name (elementary abelian sections make many).
constexpr std::size_t NORMAL_SUBGROUP_LIMIT = 4000;

// A finite group by its table: elements 0..n-1, 0 the identity.
struct Table {
  std::size_t n = 1;
  std::vector<Elem> mul{0};
  std::vector<Elem> inv{0};
  std::vector<std::uint32_t> ord{1};
  std::vector<Elem> gens;
  // Element i as a permutation when the group is a subgroup of the one described (sorted: the
  // index order is GAP's order of permutations); empty for quotients.
  std::vector<Perm> perms;
  Elem m(Elem a, Elem b) const { return mul[static_cast<std::size_t>(a) * n + b]; }
};

struct Context {
  const RunContext* run = nullptr;
  std::uint64_t complement_steps = 0;
  bool failed = false;
  bool stop() {
    if (run && run->should_stop()) failed = true;
    return failed;
  }
};

// GAP's table of names covers the orders up to 100 but 64 and 96.
bool in_gap_table(std::size_t n) {
  return n <= 100 && n != 64 && n != 96;
}

Subgroup closure(const Table& t, const std::vector<Elem>& gens) {
  std::vector<char> in(t.n, 0);
  Subgroup list = {0};
  in[0] = 1;
  for (std::size_t i = 0; i < list.size(); ++i) {
    for (Elem s : gens) {
      const Elem y = t.m(list[i], s);
      if (!in[y]) {
        in[y] = 1;
        list.push_back(y);
      }
    }
  }
  std::sort(list.begin(), list.end());
  return list;
}

// Is b a subset of a (both sorted)?
bool contains(const Subgroup& a, const Subgroup& b) {
  return std::includes(a.begin(), a.end(), b.begin(), b.end());
}

// A small generating set of the subgroup `sub` (elements of large order first).
std::vector<Elem> generators_of(const Table& t, const Subgroup& sub) {
  std::vector<Elem> by_order(sub.begin(), sub.end());
  std::stable_sort(by_order.begin(), by_order.end(),
                   [&](Elem a, Elem b) { return t.ord[a] > t.ord[b]; });
  std::vector<Elem> gens;
  std::vector<char> in(t.n, 0);
  in[0] = 1;
  std::size_t reached = 1;
  for (Elem x : by_order) {
    if (reached == sub.size()) break;
    if (in[x]) continue;
    gens.push_back(x);
    const Subgroup h = closure(t, gens);
    for (Elem y : h) in[y] = 1;
    reached = h.size();
  }
  return gens;
}

void finish(Table& t) {
  t.inv.assign(t.n, 0);
  t.ord.assign(t.n, 1);
  for (Elem a = 0; a < t.n; ++a) {
    for (Elem b = 0; b < t.n; ++b) {
      if (t.m(a, b) == 0) {
        t.inv[a] = b;
        break;
      }
    }
    Elem x = a;
    std::uint32_t k = 1;
    while (x != 0) {
      x = t.m(x, a);
      ++k;
    }
    t.ord[a] = k;
  }
  Subgroup all(t.n);
  std::iota(all.begin(), all.end(), 0);
  t.gens = generators_of(t, all);
}

std::optional<Table> table_of(const PermGroup& g, const RunContext* run) {
  // The table (4 bytes per product) and the sub- and quotient tables built while naming: at
  // most a few times n^2 entries.
  const std::uint64_t n = g.order().get_ui();
  if (run && !run->check_memory(3 * n * n * sizeof(Elem), "the multiplication table")) {
    return std::nullopt;
  }
  auto elements = g.elements(SMALL_GROUP_LIMIT, run);
  if (!elements) return std::nullopt;
  Table t;
  t.n = elements->size();
  t.perms = std::move(*elements);
  auto index = [&](const Perm& x) -> std::optional<Elem> {
    auto it = std::lower_bound(t.perms.begin(), t.perms.end(), x);
    if (it == t.perms.end() || *it != x) return std::nullopt;
    return static_cast<Elem>(it - t.perms.begin());
  };
  std::vector<Perm> gens;
  for (const Perm& x : g.generators()) {
    if (!x.is_identity()) gens.push_back(x);
  }
  const std::size_t k = gens.size();
  std::vector<Elem> right(t.n * k);
  for (Elem x = 0; x < t.n; ++x) {
    for (std::size_t s = 0; s < k; ++s) {
      auto y = index(t.perms[x] * gens[s]);
      if (!y) return std::nullopt;
      right[x * k + s] = *y;
    }
  }
  // A spanning tree of the Cayley graph: y = parent[y] * gens[via[y]].
  std::vector<Elem> parent(t.n, 0), bfs = {0};
  std::vector<std::size_t> via(t.n, 0);
  std::vector<char> seen(t.n, 0);
  seen[0] = 1;
  for (std::size_t i = 0; i < bfs.size(); ++i) {
    for (std::size_t s = 0; s < k; ++s) {
      const Elem y = right[bfs[i] * k + s];
      if (seen[y]) continue;
      seen[y] = 1;
      parent[y] = bfs[i];
      via[y] = s;
      bfs.push_back(y);
    }
  }
  if (bfs.size() != t.n) return std::nullopt;
  t.mul.assign(t.n * t.n, 0);
  for (Elem a = 0; a < t.n; ++a) {
    if ((a & 63) == 0 && run && run->should_stop()) return std::nullopt;
    Elem* row = &t.mul[static_cast<std::size_t>(a) * t.n];
    row[0] = a;
    for (std::size_t i = 1; i < bfs.size(); ++i) {
      const Elem y = bfs[i];
      row[y] = right[row[parent[y]] * k + via[y]];
    }
  }
  finish(t);
  return t;
}

// The subgroup `sub` as a table of its own (element order kept).
Table induced(const Table& t, const Subgroup& sub) {
  Table h;
  h.n = sub.size();
  std::vector<Elem> pos(t.n, 0);
  for (std::size_t i = 0; i < sub.size(); ++i) pos[sub[i]] = static_cast<Elem>(i);
  h.mul.assign(h.n * h.n, 0);
  for (std::size_t i = 0; i < h.n; ++i) {
    for (std::size_t j = 0; j < h.n; ++j) h.mul[i * h.n + j] = pos[t.m(sub[i], sub[j])];
  }
  if (!t.perms.empty()) {
    for (Elem x : sub) h.perms.push_back(t.perms[x]);
  }
  finish(h);
  return h;
}

// The cosets x N of a normal subgroup: coset[x] and one representative per coset (the first
// element of each, the identity's coset first).
struct Cosets {
  std::vector<Elem> coset;
  std::vector<Elem> reps;
};

Cosets cosets_of(const Table& t, const Subgroup& normal) {
  Cosets c;
  c.coset.assign(t.n, UINT32_MAX);
  for (Elem x = 0; x < t.n; ++x) {
    if (c.coset[x] != UINT32_MAX) continue;
    for (Elem y : normal) c.coset[t.m(x, y)] = static_cast<Elem>(c.reps.size());
    c.reps.push_back(x);
  }
  return c;
}

// G/N for a normal subgroup N (element i: the coset of cosets_of(t, normal).reps[i]).
Table quotient(const Table& t, const Subgroup& normal) {
  const auto [coset, reps] = cosets_of(t, normal);
  Table q;
  q.n = reps.size();
  q.mul.assign(q.n * q.n, 0);
  for (std::size_t i = 0; i < q.n; ++i) {
    for (std::size_t j = 0; j < q.n; ++j) q.mul[i * q.n + j] = coset[t.m(reps[i], reps[j])];
  }
  finish(q);
  return q;
}

bool is_abelian(const Table& t) {
  for (Elem a : t.gens) {
    for (Elem b : t.gens) {
      if (t.m(a, b) != t.m(b, a)) return false;
    }
  }
  return true;
}

std::vector<std::uint32_t> prime_factors(std::uint64_t n) {
  std::vector<std::uint32_t> primes;
  for (std::uint32_t p = 2; static_cast<std::uint64_t>(p) * p <= n; ++p) {
    if (n % p) continue;
    primes.push_back(p);
    while (n % p == 0) n /= p;
  }
  if (n > 1) primes.push_back(static_cast<std::uint32_t>(n));
  return primes;
}

bool is_prime_power(std::uint64_t n) {
  return n > 1 && prime_factors(n).size() == 1;
}

// Invariant factors of an abelian table group, largest first.
std::vector<std::uint64_t> abelian_invariants(const Table& t) {
  std::vector<unsigned long> primes;
  for (auto p : prime_factors(t.n)) primes.push_back(p);
  auto factors = invariant_factors(primes, [&](unsigned long, const mpz_class& q) {
    std::size_t omega = 0;
    for (Elem x = 0; x < t.n; ++x) omega += mpz_class(q % t.ord[x]) == 0;
    return std::optional<mpz_class>(omega);
  });
  std::vector<std::uint64_t> out;
  for (const auto& f : *factors) out.push_back(f.get_ui());
  return out;
}

std::string cyclic_list(const std::vector<std::uint64_t>& sizes) {
  std::string out;
  for (auto s : sizes) out += (out.empty() ? "C" : " x C") + std::to_string(s);
  return out;
}

// GAP's SD_insertsep: parts joined by `sep`, a part in brackets when it holds one of `brack`
// (and there is more than one part).
std::string join_parts(std::vector<std::string> parts, const std::string& sep,
                       const std::string& brack) {
  std::erase_if(parts, [](const std::string& s) { return s.empty(); });
  std::string out;
  for (auto& s : parts) {
    if (parts.size() > 1 && s.find_first_of(brack) != std::string::npos) s = "(" + s + ")";
    out += (out.empty() ? "" : sep) + s;
  }
  return out;
}

// Conjugacy classes: class_of[x] and the classes.
struct Classes {
  std::vector<std::uint32_t> class_of;
  std::vector<std::vector<Elem>> members;
};

Classes classes_of(const Table& t) {
  Classes c;
  c.class_of.assign(t.n, UINT32_MAX);
  for (Elem x = 0; x < t.n; ++x) {
    if (c.class_of[x] != UINT32_MAX) continue;
    const auto id = static_cast<std::uint32_t>(c.members.size());
    std::vector<Elem> orbit = {x};
    c.class_of[x] = id;
    for (std::size_t i = 0; i < orbit.size(); ++i) {
      for (Elem g : t.gens) {
        const Elem y = t.m(t.m(t.inv[g], orbit[i]), g);
        if (c.class_of[y] == UINT32_MAX) {
          c.class_of[y] = id;
          orbit.push_back(y);
        }
      }
    }
    c.members.push_back(std::move(orbit));
  }
  return c;
}

Subgroup normal_closure(const Table& t, const Classes& c, const std::vector<Elem>& elems) {
  std::set<std::uint32_t> ids;
  for (Elem x : elems) ids.insert(c.class_of[x]);
  std::vector<Elem> gens;
  for (auto id : ids) gens.insert(gens.end(), c.members[id].begin(), c.members[id].end());
  return closure(t, gens);
}

Subgroup derived(const Table& t, const Classes& c) {
  std::vector<Elem> commutators;
  for (Elem a : t.gens) {
    for (Elem b : t.gens) {
      commutators.push_back(t.m(t.m(t.inv[a], t.inv[b]), t.m(a, b)));
    }
  }
  return normal_closure(t, c, commutators);
}

Subgroup centre(const Classes& c) {
  Subgroup z;
  for (const auto& cls : c.members) {
    if (cls.size() == 1) z.push_back(cls[0]);
  }
  std::sort(z.begin(), z.end());
  return z;
}

bool centralises(const Table& t, Elem x, const std::vector<Elem>& gens) {
  for (Elem g : gens) {
    if (t.m(x, g) != t.m(g, x)) return false;
  }
  return true;
}

struct Normal {
  Subgroup elems;
  std::vector<Elem> gens;
};

// All normal subgroups (products of normal closures of classes), sorted by size then elements;
// nullopt above NORMAL_SUBGROUP_LIMIT.
std::optional<std::vector<Normal>> normal_subgroups(const Table& t, const Classes& c,
                                                    Context& ctx) {
  std::vector<Normal> closures;
  std::set<Subgroup> seen;
  std::vector<Normal> all = {{{0}, {}}};
  seen.insert({0});
  for (const auto& cls : c.members) {
    if (cls[0] == 0) continue;
    Subgroup n = closure(t, cls);
    Normal rec{n, generators_of(t, n)};
    if (seen.insert(n).second) all.push_back(rec);
    closures.push_back(std::move(rec));
  }
  for (std::size_t i = 1; i < all.size(); ++i) {
    if (ctx.stop()) return std::nullopt;
    for (const auto& k : closures) {
      if (contains(all[i].elems, k.elems)) {
        continue;
      }
      std::vector<Elem> gens = all[i].gens;
      gens.insert(gens.end(), k.gens.begin(), k.gens.end());
      Subgroup n = closure(t, gens);
      if (!seen.insert(n).second) continue;
      all.push_back({n, generators_of(t, n)});
      if (all.size() > NORMAL_SUBGROUP_LIMIT) return std::nullopt;
    }
  }
  std::sort(all.begin(), all.end(), [](const Normal& a, const Normal& b) {
    return a.elems.size() != b.elems.size() ? a.elems.size() < b.elems.size() : a.elems < b.elems;
  });
  return all;
}

bool trivial_intersection(const Subgroup& a, const Subgroup& b) {
  std::vector<Elem> common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  return common.size() == 1;
}

std::optional<std::string> describe(const Table& t, Context& ctx, int depth);

std::optional<std::string> name_of_subgroup(const Table& t, const Subgroup& s, Context& ctx,
                                            int depth) {
  return describe(induced(t, s), ctx, depth + 1);
}

bool is_cyclic(const Table& t) {
  return std::any_of(t.ord.begin(), t.ord.end(), [&](std::uint32_t o) { return o == t.n; });
}

std::size_t involutions(const Table& t) {
  return static_cast<std::size_t>(std::count(t.ord.begin(), t.ord.end(), 2u));
}

// A_n: A4 (order 12, |G'| = 4), A_n for n >= 5 (simple, order n!/2; `simple` says so).
std::optional<std::size_t> alternating_degree(const Table& t, const Classes& c, bool simple) {
  if (t.n == 12 && !is_abelian(t) && derived(t, c).size() == 4) return 4;
  if (!simple || t.n < 60) return std::nullopt;
  std::uint64_t f = 2;
  for (std::size_t k = 3; f <= 2 * t.n; ++k) {
    f *= k;
    if (f == 2 * t.n) return k;
  }
  return std::nullopt;
}

bool is_simple(const Table& t, const Classes& c) {
  for (const auto& cls : c.members) {
    if (cls[0] == 0) continue;
    if (closure(t, cls).size() != t.n) return false;
  }
  return t.n > 1;
}

std::optional<std::size_t> symmetric_degree(const Table& t, const Classes& c, Context& ctx) {
  if (t.n == 6 && !is_abelian(t)) return 3;
  std::uint64_t f = 6;
  std::size_t k = 3;
  while (f < t.n) f *= ++k;
  if (f != t.n || k < 4) return std::nullopt;
  const Subgroup d = derived(t, c);
  if (d.size() * 2 != t.n) return std::nullopt;
  const Table dt = induced(t, d);
  const Classes dc = classes_of(dt);
  if (alternating_degree(dt, dc, k >= 5 && is_simple(dt, dc)) != k) return std::nullopt;
  const std::vector<Elem> dgens = [&] {
    std::vector<Elem> out;
    for (Elem x : dt.gens) out.push_back(d[x]);
    return out;
  }();
  for (Elem x = 1; x < t.n; ++x) {
    if (centralises(t, x, dgens)) return std::nullopt;
  }
  if (t.n == 720 && std::find(t.ord.begin(), t.ord.end(), 6u) == t.ord.end()) {
    return std::nullopt;
  }
  (void)ctx;
  return k;
}

bool is_dihedral(const Table& t) {
  if (t.n % 2 || t.n <= 6) return false;
  const std::uint32_t m = static_cast<std::uint32_t>(t.n / 2);
  for (Elem r = 0; r < t.n; ++r) {
    if (t.ord[r] != m) continue;
    const Subgroup rot = closure(t, {r});
    for (Elem x = 0; x < t.n; ++x) {
      if (std::binary_search(rot.begin(), rot.end(), x)) continue;
      return t.ord[x] == 2 && t.m(t.m(x, r), x) == t.inv[r];
    }
  }
  return false;
}

bool is_quaternion(const Table& t) {
  return t.n >= 8 && is_prime_power(t.n) && t.n % 2 == 0 && involutions(t) == 1 && !is_abelian(t);
}

bool is_quasidihedral(const Table& t) {
  if (t.n < 16 || !is_prime_power(t.n) || t.n % 2) return false;
  const std::uint32_t m = static_cast<std::uint32_t>(t.n / 2);
  for (Elem r = 0; r < t.n; ++r) {
    if (t.ord[r] != m) continue;
    Elem target = 0;  // r^(m/2 - 1)
    for (std::uint32_t i = 0; i < m / 2 - 1; ++i) target = t.m(target, r);
    const Subgroup rot = closure(t, {r});
    for (Elem x = 0; x < t.n; ++x) {
      if (t.ord[x] != 2 || std::binary_search(rot.begin(), rot.end(), x)) continue;
      if (t.m(t.m(x, r), x) == target) return true;
    }
  }
  return false;
}

// Non-abelian simple groups up to SMALL_GROUP_LIMIT elements: the order decides.
std::optional<std::string> simple_name(std::size_t n) {
  static constexpr std::pair<std::size_t, const char*> NAMES[] = {
      {60, "A5"},         {168, "PSL(3,2)"},   {360, "A6"},        {504, "PSL(2,8)"},
      {660, "PSL(2,11)"}, {1092, "PSL(2,13)"}, {1224, "PSL(2,17)"}};
  for (const auto& [order, name] : NAMES) {
    if (order == n) return name;
  }
  return std::nullopt;
}

std::optional<std::string> linear_name(const Table& t, const Classes& c, Context& ctx, int depth) {
  // SL(2,q), q odd.
  static constexpr std::pair<std::size_t, int> SL_ORDERS[] = {
      {24, 3}, {120, 5}, {336, 7}, {720, 9}, {1320, 11}};
  for (const auto& [order, q] : SL_ORDERS) {
    if (t.n != order) continue;
    const Subgroup d = derived(t, c);
    if (q == 3) {
      if (d.size() == 8) return "SL(2,3)";
      continue;
    }
    const Subgroup z = centre(c);
    if (d.size() != t.n || z.size() != 2) continue;
    const Table f = quotient(t, z);
    const Classes fc = classes_of(f);
    if (is_simple(f, fc)) return "SL(2," + std::to_string(q) + ")";
  }
  if (t.n == 48) {
    const Subgroup d = derived(t, c);
    const Subgroup z = centre(c);
    if (d.size() != 24 || z.size() != 2 || involutions(t) < 2) return std::nullopt;
    const Table dt = induced(t, d);
    if (derived(dt, classes_of(dt)).size() != 8) return std::nullopt;
    const Table f = quotient(t, z);
    const Classes fc = classes_of(f);
    if (symmetric_degree(f, fc, ctx) == 4) return "GL(2,3)";
  }
  if (t.n == 180) {
    const Subgroup d = derived(t, c);
    if (d.size() != 60) return std::nullopt;
    const Table dt = induced(t, d);
    if (is_simple(dt, classes_of(dt))) return "GL(2,4)";
  }
  if (t.n == 480) {
    const Subgroup d = derived(t, c);
    const Subgroup z = centre(c);
    if (d.size() != 120 || z.size() != 4) return std::nullopt;
    const Table dt = induced(t, d);
    const Classes dc = classes_of(dt);
    if (derived(dt, dc).size() != 120 || centre(dc).size() != 2) return std::nullopt;
    if (!is_cyclic(induced(t, z))) return std::nullopt;
    const Table f = quotient(t, z);
    const Classes fc = classes_of(f);
    if (symmetric_degree(f, fc, ctx) == 5) return "GL(2,5)";
  }
  (void)depth;
  return std::nullopt;
}

// Indecomposable direct factors: the smallest normal subgroup with a normal complement, then
// the complement's factors (its normal subgroups are G's normal subgroups inside it).
std::vector<Subgroup> direct_factors(const Subgroup& whole, const std::vector<Normal>& normals) {
  std::vector<const Normal*> inside;
  for (const auto& n : normals) {
    if (contains(whole, n.elems)) {
      inside.push_back(&n);
    }
  }
  for (const Normal* a : inside) {
    const std::size_t s1 = a->elems.size();
    if (s1 == 1 || s1 == whole.size() || whole.size() % s1) continue;
    const std::size_t s2 = whole.size() / s1;
    for (const Normal* b : inside) {
      if (b->elems.size() != s2 || !trivial_intersection(a->elems, b->elems)) continue;
      std::vector<Subgroup> out = {a->elems};
      auto rest = direct_factors(b->elems, normals);
      out.insert(out.end(), rest.begin(), rest.end());
      return out;
    }
  }
  return {whole};
}

// A complement of `normal` (nullopt inside: none; outer nullopt: over the search budget or
// asked to stop). Searches representatives of the cosets of the quotient's generators with the
// orders of those generators; with `any` a coprime index answers at once (Schur–Zassenhaus)
// with an empty subgroup.
std::optional<std::optional<Subgroup>> find_complement(const Table& t, const Subgroup& normal,
                                                       Context& ctx, bool any) {
  const std::size_t m = t.n / normal.size();
  if (any && std::gcd(m, normal.size()) == 1) return Subgroup{};
  const std::vector<Elem> reps = cosets_of(t, normal).reps;
  const Table q = quotient(t, normal);  // element i: the coset of reps[i]
  const std::vector<Elem>& qgens = q.gens;
  std::vector<std::vector<Elem>> candidates(qgens.size());
  for (std::size_t i = 0; i < qgens.size(); ++i) {
    for (Elem y : normal) {
      const Elem x = t.m(reps[qgens[i]], y);
      if (t.ord[x] == q.ord[qgens[i]]) candidates[i].push_back(x);
    }
    if (candidates[i].empty()) return std::optional<Subgroup>{};
  }
  // |<q_1..q_i>| in the quotient: the chosen representatives must generate a group that small.
  std::vector<std::size_t> partial(qgens.size());
  for (std::size_t i = 0; i < qgens.size(); ++i) {
    partial[i] = closure(q, std::vector<Elem>(qgens.begin(), qgens.begin() + i + 1)).size();
  }
  std::vector<Elem> chosen;
  bool over = false;
  std::function<bool(std::size_t)> search = [&](std::size_t i) -> bool {
    if (i == qgens.size()) return true;
    for (Elem x : candidates[i]) {
      if (++ctx.complement_steps > COMPLEMENT_BUDGET || ctx.stop()) {
        over = true;
        return false;
      }
      chosen.push_back(x);
      if (closure(t, chosen).size() == partial[i] && search(i + 1)) return true;
      if (over) return false;
      chosen.pop_back();
    }
    return false;
  };
  if (search(0)) return std::optional<Subgroup>(closure(t, chosen));
  if (over) return std::nullopt;
  return std::optional<Subgroup>{};
}

std::optional<std::string> product_name(const Table& t, const Subgroup& n, Context& ctx, int depth,
                                        const char* sep) {
  auto a = name_of_subgroup(t, n, ctx, depth);
  if (!a) return std::nullopt;
  auto b = describe(quotient(t, n), ctx, depth + 1);
  if (!b) return std::nullopt;
  return join_parts({*a, *b}, sep, "x:.");
}

std::optional<std::string> semidirect_name(const Table& t, const std::vector<Normal>& normals,
                                           Context& ctx, int depth) {
  // A normal Hall subgroup from the normal closures S_p of the Sylow subgroups (generated by
  // all p-elements): S_p itself when it is a p-group, else the first reachable set of primes.
  const auto primes = prime_factors(t.n);
  if (primes.size() > 1) {
    std::vector<Subgroup> s(primes.size());
    std::vector<std::vector<std::size_t>> edges(primes.size());
    for (std::size_t i = 0; i < primes.size(); ++i) {
      std::vector<Elem> p_elements;
      for (Elem x = 1; x < t.n; ++x) {
        std::uint32_t o = t.ord[x];
        while (o % primes[i] == 0) o /= primes[i];
        if (o == 1) p_elements.push_back(x);
      }
      s[i] = closure(t, p_elements);
      for (std::size_t j = 0; j < primes.size(); ++j) {
        if (s[i].size() % primes[j] == 0) edges[i].push_back(j);
      }
      if (edges[i] == std::vector<std::size_t>{i}) {
        return product_name(t, s[i], ctx, depth, " : ");
      }
    }
    std::set<std::vector<std::size_t>> upsets;
    for (std::size_t i = 0; i < primes.size(); ++i) {
      std::vector<char> reach(primes.size(), 0);
      std::vector<std::size_t> queue = {i};
      reach[i] = 1;
      for (std::size_t k = 0; k < queue.size(); ++k) {
        for (std::size_t j : edges[queue[k]]) {
          if (!reach[j]) {
            reach[j] = 1;
            queue.push_back(j);
          }
        }
      }
      std::vector<std::size_t> set;
      for (std::size_t j = 0; j < primes.size(); ++j) {
        if (reach[j]) set.push_back(j);
      }
      upsets.insert(set);
    }
    for (const auto& u : upsets) {
      if (u.size() == primes.size()) continue;
      std::vector<Elem> gens;
      for (std::size_t i : u) gens.insert(gens.end(), s[i].begin(), s[i].end());
      return product_name(t, closure(t, gens), ctx, depth, " : ");
    }
  }
  // GAP takes the first normal subgroup with a complement in the order NormalSubgroups lists
  // them. It computes them down a chief series 1 = C_0 < C_1 < ... < C_r = G and lists first
  // those not containing C_1, then those containing C_1 but not C_2, and so on. Which chief
  // series it takes depends on its representation; we take the first minimal normal subgroup
  // (smallest, then first in our order) above each step, and within a block the smallest first.
  std::vector<Subgroup> chief = {{0}};
  while (chief.back().size() < t.n) {
    const Subgroup& current = chief.back();
    const Subgroup* next = nullptr;
    for (const auto& n : normals) {
      if (n.elems.size() <= current.size() || !contains(n.elems, current)) continue;
      const bool minimal = std::none_of(normals.begin(), normals.end(), [&](const Normal& m) {
        return m.elems.size() > current.size() && m.elems.size() < n.elems.size() &&
               contains(m.elems, current) && contains(n.elems, m.elems);
      });
      if (minimal) {
        next = &n.elems;
        break;
      }
    }
    if (!next) break;
    chief.push_back(*next);
  }
  std::vector<std::pair<std::size_t, const Subgroup*>> blocks;  // (block, subgroup)
  for (const auto& n : normals) {
    std::size_t k = 0;
    while (k + 1 < chief.size() && contains(n.elems, chief[k + 1])) ++k;
    blocks.emplace_back(k, &n.elems);
  }
  auto exponent = [&](const Subgroup& x) {
    std::uint64_t e = 1;
    for (Elem a : x) e = std::lcm(e, static_cast<std::uint64_t>(t.ord[a]));
    return e;
  };
  const bool p_group = is_prime_power(t.n);
  auto order_sum = [&](const Subgroup& x) {
    std::uint64_t sum = 0;
    for (Elem a : x) sum += t.ord[a];
    return sum;
  };
  std::stable_sort(blocks.begin(), blocks.end(), [&](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    if (a.second->size() != b.second->size()) return a.second->size() < b.second->size();
    const auto ea = exponent(*a.second), eb = exponent(*b.second);
    if (ea != eb || !p_group) return ea > eb;
    return order_sum(*a.second) > order_sum(*b.second);
  });
  std::vector<Subgroup> order;
  for (const auto& [k, n] : blocks) order.push_back(*n);
  for (const auto& n : order) {
    if (n.size() == 1 || n.size() == t.n) continue;
    auto c = find_complement(t, n, ctx, true);
    if (!c) return std::nullopt;
    if (*c) return product_name(t, n, ctx, depth, " : ");
  }
  return std::string();
}

// Length(AbelianInvariants(A)) for an abelian table group: its cyclic factors of prime-power
// order.
std::size_t prime_power_factor_count(const Table& a) {
  std::size_t count = 0;
  for (auto f : abelian_invariants(a)) count += prime_factors(f).size();
  return count;
}

// Length(DirectFactorsOfGroup(N)): indecomposable direct factors, a cyclic one counted once per
// prime dividing its order (GAP splits abelian components into prime-power cyclic groups).
std::optional<std::size_t> direct_factor_count(const Table& n, Context& ctx) {
  if (is_abelian(n)) return prime_power_factor_count(n);
  const Classes c = classes_of(n);
  auto normals = normal_subgroups(n, c, ctx);
  if (!normals) return std::nullopt;
  Subgroup all(n.n);
  std::iota(all.begin(), all.end(), 0);
  std::size_t count = 0;
  for (const auto& f : direct_factors(all, *normals)) {
    const Table ft = induced(n, f);
    count += is_cyclic(ft) ? prime_factors(ft.n).size() : 1;
  }
  return count;
}

// The semidirect decomposition GAP's table of small groups records (StructureDescription's
// "nice" choice): among all N : H, prefer H abelian; then N abelian with the most abelian
// invariants; then N with the most direct factors (more than one); then H acting faithfully on
// N. Empty when G does not split.
std::optional<std::string> nice_semidirect_name(const Table& t, const std::vector<Normal>& normals,
                                                Context& ctx, int depth) {
  struct Candidate {
    const Normal* n;
    Subgroup h;
    bool h_abelian = false, n_abelian = false, faithful = false;
    std::size_t invariants = 0, factors = 0;
  };
  std::vector<Candidate> all;
  for (const auto& n : normals) {
    if (n.elems.size() == 1 || n.elems.size() == t.n) continue;
    auto c = find_complement(t, n.elems, ctx, false);
    if (!c) return std::nullopt;
    if (!*c) continue;
    Candidate cand{&n, std::move(**c)};
    const Table nt = induced(t, n.elems);
    const Table ht = induced(t, cand.h);
    cand.h_abelian = is_abelian(ht);
    cand.n_abelian = is_abelian(nt);
    if (cand.n_abelian) cand.invariants = prime_power_factor_count(nt);
    auto f = direct_factor_count(nt, ctx);
    if (!f) return std::nullopt;
    cand.factors = *f;
    std::vector<Elem> ngens;
    for (Elem x : nt.gens) ngens.push_back(n.elems[x]);
    cand.faithful = std::none_of(cand.h.begin() + 1, cand.h.end(),
                                 [&](Elem x) { return centralises(t, x, ngens); });
    all.push_back(std::move(cand));
  }
  if (all.empty()) return std::string();
  auto keep = [&](auto pred) {
    std::vector<Candidate> kept;
    for (const auto& c : all) {
      if (pred(c)) kept.push_back(c);
    }
    if (!kept.empty()) all = std::move(kept);
    return !kept.empty();
  };
  keep([](const Candidate& c) { return c.h_abelian; });
  if (std::any_of(all.begin(), all.end(), [](const Candidate& c) { return c.n_abelian; })) {
    keep([](const Candidate& c) { return c.n_abelian; });
    std::size_t most = 0;
    for (const auto& c : all) most = std::max(most, c.invariants);
    keep([&](const Candidate& c) { return c.invariants == most; });
  }
  if (std::any_of(all.begin(), all.end(), [](const Candidate& c) { return c.factors > 1; })) {
    keep([](const Candidate& c) { return c.factors > 1; });
    std::size_t most = 0;
    for (const auto& c : all) most = std::max(most, c.factors);
    keep([&](const Candidate& c) { return c.factors == most; });
  }
  keep([](const Candidate& c) { return c.faithful; });
  return product_name(t, all.front().n->elems, ctx, depth, " : ");
}

// GAP's name of the direct product of the subgroups `factors` of t (indecomposable, together
// all of t): cyclic factors merged into elementary divisors, then the others in GAP's order.
std::optional<std::string> direct_product_name(const Table& t, const std::vector<Subgroup>& factors,
                                               Context& ctx, int depth) {
  std::vector<std::uint64_t> cyclic_sizes;
  std::vector<std::pair<Subgroup, std::string>> others;
  for (const auto& f : factors) {
    const Table ft = induced(t, f);
    if (is_cyclic(ft)) {
      cyclic_sizes.push_back(ft.n);
      continue;
    }
    auto name = describe(ft, ctx, depth + 1);
    if (!name) return std::nullopt;
    others.emplace_back(f, *name);
  }
  // Elementary divisors of the cyclic factors, smallest first (GAP's ElementaryDivisorsMat).
  std::vector<std::uint64_t> divisors;
  {
    std::map<std::uint32_t, std::vector<std::uint64_t>> parts;  // prime -> p-powers
    for (auto size : cyclic_sizes) {
      for (std::uint32_t p : prime_factors(size)) {
        std::uint64_t q = 1;
        while (size % (q * p) == 0) q *= p;
        parts[p].push_back(q);
      }
    }
    std::size_t count = 0;
    for (auto& [p, qs] : parts) {
      std::sort(qs.rbegin(), qs.rend());
      count = std::max(count, qs.size());
    }
    divisors.assign(count, 1);
    for (auto& [p, qs] : parts) {
      for (std::size_t i = 0; i < qs.size(); ++i) divisors[count - 1 - i] *= qs[i];
    }
  }
  // GAP's order of the factor subgroups: for permutation groups their sorted element lists;
  // in its table of small groups (pc groups) the larger factor comes first.
  std::sort(others.begin(), others.end(), [&](const auto& a, const auto& b) {
    if (in_gap_table(t.n) || t.perms.empty()) {
      return a.first.size() != b.first.size() ? a.first.size() > b.first.size()
                                              : a.second < b.second;
    }
    return a.first < b.first;
  });
  std::vector<std::string> names;
  for (auto& o : others) names.push_back(o.second);
  return join_parts({cyclic_list(divisors), join_parts(names, " x ", ":.")}, " x ", ":.");
}

// Maps the elements of a subgroup of t.induced(sub) back to t.
Subgroup lifted(const Subgroup& sub, const Subgroup& inner) {
  Subgroup out;
  for (Elem x : inner) out.push_back(sub[x]);
  return out;
}

// Direct factors without the list of normal subgroups: a central <z> of prime-power order with
// <z> ∩ G' = 1 is a direct factor when its image in G/G' has a complement K there (then G =
// <z> x B, B the preimage of K); repeated on B, whose other factors come from its normal
// subgroups when they can be listed. nullopt when no cyclic factor splits off (or asked to
// stop).
std::optional<std::vector<Subgroup>> central_direct_factors(const Table& t, Context& ctx) {
  std::vector<Subgroup> factors;
  Subgroup rest(t.n);
  std::iota(rest.begin(), rest.end(), 0);
  while (rest.size() > 1) {
    if (ctx.stop()) return std::nullopt;
    const Table rt = induced(t, rest);
    if (is_abelian(rt) && is_cyclic(rt)) break;
    const Classes rc = classes_of(rt);
    const Subgroup d = derived(rt, rc);
    const Cosets cosets = cosets_of(rt, d);
    const Table a = quotient(rt, d);
    bool split = false;
    for (Elem z : centre(rc)) {
      if (z == 0 || !is_prime_power(rt.ord[z])) continue;
      const Subgroup n = closure(rt, {z});
      if (!trivial_intersection(n, d)) continue;
      auto k = find_complement(a, closure(a, {cosets.coset[z]}), ctx, false);
      if (!k) return std::nullopt;
      if (!*k) continue;
      Subgroup b;
      for (Elem y = 0; y < rt.n; ++y) {
        if (std::binary_search((*k)->begin(), (*k)->end(), cosets.coset[y])) b.push_back(y);
      }
      factors.push_back(lifted(rest, n));
      rest = lifted(rest, b);
      split = true;
      break;
    }
    if (!split) break;
  }
  if (factors.empty()) return std::nullopt;
  if (rest.size() > 1) {
    const Table rt = induced(t, rest);
    auto normals = normal_subgroups(rt, classes_of(rt), ctx);
    if (ctx.failed) return std::nullopt;
    Subgroup all(rt.n);
    std::iota(all.begin(), all.end(), 0);
    for (const auto& f : normals ? direct_factors(all, *normals) : std::vector<Subgroup>{all}) {
      factors.push_back(lifted(rest, f));
    }
  }
  return factors;
}

std::optional<std::string> describe(const Table& t, Context& ctx, int depth) {
  if (ctx.stop() || depth > 40) return std::nullopt;
  if (t.n == 1) return "1";
  if (is_abelian(t)) return cyclic_list(abelian_invariants(t));
  const Classes c = classes_of(t);
  const bool simple = is_simple(t, c);
  if (auto k = alternating_degree(t, c, simple)) return "A" + std::to_string(*k);
  if (auto k = symmetric_degree(t, c, ctx)) return "S" + std::to_string(*k);
  if (is_dihedral(t)) return "D" + std::to_string(t.n);
  if (is_quaternion(t)) return "Q" + std::to_string(t.n);
  if (is_quasidihedral(t)) return "QD" + std::to_string(t.n);
  if (simple) return simple_name(t.n);
  if (auto l = linear_name(t, c, ctx, depth)) return l;
  auto normals = normal_subgroups(t, c, ctx);
  if (!normals) {
    // Too many normal subgroups (a large central elementary abelian part): split off cyclic
    // central direct factors instead.
    if (ctx.failed) return std::nullopt;
    auto factors = central_direct_factors(t, ctx);
    if (!factors) return std::nullopt;
    return direct_product_name(t, *factors, ctx, depth);
  }
  // Direct product.
  Subgroup all(t.n);
  std::iota(all.begin(), all.end(), 0);
  auto factors = direct_factors(all, *normals);
  if (factors.size() > 1) return direct_product_name(t, factors, ctx, depth);
  // Semidirect product.
  auto semi = in_gap_table(t.n) ? nice_semidirect_name(t, *normals, ctx, depth)
                                : semidirect_name(t, *normals, ctx, depth);
  if (!semi) return std::nullopt;
  if (!semi->empty()) return semi;
  // Non-split extensions.
  std::optional<std::string> cname, dname;
  const Subgroup z = centre(c);
  if (z.size() > 1) {
    cname = product_name(t, z, ctx, depth, " . ");
    if (!cname) return std::nullopt;
  }
  const Subgroup d = derived(t, c);
  if (d.size() < t.n) {
    dname = product_name(t, d, ctx, depth, " . ");
    if (!dname) return std::nullopt;
  }
  if (cname && dname && *cname != *dname) return *cname + " = " + *dname;
  if (cname) return cname;
  if (dname) return dname;
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<mpz_class>> invariant_factors(
    const std::vector<unsigned long>& primes,
    const std::function<std::optional<mpz_class>(unsigned long p, const mpz_class& q)>& omega) {
  std::vector<mpz_class> factors;
  for (unsigned long p : primes) {
    std::vector<std::size_t> at_least;  // at_least[j-1]: cyclic p-factors of order >= p^j
    std::size_t previous = 0;
    mpz_class power = p;
    while (true) {
      auto count = omega(p, power);
      if (!count) return std::nullopt;
      std::size_t log = 0;
      for (mpz_class rest = *count; rest > 1; rest /= p) ++log;
      if (log == previous) break;
      at_least.push_back(log - previous);
      previous = log;
      power *= p;
    }
    // Factor i (0-based, largest first) gets p^(number of j with at_least[j-1] > i).
    for (std::size_t i = 0; !at_least.empty() && i < at_least[0]; ++i) {
      mpz_class part = 1;
      for (std::size_t count : at_least) {
        if (count > i) part *= p;
      }
      if (factors.size() <= i) factors.resize(i + 1, 1);
      factors[i] *= part;
    }
  }
  return factors;
}

std::optional<std::string> small_structure_description(const PermGroup& g, const RunContext* run) {
  if (g.order() > SMALL_GROUP_LIMIT) return std::nullopt;
  auto t = table_of(g, run);
  if (!t) return std::nullopt;
  Context ctx;
  ctx.run = run;
  auto name = describe(*t, ctx, 0);
  if (ctx.failed) return std::nullopt;
  return name;
}

}  // namespace permuzzle
