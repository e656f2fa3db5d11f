#include "permuzzle/puzzles/cube/two_phase.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "core/huge_pages.hpp"
#include "solver_tables.hpp"

namespace permuzzle::cube {

using namespace detail;

int metric_length(const std::vector<CubeMove>& moves, Metric metric) {
  int n = 0;
  for (const auto& m : moves) n += (metric == Metric::Qtm && m.turns == 2) ? 2 : 1;
  return n;
}

bool replay_solves(const CubieState& state, const std::vector<CubeMove>& moves) {
  const Perm end = to_sticker_perm(state) * moves_perm(moves);
  return facelets_of(end) == solved_facelets();
}

namespace detail {

std::vector<CubeMove> to_cube_moves(const std::vector<int>& moves) {
  std::vector<CubeMove> out;
  for (int m : moves) out.push_back({std::string(1, FACE_NAMES[m / 3]), m % 3 + 1});
  return out;
}

Result<CubeSolution> finish_solution(const CubeBasics& basics, const CubieState& state,
                                     const std::vector<int>& moves, Metric metric) {
  CubeSolution s;
  s.moves = to_cube_moves(moves);
  s.length = metric_length(s.moves, metric);
  // Replayed on the 54 stickers: the state's stickers, then each face turn.
  std::vector<Point> at = to_sticker_perm(state).extended(54).images();
  for (int m : moves) {
    for (Point& x : at) x = basics.sticker_moves[static_cast<std::size_t>(m)][x];
  }
  auto end = Perm::from_images(std::move(at));
  if (!end || facelets_of(*end) != solved_facelets()) {
    return make_error(
        "internal: the solution does not solve the cube (" + format_moves(s.moves) + ")", {},
        Error::NO_POSITION, ErrorKind::Internal);
  }
  s.verified = true;
  return s;
}

}  // namespace detail

Result<std::shared_ptr<const SolverTables>> solver_tables(TableStore& store, const RunContext& run,
                                                          SolverTablesInfo* info) {
  Stopwatch clock;
  std::vector<TableReport> reports;
  auto made = store.shared<SolverTables>(
      "cube-two-phase-v1", [&]() -> Result<std::shared_ptr<SolverTables>> {
        auto tables = std::make_shared<SolverTables>();
        auto coords =
            std::make_shared<CoordTables>(CoordTables::make([&run] { return run.should_stop(); }));
        if (coords->stopped) return run.stop_error();
        if (coords->fs_rep.size() != N_FLIPSLICE_CLASS) {
          return make_error(fmt::format("internal: {} flip-slice classes, expected {}",
                                        coords->fs_rep.size(), N_FLIPSLICE_CLASS),
                            {}, Error::NO_POSITION, ErrorKind::Internal);
        }
        tables->coords = coords;
        TableRecipe<Phase1Table> recipe;
        recipe.key = TableKey{"cube-3x3x3", "phase1-flipslice-sym16-twist-4bit", 1};
        recipe.bytes = Phase1Table::BYTES;
        recipe.allocate = [] {
          auto p = std::make_shared<Phase1Table>();
          p->nibbles.resize(Phase1Table::BYTES);
          return p;
        };
        recipe.payload = [](Phase1Table& p) { return std::span<std::uint8_t>(p.nibbles); };
        // Background-safe (a server's build outlives the request): holds the coordinate tables.
        recipe.background = true;
        recipe.build = [coords](const RunContext& r) -> Result<std::shared_ptr<Phase1Table>> {
          auto p = std::make_shared<Phase1Table>();
          const bool ok = build_phase1(
              *coords, *p, [&r] { return r.should_stop(); },
              [&r](int depth, std::uint64_t filled) {
                r.report({"building cube phase-1 table", filled, Phase1Table::ENTRIES,
                          fmt::format("depth {}: {} of {} entries", depth, filled,
                                      Phase1Table::ENTRIES)});
              });
          if (!ok) {
            if (r.should_stop()) return r.stop_error();
            return make_error("internal: the phase-1 table did not fill", {}, Error::NO_POSITION,
                              ErrorKind::Internal);
          }
          return p;
        };
        TableReport report;
        auto p1 = store.obtain(recipe, run, &report);
        if (!p1) return p1.error();
        reports.push_back(report);
        tables->phase1 = *p1;
        // The searches read these at random (the optimal search most): 2 MiB pages save most
        // TLB misses, which cost several memory reads each on a virtual machine.
        permuzzle::detail::collapse_huge_pages((*p1)->nibbles.data(), (*p1)->nibbles.size());
        permuzzle::detail::collapse_huge_pages(coords->fs_class_sym.data(),
                                               coords->fs_class_sym.size() * sizeof(std::uint32_t));
        return tables;
      });
  if (!made) return made.error();
  if (info) {
    info->seconds = clock.seconds();
    info->bytes = (*made)->coords->bytes() + Phase1Table::BYTES;
    info->reports = reports;
  }
  return std::shared_ptr<const SolverTables>(*made);
}

std::uint64_t solver_tables_bytes() {
  // The phase-1 table, and the move, symmetry and phase-2 tables (CoordTables::bytes(), about
  // 14 MB: 16 MB covers them, which tests/cube_two_phase_test.cpp checks).
  constexpr std::uint64_t COORD_TABLES_MAX_BYTES = 16'000'000;
  return Phase1Table::BYTES + COORD_TABLES_MAX_BYTES;
}

namespace {

class TwoPhaseSearch {
 public:
  TwoPhaseSearch(const SolverTables& tables, const TwoPhaseOptions& options, const RunContext& run)
      : t_(*tables.coords), p1_(*tables.phase1), options_(options), run_(run) {}

  // Step 1: six starting cubes; step 2: phase-1 lengths in increasing order over all six.
  Status run(const KCube& cube) {
    const CubeBasics& b = t_.basics;
    std::array<int, 6> h0{};
    for (int d = 0; d < 6; ++d) {
      const KCube base = d >= 3 ? cube.inverse() : cube;
      dir_[d].cube = b.conj(base, 16 * (d % 3));
      h0[d] =
          phase1_distance(t_, p1_, dir_[d].cube.twist(), dir_[d].cube.flip(), dir_[d].cube.slice());
    }
    lower_bound_ = *std::max_element(h0.begin(), h0.end());
    if (!(cube == KCube{})) lower_bound_ = std::max(lower_bound_, 1);  // one move at least
    const bool target = options_.max_length >= 0;
    if (target && options_.max_length < lower_bound_) {
      return make_error(
          fmt::format("no solution of at most {} moves exists: every solution is at least {} "
                      "moves (the phase-1 distance bound); raise --max-length",
                      options_.max_length, lower_bound_),
          {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    if (options_.budget >= 0) {
      deadline_ =
          RunContext::Clock::now() + std::chrono::duration_cast<RunContext::Clock::duration>(
                                         std::chrono::duration<double>(options_.budget));
    }
    // A solution of at most max_length moves has a phase 1 of at most max_length moves: past
    // that length the two-phase search cannot reach the target.
    const int last_length = target ? std::min(options_.max_length, 30) : 30;
    for (int length = *std::min_element(h0.begin(), h0.end()); length <= last_length; ++length) {
      if (best_length_ <= length) break;  // a phase 2 of length 0 cannot improve: exhausted
      for (current_ = 0; current_ < 6 && !stop_; ++current_) {
        if (h0[current_] > length) continue;
        const KCube& c = dir_[current_].cube;
        at_[0] = c;  // the replay cache restarts with each direction
        at_valid_ = 0;
        phase1(c.twist(), c.flip(), c.slice(), 0, length, -1);
      }
      if (error_) return *error_;
      if (stop_) break;
    }
    return Ok{};
  }

  bool found() const { return best_length_ < NONE; }
  // A solution of at most max_length moves is known (any solution without max_length).
  bool within() const {
    return found() && (options_.max_length < 0 || best_length_ <= options_.max_length);
  }
  const std::vector<int>& best() const { return best_; }
  std::uint64_t nodes() const { return nodes_; }
  int lower_bound() const { return lower_bound_; }
  bool exhausted() const { return !stop_; }

 private:
  static constexpr int NONE = 1000;
  struct Direction {
    KCube cube;
  };

  // Polled every 1024 nodes: the caller's cancellation and time limit, then our budget for
  // shorter solutions (which only ends the search once there is one within max_length).
  void poll() {
    if ((++nodes_ & 1023) != 0) return;
    if (run_.should_stop()) {
      error_ = run_.stop_error();
      stop_ = true;
    } else if (deadline_ && within() && RunContext::Clock::now() >= *deadline_) {
      stop_ = true;
    }
  }

  void phase1(int twist, int flip, int slice, int depth, int togo, int last) {
    if (togo == 0) {
      if (depth == 0 || !is_phase2_move(last)) phase2_start(depth);
      return;
    }
    if (togo == 1) {  // the children that end phase 1 are in H: no table read needed
      for (int m = 0; m < N_MOVES && !stop_; ++m) {
        if (!allowed_after(last, m) || t_.twist_move[twist * N_MOVES + m] != 0 ||
            t_.flip_move[flip * N_MOVES + m] != 0 || t_.slice_move[slice * N_MOVES + m] != 0) {
          continue;
        }
        poll();
        moves1_[depth] = m;
        phase1(0, 0, 0, depth + 1, 0, m);
      }
      return;
    }
    // Children first in two rounds of independent reads (their flip-slice classes, 4 MB, then
    // their table entries, 70 MB: both miss the caches); then bounded in move order.
    struct Kid {
      int m, tw, fl, sl;
      std::uint64_t index;
    };
    std::array<Kid, N_MOVES> kids;
    int count = 0;
    for (int m = 0; m < N_MOVES; ++m) {
      if (!allowed_after(last, m)) continue;
      Kid& k = kids[count++];
      k.m = m;
      k.tw = t_.twist_move[twist * N_MOVES + m];
      k.fl = t_.flip_move[flip * N_MOVES + m];
      k.sl = t_.slice_move[slice * N_MOVES + m];
      __builtin_prefetch(&t_.fs_class_sym[static_cast<std::uint32_t>(k.sl) * N_FLIP + k.fl]);
    }
    for (int i = 0; i < count; ++i) {
      Kid& k = kids[i];
      k.index = phase1_index(t_, k.tw, k.fl, k.sl);
      prefetch_phase1(p1_, k.index);
    }
    for (int i = 0; i < count && !stop_; ++i) {
      const Kid& k = kids[i];
      const int h = p1_.get(k.index);
      // In H before the end: a shorter phase 1 reaches H (searched at a smaller length).
      if (h > togo - 1 || (h == 0 && togo > 1)) continue;
      poll();
      moves1_[depth] = k.m;
      phase1(k.tw, k.fl, k.sl, depth + 1, togo - 1, k.m);
    }
  }

  // The start cube's permutations after the first depth1 phase-1 moves (phase 1 tracks only
  // orientations and the slice: a permutation coordinate's move table would cost a cache miss
  // per phase-1 node). Consecutive phase-1 solutions share most of their moves (depth-first
  // order), so the cube after each prefix is cached (at_[i] after at_moves_[0..i)) and only the
  // changed suffix is replayed.
  const KCube& cube_after(int depth1) {
    int i = 0;
    while (i < at_valid_ && i < depth1 && at_moves_[i] == moves1_[i]) ++i;
    for (; i < depth1; ++i) {
      at_[i + 1] = at_[i];
      at_[i + 1].corners_times(t_.basics.moves[moves1_[i]]);
      at_[i + 1].edges_times(t_.basics.moves[moves1_[i]]);
      at_moves_[i] = moves1_[i];
    }
    at_valid_ = depth1;
    return at_[depth1];
  }

  void phase2_start(int depth1) {
    // Step 1. The longest phase 2 worth searching. Without --max-length, phase 2 is capped at 10
    // moves while phase 1 is short (phase 2 is the costly part; a longer phase 1 is cheap and
    // usually leaves a shorter phase 2), at 12 once a solution of at most 21 moves is known (then
    // only shorter totals are looked for). With --max-length (a target total) it is capped at 12
    // and at the target minus phase 1, as min2phase does: measured faster than the cap of 10 for
    // targets 20 and 21, since each phase-1 solution then gets its full chance.
    const bool target = options_.max_length >= 0;
    const int cap = depth1 >= 12 ? 18 : ((found() && best_length_ <= 21) || target ? 12 : 10);
    int max2 = std::min(best_length_ - 1 - depth1, cap);
    if (target && depth1 <= options_.max_length) {
      max2 = std::min(max2, options_.max_length - depth1);
    }
    if (max2 < 0) return;
    // Step 2. Cheap rejection first: corners with slice edges, before the U/D edge permutation.
    const KCube& e = cube_after(depth1);
    const int cperm = e.cperm();
    const Phase2 start{t_.cperm_class_sym[cperm], 0, e.sperm(), t_.cperm_ccombp[cperm]};
    if (corner_bound(start) > max2) return;
    const Phase2 p{start.c, t_.eperm_class_sym[e.eperm()], start.sperm, start.ccombp};
    const int h = std::max(corner_bound(p), edge_bound(p));
    // Step 3. IDA* phase 2, shortest first.
    for (int d2 = h; d2 <= max2 && !stop_; ++d2) {
      if (phase2(p, 0, d2, depth1 > 0 ? moves1_[depth1 - 1] : -1)) {
        record(depth1, d2);
        return;
      }
    }
  }

  // Phase 2's coordinates: the corner and U/D-edge permutations as class << 4 | symmetry (see
  // CoordTables), the slice edges' permutation and the corner combination with parity.
  struct Phase2 {
    int c, e, sperm, ccombp;
  };
  int corner_bound(const Phase2& p) const {
    const int s = p.c & 15;
    return t_.prune_cclass_sperm[(p.c >> 4) * N_SPERM + t_.sperm_conj[p.sperm * N_SYM_D4H + s]];
  }
  int edge_bound(const Phase2& p) const {
    const int s = p.e & 15;
    return std::max(
        t_.prune_eclass_sperm[(p.e >> 4) * N_SPERM + t_.sperm_conj[p.sperm * N_SYM_D4H + s]],
        t_.prune_eclass_ccombp[(p.e >> 4) * N_CCOMBP + t_.ccombp_conj[p.ccombp * N_SYM_D4H + s]]);
  }
  bool phase2(const Phase2& p, int depth, int togo, int last) {
    // The representative of class 0 is the identity, its only member.
    if (togo == 0) return (p.c >> 4) == 0 && (p.e >> 4) == 0 && p.sperm == 0;
    for (int j = 0; j < N_PHASE2_MOVES; ++j) {
      const int m = PHASE2_MOVES[j];
      if (!allowed_after(last, m)) continue;
      Phase2 k;
      k.c = class_after(t_, t_.cclass_move, p.c, j);
      k.sperm = t_.sperm_move[p.sperm * N_MOVES + m];
      if (corner_bound(k) > togo - 1) continue;
      k.e = class_after(t_, t_.eclass_move, p.e, j);
      k.ccombp = t_.ccombp_move[p.ccombp * N_MOVES + m];
      if (edge_bound(k) > togo - 1) continue;
      poll();
      if (stop_) return false;
      moves2_[depth] = m;
      if (phase2(k, depth + 1, togo - 1, m)) return true;
    }
    return false;
  }

  // A solution in the current direction's frame: back to the original cube's moves.
  void record(int depth1, int depth2) {
    std::vector<int> seq(moves1_.begin(), moves1_.begin() + depth1);
    seq.insert(seq.end(), moves2_.begin(), moves2_.begin() + depth2);
    const int s = 16 * (current_ % 3);
    std::array<int, N_MOVES> back{};
    for (int m = 0; m < N_MOVES; ++m) back[t_.basics.conj_move[m * N_SYM + s]] = m;
    for (int& m : seq) m = back[m];
    if (current_ >= 3) {  // a solution of the inverse, reversed and inverted
      std::reverse(seq.begin(), seq.end());
      for (int& m : seq) m = 3 * (m / 3) + (2 - m % 3);
    }
    int length = 0;
    for (int m : seq) length += (options_.metric == Metric::Qtm && m % 3 == 1) ? 2 : 1;
    if (length < best_length_ || !found()) {
      best_length_ = length;
      best_ = std::move(seq);
      if (options_.budget == 0 && within()) stop_ = true;
      if (best_length_ <= lower_bound_) stop_ = true;  // proven optimal
    }
  }

  const CoordTables& t_;
  const Phase1Table& p1_;
  TwoPhaseOptions options_;
  const RunContext& run_;
  std::optional<RunContext::Clock::time_point> deadline_;
  std::array<Direction, 6> dir_;
  int current_ = 0;
  std::array<int, 40> moves1_{};
  std::array<int, 40> moves2_{};
  std::array<KCube, 41> at_{};      // see cube_after()
  std::array<int, 40> at_moves_{};  // the moves at_ was replayed with
  int at_valid_ = 0;                // at_[0..at_valid_] are valid
  int best_length_ = NONE;
  std::vector<int> best_;
  int lower_bound_ = 0;
  std::uint64_t nodes_ = 0;
  bool stop_ = false;
  std::optional<Error> error_;
};

}  // namespace

Result<CubeSolution> solve_two_phase(const SolverTables& tables, const CubieState& state,
                                     const TwoPhaseOptions& options, const RunContext& run,
                                     CubeSolution* partial) {
  Stopwatch clock;
  auto theorem = check_theorem(state);
  if (!theorem.solvable()) {
    return make_error("unsolvable: " + theorem.failures().front(), {}, Error::NO_POSITION,
                      ErrorKind::Unsolvable);
  }
  TwoPhaseOptions o = options;
  if (o.budget < 0) o.budget = o.max_length < 0 ? 0.01 : 0;
  TwoPhaseSearch search(tables, o, run);
  auto status = search.run(from_cubie(state));
  if (!status) {
    if (partial && run.should_stop()) {
      // Stopped: the best solution so far within max_length (replayed), and the bound.
      CubeSolution known;
      if (search.within()) {
        auto best = finish_solution(tables.coords->basics, state, search.best(), o.metric);
        if (!best) return best.error();
        known = std::move(*best);
      }
      known.lower_bound = search.lower_bound();
      known.nodes = search.nodes();
      known.seconds = clock.seconds();
      known.method = "two-phase (Kociemba), 3 axes x inverse";
      *partial = std::move(known);
    }
    return status.error();
  }
  if (!search.within()) {
    if (o.max_length >= 0) {
      return make_error(fmt::format("no two-phase solution of at most {} moves (every phase-1 "
                                    "length up to {} searched; --optimal decides)",
                                    o.max_length, o.max_length),
                        {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    return make_error("no two-phase solution within 30 moves", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  auto solution = finish_solution(tables.coords->basics, state, search.best(), o.metric);
  if (!solution) return solution.error();
  solution->lower_bound = search.lower_bound();
  // Optimal when the solution meets an admissible bound (HTM bounds hold for QTM too).
  solution->optimal = static_cast<int>(solution->moves.size()) <= search.lower_bound() &&
                      (o.metric == Metric::Htm || solution->length <= search.lower_bound());
  solution->nodes = search.nodes();
  solution->seconds = clock.seconds();
  solution->method = "two-phase (Kociemba), 3 axes x inverse";
  return solution;
}

}  // namespace permuzzle::cube
