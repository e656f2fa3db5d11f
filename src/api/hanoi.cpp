// `hanoi solve|graph|numbers`: the Tower of Hanoi (spec section 1). (`hanoi play` is interactive
// and stays in the CLI.)
#include "common.hpp"
#include "permuzzle/puzzles/hanoi/graph.hpp"
#include "permuzzle/puzzles/hanoi/position.hpp"
#include "permuzzle/puzzles/hanoi/solver.hpp"

namespace permuzzle::api {

namespace {

using namespace permuzzle::hanoi;

// Sequences are printed by default up to this many disks (2^20 - 1 moves); --all goes further.
constexpr int PRINT_DISKS = 20;

// Lengths up to 2^53 are JSON numbers; larger ones (d >= 54 on 3 pegs) decimal strings.
nlohmann::json count_json(Count n) {
  if (n <= (Count(1) << 53)) return static_cast<std::uint64_t>(n);
  return hanoi::to_string(n);
}

Result<Position> position_param(const Request& q, const std::string& name, int pegs, int disks) {
  auto p = parse_position(q.string(name), pegs, disks);
  if (!p) {
    return Error{p.error().kind, "--" + name + ": " + p.error().message, p.error().input,
                 p.error().position};
  }
  return p;
}

// The position after `m` without checking it: the solver already verified the sequence.
void play_unchecked(Position& p, Move m) {
  int disk = p.top(m.from);
  if (disk > 0) p.peg_of[static_cast<std::size_t>(disk - 1)] = m.to;
}

Param disks_param(std::string help) {
  return with_range(
      formerly_positional(required(option("disks", ParamType::Unsigned, std::move(help)))), 1,
      MAX_DISKS);
}
Param pegs_param() {
  return with_range(option("pegs", ParamType::Unsigned, "Number of pegs", 3), 3, MAX_PEGS);
}

// Bytes of the printed sequence per move: the move in text and JSON, the position after it in
// text and JSON (positions of `from`'s size), and the move itself.
std::uint64_t bytes_per_move(const Position& from) {
  const std::uint64_t position = format_position(tower(from.disks(), from.pegs, 0)).size();
  return 2 * position + 4 + 3 + 2 * 48 + sizeof(Move);
}

Result<Output> solve_command(const Request& q, Session& s) {
  const int disks = static_cast<int>(q.unsigned_integer("disks"));
  const int pegs = static_cast<int>(q.unsigned_integer("pegs"));
  // Step 1. Start and goal (default: tower on A to tower on the last peg).
  Position from = tower(disks, pegs, 0), to = tower(disks, pegs, pegs - 1);
  if (q.has("from")) {
    auto p = position_param(q, "from", pegs, disks);
    if (!p) return p.error();
    from = *p;
  }
  if (q.has("to")) {
    auto p = position_param(q, "to", pegs, disks);
    if (!p) return p.error();
    to = *p;
  }
  // Step 2. The sequence is printed only when it fits in the memory budget (its length is
  // known before it is built); the length alone always can be.
  SolveOptions options;
  options.build_moves = (disks <= PRINT_DISKS || q.flag("all")) && !q.flag("length-only");
  options.run = &s.run;
  if (auto length = solution_length(from, to); length && options.build_moves) {
    const std::uint64_t per_move = bytes_per_move(from);
    const std::uint64_t bytes =
        *length > Count(UINT64_MAX / per_move) ? UINT64_MAX : std::uint64_t(*length) * per_move;
    if (auto st = s.run.check_memory(
            bytes, "printing the " + hanoi::to_string(*length) +
                       "-move sequence (--length-only gives its length; fewer disks print less)");
        !st) {
      return st.error();
    }
  }
  // Step 3. The library chooses the method, proves what it can and verifies the moves.
  auto sol = hanoi::solve(from, to, options);
  if (!sol) return sol.error();
  // Step 4. Output.
  Output out;
  out.json = {{"disks", disks},
              {"pegs", pegs},
              {"from", format_position(from)},
              {"to", format_position(to)},
              {"length", count_json(sol->length)},
              {"optimal", sol->optimal},
              {"method", sol->method},
              {"proof", sol->proof}};
  std::string text;
  if (sol->have_moves) {
    Position p = from;
    nlohmann::json names = nlohmann::json::array(), positions = nlohmann::json::array();
    std::string move_text, pos_text = format_position(p);
    positions.push_back(pos_text);
    for (std::size_t i = 0; i < sol->moves.size(); ++i) {
      if ((i & 65535) == 65535 && s.run.should_stop()) return s.run.stop_error();
      const Move m = sol->moves[i];
      play_unchecked(p, m);
      names.push_back(move_name(m));
      move_text += (move_text.empty() ? "" : " ") + move_name(m);
      std::string now = format_position(p);
      pos_text += " -> " + now;
      positions.push_back(std::move(now));
    }
    out.json["moves"] = std::move(names);
    out.json["positions"] = std::move(positions);
    out.json["verified"] = sol->verified;
    text += "moves:     " + (move_text.empty() ? std::string("(none)") : move_text) + "\n";
    text += "positions: " + pos_text + "\n";
  } else if (q.flag("length-only")) {
    out.json["moves_printed"] = false;
    text += "(sequence not printed: --length-only)\n";
  } else {
    out.json["moves_printed"] = false;
    text += fmt::format("(sequence not printed for {} disks; use --all)\n", disks);
  }
  text += fmt::format("length:    {} ({})\n", hanoi::to_string(sol->length),
                      sol->optimal ? "optimal" : "Frame-Stewart, optimality not proven here");
  text += "method:    " + sol->method + "; " + sol->proof + "\n";
  out.text = std::move(text);
  return out;
}

Result<Output> graph_command(const Request& q, Session& s) {
  const int disks = static_cast<int>(q.unsigned_integer("disks"));
  const int pegs = static_cast<int>(q.unsigned_integer("pegs"));
  Position source = tower(disks, pegs, 0);
  if (q.has("from")) {
    auto p = parse_position(q.string("from"), pegs, disks);
    if (!p) return p.error();
    source = *p;
  }
  s.note(fmt::format("BFS over {} positions...", state_count(disks, pegs)));
  auto g = summarize_graph(source, 2187, &s.run);
  if (!g) return g.error();
  Output out;
  const bool perfect = is_tower(source, source.peg_of[0]);
  std::string text = fmt::format("Tower of Hanoi state graph, {} disks, {} pegs, from {}\n", disks,
                                 pegs, format_position(source));
  text += fmt::format("positions: {}   edges: {}\n", g->positions, g->edges);
  text += "distance  positions\n";
  for (std::size_t d = 0; d < g->per_distance.size(); ++d) {
    text += fmt::format("{:>8}  {}\n", d, g->per_distance[d]);
  }
  text += fmt::format("largest distance from the source: {} ({} positions)\n", g->eccentricity,
                      g->farthest_count);
  nlohmann::json far = nlohmann::json::array();
  for (auto& p : g->farthest) far.push_back(format_position(p));
  out.json = {{"disks", disks},
              {"pegs", pegs},
              {"source", format_position(source)},
              {"positions", g->positions},
              {"edges", g->edges},
              {"per_distance", g->per_distance},
              {"eccentricity", g->eccentricity},
              {"farthest", far},
              {"farthest_count", g->farthest_count}};
  if (pegs == 3 && perfect && disks <= 63) {
    std::uint64_t expected = (std::uint64_t(1) << disks) - 1;
    bool ok = static_cast<std::uint64_t>(g->eccentricity) == expected;
    text += fmt::format("check: 2^{} - 1 = {}: {}\n", disks, expected, ok ? "agrees" : "DISAGREES");
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
  out.text = std::move(text);
  if (q.has("dot")) {
    auto dot = graph_dot(disks, pegs);
    if (!dot) return dot.error();
    out.artifacts.push_back(
        {"dot", std::move(*dot), "Graphviz DOT (fixed coordinates: render with neato -n -Tsvg)"});
  }
  return out;
}

Result<Output> numbers_command(const Request& q, Session& s) {
  const int pegs = static_cast<int>(q.unsigned_integer("pegs"));
  const int max_disks = static_cast<int>(q.unsigned_integer("max-disks"));
  Output out;
  out.text = fmt::format(
      "{} pegs: minimal numbers of moves, tower to tower\n disks  moves  status\n", pegs);
  nlohmann::json rows = nlohmann::json::array();
  int proven_up_to = 0;
  for (int n = 1; n <= max_disks; ++n) {
    Count fs = frame_stewart(n, pegs);
    std::string status;
    bool optimal = pegs == 3;
    if (pegs == 3) {
      status = "optimal (2^d - 1)";
    } else if (state_count(n, pegs) <= SolveOptions{}.proof_states) {
      s.run.report({"hanoi numbers", static_cast<std::uint64_t>(n - 1),
                    static_cast<std::uint64_t>(max_disks), fmt::format("BFS {} disks...", n)});
      auto d = bfs_distances(tower(n, pegs, 0), &s.run);
      if (!d) return d.error();
      Count bfs_len = static_cast<Count>((*d)[encode(tower(n, pegs, pegs - 1))]);
      optimal = bfs_len == fs;
      status = optimal ? "optimal (BFS-proven)" : "BFS finds " + hanoi::to_string(bfs_len);
      if (optimal && proven_up_to == n - 1) proven_up_to = n;
    } else {
      status = "Frame-Stewart (not proven here)";
    }
    out.text += fmt::format("{:>6}  {:>5}  {}\n", n, hanoi::to_string(fs), status);
    rows.push_back(
        {{"disks", n}, {"moves", count_json(fs)}, {"optimal", optimal}, {"status", status}});
  }
  if (pegs > 3) {
    out.text +=
        fmt::format("BFS proves the Frame-Stewart numbers optimal for d <= {}\n", proven_up_to);
  }
  out.json = {
      {"pegs", pegs}, {"rows", rows}, {"bfs_proven_up_to", pegs > 3 ? proven_up_to : max_disks}};
  return out;
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
                       hanoi::to_string(optimal_distance3(*from, *to)));
  }
  auto g = summarize_graph(tower(7, 3, 0), 0);
  if (g) {
    out += fmt::format("  state graph, 7 disks: {} positions, largest distance {} (= 2^7 - 1)\n",
                       g->positions, g->eccentricity);
  }
  out +=
      fmt::format("  4 pegs, Frame-Stewart: 10 disks {} moves (BFS-proven), 64 disks {} moves\n",
                  hanoi::to_string(frame_stewart(10, 4)), hanoi::to_string(frame_stewart(64, 4)));
  return out;
}

}  // namespace

void register_hanoi(Registry& r) {
  r.add_family("hanoi", "Tower of Hanoi: optimal solutions, state graph, 4+ pegs");

  r.add({"hanoi",
         "solve",
         "Shortest solution from any position to any position (3 pegs: exact; 4+ pegs: "
         "Frame-Stewart between towers, BFS otherwise)",
         {disks_param("Number of disks (1..64)"), pegs_param(),
          option("from", ParamType::String,
                 "Start position, e.g. \"[[1, 2], [], []]\" (default: tower on A)"),
          option("to", ParamType::String, "Goal position (default: tower on the last peg)"),
          flag("all", "Print the sequence even for more than 20 disks (within the memory budget)"),
          flag("length-only", "Print the length and its proof only, not the sequence")},
         solve_command,
         false,
         Cost::Expensive,
         // 23 disks: 8.4 million moves, over 1 GB of printed positions (refused by the
         // memory check under a small budget; several seconds to print otherwise).
         {{"disks", 23}, {"all", true}},
         {{{"disks", 0}},
          {{"disks", 65}},
          {{"disks", 3}, {"from", "[[1], [2]]"}},
          {{"disks", 3}, {"pegs", 2}}}});

  r.add({"hanoi",
         "graph",
         "BFS over the whole state graph: distances, diameter, DOT",
         {disks_param("Number of disks"), pegs_param(),
          option("from", ParamType::String, "Source position (default: tower on A)"),
          option("dot", ParamType::OutputPath, "Write the graph in Graphviz DOT to this file")},
         graph_command,
         /*long_running=*/true,
         Cost::Expensive,
         // 4^12 = 16.8 million positions: a BFS of several seconds (200 MB, refused by a
         // smaller memory budget).
         {{"disks", 12}, {"pegs", 4}},
         {{{"disks", 0}}, {{"disks", 3}, {"from", "AAD"}}, {{"disks", 3}, {"pegs", 27}}}});

  r.add({"hanoi",
         "numbers",
         "Minimal move counts tower to tower (Frame-Stewart for 4+ pegs, BFS-proven where small)",
         {pegs_param(),
          with_range(option("max-disks", ParamType::Unsigned, "Largest number of disks", 20), 1,
                     MAX_DISKS)},
         // Bounded: BFS proofs only up to 2^20 positions per disk count (0.2 s in all).
         numbers_command,
         false,
         Cost::Cheap,
         nullptr,
         {{{"max-disks", 0}}, {{"pegs", 2}}}});

  r.add_demo("hanoi", demo_hanoi);
}

}  // namespace permuzzle::api
