// `permuzzle sliding ...`: sliding puzzles (8-puzzle, 15-puzzle, any r x c up to 25 cells).
#include <fmt/format.h>

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>

#include "cli.hpp"
#include "permuzzle/puzzles/sliding/bfs.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"
#include "permuzzle/puzzles/sliding/bounds.hpp"
#include "permuzzle/puzzles/sliding/pdb.hpp"
#include "permuzzle/puzzles/sliding/solver.hpp"

namespace permuzzle::cli {

namespace {

using namespace permuzzle::sliding;

struct Args {
  std::string size;  // "" = from the position
  std::string goal = "standard";
  std::vector<std::string> position;  // joined with spaces (quoted or not)
  std::string moves;
  std::string apply_position;
  std::string heuristic = "auto";
  std::string tables;
  std::string partition;
  int threads = 0;
  bool bidirectional = false;
  bool no_last_move = false;
  std::uint64_t perimeter_states = 1'000'000;
  std::uint64_t max_nodes = 0;
  std::uint64_t seed = 1;
  bool seed_given = false;
  int count = 1;
  int antipodes = 10;
  std::string svg;
  bool reachable_only = false;
  bool no_pdb = false;
};

bool has_pdb(BoardSize size) {
  return size == BoardSize{4, 4} || size == BoardSize{5, 5};
}

PdbOptions pdb_options(const Context& ctx, const Args& a) {
  PdbOptions po;
  po.tables = &table_store(a.tables);
  po.partition = a.partition;
  po.threads = a.threads;
  po.search_threads = a.threads;
  po.on_table_progress = [&ctx](const std::string& what, double fraction) {
    progress(ctx, fmt::format("{} {:.0f}%", what, 100 * fraction), true);
  };
  return po;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : " ") + p;
  return s;
}

// A board, a goal and (optionally) a position, from the common arguments.
struct Setup {
  BoardSize size;
  Position goal;
  std::string goal_name;
  Position position;
};

Result<Setup> setup(const Args& a, bool need_position, BoardSize default_size = {4, 4}) {
  Setup s;
  std::optional<BoardSize> size;
  if (!a.size.empty()) {
    auto sz = parse_board_size(a.size);
    if (!sz) {
      Error e = sz.error();
      e.message = "--size: " + e.message;
      return e;
    }
    size = *sz;
  }
  std::string text = joined(a.position);
  if (need_position || !text.empty()) {
    if (text.empty()) return make_error("missing position: give the tiles row by row");
    BoardSize inferred;
    auto p = parse_position(text, size, &inferred);
    if (!p) return p.error();
    s.position = *p;
    size = inferred;
  }
  s.size = size.value_or(default_size);
  auto g = parse_goal(a.goal, s.size);
  if (!g) return g.error();
  s.goal = *g;
  s.goal_name = a.goal.empty() ? "standard" : a.goal;
  return s;
}

nlohmann::json position_json(const Position& p) {
  nlohmann::json j = nlohmann::json::array();
  for (int v : p) j.push_back(v);
  return j;
}

nlohmann::json directions_json(const std::vector<Direction>& moves) {
  nlohmann::json j = nlohmann::json::array();
  for (Direction d : moves) j.push_back(std::string(1, direction_letter(d)));
  return j;
}

std::string with_commas(std::uint64_t v) {
  std::string s = std::to_string(v), out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return out;
}

// Writes `content` to `path` through a temporary file and a rename, so readers never see a
// half-written file.
Status write_atomically(const std::string& path, const std::string& content) {
  std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      return make_error("cannot write " + path, path, Error::NO_POSITION, ErrorKind::Io);
    }
    out << content;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return make_error("cannot write " + path, path, Error::NO_POSITION, ErrorKind::Io);
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    return make_error("cannot write " + path + ": " + ec.message(), path, Error::NO_POSITION,
                      ErrorKind::Io);
  }
  return Ok{};
}

std::string histogram_svg(BoardSize size, const BfsResult& r) {
  const int w = 800, h = 420, left = 70, bottom = 50, top = 40, right = 20;
  std::uint64_t peak = 1;
  for (auto c : r.histogram) peak = std::max(peak, c);
  const double bar_w =
      static_cast<double>(w - left - right) / static_cast<double>(r.histogram.size());
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" "
      "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{}\" y=\"24\" font-size=\"16\">{} sliding puzzle: {} positions by distance from "
      "the "
      "goal (God's number {})</text>\n",
      w, h, left, to_string(size), with_commas(r.states), r.max_distance);
  const int plot_h = h - top - bottom;
  for (std::size_t d = 0; d < r.histogram.size(); ++d) {
    double bh = static_cast<double>(r.histogram[d]) / static_cast<double>(peak) * plot_h;
    double x = left + d * bar_w;
    s += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
        "fill=\"#4477aa\"><title>"
        "distance {}: {} positions</title></rect>\n",
        x + 0.5, h - bottom - bh, std::max(bar_w - 1.0, 0.5), bh, d, with_commas(r.histogram[d]));
    if (r.histogram.size() <= 40 || d % 5 == 0) {
      s += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                       x + bar_w / 2, h - bottom + 16, d);
    }
  }
  s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n", left,
                   h - bottom, w - right, h - bottom);
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">distance (moves)</text>\n",
                   (left + w - right) / 2, h - 12);
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", left - 6, top + 4,
                   with_commas(peak));
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">0</text>\n", left - 6, h - bottom);
  s += "</svg>\n";
  return s;
}

Result<CommandOutput> run_solve(const Context& ctx, const Args& a) {
  auto s = setup(a, true);
  if (!s) return s.error();
  // Step 1. Which bound: pattern databases on 4x4 and 5x5 unless told otherwise.
  std::string heuristic = a.heuristic;
  if (heuristic == "auto" || heuristic == "best") {
    heuristic = has_pdb(s->size) && !a.bidirectional ? "pdb" : "linear-conflict";
  }
  if (heuristic != "pdb" && heuristic != "linear-conflict" && heuristic != "manhattan") {
    return make_error("--heuristic must be one of auto, pdb, linear-conflict, manhattan",
                      a.heuristic);
  }
  if (heuristic == "pdb" && !has_pdb(s->size)) {
    return make_error(
        "--heuristic pdb: pattern databases exist for 4x4 and 5x5 only; use "
        "linear-conflict or manhattan",
        a.heuristic);
  }
  if (heuristic == "pdb" && a.bidirectional) {
    return make_error("--bidirectional runs with linear-conflict or manhattan, not pdb",
                      a.heuristic);
  }
  Solvability sv = solvability(s->size, s->position, s->goal);
  if (!sv.solvable) {
    return make_error("the position cannot reach the goal: " + sv.reason, joined(a.position),
                      Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  auto on_progress = [&ctx](const SearchProgress& p) {
    if (p.note.rfind("backward", 0) == 0) {
      progress(ctx,
               fmt::format("{}  ({} nodes, {:.2f} s)", p.note, with_commas(p.nodes), p.seconds));
    } else {
      progress(ctx, fmt::format("no solution shorter than {} moves  [{}]  ({} nodes, {:.2f} s)",
                                p.bound, p.note, with_commas(p.nodes), p.seconds));
    }
  };
  BoundReport b = compute_bounds(s->size, s->position, s->goal);

  // Step 2. Search, then replay the solution once more before printing it.
  Result<SolveResult> r = [&]() -> Result<SolveResult> {
    if (heuristic == "pdb") {
      PdbOptions po = pdb_options(ctx, a);
      po.on_progress = on_progress;
      auto res = solve_with_pdb(s->size, s->position, s->goal, po);
      end_progress(ctx);
      return res;
    }
    SolveOptions o;
    o.heuristic = heuristic == "manhattan" ? Heuristic::Manhattan : Heuristic::LinearConflict;
    o.last_move = !a.no_last_move;
    o.bidirectional = a.bidirectional;
    o.perimeter_states = a.perimeter_states;
    o.max_nodes = a.max_nodes;
    o.on_progress = on_progress;
    return solve(s->size, s->position, s->goal, o);
  }();
  if (!r) return r.error();
  if (auto st = verify_solution(s->size, s->position, s->goal, *r); !st) return st.error();
  CommandOutput out;
  out.text = fmt::format("{} board, goal {}:\n{}", to_string(s->size), s->goal_name,
                         format_board(s->size, s->position));
  out.text += fmt::format("optimal solution: {} moves (linear-conflict bound of the start: {})\n",
                          r->moves.size(), b.best());
  out.text += fmt::format("  tiles:      {}\n  directions: {}\n", format_tiles(r->tiles),
                          format_directions(r->moves));
  out.text += fmt::format("nodes: {}", with_commas(r->nodes));
  if (a.bidirectional) {
    out.text += fmt::format(" (forward {}, backward {})", with_commas(r->nodes_forward),
                            with_commas(r->nodes_backward));
  }
  out.text += fmt::format(
      "   time: {:.3f} s\nmethod: {}\nverified: replayed from the start, "
      "reaches the goal\n",
      r->seconds, r->method);
  nlohmann::json tiles = nlohmann::json::array();
  for (int t : r->tiles) tiles.push_back(t);
  out.json = {{"length", r->moves.size()},
              {"moves", tiles},
              {"directions", directions_json(r->moves)},
              {"optimal", r->optimal},
              {"nodes", r->nodes},
              {"nodes_forward", r->nodes_forward},
              {"nodes_backward", r->nodes_backward},
              {"seconds", r->seconds},
              {"method", r->method},
              {"heuristic", r->heuristic},
              {"bidirectional", a.bidirectional},
              {"initial_bound_linear_conflict", b.best()},
              {"size", to_string(s->size)},
              {"start", position_json(s->position)},
              {"goal", position_json(s->goal)}};
  return out;
}

Result<CommandOutput> run_check(const Args& a) {
  auto s = setup(a, true);
  if (!s) return s.error();
  Solvability v = solvability(s->size, s->position, s->goal);
  CommandOutput out;
  out.text = fmt::format("{}{}: {}\n", format_board(s->size, s->position),
                         v.solvable ? "solvable" : "NOT solvable", v.reason);
  out.json = {{"solvable", v.solvable},
              {"inversions", v.inversions},
              {"goal_inversions", v.goal_inversions},
              {"blank_row", v.blank_row + 1},
              {"goal_blank_row", v.goal_blank_row + 1},
              {"even_columns", v.even_columns},
              {"parity", v.parity},
              {"goal_parity", v.goal_parity},
              {"reason", v.reason},
              {"size", to_string(s->size)}};
  return out;
}

Result<CommandOutput> run_bound(const Context& ctx, const Args& a) {
  auto s = setup(a, true);
  if (!s) return s.error();
  Solvability v = solvability(s->size, s->position, s->goal);
  if (!v.solvable) {
    return make_error("the position cannot reach the goal: " + v.reason, joined(a.position),
                      Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  BoundReport b = compute_bounds(s->size, s->position, s->goal);
  std::string per_tile;
  for (int t = 1; t < s->size.cells(); ++t) {
    if (b.manhattan_per_tile[t]) per_tile += fmt::format(" {}:{}", t, b.manhattan_per_tile[t]);
  }
  auto lines = [](const std::vector<int>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i]) out += fmt::format(" {}:+{}", i + 1, v[i]);
    }
    return out.empty() ? std::string(" none") : out;
  };
  CommandOutput out;
  out.text = format_board(s->size, s->position);
  out.text +=
      fmt::format("manhattan:        {:>3}   per tile (tile:moves){}\n", b.manhattan, per_tile);
  out.text += fmt::format("linear conflict:  {:>3}   = manhattan {} + rows{} + columns{}\n",
                          b.linear_conflict_bound(), b.manhattan, lines(b.row_conflicts),
                          lines(b.col_conflicts));
  out.text += fmt::format("last move:        {:>3}   = manhattan {} + {}\n", b.last_move_bound(),
                          b.manhattan, b.last_move);
  out.text += fmt::format("best (lc + lm):   {:>3}   = linear conflict {} + last move {}\n",
                          b.best(), b.linear_conflict_bound(), b.last_move_with_lc);
  nlohmann::json pdb_json = nullptr;
  if (has_pdb(s->size) && !a.no_pdb) {
    auto pb = pdb_bound(s->size, s->position, s->goal, pdb_options(ctx, a));
    end_progress(ctx);
    if (!pb) return pb.error();
    std::string parts;
    for (std::size_t i = 0; i < pb->parts.size(); ++i) {
      parts += (i ? " + " : "") + std::to_string(pb->parts[i]);
    }
    out.text += fmt::format(
        "pattern database: {:>3}   = {} (additive {}, best of direct and "
        "reflected lookup)\n",
        pb->total, parts, pb->partition);
    pdb_json = {{"total", pb->total}, {"parts", pb->parts}, {"partition", pb->partition}};
  }
  out.json = {{"manhattan", b.manhattan},
              {"pdb", pdb_json},
              {"manhattan_per_tile", b.manhattan_per_tile},
              {"linear_conflict", b.linear_conflict_bound()},
              {"linear_conflict_extra", b.linear_conflict},
              {"row_conflicts", b.row_conflicts},
              {"column_conflicts", b.col_conflicts},
              {"last_move", b.last_move_bound()},
              {"last_move_extra", b.last_move},
              {"last_move_extra_with_linear_conflict", b.last_move_with_lc},
              {"best", b.best()},
              {"size", to_string(s->size)}};
  return out;
}

Result<CommandOutput> run_apply(const Args& a) {
  auto s = setup(a, true);
  if (!s) return s.error();
  Position p = s->position;
  auto m = apply_moves(s->size, p, a.moves);
  if (!m) return m.error();
  bool solved = p == s->goal;
  CommandOutput out;
  out.text = fmt::format("{}after {} moves (tiles: {}; directions: {}){}\n",
                         format_board(s->size, p), m->tiles.size(), format_tiles(m->tiles),
                         format_directions(m->directions), solved ? " — solved" : "");
  out.json = {{"position", position_json(p)},
              {"moves", m->tiles},
              {"directions", directions_json(m->directions)},
              {"count", m->tiles.size()},
              {"solved", solved},
              {"size", to_string(s->size)}};
  return out;
}

Result<CommandOutput> run_random(const Args& a) {
  auto s = setup(a, false);
  if (!s) return s.error();
  if (a.count < 1 || a.count > 1000000) return make_error("--count must be in 1..1000000");
  SplitMixRng rng(a.seed);
  CommandOutput out;
  nlohmann::json list = nlohmann::json::array();
  for (int i = 0; i < a.count; ++i) {
    Position p = random_position(s->size, s->goal, rng);
    out.text +=
        (a.count == 1 ? format_board(s->size, p) : "") + format_grid_line(s->size, p) + "\n";
    list.push_back(position_json(p));
  }
  out.json = {{"size", to_string(s->size)}, {"seed", a.seed}, {"positions", list}};
  if (a.count == 1) out.json["position"] = list[0];
  return out;
}

Result<CommandOutput> run_play(const Context& ctx, const Args& a) {
  auto s = setup(a, false, {3, 3});
  if (!s) return s.error();
  Position p = s->position;
  if (p.empty()) {
    SplitMixRng rng(a.seed_given ? a.seed : static_cast<std::uint64_t>(std::random_device{}()));
    do p = random_position(s->size, s->goal, rng);
    while (p == s->goal);
  } else if (!solvability(s->size, p, s->goal).solvable) {
    return make_error(
        "the position cannot reach the goal: " + solvability(s->size, p, s->goal).reason,
        joined(a.position), Error::NO_POSITION, ErrorKind::Unsolvable);
  }
  const bool chatty = !ctx.json;
  auto say = [&](const std::string& text) {
    if (chatty) std::cout << text << std::flush;
  };
  say(
      fmt::format("{} sliding puzzle. Type moves as tile numbers (e.g. 3 12) or blank directions "
                  "(U D L R); 'q' quits.\n{}",
                  to_string(s->size), format_board(s->size, p)));
  int moves = 0;
  bool solved = p == s->goal;
  std::string line;
  while (!solved) {
    say("> ");
    if (!std::getline(std::cin, line)) {
      say("\n");
      break;
    }
    if (line == "q" || line == "quit" || line == "exit") break;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Position q = p;
    auto m = apply_moves(s->size, q, line);
    if (!m) {
      say("  " + m.error().describe() + "\n");
      continue;
    }
    p = q;
    moves += static_cast<int>(m->tiles.size());
    solved = p == s->goal;
    say(fmt::format("{}moves: {}\n", format_board(s->size, p), moves));
  }
  if (solved) say(fmt::format("Solved in {} moves!\n", moves));
  if (ctx.json) {
    std::cout << nlohmann::json{{"moves", moves},
                                {"solved", solved},
                                {"position", position_json(p)}}
                     .dump()
              << "\n";
  }
  CommandOutput out;
  out.already_printed = true;
  return out;
}

Result<CommandOutput> run_bfs(const Context& ctx, const Args& a) {
  auto sz = parse_board_size(a.size);
  if (!sz) return sz.error();
  auto g = parse_goal(a.goal, *sz);
  if (!g) return g.error();
  if (a.antipodes < 0) return make_error("--antipodes must be >= 0");
  BfsOptions o;
  o.antipodes_limit = a.antipodes;
  o.count_all_components = !a.reachable_only;
  o.on_layer = [&ctx](int d, std::uint64_t layer, std::uint64_t total) {
    progress(ctx,
             fmt::format("distance {}: {} positions ({} so far)", d, with_commas(layer),
                         with_commas(total)),
             true);
  };
  auto r = bfs(*sz, *g, o);
  if (!r) return r.error();
  end_progress(ctx);
  CommandOutput out;
  std::uint64_t peak = 1;
  for (auto c : r->histogram) peak = std::max(peak, c);
  out.text = fmt::format(
      "{} sliding puzzle, goal {}: breadth-first search of all {} "
      "arrangements\n\ndistance  positions\n",
      to_string(*sz), a.goal, with_commas(r->arrangements));
  for (std::size_t d = 0; d < r->histogram.size(); ++d) {
    int bar = static_cast<int>(
        40.0 * static_cast<double>(r->histogram[d]) / static_cast<double>(peak) + 0.5);
    out.text += fmt::format("{:>8}  {:>13}  {}\n", d, with_commas(r->histogram[d]),
                            std::string(static_cast<std::size_t>(bar), '#'));
  }
  out.text += fmt::format(
      "\nreachable positions: {}\nGod's number:        {}\nmean distance:       "
      "{:.4f}\nantipodes:           {}\n",
      with_commas(r->states), r->max_distance, r->mean_distance, with_commas(r->antipodes_count));
  for (const auto& p : r->antipodes) out.text += "  " + format_grid_line(*sz, p) + "\n";
  if (r->antipodes_count > r->antipodes.size()) {
    out.text += fmt::format("  ... ({} listed, --antipodes N for more)\n", r->antipodes.size());
  }
  std::string sizes;
  for (auto c : r->component_sizes) sizes += (sizes.empty() ? "" : " + ") + with_commas(c);
  out.text += fmt::format(
      "components:          {} ({}; {})\ntime: {:.2f} s, memory {} bytes (2 bits per "
      "arrangement)\n",
      r->components, sizes, r->components_method, r->seconds, with_commas(r->memory_bytes));
  nlohmann::json antipodes = nlohmann::json::array();
  for (const auto& p : r->antipodes) antipodes.push_back(position_json(p));
  out.json = {{"size", to_string(*sz)},
              {"states", r->states},
              {"arrangements", r->arrangements},
              {"max_distance", r->max_distance},
              {"antipodes_count", r->antipodes_count},
              {"antipodes", antipodes},
              {"histogram", r->histogram},
              {"mean_distance", r->mean_distance},
              {"components", r->components},
              {"component_sizes", r->component_sizes},
              {"components_method", r->components_method},
              {"seconds", r->seconds}};
  if (!a.svg.empty()) {
    if (auto st = write_atomically(a.svg, histogram_svg(*sz, *r)); !st) return st.error();
    out.text += "histogram chart written to " + a.svg + "\n";
    out.json["svg"] = a.svg;
  }
  return out;
}

}  // namespace

void add_sliding_command(CLI::App& app, Context& ctx) {
  auto* sliding = app.add_subcommand(
      "sliding",
      "Sliding puzzles (8-, 15-, 24-puzzle, any r x c): solve optimally, check, bound, "
      "play, whole-graph BFS");
  sliding->require_subcommand(1);
  auto a = std::make_shared<Args>();

  const std::string pos_help =
      "Position, row-major numbers with 0 (or r*c) or '.' as the blank; rows may be separated by "
      "'/' (quote it: \"11 2 12 1 / 6 7 3 8 / ...\")";
  auto common = [&](CLI::App* sub, bool with_position) {
    sub->add_option("--size", a->size, "Board RxC (default: from the position)");
    sub->add_option("--goal", a->goal,
                    "Goal: standard (blank last), blank-first (Korf: 0 1 2 ...) or an "
                    "explicit arrangement");
    if (with_position) sub->add_option("position", a->position, pos_help);
  };

  auto* solve_cmd =
      sliding->add_subcommand("solve", "Optimal solution (IDA*, optionally bidirectional)");
  common(solve_cmd, true);
  solve_cmd->add_option("--heuristic", a->heuristic,
                        "Lower bound: auto (best available), pdb, linear-conflict, manhattan");
  solve_cmd->add_flag("--no-last-move", a->no_last_move, "Do not add the last-move rule");
  solve_cmd->add_flag("--bidirectional", a->bidirectional,
                      "Backward breadth-first perimeter + forward IDA* (still optimal)");
  solve_cmd->add_option("--perimeter-states", a->perimeter_states,
                        "Bidirectional: positions stored around the goal (default 1000000)");
  solve_cmd->add_option("--max-nodes", a->max_nodes, "Give up after this many nodes (0 = never)");
  solve_cmd->add_option("--tables", a->tables,
                        "Directory of cached pattern databases (default: $PERMUZZLE_TABLES, "
                        "else the user's cache directory)");
  solve_cmd->add_option("--partition", a->partition, "Pattern database partition (e.g. 7-8)");
  solve_cmd
      ->add_option("--threads", a->threads,
                   "Threads for table building and pattern-database search (default: all "
                   "cores, at most 2; the solution and node count do not depend on it)")
      ->check(CLI::Range(1, 64));
  set_action(ctx, solve_cmd, [a, &ctx] { return run_solve(ctx, *a); });

  auto* check = sliding->add_subcommand("check",
                                        "Is the position solvable? (parity rule, with "
                                        "the reason)");
  common(check, true);
  set_action(ctx, check, [a] { return run_check(*a); });

  auto* bound = sliding->add_subcommand("bound", "Lower bounds of a position, with their parts");
  common(bound, true);
  bound->add_option("--tables", a->tables, "Directory of cached pattern databases");
  bound->add_option("--partition", a->partition, "Pattern database partition (e.g. 7-8, 5-5-5)");
  bound->add_flag("--no-pdb", a->no_pdb, "Skip the pattern-database bound");
  set_action(ctx, bound, [a, &ctx] { return run_bound(ctx, *a); });

  auto* apply = sliding->add_subcommand("apply", "Apply moves (tiles or U/D/L/R) to a position");
  apply->add_option("--size", a->size, "Board RxC (default: from the position)");
  apply->add_option("--goal", a->goal, "Goal (to say whether the result is solved)");
  apply->add_option("position", a->apply_position, pos_help)->required();
  apply->add_option("moves", a->moves, "Moves, e.g. \"3 12 1 8\" or \"U L D R\"")->required();
  set_action(ctx, apply, [a] {
    a->position = {a->apply_position};
    return run_apply(*a);
  });

  auto* random = sliding->add_subcommand("random", "Uniformly random solvable positions (seeded)");
  common(random, false);
  random->add_option("--seed", a->seed, "Random seed (default 1)");
  random->add_option("--count", a->count, "How many positions (default 1)");
  set_action(ctx, random, [a] { return run_random(*a); });

  auto* play = sliding->add_subcommand("play", "Play in the terminal: one move per line");
  common(play, true);
  play->add_option("--seed", a->seed, "Seed of the random start (default: random)")
      ->each([a](const std::string&) { a->seed_given = true; });
  set_action(ctx, play, [a, &ctx] { return run_play(ctx, *a); });

  auto* bfs_cmd = sliding->add_subcommand("bfs",
                                          "Whole-graph breadth-first search from the goal "
                                          "(boards up to 12 cells)");
  bfs_cmd->add_option("size", a->size, "Board RxC, e.g. 3x3, 2x6, 3x4")->required();
  bfs_cmd->add_option("--goal", a->goal, "Goal: standard, blank-first or an arrangement");
  bfs_cmd->add_option("--antipodes", a->antipodes, "How many antipodes to list (default 10)");
  bfs_cmd->add_option("--svg", a->svg, "Write the distance histogram as an SVG bar chart");
  bfs_cmd->add_flag("--reachable-only", a->reachable_only,
                    "Search only the goal's component (the other half is its mirror image)");
  set_action(ctx, bfs_cmd, [a, &ctx] { return run_bfs(ctx, *a); });
}

std::string demo_sliding() {
  std::string out;
  BoardSize s33{3, 3};
  auto r = bfs(s33, standard_goal(s33));
  if (r) {
    out += fmt::format(
        "8-puzzle whole graph: {} reachable positions of {} arrangements, God's "
        "number {}, {} antipodes, {} components ({:.2f} s)\n",
        with_commas(r->states), with_commas(r->arrangements), r->max_distance, r->antipodes_count,
        r->components, r->seconds);
  }
  BoardSize s44{4, 4};
  auto p = parse_position("11 2 12 1 / 6 7 3 8 / 9 5 0 4 / 14 10 13 15", s44);
  if (p) {
    BoundReport b = compute_bounds(s44, *p, standard_goal(s44));
    out += fmt::format(
        "15-puzzle 11 2 12 1 / 6 7 3 8 / 9 5 . 4 / 14 10 13 15: Manhattan {}, "
        "linear conflict {}\n",
        b.manhattan, b.linear_conflict_bound());
  }
  SplitMixRng rng(2026);
  Position q = standard_goal(s44);
  // A 15-puzzle scrambled by 40 random moves (never undoing the previous one), solved optimally.
  int last = -1;
  for (int i = 0; i < 40;) {
    int d = static_cast<int>(rng.below(4));
    if ((d ^ 1) == last) continue;
    if (!apply_direction(s44, q, static_cast<Direction>(d))) continue;
    last = d;
    ++i;
  }
  auto sol = solve(s44, q, standard_goal(s44));
  if (sol) {
    out += fmt::format("15-puzzle {}: optimal {} moves ({}), {} nodes, {:.3f} s, {}\n",
                       format_grid_line(s44, q), sol->moves.size(), format_tiles(sol->tiles),
                       with_commas(sol->nodes), sol->seconds, sol->method);
  }
  return out;
}

}  // namespace permuzzle::cli
