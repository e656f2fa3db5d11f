#include "permuzzle/puzzles/hanoi/graph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace permuzzle::hanoi {

std::uint64_t state_count(int disks, int pegs) {
  std::uint64_t n = 1;
  for (int i = 0; i < disks; ++i) {
    if (n > UINT64_MAX / static_cast<std::uint64_t>(pegs)) return UINT64_MAX;
    n *= static_cast<std::uint64_t>(pegs);
  }
  return n;
}

std::uint64_t encode(const Position& p) {
  std::uint64_t code = 0;
  for (int i = p.disks() - 1; i >= 0; --i) code = code * p.pegs + p.peg_of[i];
  return code;
}

Position decode(std::uint64_t code, int disks, int pegs) {
  Position p;
  p.pegs = pegs;
  p.peg_of.resize(static_cast<std::size_t>(disks));
  for (int i = 0; i < disks; ++i) {
    p.peg_of[i] = static_cast<std::uint8_t>(code % pegs);
    code /= pegs;
  }
  return p;
}

namespace {

Status check_size(int disks, int pegs) {
  if (state_count(disks, pegs) > MAX_GRAPH_STATES) {
    return make_error(fmt::format("the state graph of {} disks on {} pegs has more than {} "
                                  "positions; too large to explore",
                                  disks, pegs, MAX_GRAPH_STATES),
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  return Ok{};
}

// Calls f(neighbour_code, move) for every legal move from the position `code`.
// `pow` holds pegs^i; the top disk of each peg is the smallest disk on it.
template <class F>
void for_each_neighbour(std::uint64_t code, int disks, int pegs,
                        const std::vector<std::uint64_t>& pow, F&& f) {
  std::array<int, MAX_PEGS> top;
  top.fill(disks);  // `disks` = empty peg sentinel (larger than every 0-based disk)
  std::uint64_t c = code;
  for (int i = 0; i < disks; ++i) {
    int peg = static_cast<int>(c % pegs);
    c /= pegs;
    if (top[peg] == disks) top[peg] = i;
  }
  for (int a = 0; a < pegs; ++a) {
    if (top[a] == disks) continue;
    for (int b = 0; b < pegs; ++b) {
      if (b == a || top[b] < top[a]) continue;
      std::uint64_t next =
          code + (static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a)) * pow[top[a]];
      f(next, Move{static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)});
    }
  }
}

std::vector<std::uint64_t> powers(int disks, int pegs) {
  std::vector<std::uint64_t> pow(static_cast<std::size_t>(disks) + 1, 1);
  for (int i = 1; i <= disks; ++i) pow[i] = pow[i - 1] * pegs;
  return pow;
}

// Memory and stop checks of the whole-graph computations.
Status check_run(const RunContext* run, int disks, int pegs) {
  if (!run) return Ok{};
  return run->check_memory(bfs_bytes(state_count(disks, pegs)),
                           fmt::format("a BFS over the {} positions of {} disks on {} pegs",
                                       state_count(disks, pegs), disks, pegs));
}

// Empty when the run asked to stop.
std::vector<std::int32_t> bfs(std::uint64_t source, int disks, int pegs,
                              const RunContext* run = nullptr) {
  auto pow = powers(disks, pegs);
  std::vector<std::int32_t> dist(pow[disks], -1);
  std::vector<std::uint64_t> queue;
  queue.reserve(pow[disks]);
  dist[source] = 0;
  queue.push_back(source);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    if (run && (head & 65535) == 65535 && run->should_stop()) return {};
    std::uint64_t u = queue[head];
    for_each_neighbour(u, disks, pegs, pow, [&](std::uint64_t v, Move) {
      if (dist[v] < 0) {
        dist[v] = dist[u] + 1;
        queue.push_back(v);
      }
    });
  }
  return dist;
}

}  // namespace

std::uint64_t bfs_bytes(std::uint64_t states) {
  const std::uint64_t per_state = sizeof(std::int32_t) + sizeof(std::uint64_t);
  return states > UINT64_MAX / per_state ? UINT64_MAX : states * per_state;
}

Result<std::vector<std::int32_t>> bfs_distances(const Position& source, const RunContext* run) {
  if (auto s = check_size(source.disks(), source.pegs); !s) return s.error();
  if (auto s = check_run(run, source.disks(), source.pegs); !s) return s.error();
  auto dist = bfs(encode(source), source.disks(), source.pegs, run);
  if (dist.empty()) return run->stop_error();
  return dist;
}

Result<std::vector<Move>> bfs_path(const Position& from, const Position& to,
                                   const RunContext* run) {
  if (from.pegs != to.pegs || from.disks() != to.disks()) {
    return make_error("start and goal must have the same pegs and disks");
  }
  // BFS from the goal, then walk downhill from the start.
  auto dist = bfs_distances(to, run);
  if (!dist) return dist.error();
  const int disks = from.disks(), pegs = from.pegs;
  auto pow = powers(disks, pegs);
  std::vector<Move> moves;
  std::uint64_t u = encode(from);
  while ((*dist)[u] > 0) {
    std::uint64_t best = u;
    Move best_move{};
    for_each_neighbour(u, disks, pegs, pow, [&](std::uint64_t v, Move m) {
      if (best == u && (*dist)[v] == (*dist)[u] - 1) {
        best = v;
        best_move = m;
      }
    });
    moves.push_back(best_move);
    u = best;
  }
  return moves;
}

Result<GraphSummary> summarize_graph(const Position& source, std::uint64_t diameter_limit,
                                     const RunContext* run) {
  if (auto s = check_size(source.disks(), source.pegs); !s) return s.error();
  if (auto s = check_run(run, source.disks(), source.pegs); !s) return s.error();
  const int disks = source.disks(), pegs = source.pegs;
  GraphSummary g;
  g.disks = disks;
  g.pegs = pegs;
  auto dist = bfs(encode(source), disks, pegs, run);
  if (dist.empty()) return run->stop_error();
  g.positions = dist.size();
  auto pow = powers(disks, pegs);
  std::uint64_t degree_sum = 0;
  for (std::uint64_t u = 0; u < dist.size(); ++u) {
    if (run && (u & 65535) == 65535 && run->should_stop()) return run->stop_error();
    for_each_neighbour(u, disks, pegs, pow, [&](std::uint64_t, Move) { ++degree_sum; });
    if (dist[u] < 0) continue;  // cannot happen: the Hanoi graph is connected
    if (static_cast<std::size_t>(dist[u]) >= g.per_distance.size())
      g.per_distance.resize(dist[u] + 1);
    ++g.per_distance[dist[u]];
  }
  g.edges = degree_sum / 2;
  g.eccentricity = static_cast<int>(g.per_distance.size()) - 1;
  for (std::uint64_t u = 0; u < dist.size(); ++u) {
    if (dist[u] == g.eccentricity) {
      if (g.farthest.size() < 16) g.farthest.push_back(decode(u, disks, pegs));
      ++g.farthest_count;
    }
  }
  if (g.positions <= diameter_limit) {
    int diameter = 0;
    for (std::uint64_t u = 0; u < g.positions; ++u) {
      if (run && run->should_stop()) return run->stop_error();
      auto d = bfs(u, disks, pegs);
      diameter = std::max(diameter, *std::max_element(d.begin(), d.end()));
    }
    g.diameter = diameter;
  }
  return g;
}

Result<std::string> graph_dot(int disks, int pegs, std::uint64_t limit) {
  if (state_count(disks, pegs) > limit) {
    return make_error(fmt::format("DOT export is limited to {} positions ({} disks on {} pegs "
                                  "have {})",
                                  limit, disks, pegs, state_count(disks, pegs)),
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  auto pow = powers(disks, pegs);
  std::string out = fmt::format(
      "// Tower of Hanoi state graph: {} disks, {} pegs, {} positions.\n"
      "// Node names give the peg of disk 1, 2, ...; render with: neato -n -Tsvg\n"
      "graph hanoi {{\n  layout=neato;\n  node [shape=point, width=0.06];\n",
      disks, pegs, pow[disks]);
  // Sierpinski coordinates (3 pegs): the largest disk picks the corner of its sub-triangle;
  // inside the sub-triangle of peg p the other two pegs' corners are exchanged, so the bridge
  // edges between sub-triangles join facing corners.
  const double cx[3] = {0.0, -1.0, 1.0}, cy[3] = {std::sqrt(3.0), 0.0, 0.0};
  for (std::uint64_t u = 0; u < pow[disks]; ++u) {
    Position p = decode(u, disks, pegs);
    std::string name = format_letters(p);
    if (pegs == 3) {
      int corner[3] = {0, 1, 2};
      double x = 0, y = 0;
      for (int k = disks; k >= 1; --k) {
        int peg = p.peg_of[k - 1];
        double scale = std::ldexp(1.0, k - 1) * 10.0;
        x += scale * cx[corner[peg]];
        y += scale * cy[corner[peg]];
        int q = (peg + 1) % 3, r = (peg + 2) % 3;
        std::swap(corner[q], corner[r]);
      }
      out += fmt::format("  {} [pos=\"{:.2f},{:.2f}!\"];\n", name, x, y);
    } else {
      out += fmt::format("  {};\n", name);
    }
  }
  for (std::uint64_t u = 0; u < pow[disks]; ++u) {
    std::string name = format_letters(decode(u, disks, pegs));
    for_each_neighbour(u, disks, pegs, pow, [&](std::uint64_t v, Move m) {
      if (v > u) {
        out += fmt::format("  {} -- {};  // {}\n", name, format_letters(decode(v, disks, pegs)),
                           move_name(m));
      }
    });
  }
  return out + "}\n";
}

}  // namespace permuzzle::hanoi
