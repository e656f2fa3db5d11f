#include "permuzzle/search/canonical.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace permuzzle::search {

namespace {

// Powers of a move followed before giving up on deriving its family (puzzle moves have small
// orders; a move of larger order simply keeps a family of its own, which prunes less).
constexpr int MAX_FAMILY_POWERS = 4096;

using FamilySet = std::vector<std::uint64_t>;

bool has(const FamilySet& s, int f) {
  return (s[static_cast<std::size_t>(f) / 64] >> (f % 64)) & 1;
}
void add(FamilySet& s, int f) {
  s[static_cast<std::size_t>(f) / 64] |= std::uint64_t{1} << (f % 64);
}

// Family per move, numbered by first appearance: the classes of "one is a power of the other"
// (U, U2 and U' all land in U's class, whatever order they come in).
Result<std::vector<int>> derive_families(const std::vector<Perm>& moves, const RunContext& run) {
  const std::size_t n = moves.size();
  // powers[i]: the cyclic group of move i without the identity (empty when its order is large).
  std::vector<std::vector<Perm>> powers(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (run.should_stop()) return run.stop_error();
    if (moves[i].order() > MAX_FAMILY_POWERS) continue;
    for (Perm p = moves[i]; !p.is_identity(); p *= moves[i]) powers[i].push_back(p);
  }
  auto in = [&](std::size_t i, const Perm& p) {
    return std::find(powers[i].begin(), powers[i].end(), p) != powers[i].end();
  };
  std::vector<std::size_t> parent(n);
  for (std::size_t i = 0; i < n; ++i) parent[i] = i;
  auto root = [&](std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (run.should_stop()) return run.stop_error();
    for (std::size_t j = i + 1; j < n; ++j) {
      if (in(i, moves[j]) || in(j, moves[i])) {
        const std::size_t a = root(i), b = root(j);
        parent[std::max(a, b)] = std::min(a, b);  // the root is the class's first move
      }
    }
  }
  std::vector<int> family(n, -1);
  int count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = root(i);
    family[i] = r == i ? count++ : family[r];
  }
  return family;
}

}  // namespace

Result<CanonicalAutomaton> CanonicalAutomaton::build(const std::vector<Perm>& moves,
                                                     const CanonicalOptions& options,
                                                     const RunContext& run) {
  // Step 1. Families, renumbered by first appearance.
  const std::size_t n = moves.size();
  if (n == 0) return make_error("a canonical-sequence automaton needs at least one move");
  for (std::size_t i = 0; i < n; ++i) {
    if (moves[i].is_identity()) return make_error(fmt::format("move {} is the identity", i));
  }
  std::vector<int> family;
  if (options.families.empty()) {
    auto derived = derive_families(moves, run);
    if (!derived) return derived.error();
    family = std::move(*derived);
  } else {
    if (options.families.size() != n) {
      return make_error(fmt::format("{} family indices for {} moves", options.families.size(), n));
    }
    std::map<int, int> renumber;  // the caller's number -> rank of its first appearance
    for (int f : options.families) {
      if (f < 0) return make_error("family indices are non-negative");
      renumber.emplace(f, static_cast<int>(renumber.size()));
    }
    for (int f : options.families) family.push_back(renumber.at(f));
  }
  CanonicalAutomaton a;
  a.moves_ = static_cast<int>(n);
  a.families_ = *std::max_element(family.begin(), family.end()) + 1;
  a.family_ = family;
  const int nf = a.families_;
  std::vector<std::vector<std::size_t>> members(static_cast<std::size_t>(nf));
  for (std::size_t i = 0; i < n; ++i) members[static_cast<std::size_t>(family[i])].push_back(i);

  // Step 2. Which families commute, and which are closed under products (pairs of families
  // already known not to commute are not tried again).
  if (auto ok = run.check_memory(static_cast<std::uint64_t>(nf) * static_cast<std::uint64_t>(nf),
                                 "the canonical-sequence automaton's commutation table");
      !ok) {
    return ok.error();
  }
  a.commute_.assign(static_cast<std::size_t>(nf) * static_cast<std::size_t>(nf),
                    options.use_commutation ? 1 : 0);
  for (std::size_t i = 0; i < n && options.use_commutation; ++i) {
    if (run.should_stop()) return run.stop_error();
    for (std::size_t j = i + 1; j < n; ++j) {
      if (family[i] != family[j] &&
          a.commute_[static_cast<std::size_t>(family[i] * nf + family[j])] != 0 &&
          moves[i] * moves[j] != moves[j] * moves[i]) {
        a.commute_[static_cast<std::size_t>(family[i] * nf + family[j])] = 0;
        a.commute_[static_cast<std::size_t>(family[j] * nf + family[i])] = 0;
      }
    }
  }
  a.closed_.assign(static_cast<std::size_t>(nf), 1);
  for (int f = 0; f < nf; ++f) {
    if (run.should_stop()) return run.stop_error();
    const auto& m = members[static_cast<std::size_t>(f)];
    for (std::size_t x : m) {
      for (std::size_t y : m) {
        const Perm p = moves[x] * moves[y];
        const bool inside = p.is_identity() || std::any_of(m.begin(), m.end(), [&](std::size_t z) {
                              return moves[z] == p;
                            });
        if (!inside) a.closed_[static_cast<std::size_t>(f)] = 0;
      }
    }
  }

  // Step 3. The reachable states, breadth first from the empty set; row by row of the table.
  // Each state costs its row of the table, its family set twice (list and index) and the
  // index's node: checked against the memory budget before a state is added.
  const std::size_t words = static_cast<std::size_t>(nf + 63) / 64;
  const std::uint64_t state_bytes =
      n * sizeof(std::int32_t) + 2 * words * sizeof(std::uint64_t) + 2 * sizeof(FamilySet) + 64;
  std::map<FamilySet, int> index;
  std::vector<FamilySet> sets;
  sets.emplace_back(words, 0);
  index.emplace(sets[0], 0);
  for (std::size_t s = 0; s < sets.size(); ++s) {
    if (run.should_stop()) return run.stop_error();
    for (std::size_t mv = 0; mv < n; ++mv) {
      const FamilySet cur = sets[s];  // a copy: sets grows below
      const int f = family[mv];
      bool pruned = has(cur, f) && a.closed_[static_cast<std::size_t>(f)];
      for (int g = f + 1; g < nf && !pruned; ++g) pruned = has(cur, g) && a.commute(f, g);
      if (pruned) {
        a.table_.push_back(PRUNED);
        continue;
      }
      FamilySet next(words, 0);
      for (int g = 0; g < nf; ++g) {
        if (g != f && has(cur, g) && a.commute(f, g)) add(next, g);
      }
      add(next, f);
      auto [it, fresh] = index.emplace(next, static_cast<int>(sets.size()));
      if (fresh) {
        if (sets.size() >= options.max_states) {
          return make_error(fmt::format("the canonical-sequence automaton has more than {} "
                                        "states ({} families, many of them commuting)",
                                        options.max_states, nf),
                            {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
        }
        if (auto ok = run.check_memory((sets.size() + 1) * state_bytes,
                                       fmt::format("the canonical-sequence automaton ({} moves, "
                                                   "more than {} states)",
                                                   n, sets.size()));
            !ok) {
          return ok.error();
        }
        sets.push_back(next);
      }
      a.table_.push_back(it->second);
    }
  }
  a.states_ = static_cast<int>(sets.size());
  return a;
}

std::vector<mpz_class> CanonicalAutomaton::count_sequences(int max_length) const {
  std::vector<mpz_class> counts;
  std::vector<mpz_class> ways(static_cast<std::size_t>(states_), 0);
  ways[START] = 1;
  for (int len = 0; len <= max_length; ++len) {
    mpz_class total = 0;
    for (const mpz_class& w : ways) total += w;
    counts.push_back(total);
    if (len == max_length) break;
    std::vector<mpz_class> after(static_cast<std::size_t>(states_), 0);
    for (int s = 0; s < states_; ++s) {
      if (ways[static_cast<std::size_t>(s)] == 0) continue;
      for (int m = 0; m < moves_; ++m) {
        const int t = next(s, m);
        if (t != PRUNED) after[static_cast<std::size_t>(t)] += ways[static_cast<std::size_t>(s)];
      }
    }
    ways.swap(after);
  }
  return counts;
}

}  // namespace permuzzle::search
