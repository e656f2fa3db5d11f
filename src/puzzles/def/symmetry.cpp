#include "permuzzle/puzzles/def/symmetry.hpp"

#include <fmt/format.h>

#include <limits>
#include <map>
#include <optional>

namespace permuzzle::def {

namespace {

constexpr std::uint32_t NONE = std::numeric_limits<std::uint32_t>::max();
// Bytes a kept map costs beside its images: the vector and its heap block's header.
constexpr std::uint64_t KEPT_MAP_OVERHEAD = sizeof(std::vector<std::uint32_t>) + 16;

// The search of the header. Layout: points are numbered set by set, active slot by active slot,
// orientation by orientation (point_of[set][slot * O + o], NONE for inactive slots); moves[m]
// and inverse[m] are point images; sigma[g] is the move a generator goes to (-1: not chosen).
class Search {
 public:
  Search(const Definition& d, const RunContext& run, const SymmetryOptions& options)
      : d_(d), run_(run), options_(options) {}

  Result<SymmetryGroup> run() {
    if (auto ok = build(); !ok) return ok.error();
    phi_.assign(points(), NONE);
    phi_inv_.assign(points(), NONE);
    sigma_.assign(gens_.size(), -1);
    search(0);
    if (run_.should_stop()) return run_.stop_error();
    if (memory_error_) return *memory_error_;
    if (too_many_) {
      return make_error(fmt::format("the symmetry maps are more than {} point images to keep",
                                    options_.max_kept_images),
                        {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    if (over_) {
      return make_error(
          fmt::format("the symmetry search took more than {} steps", options_.max_nodes), {},
          Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    out_.points = points();
    out_.nodes = nodes_;
    if (options_.keep_elements) {
      for (std::uint32_t q = 0; q < points(); ++q) {
        out_.point_list.push_back({static_cast<std::uint32_t>(set_of_[q]),
                                   static_cast<std::uint32_t>(slot_of_[q]),
                                   static_cast<std::uint32_t>(ori_of_[q])});
      }
    }
    // The identity is always found, so central >= 1.
    out_.order = out_.central == 0 ? 0 : out_.maps / out_.central;
    return out_;
  }

 private:
  std::size_t points() const { return set_of_.size(); }

  Status build() {
    // Step 1. Active slots and their points.
    point_of_.resize(d_.sets.size());
    for (std::size_t k = 0; k < d_.sets.size(); ++k) {
      const int n = d_.sets[k].pieces, o = d_.sets[k].orientations;
      point_of_[k].assign(static_cast<std::size_t>(n * o), NONE);
      for (int slot = 0; slot < n; ++slot) {
        bool active = false;
        for (const Move& m : d_.moves) {
          const SetState& s = m.effect.sets[k];
          active = active || s.perm[static_cast<std::size_t>(slot)] != slot ||
                   s.ori[static_cast<std::size_t>(slot)] % o != 0;
        }
        if (!active) continue;
        for (int r = 0; r < o; ++r) {
          point_of_[k][static_cast<std::size_t>(slot * o + r)] =
              static_cast<std::uint32_t>(set_of_.size());
          set_of_.push_back(static_cast<int>(k));
          slot_of_.push_back(slot);
          ori_of_.push_back(r);
        }
      }
    }
    if (points() > options_.max_points) {
      return make_error(fmt::format("the symmetry search handles at most {} points (slots "
                                    "moved x orientations), not {}",
                                    options_.max_points, points()),
                        {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    // Step 2. Moves as point images (the piece in slot perm[i] goes to slot i, ori + ori[i]).
    for (std::size_t mi = 0; mi < d_.moves.size(); ++mi) {
      const Move& m = d_.moves[mi];
      std::vector<std::uint32_t> img(points()), inv(points());
      // dest[k][j]: the slot the piece in slot j goes to (perm[i] == j).
      std::vector<std::vector<std::size_t>> dest(d_.sets.size());
      for (std::size_t k = 0; k < d_.sets.size(); ++k) {
        const SetState& s = m.effect.sets[k];
        dest[k].assign(s.perm.size(), s.perm.size());
        for (std::size_t i = 0; i < s.perm.size(); ++i) dest[k][s.perm[i]] = i;
      }
      for (std::uint32_t p = 0; p < points(); ++p) {
        const auto k = static_cast<std::size_t>(set_of_[p]);
        const int o = d_.sets[k].orientations;
        const SetState& s = m.effect.sets[k];
        const std::size_t i = dest[k][static_cast<std::size_t>(slot_of_[p])];
        if (i >= s.perm.size()) return make_error("a move of the definition is not a permutation");
        img[p] = point_of_[k][i * static_cast<std::size_t>(o) +
                              static_cast<std::size_t>((ori_of_[p] + s.ori[i]) % o)];
        inv[img[p]] = p;
      }
      move_index_.emplace(img, mi);
      moves_.push_back(std::move(img));
      inverse_.push_back(std::move(inv));
      if (m.power == 1) gens_.push_back(mi);
    }
    // Step 3. The plan: per orbit of the generators, its first point, then a spanning tree.
    std::vector<bool> seen(points(), false);
    for (std::uint32_t root = 0; root < points(); ++root) {
      if (seen[root]) continue;
      seen[root] = true;
      plan_.push_back({true, root, NONE, 0});
      for (std::size_t head = plan_.size() - 1; head < plan_.size(); ++head) {
        const std::uint32_t p = plan_[head].point;
        for (std::size_t g = 0; g < gens_.size(); ++g) {
          const std::uint32_t q = moves_[gens_[g]][p];
          if (seen[q]) continue;
          seen[q] = true;
          plan_.push_back({false, q, p, g});
        }
      }
    }
    return Ok{};
  }

  // Every generator edge at p whose ends are assigned and whose target move is chosen.
  bool consistent_at(std::uint32_t p) const {
    for (std::size_t g = 0; g < gens_.size(); ++g) {
      if (sigma_[g] < 0) continue;
      const auto& target = moves_[static_cast<std::size_t>(sigma_[g])];
      const std::uint32_t next = moves_[gens_[g]][p];
      if (phi_[next] != NONE && phi_[next] != target[phi_[p]]) return false;
      const std::uint32_t prev = inverse_[gens_[g]][p];
      if (phi_[prev] != NONE && phi_[p] != target[phi_[prev]]) return false;
    }
    return true;
  }

  // Every assigned edge of generator g, once its target move is chosen.
  bool consistent_generator(std::size_t g) const {
    const auto& target = moves_[static_cast<std::size_t>(sigma_[g])];
    for (std::uint32_t p = 0; p < points(); ++p) {
      if (phi_[p] == NONE) continue;
      const std::uint32_t next = moves_[gens_[g]][p];
      if (phi_[next] != NONE && phi_[next] != target[phi_[p]]) return false;
    }
    return true;
  }

  void try_point(std::size_t step, std::uint32_t p, std::uint32_t q) {
    if (phi_inv_[q] != NONE || set_of_[q] != set_of_[p]) return;
    phi_[p] = q;
    phi_inv_[q] = p;
    if (consistent_at(p)) search(step + 1);
    phi_[p] = NONE;
    phi_inv_[q] = NONE;
  }

  // Counts `work` steps (a node, a candidate move, a leaf's check of every move); asks the run
  // every 4,096 steps. False when the search must end.
  bool tick(std::uint64_t work) {
    const std::uint64_t before = nodes_;
    nodes_ += work;
    if (nodes_ > options_.max_nodes) over_ = true;
    if ((before >> 12) != (nodes_ >> 12) && run_.should_stop()) stopped_ = true;
    return !over_ && !stopped_;
  }

  void search(std::size_t step) {
    if (over_ || stopped_ || !tick(1)) return;
    if (step == plan_.size()) {
      check_and_count();
      return;
    }
    const Step& s = plan_[step];
    if (s.root) {
      for (std::uint32_t q = 0; q < points(); ++q) try_point(step, s.point, q);
      return;
    }
    const std::uint32_t from = phi_[s.parent];
    if (sigma_[s.gen] >= 0) {
      try_point(step, s.point, moves_[static_cast<std::size_t>(sigma_[s.gen])][from]);
      return;
    }
    const Move& g = d_.moves[gens_[s.gen]];
    for (std::size_t c = 0; c < moves_.size(); ++c) {
      if (d_.moves[c].qtm_cost != g.qtm_cost) continue;
      if (!tick(1 + points() / 64)) break;
      sigma_[s.gen] = static_cast<long>(c);
      if (consistent_generator(s.gen)) try_point(step, s.point, moves_[c][from]);
      if (over_ || stopped_) break;
    }
    sigma_[s.gen] = -1;
  }

  void check_and_count() {
    // Slots onto slots, orientations by o -> e*o + t with one e per set.
    std::vector<int> unit(d_.sets.size(), 0);
    for (std::uint32_t p = 0; p < points(); ++p) {
      if (ori_of_[p] != 0) continue;
      const auto k = static_cast<std::size_t>(set_of_[p]);
      const int o = d_.sets[k].orientations;
      const std::uint32_t base = phi_[p];
      const int t = ori_of_[base];
      int e = 1;
      if (o > 1) e = ((ori_of_[phi_[p + 1]] - t) % o + o) % o;
      if (unit[k] == 0) unit[k] = e;
      if (unit[k] != e) return;
      for (int r = 0; r < o; ++r) {
        const std::uint32_t q = phi_[p + static_cast<std::uint32_t>(r)];
        if (slot_of_[q] != slot_of_[base] || ori_of_[q] != (e * r + t) % o) return;
      }
    }
    // The solved pattern: identical pieces onto identical pieces, ignored orientations onto
    // ignored ones.
    for (std::size_t k = 0; k < d_.sets.size(); ++k) {
      std::map<int, int> forward, backward;
      const SetState& solved = d_.solved.sets[k];
      const int o = d_.sets[k].orientations;
      for (int slot = 0; slot < d_.sets[k].pieces; ++slot) {
        const std::uint32_t p = point_of_[k][static_cast<std::size_t>(slot * o)];
        if (p == NONE) continue;
        const auto image = static_cast<std::size_t>(slot_of_[phi_[p]]);
        const int a = solved.perm[static_cast<std::size_t>(slot)], b = solved.perm[image];
        if (forward.emplace(a, b).first->second != b) return;
        if (backward.emplace(b, a).first->second != a) return;
        if ((solved.ori[static_cast<std::size_t>(slot)] == ORIENTATION_IGNORED) !=
            (solved.ori[image] == ORIENTATION_IGNORED)) {
          return;
        }
      }
    }
    // Every move onto a move of its cost: c(phi(p)) = phi(m(p)).
    std::vector<std::uint32_t> c(points());
    for (std::size_t mi = 0; mi < moves_.size(); ++mi) {
      if (!tick(1 + points() / 64)) return;
      for (std::uint32_t p = 0; p < points(); ++p) c[phi_[p]] = phi_[moves_[mi][p]];
      auto it = move_index_.find(c);
      if (it == move_index_.end() || d_.moves[it->second].qtm_cost != d_.moves[mi].qtm_cost) {
        return;
      }
    }
    ++out_.maps;
    // Commuting with every generator (a generator the spanning trees never needed has no
    // sigma_ chosen: compare the maps themselves).
    bool central = true;
    for (std::size_t g = 0; g < gens_.size() && central; ++g) {
      const auto& m = moves_[gens_[g]];
      for (std::uint32_t p = 0; p < points() && central; ++p) central = phi_[m[p]] == m[phi_[p]];
    }
    out_.central += central ? 1 : 0;
    if (options_.keep_elements) {
      bool identity = true;
      for (std::uint32_t p = 0; p < points() && identity; ++p) identity = phi_[p] == p;
      out_.elements.insert(identity ? out_.elements.begin() : out_.elements.end(), phi_);
      if (out_.elements.size() * points() > options_.max_kept_images) too_many_ = over_ = true;
      // The maps kept are memory too (each a vector of points() images): within the run's
      // budget as they grow, not only within the count above.
      const std::uint64_t kept_bytes =
          out_.elements.size() * (points() * sizeof(std::uint32_t) + KEPT_MAP_OVERHEAD);
      if (auto ok = run_.check_memory(kept_bytes, "the symmetry maps kept"); !ok) {
        memory_error_ = ok.error();
        over_ = true;
      }
    }
  }

  struct Step {
    bool root = false;
    std::uint32_t point = 0;
    std::uint32_t parent = 0;
    std::size_t gen = 0;  // index into gens_
  };

  const Definition& d_;
  const RunContext& run_;
  const SymmetryOptions& options_;
  std::vector<int> set_of_, slot_of_, ori_of_;
  std::vector<std::vector<std::uint32_t>> point_of_;
  std::vector<std::vector<std::uint32_t>> moves_, inverse_;
  std::map<std::vector<std::uint32_t>, std::size_t> move_index_;
  std::vector<std::size_t> gens_;
  std::vector<Step> plan_;
  std::vector<std::uint32_t> phi_, phi_inv_;
  std::vector<long> sigma_;
  std::uint64_t nodes_ = 0;
  bool over_ = false, stopped_ = false, too_many_ = false;
  std::optional<Error> memory_error_;  // the maps kept went over the run's memory budget
  SymmetryGroup out_;
};

}  // namespace

Result<SymmetryGroup> symmetry_group(const Definition& d, const RunContext& run,
                                     const SymmetryOptions& options) {
  Search search(d, run, options);
  return search.run();
}

}  // namespace permuzzle::def
