// `permuzzle hanoi solve|graph|numbers|play`: the Tower of Hanoi (spec section 1).
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>

#include "cli.hpp"
#include "permuzzle/puzzles/hanoi/graph.hpp"
#include "permuzzle/puzzles/hanoi/position.hpp"
#include "permuzzle/puzzles/hanoi/solver.hpp"

namespace permuzzle::cli {

namespace {

using namespace permuzzle::hanoi;

// Lengths up to 2^53 are JSON numbers; larger ones (d >= 54 on 3 pegs) decimal strings.
nlohmann::json count_json(Count n) {
  if (n <= (Count(1) << 53)) return static_cast<std::uint64_t>(n);
  return to_string(n);
}

// BFS proves optimality when the state graph has at most this many positions.
constexpr std::uint64_t PROOF_STATES = std::uint64_t(1) << 20;

struct HanoiArgs {
  int disks = 3;
  int pegs = 3;
  std::string from, to, dot;
  bool all = false;
  int max_disks = 20;
};

Status check_dims(int disks, int pegs) {
  if (disks < 1 || disks > MAX_DISKS) {
    return make_error(fmt::format("number of disks must be 1..{}, got {}", MAX_DISKS, disks));
  }
  if (pegs < 3 || pegs > MAX_PEGS) {
    return make_error(fmt::format("number of pegs must be 3..{}, got {}", MAX_PEGS, pegs));
  }
  return Ok{};
}

Result<CommandOutput> solve(const HanoiArgs& a) {
  if (auto s = check_dims(a.disks, a.pegs); !s) return s.error();
  // Step 1. Start and goal (default: tower on A to tower on the last peg).
  Position from = tower(a.disks, a.pegs, 0), to = tower(a.disks, a.pegs, a.pegs - 1);
  if (!a.from.empty()) {
    auto p = parse_position(a.from, a.pegs, a.disks);
    if (!p)
      return Error{p.error().kind, "--from: " + p.error().message, p.error().input,
                   p.error().position};
    from = *p;
  }
  if (!a.to.empty()) {
    auto p = parse_position(a.to, a.pegs, a.disks);
    if (!p)
      return Error{p.error().kind, "--to: " + p.error().message, p.error().input,
                   p.error().position};
    to = *p;
  }
  const bool print = a.disks <= 20 || a.all;
  const Count limit = Count(1) << 26;
  // Step 2. Length, sequence and the optimality argument.
  Count length = 0;
  std::vector<Move> moves;
  bool optimal = false, have_moves = false;
  std::string method, proof;
  const bool towers = is_tower(from, from.peg_of[0]) && is_tower(to, to.peg_of[0]);
  if (a.pegs == 3) {
    length = optimal_distance3(from, to);
    optimal = true;
    method = "3-peg recursion (largest differing disk moves once or twice)";
    proof = "exact recursion; cross-checked against BFS in the tests";
    if (print) {
      auto m = optimal_moves3(from, to, limit);
      if (!m) return m.error();
      moves = std::move(*m);
      have_moves = true;
    }
  } else if (towers && from.peg_of[0] != to.peg_of[0]) {
    length = frame_stewart(a.disks, a.pegs);
    method = "Frame-Stewart";
    proof = "Frame-Stewart number (not proven optimal here: state graph too large for BFS)";
    if (state_count(a.disks, a.pegs) <= PROOF_STATES) {
      auto d = bfs_distances(from);
      if (!d) return d.error();
      auto bfs_len = static_cast<Count>((*d)[encode(to)]);
      optimal = bfs_len == length;
      proof = optimal ? fmt::format("BFS over all {} positions gives the same distance",
                                    state_count(a.disks, a.pegs))
                      : fmt::format("BFS finds a shorter solution ({} moves)", to_string(bfs_len));
    }
    if (print) {
      auto m = frame_stewart_moves(a.disks, a.pegs, from.peg_of[0], to.peg_of[0], limit);
      if (!m) return m.error();
      moves = std::move(*m);
      have_moves = true;
    }
  } else {
    if (state_count(a.disks, a.pegs) > PROOF_STATES) {
      return make_error(
          fmt::format("with {} pegs, positions other than perfect towers are solved by "
                      "BFS, limited to {} positions ({}^{} is larger)",
                      a.pegs, PROOF_STATES, a.pegs, a.disks),
          {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    auto m = bfs_path(from, to);
    if (!m) return m.error();
    moves = std::move(*m);
    length = moves.size();
    have_moves = print;
    optimal = true;
    method = "BFS";
    proof = fmt::format("BFS over all {} positions", state_count(a.disks, a.pegs));
  }
  // Step 3. Replay: every printed sequence is checked to reach the goal.
  CommandOutput out;
  out.json = {{"disks", a.disks},
              {"pegs", a.pegs},
              {"from", format_position(from)},
              {"to", format_position(to)},
              {"length", count_json(length)},
              {"optimal", optimal},
              {"method", method},
              {"proof", proof}};
  std::string text;
  if (have_moves) {
    Position p = from;
    nlohmann::json names = nlohmann::json::array(), positions = nlohmann::json::array();
    std::string move_text, pos_text = format_position(p);
    positions.push_back(format_position(p));
    for (Move m : moves) {
      if (auto s = apply_move(p, m); !s) return s.error();
      names.push_back(move_name(m));
      move_text += (move_text.empty() ? "" : " ") + move_name(m);
      positions.push_back(format_position(p));
      pos_text += " -> " + format_position(p);
    }
    if (!(p == to)) {
      return make_error("internal: replayed sequence does not reach the goal", {},
                        Error::NO_POSITION, ErrorKind::Internal);
    }
    out.json["moves"] = names;
    out.json["positions"] = positions;
    out.json["verified"] = true;
    text += "moves:     " + (move_text.empty() ? std::string("(none)") : move_text) + "\n";
    text += "positions: " + pos_text + "\n";
  } else {
    out.json["moves_printed"] = false;
    text += fmt::format("(sequence not printed for {} disks; use --all)\n", a.disks);
  }
  text += fmt::format("length:    {} ({})\n", to_string(length),
                      optimal ? "optimal" : "Frame-Stewart, optimality not proven here");
  text += "method:    " + method + "; " + proof + "\n";
  out.text = text;
  return out;
}

Result<CommandOutput> graph(const Context& ctx, const HanoiArgs& a) {
  if (auto s = check_dims(a.disks, a.pegs); !s) return s.error();
  Position source = tower(a.disks, a.pegs, 0);
  if (!a.from.empty()) {
    auto p = parse_position(a.from, a.pegs, a.disks);
    if (!p) return p.error();
    source = *p;
  }
  progress(ctx, fmt::format("BFS over {} positions...", state_count(a.disks, a.pegs)));
  auto g = summarize_graph(source);
  if (!g) return g.error();
  CommandOutput out;
  const bool perfect = is_tower(source, source.peg_of[0]);
  std::string text = fmt::format("Tower of Hanoi state graph, {} disks, {} pegs, from {}\n",
                                 a.disks, a.pegs, format_position(source));
  text += fmt::format("positions: {}   edges: {}\n", g->positions, g->edges);
  text += "distance  positions\n";
  for (std::size_t d = 0; d < g->per_distance.size(); ++d) {
    text += fmt::format("{:>8}  {}\n", d, g->per_distance[d]);
  }
  text += fmt::format("largest distance from the source: {} ({} positions)\n", g->eccentricity,
                      g->farthest_count);
  nlohmann::json far = nlohmann::json::array();
  for (auto& p : g->farthest) far.push_back(format_position(p));
  out.json = {{"disks", a.disks},
              {"pegs", a.pegs},
              {"source", format_position(source)},
              {"positions", g->positions},
              {"edges", g->edges},
              {"per_distance", g->per_distance},
              {"eccentricity", g->eccentricity},
              {"farthest", far},
              {"farthest_count", g->farthest_count}};
  if (a.pegs == 3 && perfect && a.disks <= 63) {
    std::uint64_t expected = (std::uint64_t(1) << a.disks) - 1;
    bool ok = static_cast<std::uint64_t>(g->eccentricity) == expected;
    text +=
        fmt::format("check: 2^{} - 1 = {}: {}\n", a.disks, expected, ok ? "agrees" : "DISAGREES");
    out.json["expected_eccentricity"] = expected;
    out.json["check"] = ok;
  }
  if (g->diameter >= 0) {
    text += fmt::format("diameter (BFS from every position): {}\n", g->diameter);
    out.json["diameter"] = g->diameter;
  } else {
    text += "diameter: not computed (all-pairs BFS limited to 2187 positions)\n";
    out.json["diameter"] = nullptr;
  }
  if (!a.dot.empty()) {
    auto dot = graph_dot(a.disks, a.pegs);
    if (!dot) return dot.error();
    if (a.dot == "-") {
      text = *dot;
    } else {
      std::string tmp = a.dot + ".tmp";
      {
        std::ofstream f(tmp);
        f << *dot;
        if (!f) return make_error("cannot write " + tmp, {}, Error::NO_POSITION, ErrorKind::Io);
      }
      if (std::rename(tmp.c_str(), a.dot.c_str()) != 0) {
        return make_error("cannot rename " + tmp + " to " + a.dot, {}, Error::NO_POSITION,
                          ErrorKind::Io);
      }
      text += "DOT written to " + a.dot + " (render: neato -n -Tsvg " + a.dot + ")\n";
      out.json["dot"] = a.dot;
    }
  }
  out.text = text;
  return out;
}

Result<CommandOutput> numbers(const Context& ctx, const HanoiArgs& a) {
  if (auto s = check_dims(std::max(1, std::min(a.max_disks, MAX_DISKS)), a.pegs); !s)
    return s.error();
  if (a.max_disks < 1 || a.max_disks > MAX_DISKS) return make_error("--max-disks must be 1..64");
  CommandOutput out;
  out.text = fmt::format(
      "{} pegs: minimal numbers of moves, tower to tower\n disks  moves  status\n", a.pegs);
  nlohmann::json rows = nlohmann::json::array();
  int proven_up_to = 0;
  for (int n = 1; n <= a.max_disks; ++n) {
    Count fs = frame_stewart(n, a.pegs);
    std::string status;
    bool optimal = a.pegs == 3;
    if (a.pegs == 3) {
      status = "optimal (2^d - 1)";
    } else if (state_count(n, a.pegs) <= PROOF_STATES) {
      progress(ctx, fmt::format("BFS {} disks...", n), true);
      auto d = bfs_distances(tower(n, a.pegs, 0));
      if (!d) return d.error();
      Count bfs_len = static_cast<Count>((*d)[encode(tower(n, a.pegs, a.pegs - 1))]);
      optimal = bfs_len == fs;
      status = optimal ? "optimal (BFS-proven)" : "BFS finds " + to_string(bfs_len);
      if (optimal && proven_up_to == n - 1) proven_up_to = n;
    } else {
      status = "Frame-Stewart (not proven here)";
    }
    out.text += fmt::format("{:>6}  {:>5}  {}\n", n, to_string(fs), status);
    rows.push_back(
        {{"disks", n}, {"moves", count_json(fs)}, {"optimal", optimal}, {"status", status}});
  }
  if (a.pegs > 3) {
    out.text +=
        fmt::format("BFS proves the Frame-Stewart numbers optimal for d <= {}\n", proven_up_to);
  }
  out.json = {{"pegs", a.pegs},
              {"rows", rows},
              {"bfs_proven_up_to", a.pegs > 3 ? proven_up_to : a.max_disks}};
  return out;
}

// Interactive game: reads moves (AB, ...) from stdin, prints the position after each.
Result<CommandOutput> play(const HanoiArgs& a) {
  if (auto s = check_dims(a.disks, a.pegs); !s) return s.error();
  if (a.disks > 20) return make_error("play supports up to 20 disks");
  Position p = tower(a.disks, a.pegs, 0), goal = tower(a.disks, a.pegs, a.pegs - 1);
  std::cout << fmt::format("Tower of Hanoi, {} disks, {} pegs. Move e.g. AB; q quits.\n", a.disks,
                           a.pegs)
            << format_position(p) << "\n";
  std::string line;
  long moves = 0;
  const Count best = a.pegs == 3 ? optimal_distance3(p, goal) : frame_stewart(a.disks, a.pegs);
  while (std::cout << "> " << std::flush, std::getline(std::cin, line)) {
    auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    if (line == "q" || line == "quit") break;
    auto m = parse_move(line, a.pegs);
    if (!m) {
      std::cout << "error: " << m.error().message << "\n";
      continue;
    }
    if (auto s = apply_move(p, *m); !s) {
      std::cout << "error: " << s.error().message << "\n";
      continue;
    }
    ++moves;
    std::cout << format_position(p) << "\n";
    if (p == goal) {
      std::cout << fmt::format("solved in {} moves (minimum {})\n", moves, to_string(best));
      break;
    }
  }
  CommandOutput out;
  out.already_printed = true;
  return out;
}

}  // namespace

void add_hanoi_command(CLI::App& app, Context& ctx) {
  auto* hanoi =
      app.add_subcommand("hanoi", "Tower of Hanoi: optimal solutions, state graph, 4+ pegs");
  hanoi->require_subcommand(1);
  auto a = std::make_shared<HanoiArgs>();

  auto* solve_cmd = hanoi->add_subcommand(
      "solve",
      "Shortest solution from any position to any position (3 pegs: exact; 4+ pegs: "
      "Frame-Stewart between towers, BFS otherwise)");
  solve_cmd->add_option("disks", a->disks, "Number of disks (1..64)")->required();
  solve_cmd->add_option("--pegs", a->pegs, "Number of pegs (default 3)");
  solve_cmd->add_option("--from", a->from,
                        "Start position, e.g. \"[[1, 2], [], []]\" (default: tower on A)");
  solve_cmd->add_option("--to", a->to, "Goal position (default: tower on the last peg)");
  solve_cmd->add_flag("--all", a->all, "Print the sequence even for more than 20 disks");
  set_action(ctx, solve_cmd, [a]() { return solve(*a); });

  auto* graph_cmd =
      hanoi->add_subcommand("graph", "BFS over the whole state graph: distances, diameter, DOT");
  graph_cmd->add_option("disks", a->disks, "Number of disks")->required();
  graph_cmd->add_option("--pegs", a->pegs, "Number of pegs (default 3)");
  graph_cmd->add_option("--from", a->from, "Source position (default: tower on A)");
  graph_cmd->add_option("--dot", a->dot,
                        "Write the graph in Graphviz DOT to this file ('-' = stdout)");
  set_action(ctx, graph_cmd, [&ctx, a]() { return graph(ctx, *a); });

  auto* numbers_cmd = hanoi->add_subcommand(
      "numbers",
      "Minimal move counts tower to tower (Frame-Stewart for 4+ pegs, BFS-proven where small)");
  numbers_cmd->add_option("--pegs", a->pegs, "Number of pegs (default 3)");
  numbers_cmd->add_option("--max-disks", a->max_disks, "Largest number of disks (default 20)");
  set_action(ctx, numbers_cmd, [&ctx, a]() { return numbers(ctx, *a); });

  auto* play_cmd = hanoi->add_subcommand("play", "Play interactively (moves on stdin)");
  play_cmd->add_option("disks", a->disks, "Number of disks")->required();
  play_cmd->add_option("--pegs", a->pegs, "Number of pegs (default 3)");
  set_action(ctx, play_cmd, [a]() { return play(*a); });
}

std::string demo_hanoi() {
  std::string out = "Tower of Hanoi\n";
  auto m = optimal_moves3(tower(4, 3, 0), tower(4, 3, 2));
  if (m) {
    std::string seq;
    for (auto mv : *m) seq += move_name(mv) + " ";
    out += fmt::format("  4 disks, A to C, {} moves: {}\n", m->size(), seq);
  }
  auto from = parse_position("[[3], [1, 4], [2]]");
  auto to = parse_position("[[1], [2, 3], [4]]");
  if (from && to) {
    out += fmt::format("  {} -> {}: {} moves (optimal, any position to any position)\n",
                       format_position(*from), format_position(*to),
                       to_string(optimal_distance3(*from, *to)));
  }
  auto g = summarize_graph(tower(7, 3, 0), 0);
  if (g) {
    out += fmt::format("  state graph, 7 disks: {} positions, largest distance {} (= 2^7 - 1)\n",
                       g->positions, g->eccentricity);
  }
  out += fmt::format("  4 pegs, Frame-Stewart: 10 disks {} moves (BFS-proven), 64 disks {} moves\n",
                     to_string(frame_stewart(10, 4)), to_string(frame_stewart(64, 4)));
  return out;
}

}  // namespace permuzzle::cli
