#include "permuzzle/puzzles/def/compiled.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>

#include "permuzzle/core/ranking.hpp"
#include "permuzzle/core/table_cache.hpp"

namespace permuzzle::def {

namespace {

// The largest orientation addition table of a factored move table (entries: (o^k)^2).
constexpr std::uint64_t FACTORED_ADD_LIMIT = std::uint64_t{1} << 20;

constexpr std::uint64_t U64_MAX = std::numeric_limits<std::uint64_t>::max();
// The largest joint coordinate searched for (CompiledPuzzle::join_components).
constexpr std::uint64_t JOINT_MAX_VALUES = std::uint64_t{1} << 21;
__extension__ typedef unsigned __int128 U128;  // GCC/Clang extension: exact products

// Pascal's triangle to row SMALL_BINOMIAL_ROWS - 1, made by the compiler (C(64, 32) < 2^64):
// perm_rank's combination ranks read it in the search's hot path instead of dividing.
constexpr int SMALL_BINOMIAL_ROWS = 65;
constexpr std::array<std::array<std::uint64_t, SMALL_BINOMIAL_ROWS>, SMALL_BINOMIAL_ROWS>
pascal_triangle() {
  std::array<std::array<std::uint64_t, SMALL_BINOMIAL_ROWS>, SMALL_BINOMIAL_ROWS> c{};
  for (int n = 0; n < SMALL_BINOMIAL_ROWS; ++n) {
    c[static_cast<std::size_t>(n)][0] = 1;
    for (int k = 1; k <= n; ++k) {
      c[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)] =
          c[static_cast<std::size_t>(n - 1)][static_cast<std::size_t>(k - 1)] +
          (k < n ? c[static_cast<std::size_t>(n - 1)][static_cast<std::size_t>(k)] : 0);
    }
  }
  return c;
}
constexpr auto SMALL_BINOMIALS = pascal_triangle();
static_assert(SMALL_BINOMIALS[64][32] == 1832624140942590534ULL);

// C(n, k), saturated at U64_MAX (callers compare it with values below 2^64).
std::uint64_t binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  if (n < SMALL_BINOMIAL_ROWS)
    return SMALL_BINOMIALS[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)];
  k = std::min(k, n - k);
  U128 c = 1;
  for (int i = 1; i <= k; ++i) {
    c = c * static_cast<unsigned>(n - k + i) / static_cast<unsigned>(i);
    if (c > U64_MAX) return U64_MAX;
  }
  return static_cast<std::uint64_t>(c);
}

// a * b, or nothing past 2^64 - 1.
std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) {
  const U128 p = static_cast<U128>(a) * b;
  if (p > U64_MAX) return std::nullopt;
  return static_cast<std::uint64_t>(p);
}

std::optional<std::uint64_t> checked_pow(std::uint64_t base, int exp) {
  std::uint64_t r = 1;
  for (int i = 0; i < exp; ++i) {
    auto p = checked_mul(r, base);
    if (!p) return std::nullopt;
    r = *p;
  }
  return r;
}

bool labels_even(const std::uint8_t* labels, int n) {
  int inversions = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) inversions += labels[i] > labels[j] ? 1 : 0;
  }
  return inversions % 2 == 0;
}

// The perm coordinate of a group (see the file comment of compiled.hpp).
// Arrangement form: the slots of the labels other than the blank, in label order.
void tracked_slots(const PieceGroup& g, const std::uint8_t* labels, std::uint8_t* pos) {
  for (int j = 0; j < g.size(); ++j) {
    const int l = labels[j];
    if (l != g.blank) pos[l - (l > g.blank ? 1 : 0)] = static_cast<std::uint8_t>(j);
  }
}

std::uint64_t perm_rank(const PieceGroup& g, const std::uint8_t* labels) {
  const int n = g.size();
  if (g.blank >= 0) {
    std::uint8_t pos[32];
    tracked_slots(g, labels, pos);
    return rank_arrangement(pos, static_cast<int>(g.multiplicity.size()) - 1, n);
  }
  if (g.distinct) {
    const std::uint64_t r = rank_permutation(labels, n);
    return g.even_only ? r >> 1 : r;
  }
  // Step by label: the combination rank of its slots among the free ones.
  const int label_count = static_cast<int>(g.multiplicity.size());
  std::uint64_t rank = 0;
  std::array<char, MAX_PIECES> taken;  // on the stack: no allocation in the search
  std::fill_n(taken.begin(), n, 0);
  int free_count = n;
  for (int l = 0; l + 1 < label_count; ++l) {
    const int c = g.multiplicity[static_cast<std::size_t>(l)];
    std::uint64_t comb = 0;
    int index = 0;  // index among the free slots
    int chosen = 0;
    for (int s = 0; s < n; ++s) {
      if (taken[static_cast<std::size_t>(s)]) continue;
      if (labels[s] == l) {
        ++chosen;
        comb += binomial(index, chosen);
        taken[static_cast<std::size_t>(s)] = 1;
      }
      ++index;
    }
    rank = rank * binomial(free_count, c) + comb;
    free_count -= c;
  }
  return rank;
}

void perm_unrank(const PieceGroup& g, std::uint64_t rank, std::uint8_t* labels) {
  const int n = g.size();
  if (g.blank >= 0) {
    const int k = static_cast<int>(g.multiplicity.size()) - 1;
    std::uint8_t pos[32];
    unrank_arrangement(rank, k, n, pos);
    for (int j = 0; j < n; ++j) labels[j] = static_cast<std::uint8_t>(g.blank);
    for (int i = 0; i < k; ++i)
      labels[pos[i]] = static_cast<std::uint8_t>(i + (i >= g.blank ? 1 : 0));
    return;
  }
  if (g.distinct) {
    if (!g.even_only) {
      unrank_permutation(rank, n, labels);
      return;
    }
    unrank_permutation(rank << 1, n, labels);
    const bool want_even = labels_even(g.solved_labels.data(), n);
    if (labels_even(labels, n) != want_even) std::swap(labels[n - 2], labels[n - 1]);
    return;
  }
  const int label_count = static_cast<int>(g.multiplicity.size());
  // Step 1. The digits, least significant (the second-to-last label) last.
  std::vector<std::uint64_t> digits(static_cast<std::size_t>(label_count), 0);
  std::vector<int> free_before(static_cast<std::size_t>(label_count), 0);
  int free_count = n;
  for (int l = 0; l < label_count; ++l) {
    free_before[static_cast<std::size_t>(l)] = free_count;
    free_count -= g.multiplicity[static_cast<std::size_t>(l)];
  }
  for (int l = label_count - 2; l >= 0; --l) {
    const std::uint64_t radix = binomial(free_before[static_cast<std::size_t>(l)],
                                         g.multiplicity[static_cast<std::size_t>(l)]);
    digits[static_cast<std::size_t>(l)] = rank % radix;
    rank /= radix;
  }
  // Step 2. Each label's slots among the free ones (combinatorial number system).
  std::vector<char> taken(static_cast<std::size_t>(n), 0);
  std::vector<int> free_slots;
  for (int l = 0; l + 1 < label_count; ++l) {
    free_slots.clear();
    for (int s = 0; s < n; ++s) {
      if (!taken[static_cast<std::size_t>(s)]) free_slots.push_back(s);
    }
    std::uint64_t r = digits[static_cast<std::size_t>(l)];
    int x = static_cast<int>(free_slots.size());
    for (int j = g.multiplicity[static_cast<std::size_t>(l)]; j >= 1; --j) {
      --x;
      while (binomial(x, j) > r) --x;
      r -= binomial(x, j);
      const int s = free_slots[static_cast<std::size_t>(x)];
      labels[s] = static_cast<std::uint8_t>(l);
      taken[static_cast<std::size_t>(s)] = 1;
    }
  }
  for (int s = 0; s < n; ++s) {
    if (!taken[static_cast<std::size_t>(s)]) labels[s] = static_cast<std::uint8_t>(label_count - 1);
  }
}

std::uint64_t perm_size(const PieceGroup& g, bool& overflow) {
  const int n = g.size();
  if (g.blank >= 0) {
    auto f = falling_factorial(n, static_cast<int>(g.multiplicity.size()) - 1);
    if (!f) overflow = true;
    return f ? *f : 0;
  }
  if (g.distinct) {
    auto f = factorial(n);
    if (!f) {
      overflow = true;
      return 0;
    }
    return g.even_only ? *f / 2 : *f;
  }
  std::uint64_t size = 1;
  int free_count = n;
  for (std::size_t l = 0; l + 1 < g.multiplicity.size(); ++l) {
    const std::uint64_t b = binomial(free_count, g.multiplicity[l]);
    auto p = b == U64_MAX ? std::nullopt : checked_mul(size, b);
    if (!p) {
      overflow = true;
      return 0;
    }
    size = *p;
    free_count -= g.multiplicity[l];
  }
  return size;
}

std::uint64_t ori_rank(const PieceGroup& g, const GroupState& s) {
  const int n = g.size() - (g.ori_sum_fixed ? 1 : 0);
  std::uint64_t r = 0;
  for (int j = 0; j < n; ++j)
    r = r * static_cast<std::uint64_t>(g.orientations) + s.ori[static_cast<std::size_t>(j)];
  return r;
}

void ori_unrank(const PieceGroup& g, std::uint64_t r, GroupState& s) {
  const int o = g.orientations;
  const int n = g.size();
  const int free = n - (g.ori_sum_fixed ? 1 : 0);
  int sum = 0;
  for (int j = free - 1; j >= 0; --j) {
    s.ori[static_cast<std::size_t>(j)] =
        static_cast<std::uint8_t>(r % static_cast<std::uint64_t>(o));
    sum += s.ori[static_cast<std::size_t>(j)];
    r /= static_cast<std::uint64_t>(o);
  }
  if (g.ori_sum_fixed) {
    s.ori[static_cast<std::size_t>(n - 1)] =
        static_cast<std::uint8_t>(((g.ori_sum - sum) % o + o) % o);
  }
}

// Mixed: orientations of the pieces that keep one, in slot order.
// The orientations of the pieces that keep one, in slot order (for mixed_arrangement groups
// CompiledPuzzle::coordinate takes them in label order itself).
std::uint64_t mixed_ori_rank(const PieceGroup& g, const GroupState& s) {
  assert(!g.mixed_arrangement);
  std::uint64_t r = 0;
  for (int j = 0; j < g.size(); ++j) {
    if (g.label_ignored[s.labels[static_cast<std::size_t>(j)]]) continue;
    r = r * static_cast<std::uint64_t>(g.orientations) + s.ori[static_cast<std::size_t>(j)];
  }
  return r;
}

void mixed_ori_unrank(const PieceGroup& g, std::uint64_t r, GroupState& s) {
  if (g.mixed_arrangement) {
    std::uint8_t pos[32];
    tracked_slots(g, s.labels.data(), pos);
    const int k = static_cast<int>(g.multiplicity.size()) - 1;
    std::fill(s.ori.begin(), s.ori.end(), 0);
    for (int i = k - 1; i >= 0; --i) {
      s.ori[pos[i]] = static_cast<std::uint8_t>(r % static_cast<std::uint64_t>(g.orientations));
      r /= static_cast<std::uint64_t>(g.orientations);
    }
    return;
  }
  for (int j = g.size() - 1; j >= 0; --j) {
    if (g.label_ignored[s.labels[static_cast<std::size_t>(j)]]) {
      s.ori[static_cast<std::size_t>(j)] = 0;
      continue;
    }
    s.ori[static_cast<std::size_t>(j)] =
        static_cast<std::uint8_t>(r % static_cast<std::uint64_t>(g.orientations));
    r /= static_cast<std::uint64_t>(g.orientations);
  }
}

void apply_group(const PieceGroup& g, const GroupMove& m, const GroupState& from, GroupState& to) {
  // Orientations and increments are below o (position_of refuses others; moves are reduced),
  // so the sum needs one conditional subtraction, not a division (the search's hot path).
  const int o = g.orientations;
  const std::uint8_t* src = m.src.data();
  const std::uint8_t* dori = m.dori.data();
  const std::uint8_t* labels = from.labels.data();
  const std::uint8_t* ori = from.ori.data();
  std::uint8_t* to_labels = to.labels.data();
  std::uint8_t* to_ori = to.ori.data();
  for (int j = 0; j < g.size(); ++j) {
    const std::uint8_t s = src[j];
    const std::uint8_t label = labels[s];
    to_labels[j] = label;
    const int v = ori[s] + dori[j];
    to_ori[j] = g.label_ignored[label] ? 0 : static_cast<std::uint8_t>(v >= o ? v - o : v);
  }
}

// One set's part of a state, or of a move, with an empty part read as the identity.
std::uint8_t perm_at(const SetState& s, std::size_t i) {
  return s.perm.empty() ? static_cast<std::uint8_t>(i) : s.perm[i];
}
std::uint8_t ori_at(const SetState& s, std::size_t i) {
  return s.ori.empty() ? 0 : s.ori[i];
}
const SetState& set_part(const State& state, std::size_t set) {
  static_assert(true);
  return state.sets[set];
}

// The factored move table of a Mixed arrangement component (Component::arrangement_moves and
// ori_add; see compiled.hpp): a move sends every orientation value of one arrangement to the
// same next arrangement and adds the same increment to each tracked piece's orientation digit
// (digits in label order), so the arrangement is ranked once per (arrangement, move) instead of
// once per value and move. Returns false (nothing filled) when o^k is too large for the
// addition table.
Result<bool> fill_factored_table(const CompiledPuzzle& p, Component& c, const RunContext& run) {
  const PieceGroup& g = p.groups()[c.group];
  const int moves = p.move_count();
  const auto mc = static_cast<std::uint64_t>(moves);
  const int tracked = static_cast<int>(g.multiplicity.size()) - 1;
  const auto o = static_cast<std::uint32_t>(g.orientations);
  const std::uint64_t op = c.ori_part;  // o^tracked
  if (op * op > FACTORED_ADD_LIMIT || tracked <= 0) return false;
  const std::uint64_t arrangements = c.size / op;
  // Step 1. Digit-wise addition: ori_add[inc * op + x] = x + inc, digit by digit mod o (digit
  // 0 most significant).
  std::vector<std::uint32_t> digits(
      static_cast<std::size_t>(op * static_cast<std::uint64_t>(tracked)));
  for (std::uint64_t x = 0; x < op; ++x) {
    std::uint64_t y = x;
    for (int i = tracked - 1; i >= 0; --i) {
      digits[x * static_cast<std::uint64_t>(tracked) + static_cast<std::uint64_t>(i)] =
          static_cast<std::uint32_t>(y % o);
      y /= o;
    }
  }
  c.ori_add.resize(static_cast<std::size_t>(op * op));
  for (std::uint64_t inc = 0; inc < op; ++inc) {
    if ((inc & 0xFF) == 0 && run.should_stop()) return run.stop_error();  // op^2 entries
    const std::uint32_t* di = digits.data() + inc * static_cast<std::uint64_t>(tracked);
    for (std::uint64_t x = 0; x < op; ++x) {
      const std::uint32_t* dx = digits.data() + x * static_cast<std::uint64_t>(tracked);
      std::uint32_t y = 0;
      for (int i = 0; i < tracked; ++i) y = y * o + (dx[i] + di[i]) % o;
      c.ori_add[static_cast<std::size_t>(inc * op + x)] = y;
    }
  }
  // Step 2. Per arrangement: its tracked pieces' slots, then per move the next arrangement and
  // the increments. dst[m][slot]: where the move sends the slot's piece.
  std::vector<std::vector<std::uint8_t>> dst(static_cast<std::size_t>(moves));
  for (int m = 0; m < moves; ++m) {
    const GroupMove& gm = p.group_moves(m)[c.group];
    dst[static_cast<std::size_t>(m)].resize(gm.src.size());
    for (std::size_t j = 0; j < gm.src.size(); ++j) {
      dst[static_cast<std::size_t>(m)][gm.src[j]] = static_cast<std::uint8_t>(j);
    }
  }
  c.arrangement_moves.resize(static_cast<std::size_t>(arrangements * mc * 2));
  std::uint8_t pos[32], next[32];
  for (std::uint64_t a = 0; a < arrangements; ++a) {
    if ((a & 0xFFF) == 0 && run.should_stop()) return run.stop_error();
    unrank_arrangement(a, tracked, g.size(), pos);
    std::uint32_t* row = c.arrangement_moves.data() + a * mc * 2;
    for (int m = 0; m < moves; ++m) {
      const GroupMove& gm = p.group_moves(m)[c.group];
      const std::uint8_t* d = dst[static_cast<std::size_t>(m)].data();
      std::uint32_t inc = 0;
      for (int i = 0; i < tracked; ++i) {
        next[i] = d[pos[i]];
        inc = inc * o + gm.dori[next[i]] % o;
      }
      row[2 * m] = static_cast<std::uint32_t>(rank_arrangement(next, tracked, g.size()) * op);
      row[2 * m + 1] = static_cast<std::uint32_t>(inc * op);
    }
  }
  return true;
}

}  // namespace

State full_solved(const Definition& d) {
  State s;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const auto n = static_cast<std::size_t>(d.sets[k].pieces);
    SetState part;
    for (std::size_t i = 0; i < n; ++i) {
      part.perm.push_back(k < d.solved.sets.size() ? perm_at(d.solved.sets[k], i)
                                                   : static_cast<std::uint8_t>(i));
      part.ori.push_back(k < d.solved.sets.size() ? ori_at(d.solved.sets[k], i) : 0);
    }
    s.sets.push_back(std::move(part));
  }
  return s;
}

State replay(const Definition& d, State state, const std::vector<std::size_t>& moves) {
  for (std::size_t mi : moves) {
    const State& m = d.moves[mi].effect;
    State next = state;
    for (std::size_t k = 0; k < d.sets.size(); ++k) {
      const int o = d.sets[k].orientations;
      for (std::size_t i = 0; i < state.sets[k].perm.size(); ++i) {
        const std::uint8_t from = perm_at(m.sets[k], i);
        next.sets[k].perm[i] = state.sets[k].perm[from];
        const std::uint8_t ori = state.sets[k].ori[from];
        next.sets[k].ori[i] = ori == ORIENTATION_IGNORED
                                  ? ORIENTATION_IGNORED
                                  : static_cast<std::uint8_t>((ori + ori_at(m.sets[k], i)) % o);
      }
    }
    state = std::move(next);
  }
  return state;
}

int arrangement_parity(const std::vector<std::uint8_t>& values) {
  std::vector<char> seen(values.size(), 0);
  std::size_t cycles = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (seen[i]) continue;
    ++cycles;
    for (std::size_t j = i; !seen[j]; j = values[j]) seen[j] = 1;
  }
  return static_cast<int>((values.size() - cycles) % 2);
}

std::uint64_t definition_hash(const Definition& d) {
  std::string bytes;
  auto put = [&](const State& s) {
    for (const SetState& part : s.sets) {
      bytes += static_cast<char>(part.perm.size());
      bytes.append(part.perm.begin(), part.perm.end());
      bytes += static_cast<char>(part.ori.size());
      bytes.append(part.ori.begin(), part.ori.end());
    }
  };
  for (const PieceSet& set : d.sets) {
    bytes += set.name + '\0' + std::to_string(set.pieces) + '/' + std::to_string(set.orientations) +
             '\0';
  }
  put(full_solved(d));
  for (const Move& m : d.moves) {
    bytes += m.name + '\0' + std::to_string(m.base) + '^' + std::to_string(m.power) + '/' +
             std::to_string(m.qtm_cost) + '\0';
    // (Only a cost other than 1 is named: the hashes, and so the cached tables, of every
    // definition without weighted moves stay as they were.)
    if (m.htm_cost != 1) bytes += "h" + std::to_string(m.htm_cost) + '\0';
    put(m.effect);
  }
  return fnv1a64(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

Result<Metric> parse_metric(std::string_view text) {
  if (text == "htm") return Metric::Htm;
  if (text == "qtm") return Metric::Qtm;
  return make_error(fmt::format("unknown metric '{}': expected htm or qtm", text));
}

std::string_view metric_name(Metric metric) {
  return metric == Metric::Htm ? "htm" : "qtm";
}

Result<CompiledPuzzle> CompiledPuzzle::compile(const Definition& def, const CompileOptions& options,
                                               const RunContext& run) {
  CompiledPuzzle p;
  p.def_ = std::make_shared<const Definition>(def);
  p.metric_ = options.metric;
  const std::size_t set_count = def.sets.size();
  if (def.solved.sets.size() != set_count) {
    return make_error("the definition's solved state does not have one part per set");
  }
  for (const auto& set_illegal : def.illegal) {
    for (const auto& slot : set_illegal) {
      if (!slot.empty()) {
        return make_error(
            "definitions with Illegal entries (bandaged puzzles) are not supported by "
            "the search commands yet");
      }
    }
  }

  // Step 1. The search moves of the metric.
  if (!options.moves.empty()) {
    p.moves_ = options.moves;
  } else {
    for (std::size_t m = 0; m < def.moves.size(); ++m) {
      if (options.metric == Metric::Htm || def.moves[m].qtm_cost == 1) p.moves_.push_back(m);
    }
  }
  if (p.moves_.empty()) return make_error("the definition has no moves to search with");
  for (std::size_t m : p.moves_) {
    if (m >= def.moves.size() || def.moves[m].effect.sets.size() != set_count) {
      return make_error(fmt::format("move {} does not have one part per set", m));
    }
  }

  // Step 2. Groups: the orbits of each set's slots under every move.
  for (std::size_t s = 0; s < set_count; ++s) {
    const int n = def.sets[s].pieces;
    std::vector<int> parent(static_cast<std::size_t>(n));
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int x) {
      while (parent[static_cast<std::size_t>(x)] != x) {
        x = parent[static_cast<std::size_t>(x)] =
            parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
      }
      return x;
    };
    for (const Move& m : def.moves) {
      for (int i = 0; i < n; ++i) {
        const int a = find(i), b = find(perm_at(m.effect.sets[s], static_cast<std::size_t>(i)));
        if (a != b) parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
      }
    }
    std::map<int, std::vector<std::uint8_t>> orbits;
    for (int i = 0; i < n; ++i) orbits[find(i)].push_back(static_cast<std::uint8_t>(i));
    const SetState& solved = def.solved.sets[s];
    for (auto& [root, slots] : orbits) {
      PieceGroup g;
      g.set = s;
      g.orientations = def.sets[s].orientations;
      g.slots = slots;
      std::map<std::pair<int, int>, int> label_of;
      for (std::uint8_t slot : slots) {
        const bool ignored = ori_at(solved, slot) == ORIENTATION_IGNORED;
        label_of[{perm_at(solved, slot), ignored ? 1 : 0}] = 0;
      }
      int next = 0;
      for (auto& [key, label] : label_of) {
        label = next++;
        g.label_value.push_back(static_cast<std::uint8_t>(key.first));
        g.label_ignored.push_back(static_cast<char>(key.second));
        g.multiplicity.push_back(0);
      }
      for (std::uint8_t slot : slots) {
        const bool ignored = ori_at(solved, slot) == ORIENTATION_IGNORED;
        const int label = label_of[{perm_at(solved, slot), ignored ? 1 : 0}];
        g.solved_labels.push_back(static_cast<std::uint8_t>(label));
        g.solved_ori.push_back(
            ignored ? 0 : static_cast<std::uint8_t>(ori_at(solved, slot) % g.orientations));
        ++g.multiplicity[static_cast<std::size_t>(label)];
        g.ignored_pieces += ignored ? 1 : 0;
      }
      g.distinct =
          std::all_of(g.multiplicity.begin(), g.multiplicity.end(), [](int c) { return c == 1; });
      if (!g.distinct && g.size() <= 32 &&
          std::count_if(g.multiplicity.begin(), g.multiplicity.end(),
                        [](int c) { return c > 1; }) == 1) {
        for (std::size_t l = 0; l < g.multiplicity.size(); ++l) {
          if (g.multiplicity[l] > 1) g.blank = static_cast<int>(l);
        }
        int ignored_labels = 0;
        for (char c : g.label_ignored) ignored_labels += c ? 1 : 0;
        g.mixed_arrangement =
            g.label_ignored[static_cast<std::size_t>(g.blank)] && ignored_labels == 1;
      }
      p.groups_.push_back(std::move(g));
    }
  }

  // Step 3. The search moves on each group, and their inverses.
  for (std::size_t mi : p.moves_) {
    const Move& m = def.moves[mi];
    std::vector<GroupMove> per_group;
    for (const PieceGroup& g : p.groups_) {
      std::vector<int> local(static_cast<std::size_t>(def.sets[g.set].pieces), -1);
      for (int j = 0; j < g.size(); ++j) local[g.slots[static_cast<std::size_t>(j)]] = j;
      GroupMove gm;
      for (std::uint8_t slot : g.slots) {
        gm.src.push_back(static_cast<std::uint8_t>(local[perm_at(m.effect.sets[g.set], slot)]));
        gm.dori.push_back(
            static_cast<std::uint8_t>(ori_at(m.effect.sets[g.set], slot) % g.orientations));
      }
      per_group.push_back(std::move(gm));
    }
    p.group_moves_.push_back(std::move(per_group));
  }
  // Each move's inverse: the first move whose action undoes it, found by the action's bytes (a
  // hash look-up per move: definitions with thousands of moves and powers cost linear time, not
  // moves^2 comparisons).
  const int move_count = p.move_count();
  auto action_key = [&](int m, bool inverted) {
    std::string key;
    for (std::size_t gi = 0; gi < p.groups_.size(); ++gi) {
      const PieceGroup& g = p.groups_[gi];
      const GroupMove& gm = p.group_moves_[static_cast<std::size_t>(m)][gi];
      const std::size_t size = gm.src.size();
      std::string src(size, '\0'), dori(size, '\0');
      for (std::size_t j = 0; j < size; ++j) {
        if (!inverted) {
          src[j] = static_cast<char>(gm.src[j]);
          dori[j] = static_cast<char>(gm.dori[j]);
        } else {
          // a then b is the identity when b.src = a.src^-1 and b.dori[j] = -a.dori[b.src[j]].
          const std::size_t k = gm.src[j];
          src[k] = static_cast<char>(j);
          dori[k] = static_cast<char>((g.orientations - gm.dori[j]) % g.orientations);
        }
      }
      key += src;
      key += dori;
    }
    return key;
  };
  std::unordered_map<std::string, int> first_with_action;
  for (int m = 0; m < move_count; ++m) {
    if ((m & 255) == 0 && run.should_stop()) return run.stop_error();
    first_with_action.emplace(action_key(m, false), m);
  }
  for (int a = 0; a < move_count; ++a) {
    if ((a & 255) == 0 && run.should_stop()) return run.stop_error();
    auto it = first_with_action.find(action_key(a, true));
    const int inv = it == first_with_action.end() ? -1 : it->second;
    p.inverse_.push_back(inv);
    if (inv < 0) p.undirected_ = false;
  }

  // Step 4. Invariants proven from the moves: parity and orientation sums.
  for (std::size_t gi = 0; gi < p.groups_.size(); ++gi) {
    PieceGroup& g = p.groups_[gi];
    const int o = g.orientations;
    bool all_even = g.distinct && g.size() >= 2;
    bool sums_zero = true;
    for (int m = 0; m < move_count; ++m) {
      const GroupMove& gm = p.group_moves_[static_cast<std::size_t>(m)][gi];
      if (all_even && arrangement_parity(gm.src) != 0) all_even = false;
      int sum = 0;
      for (std::uint8_t d : gm.dori) sum += d;
      if (sum % o != 0) sums_zero = false;
    }
    g.even_only = all_even;
    if (o > 1 && g.ignored_pieces == 0 && sums_zero && g.size() >= 1) {
      g.ori_sum_fixed = true;
      int sum = 0;
      for (std::uint8_t v : g.solved_ori) sum += v;
      g.ori_sum = sum % o;
    }
  }

  // Step 5. Components and the rank space.
  std::vector<Component> comps;
  auto too_big = [&](std::string message) -> Result<CompiledPuzzle> {
    if (options.require_ranks) {
      return make_error(std::move(message), {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    p.components_.clear();
    p.states_ = 0;
    return p;
  };
  for (std::size_t gi = 0; gi < p.groups_.size(); ++gi) {
    const PieceGroup& g = p.groups_[gi];
    bool overflow = false;
    const std::uint64_t ps = perm_size(g, overflow);
    if (overflow) {
      return too_big(fmt::format("set {}: the arrangements of its {} pieces exceed 2^64 ranks",
                                 def.sets[g.set].name, g.size()));
    }
    const int o = g.orientations;
    // Orientations never change when no move changes one and the solved ones are equal.
    bool ori_moves = false;
    for (int m = 0; m < move_count; ++m) {
      for (std::uint8_t d : p.group_moves_[static_cast<std::size_t>(m)][gi].dori)
        ori_moves |= d != 0;
    }
    bool solved_equal = true;
    for (int j = 0; j < g.size(); ++j) {
      if (!g.label_ignored[g.solved_labels[static_cast<std::size_t>(j)]] &&
          g.solved_ori[static_cast<std::size_t>(j)] != g.solved_ori[0]) {
        solved_equal = false;
      }
    }
    const bool ori_matters = o > 1 && g.ignored_pieces < g.size() && (ori_moves || !solved_equal);
    if (ori_matters && g.ignored_pieces > 0) {
      auto os = checked_pow(static_cast<std::uint64_t>(o), g.size() - g.ignored_pieces);
      auto size = os ? checked_mul(ps, *os) : std::nullopt;
      if (!size) return too_big("a piece group's positions exceed 2^64 ranks");
      comps.push_back({Component::Kind::Mixed, gi, *size, 1, {}, 1, {}, {}, {}, {}});
      comps.back().ori_part = *os;
      continue;
    }
    if (ps > 1) comps.push_back({Component::Kind::Perm, gi, ps, 1, {}, 1, {}, {}, {}, {}});
    if (ori_matters) {
      auto os = checked_pow(static_cast<std::uint64_t>(o), g.size() - (g.ori_sum_fixed ? 1 : 0));
      if (!os) return too_big("a piece group's orientations exceed 2^64 ranks");
      if (*os > 1) comps.push_back({Component::Kind::Ori, gi, *os, 1, {}, 1, {}, {}, {}, {}});
    }
  }
  // Without a table when too big; direct ones first, then tabulated by increasing size.
  const auto mc = static_cast<std::uint64_t>(move_count);
  auto fits_table = [&](const Component& c) {
    return c.size <= UINT32_MAX && c.size * mc * 4 <= options.max_table_bytes;
  };
  std::stable_sort(comps.begin(), comps.end(), [&](const Component& a, const Component& b) {
    const bool ta = fits_table(a), tb = fits_table(b);
    if (ta != tb) return !ta;
    return ta && a.size > b.size;
  });
  std::uint64_t states = 1;
  for (auto it = comps.rbegin(); it != comps.rend(); ++it) {
    it->weight = states;
    auto next = checked_mul(states, it->size);
    if (!next) return too_big("the puzzle's rank space exceeds 2^64 positions");
    states = *next;
  }
  p.components_ = std::move(comps);
  p.states_ = states;

  // Step 6. Move tables, filled by an expander made while no component is tabulated yet (its
  // direct neighbours re-rank only what a move changes: the slots it touches of a distinct
  // permutation, the k tracked slots of an arrangement), values in increasing order (a
  // distinct permutation steps to the next one without unranking).
  {
    RankExpander direct(p);
    for (std::size_t k = 0; k < p.components_.size(); ++k) {
      Component& c = p.components_[k];
      if (c.kind == Component::Kind::Mixed && p.groups_[c.group].mixed_arrangement &&
          c.size <= UINT32_MAX && c.size / c.ori_part * mc * 8 <= options.max_table_bytes) {
        // A pattern database's tracked pieces with their orientations: the factored table. It
        // is kept as it is (a few hundred KB where the full table takes megabytes: the search's
        // lookups stay in cache; the 2x2x2's 4-corner databases search 15% faster), except
        // where small coordinates may be joined (def bfs, which joins tabulated ones): there
        // it is expanded into the full table when that fits, as before.
        auto factored = fill_factored_table(p, c, run);
        if (!factored) return factored.error();
        if (*factored) {
          if (fits_table(c) && options.joint_raw_limit > 0) {
            std::vector<std::uint32_t> table(static_cast<std::size_t>(c.size * mc));
            const std::uint64_t op = c.ori_part;
            for (std::uint64_t a = 0; a < c.size / op; ++a) {
              const std::uint32_t* row = c.arrangement_moves.data() + a * mc * 2;
              std::uint32_t* out = table.data() + a * op * mc;
              for (std::uint64_t m = 0; m < mc; ++m) {
                const std::uint32_t base = row[2 * m];
                const std::uint32_t* add = c.ori_add.data() + row[2 * m + 1];
                for (std::uint64_t x = 0; x < op; ++x) out[x * mc + m] = base + add[x];
              }
            }
            c.table = std::move(table);
            c.arrangement_moves.clear();
            c.arrangement_moves.shrink_to_fit();
            c.ori_add.clear();
            c.ori_add.shrink_to_fit();
          }
          continue;
        }
      }
      if (!fits_table(c)) continue;
      std::vector<std::uint32_t> table(static_cast<std::size_t>(c.size * mc));
      for (std::uint64_t x = 0; x < c.size; ++x) {
        // An entry costs a rank and an unrank per move (about 25 us for the 6x6 Loopover's 24
        // moves): a stop is checked every 1,024 entries, never after 65,536 (1.6 s, issue 38).
        if ((x & 0x3FF) == 0 && run.should_stop()) return run.stop_error();
        direct.component_neighbours(k, x, table.data() + x * mc);
      }
      c.table = std::move(table);
    }
  }
  // Step 7. Small coordinates whose combinations the moves do not all reach: one Joint.
  if (options.joint_raw_limit > 0) {
    if (auto ok = p.join_components(options, run); !ok) return ok.error();
  }
  (void)set_part;
  return p;
}

Status CompiledPuzzle::join_components(const CompileOptions& options, const RunContext& run) {
  const auto mc = static_cast<std::uint64_t>(move_count());
  // Step 1. The parts: tabulated coordinates, smallest first, while the raw product fits.
  std::vector<std::size_t> order;
  for (std::size_t k = 0; k < components_.size(); ++k) {
    if (components_[k].tabulated() && components_[k].size > 1) order.push_back(k);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return components_[a].size < components_[b].size;
  });
  std::vector<std::size_t> chosen;
  std::uint64_t raw_size = 1;
  for (std::size_t k : order) {
    const auto next = checked_mul(raw_size, components_[k].size);
    if (!next || *next > options.joint_raw_limit) break;
    raw_size = *next;
    chosen.push_back(k);
  }
  // The joint move table must fit where the parts' did, and a joint of more than
  // JOINT_MAX_VALUES values is not searched for (it would cost about as much as the search it
  // is meant to shrink).
  const std::uint64_t max_values = std::min<std::uint64_t>(
      {JOINT_MAX_VALUES, UINT32_MAX, options.max_table_bytes / std::max<std::uint64_t>(1, mc * 4)});
  std::vector<std::uint64_t> weight;
  std::vector<std::uint64_t> coords;
  std::vector<std::uint64_t> raws;
  auto decode = [&](std::uint64_t raw) {
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      coords[i] = (raw / weight[i]) % components_[chosen[i]].size;
    }
  };
  auto after = [&](int m) {
    std::uint64_t raw = 0;
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      raw +=
          std::uint64_t{
              components_[chosen[i]].table[coords[i] * mc + static_cast<std::uint64_t>(m)]} *
          weight[i];
    }
    return raw;
  };
  const Position start = solved();
  while (true) {
    // Parts of one piece group alone (a cube's permutation and orientation) are as good as
    // independent: only parts of two groups or more are searched.
    bool groups = false;
    for (std::size_t k : chosen) groups |= components_[k].group != components_[chosen[0]].group;
    if (chosen.size() < 2 || !groups) return Ok{};
    raw_size = 1;
    for (std::size_t k : chosen) raw_size *= components_[k].size;
    // Raw value: mixed radix over the chosen parts, the first most significant.
    weight.assign(chosen.size(), 1);
    for (std::size_t i = chosen.size() - 1; i > 0; --i) {
      weight[i - 1] = weight[i] * components_[chosen[i]].size;
    }
    coords.assign(chosen.size(), 0);

    // Step 2. Breadth-first search over raw values from the solved one (a bit per raw value),
    // given up past max_values values or half the raw values (too little to gain): the
    // largest part is then left out and the rest tried again.
    std::uint64_t start_raw = 0;
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      start_raw += coordinate(chosen[i], start) * weight[i];
    }
    std::vector<std::uint64_t> seen((raw_size + 63) / 64, 0);
    raws.assign(1, start_raw);
    seen[start_raw / 64] |= std::uint64_t{1} << (start_raw % 64);
    const std::uint64_t give_up = std::min(max_values, raw_size / 2);
    bool too_many = false;
    for (std::size_t q = 0; q < raws.size() && !too_many; ++q) {
      if ((q & 0x3FF) == 0 && run.should_stop()) return run.stop_error();
      decode(raws[q]);
      for (int m = 0; m < move_count(); ++m) {
        const std::uint64_t r = after(m);
        std::uint64_t& word = seen[r / 64];
        const std::uint64_t bit = std::uint64_t{1} << (r % 64);
        if ((word & bit) != 0) continue;
        word |= bit;
        raws.push_back(r);
      }
      too_many = raws.size() > give_up;
    }
    if (!too_many) break;
    chosen.pop_back();
  }
  std::sort(raws.begin(), raws.end());

  // Step 3. The joint move table over the dense values.
  Component joint;
  joint.kind = Component::Kind::Joint;
  joint.group = components_[chosen.front()].group;
  joint.size = raws.size();
  joint.table.resize(static_cast<std::size_t>(joint.size * mc));
  for (std::uint64_t x = 0; x < joint.size; ++x) {
    if ((x & 0x3FF) == 0 && run.should_stop()) return run.stop_error();
    decode(raws[static_cast<std::size_t>(x)]);
    for (int m = 0; m < move_count(); ++m) {
      const auto it = std::lower_bound(raws.begin(), raws.end(), after(m));
      joint.table[static_cast<std::size_t>(x * mc + static_cast<std::uint64_t>(m))] =
          static_cast<std::uint32_t>(it - raws.begin());
    }
  }
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    Component part = components_[chosen[i]];
    part.table.clear();
    part.table.shrink_to_fit();
    part.weight = weight[i];
    joint.parts.push_back(std::move(part));
  }
  joint.raws = std::move(raws);

  // Step 4. The components again: direct ones first, then tabulated by decreasing size.
  std::vector<Component> comps;
  for (std::size_t k = 0; k < components_.size(); ++k) {
    if (std::find(chosen.begin(), chosen.end(), k) == chosen.end()) {
      comps.push_back(std::move(components_[k]));
    }
  }
  comps.push_back(std::move(joint));
  std::stable_sort(comps.begin(), comps.end(), [](const Component& a, const Component& b) {
    if (a.tabulated() != b.tabulated()) return !a.tabulated();
    return a.tabulated() && a.size > b.size;
  });
  std::uint64_t states = 1;
  for (auto it = comps.rbegin(); it != comps.rend(); ++it) {
    it->weight = states;
    states *= it->size;  // at most the product before the join
  }
  components_ = std::move(comps);
  states_ = states;
  return Ok{};
}

std::uint64_t CompiledPuzzle::table_bytes() const {
  std::uint64_t b = 0;
  for (const Component& c : components_) {
    b += (c.table.size() + c.arrangement_moves.size() + c.ori_add.size()) * sizeof(std::uint32_t);
  }
  return b;
}

Position CompiledPuzzle::solved() const {
  Position pos;
  for (const PieceGroup& g : groups_) pos.push_back({g.solved_labels, g.solved_ori});
  return pos;
}

Result<Position> CompiledPuzzle::position_of(const State& state) const {
  const Definition& def = *def_;
  if (state.sets.size() != def.sets.size()) {
    return make_error("the state does not have one part per set");
  }
  Position pos;
  for (const PieceGroup& g : groups_) {
    const SetState& part = state.sets[g.set];
    const std::string& set_name = def.sets[g.set].name;
    GroupState gs;
    std::vector<int> count(g.multiplicity.size(), 0);
    for (std::uint8_t slot : g.slots) {
      const int value = perm_at(part, slot);
      const int ori = ori_at(part, slot);
      // A piece whose orientation the pattern ignores: any orientation in the state is fine.
      int label = -1;
      for (std::size_t l = 0; l < g.label_value.size(); ++l) {
        if (g.label_value[l] != value) continue;
        if (label < 0 || (g.label_ignored[l] != 0) == (ori == ORIENTATION_IGNORED))
          label = static_cast<int>(l);
      }
      if (label < 0) {
        return make_error(fmt::format("set {}, slot {}: piece {} cannot reach this slot from the "
                                      "solved state",
                                      set_name, slot + 1, value + 1),
                          {}, Error::NO_POSITION, ErrorKind::Unsolvable);
      }
      if (!g.label_ignored[static_cast<std::size_t>(label)] &&
          (ori == ORIENTATION_IGNORED || ori >= g.orientations)) {
        return make_error(fmt::format(
            "set {}, slot {}: orientation {} is not below {}", set_name, slot + 1,
            ori == ORIENTATION_IGNORED ? std::string("?") : std::to_string(ori), g.orientations));
      }
      ++count[static_cast<std::size_t>(label)];
      gs.labels.push_back(static_cast<std::uint8_t>(label));
      gs.ori.push_back(
          g.label_ignored[static_cast<std::size_t>(label)] ? 0 : static_cast<std::uint8_t>(ori));
    }
    if (count != g.multiplicity) {
      return make_error(fmt::format("set {}: the pieces of the state are not those of the solved "
                                    "pattern (in the slots they can reach)",
                                    set_name),
                        {}, Error::NO_POSITION, ErrorKind::Unsolvable);
    }
    pos.push_back(std::move(gs));
  }
  return pos;
}

State CompiledPuzzle::state_of(const Position& position) const {
  State s;
  for (std::size_t k = 0; k < def_->sets.size(); ++k) {
    const auto n = static_cast<std::size_t>(def_->sets[k].pieces);
    s.sets.push_back({std::vector<std::uint8_t>(n, 0), std::vector<std::uint8_t>(n, 0)});
  }
  for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
    const PieceGroup& g = groups_[gi];
    for (int j = 0; j < g.size(); ++j) {
      const std::uint8_t label = position[gi].labels[static_cast<std::size_t>(j)];
      const std::uint8_t slot = g.slots[static_cast<std::size_t>(j)];
      s.sets[g.set].perm[slot] = g.label_value[label];
      s.sets[g.set].ori[slot] = g.label_ignored[label]
                                    ? ORIENTATION_IGNORED
                                    : position[gi].ori[static_cast<std::size_t>(j)];
    }
  }
  return s;
}

void CompiledPuzzle::apply(Position& position, int move) const {
  for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
    GroupState next = position[gi];
    apply_group(groups_[gi], group_moves_[static_cast<std::size_t>(move)][gi], position[gi], next);
    position[gi] = std::move(next);
  }
}

void CompiledPuzzle::apply_to(const Position& from, int move, Position& to) const {
  for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
    apply_group(groups_[gi], group_moves_[static_cast<std::size_t>(move)][gi], from[gi], to[gi]);
  }
}

std::uint64_t CompiledPuzzle::coordinate(std::size_t component, const Position& position) const {
  return coordinate_of(components_[component], position);
}

std::uint64_t CompiledPuzzle::coordinate_of(const Component& c, const Position& position) const {
  if (c.kind == Component::Kind::Joint) {
    std::uint64_t raw = 0;
    for (const Component& part : c.parts) raw += coordinate_of(part, position) * part.weight;
    const auto it = std::lower_bound(c.raws.begin(), c.raws.end(), raw);
    // Not reachable (see CompileOptions::joint_raw_limit): some reachable value's index.
    return it == c.raws.end() ? 0 : static_cast<std::uint64_t>(it - c.raws.begin());
  }
  const PieceGroup& g = groups_[c.group];
  const GroupState& s = position[c.group];
  switch (c.kind) {
    case Component::Kind::Perm:
      return perm_rank(g, s.labels.data());
    case Component::Kind::Ori:
      return ori_rank(g, s);
    case Component::Kind::Mixed:
      if (g.mixed_arrangement) {
        // The arrangement of the tracked labels and their orientations in label order, from
        // their slots found once (the pattern databases' hot case).
        std::uint8_t pos[32];
        tracked_slots(g, s.labels.data(), pos);
        const int k = static_cast<int>(g.multiplicity.size()) - 1;
        std::uint64_t ori = 0;
        for (int i = 0; i < k; ++i) {
          ori = ori * static_cast<std::uint64_t>(g.orientations) + s.ori[pos[i]];
        }
        return rank_arrangement(pos, k, g.size()) * c.ori_part + ori;
      }
      return perm_rank(g, s.labels.data()) * c.ori_part + mixed_ori_rank(g, s);
    case Component::Kind::Joint:
      break;
  }
  return 0;
}

void CompiledPuzzle::set_coordinate(std::size_t component, std::uint64_t x,
                                    Position& position) const {
  set_coordinate_of(components_[component], x, position);
}

void CompiledPuzzle::set_coordinate_of(const Component& c, std::uint64_t x,
                                       Position& position) const {
  if (c.kind == Component::Kind::Joint) {
    const std::uint64_t raw = c.raws[static_cast<std::size_t>(x)];
    for (const Component& part : c.parts)
      set_coordinate_of(part, (raw / part.weight) % part.size, position);
    return;
  }
  const PieceGroup& g = groups_[c.group];
  GroupState& s = position[c.group];
  switch (c.kind) {
    case Component::Kind::Perm:
      perm_unrank(g, x, s.labels.data());
      break;
    case Component::Kind::Ori:
      ori_unrank(g, x, s);
      break;
    case Component::Kind::Mixed:
      perm_unrank(g, x / c.ori_part, s.labels.data());
      mixed_ori_unrank(g, x % c.ori_part, s);
      break;
    case Component::Kind::Joint:
      break;
  }
}

bool CompiledPuzzle::joint_reachable(const Position& position) const {
  for (const Component& c : components_) {
    if (c.kind != Component::Kind::Joint) continue;
    std::uint64_t raw = 0;
    for (const Component& part : c.parts) raw += coordinate_of(part, position) * part.weight;
    if (!std::binary_search(c.raws.begin(), c.raws.end(), raw)) return false;
  }
  return true;
}

std::uint64_t CompiledPuzzle::coordinate_after(std::size_t component, std::uint64_t x,
                                               int move) const {
  const Component& c = components_[component];
  if (c.tabulated()) {
    return c.table[static_cast<std::size_t>(x * static_cast<std::uint64_t>(move_count()) +
                                            static_cast<std::uint64_t>(move))];
  }
  Position pos = solved();
  set_coordinate(component, x, pos);
  GroupState after = pos[c.group];
  apply_group(groups_[c.group], group_moves_[static_cast<std::size_t>(move)][c.group], pos[c.group],
              after);
  pos[c.group] = std::move(after);
  return coordinate(component, pos);
}

std::uint64_t CompiledPuzzle::rank(const Position& position) const {
  std::uint64_t r = 0;
  for (std::size_t k = 0; k < components_.size(); ++k) {
    r += coordinate(k, position) * components_[k].weight;
  }
  return r;
}

Position CompiledPuzzle::unrank(std::uint64_t r) const {
  Position pos = solved();
  for (std::size_t k = 0; k < components_.size(); ++k) {
    const Component& c = components_[k];
    set_coordinate(k, (r / c.weight) % c.size, pos);
  }
  return pos;
}

// ---------------------------------------------------------------------------------------------
// RankExpander

RankExpander::RankExpander(const CompiledPuzzle& puzzle)
    : puzzle_(&puzzle),
      moves_(puzzle.move_count()),
      count_(puzzle.components().size()),
      coord_(puzzle.components().size(), 0),
      outer_(static_cast<std::size_t>(puzzle.move_count()), 0),
      direct_(puzzle.components().size()) {
  zeros_.assign(static_cast<std::size_t>(moves_), 0);
  inner_row_ = zeros_.data();
  inner_tabulated_ = count_ == 0 || puzzle.components()[count_ - 1].tabulated();
  inner_factored_ = count_ > 0 && !puzzle.components()[count_ - 1].arrangement_moves.empty();
  for (std::size_t k = 0; k < count_; ++k) {
    const Component& c = puzzle.components()[k];
    if (c.tabulated()) continue;
    Direct& d = direct_[k];
    if (!c.arrangement_moves.empty()) {
      d.factored = c.arrangement_moves.data();
      d.ori_add = c.ori_add.data();
      d.ori_size = c.ori_part;
      continue;
    }
    d.scratch = puzzle.solved();
    d.after_state = d.scratch[c.group];
    const PieceGroup& g = puzzle.groups()[c.group];
    d.fast = c.kind == Component::Kind::Perm && g.distinct && g.size() <= 20;
    d.arrangement = g.blank >= 0 && (c.kind == Component::Kind::Perm ||
                                     (c.kind == Component::Kind::Mixed && g.mixed_arrangement));
    if (d.arrangement) {
      const auto k = g.multiplicity.size() - 1;
      d.with_ori = c.kind == Component::Kind::Mixed;
      d.pos.assign(k, 0);
      d.ori.assign(k, 0);
      d.next_pos.assign(k, 0);
      for (std::size_t i = 0; i < k && d.with_ori; ++i)
        d.ori_size *= static_cast<std::uint64_t>(g.orientations);
      for (int m = 0; m < moves_; ++m) {
        const GroupMove& gm = puzzle.group_moves(m)[c.group];
        std::vector<std::uint8_t> dst(gm.src.size());
        for (std::size_t j = 0; j < gm.src.size(); ++j)
          dst[gm.src[j]] = static_cast<std::uint8_t>(j);
        d.dst.push_back(std::move(dst));
      }
    }
    if (!d.fast) continue;
    const int n = g.size();
    d.labels.assign(static_cast<std::size_t>(n), 0);
    d.after.assign(static_cast<std::size_t>(n), 0);
    d.prefix.assign(static_cast<std::size_t>(n + 1), 0);
    for (int i = 0; i < n; ++i) d.weight.push_back(*factorial(n - 1 - i));
    for (int m = 0; m < moves_; ++m) {
      const GroupMove& gm = puzzle.group_moves(m)[c.group];
      int lo = n, hi = -1;
      for (int j = 0; j < n; ++j) {
        if (gm.src[static_cast<std::size_t>(j)] != j) lo = std::min(lo, j), hi = std::max(hi, j);
      }
      d.lo.push_back(lo);
      d.hi.push_back(hi);
    }
  }
}

void RankExpander::load_direct(std::size_t k, std::uint64_t c) {
  Direct& d = direct_[k];
  if (d.loaded == c) return;
  if (d.factored != nullptr) {
    const std::uint64_t a = c / d.ori_size;
    d.ori_value = c - a * d.ori_size;
    d.row = d.factored + a * static_cast<std::uint64_t>(moves_) * 2;
    d.loaded = c;
    return;
  }
  const Component& comp = puzzle_->components()[k];
  const PieceGroup& g = puzzle_->groups()[comp.group];
  if (d.fast) {
    const int n = g.size();
    if (!g.even_only && d.loaded != ~0ULL && c == d.loaded + 1) {
      std::next_permutation(d.labels.begin(), d.labels.end());
    } else {
      perm_unrank(g, c, d.labels.data());
    }
    const std::uint8_t* t = d.labels.data();
    d.after[static_cast<std::size_t>(n - 1)] = 0;
    for (int i = n - 2; i >= 0; --i) {
      d.after[static_cast<std::size_t>(i)] =
          d.after[static_cast<std::size_t>(i + 1)] | (1u << t[i + 1]);
    }
    d.prefix[0] = 0;
    for (int i = 0; i < n; ++i) {
      const auto below = static_cast<std::uint64_t>(
          std::popcount(d.after[static_cast<std::size_t>(i)] & ((1u << t[i]) - 1u)));
      d.prefix[static_cast<std::size_t>(i + 1)] =
          d.prefix[static_cast<std::size_t>(i)] + below * d.weight[static_cast<std::size_t>(i)];
    }
  } else {
    puzzle_->set_coordinate(k, c, d.scratch);
    if (d.arrangement) {
      const GroupState& s = d.scratch[comp.group];
      tracked_slots(g, s.labels.data(), d.pos.data());
      for (std::size_t i = 0; i < d.pos.size(); ++i) d.ori[i] = s.ori[d.pos[i]];
    }
  }
  d.loaded = c;
}

std::uint64_t RankExpander::direct_after(std::size_t k, int m) {
  Direct& d = direct_[k];
  if (d.factored != nullptr) {
    const std::uint32_t* r = d.row + 2 * m;
    return std::uint64_t{r[0]} + d.ori_add[r[1] + d.ori_value];
  }
  const Component& comp = puzzle_->components()[k];
  const PieceGroup& g = puzzle_->groups()[comp.group];
  if (d.fast) {
    const int n = g.size();
    const int lo = d.lo[static_cast<std::size_t>(m)], hi = d.hi[static_cast<std::size_t>(m)];
    if (hi < lo) return d.loaded;
    const GroupMove& gm = puzzle_->group_moves(m)[comp.group];
    std::uint64_t r =
        d.prefix[static_cast<std::size_t>(lo)] +
        (d.prefix[static_cast<std::size_t>(n)] - d.prefix[static_cast<std::size_t>(hi + 1)]);
    std::uint32_t later = d.after[static_cast<std::size_t>(hi)];
    for (int i = hi; i >= lo; --i) {
      const int t = d.labels[gm.src[static_cast<std::size_t>(i)]];
      r += static_cast<std::uint64_t>(std::popcount(later & ((1u << t) - 1u))) *
           d.weight[static_cast<std::size_t>(i)];
      later |= 1u << t;
    }
    return g.even_only ? r >> 1 : r;
  }
  if (d.arrangement) {
    const std::uint8_t* dst = d.dst[static_cast<std::size_t>(m)].data();
    const auto k = d.pos.size();
    for (std::size_t i = 0; i < k; ++i) d.next_pos[i] = dst[d.pos[i]];
    std::uint64_t r = rank_arrangement(d.next_pos.data(), static_cast<int>(k), g.size());
    if (d.with_ori) {
      const GroupMove& gm = puzzle_->group_moves(m)[comp.group];
      const auto o = static_cast<unsigned>(g.orientations);
      std::uint64_t x = 0;
      for (std::size_t i = 0; i < k; ++i) x = x * o + (d.ori[i] + gm.dori[d.next_pos[i]]) % o;
      r = r * d.ori_size + x;
    }
    return r;
  }
  // The moved group into d.after_state (kept between calls: no allocation), swapped in for
  // the rank and back out.
  const std::size_t gi = comp.group;
  apply_group(g, puzzle_->group_moves(m)[gi], d.scratch[gi], d.after_state);
  std::swap(d.scratch[gi], d.after_state);
  const std::uint64_t r = puzzle_->coordinate(k, d.scratch);
  std::swap(d.scratch[gi], d.after_state);
  return r;
}

void RankExpander::load(std::uint64_t rank) {
  if (rank == have_) return;
  const std::uint64_t previous = have_;
  const auto& comps = puzzle_->components();
  bool outer_changed = false;
  if (count_ == 0) {
    have_ = rank;
    return;
  }
  const std::uint64_t inner_size = comps[count_ - 1].size;  // the innermost weight is 1
  const std::uint64_t block = have_ - coord_[count_ - 1];   // rank of the loaded outer value
  if (have_ != ~0ULL && rank >= block && rank - block < inner_size) {
    // Step 1a. The same outer coordinates (a scan within one block): no division.
    coord_[count_ - 1] = rank - block;
  } else if (have_ != ~0ULL && rank == have_ + 1) {
    // Step 1a'. Increment with carry.
    std::size_t k = count_ - 1;
    while (true) {
      if (++coord_[k] < comps[k].size) break;
      coord_[k] = 0;
      if (k == 0) break;
      --k;
    }
    outer_changed = k + 1 < count_;
  } else {
    // Step 1b. Decode.
    for (std::size_t k = 0; k < count_; ++k) {
      const std::uint64_t c = (rank / comps[k].weight) % comps[k].size;
      if (k + 1 < count_ && c != coord_[k]) outer_changed = true;
      coord_[k] = c;
    }
    if (have_ == ~0ULL) outer_changed = true;
  }
  have_ = rank;
  // Step 2. The outer components' part of every neighbour.
  if (outer_changed) {
    std::fill(outer_.begin(), outer_.end(), 0);
    for (std::size_t k = 0; k + 1 < count_; ++k) {
      const Component& c = comps[k];
      if (c.tabulated()) {
        const std::uint32_t* row = c.table.data() + coord_[k] * static_cast<std::uint64_t>(moves_);
        for (int m = 0; m < moves_; ++m) outer_[static_cast<std::size_t>(m)] += row[m] * c.weight;
      } else {
        load_direct(k, coord_[k]);
        for (int m = 0; m < moves_; ++m)
          outer_[static_cast<std::size_t>(m)] += direct_after(k, m) * c.weight;
      }
    }
  }
  // Step 2b. A dense scan (the previous rank close by) entering a new outer value: prefetch the
  // blocks of the innermost component that every move leads to (at most 4 KB each).
  if (outer_changed && prefetch_words_ != nullptr && count_ >= 2 && rank - previous < 64) {
    const std::uint64_t inner = comps[count_ - 1].size;
    const std::uint64_t bytes = inner * prefetch_bits_ / 8;
    if (bytes <= 4096) {
      for (int m = 0; m < moves_; ++m) {
        const std::uint64_t first = outer_[static_cast<std::size_t>(m)] * prefetch_bits_ / 8;
        for (std::uint64_t b = first & ~std::uint64_t{63}; b < first + bytes; b += 64) {
          __builtin_prefetch(prefetch_words_ + b);
        }
      }
    }
  }
  // Step 3. The innermost component.
  const Component& inner = comps[count_ - 1];
  if (inner.tabulated()) {
    inner_row_ = inner.table.data() + coord_[count_ - 1] * static_cast<std::uint64_t>(moves_);
    inner_table_ = inner.table.data();
    inner_rows_ = inner.size;
    block_ = rank - coord_[count_ - 1];
  } else {
    load_direct(count_ - 1, coord_[count_ - 1]);
    if (inner_factored_) {
      const Direct& d = direct_[count_ - 1];
      factored_block_ = rank - d.ori_value;
      factored_span_ = d.ori_size;
      factored_base_ = coord_[count_ - 1] - d.ori_value;
      factored_row_ = d.row;
      factored_add_ = d.ori_add;
    }
  }
}

void RankExpander::component_neighbours(std::size_t k, std::uint64_t value, std::uint32_t* out) {
  load_direct(k, value);
  for (int m = 0; m < moves_; ++m) out[m] = static_cast<std::uint32_t>(direct_after(k, m));
}

void RankExpander::neighbours(std::uint64_t rank, std::uint64_t* out) {
  int i = 0;
  for_each_neighbour(rank, [&](std::uint64_t r) {
    out[i++] = r;
    return false;
  });
}

}  // namespace permuzzle::def
