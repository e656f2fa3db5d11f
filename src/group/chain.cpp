// Subgroup chain method: coset distance tables per stage and stage-by-stage solving.
//
// Data layout of one stage's table: canonical coset elements are stored as n bytes each (image of
// point 0, 1, ..., n-1; n <= 256) in `keys`, with their distance in `dist`, found by an
// open-addressing table of key indices (`slots`, EMPTY = free). Keys are appended in BFS order,
// so the keys of distance d are contiguous.
#include "permuzzle/group/chain.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <numeric>

#include "permuzzle/group/words.hpp"

namespace permuzzle {

namespace {

constexpr std::uint32_t EMPTY = std::numeric_limits<std::uint32_t>::max();
constexpr std::size_t MAX_CHAIN_DEGREE = 256;
constexpr long long MAX_POWER_ORDER = 64;  // `powers`: generators of larger order keep g, g^-1

std::uint64_t hash_bytes(const std::uint8_t* p, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h ^ (h >> 31);
}

}  // namespace

Result<std::vector<ChainSubgroup>> parse_chain(std::string_view text, std::string_view file_name) {
  std::vector<ChainSubgroup> chain;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  auto where = [&](std::size_t column) {
    return std::string(file_name) + ":" + std::to_string(line_no) + ":" + std::to_string(column) +
           ": ";
  };
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(pos, end - pos));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ++line_no;
    bool last = end == text.size();
    pos = end + 1;
    std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) break;  // an empty line ends the chain
    if (line[first] == '#') {
      if (last) break;
      continue;
    }
    std::size_t back = line.find_last_not_of(" \t");
    if (line.substr(first, back - first + 1) == "()") break;  // the trivial group ends it
    // Split into generators: blanks separate them except inside (...) or [...].
    ChainSubgroup sub;
    sub.line = line_no;
    std::size_t i = first;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i >= line.size()) break;
      std::size_t start = i;
      int depth = 0;
      while (i < line.size() && (depth > 0 || (line[i] != ' ' && line[i] != '\t'))) {
        if (line[i] == '(' || line[i] == '[') ++depth;
        if (line[i] == ')' || line[i] == ']') --depth;
        ++i;
      }
      std::string token = line.substr(start, i - start);
      std::string name;
      std::size_t offset = 0;
      std::size_t eq = token.find('=');
      std::size_t paren = token.find_first_of("([");
      if (eq != std::string::npos && (paren == std::string::npos || eq < paren)) {
        name = token.substr(0, eq);
        if (!valid_generator_name(name)) {
          return make_error(where(start + 1) + "invalid generator name '" + name +
                                "': expected NAME=PERM with NAME a letter followed by letters, "
                                "digits or _",
                            line, start);
        }
        offset = eq + 1;
      }
      auto p = Perm::parse(std::string_view(token).substr(offset));
      if (!p) {
        std::size_t col =
            start + offset + (p.error().position == Error::NO_POSITION ? 0 : p.error().position);
        return make_error(where(col + 1) + "generator " +
                              std::to_string(sub.generators.size() + 1) + " of G" +
                              std::to_string(chain.size() + 1) + ": " + p.error().message +
                              " (expected generators in cycle notation separated by blanks, "
                              "e.g. (1,2,3) (4,5))",
                          line, col);
      }
      sub.generators.push_back(std::move(*p));
      sub.names.push_back(name);
    }
    chain.push_back(std::move(sub));
    if (last) break;
  }
  return chain;
}

struct SubgroupChain::Stage {
  std::size_t n = 0;
  // Canonical cosets of H = G_{i+1}: one level per point with a nontrivial orbit of the pointwise
  // stabiliser of the earlier points; `transversal[j]` maps the level's point to orbit[j].
  struct Level {
    Point point = 0;
    std::vector<Point> orbit;
    std::vector<std::vector<Point>> transversal;
  };
  std::vector<Level> levels;
  std::vector<std::vector<Point>> moves;  // images, extended to n
  std::vector<Word> move_words;           // each move in G0's generators
  std::vector<std::uint8_t> keys;
  std::vector<std::uint8_t> dist;
  std::vector<std::uint32_t> slots;

  std::size_t count() const { return dist.size(); }

  // x (images) -> canonical element of H·x, as bytes.
  void canonical(const std::vector<Point>& x, std::vector<Point>& q, std::vector<Point>& tmp,
                 std::uint8_t* out) const {
    q = x;
    for (const Level& lv : levels) {
      std::size_t best = 0;
      Point best_value = q[lv.orbit[0]];
      for (std::size_t j = 1; j < lv.orbit.size(); ++j) {
        Point v = q[lv.orbit[j]];
        if (v < best_value) {
          best_value = v;
          best = j;
        }
      }
      if (best == 0) continue;  // orbit[0] is the point itself: the identity
      const std::vector<Point>& u = lv.transversal[best];
      for (std::size_t p = 0; p < n; ++p) tmp[p] = q[u[p]];  // u * q
      q.swap(tmp);
    }
    for (std::size_t p = 0; p < n; ++p) out[p] = static_cast<std::uint8_t>(q[p]);
  }

  std::uint32_t find(const std::uint8_t* key) const {
    std::size_t mask = slots.size() - 1;
    for (std::size_t h = hash_bytes(key, n) & mask;; h = (h + 1) & mask) {
      std::uint32_t k = slots[h];
      if (k == EMPTY) return EMPTY;
      if (std::memcmp(keys.data() + std::size_t{k} * n, key, n) == 0) return k;
    }
  }
  bool insert(const std::uint8_t* key, std::uint8_t d) {
    std::size_t mask = slots.size() - 1;
    std::size_t h = hash_bytes(key, n) & mask;
    for (;; h = (h + 1) & mask) {
      std::uint32_t k = slots[h];
      if (k == EMPTY) break;
      if (std::memcmp(keys.data() + std::size_t{k} * n, key, n) == 0) return false;
    }
    slots[h] = static_cast<std::uint32_t>(count());
    keys.insert(keys.end(), key, key + n);
    dist.push_back(d);
    return true;
  }

  std::size_t distance_of(const std::vector<Point>& x) const {
    std::vector<Point> q(n), tmp(n);
    std::vector<std::uint8_t> key(n);
    canonical(x, q, tmp, key.data());
    std::uint32_t k = find(key.data());
    return k == EMPTY ? std::numeric_limits<std::size_t>::max() : dist[k];
  }
};

SubgroupChain::SubgroupChain() = default;
SubgroupChain::~SubgroupChain() = default;

Result<std::shared_ptr<SubgroupChain>> SubgroupChain::build(
    const PermGroup& g0, const std::vector<ChainSubgroup>& subgroups, const ChainOptions& options,
    const std::function<Result<Word>(const Perm&)>& word_of, const RunContext& run) {
  std::shared_ptr<SubgroupChain> chain(new SubgroupChain());
  chain->g0_ = g0;
  chain->orders_ = generator_orders(g0);
  std::size_t n = g0.degree();
  for (const ChainSubgroup& s : subgroups) {
    for (const Perm& p : s.generators) n = std::max(n, p.largest_moved_point());
  }
  n = std::max<std::size_t>(n, 1);
  if (n > MAX_CHAIN_DEGREE) {
    return make_error("the chain method supports degree up to " + std::to_string(MAX_CHAIN_DEGREE) +
                          " (got " + std::to_string(n) + ")",
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  chain->n_ = n;

  // Step 1. The groups G0 > G1 > ... > Gk > 1, each checked to lie in the one before.
  std::vector<PermGroup> groups{g0};
  std::vector<std::vector<Perm>> gens{g0.generators()};
  for (std::size_t i = 0; i < subgroups.size(); ++i) {
    const ChainSubgroup& s = subgroups[i];
    for (std::size_t j = 0; j < s.generators.size(); ++j) {
      if (!groups.back().contains(s.generators[j])) {
        return make_error("chain line " + std::to_string(s.line) + ": generator " +
                              std::to_string(j + 1) + " " + s.generators[j].to_cycle_string() +
                              " of G" + std::to_string(i + 1) + " is not in G" + std::to_string(i) +
                              " (each subgroup must lie in the one before)",
                          {}, Error::NO_POSITION, ErrorKind::InvalidInput);
      }
    }
    std::vector<Perm> nontrivial;
    for (const Perm& p : s.generators) {
      if (!p.is_identity()) nontrivial.push_back(p);
    }
    if (nontrivial.empty()) break;
    SchreierSimsOptions subgroup_options;
    subgroup_options.run = &run;
    auto g = PermGroup::from_generators(nontrivial, {}, subgroup_options);
    if (!g) return g.error();
    groups.push_back(std::move(*g));
    gens.push_back(nontrivial);
  }
  groups.emplace_back();  // the trivial group
  gens.emplace_back();

  // Step 2. One stage per step G_i > G_{i+1}.
  for (std::size_t i = 0; i + 1 < groups.size(); ++i) {
    Stopwatch clock;
    mpz_class index = groups[i].order() / groups[i + 1].order();
    if (index > mpz_class(std::to_string(options.max_cosets))) {
      return make_error("stage " + std::to_string(i + 1) + ": the index |G" + std::to_string(i) +
                            " : G" + std::to_string(i + 1) + "| = " + index.get_str() +
                            " is above the limit of " + std::to_string(options.max_cosets) +
                            " cosets per stage; put a subgroup in between",
                        {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    auto stage = std::make_unique<Stage>();
    Stage& st = *stage;
    st.n = n;

    // Step 2a. Moves: the generators of G_i and their inverses (or all their powers), distinct.
    std::vector<Perm> moves;
    auto add_move = [&](const Perm& m) {
      Perm e = m.extended(n);
      if (e.is_identity()) return;
      if (std::find(moves.begin(), moves.end(), e) == moves.end()) moves.push_back(e);
    };
    for (const Perm& g : gens[i]) {
      mpz_class o = g.order();
      if (options.powers && o <= static_cast<long>(MAX_POWER_ORDER)) {
        for (long k = 1; k < o.get_si(); ++k) add_move(g.pow(k));
      } else {
        add_move(g);
        add_move(g.inverse());
      }
    }
    for (const Perm& m : moves) {
      // A power of one of G0's generators is written as that power; anything else by word_of.
      Word w;
      bool found = false;
      for (std::size_t gi = 0; gi < g0.generators().size() && !found; ++gi) {
        const Perm& g = g0.generators()[gi];
        long long o = chain->orders_[gi];
        for (long long k = 1; k < std::min<long long>(o, MAX_POWER_ORDER + 1) && !found; ++k) {
          if (g.pow(k).extended(n) == m) {
            found = true;
            bool down = 2 * k > o;
            long long count = down ? o - k : k;
            for (long long c = 0; c < count; ++c) w.push_back(Letter{gi, down ? -1 : 1});
          }
        }
      }
      if (!found) {
        auto ww = word_of(m);
        if (!ww) return ww.error();
        w = *ww;
      }
      st.moves.push_back(m.images());
      st.move_words.push_back(std::move(w));
    }

    // Step 2b. Canonical coset levels: a chain of H = G_{i+1} with base 1, 2, ..., n.
    if (!groups[i + 1].generators().empty()) {
      SchreierSimsOptions so;
      std::size_t h_degree = 0;
      for (const Perm& g : gens[i + 1]) h_degree = std::max(h_degree, g.largest_moved_point());
      for (Point p = 0; p < h_degree; ++p) so.base_prefix.push_back(p);
      so.run = &run;
      auto h = PermGroup::from_generators(gens[i + 1], {}, so);
      if (!h) return h.error();
      std::vector<Perm> strong = h->strong_generators();
      std::vector<Perm> level_gens;
      for (const Perm& s : strong) level_gens.push_back(s.extended(n));
      mpz_class product = 1;
      std::uint64_t level_bytes = 0;  // transversals of the levels so far (n points each)
      for (Point p = 0; p < n; ++p) {
        if (run.should_stop()) return run.stop_error();
        // level_gens: strong generators fixing 0..p-1 (they generate that pointwise stabiliser).
        Stage::Level lv;
        lv.point = p;
        std::vector<std::int32_t> at(n, -1);
        lv.orbit.push_back(p);
        std::vector<Point> id(n);
        std::iota(id.begin(), id.end(), Point{0});
        lv.transversal.push_back(id);
        at[p] = 0;
        for (std::size_t j = 0; j < lv.orbit.size(); ++j) {
          for (const Perm& s : level_gens) {
            Point q = s.image(lv.orbit[j]);
            if (at[q] >= 0) continue;
            at[q] = static_cast<std::int32_t>(lv.orbit.size());
            lv.orbit.push_back(q);
            std::vector<Point> t(n);
            for (std::size_t x = 0; x < n; ++x) t[x] = s.image(lv.transversal[j][x]);
            lv.transversal.push_back(std::move(t));
          }
        }
        product *= static_cast<unsigned long>(lv.orbit.size());
        if (lv.orbit.size() > 1) level_bytes += lv.orbit.size() * n * sizeof(Point);
        if (auto s =
                run.check_memory(level_bytes, "the coset levels of stage " + std::to_string(i + 1));
            !s) {
          return s.error();
        }
        if (lv.orbit.size() > 1) st.levels.push_back(std::move(lv));
        std::vector<Perm> fixing;
        for (const Perm& s : level_gens) {
          if (s.image(p) == p) fixing.push_back(s);
        }
        level_gens = std::move(fixing);
      }
      if (product != groups[i + 1].order()) {
        return make_error("internal error: the coset levels of stage " + std::to_string(i + 1) +
                              " do not multiply to |G" + std::to_string(i + 1) + "|",
                          {}, Error::NO_POSITION, ErrorKind::Internal);
      }
    }

    // Step 2c. Breadth-first search over the cosets from H itself.
    const std::size_t cosets = index.get_ui();
    std::size_t capacity = 16;
    while (capacity < cosets + cosets / 2 + 2) capacity <<= 1;
    // The table: a slot per capacity, a key of n bytes and a distance per coset.
    if (auto s = run.check_memory(capacity * sizeof(st.slots[0]) + cosets * (n + 1),
                                  "the coset table of stage " + std::to_string(i + 1) + " (" +
                                      index.get_str() + " cosets)");
        !s) {
      return s.error();
    }
    st.slots.assign(capacity, EMPTY);
    st.keys.reserve(cosets * n);
    st.dist.reserve(cosets);
    std::vector<Point> x(n), q(n), tmp(n);
    std::vector<std::uint8_t> key(n);
    std::iota(x.begin(), x.end(), Point{0});
    st.canonical(x, q, tmp, key.data());
    st.insert(key.data(), 0);
    std::size_t begin = 0, end = 1;
    std::uint8_t depth = 0;
    ChainStageInfo info;
    info.histogram.push_back(1);
    while (begin < end) {
      if (depth == 254) {
        return make_error("stage " + std::to_string(i + 1) + ": distances above 254", {},
                          Error::NO_POSITION, ErrorKind::LimitExceeded);
      }
      std::uint64_t found = 0;
      for (std::size_t k = begin; k < end; ++k) {
        const std::uint8_t* c = st.keys.data() + k * n;
        for (const auto& m : st.moves) {
          for (std::size_t p = 0; p < n; ++p) x[p] = m[c[p]];  // c * m
          st.canonical(x, q, tmp, key.data());
          if (st.insert(key.data(), static_cast<std::uint8_t>(depth + 1))) ++found;
        }
        if ((k & 4095) == 0) {
          if (run.should_stop()) return run.stop_error();
          run.report(
              {"chain stage " + std::to_string(i + 1), st.count(), cosets, "coset distance table"});
        }
      }
      if (found == 0) break;
      info.histogram.push_back(found);
      begin = end;
      end = st.count();
      ++depth;
    }
    if (st.count() != cosets) {
      return make_error("internal error: stage " + std::to_string(i + 1) + " reached " +
                            std::to_string(st.count()) + " cosets, the index is " + index.get_str(),
                        {}, Error::NO_POSITION, ErrorKind::Internal);
    }
    info.index = index;
    info.gods_number = info.histogram.size() - 1;
    info.moves = st.moves.size();
    info.seconds = clock.seconds();
    chain->info_.push_back(std::move(info));
    chain->stages_.push_back(std::move(stage));
  }
  return chain;
}

std::size_t SubgroupChain::distance(std::size_t stage, const Perm& x) const {
  return stages_[stage]->distance_of(x.extended(n_).images());
}

Result<ChainSolution> SubgroupChain::solve(const Perm& element) const {
  if (element.largest_moved_point() > n_ || !g0_.contains(element)) {
    return make_error("the element " + element.to_cycle_string() +
                          " is not in the group generated by the given generators",
                      element.to_cycle_string(), Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  const std::size_t n = n_;
  std::vector<Point> y = element.extended(n).images(), next(n), q(n), tmp(n);
  std::vector<std::uint8_t> key(n);
  ChainSolution solution;
  Word all;
  for (const auto& stage : stages_) {
    // Step 1. Descend the stage's table: each step takes a move to a coset one closer.
    const Stage& st = *stage;
    st.canonical(y, q, tmp, key.data());
    std::uint32_t k = st.find(key.data());
    if (k == EMPTY) {
      return make_error("internal error: a position left its stage's group", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }
    std::size_t d = st.dist[k];
    solution.stage_lengths.push_back(d);
    while (d > 0) {
      bool moved = false;
      for (std::size_t m = 0; m < st.moves.size() && !moved; ++m) {
        for (std::size_t p = 0; p < n; ++p) next[p] = st.moves[m][y[p]];
        st.canonical(next, q, tmp, key.data());
        std::uint32_t kk = st.find(key.data());
        if (kk != EMPTY && std::size_t{st.dist[kk]} + 1 == d) {
          y.swap(next);
          all.insert(all.end(), st.move_words[m].begin(), st.move_words[m].end());
          --d;
          moved = true;
        }
      }
      if (!moved) {
        return make_error("internal error: no move descends the stage table", {},
                          Error::NO_POSITION, ErrorKind::Internal);
      }
    }
  }
  // Step 2. element * all = 1, so element = all^-1; multiply back.
  solution.word = reduce_word(inverse_word(all), orders_);
  if (g0_.evaluate(solution.word).extended(n) != element.extended(n)) {
    return make_error("internal error: the chain word does not multiply back to the element", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  return solution;
}

}  // namespace permuzzle
