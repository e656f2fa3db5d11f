// Short words: Minkwitz-style word chain, ball of shortest words, word shortening.
//
// Data layout. Every permutation inside is a flat vector of n images (n = the group's degree,
// 0-based). The ball is stored compactly: element k has its images at ball_images[k*n ...],
// its BFS parent and the letter that led to it (word(k) = word(parent) + letter), and its depth;
// an open-addressing table of element indices finds an element by its images. The word chain has
// one Level per base point: slot[p] is the index of the stored entry whose element u maps the
// base point to p (u fixes the earlier base points), or -1; entries keep u^-1 (for sifting) and u's
// word. An element x sifts as x = u_{m-1} * ... * u_0, so its word is the entries' words from the
// deepest level up.
#include "permuzzle/group/words.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <limits>
#include <numeric>
#include <optional>

namespace permuzzle {

Word inverse_word(const Word& w) {
  Word result(w.rbegin(), w.rend());
  for (Letter& l : result) l.exponent = -l.exponent;
  return result;
}

Word reduce_word(const Word& w, const std::vector<long long>& orders) {
  std::vector<std::pair<std::size_t, long long>> runs;  // (generator, net exponent)
  auto normalise = [&](std::pair<std::size_t, long long>& run) {
    long long ord = run.first < orders.size() ? orders[run.first] : 0;
    if (ord <= 0) return;
    long long e = ((run.second % ord) + ord) % ord;
    if (2 * e > ord) e -= ord;
    run.second = e;
  };
  for (const Letter& l : w) {
    if (!runs.empty() && runs.back().first == l.generator) {
      runs.back().second += l.exponent;
    } else {
      runs.emplace_back(l.generator, l.exponent);
    }
    normalise(runs.back());
    if (runs.back().second == 0) runs.pop_back();
  }
  Word result;
  for (const auto& [g, e] : runs) {
    for (long long i = 0; i < (e < 0 ? -e : e); ++i) result.push_back(Letter{g, e < 0 ? -1 : 1});
  }
  return result;
}

std::vector<long long> generator_orders(const PermGroup& group) {
  std::vector<long long> orders;
  for (const Perm& g : group.generators()) {
    mpz_class o = g.order();
    orders.push_back(o.fits_slong_p() ? o.get_si() : 0);
  }
  return orders;
}

namespace {

using Images = std::vector<Point>;
constexpr std::uint32_t EMPTY = std::numeric_limits<std::uint32_t>::max();

std::uint64_t hash_images(const Point* p, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h ^ (h >> 29);
}

Images identity(std::size_t n) {
  Images id(n);
  std::iota(id.begin(), id.end(), Point{0});
  return id;
}

// a * b (apply a, then b).
Images multiply(const Images& a, const Images& b) {
  Images r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = b[a[i]];
  return r;
}

Images invert(const Images& a) {
  Images r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[a[i]] = static_cast<Point>(i);
  return r;
}

Word concat(const Word& a, const Word& b) {
  Word r = a;
  r.insert(r.end(), b.begin(), b.end());
  return r;
}

struct Entry {
  Images u_inv;
  Word word;
};

struct Level {
  Point base = 0;
  std::size_t orbit_size = 0;
  std::vector<std::int32_t> slot;  // orbit point -> entry index, -1 = not yet known
  std::vector<Entry> entries;
  std::size_t filled = 0;
};

}  // namespace

struct ShortWords::Impl {
  std::size_t n = 0;
  std::vector<long long> orders;
  std::vector<Images> letter_images;  // generators and inverses, extended to n
  std::vector<Letter> letters;
  // Ball of shortest words.
  std::vector<Point> ball_images;
  std::vector<std::uint32_t> ball_parent;
  std::vector<std::uint16_t> ball_letter;
  std::vector<std::uint8_t> ball_depth;
  std::vector<std::uint32_t> table;  // open addressing over ball indices, EMPTY = free
  std::size_t radius = 0;
  std::vector<Level> levels;
  Images identity_images;

  std::size_t ball_size() const { return ball_parent.size(); }
  const Point* ball_at(std::size_t k) const { return ball_images.data() + k * n; }

  std::uint32_t find(const Point* p) const {
    if (table.empty()) return EMPTY;
    std::size_t mask = table.size() - 1;
    for (std::size_t h = hash_images(p, n) & mask;; h = (h + 1) & mask) {
      std::uint32_t k = table[h];
      if (k == EMPTY) return EMPTY;
      if (std::memcmp(ball_at(k), p, n * sizeof(Point)) == 0) return k;
    }
  }
  void insert(std::uint32_t k) {
    std::size_t mask = table.size() - 1;
    std::size_t h = hash_images(ball_at(k), n) & mask;
    while (table[h] != EMPTY) h = (h + 1) & mask;
    table[h] = k;
  }
  Word ball_word(std::uint32_t k) const {
    Word w;
    while (k != 0) {
      w.push_back(letters[ball_letter[k]]);
      k = ball_parent[k];
    }
    std::reverse(w.begin(), w.end());
    return w;
  }

  // Step 1 of build: breadth-first ball from the identity, at most `limit` elements.
  // Returns false when the run asked to stop (polled every few million image writes: each
  // element costs letters x n of them, thousands of letters on thousands of points is 10^7).
  bool build_ball(std::size_t limit, const RunContext* run) {
    std::size_t capacity = 16;
    while (capacity < 2 * limit + 2) capacity <<= 1;
    table.assign(capacity, EMPTY);
    Images id = identity(n);
    // Reserved once: growing by doubling would hold the old and the new copy at once (three
    // times the ball); pages not yet written cost nothing.
    ball_images.reserve(limit * n);
    ball_images = id;
    ball_parent.push_back(0);
    ball_letter.push_back(0);
    ball_depth.push_back(0);
    insert(0);
    std::size_t layer_begin = 0, layer_end = 1, depth = 0;
    Images next(n);
    constexpr std::size_t POLL_WORK = std::size_t{1} << 22;
    std::size_t work = 0;
    while (true) {
      bool full = false;
      for (std::size_t k = layer_begin; k < layer_end && !full; ++k) {
        for (std::size_t l = 0; l < letter_images.size(); ++l) {
          work += n;
          if (work >= POLL_WORK) {
            work = 0;
            if (run && run->should_stop()) return false;
          }
          const Point* p = ball_at(k);
          for (std::size_t i = 0; i < n; ++i) next[i] = letter_images[l][p[i]];
          if (find(next.data()) != EMPTY) continue;
          if (ball_size() >= limit) {
            full = true;
            break;
          }
          ball_images.insert(ball_images.end(), next.begin(), next.end());
          ball_parent.push_back(static_cast<std::uint32_t>(k));
          ball_letter.push_back(static_cast<std::uint16_t>(l));
          ball_depth.push_back(static_cast<std::uint8_t>(std::min<std::size_t>(depth + 1, 255)));
          insert(static_cast<std::uint32_t>(ball_size() - 1));
        }
      }
      if (full) {  // every element of length <= depth is in
        radius = depth;
        return true;
      }
      if (ball_size() == layer_end) {  // no new element: the ball is the whole group
        radius = std::numeric_limits<std::size_t>::max();
        return true;
      }
      radius = depth + 1;
      layer_begin = layer_end;
      layer_end = ball_size();
      ++depth;
    }
  }

  // Minkwitz's step: sift t (with word w) through the levels; wherever w is shorter than the
  // stored word for the same orbit point (or none is stored), store it and go on sifting the
  // displaced element. Returns whether a table entry changed. Words longer than `limit` stop.
  bool step(Images t, Word w, std::size_t limit) {
    bool changed = false;
    for (Level& lv : levels) {
      Point b = t[lv.base];
      std::int32_t& s = lv.slot[b];
      if (s < 0) {
        s = static_cast<std::int32_t>(lv.entries.size());
        lv.entries.push_back({invert(t), std::move(w)});
        ++lv.filled;
        return true;
      }
      Entry& e = lv.entries[static_cast<std::size_t>(s)];
      if (w.size() < e.word.size()) {
        Images old = invert(e.u_inv);
        e.u_inv = invert(t);
        std::swap(e.word, w);
        t = std::move(old);
        changed = true;
      }
      for (std::size_t i = 0; i < n; ++i) t[i] = e.u_inv[t[i]];
      w = reduce_word(concat(w, inverse_word(e.word)), orders);
      bool id = true;
      for (std::size_t i = 0; i < n && id; ++i) id = t[i] == i;
      if (id || w.size() > limit) return changed;
    }
    return changed;
  }

  bool complete() const {
    for (const Level& lv : levels) {
      if (lv.filled < lv.orbit_size) return false;
    }
    return true;
  }

  std::size_t max_word() const {
    std::size_t m = 0;
    for (const Level& lv : levels) {
      for (const Entry& e : lv.entries) m = std::max(m, e.word.size());
    }
    return m;
  }

  // Sum of the words a sift of x picks (SIZE_MAX when x does not sift through, or when the sum
  // passes `bound`).
  std::size_t sift_length(Images& x, std::size_t bound) const {
    std::size_t total = 0;
    for (const Level& lv : levels) {
      std::int32_t s = lv.slot[x[lv.base]];
      if (s < 0) return std::numeric_limits<std::size_t>::max();
      const Entry& e = lv.entries[static_cast<std::size_t>(s)];
      total += e.word.size();
      if (total > bound) return std::numeric_limits<std::size_t>::max();
      for (std::size_t i = 0; i < n; ++i) x[i] = e.u_inv[x[i]];
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (x[i] != i) return std::numeric_limits<std::size_t>::max();
    }
    return total;
  }

  Word sift_word(Images x) const {
    std::vector<const Word*> parts;
    for (const Level& lv : levels) {
      const Entry& e = lv.entries[static_cast<std::size_t>(lv.slot[x[lv.base]])];
      parts.push_back(&e.word);
      for (std::size_t i = 0; i < n; ++i) x[i] = e.u_inv[x[i]];
    }
    Word w;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it)
      w.insert(w.end(), (*it)->begin(), (*it)->end());
    return reduce_word(w, orders);
  }

  const Images& letter_of(const Letter& l) const {
    for (std::size_t k = 0; k < letters.size(); ++k) {
      if (letters[k] == l) return letter_images[k];
    }
    // An involution's inverse letter is not in the list: it equals the letter itself.
    for (std::size_t k = 0; k < letters.size(); ++k) {
      if (letters[k].generator == l.generator) return letter_images[k];
    }
    return identity_images;  // an identity generator
  }

  Word shorten(Word w) const {
    // Letters of an involution are stored with exponent +1 only (g^-1 = g).
    w = reduce_word(w, orders);
    const std::size_t window = std::min<std::size_t>(
        radius == std::numeric_limits<std::size_t>::max() ? 64 : 3 * radius + 3, 64);
    // One pass from left to right; after a replacement the scan resumes a window earlier (a
    // shorter subword may now end there). Every replacement shortens the word, so it ends; the
    // total work is bounded as well (about 10^8 point operations).
    Images p(n);
    std::size_t i = 0, work = 0;
    const std::size_t max_work = 100'000'000 / n + 1;
    while (i < w.size() && work < max_work) {
      bool replaced = false;
      std::iota(p.begin(), p.end(), Point{0});
      for (std::size_t j = i; j < w.size() && j < i + window; ++j, ++work) {
        const Images& l = letter_of(w[j]);
        for (std::size_t q = 0; q < n; ++q) p[q] = l[p[q]];
        std::size_t len = j - i + 1;
        if (len < 2) continue;
        std::uint32_t k = find(p.data());
        if (k != EMPTY && ball_depth[k] < len) {
          Word replacement = ball_word(k);
          Word out(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(i));
          out.insert(out.end(), replacement.begin(), replacement.end());
          out.insert(out.end(), w.begin() + static_cast<std::ptrdiff_t>(j + 1), w.end());
          w = reduce_word(out, orders);
          i = i >= window ? i - window : 0;
          replaced = true;
          break;
        }
      }
      if (!replaced) ++i;
    }
    return w;
  }
};

ShortWords::ShortWords() : impl_(std::make_unique<Impl>()) {}
ShortWords::~ShortWords() = default;
ShortWords::ShortWords(ShortWords&&) noexcept = default;

Result<std::shared_ptr<ShortWords>> ShortWords::build(const PermGroup& group,
                                                      const ShortWordOptions& options,
                                                      const RunContext* run) {
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  std::shared_ptr<ShortWords> sw(new ShortWords());
  sw->group_ = group;
  sw->sift_tries_ = options.sift_tries;
  Impl& im = *sw->impl_;
  const std::size_t n = std::max<std::size_t>(group.degree(), 1);
  im.n = n;
  im.identity_images = identity(n);
  im.orders = generator_orders(group);

  // Step 1. Letters: each non-identity generator and its inverse (an involution once).
  const auto& gens = group.generators();
  for (std::size_t g = 0; g < gens.size(); ++g) {
    if (gens[g].is_identity()) continue;
    Perm p = gens[g].extended(n);
    im.letter_images.push_back(p.images());
    im.letters.push_back({g, 1});
    Perm inv = p.inverse();
    if (inv != p) {
      im.letter_images.push_back(inv.images());
      im.letters.push_back({g, -1});
    }
  }
  if (im.letters.size() > 65535) {
    return make_error("short words: more than 65535 generator letters", {}, Error::NO_POSITION,
                      ErrorKind::LimitExceeded);
  }

  // Step 2. Levels: the group's base; level i's orbit under the strong generators fixing the
  // earlier base points (a base and strong generating set has exactly this property). Only the
  // orbit sizes here: the tables are allocated once the whole is known to fit (step 3).
  std::vector<Point> base = group.base();
  std::vector<Perm> strong = group.strong_generators();
  std::vector<std::size_t> orbit_sizes;
  for (std::size_t i = 0; i < base.size(); ++i) {
    // Base x strong generators x base prefix: thousands of each are billions of steps.
    if (run && run->should_stop()) return run->stop_error();
    std::vector<const Perm*> level_gens;
    for (const Perm& s : strong) {
      bool fixes = true;
      for (std::size_t j = 0; j < i && fixes; ++j) fixes = s.image(base[j]) == base[j];
      if (fixes) level_gens.push_back(&s);
    }
    std::vector<bool> seen(n, false);
    std::deque<Point> queue{base[i]};
    seen[base[i]] = true;
    std::size_t orbit_size = 0;
    while (!queue.empty()) {
      Point p = queue.front();
      queue.pop_front();
      ++orbit_size;
      for (const Perm* s : level_gens) {
        Point q = s->image(p);
        if (!seen[q]) {
          seen[q] = true;
          queue.push_back(q);
        }
      }
    }
    orbit_sizes.push_back(orbit_size);
  }
  // Tables hold two permutations' worth of images per orbit point (element and inverse words are
  // small next to them); refuse rather than fill memory (the caller falls back to the group's
  // stabiliser-chain words).
  std::size_t orbit_points = 0;
  mpz_class product = 1;
  for (std::size_t size : orbit_sizes) {
    orbit_points += size;
    product *= static_cast<unsigned long>(size);
  }
  // The group may answer without a base and strong generating set (S_n and A_n of large degree
  // are recognised directly); then there is no chain to build words on.
  if (product != group.order()) {
    return make_error("short words: the group has no explicit base and strong generating set", {},
                      Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  if (orbit_points * n * sizeof(Point) > options.memory_budget_bytes) {
    return make_error("short words: the word chain would need more than " +
                          std::to_string(options.memory_budget_bytes >> 20) + " MiB",
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }

  // Step 3. Memory, before anything large is allocated. Held together: the group's own
  // stabiliser chain and generators (this object keeps a copy of the group), the letters, the
  // strong generators, each level's slots and its entries twice (the improvement rounds copy
  // them); the ball gets what the run's budget leaves, at most its own bound.
  const std::uint64_t chain_bytes = group.chain_bytes();
  const std::uint64_t fixed_bytes =
      chain_bytes + (group.generators().size() + im.letter_images.size() + strong.size() +
                     orbit_sizes.size() + 2 * orbit_points) *
                        std::uint64_t{n} * sizeof(Point);
  if (run) {
    if (auto fits = run->check_memory(fixed_bytes,
                                      "short words (the group's chain and the word "
                                      "chain's tables)");
        !fits) {
      return fits.error();
    }
  }
  const std::size_t per_element = n * sizeof(Point) + 4 + 2 + 1 + 2 * 4;
  std::size_t limit = std::min(options.ball_elements, options.memory_budget_bytes / per_element);
  if (run && run->memory_budget() != 0) {
    limit = std::min<std::uint64_t>(limit, (run->memory_budget() - fixed_bytes) / per_element);
  }
  limit = std::max<std::size_t>(limit, 1);
  limit = std::min<std::size_t>(limit, std::numeric_limits<std::uint32_t>::max() - 1);

  // Step 4. The ball of shortest words, bounded by elements and memory; then the level tables.
  if (run && elapsed() > 0.2) run->report({"short words", 0, 3, "ball of shortest words"});
  if (!im.build_ball(limit, run)) return run->stop_error();
  sw->stats_.ball_size = im.ball_size();
  sw->stats_.ball_radius = im.radius;
  const std::uint64_t tables_bytes =
      fixed_bytes + std::uint64_t{limit} * per_element;  // the ball as reserved
  for (std::size_t i = 0; i < base.size(); ++i) {
    Level lv;
    lv.base = base[i];
    lv.orbit_size = orbit_sizes[i];
    lv.slot.assign(n, -1);
    lv.slot[base[i]] = 0;
    lv.entries.push_back({identity(n), {}});
    lv.filled = 1;
    im.levels.push_back(std::move(lv));
  }
  sw->stats_.levels = im.levels.size();

  // Step 5. Feed the ball, shortest first (and each element's inverse).
  if (run && elapsed() > 0.2) run->report({"short words", 1, 3, "Minkwitz word chain"});
  const std::size_t unlimited = std::numeric_limits<std::size_t>::max();
  const std::size_t feed = std::min(im.ball_size(), options.feed_elements);
  for (std::size_t k = 1; k < feed; ++k) {
    Images t(im.ball_at(k), im.ball_at(k) + n);
    Word w = im.ball_word(static_cast<std::uint32_t>(k));
    im.step(invert(t), inverse_word(w), unlimited);
    im.step(std::move(t), std::move(w), unlimited);
    // Each step sifts through every level (n points each): polled every element.
    if (run && run->should_stop()) return run->stop_error();
    if (elapsed() > options.time_budget_seconds) break;
  }

  // Step 6. Products of stored words, until no round changes anything (or the budget is spent);
  // entries the products still miss are filled from the group's own word problem first.
  auto product_round = [&](std::size_t limit_len) {
    std::vector<std::pair<Images, Word>> known;
    std::vector<std::size_t> level_of;
    for (std::size_t i = 0; i < im.levels.size(); ++i) {
      for (const Entry& e : im.levels[i].entries) {
        if (e.word.empty()) continue;
        known.emplace_back(invert(e.u_inv), e.word);
        level_of.push_back(i);
      }
    }
    bool changed = false;
    for (std::size_t a = 0; a < known.size(); ++a) {
      for (std::size_t b = 0; b < known.size(); ++b) {
        if (level_of[b] < level_of[a]) continue;
        Images t = multiply(known[a].first, known[b].first);
        Word w = reduce_word(concat(known[a].second, known[b].second), im.orders);
        changed |= im.step(invert(t), inverse_word(w), limit_len);
        changed |= im.step(std::move(t), std::move(w), limit_len);
      }
      if (elapsed() > options.time_budget_seconds || (run && run->should_stop())) break;
    }
    return changed;
  };
  if (!im.complete()) {
    product_round(unlimited);
    ++sw->stats_.rounds;
  }
  if (!im.complete()) {
    // The group's own word chain (below) gets what the budget has left after the ball and
    // these tables (checked above to fit): it holds a permutation per orbit point and its
    // Schreier generators. PermGroup::word counts the group's chain itself, so it is not
    // taken off here a second time.
    std::optional<RunContext> inner;
    if (run) {
      inner = *run;
      const std::uint64_t held = tables_bytes - chain_bytes;
      if (run->memory_budget() != 0) {
        inner->with_memory_budget(run->memory_budget() > held ? run->memory_budget() - held : 1);
      }
    }
    const RunContext* group_run = inner ? &*inner : nullptr;
    for (std::size_t i = 0; i < im.levels.size(); ++i) {
      if (run && run->should_stop()) return run->stop_error();
      Level& lv = im.levels[i];
      if (lv.filled == lv.orbit_size) continue;
      // A transversal element for every orbit point (Schreier tree over the level's strong
      // generators), written as a word by the group itself.
      std::vector<const Perm*> level_gens;
      for (const Perm& s : strong) {
        bool fixes = true;
        for (std::size_t j = 0; j < i && fixes; ++j) fixes = s.image(base[j]) == base[j];
        if (fixes) level_gens.push_back(&s);
      }
      std::vector<std::optional<Perm>> u(n);
      u[lv.base] = Perm(n);
      std::deque<Point> queue{lv.base};
      while (!queue.empty()) {
        Point p = queue.front();
        queue.pop_front();
        for (const Perm* s : level_gens) {
          Point q = s->image(p);
          if (!u[q]) {
            u[q] = *u[p] * s->extended(n);
            queue.push_back(q);
          }
        }
      }
      for (Point p = 0; p < n; ++p) {
        if (!u[p] || lv.slot[p] >= 0) continue;
        if (run && run->should_stop()) return run->stop_error();
        auto w = group.word(*u[p], group_run);
        if (!w) return w.error();
        ++sw->stats_.filled_from_group;
        im.step(u[p]->images(), reduce_word(*w, im.orders), unlimited);
      }
    }
  }
  if (!im.complete()) {
    return make_error("short words: internal error: the word chain is incomplete", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  if (run && elapsed() > 0.2) run->report({"short words", 2, 3, "improving the word chain"});
  for (std::size_t r = 0; r < options.max_rounds && elapsed() < options.time_budget_seconds; ++r) {
    ++sw->stats_.rounds;
    if (!product_round(im.max_word())) break;
    if (run && run->should_stop()) {
      return run->stop_error();
    }
  }
  for (const Level& lv : im.levels) {
    sw->stats_.table_entries += lv.entries.size();
    for (const Entry& e : lv.entries) sw->stats_.table_letters += e.word.size();
  }
  sw->stats_.seconds = elapsed();
  return sw;
}

Word ShortWords::shorten(Word word) const {
  return impl_->shorten(std::move(word));
}

Result<ShortWord> ShortWords::word(const Perm& element) const {
  const Impl& im = *impl_;
  if (element.largest_moved_point() > im.n || !group_.contains(element)) {
    return make_error("the element " + element.to_cycle_string() +
                          " is not in the group generated by the given generators",
                      element.to_cycle_string(), Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  const std::size_t n = im.n;
  Images x = element.extended(n).images();
  ShortWord result;
  // Step 1. Inside the ball: a shortest word.
  if (std::uint32_t k = im.find(x.data()); k != EMPTY) {
    result.word = im.ball_word(k);
    result.method = "bfs (optimal)";
  } else {
    // Step 2. Sift x * t^-1 and t^-1 * x for ball elements t (and the same for x^-1), estimate
    // each length by the sum of the picked words, and build the best few in full.
    Images xi = invert(x);
    struct Candidate {
      std::size_t estimate;
      std::size_t t;
      int kind;  // 0: x = sift(x t^-1) t; 1: x = t sift(t^-1 x); 2, 3: the same for x^-1
    };
    std::vector<Candidate> candidates;
    // At most about 10^8 point operations per word: fewer tries for long bases and large degrees.
    const std::size_t work = 4 * std::max<std::size_t>(im.levels.size(), 1) * n;
    const std::size_t tries = std::min({im.ball_size(), std::max<std::size_t>(sift_tries_, 1),
                                        std::max<std::size_t>(100'000'000 / work, 1)});
    Images tmp(n);
    // Candidates within SLACK letters of the best estimate are kept: shortening changes lengths.
    constexpr std::size_t SLACK = 6;
    std::size_t best = std::numeric_limits<std::size_t>::max() / 2, bound = best;
    for (std::size_t t = 0; t < tries; ++t) {
      const Point* tp = im.ball_at(t);
      Images ti = invert(Images(tp, tp + n));
      std::size_t d = im.ball_depth[t];
      for (int kind = 0; kind < 4; ++kind) {
        const Images& y = kind < 2 ? x : xi;
        if (kind % 2 == 0) {
          for (std::size_t i = 0; i < n; ++i) tmp[i] = ti[y[i]];  // y * t^-1
        } else {
          for (std::size_t i = 0; i < n; ++i) tmp[i] = y[ti[i]];  // t^-1 * y
        }
        if (d > bound) continue;
        std::size_t len = im.sift_length(tmp, bound - d);
        if (len != std::numeric_limits<std::size_t>::max()) {
          candidates.push_back({len + d, t, kind});
          best = std::min(best, len + d);
          bound = best + SLACK;
        }
      }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate& a, const Candidate& b) { return a.estimate < b.estimate; });
    // Long words (large groups) are shortened for the best candidate only.
    const std::size_t build_count = !candidates.empty() && candidates[0].estimate > 1000 ? 1 : 12;
    if (candidates.size() > build_count) candidates.resize(build_count);
    bool first = true;
    for (const Candidate& c : candidates) {
      const Point* tp = im.ball_at(c.t);
      Images ti = invert(Images(tp, tp + n));
      Word tw = im.ball_word(static_cast<std::uint32_t>(c.t));
      const Images& y = c.kind < 2 ? x : xi;
      Word w;
      if (c.kind % 2 == 0) {
        for (std::size_t i = 0; i < n; ++i) tmp[i] = ti[y[i]];
        w = concat(im.sift_word(tmp), tw);
      } else {
        for (std::size_t i = 0; i < n; ++i) tmp[i] = y[ti[i]];
        w = concat(tw, im.sift_word(tmp));
      }
      if (c.kind >= 2) w = inverse_word(w);
      w = im.shorten(std::move(w));
      if (first || w.size() < result.word.size()) result.word = std::move(w);
      first = false;
    }
    if (first) {
      return make_error("internal error: no sift of the element went through the word chain", {},
                        Error::NO_POSITION, ErrorKind::Internal);
    }
    result.method = "minkwitz+shortening";
  }
  // Step 3. Multiply back.
  if (group_.evaluate(result.word).extended(n) != element.extended(n)) {
    return make_error("internal error: the short word does not multiply back to the element", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  return result;
}

}  // namespace permuzzle
