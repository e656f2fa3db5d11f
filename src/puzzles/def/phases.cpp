// Solving by phases (phases.hpp): phase puzzles, projections, auto phases and the phased solver.
#include "permuzzle/puzzles/def/phases.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/def/group_facts.hpp"

namespace permuzzle::def {

// LabelMap, KeptSlots and PhaseProjection are this file's (PhaseProjection is named in
// phases.hpp, so they are outside the anonymous namespace).

// Per set: the phase's number of each label of the puzzle's Solved pattern and whether the
// phase ignores that label's orientation (the phase file's checks make both well defined).
struct LabelMap {
  std::vector<std::uint8_t> number = std::vector<std::uint8_t>(256, 0);
  std::vector<char> ignored = std::vector<char>(256, 0);
};

// Which slots a phase keeps: per set of the puzzle, the slots whose pattern some move of the
// phase can change (`kept`, increasing), and per set the compact number of each pattern number
// found in those slots (`number`, 255 = none; numbers keep their order so that the pieces a
// pattern numbers first are still first). The others keep what the pattern wants for the whole
// phase (its start has them so), and are left out of the phase's puzzle; a set left with no slot
// is left out too. They are the largest set S of slots into each of which every move brings a
// piece from a slot of S with the same pattern number (and the orientation the pattern wants,
// where it wants one): slots no move touches, and e.g. the 5x5x5's centres of one colour, placed
// before, that its last phases' sequences permute among themselves (kept, they made the phase's
// puzzle some 10^15 arrangements where it has 831,600, and its tables too weak to finish it).
struct KeptSlots {
  std::vector<std::vector<std::uint8_t>> kept;
  std::vector<std::vector<std::uint8_t>> number;
  bool all = true;  // nothing left out
};

namespace {

std::vector<LabelMap> label_maps(const Definition& d, const State& pattern) {
  std::vector<LabelMap> maps(d.sets.size());
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const SetState& solved = d.solved.sets[k];
    for (std::size_t j = 0; j < solved.perm.size(); ++j) {
      maps[k].number[solved.perm[j]] = pattern.sets[k].perm[j];
      maps[k].ignored[solved.perm[j]] = pattern.sets[k].ori[j] == ORIENTATION_IGNORED ? 1 : 0;
    }
  }
  return maps;
}

// Whether the pattern is the puzzle's Solved pattern renumbered: distinct labels keep distinct
// numbers and every orientation the Solved pattern tracks is tracked.
bool is_full_pattern(const Definition& d, const State& pattern) {
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const SetState& solved = d.solved.sets[k];
    std::map<int, int> label_of_number;
    for (std::size_t j = 0; j < solved.perm.size(); ++j) {
      auto [it, fresh] = label_of_number.emplace(pattern.sets[k].perm[j], solved.perm[j]);
      if (!fresh && it->second != solved.perm[j]) return false;
      if (pattern.sets[k].ori[j] == ORIENTATION_IGNORED && solved.ori[j] != ORIENTATION_IGNORED)
        return false;
    }
  }
  return true;
}

// The moves of the definition whose base is `b`, by power.
std::map<int, std::size_t> powers_of(const Definition& d, std::size_t b) {
  std::map<int, std::size_t> out;
  for (std::size_t m = 0; m < d.moves.size(); ++m) {
    if (d.moves[m].base == b) out[d.moves[m].power] = m;
  }
  return out;
}

// A phase's puzzle with no slot left (phase_definition): its moves cannot change its pattern,
// and it has nothing to search.
bool nothing_to_search(const Definition& phase_puzzle) {
  return phase_puzzle.sets.empty();
}

// As group elements: on the identity, every piece distinct (on the Solved pattern, moves that
// differ only on identical pieces there would pass: a phase's pattern with the topspin's free
// discs identical made its turnstile commute with the shift, and merged moves across it).
bool commute(const Definition& d, const State& a, const State& b) {
  const State s = d.identity();
  return apply(d, apply(d, s, a), b) == apply(d, apply(d, s, b), a);
}

// Union-find over the slots of one set.
struct Slots {
  std::vector<int> parent;
  explicit Slots(int n) : parent(static_cast<std::size_t>(n)) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  int find(int x) {
    while (parent[static_cast<std::size_t>(x)] != x) {
      parent[static_cast<std::size_t>(x)] =
          parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
      x = parent[static_cast<std::size_t>(x)];
    }
    return x;
  }
  void join(int a, int b) { parent[static_cast<std::size_t>(find(a))] = find(b); }
};

// The pattern of H's slot orbits (file comment, auto step 1) for the moves `h` (indices into
// d.moves).
State orbit_pattern(const Definition& d, const std::vector<std::size_t>& h) {
  State p = d.solved;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const int n = d.sets[k].pieces;
    Slots u(n);
    const SetState& solved = d.solved.sets[k];
    for (std::size_t m : h) {
      const SetState& e = d.moves[m].effect.sets[k];
      for (int j = 0; j < n; ++j) u.join(j, e.perm[static_cast<std::size_t>(j)]);
    }
    // Identical pieces of the Solved pattern need one number.
    std::vector<int> first_of_label(256, -1);
    for (int j = 0; j < n; ++j) {
      int& f = first_of_label[solved.perm[static_cast<std::size_t>(j)]];
      if (f < 0) f = j;
      u.join(j, f);
    }
    std::vector<char> ori_moves(static_cast<std::size_t>(n), 0);
    for (std::size_t m : h) {
      const SetState& e = d.moves[m].effect.sets[k];
      for (int j = 0; j < n; ++j) {
        if (e.ori[static_cast<std::size_t>(j)] % d.sets[k].orientations != 0)
          ori_moves[static_cast<std::size_t>(u.find(j))] = 1;
      }
    }
    std::map<int, int> number;
    for (int j = 0; j < n; ++j) {
      const int root = u.find(j);
      auto it = number.emplace(root, static_cast<int>(number.size())).first;
      p.sets[k].perm[static_cast<std::size_t>(j)] = static_cast<std::uint8_t>(it->second);
      if (ori_moves[static_cast<std::size_t>(root)])
        p.sets[k].ori[static_cast<std::size_t>(j)] = ORIENTATION_IGNORED;
    }
    // A label whose orientation is ignored somewhere is ignored everywhere (one label, one
    // answer).
    for (int j = 0; j < n; ++j) {
      if (p.sets[k].ori[static_cast<std::size_t>(j)] != ORIENTATION_IGNORED) continue;
      for (int i = 0; i < n; ++i) {
        if (u.find(i) == u.find(j))
          p.sets[k].ori[static_cast<std::size_t>(i)] = ORIENTATION_IGNORED;
      }
    }
  }
  return p;
}

std::optional<mpz_class> positions_of(const Definition& d, const RunContext& run) {
  auto f = group_facts(d, run);
  if (!f) return std::nullopt;
  return f->positions;
}

// Step 1 of auto_phases: the best two-phase reduction, if any is proven.
std::optional<std::vector<Phase>> two_phase(const Definition& d, const RunContext& run) {
  auto total = positions_of(d, run);
  if (!total) return std::nullopt;
  const std::size_t bases = d.base_moves.size();
  if (bases < 2 || bases > 24) return std::nullopt;
  std::vector<std::vector<std::size_t>> kept_sets;
  for (std::size_t a = 0; a < bases; ++a) {
    kept_sets.push_back({a});
    for (std::size_t b = a + 1; b < bases; ++b) {
      if (commute(d, d.base_moves[a].effect, d.base_moves[b].effect)) kept_sets.push_back({a, b});
    }
  }
  std::optional<std::vector<Phase>> best;
  mpz_class best_score = 0;
  for (const auto& kept : kept_sets) {
    if (run.should_stop()) return std::nullopt;
    std::vector<std::size_t> h;
    bool halved = false;
    for (std::size_t b = 0; b < bases; ++b) {
      const auto powers = powers_of(d, b);
      const int order = d.base_moves[b].order;
      const bool whole = std::find(kept.begin(), kept.end(), b) != kept.end();
      if (!whole && order % 2 == 0 && order > 2 && powers.count(order / 2)) {
        h.push_back(powers.at(order / 2));
        halved = true;
      } else {
        for (const auto& [p, m] : powers) h.push_back(m);
      }
    }
    if (!halved) continue;
    Phase reduce{"auto-reduce", orbit_pattern(d, h), {}, {}};
    Phase finish{"auto-solve", d.solved, h, {}};
    Definition reduce_def = d;
    reduce_def.solved = reduce.pattern;
    auto pos1 = positions_of(reduce_def, run);
    if (!pos1 || *pos1 <= 1) continue;
    auto pos2 = positions_of(phase_definition(d, finish), run);
    if (!pos2 || *pos2 <= 1 || *pos1 * *pos2 != *total) continue;
    const mpz_class score = std::max(*pos1, *pos2);
    if (!best || score < best_score) {
      std::string names;
      for (std::size_t b : kept) names += (names.empty() ? "" : ",") + d.base_moves[b].name;
      reduce.name = "reduce to <" + names + ", other half turns>";
      finish.name = "solve in <" + names + ", other half turns>";
      best = std::vector<Phase>{reduce, finish};
      best_score = score;
    }
  }
  return best;
}

// Step 2 of auto_phases: the piece chain.
std::vector<Phase> piece_chain(const Definition& d) {
  struct Unit {
    std::size_t set;
    std::uint8_t label;
    std::vector<std::uint8_t> slots;
  };
  // Step 1. The units: one per label of the Solved pattern, with its home slots.
  std::vector<Unit> units;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const SetState& solved = d.solved.sets[k];
    std::map<int, std::size_t> index;
    for (std::size_t j = 0; j < solved.perm.size(); ++j) {
      auto [it, fresh] = index.emplace(solved.perm[j], units.size());
      if (fresh) units.push_back({k, solved.perm[j], {}});
      units[it->second].slots.push_back(static_cast<std::uint8_t>(j));
    }
  }
  // Step 2. The base moves that move each unit's home slots.
  std::vector<std::vector<char>> moved_by(units.size(), std::vector<char>(d.base_moves.size(), 0));
  for (std::size_t u = 0; u < units.size(); ++u) {
    for (std::size_t b = 0; b < d.base_moves.size(); ++b) {
      const SetState& e = d.base_moves[b].effect.sets[units[u].set];
      for (std::uint8_t j : units[u].slots) {
        if (e.perm[j] != j || e.ori[j] % d.sets[units[u].set].orientations != 0) moved_by[u][b] = 1;
      }
    }
  }
  // A unit no move touches is always solved: it needs no phase.
  std::vector<char> done(units.size(), 0);
  for (std::size_t u = 0; u < units.size(); ++u) {
    done[u] = std::none_of(moved_by[u].begin(), moved_by[u].end(), [](char c) { return c; });
  }
  std::vector<Phase> phases;
  std::vector<std::size_t> solved_order;
  for (std::size_t u = 0; u < units.size(); ++u)
    if (done[u]) solved_order.push_back(u);
  // Step 3. Phase by phase: the units it adds, then its pattern.
  while (true) {
    std::vector<std::size_t> fresh;
    double arrangements = 1;
    std::vector<int> taken(d.sets.size(), 0);
    while (true) {
      // The next unit: the one sharing the most base moves with the pieces solved or being
      // solved (a growing block), the first in file order among equals.
      int best = -1, best_shared = -1;
      for (std::size_t u = 0; u < units.size(); ++u) {
        if (done[u]) continue;
        int shared = 0;
        for (std::size_t b = 0; b < d.base_moves.size(); ++b) {
          if (!moved_by[u][b]) continue;
          // done: the pieces solved before and those this phase already takes.
          bool near = false;
          for (std::size_t v = 0; v < units.size() && !near; ++v) near = done[v] && moved_by[v][b];
          shared += near ? 1 : 0;
        }
        if (shared > best_shared) {
          best = static_cast<int>(u);
          best_shared = shared;
        }
      }
      if (best < 0) break;
      const Unit& unit = units[static_cast<std::size_t>(best)];
      const int n = d.sets[unit.set].pieces;
      double more = 1;
      for (std::size_t c = 0; c < unit.slots.size(); ++c) {
        more *= static_cast<double>(n - taken[unit.set] - static_cast<int>(c));
        more *= d.sets[unit.set].orientations;
      }
      if (!fresh.empty() && arrangements * more > static_cast<double>(CHAIN_NEW_POSITIONS)) break;
      arrangements *= more;
      taken[unit.set] += static_cast<int>(unit.slots.size());
      fresh.push_back(static_cast<std::size_t>(best));
      done[static_cast<std::size_t>(best)] = 1;
    }
    if (fresh.empty()) break;
    // A set with one label left unplaced has it forced into the slots that remain: it joins
    // this phase rather than making a phase of its own.
    for (std::size_t k = 0; k < d.sets.size(); ++k) {
      std::vector<std::size_t> left;
      for (std::size_t u = 0; u < units.size(); ++u)
        if (!done[u] && units[u].set == k) left.push_back(u);
      if (left.size() == 1) {
        fresh.push_back(left.front());
        done[left.front()] = 1;
      }
    }
    // The pattern: new pieces numbered first, then the pieces solved before, then one number
    // for every other piece, whose orientation is ignored.
    Phase phase;
    phase.pattern = d.solved;
    std::vector<int> next(d.sets.size(), 0);
    std::vector<std::vector<int>> number(d.sets.size(), std::vector<int>(256, -1));
    auto give = [&](std::size_t u) { number[units[u].set][units[u].label] = next[units[u].set]++; };
    for (std::size_t u : fresh) give(u);
    for (std::size_t u : solved_order) give(u);
    std::string names;
    for (std::size_t u : fresh) {
      names += (names.empty() ? "" : " ") + d.sets[units[u].set].name + ":" +
               std::to_string(units[u].slots.front() + 1);
    }
    for (std::size_t k = 0; k < d.sets.size(); ++k) {
      SetState& s = phase.pattern.sets[k];
      for (std::size_t j = 0; j < s.perm.size(); ++j) {
        const int nb = number[k][d.solved.sets[k].perm[j]];
        if (nb >= 0) {
          s.perm[j] = static_cast<std::uint8_t>(nb);
        } else {
          s.perm[j] = static_cast<std::uint8_t>(next[k]);
          s.ori[j] = ORIENTATION_IGNORED;
        }
      }
    }
    solved_order.insert(solved_order.end(), fresh.begin(), fresh.end());
    phase.name = "pieces " + names;
    phases.push_back(std::move(phase));
  }
  return phases;
}

std::string moves_text(const Definition& d, const Phase& phase) {
  if (phase.only_sequences) return "none";
  const std::vector<std::size_t>& moves = phase.moves;
  if (moves.empty()) return "all";
  std::string out;
  for (std::size_t m : moves) out += (out.empty() ? "" : " ") + d.moves[m].name;
  return out;
}

// Whether a move's effect moves or twists slot j of set k.
bool touches_slot(const Definition& d, const State& effect, std::size_t k, std::size_t j) {
  const SetState& e = effect.sets[k];
  return e.perm[j] != j || e.ori[j] % d.sets[k].orientations != 0;
}

}  // namespace

std::vector<char> commuting_bases(const Definition& d) {
  const std::size_t n = d.base_moves.size();
  std::vector<char> out(n * n, 0);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      out[a * n + b] = a == b || commute(d, d.base_moves[a].effect, d.base_moves[b].effect);
    }
  }
  return out;
}

bool positions_are_elements(const Definition& d) {
  for (const SetState& s : d.solved.sets) {
    for (std::size_t j = 0; j < s.perm.size(); ++j) {
      if (s.perm[j] != j || s.ori[j] != 0) return false;
    }
  }
  return true;
}

State inverse_position(const Definition& d, const State& s) {
  State t = s;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const int o = d.sets[k].orientations;
    for (std::size_t i = 0; i < s.sets[k].perm.size(); ++i) {
      const std::uint8_t p = s.sets[k].perm[i];
      t.sets[k].perm[p] = static_cast<std::uint8_t>(i);
      t.sets[k].ori[p] = static_cast<std::uint8_t>((o - s.sets[k].ori[i] % o) % o);
    }
  }
  return t;
}

std::vector<std::size_t> merge_moves(const Definition& d, const std::vector<char>& commuting,
                                     const std::vector<std::size_t>& moves) {
  const std::size_t bases = d.base_moves.size();
  // The move of each (base, power): finish_definition gives every power 1..order-1.
  std::vector<std::vector<std::size_t>> of_power(bases);
  for (std::size_t m = 0; m < d.moves.size(); ++m) {
    auto& row = of_power[d.moves[m].base];
    const auto p = static_cast<std::size_t>(d.moves[m].power);
    if (row.size() <= p) row.resize(p + 1, d.moves.size());
    row[p] = m;
  }
  std::vector<std::size_t> out;
  for (std::size_t m : moves) {
    const std::size_t b = d.moves[m].base;
    bool merged = false;
    // Back over the moves that commute with m, to one of its own base.
    for (std::size_t i = out.size(); i > 0 && !merged; --i) {
      const std::size_t o = out[i - 1];
      const std::size_t ob = d.moves[o].base;
      if (ob == b) {
        const int power = (d.moves[o].power + d.moves[m].power) % d.base_moves[b].order;
        const auto p = static_cast<std::size_t>(power);
        if (power == 0) {
          out.erase(out.begin() + static_cast<std::ptrdiff_t>(i - 1));
          merged = true;
        } else if (p < of_power[b].size() && of_power[b][p] < d.moves.size()) {
          out[i - 1] = of_power[b][p];
          merged = true;
        }
        break;
      }
      if (commuting.empty() || !commuting[ob * bases + b]) break;
    }
    if (!merged) out.push_back(m);
  }
  return out;
}

std::vector<Phase> phases_from_specs(const Definition& d, const std::vector<PhaseSpec>& specs) {
  std::vector<Phase> out;
  for (const PhaseSpec& s : specs) out.push_back(s);
  if (out.empty() || !is_full_pattern(d, out.back().pattern)) {
    out.push_back({"solved", d.solved, {}, {}});
  }
  return out;
}

namespace {

// Step 2 of auto_phases: the block chain (file comment).
std::optional<std::vector<Phase>> block_chain(const Definition& d, const RunContext& run) {
  const std::size_t bases = d.base_moves.size();
  if (!positions_are_elements(d) || bases < 2 || bases > BLOCK_CHAIN_MAX_BASES) return std::nullopt;
  auto total = positions_of(d, run);
  if (!total) return std::nullopt;
  const std::size_t sets = d.sets.size();
  // Step 1. The slots each base move touches (moves or twists).
  std::vector<std::vector<std::vector<char>>> touches(bases);
  for (std::size_t b = 0; b < bases; ++b) {
    for (std::size_t k = 0; k < sets; ++k) {
      std::vector<char> t(d.solved.sets[k].perm.size(), 0);
      for (std::size_t j = 0; j < t.size(); ++j)
        t[j] = touches_slot(d, d.base_moves[b].effect, k, j);
      touches[b].push_back(std::move(t));
    }
  }
  auto touched = [&](const std::vector<char>& active, std::size_t k, std::size_t j) {
    for (std::size_t b = 0; b < bases; ++b)
      if (active[b] && touches[b][k][j]) return true;
    return false;
  };
  auto moves_of = [&](const std::vector<char>& active) {
    std::vector<std::size_t> out;
    for (std::size_t m = 0; m < d.moves.size(); ++m)
      if (active[d.moves[m].base]) out.push_back(m);
    return out;
  };
  // The pattern with the slots `mark` distinct (each its Solved piece) and every other slot one
  // identical piece whose orientation is ignored.
  auto pattern_of = [&](const std::vector<std::vector<char>>& mark) {
    State p = d.solved;
    for (std::size_t k = 0; k < sets; ++k) {
      std::uint8_t next = 0;
      for (std::size_t j = 0; j < mark[k].size(); ++j)
        if (mark[k][j]) p.sets[k].perm[j] = next++;
      for (std::size_t j = 0; j < mark[k].size(); ++j) {
        if (mark[k][j]) continue;
        p.sets[k].perm[j] = next;
        p.sets[k].ori[j] = ORIENTATION_IGNORED;
      }
    }
    return p;
  };
  std::vector<char> active(bases, 1);
  std::vector<std::vector<char>> placed(sets);
  for (std::size_t k = 0; k < sets; ++k) {
    placed[k].assign(d.solved.sets[k].perm.size(), 0);
    for (std::size_t j = 0; j < placed[k].size(); ++j) placed[k][j] = !touched(active, k, j);
  }
  std::vector<Phase> phases;
  while (true) {
    if (run.should_stop()) return std::nullopt;
    // Step 2. The rest in one phase when the active moves' group is small enough (it is the
    // whole stabiliser of the placed slots: checked when they became active).
    auto rest = positions_of(phase_definition(d, Phase{"", d.solved, moves_of(active), {}}), run);
    if (!rest) return std::nullopt;
    if (*rest <= BLOCK_CHAIN_POSITIONS) {
      phases.push_back({"block: the rest", d.solved, moves_of(active), {}});
      return phases;
    }
    // Step 3. Candidates: up to BLOCK_CHAIN_MAX_REMOVED active base moves to stop using; the
    // slots no remaining move touches must be solved in this phase (`fresh`).
    struct Candidate {
      std::vector<std::size_t> removed;
      std::vector<std::vector<char>> fresh;
      int count = 0;
      double arrangements = 1;
    };
    std::vector<std::size_t> on;
    for (std::size_t b = 0; b < bases; ++b)
      if (active[b]) on.push_back(b);
    std::vector<Candidate> candidates;
    std::vector<std::size_t> pick;
    std::function<void(std::size_t)> choose = [&](std::size_t from) {
      if (!pick.empty() && pick.size() < on.size()) {
        std::vector<char> after = active;
        for (std::size_t b : pick) after[b] = 0;
        Candidate c{pick, {}, 0, 1};
        for (const auto& row : placed) c.fresh.emplace_back(row.size(), 0);
        for (std::size_t k = 0; k < sets; ++k) {
          int free = 0, fresh = 0;
          for (std::size_t j = 0; j < placed[k].size(); ++j) {
            if (placed[k][j]) continue;
            ++free;
            const bool now = !touched(after, k, j);
            c.fresh[k][j] = now;
            fresh += now ? 1 : 0;
          }
          for (int f = 0; f < fresh; ++f)
            c.arrangements *= static_cast<double>((free - f) * d.sets[k].orientations);
          c.count += fresh;
        }
        if (c.count > 0 && c.arrangements <= static_cast<double>(BLOCK_CHAIN_POSITIONS))
          candidates.push_back(std::move(c));
      }
      if (pick.size() == BLOCK_CHAIN_MAX_REMOVED) return;
      for (std::size_t i = from; i < on.size(); ++i) {
        pick.push_back(on[i]);
        choose(i + 1);
        pick.pop_back();
      }
    };
    choose(0);
    // Most pieces placed first, then the smaller phase, then fewer moves given up.
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) {
                       if (a.count != b.count) return a.count > b.count;
                       if (a.arrangements != b.arrangements) return a.arrangements < b.arrangements;
                       return a.removed.size() < b.removed.size();
                     });
    // Step 4. The first candidate whose remaining moves generate the whole stabiliser of the
    // slots placed after it: |<remaining>| x positions(placed slots' pattern) = |G| (then every
    // later position is reachable with the remaining moves, and this phase is complete too).
    const Candidate* chosen = nullptr;
    std::vector<char> after;
    for (std::size_t c = 0; c < candidates.size() && c < BLOCK_CHAIN_CHECKS && !chosen; ++c) {
      if (run.should_stop()) return std::nullopt;
      after = active;
      for (std::size_t b : candidates[c].removed) after[b] = 0;
      std::vector<std::vector<char>> all = placed;
      for (std::size_t k = 0; k < sets; ++k)
        for (std::size_t j = 0; j < all[k].size(); ++j) all[k][j] |= candidates[c].fresh[k][j];
      Definition pd = d;
      pd.solved = pattern_of(all);
      auto orbit = positions_of(pd, run);
      auto order = positions_of(phase_definition(d, Phase{"", d.solved, moves_of(after), {}}), run);
      if (orbit && order && *orbit * *order == *total) chosen = &candidates[c];
    }
    if (!chosen) return std::nullopt;
    // Step 5. The phase: its fresh slots' pieces distinct, the rest identical, with the moves
    // active before the removal (the placed slots, untouched by them, are left out).
    std::string names;
    for (std::size_t k = 0; k < sets; ++k) {
      for (std::size_t j = 0; j < placed[k].size(); ++j) {
        if (chosen->fresh[k][j])
          names += (names.empty() ? "" : " ") + d.sets[k].name + ":" + std::to_string(j + 1);
      }
    }
    phases.push_back({"block: " + names, pattern_of(chosen->fresh), moves_of(active), {}});
    for (std::size_t k = 0; k < sets; ++k)
      for (std::size_t j = 0; j < placed[k].size(); ++j) placed[k][j] |= chosen->fresh[k][j];
    active = after;
  }
}

}  // namespace

Result<std::vector<Phase>> auto_phases(const Definition& d, const RunContext& run,
                                       const AutoPhaseOptions& options) {
  auto two = two_phase(d, run);
  if (run.should_stop()) return run.stop_error();
  if (two) return *two;
  auto blocks = block_chain(d, run);
  if (run.should_stop()) return run.stop_error();
  if (blocks) return *blocks;
  auto planned = planned_chain(d, options, run);
  if (!planned) return planned.error();
  if (*planned) return std::move(**planned);
  std::vector<Phase> chain = piece_chain(d);
  if (chain.empty()) chain.push_back({"solved", d.solved, {}, {}});
  return chain;
}

namespace {

// p's moves: only `allowed` (indices into d.moves).
void restrict_moves(const Definition& d, const std::vector<std::size_t>& allowed, Definition& p) {
  // Each base move with some allowed power becomes the subgroup its smallest allowed power
  // generates (a base move of the phase's own), and the allowed moves point at it.
  p.base_moves.clear();
  p.moves.clear();
  std::map<std::size_t, std::size_t> new_base;
  for (std::size_t b = 0; b < d.base_moves.size(); ++b) {
    int smallest = 0;
    std::size_t smallest_move = 0;
    for (std::size_t m : allowed) {
      if (d.moves[m].base != b) continue;
      if (smallest == 0 || d.moves[m].power < smallest) {
        smallest = d.moves[m].power;
        smallest_move = m;
      }
    }
    if (smallest == 0) continue;
    const int order = d.base_moves[b].order / std::gcd(d.base_moves[b].order, smallest);
    new_base[b] = p.base_moves.size();
    p.base_moves.push_back({d.moves[smallest_move].name, order, d.moves[smallest_move].effect});
  }
  for (std::size_t m = 0; m < d.moves.size(); ++m) {
    if (std::find(allowed.begin(), allowed.end(), m) == allowed.end()) continue;
    Move mv = d.moves[m];
    mv.base = new_base.at(mv.base);
    p.moves.push_back(std::move(mv));
  }
}

// The parity (0 even, 1 odd) of `s` against `reference` on the sets of `sets` together (pieces
// distinct in `reference`, as the reader checks for a `Parity` line): each set's arrangement
// parity (compiled.hpp) against the reference's, as group_facts counts it. A move's effect
// against the identity is the parity of the move itself.
int permutation_parity(const State& s, const State& reference,
                       const std::vector<std::size_t>& sets) {
  int parity = 0;
  for (std::size_t k : sets) {
    parity ^= arrangement_parity(s.sets[k].perm) ^ arrangement_parity(reference.sets[k].perm);
  }
  return parity;
}

// A parity set's part of a state: its two pieces swapped when the parity is odd.
SetState parity_set_state(int parity) {
  return parity != 0 ? SetState{{1, 0}, {0, 0}} : SetState{{0, 1}, {0, 0}};
}

// The sets' names joined by `separator`.
std::string set_names(const Definition& d, const std::vector<std::size_t>& sets,
                      std::string_view separator) {
  std::string names;
  for (std::size_t k : sets)
    names += (names.empty() ? "" : std::string(separator)) + d.sets[k].name;
  return names;
}

std::string parity_set_name(const Definition& d, const std::vector<std::size_t>& sets) {
  return "parity(" + set_names(d, sets, "+") + ")";
}

// The phase's definition before the slots its moves never touch are left out.
Definition phase_definition_whole(const Definition& d, const Phase& phase) {
  Definition p = d;
  p.solved = phase.pattern;
  p.rotations.clear();
  p.aliases.clear();
  if (phase.only_sequences) {
    p.base_moves.clear();
    p.moves.clear();
  } else if (!phase.moves.empty()) {
    restrict_moves(d, phase.moves, p);
  }
  // Each sequence: a base move of its own, every power a search move (named as
  // finish_definition names a base move's powers).
  for (const PhaseSequence& seq : phase.sequences) {
    const std::size_t base = p.base_moves.size();
    p.base_moves.push_back({seq.name, seq.order, seq.effect});
    State power = seq.effect;
    for (int k = 1; k < seq.order; ++k) {
      Move m;
      m.base = base;
      m.power = k;
      m.qtm_cost = std::min(k, seq.order - k);
      // In the half-turn metric a power costs the puzzle's moves it is played as (merged where
      // the sequence's end meets its start), so the phase's search minimises moves, not
      // sequences (its tables are built at these costs: solver.hpp).
      m.htm_cost = std::max<int>(
          1, static_cast<int>(merge_moves(d, {}, sequence_power_moves(seq, k)).size()));
      m.name = power_name(seq.name, k, seq.order);
      m.effect = power;
      p.moves.push_back(std::move(m));
      power = apply(d, power, seq.effect);
    }
  }
  // Each `Parity` line: a set of two pieces after the puzzle's, solved as 1 2, that every move
  // odd on the line's sets swaps (Phase::parity). Effects above are in the puzzle's sets.
  const State identity = d.identity();
  for (const std::vector<std::size_t>& line : phase.parity) {
    if (p.illegal.size() == p.sets.size()) p.illegal.emplace_back(2);  // (no piece illegal)
    p.sets.push_back({parity_set_name(d, line), 2, 1});
    p.solved.sets.push_back(parity_set_state(0));
    for (BaseMove& b : p.base_moves) {
      b.effect.sets.push_back(parity_set_state(permutation_parity(b.effect, identity, line)));
    }
    for (Move& m : p.moves) {
      m.effect.sets.push_back(parity_set_state(permutation_parity(m.effect, identity, line)));
    }
  }
  return p;
}

KeptSlots kept_slots(const Definition& whole) {
  KeptSlots out;
  for (std::size_t k = 0; k < whole.sets.size(); ++k) {
    const int n = whole.sets[k].pieces;
    const int o = whole.sets[k].orientations;
    const SetState& pattern = whole.solved.sets[k];
    // S (the file comment): every slot at first, then those a move breaks taken out until none is.
    std::vector<char> stays(static_cast<std::size_t>(n), 1);
    for (bool changed = true; changed;) {
      changed = false;
      for (const Move& m : whole.moves) {
        const SetState& e = m.effect.sets[k];
        for (std::size_t j = 0; j < stays.size(); ++j) {
          if (!stays[j]) continue;
          const std::uint8_t from = e.perm[j];
          const std::uint8_t want = pattern.ori[j];
          const bool ori_ok =
              want == ORIENTATION_IGNORED || (pattern.ori[from] != ORIENTATION_IGNORED &&
                                              (pattern.ori[from] + e.ori[j]) % o == want % o);
          if (!stays[from] || pattern.perm[from] != pattern.perm[j] || !ori_ok) {
            stays[j] = 0;
            changed = true;
          }
        }
      }
    }
    std::vector<std::uint8_t> kept;
    for (int j = 0; j < n; ++j)
      if (!stays[static_cast<std::size_t>(j)]) kept.push_back(static_cast<std::uint8_t>(j));
    if (kept.size() != static_cast<std::size_t>(n)) out.all = false;
    std::vector<char> used(256, 0);
    for (std::uint8_t j : kept) used[whole.solved.sets[k].perm[j]] = 1;
    std::vector<std::uint8_t> number(256, 255);
    int next = 0;
    for (int v = 0; v < 256; ++v) {
      if (used[static_cast<std::size_t>(v)])
        number[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(next++);
    }
    out.kept.push_back(std::move(kept));
    out.number.push_back(std::move(number));
  }
  return out;
}

// A state of the whole phase definition restricted to the kept slots (pattern numbers made
// compact); sets with no kept slot are left out.
State restrict_state(const KeptSlots& ks, const State& s) {
  State out;
  for (std::size_t k = 0; k < s.sets.size(); ++k) {
    if (ks.kept[k].empty()) continue;
    SetState r;
    for (std::uint8_t j : ks.kept[k]) {
      r.perm.push_back(ks.number[k][s.sets[k].perm[j]]);
      r.ori.push_back(s.sets[k].ori[j]);
    }
    out.sets.push_back(std::move(r));
  }
  return out;
}

// A move's effect restricted to the kept slots: slot positions renumbered (the kept slots of a
// set are closed under every phase move, a permutation never sending a touched slot to an
// untouched one).
State restrict_effect(const KeptSlots& ks, const State& e) {
  State out;
  for (std::size_t k = 0; k < e.sets.size(); ++k) {
    if (ks.kept[k].empty()) continue;
    std::vector<std::uint8_t> index(256, 0);
    for (std::size_t i = 0; i < ks.kept[k].size(); ++i)
      index[ks.kept[k][i]] = static_cast<std::uint8_t>(i);
    SetState r;
    for (std::uint8_t j : ks.kept[k]) {
      r.perm.push_back(index[e.sets[k].perm[j]]);
      r.ori.push_back(e.sets[k].ori[j]);
    }
    out.sets.push_back(std::move(r));
  }
  return out;
}

}  // namespace

Definition phase_definition(const Definition& d, const Phase& phase) {
  Definition whole = phase_definition_whole(d, phase);
  const KeptSlots ks = kept_slots(whole);
  if (ks.all) return whole;
  Definition p = whole;
  p.sets.clear();
  p.illegal.clear();
  for (std::size_t k = 0; k < whole.sets.size(); ++k) {
    if (ks.kept[k].empty()) continue;
    PieceSet set = whole.sets[k];
    set.pieces = static_cast<int>(ks.kept[k].size());
    p.sets.push_back(set);
    std::vector<std::vector<std::uint8_t>> illegal;
    if (k < whole.illegal.size()) {
      for (std::uint8_t j : ks.kept[k]) illegal.push_back(whole.illegal[k][j]);
    }
    p.illegal.push_back(std::move(illegal));
  }
  p.solved = restrict_state(ks, whole.solved);
  // Moves are restricted to the kept slots; a move (or a power of one) that changes none of them
  // only moves pieces among slots the pattern has the same (KeptSlots): it is no move of the
  // phase's puzzle (no solution of it plays one), and left out.
  const State identity = p.identity();
  p.base_moves.clear();
  p.moves.clear();
  std::vector<std::size_t> base_of(whole.base_moves.size(), whole.base_moves.size());
  for (std::size_t b = 0; b < whole.base_moves.size(); ++b) {
    BaseMove base = whole.base_moves[b];
    base.effect = restrict_effect(ks, base.effect);
    if (base.effect == identity) continue;
    base_of[b] = p.base_moves.size();
    p.base_moves.push_back(std::move(base));
  }
  for (const Move& whole_move : whole.moves) {
    if (base_of[whole_move.base] == whole.base_moves.size()) continue;
    Move m = whole_move;
    m.base = base_of[whole_move.base];
    m.effect = restrict_effect(ks, m.effect);
    if (m.effect != identity) p.moves.push_back(std::move(m));
  }
  return p;
}

// A phase's label maps and kept slots (project_state), from its pattern and moves.
struct PhaseProjection {
  std::vector<LabelMap> maps;
  KeptSlots ks;
};

namespace {

PhaseProjection make_projection(const Definition& d, const Phase& phase) {
  return {label_maps(d, phase.pattern), kept_slots(phase_definition_whole(d, phase))};
}

Result<State> project_with(const Definition& d, const Phase& phase, const PhaseProjection& pr,
                           const State& position) {
  const std::vector<LabelMap>& maps = pr.maps;
  const KeptSlots& ks = pr.ks;
  State out = position;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    SetState& s = out.sets[k];
    for (std::size_t j = 0; j < s.perm.size(); ++j) {
      const std::uint8_t label = position.sets[k].perm[j];
      s.perm[j] = maps[k].number[label];
      if (maps[k].ignored[label]) s.ori[j] = ORIENTATION_IGNORED;
    }
  }
  // The parity sets (phase_definition_whole): the position's parities, before the pattern
  // forgets which piece is which.
  for (const std::vector<std::size_t>& line : phase.parity) {
    out.sets.push_back(parity_set_state(permutation_parity(position, d.solved, line)));
  }
  if (ks.all) return out;
  // The slots the phase's moves never touch must already hold what its pattern wants (a
  // parity set that no phase move changes: the parity even already).
  for (std::size_t k = 0; k < out.sets.size(); ++k) {
    if (k >= d.sets.size()) {
      if (ks.kept[k].empty() && !(out.sets[k] == parity_set_state(0))) {
        return make_error(
            fmt::format("phase {}: the permutation of {} is odd and none of the "
                        "phase's moves changes its parity",
                        phase.name, parity_set_name(d, phase.parity[k - d.sets.size()])),
            {}, Error::NO_POSITION, ErrorKind::Unsolvable);
      }
      continue;
    }
    const SetState& want = phase.pattern.sets[k];
    std::size_t next_kept = 0;
    for (std::size_t j = 0; j < want.perm.size(); ++j) {
      if (next_kept < ks.kept[k].size() && ks.kept[k][next_kept] == j) {
        ++next_kept;
        continue;
      }
      const bool ori_ok = want.ori[j] == ORIENTATION_IGNORED || out.sets[k].ori[j] == want.ori[j];
      if (out.sets[k].perm[j] != want.perm[j] || !ori_ok) {
        return make_error(fmt::format("phase {}: slot {} of {} is not as the phase's pattern wants "
                                      "and none of the phase's moves changes it",
                                      phase.name, j + 1, d.sets[k].name),
                          {}, Error::NO_POSITION, ErrorKind::Unsolvable);
      }
    }
  }
  return restrict_state(ks, out);
}

}  // namespace

Result<State> project_state(const Definition& d, const Phase& phase, const State& position) {
  return project_with(d, phase, make_projection(d, phase), position);
}

namespace {

// together_groups with the phase's kept slots already worked out (PhasedSolver::create has
// them in the phase's projection).
Result<std::vector<TogetherGroup>> together_groups_kept(const Definition& d, const Phase& phase,
                                                        const KeptSlots& ks,
                                                        const RunContext& run) {
  std::vector<TogetherGroup> out;
  if (phase.together.empty()) return out;
  // Step 1. Where each slot's piece goes under each block: the inverse of the block's effect
  // sends slot s to the slot i that reads it, with the opposite of the turn it gets there.
  std::vector<State> images;
  for (const BlockGenerator& generator : phase.blocks) {
    images.push_back(inverse_position(d, generator.effect));
  }
  // The phase puzzle's set index of each set (sets with no kept slot are left out) and slot
  // index of each kept slot.
  std::vector<std::size_t> set_index(d.sets.size(), d.sets.size());
  std::vector<std::vector<int>> slot_index(d.sets.size());
  for (std::size_t k = 0, next = 0; k < d.sets.size(); ++k) {
    slot_index[k].assign(static_cast<std::size_t>(d.sets[k].pieces), -1);
    if (ks.kept[k].empty()) continue;
    set_index[k] = next++;
    for (std::size_t i = 0; i < ks.kept[k].size(); ++i)
      slot_index[k][ks.kept[k][i]] = static_cast<int>(i);
  }
  for (const auto& group : phase.together) {
    // Step 2. The places: breadth-first over the tuples (slot and orientation per piece).
    using Tuple = std::vector<TogetherGroup::Spot>;
    Tuple home;
    for (const SlotRef& p : group) {
      const std::uint8_t o = d.solved.sets[p.set].ori[p.slot];
      home.push_back({p.slot, o == ORIENTATION_IGNORED ? std::uint8_t{0} : o});
    }
    std::vector<Tuple> places = {home};
    std::set<Tuple> seen = {home};
    for (std::size_t i = 0; i < places.size(); ++i) {
      if ((i & 1023) == 0 && run.should_stop()) return run.stop_error();
      for (const State& image : images) {
        Tuple next = places[i];
        for (std::size_t k = 0; k < group.size(); ++k) {
          const SetState& to = image.sets[group[k].set];
          const int o = d.sets[group[k].set].orientations;
          next[k].ori = static_cast<std::uint8_t>((next[k].ori + o - to.ori[next[k].slot]) % o);
          next[k].slot = to.perm[next[k].slot];
        }
        if (seen.insert(next).second) {
          if (places.size() >= MAX_TOGETHER_PLACES) {
            return make_error(fmt::format("phase {}: a together group has more than {} places "
                                          "under its Blocks moves: expected fewer pieces or "
                                          "block moves that keep them closer",
                                          phase.name, MAX_TOGETHER_PLACES),
                              {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
          }
          places.push_back(std::move(next));
        }
      }
    }
    // Step 3. In the phase puzzle's terms: pieces whose home is left out stay out (they stay
    // home), places through a slot left out are never reached.
    TogetherGroup t;
    for (std::size_t k = 0; k < group.size(); ++k) {
      if (slot_index[group[k].set][group[k].slot] < 0) continue;
      t.pieces.push_back({set_index[group[k].set],
                          static_cast<std::uint8_t>(slot_index[group[k].set][group[k].slot])});
    }
    if (t.pieces.empty()) continue;
    for (const Tuple& place : places) {
      Tuple mapped;
      bool fixed_home = true;
      for (std::size_t k = 0; k < group.size(); ++k) {
        const int j = slot_index[group[k].set][place[k].slot];
        const bool kept = slot_index[group[k].set][group[k].slot] >= 0;
        if (!kept) {
          fixed_home &= place[k].slot == group[k].slot;
          continue;
        }
        if (j < 0) break;
        mapped.push_back({static_cast<std::uint8_t>(j), place[k].ori});
      }
      if (mapped.size() == t.pieces.size() && fixed_home) t.places.push_back(std::move(mapped));
    }
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

Result<std::vector<TogetherGroup>> together_groups(const Definition& d, const Phase& phase,
                                                   const RunContext& run) {
  return together_groups_kept(d, phase, kept_slots(phase_definition_whole(d, phase)), run);
}

std::string phase_pattern_text(const Definition& d, const Phase& phase) {
  return format_state_body(d, phase.pattern);
}

std::string format_phase_file(const Definition& d, const std::vector<Phase>& phases,
                              const std::vector<std::string>& comment) {
  std::string out;
  for (const std::string& line : comment) out += "# " + line + "\n";
  for (const Phase& phase : phases) {
    // `Phase NAME` takes one token.
    std::string name = phase.name;
    for (char& c : name)
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') c = '-';
    if (name.empty()) name = "phase";
    out += "\nPhase " + name + "\n";
    if (phase.only_sequences) {
      out += "Moves\n";
    } else if (!phase.moves.empty()) {
      out += "Moves " + moves_text(d, phase) + "\n";
    }
    for (const PhaseSequence& q : phase.sequences)
      out += "Sequence " + q.name + " " + move_sequence_text(d, q.moves) + "\n";
    for (const BlockGenerator& generator : phase.blocks) out += "Blocks " + generator.text + "\n";
    for (const auto& group : phase.together) out += "Together " + together_text(d, group) + "\n";
    for (const auto& line : phase.parity) out += "Parity " + parity_text(d, line) + "\n";
    out += format_state_body(d, phase.pattern);
    out += "End\n";
  }
  return out;
}

std::string together_text(const Definition& d, const std::vector<SlotRef>& group) {
  std::string out;
  std::size_t set = d.sets.size();
  for (const SlotRef& p : group) {
    if (p.set != set) out += (out.empty() ? "" : " ") + d.sets[p.set].name;
    set = p.set;
    out += " " + std::to_string(p.slot + 1);
  }
  return out;
}

std::string parity_text(const Definition& d, const std::vector<std::size_t>& sets) {
  return set_names(d, sets, " ");
}

std::vector<PhaseSize> phase_sizes(const Definition& d, const std::vector<Phase>& phases,
                                   const RunContext& run) {
  std::vector<PhaseSize> out;
  for (const Phase& phase : phases) {
    PhaseSize s;
    s.name = phase.name;
    s.moves = moves_text(d, phase);
    for (const PhaseSequence& q : phase.sequences) s.moves += " [" + q.name + "]";
    const Definition pd = phase_definition(d, phase);
    if (nothing_to_search(pd)) {  // one position
      s.positions = "1";
      s.rank_space = 1;
      out.push_back(std::move(s));
      continue;
    }
    auto facts = group_facts(pd, run);
    if (facts) {
      s.positions = facts->positions.get_str();
    } else {
      s.refused = facts.error().message;
    }
    CompileOptions co;
    co.max_table_bytes = 0;
    co.require_ranks = false;
    auto c = CompiledPuzzle::compile(pd, co, run);
    if (c) s.rank_space = c->states();
    out.push_back(std::move(s));
  }
  return out;
}

Result<std::shared_ptr<PhasedSolver>> PhasedSolver::create(const Definition& d,
                                                           std::vector<Phase> phases,
                                                           const PhaseOptions& options,
                                                           TableStore& tables,
                                                           const RunContext& run) {
  auto solver = std::make_shared<PhasedSolver>();
  solver->def_ = std::make_shared<const Definition>(d);
  solver->options_ = options;
  const std::uint64_t share = std::min<std::uint64_t>(
      PHASE_MEMORY_CAP,
      std::max<std::uint64_t>(options.memory_bytes / std::max<std::size_t>(phases.size(), 1),
                              std::uint64_t{1} << 20));
  // Quarter-turn tables are built with the moves of cost 1 (solver.hpp): a phase that allows a
  // base move only by powers of larger cost (R2 without R) would get tables that never reach
  // its positions, so it is refused rather than searched without a bound.
  if (options.metric == Metric::Qtm) {
    for (std::size_t k = 0; k < phases.size(); ++k) {
      for (std::size_t m : phases[k].moves) {
        const bool quarter =
            std::any_of(phases[k].moves.begin(), phases[k].moves.end(), [&](std::size_t x) {
              return d.moves[x].base == d.moves[m].base && d.moves[x].qtm_cost == 1;
            });
        if (!quarter) {
          return make_error(
              fmt::format("phase {} ({}) allows {} but no power of cost 1 of its base move: "
                          "the quarter-turn metric cannot solve it; use --metric htm",
                          k + 1, phases[k].name, d.moves[m].name),
              {}, Error::NO_POSITION, ErrorKind::InvalidInput);
        }
      }
    }
  }
  for (std::size_t k = 0; k < phases.size(); ++k) {
    DefSolveOptions o;
    o.metric = options.metric;
    o.memory_bytes = share;
    o.max_length = options.max_length;
    o.accept_non_optimal = options.accept_non_optimal;
    // The default cap counts search moves; a sequence now costs its moves (a cap the caller gave
    // with accept_non_optimal is a length in moves and stays as it is).
    if (!options.accept_non_optimal) {
      for (const PhaseSequence& seq : phases[k].sequences)
        o.max_length = std::max<int>(
            o.max_length, options.max_length * static_cast<int>(std::max<std::size_t>(
                                                   seq.moves.size(), seq.inverse.size())));
    }
    // The last phase's optimal solutions (without sequences) have one length: they differ only
    // in how their first moves merge with the moves before, not worth enumerating them.
    const bool last_plain = k + 1 == phases.size() && phases[k].sequences.empty();
    if (options.branch > 1 && !options.accept_non_optimal && !last_plain) {
      o.all_optimal = true;
      // With a slack, more solutions than the branch: the solver's order mixes lengths, and
      // solve() keeps the `branch` best of them by length + the next phase's bound.
      o.max_solutions =
          static_cast<std::size_t>(options.branch) * (options.slack > 0 ? SLACK_EXAMINE_FACTOR : 1);
      o.slack = options.slack;
    }
    const Definition phase_puzzle = phase_definition(d, phases[k]);
    // A phase whose moves cannot change its pattern (a pattern of identical pieces,
    // orientations ignored): its projection checks that the position already has it.
    if (nothing_to_search(phase_puzzle)) {
      solver->solvers_.push_back(nullptr);
      solver->projections_.push_back(
          std::make_shared<const PhaseProjection>(make_projection(d, phases[k])));
      continue;
    }
    auto projection = std::make_shared<const PhaseProjection>(make_projection(d, phases[k]));
    auto together = together_groups_kept(d, phases[k], projection->ks, run);
    if (!together) {
      Error e = together.error();
      e.message = fmt::format("phase {} ({}): {}", k + 1, phases[k].name, e.message);
      return e;
    }
    o.together = std::move(*together);
    // The parity sets a phase move changes come last in the phase's puzzle (phase_definition).
    const std::size_t parity_sets = static_cast<std::size_t>(
        std::count_if(projection->ks.kept.begin() + static_cast<std::ptrdiff_t>(d.sets.size()),
                      projection->ks.kept.end(), [](const auto& kept) { return !kept.empty(); }));
    for (std::size_t k = phase_puzzle.sets.size() - parity_sets; k < phase_puzzle.sets.size(); ++k)
      o.every_table_sets.push_back(k);
    auto s = DefSolver::create(phase_puzzle, o, tables, run);
    if (!s) {
      Error e = s.error();
      e.message = fmt::format("phase {} ({}): {}", k + 1, phases[k].name, e.message);
      return e;
    }
    solver->solvers_.push_back(std::move(*s));
    solver->projections_.push_back(std::move(projection));
  }
  solver->phases_ = std::move(phases);
  solver->commuting_ = commuting_bases(d);
  return solver;
}

std::vector<std::vector<PdbInfo>> PhasedSolver::tables() const {
  std::vector<std::vector<PdbInfo>> out;
  for (const auto& s : solvers_) out.push_back(s ? s->tables() : std::vector<PdbInfo>{});
  return out;
}

namespace {

// A search move of the phase's puzzle (by name) as the puzzle's moves.
Result<std::vector<std::size_t>> expand_phase_move(const Definition& d, const Phase& phase,
                                                   const std::string& name) {
  for (const PhaseSequence& seq : phase.sequences) {
    for (int k = 1; k < seq.order; ++k) {
      if (power_name(seq.name, k, seq.order) == name) return sequence_power_moves(seq, k);
    }
  }
  auto m = d.find_move(name);
  if (!m) {
    return make_error("phase move '" + name + "' is not a move of the puzzle (internal)", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  return std::vector<std::size_t>{*m};
}

}  // namespace

Result<PhasedSolution> PhasedSolver::solve(const State& start, const RunContext& run) const {
  const Definition& d = *def_;
  Stopwatch clock;
  // A partial solution: the position it reached, its moves and phases so far, and its rank
  // (length so far + the next phase's lower bound).
  struct Partial {
    State position;
    PhasedSolution solution;
    int score = 0;
  };
  std::vector<Partial> beam{{start, {}, 0}};
  // The inverse start: its solution, inverted, solves `start` (see PhaseOptions::inverse).
  if (options_.inverse && positions_are_elements(d)) {
    Partial inv{inverse_position(d, start), {}, 0};
    inv.solution.inverse = true;
    beam.push_back(std::move(inv));
  }
  // A move sequence's length in the metric.
  auto length_in = [&](const std::vector<std::size_t>& moves) {
    int n = 0;
    for (std::size_t m : moves) n += options_.metric == Metric::Htm ? 1 : d.moves[m].qtm_cost;
    return n;
  };
  const std::size_t width = static_cast<std::size_t>(std::max(1, options_.beam_width));
  const std::size_t branch = static_cast<std::size_t>(std::max(1, options_.branch));
  for (std::size_t k = 0; k < phases_.size(); ++k) {
    // A partial's score: its length + the next phase's lower bound (none after the last).
    auto rank = [&](Partial& p) -> Status {
      p.score = p.solution.length;
      if (k + 1 == phases_.size()) return Ok{};
      auto projected = project_with(d, phases_[k + 1], *projections_[k + 1], p.position);
      if (!projected) return projected.error();
      if (!solvers_[k + 1]) return Ok{};  // (nothing to search: no moves)
      auto bound = solvers_[k + 1]->lower_bound(*projected);
      if (!bound) return bound.error();
      p.score += *bound;
      return Ok{};
    };
    auto by_score = [](const Partial& a, const Partial& b) { return a.score < b.score; };
    std::vector<Partial> next;
    for (const Partial& from : beam) {
      if (run.should_stop()) return run.stop_error();
      // Step 1. This phase's position, solved optimally for its pattern (up to `branch`
      // solutions).
      auto projected = project_with(d, phases_[k], *projections_[k], from.position);
      if (!projected) return projected.error();
      if (!solvers_[k]) {  // nothing to search: the projection found the pattern there
        Partial p{from.position, from.solution, 0};
        PhaseReport rep;
        rep.pattern = phases_[k].name;
        rep.optimal = true;
        p.solution.phases.push_back(std::move(rep));
        p.score = p.solution.length;
        next.push_back(std::move(p));
        continue;
      }
      auto r = solvers_[k]->solve(*projected, run);
      if (!r) {
        Error e = r.error();
        e.message = fmt::format("phase {} ({}): {}", k + 1, phases_[k].name, e.message);
        return e;
      }
      std::vector<Partial> local;
      for (const DefSolution& sol : *r) {
        // Step 2. The same moves on the whole puzzle: the next phase starts there.
        // (A sequence's power stands for the puzzle's moves it is made of.)
        std::vector<std::size_t> seq;
        for (const std::string& name : sol.moves) {
          auto expanded = expand_phase_move(d, phases_[k], name);
          if (!expanded) return expanded.error();
          seq.insert(seq.end(), expanded->begin(), expanded->end());
        }
        Partial p{replay(d, from.position, seq), from.solution, 0};
        PhaseReport rep;
        rep.pattern = phases_[k].name;
        for (std::size_t m : seq) rep.moves.push_back(d.moves[m].name);
        rep.length = length_in(seq);
        // Optimal in the phase's search moves; with sequences that is not in the puzzle's.
        rep.optimal = sol.optimal && phases_[k].sequences.empty();
        rep.seconds = sol.seconds;
        // The moves so far, merged across the phase boundary (a phase ending with R and the
        // next starting with R2 make one R'), and their length in the metric.
        p.solution.move_indices.insert(p.solution.move_indices.end(), seq.begin(), seq.end());
        p.solution.move_indices = merge_moves(d, commuting_, p.solution.move_indices);
        p.solution.length = length_in(p.solution.move_indices);
        p.solution.phases.push_back(std::move(rep));
        p.score = p.solution.length;
        local.push_back(std::move(p));
      }
      // With a slack the phase gave more solutions than the branch: the `branch` best by score.
      if (local.size() > branch) {
        for (Partial& p : local) {
          if (auto ok = rank(p); !ok) return ok.error();
        }
        std::stable_sort(local.begin(), local.end(), by_score);
        local.resize(branch);
      }
      for (Partial& p : local) next.push_back(std::move(p));
    }
    // Step 3. The beam: distinct positions, the cheaper path of two to one position, ranked by
    // length so far + the next phase's bound (stable: the search's order among equals).
    std::stable_sort(next.begin(), next.end(), [](const Partial& a, const Partial& b) {
      return a.solution.length < b.solution.length;
    });
    std::vector<Partial> kept;
    for (Partial& p : next) {
      const bool seen = std::any_of(kept.begin(), kept.end(), [&](const Partial& q) {
        return q.position == p.position && q.solution.inverse == p.solution.inverse;
      });
      if (!seen) kept.push_back(std::move(p));
    }
    if (kept.size() > width) {
      for (Partial& p : kept) {
        if (auto ok = rank(p); !ok) return ok.error();
      }
      std::stable_sort(kept.begin(), kept.end(), by_score);
    }
    if (kept.size() > width) kept.resize(width);
    beam = std::move(kept);
  }
  PhasedSolution out = std::move(beam.front().solution);
  if (out.inverse) {
    auto undo = inverse_sequence(d, out.move_indices);
    if (!undo) return undo.error();
    out.move_indices = std::move(*undo);
  }
  for (std::size_t m : out.move_indices) out.moves.push_back(d.moves[m].name);
  // Step 4. The whole sequence replayed from the start must reach the Solved pattern.
  if (replay(d, start, out.move_indices) != d.solved) {
    return make_error("phased solution failed verification by replay (internal error)", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  out.seconds = clock.seconds();
  return out;
}

}  // namespace permuzzle::def
