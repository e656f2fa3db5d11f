// Optimal solutions: IDA* over the whole cube (see two_phase.hpp for the method).
//
// A node carries the phase-1 coordinates of the cube seen along each of the three axes
// (twist, flip, slice of S^-1 X S for the symmetries 0, 16, 32; a move m of X is the move
// conj_move[m][s] of the conjugate) and the inverse cube in full (X^-1 is premultiplied by the
// inverse move). The bound is the largest of the four phase-1 distances: the distance to H of a
// conjugate or of the inverse is at most the distance to solved, which both preserve.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "permuzzle/puzzles/cube/two_phase.hpp"
#include "solver_tables.hpp"

namespace permuzzle::cube {

using namespace detail;

namespace {

struct Node {
  std::array<std::uint16_t, 3> twist, flip, slice;
  KCube inverse;
};

class OptimalSearch {
 public:
  OptimalSearch(const SolverTables& tables, Metric metric, const RunContext& run)
      : t_(*tables.coords), p1_(*tables.phase1), metric_(metric), run_(run) {}

  Node root(const KCube& cube) const {
    Node n;
    for (int a = 0; a < 3; ++a) {
      const KCube c = t_.basics.conj(cube, 16 * a);
      n.twist[a] = static_cast<std::uint16_t>(c.twist());
      n.flip[a] = static_cast<std::uint16_t>(c.flip());
      n.slice[a] = static_cast<std::uint16_t>(c.slice());
    }
    n.inverse = cube.inverse();
    return n;
  }

  // The largest of the four bounds, stopping early once one exceeds `limit`.
  int bound(const Node& n, int limit) const {
    int h = 0;
    for (int a = 0; a < 3; ++a) {
      h = std::max(h, phase1_distance(t_, p1_, n.twist[a], n.flip[a], n.slice[a]));
      if (h > limit) return h;
    }
    const KCube& v = n.inverse;
    return std::max(h, phase1_distance(t_, p1_, v.twist(), v.flip(), v.slice()));
  }

  Node child(const Node& n, int m) const {
    Node c;
    for (int a = 0; a < 3; ++a) {
      const int ma = t_.basics.conj_move[m * N_SYM + 16 * a];
      c.twist[a] = t_.twist_move[n.twist[a] * N_MOVES + ma];
      c.flip[a] = t_.flip_move[n.flip[a] * N_MOVES + ma];
      c.slice[a] = t_.slice_move[n.slice[a] * N_MOVES + ma];
    }
    c.inverse = t_.basics.moves[3 * (m / 3) + 2 - m % 3] * n.inverse;
    return c;
  }

  int cost(int m) const { return metric_ == Metric::Qtm && m % 3 == 1 ? 2 : 1; }

  static bool solved(const Node& n) { return n.inverse == KCube{}; }

  // Depth-first search below `n` with `budget` cost left. `abort` is polled with the node
  // count; true when it says stop. Moves found are appended to `path` (kept on success).
  struct Worker {
    std::uint64_t nodes = 0;
    std::vector<int> path;
    bool aborted = false;
  };
  bool dfs(const Node& n, int budget, int last, Worker& w,
           const std::function<bool()>& abort) const {
    if (budget == 0) return solved(n);
    // Step 1. Every child and its four table entries (three axes, the inverse), prefetched
    // (memory-level parallelism).
    struct Kid {
      Node node;
      std::array<std::uint64_t, 4> index;
      int move;
    };
    std::array<Kid, N_MOVES> kids;
    int count = 0;
    for (int m = 0; m < N_MOVES; ++m) {
      if (!allowed_after(last, m) || cost(m) > budget) continue;
      Kid& k = kids[count++];
      k.move = m;
      k.node = child(n, m);
      for (int a = 0; a < 3; ++a) {
        k.index[a] = phase1_index(t_, k.node.twist[a], k.node.flip[a], k.node.slice[a]);
        prefetch_phase1(p1_, k.index[a]);
      }
      const KCube& v = k.node.inverse;
      k.index[3] = phase1_index(t_, v.twist(), v.flip(), v.slice());
      prefetch_phase1(p1_, k.index[3]);
    }
    // Step 2. Bound and descend, in move order.
    for (int i = 0; i < count; ++i) {
      const Kid& k = kids[i];
      const int limit = budget - cost(k.move);
      if ((++w.nodes & 4095) == 0 && abort()) {
        w.aborted = true;
        return false;
      }
      if (p1_.get(k.index[0]) > limit || p1_.get(k.index[1]) > limit ||
          p1_.get(k.index[2]) > limit || p1_.get(k.index[3]) > limit) {
        continue;
      }
      if (limit == 0 && !solved(k.node)) continue;
      w.path.push_back(k.move);
      if (dfs(k.node, limit, k.move, w, abort)) return true;
      w.path.pop_back();
      if (w.aborted) return false;
    }
    return false;
  }

  // The subtrees of one iteration: the nodes at depth `depth` that the one-thread search would
  // enter, in its order, with the nodes it counts above them.
  struct Prefix {
    Node node;
    std::vector<int> moves;
    int budget;
  };
  void prefixes(const Node& n, int budget, int depth, std::vector<int>& moves,
                std::vector<Prefix>& out, std::uint64_t& nodes) const {
    if (depth == 0 || budget == 0) {
      out.push_back({n, moves, budget});
      return;
    }
    const int last = moves.empty() ? -1 : moves.back();
    for (int m = 0; m < N_MOVES; ++m) {
      if (!allowed_after(last, m)) continue;
      const int c = cost(m);
      if (c > budget) continue;
      const Node ch = child(n, m);
      ++nodes;
      if (bound(ch, budget - c) > budget - c) continue;
      if (budget - c == 0 && !solved(ch)) continue;
      moves.push_back(m);
      prefixes(ch, budget - c, depth - 1, moves, out, nodes);
      moves.pop_back();
    }
  }

  const CoordTables& t_;
  const Phase1Table& p1_;
  Metric metric_;
  const RunContext& run_;
};

}  // namespace

Result<CubeSolution> solve_optimal(const SolverTables& tables, const CubieState& state,
                                   const OptimalOptions& options, const RunContext& run) {
  Stopwatch clock;
  auto theorem = check_theorem(state);
  if (!theorem.solvable()) {
    return make_error("unsolvable: " + theorem.failures().front(), {}, Error::NO_POSITION,
                      ErrorKind::Unsolvable);
  }
  OptimalSearch search(tables, options.metric, run);
  const Node root = search.root(from_cubie(state));
  const int h0 = search.bound(root, 99);
  const unsigned threads = std::max(1u, run.threads());
  std::uint64_t total_nodes = 0;
  std::vector<int> found;
  bool have = OptimalSearch::solved(root);
  int bound = have ? 0 : std::max(1, h0);
  for (; !have; ++bound) {
    if (bound > options.max_length) {
      return make_error(fmt::format("no solution of at most {} moves", options.max_length), {},
                        Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    run.report({"cube optimal search", total_nodes, 0,
                fmt::format("bound {}, {} nodes so far", bound, total_nodes)});
    // Step 1. The subtrees below depth 3 (or fewer when the bound is small), in DFS order.
    std::vector<OptimalSearch::Prefix> subtrees;
    std::vector<int> moves;
    search.prefixes(root, bound, std::min(3, bound), moves, subtrees, total_nodes);
    // Step 2. Workers take subtrees in order; the answer is the first subtree with a solution.
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> first_found{subtrees.size()};
    std::vector<std::uint64_t> subtree_nodes(subtrees.size(), 0);
    std::vector<std::vector<int>> subtree_path(subtrees.size());
    std::atomic<bool> stopped{false};
    auto work = [&] {
      for (;;) {
        const std::size_t i = next.fetch_add(1);
        if (i >= subtrees.size() || i > first_found.load() || stopped.load()) return;
        const auto& p = subtrees[i];
        OptimalSearch::Worker w;
        auto abort = [&] {
          if (run.should_stop()) stopped = true;
          return stopped.load() || first_found.load() < i;
        };
        bool ok = p.budget == 0 ? OptimalSearch::solved(p.node)
                                : search.dfs(p.node, p.budget,
                                             p.moves.empty() ? -1 : p.moves.back(), w, abort);
        subtree_nodes[i] = w.nodes;
        if (ok) {
          subtree_path[i] = p.moves;
          subtree_path[i].insert(subtree_path[i].end(), w.path.begin(), w.path.end());
          std::size_t cur = first_found.load();
          while (i < cur && !first_found.compare_exchange_weak(cur, i)) {
          }
        }
      }
    };
    std::vector<std::thread> pool;
    for (unsigned k = 1; k < threads; ++k) pool.emplace_back(work);
    work();
    for (auto& th : pool) th.join();
    if (stopped) return run.stop_error();
    // Step 3. Nodes as one thread counts them: every subtree up to the first with a solution.
    const std::size_t last = std::min(first_found.load() + 1, subtrees.size());
    for (std::size_t i = 0; i < last; ++i) total_nodes += subtree_nodes[i];
    if (first_found.load() < subtrees.size()) {
      found = subtree_path[first_found.load()];
      have = true;
      break;
    }
  }
  auto solution = finish_solution(state, found, options.metric);
  if (!solution) return solution.error();
  solution->optimal = true;
  solution->lower_bound = h0;
  solution->nodes = total_nodes;
  solution->seconds = clock.seconds();
  solution->method =
      fmt::format("IDA* with the phase-1 table on 3 axes and the inverse, {} thread{}", threads,
                  threads == 1 ? "" : "s");
  return solution;
}

}  // namespace permuzzle::cube
