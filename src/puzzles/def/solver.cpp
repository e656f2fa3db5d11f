#include "permuzzle/puzzles/def/solver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <thread>

#include "core/huge_pages.hpp"
#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/ranking.hpp"
#include "permuzzle/core/table_cache.hpp"
#include "permuzzle/puzzles/def/bfs.hpp"
#include "permuzzle/puzzles/def/group_facts.hpp"
#include "permuzzle/search/bfs.hpp"
#include "permuzzle/search/canonical.hpp"
#include "permuzzle/search/ida.hpp"

namespace permuzzle::def {

// The together groups (TogetherGroup) in the compiled puzzle's terms. A position is at the goal
// when every compiled group without a together piece is as solved, and each together group's
// pieces sit at one of its places (the other pieces of their compiled groups are free).
struct DefSolver::Goal {
  struct Group {
    std::vector<std::size_t> group;   // per piece: its compiled group
    std::vector<std::uint8_t> label;  // per piece: its label there (one piece has it)
    std::vector<char> ignore_ori;     // per piece: the pattern ignores its orientation
    // [place][piece]: group slot and orientation; and the places by their first piece's group
    // slot (by_first[slot] = the places' indices).
    std::vector<std::vector<TogetherGroup::Spot>> places;
    std::vector<std::vector<std::uint32_t>> by_first;
  };
  std::vector<Group> groups;
  std::vector<char> free_group;  // [compiled group]: holds together pieces
  // [compiled group]: its group slots whose one piece (neither together nor free) must be home,
  // each with whether its orientation counts (not '?').
  std::vector<std::vector<std::pair<std::uint8_t, bool>>> fixed;
  std::string key;  // names the groups and places in the tables' keys

  // Where a piece is: its group slot (the label is one piece's).
  static std::size_t slot_of(const GroupState& s, std::uint8_t label) {
    return static_cast<std::size_t>(std::find(s.labels.begin(), s.labels.end(), label) -
                                    s.labels.begin());
  }
  // At the goal: `solved` itself without together groups (goal null), else reached().
  static bool at(const Goal* goal, const Position& pos, const Position& solved) {
    return goal == nullptr ? pos == solved : goal->reached(pos, solved);
  }
  bool reached(const Position& pos, const Position& solved) const {
    for (std::size_t gi = 0; gi < pos.size(); ++gi) {
      if (!free_group[gi]) {
        if (!(pos[gi] == solved[gi])) return false;
        continue;
      }
      for (const auto& [j, with_ori] : fixed[gi]) {
        if (pos[gi].labels[j] != solved[gi].labels[j] ||
            (with_ori && pos[gi].ori[j] != solved[gi].ori[j])) {
          return false;
        }
      }
    }
    for (const Group& g : groups) {
      const std::size_t first = slot_of(pos[g.group[0]], g.label[0]);
      bool any = false;
      for (std::uint32_t p : g.by_first[first]) {
        bool all = true;
        for (std::size_t k = 0; k < g.label.size() && all; ++k) {
          const GroupState& s = pos[g.group[k]];
          const std::size_t j = k == 0 ? first : slot_of(s, g.label[k]);
          const TogetherGroup::Spot& want = g.places[p][k];
          all = j == want.slot && (g.ignore_ori[k] || s.ori[j] == want.ori);
        }
        if (all) {
          any = true;
          break;
        }
      }
      if (!any) return false;
    }
    return true;
  }
};

namespace {

constexpr std::uint32_t PDB_FORMAT = 1;
// A database's goal positions (the together groups' places, projected) are at most this many.
constexpr std::uint64_t MAX_GOAL_RANKS = std::uint64_t{1} << 22;
// The quick pass's node budget (see DefSolver::solve): seconds at most.
constexpr std::uint64_t QUICK_NODES = 1'000'000;
constexpr int QUICK_WEIGHT = 3;  // f = g + 3h

// A piece unit: one label of one group of the full puzzle (all copies of identical pieces).
struct PieceUnit {
  std::size_t group;
  int label;
  // The planner keeps a chunk's units in one table when they fit: a group's labels, or a
  // together group's pieces.
  std::size_t chunk;
};

// The definition with only the tracked labels kept: every other piece of a set becomes one
// value (the smallest untracked one) with its orientation ignored.
Definition project(const Definition& d, const CompiledPuzzle& full,
                   const std::vector<std::vector<char>>& tracked) {
  Definition p = d;
  p.solved = full_solved(d);
  for (std::size_t s = 0; s < d.sets.size(); ++s) {
    int blank = -1;
    for (std::size_t gi = 0; gi < full.groups().size(); ++gi) {
      const PieceGroup& g = full.groups()[gi];
      if (g.set != s) continue;
      for (int j = 0; j < g.size(); ++j) {
        const std::uint8_t l = g.solved_labels[static_cast<std::size_t>(j)];
        if (!tracked[gi][l] && (blank < 0 || g.label_value[l] < blank)) blank = g.label_value[l];
      }
    }
    for (std::size_t gi = 0; gi < full.groups().size(); ++gi) {
      const PieceGroup& g = full.groups()[gi];
      if (g.set != s) continue;
      for (int j = 0; j < g.size(); ++j) {
        const std::uint8_t l = g.solved_labels[static_cast<std::size_t>(j)];
        if (tracked[gi][l]) continue;
        const std::uint8_t slot = g.slots[static_cast<std::size_t>(j)];
        p.solved.sets[s].perm[slot] = static_cast<std::uint8_t>(blank);
        p.solved.sets[s].ori[slot] = ORIENTATION_IGNORED;
      }
    }
  }
  return p;
}

std::string pattern_name(const Definition& d, const CompiledPuzzle& full,
                         const std::vector<std::vector<char>>& tracked) {
  std::string out;
  for (std::size_t gi = 0; gi < full.groups().size(); ++gi) {
    const PieceGroup& g = full.groups()[gi];
    std::string part;
    for (std::size_t l = 0; l < g.label_value.size(); ++l) {
      if (!tracked[gi][l]) continue;
      part += (part.empty() ? "" : ",") + std::to_string(g.label_value[l] + 1) +
              (g.label_ignored[l] ? "?" : "");
    }
    if (part.empty()) continue;
    out += (out.empty() ? "" : " ") + d.sets[g.set].name + ":" + part;
  }
  return out;
}

// A table's pattern in its key: the tracked pieces, and the together groups' places when the
// goal has them (their tables' distances are to those places).
std::string tables_pattern(const Definition& d, const CompiledPuzzle& full,
                           const std::vector<std::vector<char>>& tracked,
                           const DefSolver::Goal* goal) {
  std::string out = pattern_name(d, full, tracked);
  if (goal != nullptr) out += " " + goal->key;
  return out;
}

// The ranks of a projection, or 0 when past 2^64.
std::uint64_t projected_states(const Definition& d, const CompiledPuzzle& full,
                               const std::vector<std::vector<char>>& tracked, Metric metric) {
  CompileOptions co;
  co.metric = metric;
  co.max_table_bytes = 0;
  co.require_ranks = false;
  auto p = CompiledPuzzle::compile(project(d, full, tracked), co);
  return p ? p->states() : 0;
}

// The databases' entries: 4 bits, two to a byte (entry r in the low half of byte r / 2 when r is
// even).
int nibble_at(const std::uint8_t* data, std::uint64_t r) {
  return (data[r / 2] >> ((r % 2) * 4)) & 0xF;
}
// The bound entry r of a database gives: its byte (`wide`), else its 4 bits, times `scale`.
int bound_at(const std::uint8_t* data, bool wide, int scale, std::uint64_t r) {
  return (wide ? data[r] : nibble_at(data, r)) * scale;
}
void set_nibble(std::vector<std::uint8_t>& data, std::uint64_t r, int value) {
  data[r / 2] |= static_cast<std::uint8_t>(value << ((r % 2) * 4));
}

// Distances of every rank of `p` in 4 bits (min(d, 15)), by a 2-bit BFS whose levels are read
// after each one completes.
// `starts`: the ranks at distance 0 (the goal's, goal_ranks).
Result<std::shared_ptr<std::vector<std::uint8_t>>> build_pdb(
    const CompiledPuzzle& p, const std::vector<std::uint64_t>& starts, const RunContext& run,
    const std::string& phase) {
  auto nib = std::make_shared<std::vector<std::uint8_t>>((p.states() + 1) / 2, 0);
  auto table = search::BfsTable::create(p.states(), search::BfsBits::Two);
  if (!table) return table.error();
  search::BfsOptions bo;
  bo.bits = search::BfsBits::Two;
  bo.undirected = p.undirected();
  bo.antipodes_limit = 0;
  bo.phase = phase;
  bo.on_level = [&](const search::BfsTable& t, const std::vector<std::uint64_t>& h,
                    const std::vector<std::uint64_t>&) -> Status {
    const int d = static_cast<int>(h.size()) - 1;
    if (d == 0) return Ok{};
    const unsigned cur = search::bfs_level(search::BfsBits::Two, d, false).cur;
    const int value = std::min(d, 15);
    const std::uint64_t* words = t.words();
    const std::uint64_t n = t.states();
    for (std::uint64_t wi = 0; wi * 32 < n; ++wi) {
      std::uint64_t match = search::bfs_detail::fields_equal<2>(words[wi], cur);
      while (match != 0) {
        const std::uint64_t r = wi * 32 + static_cast<unsigned>(std::countr_zero(match)) / 2;
        match &= match - 1;
        if (r >= n) break;
        set_nibble(*nib, r, value);
      }
    }
    return Ok{};
  };
  auto r = search::bfs(
      *table, starts, [&] { return RankExpander(p); }, run, bo);
  if (!r) return r.error();
  return nib;
}

// Dial's buckets over `dist` (one entry per rank of `p`, UNSEEN = the type's largest value; the
// solved rank 0, every other UNSEEN): pass d expands every rank at distance d, each move offering
// d + its cost to its neighbour (the smaller offer wins, atomically: the threads share the ranks
// in chunks). Costs are positive, so a rank's distance is final when its pass comes, and a pass
// only writes distances above d. Offers past UNSEEN - 1 are kept as UNSEEN - 1 (a lower bound).
// The largest distance offered, or the run's stop.
template <class Entry>
Result<int> dial_distances(const CompiledPuzzle& p, const std::vector<int>& costs,
                           std::vector<Entry>& dist, const RunContext& run,
                           const std::string& phase) {
  constexpr Entry UNSEEN = std::numeric_limits<Entry>::max();
  constexpr int SATURATED = UNSEEN - 1;
  constexpr std::uint64_t CHUNK = std::uint64_t{1} << 16;
  const std::uint64_t n = p.states();
  const unsigned threads = std::max(1U, std::min<unsigned>(run.threads(), 64));
  int last = 0;  // the largest distance offered so far
  for (int d = 0; d <= last; ++d) {
    // Step 1. Pass d: every rank at distance d offers its neighbours d + cost.
    std::atomic<std::uint64_t> next_chunk{0};
    std::atomic<bool> stopped{false};
    std::vector<int> offered(threads, 0);
    auto work = [&](unsigned t) {
      RankExpander ex(p);
      int high = 0;
      for (;;) {
        const std::uint64_t lo = next_chunk.fetch_add(CHUNK, std::memory_order_relaxed);
        if (lo >= n || stopped.load(std::memory_order_relaxed)) break;
        if (run.should_stop()) {
          stopped = true;
          break;
        }
        const std::uint64_t hi = std::min(n, lo + CHUNK);
        Entry* base = dist.data();
        for (std::uint64_t r = lo; r < hi; ++r) {
          // Entries at d are never written in this pass (offers exceed d): a scan finds them.
          // (Another thread may lower an entry above d meanwhile; the scan reads entries that
          // are not d either way, the atomic min keeps the smallest offer.)
          if constexpr (sizeof(Entry) == 1) {
            const void* at = std::memchr(base + r, d, hi - r);
            if (at == nullptr) break;
            r = static_cast<std::uint64_t>(static_cast<const Entry*>(at) - base);
          } else {
            while (r < hi && std::atomic_ref<Entry>(base[r]).load(std::memory_order_relaxed) != d)
              ++r;
            if (r == hi) break;
          }
          std::size_t k = 0;
          ex.for_each_neighbour(r, [&](std::uint64_t nb) {
            const int offer = std::min(d + costs[k++], SATURATED);
            std::atomic_ref<Entry> cell(dist[nb]);
            Entry cur = cell.load(std::memory_order_relaxed);
            while (offer < cur && !cell.compare_exchange_weak(cur, static_cast<Entry>(offer),
                                                              std::memory_order_relaxed)) {
            }
            high = std::max(high, offer);
            return false;
          });
        }
      }
      offered[t] = high;
    };
    {
      std::vector<std::jthread> pool;
      for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
      work(0);
    }
    if (stopped) return run.stop_error();
    for (int h : offered) last = std::max(last, h);
    if (run.wants_progress()) {
      run.report({phase, static_cast<std::uint64_t>(d), static_cast<std::uint64_t>(last),
                  fmt::format("weighted distance {} of at most {}", d, last)});
    }
  }
  return last;
}

// Distances of every rank of `p` when its moves have several costs (`costs`, in p.moves()'s
// order, each at least 1; the moves' inverses are moves of the same cost, p.undirected()), by
// Dial's buckets over a byte per rank; where they pass 253 (a phase of long sequences: the
// 5x5x5's last centres, some 280 moves) again over two bytes per rank, when the run's budget has
// them. Stored, `wide`, as a
// byte per rank, floor(D / scale) with scale = ceil(max D / 254) (1 below 255: exact; a phase's
// sequences cost tens of moves, and a scale of 5 or more made the 4x4x4's phase searches take
// minutes), else in 4 bits as floor(D / scale), scale = ceil(max D / 15); either followed by one
// byte, the scale (at most 255: farther distances are kept as 255 x 15, a lower bound). Rounded
// down: scale * floor(D / scale) <= D, admissible. A rank no move reaches keeps 0.
Result<std::shared_ptr<std::vector<std::uint8_t>>> build_weighted_pdb(
    const CompiledPuzzle& p, const std::vector<int>& costs, bool wide,
    const std::vector<std::uint64_t>& starts, const RunContext& run, const std::string& phase) {
  const std::uint64_t n = p.states();
  const int top = wide ? 254 : 15;  // the largest entry
  // Step 1. The distances, in bytes; in two bytes where they saturate.
  std::vector<std::uint16_t> wider;
  std::vector<std::uint8_t> dist(n, 255);
  for (std::uint64_t r : starts) dist[r] = 0;
  auto last = dial_distances(p, costs, dist, run, phase);
  if (!last) return last.error();
  // (Two bytes per rank where the run's budget has them; else the bytes, 254 a lower bound.)
  if (*last >= 254 && run.check_memory(2 * n, "a weighted pattern database's distances")) {
    std::vector<std::uint8_t>().swap(dist);
    wider.assign(n, std::numeric_limits<std::uint16_t>::max());
    for (std::uint64_t r : starts) wider[r] = 0;
    last = dial_distances(p, costs, wider, run, phase);
    if (!last) return last.error();
  }
  auto distance = [&](std::uint64_t r) -> int {
    const int v = wider.empty() ? dist[r] : wider[r];
    return v == (wider.empty() ? 255 : std::numeric_limits<std::uint16_t>::max()) ? 0 : v;
  };
  // Step 2. The entries and the scale.
  const int scale = std::clamp((*last + top - 1) / top, 1, 255);
  const int farthest = scale * top;  // (distances past it are kept as it)
  auto out = std::make_shared<std::vector<std::uint8_t>>(wide ? n + 1 : (n + 1) / 2 + 1, 0);
  for (std::uint64_t r = 0; r < n; ++r) {
    const int entry = std::min(distance(r), farthest) / scale;
    if (wide) {
      (*out)[r] = static_cast<std::uint8_t>(entry);
    } else {
      set_nibble(*out, r, entry);
    }
  }
  out->back() = static_cast<std::uint8_t>(scale);
  return out;
}

// The together groups in the compiled puzzle's terms (DefSolver::Goal), checked: each piece one
// of its kind in the pattern, every other piece of its compiled group one free kind with its
// orientation ignored. A place whose slots the phase's moves cannot bring a piece to (another
// slot orbit) is left out; the home place is always one.
Result<std::shared_ptr<const DefSolver::Goal>> compile_goal(
    const Definition& d, const CompiledPuzzle& fp, const std::vector<TogetherGroup>& together) {
  auto goal = std::make_shared<DefSolver::Goal>();
  goal->free_group.assign(fp.groups().size(), 0);
  auto where = [&](std::size_t set,
                   std::uint8_t slot) -> std::optional<std::pair<std::size_t, std::uint8_t>> {
    for (std::size_t gi = 0; gi < fp.groups().size(); ++gi) {
      const PieceGroup& g = fp.groups()[gi];
      if (g.set != set) continue;
      const auto it = std::find(g.slots.begin(), g.slots.end(), slot);
      if (it != g.slots.end())
        return std::pair{gi, static_cast<std::uint8_t>(it - g.slots.begin())};
    }
    return std::nullopt;
  };
  auto bad = [](const std::string& what) {
    return make_error(what, {}, Error::NO_POSITION, ErrorKind::InvalidInput);
  };
  // [compiled group][label]: a together piece.
  std::vector<std::vector<char>> is_together;
  for (const PieceGroup& pg : fp.groups()) is_together.emplace_back(pg.label_value.size(), 0);
  std::string key;
  for (const TogetherGroup& t : together) {
    DefSolver::Goal::Group g;
    std::vector<std::uint8_t> home;
    if (t.pieces.empty()) return bad("a together group has no piece");
    for (const SlotRef& piece : t.pieces) {
      const auto at = piece.set < d.sets.size() ? where(piece.set, piece.slot) : std::nullopt;
      if (!at) {
        return bad(fmt::format("together piece at slot {} of set {}: no such slot", piece.slot + 1,
                               piece.set + 1));
      }
      const PieceGroup& pg = fp.groups()[at->first];
      const std::uint8_t label = pg.solved_labels[at->second];
      if (pg.multiplicity[label] != 1) {
        return bad(
            fmt::format("together piece at slot {} of set '{}': its number is not its own "
                        "in the pattern (a together piece is one of its kind)",
                        piece.slot + 1, d.sets[piece.set].name));
      }
      if (is_together[at->first][label]) {
        return bad(fmt::format("together piece at slot {} of set '{}' is given twice",
                               piece.slot + 1, d.sets[piece.set].name));
      }
      is_together[at->first][label] = 1;
      g.group.push_back(at->first);
      g.label.push_back(label);
      g.ignore_ori.push_back(pg.label_ignored[label]);
      home.push_back(at->second);
      goal->free_group[at->first] = 1;
    }
    bool home_found = false;
    for (const auto& place : t.places) {
      if (place.size() != t.pieces.size()) return bad("a together place does not give every piece");
      std::vector<TogetherGroup::Spot> spots;
      for (std::size_t k = 0; k < place.size(); ++k) {
        const auto at = where(t.pieces[k].set, place[k].slot);
        if (!at || at->first != g.group[k]) break;
        const int o = fp.groups()[g.group[k]].orientations;
        spots.push_back(
            {at->second, static_cast<std::uint8_t>(g.ignore_ori[k] ? 0 : place[k].ori % o)});
      }
      if (spots.size() != place.size()) continue;  // another slot orbit: never reached
      if (std::find(g.places.begin(), g.places.end(), spots) != g.places.end()) continue;
      bool is_home = true;
      for (std::size_t k = 0; k < spots.size(); ++k) {
        is_home &=
            spots[k].slot == home[k] && spots[k].ori == fp.groups()[g.group[k]].solved_ori[home[k]];
      }
      home_found |= is_home;
      g.places.push_back(std::move(spots));
    }
    if (!home_found) {
      std::vector<TogetherGroup::Spot> spots;
      for (std::size_t k = 0; k < home.size(); ++k) {
        spots.push_back({home[k], fp.groups()[g.group[k]].solved_ori[home[k]]});
      }
      g.places.push_back(std::move(spots));
    }
    g.by_first.assign(fp.groups()[g.group[0]].slots.size(), {});
    for (std::size_t p = 0; p < g.places.size(); ++p) {
      g.by_first[g.places[p][0].slot].push_back(static_cast<std::uint32_t>(p));
    }
    for (std::size_t k = 0; k < g.label.size(); ++k) {
      key += fmt::format("{}.{}.", g.group[k], g.label[k]);
    }
    for (const auto& place : g.places) {
      for (const auto& spot : place) key += fmt::format("{}/{},", spot.slot, spot.ori);
    }
    key += ';';
    goal->groups.push_back(std::move(g));
  }
  // Every other piece of a group holding together pieces: one of its kind, placed home
  // (`fixed`), or of the one free kind (several pieces, orientation ignored).
  goal->fixed.assign(fp.groups().size(), {});
  for (std::size_t gi = 0; gi < fp.groups().size(); ++gi) {
    if (!goal->free_group[gi]) continue;
    const PieceGroup& pg = fp.groups()[gi];
    int free_label = -1;
    for (std::size_t l = 0; l < pg.label_value.size(); ++l) {
      if (is_together[gi][l]) continue;
      if (pg.multiplicity[l] == 1) {
        const auto j = static_cast<std::size_t>(
            std::find(pg.solved_labels.begin(), pg.solved_labels.end(), l) -
            pg.solved_labels.begin());
        goal->fixed[gi].push_back({static_cast<std::uint8_t>(j), !pg.label_ignored[l]});
        continue;
      }
      if (free_label >= 0 || (!pg.label_ignored[l] && pg.orientations > 1)) {
        return bad(
            fmt::format("set '{}': beside the pieces kept together its pieces must be "
                        "placed (a number of their own) or of one free kind (one shared "
                        "number, orientation ?)",
                        d.sets[pg.set].name));
      }
      free_label = static_cast<int>(l);
    }
  }
  goal->key = fmt::format("together-{:016x}",
                          fnv1a64(reinterpret_cast<const std::uint8_t*>(key.data()), key.size()));
  return std::shared_ptr<const DefSolver::Goal>(std::move(goal));
}

// The ranks of a database's goal positions: its projected Solved pattern with the tracked
// together pieces (`tracked`: [group][label] of the full puzzle) moved to every combination of
// their groups' places (projected onto the tracked pieces; pieces of two groups never share a
// slot), the slots left filled with the database's untracked kind. A combination the
// projected puzzle cannot rank (an arrangement its moves' invariants rule out, which no
// position reached from the solved pattern has) is left out. Without goal: the solved rank.
Result<std::vector<std::uint64_t>> goal_ranks(
    const CompiledPuzzle& pp, const std::vector<std::vector<std::uint8_t>>& label_map,
    const std::vector<std::vector<char>>& tracked, const DefSolver::Goal* goal,
    const RunContext& run) {
  const Position solved = pp.solved();
  if (goal == nullptr) return std::vector<std::uint64_t>{pp.rank(solved)};
  constexpr std::uint8_t EMPTY = 255;
  Position base = solved;
  // Step 1. The tracked pieces leave their home slots; each group's places, projected onto
  // them (distinct).
  struct Placed {
    std::vector<std::size_t> group;
    std::vector<std::uint8_t> label;  // projected
    std::vector<std::vector<TogetherGroup::Spot>> places;
  };
  std::vector<Placed> placed;
  std::uint64_t combinations = 1;
  for (const auto& g : goal->groups) {
    Placed p;
    std::vector<std::size_t> which;
    for (std::size_t k = 0; k < g.label.size(); ++k) {
      if (!tracked[g.group[k]][g.label[k]]) continue;
      which.push_back(k);
      const std::uint8_t l = label_map[g.group[k]][g.label[k]];
      p.group.push_back(g.group[k]);
      p.label.push_back(l);
      const std::size_t home = DefSolver::Goal::slot_of(solved[g.group[k]], l);
      base[g.group[k]].labels[home] = EMPTY;
      base[g.group[k]].ori[home] = 0;
    }
    if (which.empty()) continue;
    for (const auto& place : g.places) {
      std::vector<TogetherGroup::Spot> spots;
      for (std::size_t k : which) {
        const PieceGroup& pg = pp.groups()[g.group[k]];
        const std::uint8_t l = label_map[g.group[k]][g.label[k]];
        spots.push_back({place[k].slot, pg.label_ignored[l] ? std::uint8_t{0} : place[k].ori});
      }
      if (std::find(p.places.begin(), p.places.end(), spots) == p.places.end()) {
        p.places.push_back(std::move(spots));
      }
    }
    combinations *= p.places.size();
    if (combinations > MAX_GOAL_RANKS) {
      return make_error(fmt::format("a pattern database would have more than {} goal positions "
                                    "(pieces kept together): expected fewer together groups "
                                    "or places",
                                    MAX_GOAL_RANKS),
                        {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    placed.push_back(std::move(p));
  }
  if (auto ok = run.check_memory(combinations * sizeof(std::uint64_t),
                                 "a pattern database's goal positions (pieces kept together)");
      !ok) {
    return ok.error();
  }
  // The untracked kind of each group (what its untracked labels project to), if any.
  std::vector<int> blank(pp.groups().size(), -1);
  for (std::size_t gi = 0; gi < pp.groups().size(); ++gi) {
    for (std::size_t l = 0; l < tracked[gi].size(); ++l) {
      if (!tracked[gi][l]) blank[gi] = label_map[gi][l];
    }
  }
  // Step 2. Every combination (depth first), ranked and checked.
  std::vector<std::uint64_t> out;
  Position pos = base;
  std::uint64_t visited = 0;
  Status stop = Ok{};
  auto finish = [&] {
    Position full = pos;
    for (std::size_t gi = 0; gi < full.size(); ++gi) {
      for (std::size_t j = 0; j < full[gi].labels.size(); ++j) {
        if (full[gi].labels[j] != EMPTY) continue;
        if (blank[gi] < 0) return;  // a slot no piece can fill
        full[gi].labels[j] = static_cast<std::uint8_t>(blank[gi]);
        full[gi].ori[j] = 0;
      }
    }
    const std::uint64_t r = pp.rank(full);
    if (pp.joint_reachable(full) && pp.unrank(r) == full) out.push_back(r);
  };
  auto place = [&](auto&& self, std::size_t i) -> void {
    if (!stop) return;
    if ((++visited & 4095) == 0 && run.should_stop()) {
      stop = run.stop_error();
      return;
    }
    if (i == placed.size()) {
      finish();
      return;
    }
    const Placed& p = placed[i];
    for (const auto& spots : p.places) {
      std::size_t k = 0;
      for (; k < spots.size(); ++k) {
        // (A slot holds EMPTY, the untracked kind, or a piece placed before: taken.)
        GroupState& s = pos[p.group[k]];
        const std::uint8_t there = s.labels[spots[k].slot];
        if (there != EMPTY && static_cast<int>(there) != blank[p.group[k]]) break;
        s.labels[spots[k].slot] = p.label[k];
        s.ori[spots[k].slot] = spots[k].ori;
      }
      if (k == spots.size()) self(self, i + 1);
      for (std::size_t u = 0; u < k; ++u) {
        const std::uint8_t slot = spots[u].slot;
        pos[p.group[u]].labels[slot] = base[p.group[u]].labels[slot];
        pos[p.group[u]].ori[slot] = base[p.group[u]].ori[slot];
      }
    }
  };
  place(place, 0);
  if (!stop) return stop.error();
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Moves as permutations of (slot, orientation) points, for the canonical automaton.
std::vector<Perm> point_perms(const Definition& d, const std::vector<std::size_t>& moves) {
  std::vector<Perm> out;
  std::size_t degree = 0;
  std::vector<std::size_t> offset;
  for (const PieceSet& s : d.sets) {
    offset.push_back(degree);
    degree += static_cast<std::size_t>(s.pieces) * static_cast<std::size_t>(s.orientations);
  }
  for (std::size_t mi : moves) {
    std::vector<Point> images(degree);
    for (std::size_t k = 0; k < d.sets.size(); ++k) {
      const auto o = static_cast<std::size_t>(d.sets[k].orientations);
      const SetState& e = d.moves[mi].effect.sets[k];
      for (std::size_t i = 0; i < static_cast<std::size_t>(d.sets[k].pieces); ++i) {
        const std::size_t from = e.perm.empty() ? i : e.perm[i];
        const std::size_t add = e.ori.empty() ? 0 : e.ori[i];
        for (std::size_t r = 0; r < o; ++r) {
          images[offset[k] + from * o + r] = static_cast<Point>(offset[k] + i * o + (r + add) % o);
        }
      }
    }
    out.push_back(*Perm::from_images(std::move(images)));
  }
  return out;
}

// The inverse of a position, for puzzles whose positions are group elements: every piece
// distinct and its orientation tracked, solved orientations 0, every move's inverse a move.
// Then a position and its inverse are equally far from solved (reverse and invert a solution),
// so the databases' bound of the inverse is a second admissible bound (a "dual lookup").
// In state form x sends slot i the piece solved at slot x(i) = home[label[i]], turned by
// ori[i]; applying x then y gives slot i the piece x(y(i)) turned by ori_x[y(i)] + ori_y[i], so
// the inverse z has z(x(i)) = i and ori_z[x(i)] = -ori_x[i].
struct Inverter {
  std::vector<std::vector<std::uint8_t>> home;  // [group][label] = its slot when solved
  static std::optional<Inverter> make(const CompiledPuzzle& p) {
    if (!p.undirected()) return std::nullopt;
    Inverter inv;
    for (const PieceGroup& g : p.groups()) {
      if (!g.distinct || g.blank >= 0 || g.ignored_pieces > 0) return std::nullopt;
      for (std::uint8_t o : g.solved_ori) {
        if (o != 0) return std::nullopt;
      }
      std::vector<std::uint8_t> home(g.label_value.size(), 0);
      for (int j = 0; j < g.size(); ++j) {
        home[g.solved_labels[static_cast<std::size_t>(j)]] = static_cast<std::uint8_t>(j);
      }
      inv.home.push_back(std::move(home));
    }
    return inv;
  }
  void invert(const CompiledPuzzle& p, const Position& x, Position& z) const {
    for (std::size_t gi = 0; gi < x.size(); ++gi) {
      const PieceGroup& g = p.groups()[gi];
      const auto o = static_cast<unsigned>(g.orientations);
      const std::vector<std::uint8_t>& h = home[gi];
      for (std::size_t i = 0; i < x[gi].labels.size(); ++i) {
        const std::uint8_t k = h[x[gi].labels[i]];
        z[gi].labels[k] = g.solved_labels[i];
        z[gi].ori[k] = static_cast<std::uint8_t>((o - x[gi].ori[i]) % o);
      }
    }
  }
};

// The databases' ranks of a position's inverse read straight from the position, for databases
// whose coordinates are all arrangements of tracked pieces, with or without their orientations
// (the planner's partial tables: 4 of the 2x2x2's corners, 4 of the 3x3x3's edges). The inverse
// z of x (Inverter) has the piece solved at slot h at slot home[x.labels[h]], turned by
// -x.ori[h]: each tracked piece's slot and orientation are two reads, where inverting the whole
// position, projecting it per database and ranking the projection cost the 2x2x2 antipode's
// search a third of its time.
class InverseRanker {
 public:
  static std::optional<InverseRanker> make(const std::vector<DefSolver::Pdb>& pdbs,
                                           const Inverter& inverter) {
    InverseRanker out;
    for (const DefSolver::Pdb& pdb : pdbs) {
      std::vector<Part> parts;
      for (const Component& c : pdb.puzzle->components()) {
        const PieceGroup& g = pdb.puzzle->groups()[c.group];
        const bool arrangement =
            g.blank >= 0 && (c.kind == Component::Kind::Perm ||
                             (c.kind == Component::Kind::Mixed && g.mixed_arrangement));
        if (!arrangement || g.size() > 32) return std::nullopt;
        Part part;
        part.group = c.group;
        part.weight = c.weight;
        part.with_ori = c.kind == Component::Kind::Mixed;
        part.ori_part = part.with_ori ? c.ori_part : 1;
        part.n = g.size();
        part.o = static_cast<unsigned>(g.orientations);
        // The tracked projected labels in order (tracked_slots' order): the home slot of the
        // full puzzle's piece each one stands for.
        const auto& map = pdb.label_map[c.group];
        for (std::size_t l = 0; l < g.label_value.size(); ++l) {
          if (static_cast<int>(l) == g.blank) continue;
          const auto f = std::find(map.begin(), map.end(), static_cast<std::uint8_t>(l));
          if (f == map.end()) return std::nullopt;
          part.home.push_back(inverter.home[c.group][static_cast<std::size_t>(f - map.begin())]);
        }
        parts.push_back(std::move(part));
      }
      out.parts_.push_back(std::move(parts));
    }
    return out;
  }
  // The databases' ranks of the inverse of x into out[0..pdbs).
  void ranks(const Inverter& inverter, const Position& x, std::uint64_t* out) const {
    std::uint8_t pos[32];
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      std::uint64_t r = 0;
      for (const Part& part : parts_[i]) {
        const GroupState& s = x[part.group];
        const std::uint8_t* home = inverter.home[part.group].data();
        const auto k = part.home.size();
        std::uint64_t ori = 0;
        for (std::size_t j = 0; j < k; ++j) {
          const std::uint8_t h = part.home[j];
          pos[j] = home[s.labels[h]];
          if (part.with_ori) ori = ori * part.o + (s.ori[h] == 0 ? 0 : part.o - s.ori[h]);
        }
        r += (rank_arrangement(pos, static_cast<int>(k), part.n) * part.ori_part + ori) *
             part.weight;
      }
      out[i] = r;
    }
  }

 private:
  struct Part {
    std::size_t group = 0;
    std::uint64_t weight = 1;
    std::uint64_t ori_part = 1;
    int n = 0;
    unsigned o = 1;
    bool with_ori = false;
    std::vector<std::uint8_t> home;
  };
  std::vector<std::vector<Part>> parts_;  // [database]
};

// Symmetry lookups from the file's rotations (x, y, z, ...v), for the same group-like puzzles
// as Inverter. An element of the puzzle's group is kept per piece group in move form (src, dori:
// slot j receives the piece of slot src[j], turned by dori[j]); a ⋅ b applies a, then b:
// (a⋅b).src[i] = a.src[b.src[i]], (a⋅b).dori[i] = a.dori[b.src[i]] + b.dori[i]. When every
// search move m has s⁻¹⋅m⋅s among the search moves at the same cost, a position x and its
// conjugate s⁻¹⋅x⋅s are equally far from solved, and the databases' bound of the conjugate is
// another admissible bound (the databases track other pieces of it).
class Symmetries {
 public:
  using Element = std::vector<GroupMove>;  // per group
  static constexpr std::size_t MAX_USED = 4;
  static constexpr std::size_t MAX_CLOSURE = 64;

  static Symmetries make(const CompiledPuzzle& p, const std::vector<int>& costs) {
    Symmetries out;
    const Definition& d = p.definition();
    // Step 1. The rotations as elements (each must keep every piece group's slots).
    std::vector<Element> generators;
    for (const BaseMove& r : d.rotations) {
      auto e = element_of(p, r.effect);
      if (e) generators.push_back(std::move(*e));
    }
    if (generators.empty()) return out;
    // Step 2. Their closure, in breadth-first order (generators first).
    std::vector<Element> closure = {identity(p)};
    for (std::size_t i = 0; i < closure.size() && closure.size() < MAX_CLOSURE; ++i) {
      for (const Element& g : generators) {
        Element c = compose(p, closure[i], g);
        if (std::find(closure.begin(), closure.end(), c) == closure.end()) {
          closure.push_back(std::move(c));
        }
      }
    }
    // Step 3. Those that map every search move to a search move of the same cost.
    std::vector<Element> moves;
    for (int m = 0; m < p.move_count(); ++m) moves.push_back(p.group_moves(m));
    for (std::size_t i = 1; i < closure.size() && out.used_.size() < MAX_USED; ++i) {
      const Element& sym = closure[i];
      const Element inv = inverse(p, sym);
      bool closed = true;
      for (int m = 0; m < p.move_count() && closed; ++m) {
        const Element c = compose(p, compose(p, inv, moves[static_cast<std::size_t>(m)]), sym);
        const auto it = std::find(moves.begin(), moves.end(), c);
        closed = it != moves.end() && costs[static_cast<std::size_t>(it - moves.begin())] ==
                                          costs[static_cast<std::size_t>(m)];
      }
      if (closed) out.used_.push_back({sym, inv});
    }
    return out;
  }
  std::size_t size() const { return used_.size(); }
  // z = s⁻¹⋅x⋅s for the k-th symmetry (x and z positions: labels and orientations per slot).
  void conjugate(const CompiledPuzzle& p, const Inverter& inv, std::size_t k, const Position& x,
                 Position& z) const {
    const Element& sym = used_[k].sym;
    const Element& sinv = used_[k].inverse;
    for (std::size_t gi = 0; gi < x.size(); ++gi) {
      const PieceGroup& g = p.groups()[gi];
      const auto o = static_cast<unsigned>(g.orientations);
      const std::vector<std::uint8_t>& home = inv.home[gi];
      const GroupMove& s = sym[gi];
      const GroupMove& si = sinv[gi];
      for (std::size_t i = 0; i < x[gi].labels.size(); ++i) {
        const std::uint8_t a = s.src[i];
        const std::uint8_t b = home[x[gi].labels[a]];
        z[gi].labels[i] = g.solved_labels[si.src[b]];
        z[gi].ori[i] = static_cast<std::uint8_t>((si.dori[b] + x[gi].ori[a] + s.dori[i]) % o);
      }
    }
  }

 private:
  struct Used {
    Element sym, inverse;
  };
  std::vector<Used> used_;

  static Element identity(const CompiledPuzzle& p) {
    Element e;
    for (const PieceGroup& g : p.groups()) {
      GroupMove gm;
      for (int j = 0; j < g.size(); ++j) gm.src.push_back(static_cast<std::uint8_t>(j));
      gm.dori.assign(static_cast<std::size_t>(g.size()), 0);
      e.push_back(std::move(gm));
    }
    return e;
  }
  static std::optional<Element> element_of(const CompiledPuzzle& p, const State& effect) {
    Element e;
    for (const PieceGroup& g : p.groups()) {
      const SetState& st = effect.sets[g.set];
      GroupMove gm;
      for (int j = 0; j < g.size(); ++j) {
        const std::uint8_t slot = g.slots[static_cast<std::size_t>(j)];
        const std::size_t from = st.perm.empty() ? slot : st.perm[slot];
        const auto it = std::find(g.slots.begin(), g.slots.end(), from);
        if (it == g.slots.end()) return std::nullopt;  // leaves the group's slots
        gm.src.push_back(static_cast<std::uint8_t>(it - g.slots.begin()));
        const unsigned add = st.ori.empty() ? 0u : static_cast<unsigned>(st.ori[slot]);
        gm.dori.push_back(static_cast<std::uint8_t>(add % static_cast<unsigned>(g.orientations)));
      }
      e.push_back(std::move(gm));
    }
    return e;
  }
  static Element compose(const CompiledPuzzle& p, const Element& a, const Element& b) {
    Element c = a;
    for (std::size_t gi = 0; gi < a.size(); ++gi) {
      const auto o = static_cast<unsigned>(p.groups()[gi].orientations);
      for (std::size_t i = 0; i < a[gi].src.size(); ++i) {
        const std::uint8_t j = b[gi].src[i];
        c[gi].src[i] = a[gi].src[j];
        c[gi].dori[i] = static_cast<std::uint8_t>((a[gi].dori[j] + b[gi].dori[i]) % o);
      }
    }
    return c;
  }
  static Element inverse(const CompiledPuzzle& p, const Element& a) {
    Element c = a;
    for (std::size_t gi = 0; gi < a.size(); ++gi) {
      const auto o = static_cast<unsigned>(p.groups()[gi].orientations);
      for (std::size_t i = 0; i < a[gi].src.size(); ++i) {
        c[gi].src[a[gi].src[i]] = static_cast<std::uint8_t>(i);
        c[gi].dori[a[gi].src[i]] = static_cast<std::uint8_t>((o - a[gi].dori[i]) % o);
      }
    }
    return c;
  }
};

// The IDA* kernel: positions on a stack, bounds from the databases.
class Kernel {
 public:
  using Move = int;
  Kernel(const CompiledPuzzle& full, const std::vector<DefSolver::Pdb>& pdbs,
         const std::vector<std::int32_t>& canonical, std::vector<int> costs, bool all,
         int max_depth, const Inverter* inverter, const Symmetries* symmetries,
         const DefSolver::Goal* goal)
      : full_(full),
        goal_set_(goal),
        inverter_(inverter),
        symmetries_(inverter != nullptr && symmetries != nullptr && symmetries->size() > 0
                        ? symmetries
                        : nullptr),
        pdbs_(pdbs),
        canonical_(canonical),
        costs_(std::move(costs)),
        all_(all),
        max_depth_(max_depth),
        moves_(full.move_count()),
        goal_(full.solved()) {
    for (const auto& p : pdbs) {
      projected_.push_back(p.puzzle->solved());
      nibbles_.push_back(p.nibbles->data());
      scales_.push_back(p.scale);
      wide_.push_back(p.wide ? 1 : 0);
    }
    // Children's database ranks from their parent's (see child_ranks): when every database
    // searches with the full puzzle's moves, in its order (HTM; under QTM the databases search
    // with quarter turns only and the children are ranked from their positions).
    incremental_ = !pdbs.empty();
    for (const auto& p : pdbs) incremental_ = incremental_ && p.puzzle->moves() == full.moves();
    if (incremental_) {
      for (const auto& p : pdbs) expanders_.push_back(std::make_unique<RankExpander>(*p.puzzle));
      neighbours_.assign(static_cast<std::size_t>(moves_) * pdbs.size(), 0);
    }
    inverse_ = full.solved();
    inverse_ranks_.assign(pdbs.size(), 0);
    if (inverter_ != nullptr) inverse_ranker_ = InverseRanker::make(pdbs, *inverter_);
    max_length_ = max_depth;
  }
  void set_max_solutions(std::size_t n) { max_solutions_ = n; }
  int start(const Position& root) {
    // Children and their database ranks per depth, deep enough for any bound the driver allows
    // (every move costs at least 1), so that nothing is allocated during an iteration.
    // A depth's vectors are allocated when the search first reaches it (a file with thousands
    // of moves would otherwise allocate max_depth rows of them up front).
    root_ = root;
    beyond_limit_ = 0;
    children_.assign(static_cast<std::size_t>(max_depth_) + 2, {});
    order_.assign(static_cast<std::size_t>(max_depth_) + 2, {});
    ranks_.assign(static_cast<std::size_t>(max_depth_) + 2, {});
    child_bound_.assign(static_cast<std::size_t>(max_depth_) + 2, {});
    child_next_.assign(static_cast<std::size_t>(max_depth_) + 2, {});
    child_open_.assign(static_cast<std::size_t>(max_depth_) + 2, {});
    ranks_.back().assign(static_cast<std::size_t>(moves_) * pdbs_.size(), 0);
    return lookup_max(rank_all(root, scratch_ranks()), 0);
  }
  search::IdaIteration iterate(int bound, search::IdaControl& control) {
    if (bound > max_depth_) {
      // Every bound up to --max-length was searched without a solution: `bound` is a proven
      // lower bound on the optimal length (the databases are admissible). Stop here; solve()
      // turns this into its own error.
      beyond_limit_ = bound;
      return {};
    }
    next_bound_ = INT_MAX;
    found_ = false;
    path_.clear();
    const std::uint64_t* root_ranks = rank_all(root_, scratch_ranks());
    const int h0 = lookup_max(root_ranks, 0);
    dfs(root_, root_ranks, 0, 0, search::CanonicalAutomaton::START, bound, h0, control);
    search::IdaIteration it;
    it.found = found_;
    it.next_bound = next_bound_;
    return it;
  }
  std::uint64_t nodes() const { return nodes_; }
  int beyond_limit() const { return beyond_limit_; }  // 0, or the first bound past max_depth
  std::vector<int> solution() const {
    return solutions_.empty() ? std::vector<int>{} : solutions_.front();
  }
  const std::vector<std::vector<int>>& solutions() const { return solutions_; }

  // Parallel iterations (see ParallelKernel): the nodes at `split_depth` below the root that
  // the one-thread search would enter, in its order, each with the nodes that search counts
  // before entering it (`nodes_before`); solutions met above that depth are items too.
  struct Item {
    Position pos;
    std::vector<std::uint64_t> ranks;  // the databases' ranks of pos
    std::vector<int> path;
    int state = 0;
    int g = 0;
    int h = 0;
    bool solution = false;
    std::uint64_t nodes_before = 0;
  };
  void split(int bound, int split_depth, std::vector<Item>& items, search::IdaControl& control) {
    next_bound_ = INT_MAX;
    path_.clear();
    split_start_ = nodes_;
    const std::uint64_t* root_ranks = rank_all(root_, scratch_ranks());
    const int h0 = lookup_max(root_ranks, 0);
    enumerate(root_, root_ranks, 0, 0, search::CanonicalAutomaton::START, bound, h0, split_depth,
              items, control);
  }
  // The one-thread search below one item (nodes() counts on from the kernel's total). Items
  // past `*cutoff` (an earlier item has a solution) are abandoned: `abandoned()` is then true.
  void run_item(const Item& item, std::size_t index, const std::atomic<std::size_t>* cutoff,
                int bound, search::IdaControl& control) {
    next_bound_ = INT_MAX;
    found_ = false;
    abandoned_ = false;
    solutions_.clear();
    path_ = item.path;
    index_ = index;
    cutoff_ = cutoff;
    dfs(item.pos, item.ranks.data(), item.path.size(), item.g, item.state, bound, item.h, control);
    cutoff_ = nullptr;
  }
  bool found() const { return found_; }
  bool abandoned() const { return abandoned_; }
  int max_depth() const { return max_depth_; }
  int move_count() const { return moves_; }
  // Weighted search (f = g + weight * h; 1 = IDA*, admissible): with weight 2 the bound no
  // longer proves optimality, but a solution is found after far fewer nodes (quick pass).
  void set_weight(int weight) {
    weight_ = weight;
    max_depth_ = max_length_ * weight;  // f = g + weight * h of a solution up to the cap
  }
  int next_bound() const { return next_bound_; }

 private:
  // The dual lookup on a node that passed its own bound (so that it is paid once per expanded
  // node, not per generated child): true when the inverse's bound cuts it.
  bool inverse_cuts(const Position& pos, int g, int bound) {
    if (inverter_ == nullptr) return false;
    if (inverse_ranker_) {
      inverse_ranker_->ranks(*inverter_, pos, inverse_ranks_.data());
    } else {
      inverter_->invert(full_, pos, inverse_);
      rank_all(inverse_, inverse_ranks_.data());
    }
    const int h = weight_ * lookup_max(inverse_ranks_.data(), 0);
    if (g + h > bound) {
      next_bound_ = std::min(next_bound_, g + h);
      return true;
    }
    // The same for the conjugates by the file's symmetries (see Symmetries), only where a cut
    // saves a subtree of some depth. Measured on the 3x3x3 (x y z, 15-move scramble, 4 GiB):
    // nodes 59.4 M -> 39.8 M whether from remaining depth 3, 5 or 8, time 31-33 s -> 37, 34,
    // 34 s: the cuts near the leaves cost more than they save.
    if (symmetries_ == nullptr || bound - g < SYMMETRY_MIN_DEPTH) return false;
    for (std::size_t k = 0; k < symmetries_->size(); ++k) {
      symmetries_->conjugate(full_, *inverter_, k, pos, inverse_);
      const int hs = weight_ * lookup_max(rank_all(inverse_, inverse_ranks_.data()), 0);
      if (g + hs > bound) {
        next_bound_ = std::min(next_bound_, g + hs);
        return true;
      }
    }
    return false;
  }
  void enumerate(const Position& pos, const std::uint64_t* self, std::size_t depth, int g,
                 int state, int bound, int hv, int left, std::vector<Item>& items,
                 search::IdaControl& control) {
    const auto own = [&] { return std::vector<std::uint64_t>(self, self + pdbs_.size()); };
    if (left == 0) {
      items.push_back({pos, own(), path_, state, g, hv, false, nodes_ - split_start_});
      return;
    }
    // As dfs() does, with the children collected instead of searched.
    ++nodes_;
    if (!control.keep_going(nodes_)) return;
    if (g + weight_ * hv > bound) {
      next_bound_ = std::min(next_bound_, g + weight_ * hv);
      return;
    }
    if (at_goal(pos)) {
      items.push_back({pos, own(), path_, state, g, hv, true, nodes_ - split_start_});
      return;
    }
    if (inverse_cuts(pos, g, bound)) return;
    std::vector<Position> kids(static_cast<std::size_t>(moves_), pos);
    std::vector<std::uint64_t> ranks(static_cast<std::size_t>(moves_) * pdbs_.size());
    const std::size_t np = pdbs_.size();
    for (int m = 0; m < moves_; ++m) {
      const int next =
          canonical_[static_cast<std::size_t>(state) * static_cast<std::size_t>(moves_) +
                     static_cast<std::size_t>(m)];
      if (next == search::CanonicalAutomaton::PRUNED) continue;
      const int cost = costs_[static_cast<std::size_t>(m)];
      if (g + cost > bound) {
        next_bound_ = std::min(next_bound_, g + cost);
        continue;
      }
      full_.apply_to(pos, m, kids[static_cast<std::size_t>(m)]);
      rank_all(kids[static_cast<std::size_t>(m)], ranks.data() + static_cast<std::size_t>(m) * np);
      const int h = lookup_max(ranks.data() + static_cast<std::size_t>(m) * np, 0);
      path_.push_back(m);
      enumerate(kids[static_cast<std::size_t>(m)], ranks.data() + static_cast<std::size_t>(m) * np,
                depth + 1, g + cost, next, bound, h, left - 1, items, control);
      path_.pop_back();
      if (control.stopped()) return;
    }
  }

  std::uint64_t* scratch_ranks() { return ranks_.back().data(); }
  // The database ranks of a position into out[0..pdbs), each entry prefetched: the children of
  // a node are ranked first and looked up after, so that their cache misses overlap.
  std::uint64_t* rank_all(const Position& pos, std::uint64_t* out) {
    for (std::size_t i = 0; i < pdbs_.size(); ++i) {
      const DefSolver::Pdb& pdb = pdbs_[i];
      Position& proj = projected_[i];
      for (std::size_t g = 0; g < pos.size(); ++g) {
        const PieceGroup& pg = pdb.puzzle->groups()[g];
        // A group the database does not track (one label, orientation ignored) has no
        // coordinate: its projection stays solved and the rank does not read it.
        if (pg.label_value.size() == 1 && pg.label_ignored[0]) continue;
        const auto& map = pdb.label_map[g];
        for (std::size_t j = 0; j < pos[g].labels.size(); ++j) {
          const std::uint8_t l = map[pos[g].labels[j]];
          proj[g].labels[j] = l;
          proj[g].ori[j] = pg.label_ignored[l] ? 0 : pos[g].ori[j];
        }
      }
      out[i] = pdb.puzzle->rank(proj);
      __builtin_prefetch(pdb.nibbles->data() + (pdb.wide ? out[i] : out[i] / 2));
    }
    return out;
  }
  int lookup_max(const std::uint64_t* ranks, int) const {
    int best = 0;
    const std::size_t np = nibbles_.size();
    for (std::size_t i = 0; i < np; ++i) {
      best = std::max(best, bound_at(nibbles_[i], wide_[i] != 0, scales_[i], ranks[i]));
    }
    return best;
  }
  // Counts a node and polls: true to unwind (the run stopped, or another thread's iteration
  // made this one's answer unneeded).
  bool count_node(search::IdaControl& control) {
    ++nodes_;
    if (!control.keep_going(nodes_)) return true;
    if (cutoff_ != nullptr && (nodes_ & 4095) == 0 &&
        cutoff_->load(std::memory_order_relaxed) < index_) {
      abandoned_ = true;
      return true;
    }
    return false;
  }
  // Returns true to unwind (found with !all_, or stopped).
  // `self`: the databases' ranks of `pos` (rank_all's order).
  bool dfs(const Position& pos, const std::uint64_t* self, std::size_t depth, int g, int state,
           int bound, int hv, search::IdaControl& control) {
    if (count_node(control)) return true;
    if (g + weight_ * hv > bound) {
      next_bound_ = std::min(next_bound_, g + weight_ * hv);
      return false;
    }
    // The goal's bound is 0 in every database: a position with a positive bound is not it.
    if (hv == 0 && at_goal(pos)) {
      if (!found_) solutions_.clear();
      found_ = true;
      solutions_.push_back(path_);
      return !all_ || (max_solutions_ != 0 && solutions_.size() >= max_solutions_);
    }
    if (inverse_cuts(pos, g, bound)) return false;
    auto& kids = children_[depth];
    if (kids.empty()) {
      kids.assign(static_cast<std::size_t>(moves_), pos);
      ranks_[depth].assign(static_cast<std::size_t>(moves_) * pdbs_.size(), 0);
      order_[depth].reserve(static_cast<std::size_t>(moves_));
      child_bound_[depth].assign(static_cast<std::size_t>(moves_), 0);
      child_next_[depth].assign(static_cast<std::size_t>(moves_), 0);
      child_open_[depth].assign(static_cast<std::size_t>(moves_), 0);
    }
    if (weight_ == 1) return expand_ida(pos, self, depth, g, state, bound, control);
    // The weighted quick pass, which wants any solution soon: the closest child first.
    std::uint64_t* ranks = ranks_[depth].data();
    const std::size_t np = pdbs_.size();
    // Step 1. Every child and its ranks (prefetched): from the parent's ranks through each
    // database's move tables when they search with the same moves, else from the child.
    if (incremental_) {
      for (std::size_t i = 0; i < np; ++i) {
        expanders_[i]->neighbours(self[i],
                                  neighbours_.data() + i * static_cast<std::size_t>(moves_));
      }
    }
    for (int m = 0; m < moves_; ++m) {
      int next = 0;
      if (!canonical_child(state, m, g, bound, next)) continue;
      std::uint64_t* out = ranks + static_cast<std::size_t>(m) * np;
      if (!incremental_) {
        full_.apply_to(pos, m, kids[static_cast<std::size_t>(m)]);
        rank_all(kids[static_cast<std::size_t>(m)], out);
        continue;
      }
      for (std::size_t i = 0; i < np; ++i) {
        out[i] = neighbours_[i * static_cast<std::size_t>(moves_) + static_cast<std::size_t>(m)];
        __builtin_prefetch(pdbs_[i].nibbles->data() + out[i] / 2);
      }
    }
    // Step 2. Their bounds, then the search below each, closest first. With incremental ranks a
    // child's position is made only when it passes its bound.
    auto& order = order_[depth];
    order.clear();
    for (int m = 0; m < moves_; ++m) {
      int next = 0;
      if (!canonical_child(state, m, g, bound, next)) continue;
      order.push_back({lookup_max(ranks + static_cast<std::size_t>(m) * np, 0), m, next});
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const Child& a, const Child& b) { return a.h < b.h; });
    for (const Child& c : order) {
      if (incremental_ && g + costs_[static_cast<std::size_t>(c.move)] + weight_ * c.h <= bound) {
        full_.apply_to(pos, c.move, kids[static_cast<std::size_t>(c.move)]);
      }
      path_.push_back(c.move);
      const bool stop =
          dfs(kids[static_cast<std::size_t>(c.move)], ranks + static_cast<std::size_t>(c.move) * np,
              depth + 1, g + costs_[static_cast<std::size_t>(c.move)], c.next, bound, c.h, control);
      path_.pop_back();
      if (stop) return true;
    }
    return false;
  }
  // A canonical child within the bound's cost: its automaton state in `next`; a move whose cost
  // alone passes the bound raises next_bound_.
  bool canonical_child(int state, int m, int g, int bound, int& next) {
    next = canonical_[static_cast<std::size_t>(state) * static_cast<std::size_t>(moves_) +
                      static_cast<std::size_t>(m)];
    if (next == search::CanonicalAutomaton::PRUNED) return false;
    const int cost = costs_[static_cast<std::size_t>(m)];
    if (g + cost > bound) {
      next_bound_ = std::min(next_bound_, g + cost);
      return false;
    }
    return true;
  }
  // dfs's expansion in IDA* (weight_ 1), children in move order (the order does not change the
  // work of a failing iteration). With incremental ranks (every database searches with the
  // puzzle's moves) the databases are read one at a time, each for the children still open: a
  // child whose bound so far passes the iteration's is pruned, and once its f also reaches
  // next_bound_ no later database can change what it decides (next_bound_ only falls), so it
  // closes and they are not read for it: at an iteration's last level most children close on
  // the first databases. The children expanded, the nodes counted and next_bound_ are those of
  // reading every database (measured: a 3x3x3 solve's node count and the 4x4x4 reduction's
  // solutions unchanged; the optimal lengths are tested against BFS). Without incremental ranks
  // each child is made and ranked in every database.
  bool expand_ida(const Position& pos, const std::uint64_t* self, std::size_t depth, int g,
                  int state, int bound, search::IdaControl& control) {
    auto& kids = children_[depth];
    std::uint64_t* ranks = ranks_[depth].data();
    int* hm = child_bound_[depth].data();
    int* next_state = child_next_[depth].data();
    // 0: not a canonical move within the bound; 1: open; 2: closed.
    char* open = child_open_[depth].data();
    const std::size_t np = pdbs_.size();
    std::size_t open_count = 0;
    // Step 1. The canonical children within the bound's cost.
    for (int m = 0; m < moves_; ++m) {
      const auto mi = static_cast<std::size_t>(m);
      hm[mi] = 0;
      open[mi] = canonical_child(state, m, g, bound, next_state[mi]) ? 1 : 0;
      open_count += open[mi];
    }
    // Step 2. Their bounds: database by database (the open children's ranks, prefetched, then
    // their bounds), or from each child made and ranked.
    for (std::size_t i = 0; incremental_ && i < np && open_count > 0; ++i) {
      std::uint64_t* row = neighbours_.data();
      expanders_[i]->neighbours(self[i], row);
      for (int m = 0; m < moves_; ++m) {
        const auto mi = static_cast<std::size_t>(m);
        if (open[mi] != 1) continue;
        ranks[mi * np + i] = row[mi];
        __builtin_prefetch(nibbles_[i] + row[mi] / 2);
      }
      for (int m = 0; m < moves_; ++m) {
        const auto mi = static_cast<std::size_t>(m);
        if (open[mi] != 1) continue;
        hm[mi] = std::max(hm[mi], bound_at(nibbles_[i], wide_[i] != 0, scales_[i], row[mi]));
        const int f = g + costs_[mi] + hm[mi];
        if (f > bound && f >= next_bound_) {
          open[mi] = 2;
          --open_count;
        }
      }
    }
    for (int m = 0; !incremental_ && m < moves_; ++m) {
      const auto mi = static_cast<std::size_t>(m);
      if (open[mi] == 0) continue;
      full_.apply_to(pos, m, kids[mi]);
      hm[mi] = lookup_max(rank_all(kids[mi], ranks + mi * np), 0);
    }
    // Step 3. In move order: a child past the bound is counted and raises next_bound_ (what its
    // dfs() would do before returning at its bound), the others are searched.
    for (int m = 0; m < moves_; ++m) {
      const auto mi = static_cast<std::size_t>(m);
      if (open[mi] == 0) continue;
      const int h = hm[mi];
      const int f = g + costs_[mi] + h;
      if (f > bound) {
        if (count_node(control)) return true;
        next_bound_ = std::min(next_bound_, f);
        continue;
      }
      if (incremental_) full_.apply_to(pos, m, kids[mi]);
      path_.push_back(m);
      const bool stop = dfs(kids[mi], ranks + mi * np, depth + 1, g + costs_[mi], next_state[mi],
                            bound, h, control);
      path_.pop_back();
      if (stop) return true;
    }
    return false;
  }
  struct Child {
    int h, move, next;
  };
  std::vector<std::vector<Child>> order_;  // [depth]: the quick pass's children, closest first

  bool at_goal(const Position& pos) const { return DefSolver::Goal::at(goal_set_, pos, goal_); }

  const CompiledPuzzle& full_;
  const DefSolver::Goal* goal_set_;  // null: the goal is goal_ itself
  static constexpr int SYMMETRY_MIN_DEPTH = 5;
  int weight_ = 1;
  int max_length_ = 0;
  const Inverter* inverter_;                     // null: no dual lookups
  std::optional<InverseRanker> inverse_ranker_;  // none: the inverse is made and ranked
  const Symmetries* symmetries_;                 // null: no symmetry lookups
  Position inverse_;
  std::vector<std::uint64_t> inverse_ranks_;
  const std::vector<DefSolver::Pdb>& pdbs_;
  std::vector<const std::uint8_t*> nibbles_;  // each database's entries (pdbs_[i].nibbles)
  std::vector<int> scales_;                   // and their scales (pdbs_[i].scale)
  std::vector<char> wide_;                    // and whether they hold bytes (pdbs_[i].wide)
  const std::vector<std::int32_t>& canonical_;
  std::vector<int> costs_;
  bool all_;
  // With all_: stop after this many solutions (0: every one).
  std::size_t max_solutions_ = 0;
  int max_depth_;
  int moves_;
  Position goal_;
  Position root_;
  std::vector<std::vector<Position>> children_;    // [depth][move]
  std::vector<std::vector<std::uint64_t>> ranks_;  // [depth][move * pdbs + pdb]
  std::vector<Position> projected_;
  // The incremental ranks: one expander per database (its neighbours of a rank, move by move)
  // and their output, [database][move], read before the children are searched.
  bool incremental_ = false;
  std::vector<std::unique_ptr<RankExpander>> expanders_;
  std::vector<std::uint64_t> neighbours_;
  // expand_ida's per-depth rows (per move): bound so far, canonical state, open flag.
  std::vector<std::vector<int>> child_bound_, child_next_;
  std::vector<std::vector<char>> child_open_;
  std::vector<int> path_;
  std::vector<std::vector<int>> solutions_;
  std::uint64_t nodes_ = 0;
  int next_bound_ = INT_MAX;
  bool found_ = false;
  int beyond_limit_ = 0;
  bool abandoned_ = false;
  std::size_t index_ = 0;
  const std::atomic<std::size_t>* cutoff_ = nullptr;
  std::uint64_t split_start_ = 0;
};

// IDA* iterations on several threads: the tree is split below `SPLIT_DEPTH` (Kernel::split,
// in the one-thread order) and the threads take the subtrees in that order, one kernel each.
// The answer is the one-thread search's: the solution(s) of the first subtree that has any
// (with --all-optimal every subtree's, in order), and the nodes that search would have counted
// up to it.
class ParallelKernel {
 public:
  using Move = int;
  static constexpr int SPLIT_DEPTH = 3;
  // Items at most moves^depth: the split depth is lowered to keep them within this many (each
  // holds a position, its ranks and its path: a phase of 124 sequences and their powers, some
  // 250 search moves, collected 15 million of them at depth 3, 20 GB, on the 5x5x5).
  static constexpr double SPLIT_MAX_ITEMS = 1 << 16;
  ParallelKernel(std::vector<Kernel>& kernels, const RunContext& run,
                 const search::IdaOptions& options, bool all)
      : kernels_(kernels), run_(run), options_(options), all_(all) {}
  int start(const Position& root) {
    int h = 0;
    for (Kernel& k : kernels_) h = k.start(root);
    return h;
  }
  search::IdaIteration iterate(int bound, search::IdaControl& control) {
    Kernel& first = kernels_.front();
    if (bound > first.max_depth()) return first.iterate(bound, control);  // the limit's path
    // Step 1. The items, in the one-thread order.
    std::vector<Kernel::Item> items;
    const std::uint64_t before = first.nodes();
    int depth = std::min(SPLIT_DEPTH, bound);
    while (depth > 1 && std::pow(static_cast<double>(first.move_count()), depth) > SPLIT_MAX_ITEMS)
      --depth;
    first.split(bound, depth, items, control);
    const std::uint64_t split_nodes = first.nodes() - before;
    int next_bound = first.next_bound();
    nodes_ += split_nodes;
    if (control.stopped()) return {};
    nodes_ -= split_nodes;
    // Step 2. Threads take items in order.
    const std::size_t n = items.size();
    std::vector<std::uint64_t> item_nodes(n, 0);
    std::vector<int> item_next(n, INT_MAX);
    std::vector<std::vector<std::vector<int>>> item_solutions(n);
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> cutoff{n};
    std::atomic<bool> stopped{false};
    auto work = [&](Kernel& k) {
      search::IdaControl own(run_, options_);
      for (;;) {
        const std::size_t i = next.fetch_add(1);
        if (i >= n || stopped.load()) return;
        if (!all_ && i > cutoff.load()) return;
        const Kernel::Item& item = items[i];
        if (item.solution) {
          item_solutions[i].push_back(item.path);
        } else {
          const std::uint64_t start_nodes = k.nodes();
          k.run_item(item, i, all_ ? nullptr : &cutoff, bound, own);
          item_nodes[i] = k.nodes() - start_nodes;
          item_next[i] = k.next_bound();
          if (own.stopped()) {
            stopped = true;
            return;
          }
          if (k.abandoned()) continue;
          if (k.found()) item_solutions[i] = k.solutions();
        }
        if (!item_solutions[i].empty() && !all_) {
          std::size_t cur = cutoff.load();
          while (i < cur && !cutoff.compare_exchange_weak(cur, i)) {
          }
        }
      }
    };
    std::vector<std::jthread> pool;  // joined on every exit (a refused thread throws)
    for (std::size_t t = 1; t < kernels_.size(); ++t)
      pool.emplace_back(work, std::ref(kernels_[t]));
    work(kernels_.front());
    for (auto& th : pool) th.join();
    // Step 3. The one-thread answer and node count.
    std::size_t last = n;  // items the one-thread search would have entered
    if (!all_ && cutoff.load() < n) last = cutoff.load() + 1;
    std::uint64_t nodes = last < n ? items[last - 1].nodes_before : split_nodes;
    solutions_.clear();
    for (std::size_t i = 0; i < last; ++i) {
      nodes += item_nodes[i];
      next_bound = std::min(next_bound, item_next[i]);
      for (auto& sol : item_solutions[i]) solutions_.push_back(std::move(sol));
    }
    nodes_ += nodes;
    if (stopped.load()) {
      control.check_now(nodes_);  // the driver's control learns why the workers stopped
      return {};
    }
    search::IdaIteration it;
    it.found = !solutions_.empty();
    it.next_bound = next_bound;
    return it;
  }
  std::uint64_t nodes() const { return nodes_; }
  std::vector<int> solution() const {
    return solutions_.empty() ? std::vector<int>{} : solutions_.front();
  }
  const std::vector<std::vector<int>>& solutions() const { return solutions_; }
  int beyond_limit() const { return kernels_.front().beyond_limit(); }

 private:
  std::vector<Kernel>& kernels_;
  const RunContext& run_;
  const search::IdaOptions& options_;
  bool all_;
  std::uint64_t nodes_ = 0;
  std::vector<std::vector<int>> solutions_;
};

}  // namespace

namespace {

// The piece a table that tracks part of a group takes next: the untracked one nearest before
// its first tracked piece, going backwards round the group (the pieces just before a table's
// own, as the plans are laid out); none when the table tracks none or all of the group.
std::optional<std::size_t> piece_before_first(const std::vector<char>& tracked) {
  const std::size_t size = tracked.size();
  const auto first = std::find(tracked.begin(), tracked.end(), 1);
  if (first == tracked.end()) return std::nullopt;
  const auto f = static_cast<std::size_t>(first - tracked.begin());
  for (std::size_t k = 1; k < size; ++k) {
    const std::size_t l = (f + size - k) % size;
    if (!tracked[l]) return l;
  }
  return std::nullopt;
}

// The databases for a budget of `memory_bytes`: as few as the budget allows (entries are half a
// byte), each a tracked-label vector per group (see the file comment of solver.hpp). Empty when
// none fits; the run's stop error when stopped. The groups of `every_table_sets` are tracked
// whole by every table (DefSolveOptions::every_table_sets).
Result<std::vector<std::vector<std::vector<char>>>> plan_databases(
    const Definition& d, const CompiledPuzzle& fp, Metric metric, std::uint64_t memory_bytes,
    bool fill_budget, const DefSolver::Goal* goal, const std::vector<std::size_t>& every_table_sets,
    const RunContext& run) {
  auto in_every_table = [&](std::size_t gi) {
    return std::find(every_table_sets.begin(), every_table_sets.end(), fp.groups()[gi].set) !=
           every_table_sets.end();
  };
  // The units in order, in chunks: a group's labels; with together groups, each together
  // group's pieces first (a table tracks a whole group where it can: a pair's bound needs
  // both), then the labels of the groups without together pieces. The free pieces are never
  // tracked (the goal does not place them).
  std::vector<PieceUnit> units;
  if (goal != nullptr) {
    for (std::size_t t = 0; t < goal->groups.size(); ++t) {
      const auto& g = goal->groups[t];
      for (std::size_t k = 0; k < g.label.size(); ++k) {
        units.push_back({g.group[k], g.label[k], t});
      }
    }
  }
  for (std::size_t gi = 0; gi < fp.groups().size(); ++gi) {
    if (in_every_table(gi)) continue;
    const std::size_t chunk = (goal != nullptr ? goal->groups.size() : 0) + gi;
    if (goal != nullptr && goal->free_group[gi]) {
      // (Of a group holding together pieces, only the pieces placed home.)
      for (const auto& [j, with_ori] : goal->fixed[gi]) {
        units.push_back({gi, fp.groups()[gi].solved_labels[j], chunk});
      }
      continue;
    }
    for (std::size_t l = 0; l < fp.groups()[gi].label_value.size(); ++l)
      units.push_back({gi, static_cast<int>(l), chunk});
  }
  auto empty_tracking = [&] {
    std::vector<std::vector<char>> t;
    for (std::size_t gi = 0; gi < fp.groups().size(); ++gi) {
      t.emplace_back(fp.groups()[gi].label_value.size(), in_every_table(gi) ? 1 : 0);
    }
    return t;
  };
  const std::uint64_t budget_entries = memory_bytes * 2;
  std::vector<std::vector<std::vector<char>>> plan;
  // Nothing but the groups every table tracks (a phase that only fixes a parity): one table.
  if (units.empty() && !every_table_sets.empty()) {
    const auto only = empty_tracking();
    const std::uint64_t n = projected_states(d, fp, only, metric);
    if (n != 0 && n <= budget_entries) plan.push_back(only);
    return plan;
  }
  for (std::uint64_t count = 1; count <= 16 && plan.empty(); ++count) {
    const std::uint64_t cap = budget_entries / count;
    std::vector<std::vector<std::vector<char>>> tables_plan;
    auto current = empty_tracking();
    bool any = false;
    auto fits = [&](const std::vector<std::vector<char>>& t) {
      if (run.should_stop()) return false;  // the plan is abandoned below
      const std::uint64_t n = projected_states(d, fp, t, metric);
      return n != 0 && n <= cap;
    };
    for (std::size_t first = 0; first < units.size();) {
      // One group's units [first, last): the whole group joins the current table when it fits;
      // otherwise a table holding other groups is closed first, so that a group is not split
      // to fill the end of another group's table (corners + one edge is a poor bound).
      std::size_t last = first;
      while (last < units.size() && units[last].chunk == units[first].chunk) ++last;
      auto whole = current;
      for (std::size_t i = first; i < last; ++i) {
        whole[units[i].group][static_cast<std::size_t>(units[i].label)] = 1;
      }
      if (fits(whole)) {
        current = std::move(whole);
        any = true;
        first = last;
        continue;
      }
      if (any) tables_plan.push_back(current);
      current = empty_tracking();
      any = false;
      for (std::size_t i = first; i < last; ++i) {
        const PieceUnit& u = units[i];
        auto trial = current;
        trial[u.group][static_cast<std::size_t>(u.label)] = 1;
        if (fits(trial)) {
          current = std::move(trial);
          any = true;
          continue;
        }
        if (any) tables_plan.push_back(current);
        current = empty_tracking();
        any = false;
        trial = current;
        trial[u.group][static_cast<std::size_t>(u.label)] = 1;
        if (fits(trial)) {
          current = std::move(trial);
          any = true;
        }
      }
      first = last;
    }
    if (any) tables_plan.push_back(current);
    if (run.should_stop()) return run.stop_error();
    if (tables_plan.size() > count) continue;
    // A table that tracks part of a group may have room left (the last of a group's tables
    // holds what remained): it takes more of that group's pieces, those just before its own
    // first, while it fits. The bound is the maximum, so tables may overlap; a larger table is
    // a stronger bound (the 3x3x3 at 4 GiB: edges 8-12 become edges 6-12). Not with together
    // groups (the piece before may be a free one).
    if (goal == nullptr) {
      for (auto& table : tables_plan) {
        for (std::size_t gi = 0; gi < table.size(); ++gi) {
          while (const std::optional<std::size_t> l = piece_before_first(table[gi])) {
            auto trial = table;
            trial[gi][*l] = 1;
            if (!fits(trial)) break;
            table = std::move(trial);
          }
        }
      }
    }
    if (run.should_stop()) return run.stop_error();
    // With fill_budget (the planner's first tier), the budget the equal shares leave unused
    // (tables within budget / count each often take far less: the 2x2x2's two 4-corner tables
    // hold 272,160 of the 2 M entries of 1 MB) goes to the tables themselves, one piece at a
    // time, the smallest growth first, each table taking the piece of its group just before its
    // first as above, while the whole plan stays within the budget. One larger table is a much
    // stronger bound than several small ones (the 2x2x2 antipode: corners 8,1-4 and 5-8 search
    // 350 K nodes where 1-4 and 5-8 search 3.5 M, for 0.05 s more of building).
    if (fill_budget && goal == nullptr) {
      std::vector<std::uint64_t> sizes;
      std::uint64_t total = 0;
      for (const auto& table : tables_plan) {
        sizes.push_back(projected_states(d, fp, table, metric));
        total += sizes.back();
      }
      while (!run.should_stop()) {
        std::uint64_t best_added = 0;
        std::size_t best = tables_plan.size();
        std::vector<std::vector<char>> best_trial;
        std::uint64_t best_size = 0;
        for (std::size_t t = 0; t < tables_plan.size(); ++t) {
          const auto& table = tables_plan[t];
          for (std::size_t gi = 0; gi < table.size(); ++gi) {
            const std::optional<std::size_t> l = piece_before_first(table[gi]);
            if (!l) continue;
            auto trial = table;
            trial[gi][*l] = 1;
            const std::uint64_t grown = projected_states(d, fp, trial, metric);
            if (grown <= sizes[t] || grown - sizes[t] > budget_entries - total) continue;
            if (best == tables_plan.size() || grown - sizes[t] < best_added) {
              best = t;
              best_added = grown - sizes[t];
              best_trial = std::move(trial);
              best_size = grown;
            }
          }
        }
        if (best == tables_plan.size()) break;
        tables_plan[best] = std::move(best_trial);
        sizes[best] = best_size;
        total += best_added;
      }
      if (run.should_stop()) return run.stop_error();
    }
    plan = std::move(tables_plan);
  }
  return plan;
}

// The largest move table of one coordinate of a database's projected puzzle. Small databases
// (the planner's first tiers) get their coordinates tabulated even past a quarter of their
// budget: a table costs about what the database's BFS costs, and then every search node's
// children are ranked by table lookups instead of re-ranking arrangements (the 3x3x3's 4-edge
// and the 4x4 Loopover's 5-tile coordinates). The plan's `tables` databases together keep
// such tables within about an eighth of the run's budget per coordinate kind. Only
// when the databases search with the full puzzle's moves (HTM, or every move a quarter turn):
// otherwise the kernel ranks children from their positions and the tables would not be read.
std::uint64_t pdb_move_table_cap(const Definition& d, Metric metric, std::uint64_t memory_bytes,
                                 std::size_t tables, const RunContext& run) {
  const std::uint64_t quarter = std::min<std::uint64_t>(std::uint64_t{256} << 20, memory_bytes / 4);
  const bool same_moves =
      metric == Metric::Htm ||
      std::all_of(d.moves.begin(), d.moves.end(), [](const auto& m) { return m.qtm_cost == 1; });
  if (!same_moves) return quarter;
  std::uint64_t floor = std::uint64_t{64} << 20;
  if (run.memory_budget() > 0) {
    floor = std::min(floor, run.memory_budget() / (8 * std::max<std::uint64_t>(1, tables)));
  }
  return std::min<std::uint64_t>(std::uint64_t{256} << 20, std::max(memory_bytes / 4, floor));
}

// The key names the move-table cap: which coordinates are tabulated orders the rank's
// components, so the same pattern compiled under another cap may be laid out differently.
TableKey pdb_key(std::uint64_t hash, Metric metric, const std::string& pattern,
                 std::uint64_t move_table_cap) {
  return {fmt::format("def-{:016x}", hash),
          fmt::format("pdb-{}-t{}-{}", metric_name(metric), move_table_cap >> 20, pattern),
          PDB_FORMAT};
}

// The full puzzle with every power as a search move (each at its metric's cost).
Result<CompiledPuzzle> compile_full(const Definition& d, Metric metric, const RunContext& run) {
  CompileOptions co;
  co.metric = metric;
  co.require_ranks = false;
  co.max_table_bytes = 0;
  for (std::size_t m = 0; m < d.moves.size(); ++m) co.moves.push_back(m);
  return CompiledPuzzle::compile(d, co, run);
}

}  // namespace

Result<std::vector<PlannedTable>> DefSolver::plan(const Definition& d,
                                                  const DefSolveOptions& options,
                                                  const RunContext& run) {
  auto full = compile_full(d, options.metric, run);
  if (!full) return full.error();
  std::shared_ptr<const Goal> goal;
  if (!options.together.empty()) {
    auto g = compile_goal(d, *full, options.together);
    if (!g) return g.error();
    goal = *g;
  }
  auto planned = plan_databases(d, *full, options.metric, options.memory_bytes, options.fill_budget,
                                goal.get(), options.every_table_sets, run);
  if (!planned) return planned.error();
  const std::uint64_t hash = definition_hash(d);
  std::vector<PlannedTable> out;
  for (const auto& t : *planned) {
    const std::string pattern = tables_pattern(d, *full, t, goal.get());
    const std::uint64_t entries = projected_states(d, *full, t, options.metric);
    out.push_back({pattern, entries, (entries + 1) / 2,
                   pdb_key(hash, options.metric, pattern,
                           pdb_move_table_cap(d, options.metric, options.memory_bytes,
                                              planned->size(), run))});
  }
  return out;
}

struct DefSolver::Lookups {
  std::optional<Inverter> inverter;  // none: positions are not group elements, or turned off
  Symmetries symmetries;             // empty: no rotations usable, or turned off
};

Result<std::shared_ptr<DefSolver>> DefSolver::create(const Definition& d,
                                                     const DefSolveOptions& options,
                                                     TableStore& tables, const RunContext& run) {
  auto solver = std::make_shared<DefSolver>();
  solver->options_ = options;
  // Step 1. The full puzzle with every power as a search move (each at its metric's cost).
  auto full = compile_full(d, options.metric, run);
  if (!full) return full.error();
  solver->full_ = std::make_shared<const CompiledPuzzle>(std::move(*full));
  const CompiledPuzzle& fp = *solver->full_;
  const std::uint64_t hash = definition_hash(d);
  if (!options.together.empty()) {
    auto goal = compile_goal(d, fp, options.together);
    if (!goal) return goal.error();
    solver->goal_ = *goal;
  }
  // The group of the moves, for the reachability check before every search (a group too large
  // for Schreier–Sims here leaves that check to the search, as before).
  {
    auto group = build_group(d);
    if (group) {
      solver->group_ = std::make_shared<const PermGroup>(std::move(*group));
    } else if (group.error().kind != ErrorKind::LimitExceeded) {
      return group.error();
    }
    if (run.should_stop()) return run.stop_error();
  }

  // Step 2. Canonical sequences: families are the base moves.
  search::CanonicalOptions canon;
  for (std::size_t m = 0; m < d.moves.size(); ++m)
    canon.families.push_back(static_cast<int>(d.moves[m].base));
  // The puzzles' automata have tens to hundreds of states (3x3x3: 13; 5x5 Loopover's commuting
  // rows: a few hundred); one past this many is a move set with many commuting families (a
  // phase with about a hundred disjoint 3-cycles as sequences), for which the full automaton
  // would cost seconds and tens of MB before its limit refused it.
  canon.max_states = 4096;
  auto automaton = search::CanonicalAutomaton::build(point_perms(d, fp.moves()), canon, run);
  if (!automaton && automaton.error().kind == ErrorKind::LimitExceeded && !run.should_stop()) {
    // Too many commuting families: prune only a family repeated at once (the search stays
    // complete, it only visits more orders of commuting moves).
    canon.use_commutation = false;
    automaton = search::CanonicalAutomaton::build(point_perms(d, fp.moves()), canon, run);
  }
  if (!automaton) return automaton.error();
  solver->canonical_ = automaton->table();
  solver->canonical_states_ = automaton->states();

  // Step 3. The databases: as few as the budget allows (entries are half a byte). Moves of
  // several costs (a phase's sequences, half-turn metric, every move's inverse a move) are
  // searched and tabulated at their costs; otherwise every move costs its metric's 1 or QTM cost.
  const bool weighted = options.metric == Metric::Htm && fp.undirected() &&
                        std::any_of(fp.moves().begin(), fp.moves().end(),
                                    [&](std::size_t m) { return d.moves[m].htm_cost != 1; });
  std::vector<int> costs;
  for (std::size_t m : fp.moves()) {
    costs.push_back(options.metric == Metric::Qtm ? d.moves[m].qtm_cost
                    : weighted                    ? d.moves[m].htm_cost
                                                  : 1);
  }
  auto planned = plan_databases(d, fp, options.metric, options.memory_bytes, options.fill_budget,
                                solver->goal_.get(), options.every_table_sets, run);
  if (!planned) return planned.error();
  std::vector<std::vector<std::vector<char>>> plan = std::move(*planned);
  if (plan.empty()) {
    return make_error("no pattern database fits in the memory budget (--memory)", {},
                      Error::NO_POSITION, ErrorKind::LimitExceeded);
  }

  // Step 4. Build or load each database, after checking their memory against the run's budget
  // (the plan keeps them within options.memory_bytes, which a caller may set past it).
  // Weighted tables hold a byte per rank (exact distances) when those bytes fit the budget.
  bool wide = false;
  {
    std::uint64_t bytes = 0, wide_bytes = 0;
    for (const auto& t : plan) {
      const std::uint64_t states = projected_states(d, fp, t, options.metric);
      // (A weighted build holds a byte per rank while it runs; two where its distances pass
      // 253, when the budget has them then.)
      bytes += (states + 1) / 2 + (weighted ? states + 1 : 0);
      wide_bytes += states + 1;
    }
    wide = weighted && wide_bytes <= options.memory_bytes;
    if (auto ok = run.check_memory(bytes, fmt::format("{} pattern database(s)", plan.size()));
        !ok) {
      return ok.error();
    }
  }
  for (std::size_t t = 0; t < plan.size(); ++t) {
    const Definition projected = project(d, fp, plan[t]);
    CompileOptions pco;
    pco.metric = options.metric;
    pco.max_table_bytes =
        pdb_move_table_cap(d, options.metric, options.memory_bytes, plan.size(), run);
    // The projected puzzle's move tables are part of the database's cost (the planner's build
    // rate reads it): its seconds count them.
    Stopwatch compile_clock;
    auto pp = CompiledPuzzle::compile(projected, pco, run);
    const double compile_seconds = compile_clock.seconds();
    if (!pp) return pp.error();
    auto ppp = std::make_shared<const CompiledPuzzle>(std::move(*pp));
    // The projected label of each of the full puzzle's labels (full and projected groups have
    // the same slots: the solved patterns pair the labels).
    std::vector<std::vector<std::uint8_t>> label_map;
    for (std::size_t gi = 0; gi < fp.groups().size(); ++gi) {
      const PieceGroup& fg = fp.groups()[gi];
      const PieceGroup& pg = ppp->groups()[gi];
      std::vector<std::uint8_t> map(fg.label_value.size(), 0);
      for (int j = 0; j < fg.size(); ++j) {
        map[fg.solved_labels[static_cast<std::size_t>(j)]] =
            pg.solved_labels[static_cast<std::size_t>(j)];
      }
      label_map.push_back(std::move(map));
    }
    const std::string pattern = tables_pattern(d, fp, plan[t], solver->goal_.get());
    TableRecipe<std::vector<std::uint8_t>> recipe;
    recipe.key = pdb_key(hash, options.metric, pattern, pco.max_table_bytes);
    if (wide) recipe.key.pattern += "-scaled-bytes";
    recipe.bytes =
        (wide ? ppp->states() : (ppp->states() + 1) / 2) + (weighted ? 1 : 0);  // (+ the scale)
    recipe.allocate = [bytes = recipe.bytes] {
      return std::make_shared<std::vector<std::uint8_t>>(bytes);
    };
    const std::string phase = fmt::format("def pattern database {}/{}", t + 1, plan.size());
    // The callbacks own what they read (the projected puzzle, the phase name), so a store that
    // allows it may finish the build after this request has gone (the server's does).
    recipe.background = true;
    recipe.build = [ppp, phase, weighted, wide, costs, label_map, tracked = plan[t],
                    goal = solver->goal_](
                       const RunContext& r) -> Result<std::shared_ptr<std::vector<std::uint8_t>>> {
      // Distance 0: the goal's positions (the solved one, or the together groups' places).
      auto starts = goal_ranks(*ppp, label_map, tracked, goal.get(), r);
      if (!starts) return starts.error();
      return weighted ? build_weighted_pdb(*ppp, costs, wide, *starts, r, phase)
                      : build_pdb(*ppp, *starts, r, phase);
    };
    recipe.payload = [](std::vector<std::uint8_t>& v) {
      return std::span<std::uint8_t>(v.data(), v.size());
    };
    TableReport report;
    auto nib = tables.obtain(recipe, run, &report);
    if (!nib) return nib.error();
    // Entries are read at random (several per search node): 2 MiB pages save most TLB misses.
    detail::collapse_huge_pages((*nib)->data(), (*nib)->size());
    Pdb pdb;
    pdb.puzzle = ppp;
    pdb.nibbles = *nib;
    pdb.wide = wide;
    if (weighted) {
      pdb.scale = (*nib)->back();
      if (pdb.scale < 1) {
        return make_error(
            fmt::format("the pattern database {} has scale {} (corrupt table)", pattern, pdb.scale),
            {}, Error::NO_POSITION, ErrorKind::Internal);
      }
    }
    pdb.label_map = std::move(label_map);
    // (A scaled table rounds its distances down; a wide one may keep 254 for any farther.)
    bool exact =
        pdb.scale == 1 && (!wide || std::memchr((*nib)->data(), 254, (*nib)->size()) == nullptr);
    for (const auto& g : plan[t]) {
      for (char c : g) exact &= c != 0;
    }
    solver->infos_.push_back({pattern, ppp->states(), exact,
                              report.source == TableReport::Source::Built    ? "built"
                              : report.source == TableReport::Source::Loaded ? "loaded"
                                                                             : "memory",
                              compile_seconds + report.seconds});
    solver->pdbs_.push_back(std::move(pdb));
  }
  // Step 5. The moves' costs and the lookups' tables, once for every solve.
  solver->costs_ = costs;
  auto lookups = std::make_shared<Lookups>();
  // (Dual and symmetry bounds need a goal that is one element: not with together groups.)
  if (options.inverse_lookups && !solver->goal_) lookups->inverter = Inverter::make(fp);
  if (lookups->inverter && options.symmetry_lookups) {
    lookups->symmetries = Symmetries::make(fp, solver->costs_);
  }
  solver->lookups_ = std::move(lookups);
  return solver;
}

Result<std::vector<DefSolution>> DefSolver::solve(const State& start, const RunContext& run,
                                                  DefSolveReport* report) const {
  const CompiledPuzzle& fp = *full_;
  const Definition& d = fp.definition();
  DefSolveReport own;
  DefSolveReport& rep = report != nullptr ? *report : own;
  rep = {};
  auto root = fp.position_of(start);
  if (!root) return root.error();
  // Step 0. An unreachable position is refused with the reason before any search.
  if (group_) {
    if (auto ok = check_reachable(d, *group_, start, run); !ok) {
      if (run.should_stop()) rep.stopped = true;
      return ok.error();
    }
  }
  const std::vector<int>& costs = costs_;
  search::IdaOptions io;
  // The kernel refuses bounds past max_length itself (see iterate) so that this case is told
  // apart from the time and node limits.
  io.max_bound = INT_MAX - 1;
  io.phase = "def solve";
  // Each optimal iteration's bound is a proven lower bound once it starts (the ones before it
  // were searched without a solution); the root's own bound before any.
  io.on_iteration = [&rep](int bound, std::uint64_t) {
    rep.lower_bound = std::max(rep.lower_bound, bound);
  };
  const unsigned threads = std::max(1u, run.threads());
  const Lookups& lookups = *lookups_;
  std::vector<Kernel> kernels;
  kernels.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    kernels.emplace_back(fp, pdbs_, canonical_, costs, options_.all_optimal, options_.max_length,
                         lookups.inverter ? &*lookups.inverter : nullptr, &lookups.symmetries,
                         goal_.get());
    kernels.back().set_max_solutions(options_.max_solutions);
  }
  ParallelKernel parallel(kernels, run, io, options_.all_optimal);
  rep.lower_bound = kernels.front().start(*root);  // the databases' bound of the root
  auto replay_ok = [&](const Position&, const std::vector<int>& moves) {
    std::vector<std::size_t> seq;
    for (int m : moves) seq.push_back(fp.moves()[static_cast<std::size_t>(m)]);
    auto reached = fp.position_of(replay(d, start, seq));
    return reached && Goal::at(goal_.get(), *reached, fp.solved());
  };
  auto to_solution = [&](const std::vector<int>& sol, std::uint64_t nodes, double seconds) {
    DefSolution s;
    for (int m : sol) {
      s.moves.push_back(d.moves[fp.moves()[static_cast<std::size_t>(m)]].name);
      s.length += costs[static_cast<std::size_t>(m)];
    }
    s.nodes = nodes;
    s.seconds = seconds;
    return s;
  };
  const auto run_ida = [&] {
    return threads == 1 ? search::ida_star(kernels.front(), *root, run, io, replay_ok)
                        : search::ida_star(parallel, *root, run, io, replay_ok);
  };
  // Step 1. When a non-optimal answer is acceptable (a length cap or a time limit was given), a
  // quick weighted pass first (f = g + 2h, at most QUICK_NODES nodes): a solution within the cap
  // is the answer at once; under a time limit alone it is kept for when the optimal search runs
  // out of time.
  std::optional<DefSolution> quick;
  const bool time_limited = run.deadline().has_value();
  if ((options_.accept_non_optimal || (time_limited && options_.quick_pass)) &&
      !options_.all_optimal) {
    for (Kernel& k : kernels) k.set_weight(QUICK_WEIGHT);
    search::IdaOptions qo = io;
    qo.on_iteration = nullptr;  // weighted bounds are no lower bounds
    qo.node_limit = QUICK_NODES;
    qo.phase = "def solve (quick pass)";
    ParallelKernel quick_parallel(kernels, run, qo, false);
    auto q = threads == 1 ? search::ida_star(kernels.front(), *root, run, qo, replay_ok)
                          : search::ida_star(quick_parallel, *root, run, qo, replay_ok);
    for (Kernel& k : kernels) k.set_weight(1);
    if (q) {
      DefSolution s = to_solution(q->moves, q->nodes, q->seconds);
      s.optimal = s.length <= q->initial_bound;  // met the admissible bound of the root
      if (s.length <= options_.max_length && (options_.accept_non_optimal || s.optimal)) {
        return std::vector<DefSolution>{std::move(s)};
      }
      if (s.length <= options_.max_length) quick = std::move(s);
    }
    if (run.should_stop() && quick) {
      rep.stopped = true;
      return std::vector<DefSolution>{*quick};
    }
  }
  // Step 2. IDA*: the optimal solution(s).
  auto r = run_ida();
  const int beyond_limit = kernels.front().beyond_limit();
  const auto& solutions = threads == 1 ? kernels.front().solutions() : parallel.solutions();
  if (!r && run.should_stop()) rep.stopped = true;
  if (!r && quick && time_limited && run.should_stop()) {
    return std::vector<DefSolution>{*quick};  // out of time: the quick pass's answer
  }
  if (!r && beyond_limit > 0) {
    // IDA* meets the optimal length first, so there is no shorter non-optimal answer to give:
    // past the limit the answer is a proof that none exists.
    return make_error(fmt::format("no solution of length {} or less exists: every solution is at "
                                  "least {} long ({}); raise --max-length",
                                  options_.max_length, beyond_limit, metric_name(options_.metric)),
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  if (!r) return r.error();
  // Step 3. With all_optimal and a slack: one more iteration (one thread) at the optimal length
  // + slack collects the solutions up to that length too, in the search's order.
  std::vector<std::vector<int>> with_slack;
  if (options_.all_optimal && options_.slack > 0 &&
      r->final_bound + options_.slack <= options_.max_length) {
    Kernel& k = kernels.front();
    k.start(*root);
    search::IdaControl control(run, io);
    const search::IdaIteration it = k.iterate(r->final_bound + options_.slack, control);
    if (control.stopped()) return control.stop_error(r->final_bound + options_.slack);
    if (it.found) with_slack = k.solutions();
  }
  std::vector<DefSolution> out;
  for (const auto& sol : with_slack.empty() ? solutions : with_slack) {
    if (options_.max_solutions != 0 && out.size() >= options_.max_solutions) break;
    if (!replay_ok(*root, sol)) {
      return make_error("solution failed verification by replay (internal error)", {},
                        Error::NO_POSITION, ErrorKind::Internal);
    }
    out.push_back(to_solution(sol, r->nodes, r->seconds));
    out.back().optimal = out.back().length <= r->final_bound;
  }
  return out;
}

Result<int> DefSolver::lower_bound(const State& position) const {
  const CompiledPuzzle& fp = *full_;
  auto pos = fp.position_of(position);
  if (!pos) return pos.error();
  // The same projection as Kernel::rank_all, for one position.
  int best = 0;
  for (const Pdb& pdb : pdbs_) {
    Position proj = pdb.puzzle->solved();
    for (std::size_t g = 0; g < pos->size(); ++g) {
      const PieceGroup& pg = pdb.puzzle->groups()[g];
      if (pg.label_value.size() == 1 && pg.label_ignored[0]) continue;
      const auto& map = pdb.label_map[g];
      for (std::size_t j = 0; j < (*pos)[g].labels.size(); ++j) {
        const std::uint8_t l = map[(*pos)[g].labels[j]];
        proj[g].labels[j] = l;
        proj[g].ori[j] = pg.label_ignored[l] ? 0 : (*pos)[g].ori[j];
      }
    }
    const std::uint64_t r = pdb.puzzle->rank(proj);
    best = std::max(best, bound_at(pdb.nibbles->data(), pdb.wide, pdb.scale, r));
  }
  return best;
}

Result<std::vector<DefSolution>> DefSolver::solve_moves(const std::vector<std::size_t>& moves,
                                                        const RunContext& run,
                                                        DefSolveReport* report) const {
  const Definition& d = full_->definition();
  return solve(replay(d, full_solved(d), moves), run, report);
}

}  // namespace permuzzle::def
