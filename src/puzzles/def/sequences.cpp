// Sequences found by search (sequences.hpp): commutators and conjugates of short move words
// that change few pieces.
#include "permuzzle/puzzles/def/sequences.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "permuzzle/puzzles/def/phases.hpp"

namespace permuzzle::def {

namespace {

using Flat = SequenceLibrary::Flat;

// x then y (definition.hpp's apply on flat states).
void compose(const Flat& x, const Flat& y, const std::vector<std::uint8_t>& modulus, Flat& out) {
  const std::size_t n = y.perm.size();
  out.perm.resize(n);
  out.ori.resize(n);
  for (std::size_t g = 0; g < n; ++g) {
    const std::uint16_t from = y.perm[g];
    out.perm[g] = x.perm[from];
    out.ori[g] = static_cast<std::uint8_t>((x.ori[from] + y.ori[g]) % modulus[g]);
  }
}

Flat inverse_of(const Flat& x, const std::vector<std::uint8_t>& modulus) {
  Flat out{std::vector<std::uint16_t>(x.perm.size()), std::vector<std::uint8_t>(x.ori.size())};
  for (std::size_t g = 0; g < x.perm.size(); ++g) {
    const std::uint16_t to = x.perm[g];
    out.perm[to] = static_cast<std::uint16_t>(g);
    out.ori[to] = static_cast<std::uint8_t>((modulus[g] - x.ori[g] % modulus[g]) % modulus[g]);
  }
  return out;
}

Flat identity_flat(std::size_t n) {
  Flat out{std::vector<std::uint16_t>(n), std::vector<std::uint8_t>(n, 0)};
  for (std::size_t g = 0; g < n; ++g) out.perm[g] = static_cast<std::uint16_t>(g);
  return out;
}

std::vector<std::uint16_t> support_of(const Flat& x) {
  std::vector<std::uint16_t> out;
  for (std::size_t g = 0; g < x.perm.size(); ++g) {
    if (x.perm[g] != g || x.ori[g] != 0) out.push_back(static_cast<std::uint16_t>(g));
  }
  return out;
}

// The bytes of a flat state: the dedup key of its net effect.
std::string key_of(const Flat& x) {
  std::string k(x.perm.size() * 3, '\0');
  for (std::size_t g = 0; g < x.perm.size(); ++g) {
    k[3 * g] = static_cast<char>(x.perm[g] & 0xff);
    k[3 * g + 1] = static_cast<char>(x.perm[g] >> 8);
    k[3 * g + 2] = static_cast<char>(x.ori[g]);
  }
  return k;
}

// The order of x, or 0 past MAX_SEQUENCE_ORDER.
int order_of(const Flat& x, const std::vector<std::uint8_t>& modulus) {
  const Flat id = identity_flat(x.perm.size());
  Flat power = x, next;
  for (int k = 1; k <= MAX_SEQUENCE_ORDER; ++k) {
    if (power.perm == id.perm && power.ori == id.ori) return k;
    compose(power, x, modulus, next);
    std::swap(power, next);
  }
  return 0;
}

// Appends the inverse of `word`: its moves' inverses, last first.
void append_inverse(const std::vector<std::size_t>& word,
                    const std::vector<std::size_t>& inverse_move, std::vector<std::size_t>& out) {
  for (auto it = word.rbegin(); it != word.rend(); ++it) out.push_back(inverse_move[*it]);
}

// The commutator [A, m] = A m A' m' of a word A and a move m: its moves, and its effect from
// those of A, A', m and m' (t1, t2: scratch).
std::vector<std::size_t> commutator_moves(const std::vector<std::size_t>& a, std::size_t m,
                                          const std::vector<std::size_t>& inverse_move) {
  std::vector<std::size_t> out = a;
  out.push_back(m);
  append_inverse(a, inverse_move, out);
  out.push_back(inverse_move[m]);
  return out;
}
void commutator(const Flat& a, const Flat& a_inverse, const Flat& m, const Flat& m_inverse,
                const std::vector<std::uint8_t>& modulus, Flat& t1, Flat& t2, Flat& out) {
  compose(a, m, modulus, t1);
  compose(t1, a_inverse, modulus, t2);
  compose(t2, m_inverse, modulus, out);
}

// Canonical words: no two adjacent moves of one base, and adjacent moves of commuting bases in
// increasing base order (each product counted once).
struct Words {
  const Definition& d;
  const std::vector<char>& commuting;  // [a * bases + b]
  bool may_follow(std::size_t last_move, std::size_t move) const {
    const std::size_t a = d.moves[last_move].base, b = d.moves[move].base;
    if (a == b) return false;
    return !(commuting[a * d.base_moves.size() + b] && b < a);
  }
};

// Meet in the middle (SequenceLibrary::meet_in_the_middle): canonical words of every move, by
// increasing length, keyed by where they send the pieces of the fixed slots (with their twists: the
// inverse effect on those slots, a 64-bit hash). A word V whose key an earlier word W has gives
// V W', which sends every fixed slot's piece home: a sequence for the phase of any support,
// of at most twice the words' length. Words are stored while `store_cap` lasts and probed
// while `probe_cap` lasts; the found are checked (the hash could collide), kept one per net
// effect up to inversion and returned shortest first, at most `cap` of them.
struct MeetInTheMiddle {
  const Definition& d;
  const Words& words;
  const std::vector<Flat>& move_effects;
  const std::vector<std::size_t>& inverse_move;
  const std::vector<std::uint8_t>& modulus;
  std::vector<std::uint16_t> fixed;  // global slots
  std::vector<char> phase_move;      // [move]: a move of the phase
  std::size_t store_cap = 300'000;
  std::size_t probe_cap = 1'000'000;
  std::size_t cap = 20'000;

  std::uint64_t key(const Flat& inverse) const {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (std::uint16_t f : fixed) {
      h = (h ^ inverse.perm[f]) * 0x100000001b3ULL;
      h = (h ^ (inverse.ori[f] + 0x9e37U)) * 0x100000001b3ULL;
    }
    return h;
  }

  Result<std::vector<MetWords::Word>> run(const RunContext& run_context) const {
    const std::size_t n = modulus.size();
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> stored;
    std::vector<MetWords::Word> found;
    std::unordered_map<std::string, char> seen;
    std::size_t probed = 0;
    std::vector<std::size_t> word;
    std::vector<Flat> inverse(1, identity_flat(n));  // per depth: the inverse of word[0..depth)
    std::uint64_t polls = 0;
    bool stopped = false;
    auto done = [&] { return stopped || found.size() >= cap || probed >= probe_cap; };
    // The words of exactly `length` moves, depth first.
    std::function<void(std::size_t)> visit = [&](std::size_t length) {
      if (done()) return;
      if ((++polls & 1023) == 0 && run_context.should_stop()) {
        stopped = true;
        return;
      }
      if (word.size() == length) {
        ++probed;
        const std::uint64_t k = key(inverse[length]);
        auto it = stored.find(k);
        if (it == stored.end()) {
          if (stored.size() < store_cap) stored.emplace(k, word);
          return;
        }
        const std::vector<std::size_t>& w = it->second;
        auto in_phase = [&](std::size_t m) { return phase_move[m] != 0; };
        if (std::all_of(word.begin(), word.end(), in_phase) &&
            std::all_of(w.begin(), w.end(), in_phase))
          return;
        MetWords::Word f;
        f.moves = word;
        append_inverse(w, inverse_move, f.moves);
        f.moves = merge_moves(d, {}, f.moves);
        if (f.moves.empty()) return;
        // The effect from the moves themselves (a colliding hash is caught here).
        Flat e = identity_flat(n), t;
        for (std::size_t m : f.moves) {
          compose(e, move_effects[m], modulus, t);
          std::swap(e, t);
        }
        for (std::uint16_t g : fixed) {
          if (e.perm[g] != g || e.ori[g] != 0) return;
        }
        std::string ek = key_of(e);
        if (seen.count(ek) || seen.count(key_of(inverse_of(e, modulus)))) return;
        seen.emplace(std::move(ek), 1);
        f.effect = std::move(e);
        found.push_back(std::move(f));
        return;
      }
      for (std::size_t m = 0; m < d.moves.size() && !done(); ++m) {
        if (inverse_move[m] >= d.moves.size()) continue;
        if (!word.empty() && !words.may_follow(word.back(), m)) continue;
        word.push_back(m);
        if (inverse.size() <= word.size()) inverse.emplace_back();
        // (W m)' = m' W'.
        compose(move_effects[inverse_move[m]], inverse[word.size() - 1], modulus,
                inverse[word.size()]);
        visit(length);
        word.pop_back();
      }
    };
    for (std::size_t length = 0; length < 16 && !done(); ++length) {
      const std::size_t before = probed;
      visit(length);
      if (probed == before) break;
    }
    if (stopped) return run_context.stop_error();
    std::stable_sort(found.begin(), found.end(),
                     [](const MetWords::Word& a, const MetWords::Word& b) {
                       return a.moves.size() < b.moves.size();
                     });
    return found;
  }
};

}  // namespace

Result<SequenceLibrary> SequenceLibrary::build(const Definition& d,
                                               const SequenceSearchOptions& options,
                                               const RunContext& run) {
  SequenceLibrary lib;
  lib.def_ = &d;
  lib.options_ = options;
  // Within the run's memory budget too (the library and for_phase's pairs are held while the
  // phases are planned).
  if (run.memory_budget() > 0)
    lib.options_.memory_bytes = std::min(options.memory_bytes, run.memory_budget());
  // Step 1. The flat layout and every move's flat effect and inverse move.
  std::size_t n = 0;
  for (const PieceSet& s : d.sets) {
    lib.offset_.push_back(n);
    for (int j = 0; j < s.pieces; ++j)
      lib.modulus_.push_back(static_cast<std::uint8_t>(s.orientations));
    n += static_cast<std::size_t>(s.pieces);
  }
  if (d.moves.size() > MAX_SEQUENCE_SEARCH_MOVES) {
    return make_error(
        fmt::format("sequence search: more than {} search moves", MAX_SEQUENCE_SEARCH_MOVES), {},
        Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  if (n > 65535) {
    return make_error("sequence search: more than 65,535 slots", {}, Error::NO_POSITION,
                      ErrorKind::LimitExceeded);
  }
  for (const Move& m : d.moves) {
    Flat f{std::vector<std::uint16_t>(n), std::vector<std::uint8_t>(n)};
    for (std::size_t k = 0; k < d.sets.size(); ++k) {
      for (std::size_t j = 0; j < m.effect.sets[k].perm.size(); ++j) {
        f.perm[lib.offset_[k] + j] =
            static_cast<std::uint16_t>(lib.offset_[k] + m.effect.sets[k].perm[j]);
        f.ori[lib.offset_[k] + j] = m.effect.sets[k].ori[j];
      }
    }
    lib.move_effects_.push_back(std::move(f));
  }
  for (const Move& m : d.moves) {
    const int inverse_power = d.base_moves[m.base].order - m.power;
    std::size_t inv = d.moves.size();
    for (std::size_t o = 0; o < d.moves.size(); ++o)
      if (d.moves[o].base == m.base && d.moves[o].power == inverse_power) inv = o;
    lib.inverse_move_.push_back(inv);
  }
  const std::size_t bases = d.base_moves.size();
  lib.commuting_ = commuting_bases(d);
  const Words words{d, lib.commuting_};
  // Step 2. The longest A within the pair budget: canonical words counted by their last base.
  int length = options.word_length;
  if (length <= 0) {
    std::vector<double> by_last(d.moves.size(), 1);
    double pairs = 0;
    length = 0;
    for (int len = 1; len <= 8; ++len) {
      if (len > 1) {
        std::vector<double> next(d.moves.size(), 0);
        for (std::size_t m = 0; m < d.moves.size(); ++m)
          for (std::size_t o = 0; o < d.moves.size(); ++o)
            if (words.may_follow(o, m)) next[m] += by_last[o];
        by_last = std::move(next);
      }
      double count = 0;
      for (double c : by_last) count += c;
      pairs += count * static_cast<double>(bases);
      if (pairs > static_cast<double>(options.pair_budget)) break;
      length = len;
    }
    length = std::max(length, 1);
  }
  lib.word_length_ = length;
  // The slots each base move changes (every power changes the same ones).
  std::vector<std::vector<std::uint16_t>> base_support(bases);
  std::vector<std::vector<char>> in_support(bases, std::vector<char>(n, 0));
  for (std::size_t m = 0; m < d.moves.size(); ++m) {
    if (d.moves[m].power != 1) continue;
    base_support[d.moves[m].base] = support_of(lib.move_effects_[m]);
    for (std::uint16_t g : base_support[d.moves[m].base]) in_support[d.moves[m].base][g] = 1;
  }
  // Step 3. Commutators [A, B], one per net effect up to inversion (the shortest).
  struct Found {
    Flat effect;
    std::vector<std::size_t> moves;
    std::size_t support = 0;
  };
  std::vector<Found> found;
  std::unordered_map<std::string, std::size_t> seen;  // key of effect (and of its inverse)
  std::uint64_t bytes = 0;
  const std::uint64_t entry_bytes = n * 9 + 128;
  bool full = false;
  std::size_t large_count = 0;
  auto offer = [&](Flat effect, std::vector<std::size_t> moves, std::size_t support) {
    std::string key = key_of(effect);
    auto it = seen.find(key);
    if (it == seen.end()) it = seen.find(key_of(inverse_of(effect, lib.modulus_)));
    if (it != seen.end()) {
      // The shorter of the two (the effect may be the inverse of the one kept: it goes too).
      Found& f = found[it->second];
      if (moves.size() < f.moves.size()) {
        f.moves = std::move(moves);
        f.effect = std::move(effect);
      }
      return;
    }
    // Larger entries (kept for their powers, twists and flips) have a share of their own.
    const bool is_large = support > MAX_SEQUENCE_SUPPORT;
    if (is_large && large_count >= MAX_LIBRARY_ENTRIES) return;
    if (found.size() >= MAX_LIBRARY_ENTRIES * 4 ||
        bytes + entry_bytes > lib.options_.memory_bytes) {
      full = true;
      return;
    }
    large_count += is_large ? 1 : 0;
    bytes += entry_bytes;
    seen.emplace(std::move(key), found.size());
    found.push_back({std::move(effect), std::move(moves), support});
  };
  std::vector<Flat> a_stack(static_cast<std::size_t>(length) + 1, identity_flat(n));
  std::vector<Flat> ainv_stack = a_stack;
  std::vector<std::size_t> word;
  std::uint64_t visited = 0;
  Flat t1, t2, t3, comm;
  bool stopped = false;
  std::function<void(int)> walk = [&](int depth) {
    if (stopped || full) return;
    if (depth > 0) {
      if ((++visited & 1023) == 0 && run.should_stop()) {
        stopped = true;
        return;
      }
      const Flat& a = a_stack[static_cast<std::size_t>(depth)];
      const Flat& ainv = ainv_stack[static_cast<std::size_t>(depth)];
      const std::size_t last_base = d.moves[word.back()].base;
      for (std::size_t b = 0; b < bases; ++b) {
        if (b == last_base || base_support[b].empty()) continue;
        // A B A' changes A(supp B): the commutator changes at least twice the slots it sends
        // outside supp B.
        int out = 0;
        for (std::uint16_t g : base_support[b]) out += in_support[b][a.perm[g]] ? 0 : 1;
        if (out > 2) continue;
        for (std::size_t m = 0; m < d.moves.size(); ++m) {
          if (d.moves[m].base != b) continue;
          commutator(a, ainv, lib.move_effects_[m], lib.move_effects_[lib.inverse_move_[m]],
                     lib.modulus_, t1, t2, comm);
          std::size_t support = 0;
          for (std::size_t g = 0; g < n && support <= MAX_POWERED_SUPPORT; ++g)
            support += (comm.perm[g] != g || comm.ori[g] != 0) ? 1 : 0;
          if (support == 0 || support > MAX_POWERED_SUPPORT) continue;
          offer(comm, commutator_moves(word, m, lib.inverse_move_), support);
        }
      }
    }
    if (depth == length) return;
    for (std::size_t m = 0; m < d.moves.size(); ++m) {
      if (lib.inverse_move_[m] >= d.moves.size()) continue;
      if (!word.empty() && !words.may_follow(word.back(), m)) continue;
      word.push_back(m);
      const auto next = static_cast<std::size_t>(depth) + 1;
      compose(a_stack[next - 1], lib.move_effects_[m], lib.modulus_, a_stack[next]);
      compose(lib.move_effects_[lib.inverse_move_[m]], ainv_stack[next - 1], lib.modulus_,
              ainv_stack[next]);
      walk(depth + 1);
      word.pop_back();
      if (stopped || full) return;
    }
  };
  walk(0);
  if (stopped) return run.stop_error();
  // Step 4. Powers of the larger commutators that change few slots; then the small entries,
  // shortest first.
  const std::size_t commutators = found.size();
  for (std::size_t i = 0; i < commutators && !full; ++i) {
    if (found[i].support <= MAX_SEQUENCE_SUPPORT) continue;
    if ((i & 255) == 0 && run.should_stop()) return run.stop_error();
    const int order = order_of(found[i].effect, lib.modulus_);
    if (order == 0) continue;
    Flat power = found[i].effect, next;
    std::vector<std::size_t> moves = found[i].moves;
    for (int k = 2; k <= order / 2; ++k) {
      compose(power, found[i].effect, lib.modulus_, next);
      std::swap(power, next);
      moves.insert(moves.end(), found[i].moves.begin(), found[i].moves.end());
      const std::size_t support = support_of(power).size();
      if (support > 0 && support <= MAX_SEQUENCE_SUPPORT)
        offer(power, merge_moves(d, {}, moves), support);
    }
  }
  // Step 4b. Commutators [E, B] of an entry E found so far and a move B: an E that twists one
  // slot of supp B in place and changes nothing else of it gives two slots twisted in place (the
  // corner twists and edge flips no commutator of short words gives).
  {
    const std::size_t first_level = found.size();
    std::vector<std::size_t> order(first_level);
    for (std::size_t i = 0; i < first_level; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return found[a].moves.size() < found[b].moves.size();
    });
    if (order.size() > MAX_LIBRARY_ENTRIES) order.resize(MAX_LIBRARY_ENTRIES);
    Flat einv, t1, t2, c2;
    std::size_t checked = 0;
    for (std::size_t i : order) {
      if (full) break;
      if ((++checked & 255) == 0 && run.should_stop()) return run.stop_error();
      const Flat e = found[i].effect;
      const std::vector<std::size_t> e_moves = found[i].moves;
      einv = inverse_of(e, lib.modulus_);
      for (std::size_t b = 0; b < bases; ++b) {
        if (base_support[b].empty()) continue;
        int out = 0, changed = 0;
        for (std::uint16_t g : base_support[b]) {
          out += in_support[b][e.perm[g]] ? 0 : 1;
          changed += (e.perm[g] != g || e.ori[g] != 0) ? 1 : 0;
        }
        if (out > 1 || changed != 1) continue;
        for (std::size_t m = 0; m < d.moves.size(); ++m) {
          if (d.moves[m].base != b) continue;
          commutator(e, einv, lib.move_effects_[m], lib.move_effects_[lib.inverse_move_[m]],
                     lib.modulus_, t1, t2, c2);
          const std::size_t support = support_of(c2).size();
          if (support == 0 || support > MAX_SEQUENCE_SUPPORT) continue;
          offer(c2, merge_moves(d, {}, commutator_moves(e_moves, m, lib.inverse_move_)), support);
        }
      }
    }
  }
  // Step 5. Products of two entries on the same slots: two 3-cycles of three edges that flip
  // them differently give, one times the other's inverse, a pure flip (no commutator of short
  // words twists in place).
  {
    std::map<std::vector<std::uint16_t>, std::vector<std::size_t>> by_support;
    for (std::size_t i = 0; i < found.size(); ++i) {
      if (found[i].support <= MAX_SEQUENCE_SUPPORT)
        by_support[support_of(found[i].effect)].push_back(i);
    }
    Flat product;
    std::size_t checked = 0;
    for (const auto& [support, same] : by_support) {
      for (std::size_t x = 0; x < same.size() && !full; ++x) {
        for (std::size_t y = x + 1; y < same.size() && !full; ++y) {
          if ((++checked & 1023) == 0 && run.should_stop()) return run.stop_error();
          // Copies: offer() may grow `found` (references into it would dangle).
          const Found a = found[same[x]];
          const Found b = found[same[y]];
          for (int inverted = 0; inverted < 2; ++inverted) {
            const Flat other = inverted ? inverse_of(b.effect, lib.modulus_) : b.effect;
            compose(a.effect, other, lib.modulus_, product);
            const std::size_t sup = support_of(product).size();
            if (sup == 0 || sup > MAX_SEQUENCE_SUPPORT) continue;
            std::vector<std::size_t> moves = a.moves;
            if (inverted) {
              append_inverse(b.moves, lib.inverse_move_, moves);
            } else {
              moves.insert(moves.end(), b.moves.begin(), b.moves.end());
            }
            offer(product, merge_moves(d, {}, moves), sup);
          }
        }
      }
    }
  }
  // The entries: the small ones, then at most a quarter as many larger ones (up to
  // MAX_POWERED_SUPPORT slots: F R U R' U' F' flips two edges and moves five more pieces; where
  // those are free, it is what flips), each shortest first.
  std::vector<std::size_t> small, large;
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (order_of(found[i].effect, lib.modulus_) == 0) continue;
    (found[i].support <= MAX_SEQUENCE_SUPPORT ? small : large).push_back(i);
  }
  for (auto* list : {&small, &large}) {
    std::stable_sort(list->begin(), list->end(), [&](std::size_t a, std::size_t b) {
      return found[a].moves.size() < found[b].moves.size();
    });
  }
  if (small.size() > MAX_LIBRARY_ENTRIES) small.resize(MAX_LIBRARY_ENTRIES);
  if (large.size() > MAX_LIBRARY_ENTRIES / 4) large.resize(MAX_LIBRARY_ENTRIES / 4);
  small.insert(small.end(), large.begin(), large.end());
  for (std::size_t i : small) {
    Entry e;
    e.support = support_of(found[i].effect);
    e.effect = std::move(found[i].effect);
    e.moves = std::move(found[i].moves);
    lib.entries_.push_back(std::move(e));
  }
  return lib;
}

Result<MetWords> SequenceLibrary::meet_in_the_middle(const SlotMarks& fixed,
                                                     const std::vector<std::size_t>& moves,
                                                     const RunContext& run) const {
  const Definition& d = *def_;
  const std::size_t n = modulus_.size();
  const Words words{d, commuting_};
  MeetInTheMiddle mitm{d, words, move_effects_, inverse_move_, modulus_, {}, {}};
  for (std::size_t k = 0; k < d.sets.size(); ++k)
    for (std::size_t j = 0; j < fixed[k].size(); ++j)
      if (fixed[k][j]) mitm.fixed.push_back(static_cast<std::uint16_t>(offset_[k] + j));
  // Within the library's memory share (a stored word costs about 256 bytes) and about 2e8 slot
  // updates (a word costs one composition over every slot).
  mitm.store_cap =
      std::min<std::size_t>(mitm.store_cap, static_cast<std::size_t>(options_.memory_bytes / 256));
  mitm.probe_cap = std::min<std::size_t>(mitm.probe_cap, 200'000'000 / std::max<std::size_t>(n, 1));
  mitm.phase_move.assign(d.moves.size(), 0);
  for (std::size_t m : moves) mitm.phase_move[m] = 1;
  auto found = mitm.run(run);
  if (!found) return found.error();
  return MetWords{std::move(*found)};
}

std::vector<char> SequenceLibrary::flat_marks(const SlotMarks& marks) const {
  std::vector<char> out(modulus_.size(), 0);
  for (std::size_t k = 0; k < marks.size() && k < offset_.size(); ++k)
    for (std::size_t j = 0; j < marks[k].size(); ++j) out[offset_[k] + j] = marks[k][j];
  return out;
}

// The conjugates C X C' of library entries X by canonical words C of at most `conjugator_length`
// moves whose changed slots C(supp X) avoid every fixed slot (for_phase's steps 1 and 2).
struct SequenceLibrary::Pool {
  struct Conjugator {
    std::vector<std::size_t> moves;
    Flat effect;
  };
  // (length, target?, X, C).
  struct Pair {
    std::uint32_t length;
    std::uint32_t entry;
    std::uint32_t conjugator;
    bool target;
    bool large;  // the entry changes more than MAX_SEQUENCE_SUPPORT slots
  };
  std::vector<Conjugator> conjugators;  // the empty word first
  std::vector<Pair> pairs;              // those changing a target slot first, then by length

  // A pair's net effect C X C' and its moves.
  Flat effect(const Pair& p, const std::vector<Entry>& entries,
              const std::vector<std::uint8_t>& modulus) const {
    const Conjugator& c = conjugators[p.conjugator];
    Flat t, out;
    compose(c.effect, entries[p.entry].effect, modulus, t);
    compose(t, inverse_of(c.effect, modulus), modulus, out);
    return out;
  }
  std::vector<std::size_t> moves(const Pair& p, const std::vector<Entry>& entries,
                                 const std::vector<std::size_t>& inverse_move) const {
    const Conjugator& c = conjugators[p.conjugator];
    std::vector<std::size_t> out = c.moves;
    const auto& x = entries[p.entry].moves;
    out.insert(out.end(), x.begin(), x.end());
    append_inverse(c.moves, inverse_move, out);
    return out;
  }
};

Result<SequenceLibrary::Pool> SequenceLibrary::conjugates(const std::vector<char>& is_fixed,
                                                          const std::vector<char>& is_target,
                                                          int conjugator_length,
                                                          const RunContext& run) const {
  const Definition& d = *def_;
  const std::size_t n = modulus_.size();
  const Words words{d, commuting_};
  Pool pool;
  // Step 1. The conjugating words C (the empty word first) with their effects.
  using Conjugator = Pool::Conjugator;
  using Pair = Pool::Pair;
  std::vector<Conjugator>& conjugators = pool.conjugators;
  conjugators.push_back({{}, identity_flat(n)});
  for (std::size_t from = 0, len = 0; len < static_cast<std::size_t>(conjugator_length); ++len) {
    const std::size_t to = conjugators.size();
    for (std::size_t c = from; c < to && conjugators.size() < MAX_CONJUGATORS; ++c) {
      if (run.should_stop()) return run.stop_error();
      for (std::size_t m = 0; m < d.moves.size() && conjugators.size() < MAX_CONJUGATORS; ++m) {
        if (inverse_move_[m] >= d.moves.size()) continue;
        if (!conjugators[c].moves.empty() && !words.may_follow(conjugators[c].moves.back(), m))
          continue;
        Conjugator next{conjugators[c].moves, {}};
        next.moves.push_back(m);
        compose(conjugators[c].effect, move_effects_[m], modulus_, next.effect);
        conjugators.push_back(std::move(next));
      }
    }
    from = to;
  }
  // Step 2. The pairs (C, X) with C(supp X) free of fixed slots.
  std::vector<Pair>& pairs = pool.pairs;
  const std::size_t max_pairs = std::max<std::size_t>(
      1024, static_cast<std::size_t>(options_.memory_bytes / sizeof(Pair) / 4));
  std::uint32_t length_cap = UINT32_MAX;
  std::uint64_t tried = 0;
  // Slot sets as bit masks of `words` 64-bit words: each entry's support, and per conjugator the
  // slots it sends to a fixed (a target) slot; a pair is tested with a few ANDs.
  const std::size_t words_per = (n + 63) / 64;
  std::vector<std::uint64_t> entry_mask(entries_.size() * words_per, 0);
  for (std::size_t e = 0; e < entries_.size(); ++e) {
    for (std::uint16_t g : entries_[e].support)
      entry_mask[e * words_per + g / 64] |= std::uint64_t{1} << (g % 64);
  }
  std::vector<std::uint32_t> entry_length(entries_.size());
  for (std::size_t e = 0; e < entries_.size(); ++e)
    entry_length[e] = static_cast<std::uint32_t>(entries_[e].moves.size());
  std::vector<std::uint64_t> to_fixed(words_per), to_target(words_per);
  for (std::size_t c = 0; c < conjugators.size(); ++c) {
    const Flat& ce = conjugators[c].effect;
    std::fill(to_fixed.begin(), to_fixed.end(), 0);
    std::fill(to_target.begin(), to_target.end(), 0);
    for (std::size_t g = 0; g < n; ++g) {
      if (is_fixed[ce.perm[g]]) to_fixed[g / 64] |= std::uint64_t{1} << (g % 64);
      if (is_target[ce.perm[g]]) to_target[g / 64] |= std::uint64_t{1} << (g % 64);
    }
    for (std::size_t e = 0; e < entries_.size(); ++e) {
      if ((++tried & 4095) == 0 && run.should_stop()) return run.stop_error();
      const auto length =
          entry_length[e] + static_cast<std::uint32_t>(2 * conjugators[c].moves.size());
      if (length > length_cap) continue;
      const std::uint64_t* mask = &entry_mask[e * words_per];
      bool ok = true, hits = false;
      for (std::size_t w = 0; w < words_per && ok; ++w) {
        ok = (mask[w] & to_fixed[w]) == 0;
        hits = hits || (mask[w] & to_target[w]) != 0;
      }
      if (!ok) continue;
      pairs.push_back({length, static_cast<std::uint32_t>(e), static_cast<std::uint32_t>(c), hits,
                       entries_[e].support.size() > MAX_SEQUENCE_SUPPORT});
      // Past the memory share: the shorter half is kept, and nothing longer is taken later.
      if (pairs.size() >= max_pairs) {
        std::stable_sort(pairs.begin(), pairs.end(),
                         [](const Pair& a, const Pair& b) { return a.length < b.length; });
        pairs.resize(max_pairs / 2);
        length_cap = pairs.back().length;
      }
    }
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) {
    if (a.target != b.target) return a.target;
    return a.length < b.length;
  });
  return pool;
}

// A found sequence as the puzzle's moves, replayed and its net effect compared with the
// search's `y` (an internal error if they differ); its order (0: past MAX_SEQUENCE_ORDER or the
// identity: not a sequence to use) and its inverse.
Result<PhaseSequence> SequenceLibrary::replayed(const std::vector<std::size_t>& moves,
                                                const Flat& y) const {
  const Definition& d = *def_;
  PhaseSequence seq;
  seq.moves = merge_moves(d, {}, moves);
  seq.effect = apply_moves(d, d.identity(), seq.moves);
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    for (std::size_t j = 0; j < seq.effect.sets[k].perm.size(); ++j) {
      if (offset_[k] + seq.effect.sets[k].perm[j] != y.perm[offset_[k] + j] ||
          seq.effect.sets[k].ori[j] != y.ori[offset_[k] + j]) {
        return make_error(
            "sequence search: a sequence's replay differs from its computed "
            "effect (internal error)",
            {}, Error::NO_POSITION, ErrorKind::Internal);
      }
    }
  }
  seq.order = order_of(y, modulus_);
  if (seq.order < 2) {
    seq.order = 0;
    return seq;
  }
  auto inverse = inverse_sequence(d, seq.moves);
  if (!inverse) return inverse.error();
  seq.inverse = std::move(*inverse);
  return seq;
}

Result<const MetWords*> SequenceLibrary::met_words(const SlotMarks& fixed,
                                                   const std::vector<std::size_t>& moves,
                                                   const RunContext& run, const MetWords* met,
                                                   std::optional<MetWords>& own) const {
  if (met != nullptr) return met;
  auto found = meet_in_the_middle(fixed, moves, run);
  if (!found) return found.error();
  own = std::move(*found);
  return &*own;
}

Result<std::vector<PhaseSequence>> SequenceLibrary::for_phase(
    const SlotMarks& fixed, const SlotMarks& target, const std::vector<std::size_t>& moves,
    std::size_t max_sequences, int conjugator_length, const RunContext& run,
    const MetWords* met) const {
  const std::size_t n = modulus_.size();
  const std::vector<char> is_fixed = flat_marks(fixed), is_target = flat_marks(target);
  // Steps 1 and 2. The conjugating words and the pairs (C, X) (conjugates).
  auto made = conjugates(is_fixed, is_target, conjugator_length, run);
  if (!made) return made.error();
  using Conjugator = Pool::Conjugator;
  const std::vector<Conjugator>& conjugators = made->conjugators;
  using Pair = Pool::Pair;
  const std::vector<Pair>& pairs = made->pairs;
  // Step 2a. Words met in the middle (given, or found here).
  std::optional<MetWords> own;
  auto words = met_words(fixed, moves, run, met, own);
  if (!words) return words.error();
  met = *words;
  // Step 3. The chosen: distinct net effects up to inversion; those changing a target slot up to
  // half the room, then the shortest changing a free slot none chosen changes, then more of
  // those changing a target slot.
  std::unordered_map<std::string, char> taken;
  std::vector<char> covered(n, 0);
  // Slots some chosen sequence twists in place (changes the orientation of and moves nothing
  // else): a phase's moves and 3-cycles may never change an orientation sum.
  std::vector<char> twisted(n, 0);
  // Slots joined by the phase's moves and the sequences chosen (union-find over global slots):
  // a sequence joining two classes lets pieces pass from one to the other.
  std::vector<std::uint16_t> parent(n);
  for (std::size_t g = 0; g < n; ++g) parent[g] = static_cast<std::uint16_t>(g);
  auto find = [&](std::uint16_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  auto join_all = [&](const Flat& y) {
    bool joined = false;
    for (std::size_t g = 0; g < n; ++g) {
      const std::uint16_t a = find(static_cast<std::uint16_t>(g)), b = find(y.perm[g]);
      if (a != b) {
        parent[a] = b;
        joined = true;
      }
    }
    return joined;
  };
  for (std::size_t m : moves) {
    join_all(move_effects_[m]);
    for (std::uint16_t g : support_of(move_effects_[m])) covered[g] = 1;
  }
  // The chosen: their moves and net effects.
  std::vector<std::pair<std::vector<std::size_t>, Flat>> chosen;
  // need: 0 any, 1 a slot not covered yet, 2 joining two classes of slots, 3 twisting in place
  // a slot none chosen twists in place.
  // Entries that twist in place (move no piece): so do their conjugates.
  std::vector<char> entry_twists(entries_.size(), 0);
  for (std::size_t e = 0; e < entries_.size(); ++e) {
    const Entry& x = entries_[e];
    entry_twists[e] = std::all_of(x.support.begin(), x.support.end(),
                                  [&](std::uint16_t g) { return x.effect.perm[g] == g; });
  }
  // Takes a sequence of net effect y (changing the slots `image`) unless its effect or its
  // inverse's was taken.
  auto choose = [&](const std::vector<std::uint16_t>& image, Flat y, std::vector<std::size_t> moves,
                    bool twists) {
    std::string key = key_of(y);
    if (taken.count(key) || taken.count(key_of(inverse_of(y, modulus_)))) return;
    taken.emplace(std::move(key), 1);
    for (std::uint16_t g : image) {
      covered[g] = 1;
      if (twists) twisted[g] = 1;
    }
    join_all(y);
    chosen.emplace_back(std::move(moves), std::move(y));
  };
  std::vector<std::uint16_t> image;
  auto take = [&](const Pair& p, int need) {
    // The slots C X C' changes, C(supp X): the kinds are told from them before the effect is
    // composed (most pairs of a pass are not of its kind).
    const Flat& ce = conjugators[p.conjugator].effect;
    image.clear();
    for (std::uint16_t g : entries_[p.entry].support) image.push_back(ce.perm[g]);
    if (need == 3 &&
        (!entry_twists[p.entry] ||
         std::all_of(image.begin(), image.end(), [&](std::uint16_t g) { return twisted[g] != 0; })))
      return;
    if (need == 1 &&
        std::all_of(image.begin(), image.end(), [&](std::uint16_t g) { return covered[g] != 0; }))
      return;
    if (need == 2 && std::all_of(image.begin(), image.end(),
                                 [&](std::uint16_t g) { return find(g) == find(image.front()); }))
      return;
    // C X C' changes exactly `image` and twists in place where X does: only the joining test
    // needs the effect itself.
    Flat y = made->effect(p, entries_, modulus_);
    if (need == 2 && std::all_of(image.begin(), image.end(),
                                 [&](std::uint16_t g) { return find(g) == find(y.perm[g]); }))
      return;
    choose(image, std::move(y), made->moves(p, entries_, inverse_move_),
           entry_twists[p.entry] != 0);
  };
  // Passes over the pairs (target first, then by length): each takes those of its kind while
  // the room it has lasts.
  std::vector<const Pair*> by_length;
  for (const Pair& p : pairs) by_length.push_back(&p);
  std::stable_sort(by_length.begin(), by_length.end(),
                   [](const Pair* a, const Pair* b) { return a->length < b->length; });
  // size: 0 small entries only, 1 larger ones only, 2 both.
  auto pass = [&](const std::vector<const Pair*>& list, std::size_t room, int size, bool target,
                  int need) {
    const std::size_t until = std::min(max_sequences, chosen.size() + room);
    for (const Pair* p : list) {
      if (chosen.size() >= until) break;
      if ((size == 2 || p->large == (size == 1)) && (!target || p->target)) take(*p, need);
    }
  };
  std::vector<const Pair*> target_first;
  for (const Pair& p : pairs) target_first.push_back(&p);
  const std::size_t eighth = std::max<std::size_t>(1, max_sequences / 8);
  // First the words met in the middle that change a target slot (shortest first), up to a
  // quarter of the room.
  {
    const std::size_t until = std::min(max_sequences, chosen.size() + max_sequences / 4);
    for (const MetWords::Word& f : met->words) {
      if (chosen.size() >= until) break;
      image = support_of(f.effect);
      if (std::none_of(image.begin(), image.end(),
                       [&](std::uint16_t g) { return is_target[g] != 0; }))
        continue;
      if (order_of(f.effect, modulus_) == 0) continue;
      const bool twists = std::all_of(image.begin(), image.end(),
                                      [&](std::uint16_t g) { return f.effect.perm[g] == g; });
      choose(image, f.effect, f.moves, twists);
    }
  }
  pass(target_first, max_sequences / 2, 0, true, 0);
  pass(target_first, eighth, 0, true, 3);
  pass(by_length, eighth, 0, false, 3);
  pass(by_length, max_sequences / 4, 0, false, 2);
  // Larger entries may join classes too: a slot no move changes may have no short 3-cycle to
  // the others that keeps the placed slots.
  pass(by_length, eighth, 2, false, 2);
  pass(target_first, eighth, 1, true, 0);
  pass(by_length, max_sequences, 0, false, 1);
  pass(by_length, eighth, 2, false, 1);
  pass(target_first, max_sequences, 0, true, 0);
  // Step 4. Each as a sequence of the puzzle's moves, replayed and checked.
  std::vector<PhaseSequence> out;
  for (const auto& [moves, y] : chosen) {
    if (run.should_stop()) return run.stop_error();
    auto seq = replayed(moves, y);
    if (!seq) return seq.error();
    if (seq->order >= 2) out.push_back(std::move(*seq));
  }
  return out;
}

Result<std::vector<PhaseSequence>> SequenceLibrary::candidates(
    const SlotMarks& fixed, const std::vector<std::size_t>& moves, int conjugator_length,
    std::size_t limit, const RunContext& run, const MetWords* met) const {
  const std::vector<char> is_fixed = flat_marks(fixed), none(modulus_.size(), 0);
  auto made = conjugates(is_fixed, none, conjugator_length, run);
  if (!made) return made.error();
  std::optional<MetWords> own;
  auto words = met_words(fixed, moves, run, met, own);
  if (!words) return words.error();
  met = *words;
  // Both lists are shortest first (no pair changes a target slot here): merged by length, one
  // per net effect up to inversion.
  std::unordered_map<std::string, char> taken;
  std::vector<PhaseSequence> out;
  const auto& pairs = made->pairs;
  std::size_t w = 0, p = 0;
  Flat y;
  while (out.size() < limit && (w < met->words.size() || p < pairs.size())) {
    if (run.should_stop()) return run.stop_error();
    std::vector<std::size_t> word;
    const bool from_met = p >= pairs.size() ||
                          (w < met->words.size() && met->words[w].moves.size() <= pairs[p].length);
    if (from_met) {
      word = met->words[w].moves;
      y = met->words[w++].effect;
    } else {
      const Pool::Pair& pair = pairs[p++];
      y = made->effect(pair, entries_, modulus_);
      word = made->moves(pair, entries_, inverse_move_);
    }
    std::string key = key_of(y);
    if (taken.count(key) || taken.count(key_of(inverse_of(y, modulus_)))) continue;
    taken.emplace(std::move(key), 1);
    auto seq = replayed(word, y);
    if (!seq) return seq.error();
    if (seq->order >= 2) out.push_back(std::move(*seq));
  }
  return out;
}

}  // namespace permuzzle::def
