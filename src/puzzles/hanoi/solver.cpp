#include "permuzzle/puzzles/hanoi/solver.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "permuzzle/puzzles/hanoi/graph.hpp"

namespace permuzzle::hanoi {

std::string to_string(Count n) {
  if (n == 0) return "0";
  std::string s;
  while (n > 0) {
    s += static_cast<char>('0' + static_cast<int>(n % 10));
    n /= 10;
  }
  std::reverse(s.begin(), s.end());
  return s;
}

namespace {

Count pow2(int k) {
  return Count(1) << k;
}

int third_peg(int a, int b) {
  return 3 - a - b;
}

// Moves needed to gather disks 1..k of `p` on peg `t` (3 pegs): the largest disk not yet on t
// must move once, after everything smaller gathered on the remaining peg; what follows is a
// perfect tower move of 2^(k-1) - 1.
Count distance_to_tower(const Position& p, int k, int t) {
  Count total = 0;
  for (int disk = k; disk >= 1; --disk) {
    int peg = p.peg_of[disk - 1];
    if (peg != t) {
      total += pow2(disk - 1);  // 1 move of `disk` + (2^(disk-1) - 1) for the smaller tower
      t = third_peg(peg, t);
    }
  }
  return total;
}

// Move generator on a live position: each emitted move is applied at once, so `cur` is always
// the true position and every move is checked for legality as it is produced.
class Generator {
 public:
  Generator(Position start, Count limit, const RunContext* run)
      : cur_(std::move(start)), limit_(limit), run_(run) {}

  Status emit(int from, int to) {
    if (moves_.size() >= limit_) {
      return make_error("move sequence longer than the limit", {}, Error::NO_POSITION,
                        ErrorKind::LimitExceeded);
    }
    if (run_ && (moves_.size() & 65535) == 65535 && run_->should_stop()) {
      return run_->stop_error();
    }
    Move m{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)};
    if (auto s = apply_move(cur_, m); !s) {
      return make_error("internal: generated an illegal move: " + s.error().message, {},
                        Error::NO_POSITION, ErrorKind::Internal);
    }
    moves_.push_back(m);
    return Ok{};
  }

  // Perfect tower of disks 1..k from a to b (3 pegs).
  Status tower_move(int k, int a, int b) {
    if (k == 0) return Ok{};
    int c = third_peg(a, b);
    if (auto s = tower_move(k - 1, a, c); !s) return s;
    if (auto s = emit(a, b); !s) return s;
    return tower_move(k - 1, c, b);
  }

  // Gathers disks 1..k (wherever they are) on peg t, optimally.
  Status to_tower(int k, int t) {
    if (k == 0) return Ok{};
    int peg = cur_.peg_of[k - 1];
    if (peg == t) return to_tower(k - 1, t);
    int other = third_peg(peg, t);
    if (auto s = to_tower(k - 1, other); !s) return s;
    if (auto s = emit(peg, t); !s) return s;
    return tower_move(k - 1, other, t);
  }

  // Spreads disks 1..k from a perfect tower on t into their places in `goal`: the reverse of
  // gathering `goal` onto t.
  Status from_tower(const Position& goal, int k, int t) {
    if (k == 0) return Ok{};
    Generator back(goal, limit_, run_);
    if (auto s = back.to_tower(k, t); !s) return s;
    for (auto it = back.moves_.rbegin(); it != back.moves_.rend(); ++it) {
      if (auto s = emit(it->to, it->from); !s) return s;
    }
    return Ok{};
  }

  Status solve(const Position& goal, int k) {
    // Step 1. Disks above the largest differing disk stay where they are.
    while (k > 0 && cur_.peg_of[k - 1] == goal.peg_of[k - 1]) --k;
    if (k == 0) return Ok{};
    int a = cur_.peg_of[k - 1], b = goal.peg_of[k - 1], c = third_peg(a, b);
    // Step 2. Compare moving disk k once (a -> b) with moving it twice (a -> c -> b).
    Count once = distance_to_tower(cur_, k - 1, c) + 1 + distance_to_tower(goal, k - 1, c);
    Count twice = distance_to_tower(cur_, k - 1, b) + 2 + (pow2(k - 1) - 1) +
                  distance_to_tower(goal, k - 1, a);
    if (once <= twice) {
      if (auto s = to_tower(k - 1, c); !s) return s;
      if (auto s = emit(a, b); !s) return s;
      return from_tower(goal, k - 1, c);
    }
    if (auto s = to_tower(k - 1, b); !s) return s;
    if (auto s = emit(a, c); !s) return s;
    if (auto s = tower_move(k - 1, b, a); !s) return s;
    if (auto s = emit(c, b); !s) return s;
    return from_tower(goal, k - 1, a);
  }

  // Frame–Stewart: n smallest disks from `from` to `to` using the pegs in `avail`.
  Status frame_stewart(int n, std::vector<int> avail, int from, int to) {
    if (n == 0) return Ok{};
    if (n == 1) return emit(from, to);
    int k = static_cast<int>(avail.size());
    int t = frame_stewart_split(n, k);
    int mid = -1;
    for (int p : avail) {
      if (p != from && p != to) {
        mid = p;
        break;
      }
    }
    if (k == 3) {
      if (auto s = frame_stewart(n - 1, avail, from, mid); !s) return s;
      if (auto s = emit(from, to); !s) return s;
      return frame_stewart(n - 1, avail, mid, to);
    }
    if (auto s = frame_stewart(t, avail, from, mid); !s) return s;
    std::vector<int> rest;
    for (int p : avail) {
      if (p != mid) rest.push_back(p);
    }
    if (auto s = frame_stewart(n - t, rest, from, to); !s) return s;
    return frame_stewart(t, avail, mid, to);
  }

  std::vector<Move> take() { return std::move(moves_); }
  const Position& position() const { return cur_; }

 private:
  Position cur_;
  Count limit_;
  const RunContext* run_;
  std::vector<Move> moves_;
};

Count solve_distance(const Position& from, const Position& to, int k) {
  while (k > 0 && from.peg_of[k - 1] == to.peg_of[k - 1]) --k;
  if (k == 0) return 0;
  int a = from.peg_of[k - 1], b = to.peg_of[k - 1], c = third_peg(a, b);
  Count once = distance_to_tower(from, k - 1, c) + 1 + distance_to_tower(to, k - 1, c);
  Count twice =
      distance_to_tower(from, k - 1, b) + 2 + (pow2(k - 1) - 1) + distance_to_tower(to, k - 1, a);
  return std::min(once, twice);
}

// FS(n, k) and the best split, memoised per call (n <= 64, k <= 26: tiny).
struct FsTable {
  Count value[MAX_DISKS + 1][MAX_PEGS + 1];
  int split[MAX_DISKS + 1][MAX_PEGS + 1];
  FsTable() {
    for (int k = 3; k <= MAX_PEGS; ++k) {
      value[0][k] = 0;
      split[0][k] = 0;
      for (int n = 1; n <= MAX_DISKS; ++n) {
        if (k == 3) {
          value[n][k] = pow2(n) - 1;
          split[n][k] = n - 1;
          continue;
        }
        Count best = value[n][k - 1];
        int best_t = 0;
        for (int t = 1; t < n; ++t) {
          Count v = 2 * value[t][k] + value[n - t][k - 1];
          if (v <= best) {
            best = v;
            best_t = t;
          }
        }
        value[n][k] = best;
        split[n][k] = best_t;
      }
    }
  }
};

const FsTable& fs_table() {
  static const FsTable table;  // immutable after construction: a constant, not mutable state
  return table;
}

}  // namespace

Count optimal_distance3(const Position& from, const Position& to) {
  return solve_distance(from, to, from.disks());
}

Result<std::vector<Move>> optimal_moves3(const Position& from, const Position& to, Count limit,
                                         const RunContext* run) {
  if (from.pegs != 3 || to.pegs != 3 || from.disks() != to.disks()) {
    return make_error("optimal_moves3 needs two 3-peg positions with the same disks");
  }
  Count length = optimal_distance3(from, to);
  if (length > limit) {
    return make_error(fmt::format("the optimal solution has {} moves, more than the limit {}",
                                  to_string(length), to_string(limit)),
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  Generator g(from, limit, run);
  if (auto s = g.solve(to, from.disks()); !s) return s.error();
  if (!(g.position() == to)) {
    return make_error("internal: the generated sequence does not reach the goal", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  auto moves = g.take();
  if (moves.size() != length) {
    return make_error("internal: sequence length differs from the computed distance", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  return moves;
}

Count frame_stewart(int disks, int pegs) {
  return fs_table().value[disks][pegs];
}
int frame_stewart_split(int disks, int pegs) {
  return fs_table().split[disks][pegs];
}

Result<std::vector<Move>> frame_stewart_moves(int disks, int pegs, int from, int to, Count limit,
                                              const RunContext* run) {
  if (pegs < 3 || pegs > MAX_PEGS || disks < 0 || disks > MAX_DISKS) {
    return make_error("Frame–Stewart needs 3..26 pegs and 0..64 disks");
  }
  Count length = frame_stewart(disks, pegs);
  if (length > limit) {
    return make_error(fmt::format("the Frame–Stewart solution has {} moves, more than the limit {}",
                                  to_string(length), to_string(limit)),
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  std::vector<int> avail;
  for (int p = 0; p < pegs; ++p) avail.push_back(p);
  Generator g(tower(disks, pegs, from), limit, run);
  if (auto s = g.frame_stewart(disks, avail, from, to); !s) return s.error();
  auto moves = g.take();
  if (!is_tower(g.position(), to) || moves.size() != length) {
    return make_error("internal: Frame–Stewart sequence is wrong", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  return moves;
}

std::optional<Count> solution_length(const Position& from, const Position& to) {
  if (from.pegs != to.pegs || from.disks() != to.disks()) return std::nullopt;
  if (from.pegs == 3) return optimal_distance3(from, to);
  const bool towers = is_tower(from, from.peg_of[0]) && is_tower(to, to.peg_of[0]);
  if (towers && from.peg_of[0] != to.peg_of[0]) return frame_stewart(from.disks(), from.pegs);
  return std::nullopt;
}

Result<Solution> solve(const Position& from, const Position& to, const SolveOptions& options) {
  if (from.pegs != to.pegs || from.disks() != to.disks()) {
    return make_error("start and goal must have the same number of pegs and disks");
  }
  const int disks = from.disks(), pegs = from.pegs;
  Solution sol;
  const bool towers = is_tower(from, from.peg_of[0]) && is_tower(to, to.peg_of[0]);
  if (pegs == 3) {
    // Step 1a. Three pegs: the exact recursion; the generator checks every move it emits.
    sol.length = optimal_distance3(from, to);
    sol.optimal = true;
    sol.method = "3-peg recursion (largest differing disk moves once or twice)";
    sol.proof = "exact recursion; cross-checked against BFS in the tests";
    if (options.build_moves) {
      auto m = optimal_moves3(from, to, options.move_limit, options.run);
      if (!m) return m.error();
      sol.moves = std::move(*m);
      sol.have_moves = sol.verified = true;
    }
  } else if (towers && from.peg_of[0] != to.peg_of[0]) {
    // Step 1b. Tower to tower on 4+ pegs: Frame–Stewart, optimal where BFS says so.
    sol.length = frame_stewart(disks, pegs);
    sol.method = "Frame-Stewart";
    sol.proof = "Frame-Stewart number (not proven optimal here: state graph too large for BFS)";
    if (state_count(disks, pegs) <= options.proof_states) {
      auto d = bfs_distances(from, options.run);
      if (!d) return d.error();
      auto bfs_len = static_cast<Count>((*d)[encode(to)]);
      sol.optimal = bfs_len == sol.length;
      sol.proof = sol.optimal
                      ? fmt::format("BFS over all {} positions gives the same distance",
                                    state_count(disks, pegs))
                      : fmt::format("BFS finds a shorter solution ({} moves)", to_string(bfs_len));
    }
    if (options.build_moves) {
      auto m = frame_stewart_moves(disks, pegs, from.peg_of[0], to.peg_of[0], options.move_limit,
                                   options.run);
      if (!m) return m.error();
      sol.moves = std::move(*m);
      sol.have_moves = sol.verified = true;
    }
  } else {
    // Step 1c. Anything else on 4+ pegs: BFS, its path replayed once.
    if (state_count(disks, pegs) > options.proof_states) {
      return make_error(
          fmt::format("with {} pegs, positions other than perfect towers are solved by "
                      "BFS, limited to {} positions ({}^{} is larger)",
                      pegs, options.proof_states, pegs, disks),
          {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    auto m = bfs_path(from, to, options.run);
    if (!m) return m.error();
    auto end = replay(from, *m);
    if (!end || !(*end == to)) {
      return make_error("internal: the BFS path does not reach the goal", {}, Error::NO_POSITION,
                        ErrorKind::Internal);
    }
    sol.length = m->size();
    sol.optimal = true;
    sol.method = "BFS";
    sol.proof = fmt::format("BFS over all {} positions", state_count(disks, pegs));
    if (options.build_moves) {
      sol.moves = std::move(*m);
      sol.have_moves = sol.verified = true;
    }
  }
  return sol;
}

}  // namespace permuzzle::hanoi
