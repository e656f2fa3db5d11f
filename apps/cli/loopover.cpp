// `permuzzle loopover ...`: rectangular Loopover (rules and notation: spec section 4).
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>

#include "cli.hpp"
#include "loopover_solver.hpp"
#include "permuzzle/puzzles/loopover/bfs.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"
#include "permuzzle/puzzles/loopover/fast_solver.hpp"
#include "permuzzle/puzzles/loopover/group_facts.hpp"
#include "permuzzle/puzzles/loopover/optimal_solver.hpp"
#include "permuzzle/puzzles/loopover/symmetry.hpp"

namespace permuzzle::cli {

using namespace permuzzle::loopover;

namespace {

Result<Metric> parse_metric(const std::string& text) {
  if (text == "stm" || text == "STM") return Metric::Stm;
  if (text == "mtm" || text == "MTM") return Metric::Mtm;
  return make_error(
      "bad metric: expected stm (each one-cell shift counts 1) or mtm (any shift "
      "of one line counts 1)",
      text, 0);
}

const char* metric_name(Metric m) {
  return m == Metric::Stm ? "stm" : "mtm";
}

struct Args {
  std::string size_text = "4x4";
  std::string metric_text = "stm";
  std::string position_text;
  std::string moves_text;
  std::string from_text;
  std::string tables_dir;
  std::string pattern = "auto";
  std::string bound_pattern = "none";
  std::string svg_path;
  std::uint64_t seed = 1;
  int count = 1;
  int threads = 2;
  std::uint64_t max_nodes = 0;
  bool fast = false;
};

// Boards above this many cells are solved by the fast multi-stage solver (not proven optimal).
constexpr int AUTO_FAST_CELLS = 16;

Result<CommandOutput> fast_solve_output(BoardSize size, Metric metric, const Position& start,
                                        const std::string& tables, bool automatic) {
  FastSolveOptions o;
  o.metric = metric;
  o.tables = &table_store(tables);
  auto r = solve_fast(size, start, o);
  if (!r) return r.error();
  Position check = start;
  apply_moves(size, check, r->moves);
  if (!is_goal(check)) {
    return make_error("fast solution failed verification by replay (internal error)", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  CommandOutput out;
  out.text =
      fmt::format("{}\n{} moves ({}), NOT proven optimal ({}{}, {:.3f} s)\n",
                  r->moves.empty() ? std::string("(already solved)") : format_moves(r->moves),
                  r->length, metric_name(metric), r->method,
                  automatic ? "; optimal solving of this size is out of reach" : "", r->seconds);
  out.json = {{"length", r->length},
              {"moves", format_move_list(r->moves)},
              {"optimal", false},
              {"seconds", r->seconds},
              {"metric", metric_name(metric)},
              {"size", format_size(size)},
              {"method", r->method},
              {"verified", true}};
  return out;
}

struct Common {
  BoardSize size;
  Metric metric = Metric::Stm;
};

Result<Common> common(const Args& a) {
  Common c;
  auto size = parse_size(a.size_text);
  if (!size) return size.error();
  c.size = *size;
  auto metric = parse_metric(a.metric_text);
  if (!metric) return metric.error();
  c.metric = *metric;
  return c;
}

Result<Position> position_arg(BoardSize size, const std::string& text) {
  auto p = parse_position(size, text);
  if (!p) {
    Error e = p.error();
    e.message = "position: " + e.message;
    return e;
  }
  return p;
}

nlohmann::json histogram_json(const std::vector<std::uint64_t>& h) {
  nlohmann::json out = nlohmann::json::array();
  for (auto v : h) out.push_back(v);
  return out;
}

// A bar chart of the distance histogram (self-contained SVG).
std::string histogram_svg(const BfsStats& st) {
  const int bars = static_cast<int>(st.histogram.size());
  const int width = 60 + bars * 36, height = 300;
  std::uint64_t peak = 1;
  for (auto v : st.histogram) peak = std::max(peak, v);
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n"
      "<text x=\"10\" y=\"16\" font-size=\"13\">Loopover {} ({}): {} positions, God's number "
      "{}, {} antipodes</text>\n",
      width, height + 40, format_size(st.size), metric_name(st.metric), st.states, st.max_distance,
      st.antipodes);
  for (int d = 0; d < bars; ++d) {
    const double frac = static_cast<double>(st.histogram[d]) / static_cast<double>(peak);
    const int h = std::max(1, static_cast<int>(frac * (height - 60)));
    const int x = 40 + d * 36;
    svg += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"30\" height=\"{}\" fill=\"#4a7ab8\"/>\n"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"8\">{}</text>\n",
        x, height - h, h, x + 15, height + 14, d, x + 15, height - h - 3, st.histogram[d]);
  }
  svg += "</svg>\n";
  return svg;
}

Status write_file_atomically(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return make_error("cannot write file", path, Error::NO_POSITION, ErrorKind::Io);
    out << content;
    if (!out.flush()) {
      std::remove(tmp.c_str());
      return make_error("cannot write file", path, Error::NO_POSITION, ErrorKind::Io);
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return make_error("cannot write file", path, Error::NO_POSITION, ErrorKind::Io);
  }
  return Ok{};
}

}  // namespace

Result<OptimalSolver> make_loopover_solver(const Context& ctx, BoardSize size, Metric metric,
                                           const std::string& tables, const std::string& pattern) {
  OptimalSolverConfig config;
  config.tables = &table_store(tables);
  if (pattern == "auto") {
    config.pattern = PatternChoice::Auto;
  } else if (pattern != "none") {
    return make_error("bad pattern: expected auto or none", pattern, 0);
  }
  config.on_pdb_level = [&ctx](int depth, std::uint64_t reached, std::uint64_t entries,
                               double seconds) {
    progress(
        ctx,
        fmt::format("building the piece pattern database: depth {}, {:.1f}% ({:.1f} s)", depth,
                    100.0 * static_cast<double>(reached) / static_cast<double>(entries), seconds),
        true);
  };
  auto solver = OptimalSolver::create(size, metric, config);
  end_progress(ctx);
  if (solver && solver->pattern_db() && !solver->pattern_db()->loaded_from_cache()) {
    const PiecePdb& pdb = *solver->pattern_db();
    progress(ctx, fmt::format("piece pattern database built: {} entries, {:.1f} MB, max {}, "
                              "{:.1f} s ({})",
                              pdb.entries(), static_cast<double>(pdb.bytes()) / 1e6,
                              pdb.max_distance(), pdb.seconds(), pdb.cache_detail()));
  }
  return solver;
}

// An optimal solve of one position, verified, as CLI output.
Result<CommandOutput> loopover_solve_output(const Context& ctx, BoardSize size, Metric metric,
                                            const Position& start, const std::string& tables,
                                            std::uint64_t max_nodes, const std::string& pattern) {
  auto solver = make_loopover_solver(ctx, size, metric, tables, pattern);
  if (!solver) return solver.error();
  OptimalSolveOptions o;
  o.metric = metric;
  o.max_nodes = max_nodes;
  o.on_iteration = [&ctx](int bound, std::uint64_t nodes) {
    progress(ctx, fmt::format("searching bound {} ({} nodes so far)", bound, nodes), true);
  };
  auto r = solver->solve(start, o);
  if (!r) return r.error();
  CommandOutput out;
  out.text =
      fmt::format("{}\n{} moves ({}), optimal: yes ({} nodes, {:.3f} s)\n",
                  r->moves.empty() ? std::string("(already solved)") : format_moves(r->moves),
                  r->length, metric_name(metric), r->nodes, r->seconds);
  out.json = {{"length", r->length},
              {"moves", format_move_list(r->moves)},
              {"optimal", true},
              {"seconds", r->seconds},
              {"metric", metric_name(metric)},
              {"size", format_size(size)},
              {"nodes", std::to_string(r->nodes)},
              {"initial_bound", r->initial_bound},
              {"tables_seconds", solver->build_seconds()},
              {"verified", true}};
  return out;
}

void add_loopover_command(CLI::App& app, Context& ctx) {
  auto* lo = app.add_subcommand("loopover", "Rectangular Loopover: solve, analyse, play");
  lo->require_subcommand(1);
  auto a = std::make_shared<Args>();

  // solve ----------------------------------------------------------------------------------
  auto* solve = lo->add_subcommand("solve", "Optimal solution (IDA*), verified by replay");
  solve->add_option("--size", a->size_text, "Board ROWSxCOLS (default 4x4)");
  solve->add_option("--metric", a->metric_text, "stm (default) or mtm");
  solve->add_option("--tables", a->tables_dir, "Table cache directory");
  solve->add_option("--max-nodes", a->max_nodes, "Give up after this many nodes (0 = never)");
  solve->add_option("--pattern", a->pattern,
                    "Piece pattern database: auto (default; 4x4: rows A-B, ~260 MB, built once "
                    "and cached) or none (walking distance only)");
  solve->add_flag("--fast", a->fast,
                  "Fast multi-stage solver (near-optimal, not proven optimal); used "
                  "automatically on boards with more than 16 cells");
  solve->add_option("position", a->position_text, "Tiles row-major, e.g. \"2 1 3 4 ...\"")
      ->required();
  set_action(ctx, solve, [a, &ctx]() -> Result<CommandOutput> {
    auto c = common(*a);
    if (!c) return c.error();
    auto start = position_arg(c->size, a->position_text);
    if (!start) return start.error();
    std::string tables = a->tables_dir.empty() ? default_tables_dir() : a->tables_dir;
    if (a->fast || c->size.cells() > AUTO_FAST_CELLS) {
      if (!is_solvable(c->size, *start)) {
        return make_error(
            "this position cannot be solved: on an odd x odd board only even "
            "permutations are reachable",
            a->position_text, Error::NO_POSITION, ErrorKind::Unsolvable);
      }
      return fast_solve_output(c->size, c->metric, *start, tables, !a->fast);
    }
    return loopover_solve_output(ctx, c->size, c->metric, *start, tables, a->max_nodes, a->pattern);
  });

  // random ---------------------------------------------------------------------------------
  auto* random = lo->add_subcommand("random", "Uniformly random solvable positions (seeded)");
  random->add_option("size", a->size_text, "Board ROWSxCOLS")->required();
  random->add_option("--seed", a->seed, "Random seed (default 1)");
  random->add_option("--count", a->count, "How many positions (default 1)")
      ->check(CLI::Range(1, 100000));
  set_action(ctx, random, [a]() -> Result<CommandOutput> {
    auto c = common(*a);
    if (!c) return c.error();
    Rng rng(a->seed);
    CommandOutput out;
    nlohmann::json list = nlohmann::json::array();
    for (int i = 0; i < a->count; ++i) {
      Position p = random_position(c->size, rng);
      out.text += format_position(p) + "\n";
      list.push_back(format_position(p));
    }
    out.json = {{"size", format_size(c->size)}, {"seed", a->seed}, {"positions", list}};
    return out;
  });

  // check ----------------------------------------------------------------------------------
  auto* check = lo->add_subcommand("check", "Validate a position and tell whether it is solvable");
  check->add_option("--size", a->size_text, "Board ROWSxCOLS (default 4x4)");
  check->add_option("position", a->position_text, "Tiles row-major")->required();
  set_action(ctx, check, [a]() -> Result<CommandOutput> {
    auto c = common(*a);
    if (!c) return c.error();
    auto p = position_arg(c->size, a->position_text);
    if (!p) return p.error();
    const bool solvable = is_solvable(c->size, *p);
    const int sign = position_sign(*p);
    CommandOutput out;
    out.text = format_grid(c->size, *p) +
               fmt::format("{} permutation; {}\n", sign > 0 ? "even" : "odd",
                           solvable ? "solvable"
                                    : "NOT solvable: on an odd x odd board every move is even");
    out.json = {{"valid", true},
                {"solvable", solvable},
                {"sign", sign},
                {"solved", is_goal(*p)},
                {"size", format_size(c->size)}};
    return out;
  });

  // bound ----------------------------------------------------------------------------------
  auto* bound = lo->add_subcommand("bound", "Lower bounds on the solution length, with parts");
  bound->add_option("--size", a->size_text, "Board ROWSxCOLS (default 4x4)");
  bound->add_option("--metric", a->metric_text, "stm (default) or mtm");
  bound->add_option("--tables", a->tables_dir, "Table cache directory");
  bound->add_option("--pattern", a->bound_pattern,
                    "Also the piece pattern database bound: auto, or none (default)");
  bound->add_option("position", a->position_text, "Tiles row-major")->required();
  set_action(ctx, bound, [a, &ctx]() -> Result<CommandOutput> {
    auto c = common(*a);
    if (!c) return c.error();
    auto p = position_arg(c->size, a->position_text);
    if (!p) return p.error();
    if (!is_solvable(c->size, *p)) {
      return make_error("this position cannot be solved (odd permutation on an odd x odd board)",
                        a->position_text, Error::NO_POSITION, ErrorKind::Unsolvable);
    }
    SeedsBound sb = seeds_bound(c->size, *p, c->metric);
    CommandOutput out;
    out.text = fmt::format(
        "seeds' bound ({}): {}\n  horizontal: column distances {} -> {} row moves\n  vertical:   "
        "row distances {} -> {} column moves\n  lifts:      {} pieces must leave their row, {} "
        "their column; complete rows broken {}, columns broken {} -> +{} moves\n  parity fix: "
        "{}\n",
        metric_name(c->metric), sb.total, sb.horizontal_sum, sb.horizontal, sb.vertical_sum,
        sb.vertical, sb.row_lifts, sb.column_lifts, sb.broken_rows, sb.broken_columns,
        sb.lift_moves, sb.parity_fix);
    out.json = {{"seeds",
                 {{"total", sb.total},
                  {"horizontal_sum", sb.horizontal_sum},
                  {"horizontal", sb.horizontal},
                  {"vertical_sum", sb.vertical_sum},
                  {"vertical", sb.vertical},
                  {"row_lifts", sb.row_lifts},
                  {"column_lifts", sb.column_lifts},
                  {"broken_rows", sb.broken_rows},
                  {"broken_columns", sb.broken_columns},
                  {"lift_moves", sb.lift_moves},
                  {"parity_fix", sb.parity_fix}}}};
    int best = sb.total;
    std::string tables = a->tables_dir.empty() ? default_tables_dir() : a->tables_dir;
    TableStore* store = &table_store(tables);
    auto v = WalkingDistanceTable::build(c->size, Axis::Column, c->metric,
                                         WalkingDistanceTable::DEFAULT_MAX_STATES, store);
    auto h = WalkingDistanceTable::build(c->size, Axis::Row, c->metric,
                                         WalkingDistanceTable::DEFAULT_MAX_STATES, store);
    if (v && h) {
      Position q = inverse_position(*p);
      int vp = v->distance(p->data()), hp = h->distance(p->data());
      int vq = v->distance(q.data()), hq = h->distance(q.data());
      int wd = std::max(vp + hp, vq + hq);
      best = std::max(best, wd);
      out.text += fmt::format(
          "walking distance: {}\n  position: vertical {} + horizontal {} = {}\n  inverse:  "
          "vertical {} + horizontal {} = {}\n",
          wd, vp, hp, vp + hp, vq, hq, vq + hq);
      out.json["walking_distance"] = {{"total", wd},
                                      {"vertical", vp},
                                      {"horizontal", hp},
                                      {"inverse_vertical", vq},
                                      {"inverse_horizontal", hq}};
    } else {
      out.text += "walking distance: not available on this board (tables too large)\n";
    }
    if (a->bound_pattern != "none") {
      auto solver = make_loopover_solver(ctx, c->size, c->metric, tables, a->bound_pattern);
      if (!solver) return solver.error();
      if (solver->pattern_db()) {
        const int pb = solver->pattern_bound(*p);
        best = std::max(best, pb);
        out.text += fmt::format("piece pattern database: {} (max over {} probes, {} pieces)\n", pb,
                                solver->probes(), solver->pattern_db()->pieces());
        out.json["pattern"] = {{"total", pb},
                               {"probes", solver->probes()},
                               {"pieces", solver->pattern_db()->pieces()}};
      } else {
        out.text += "piece pattern database: not available on this board\n";
      }
    }
    if (c->metric == Metric::Stm && c->size.rows % 2 == 0 && c->size.cols % 2 == 0 &&
        best % 2 != (position_sign(*p) < 0 ? 1 : 0)) {
      ++best;
    }
    out.text += fmt::format("best: {}\n", best);
    out.json["best"] = best;
    out.json["metric"] = metric_name(c->metric);
    return out;
  });

  // apply ----------------------------------------------------------------------------------
  auto* apply = lo->add_subcommand("apply", "Apply a move sequence (to the goal or --from POS)");
  apply->add_option("--size", a->size_text, "Board ROWSxCOLS (default 4x4)");
  apply->add_option("--from", a->from_text, "Start position (default: the goal)");
  apply->add_option("moves", a->moves_text,
                    "Moves, e.g. \"(2AA-2-A)^3\" (quote it; a sequence starting with '-' needs "
                    "a leading blank \" -B A\" or --moves=-B)");
  apply->add_option("--moves", a->moves_text, "The moves, as an option: --moves=\"-B A\"");
  set_action(ctx, apply, [a]() -> Result<CommandOutput> {
    auto c = common(*a);
    if (!c) return c.error();
    Position p = goal_position(c->size);
    if (!a->from_text.empty()) {
      auto from = position_arg(c->size, a->from_text);
      if (!from) return from.error();
      p = *from;
    }
    auto moves = parse_moves(c->size, a->moves_text);
    if (!moves) return moves.error();
    apply_moves(c->size, p, *moves);
    const Perm perm = position_to_perm(p);
    CommandOutput out;
    out.text = format_grid(c->size, p) +
               fmt::format("position: {}\ncycles:   {}\nmoves:    {} (stm {}, mtm {})\n",
                           format_position(p), perm.to_cycle_string(), moves->size(),
                           sequence_length(c->size, *moves, Metric::Stm),
                           sequence_length(c->size, *moves, Metric::Mtm));
    out.json = {{"position", format_position(p)},
                {"cycles", perm.to_cycle_string()},
                {"solved", is_goal(p)},
                {"stm", sequence_length(c->size, *moves, Metric::Stm)},
                {"mtm", sequence_length(c->size, *moves, Metric::Mtm)}};
    return out;
  });

  // play -----------------------------------------------------------------------------------
  auto* play = lo->add_subcommand("play", "Play interactively: type moves, `q` quits");
  play->add_option("size", a->size_text, "Board ROWSxCOLS (default 4x4)");
  play->add_option("--seed", a->seed, "Seed of the random start (default 1)");
  play->add_option("--from", a->from_text, "Start position (default: random solvable)");
  set_action(ctx, play, [a]() -> Result<CommandOutput> {
    auto c = common(*a);
    if (!c) return c.error();
    Position p;
    if (!a->from_text.empty()) {
      auto from = position_arg(c->size, a->from_text);
      if (!from) return from.error();
      if (!is_solvable(c->size, *from)) {
        return make_error(
            "this game cannot be won: on an odd x odd board only even "
            "permutations are reachable",
            a->from_text, Error::NO_POSITION, ErrorKind::Unsolvable);
      }
      p = *from;
    } else {
      Rng rng(a->seed);
      p = random_position(c->size, rng);  // always solvable (odd x odd: even permutations)
    }
    std::cout << fmt::format(
        "Loopover {}. Moves: columns 1..{} shift down, rows A..{} shift right, `-` inverts, "
        "e.g. `3 -B`; q quits.\n",
        format_size(c->size), c->size.cols, static_cast<char>('A' + c->size.rows - 1));
    int stm = 0, mtm = 0;
    std::string line;
    std::cout << format_grid(c->size, p);
    while (!is_goal(p)) {
      std::cout << "move> " << std::flush;
      if (!std::getline(std::cin, line)) break;
      if (line == "q" || line == "quit") break;
      auto moves = parse_moves(c->size, line);
      if (!moves) {
        std::cout << moves.error().describe() << "\n";
        continue;
      }
      apply_moves(c->size, p, *moves);
      stm += sequence_length(c->size, *moves, Metric::Stm);
      mtm += sequence_length(c->size, *moves, Metric::Mtm);
      std::cout << format_grid(c->size, p) << fmt::format("moves: {} stm, {} mtm\n", stm, mtm);
    }
    if (is_goal(p)) std::cout << fmt::format("Solved in {} moves (stm), {} (mtm).\n", stm, mtm);
    std::cout.flush();
    CommandOutput out;
    out.already_printed = true;
    return out;
  });

  // bfs ------------------------------------------------------------------------------------
  auto* bfs = lo->add_subcommand("bfs", "Whole-graph BFS: positions per distance, God's number");
  bfs->add_option("size", a->size_text, "Board ROWSxCOLS with at most 12 cells")->required();
  bfs->add_option("--metric", a->metric_text, "stm (default) or mtm");
  bfs->add_option("--threads", a->threads, "Worker threads (default 2)")->check(CLI::Range(1, 64));
  bfs->add_option("--svg", a->svg_path, "Also write the histogram as an SVG bar chart");
  set_action(ctx, bfs, [a, &ctx]() -> Result<CommandOutput> {
    auto c = common(*a);
    if (!c) return c.error();
    BfsOptions o;
    o.metric = c->metric;
    o.threads = a->threads;
    o.on_level = [&ctx](int depth, std::uint64_t count, double seconds) {
      progress(ctx, fmt::format("depth {:2}: {:>12} positions ({:.1f} s)", depth, count, seconds));
    };
    auto t = DistanceTable::build(c->size, o);
    if (!t) return t.error();
    const BfsStats& st = t->stats();
    CommandOutput out;
    out.text =
        fmt::format("Loopover {} ({}): {} positions, {:.1f} s, table {} MB\n", format_size(c->size),
                    metric_name(c->metric), st.states, st.seconds, st.table_bytes / 1'000'000.0);
    out.text += "distance  positions\n";
    for (std::size_t d = 0; d < st.histogram.size(); ++d) {
      out.text += fmt::format("{:8}  {:>12}\n", d, st.histogram[d]);
    }
    out.text += fmt::format("God's number: {}\nantipodes:    {}\nmean:         {:.4f}\n",
                            st.max_distance, st.antipodes, st.mean_distance);
    nlohmann::json samples = nlohmann::json::array();
    for (const auto& p : st.sample_antipodes) {
      samples.push_back(format_position(p));
      out.text += "antipode:     " + format_position(p) + "\n";
    }
    out.json = {{"states", st.states},
                {"max_distance", st.max_distance},
                {"antipodes_count", st.antipodes},
                {"histogram", histogram_json(st.histogram)},
                {"mean_distance", st.mean_distance},
                {"seconds", st.seconds},
                {"table_bytes", st.table_bytes},
                {"metric", metric_name(c->metric)},
                {"size", format_size(c->size)},
                {"sample_antipodes", samples}};
    if (!a->svg_path.empty()) {
      if (auto ok = write_file_atomically(a->svg_path, histogram_svg(st)); !ok) return ok.error();
      out.text += "histogram written to " + a->svg_path + "\n";
    }
    return out;
  });

  // group ----------------------------------------------------------------------------------
  auto* group = lo->add_subcommand("group", "The group the moves generate (computed, not assumed)");
  group->add_option("size", a->size_text, "Board ROWSxCOLS")->required();
  set_action(ctx, group, [a]() -> Result<CommandOutput> {
    auto c = common(*a);
    if (!c) return c.error();
    auto f = group_facts(c->size);
    if (!f) return f.error();
    CommandOutput out;
    out.text = fmt::format(
        "Loopover {}: group {} of order {}\n  moves: {}\n  {} = {}{}\n  transposition: {}\n",
        format_size(c->size), f->group, f->order.get_str(),
        f->all_moves_odd ? "all odd" : (f->all_moves_even ? "all even" : "some odd, some even"),
        f->spec_word, f->spec_word_cycles,
        f->spec_word_swaps_1_2 ? " (swaps cells 1 and 2)" : " (does NOT swap cells 1 and 2)",
        f->transposition_word.empty() ? std::string("none (every move is even)")
                                      : f->transposition_word + " = " + f->transposition_cycles);
    out.json = {{"group", f->group},
                {"order", f->order.get_str()},
                {"all_moves_odd", f->all_moves_odd},
                {"all_moves_even", f->all_moves_even},
                {"contains_transposition_1_2", f->contains_transposition_1_2},
                {"spec_word", f->spec_word},
                {"spec_word_cycles", f->spec_word_cycles},
                {"spec_word_swaps_1_2", f->spec_word_swaps_1_2},
                {"transposition_word", f->transposition_word},
                {"transposition_cycles", f->transposition_cycles},
                {"size", format_size(c->size)}};
    return out;
  });

  // symmetries -----------------------------------------------------------------------------
  auto* sym = lo->add_subcommand("symmetries", "The board-symmetry group acting by conjugation");
  sym->add_option("size", a->size_text, "Board ROWSxCOLS")->required();
  set_action(ctx, sym, [a]() -> Result<CommandOutput> {
    auto c = common(*a);
    if (!c) return c.error();
    auto gens = symmetry_generators(c->size);
    auto group = symmetry_group(c->size);
    CommandOutput out;
    out.text =
        fmt::format("Symmetries of the {} board: order {}\n", format_size(c->size), group.size());
    nlohmann::json g = nlohmann::json::array();
    for (const auto& s : gens) {
      out.text += fmt::format("  {:18} {}\n", s.name, s.cells.to_cycle_string());
      g.push_back({{"name", s.name}, {"perm", s.cells.to_cycle_string()}});
    }
    out.json = {{"order", group.size()}, {"generators", g}, {"size", format_size(c->size)}};
    return out;
  });
}

std::string demo_loopover() {
  std::string out = "Loopover\n";
  BoardSize s33{3, 3};
  auto t = DistanceTable::build(s33);
  if (t) {
    const auto& st = t->stats();
    out += fmt::format("  3x3 whole graph (STM): {} positions, God's number {}, {} antipodes\n",
                       st.states, st.max_distance, st.antipodes);
  }
  BoardSize s46{4, 6};
  auto three = parse_moves(s46, "3");
  auto minus_b = parse_moves(s46, "-B");
  out += fmt::format("  4x6: `3` = {}, `-B` = {}\n", move_perm(s46, (*three)[0]).to_cycle_string(),
                     move_perm(s46, (*minus_b)[0]).to_cycle_string());
  BoardSize s34{3, 4};
  auto solver = OptimalSolver::create(s34, Metric::Stm);
  if (solver) {
    Rng rng(4);
    Position p = random_position(s34, rng);
    auto r = solver->solve(p);
    if (r) {
      out += fmt::format("  3x4 optimal: {} -> {} ({} moves, {:.3f} s)\n", format_position(p),
                         format_moves(r->moves), r->length, r->seconds);
    }
  }
  return out;
}

}  // namespace permuzzle::cli
