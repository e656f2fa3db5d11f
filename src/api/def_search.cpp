// `def bfs|solve` and `bench def` (def_bench.cpp): search over puzzles given by definition files
// (issue 11, part B). The reader, `def info|apply|random` and the exports are in def.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "common.hpp"
#include "def_common.hpp"
#include "def_phases.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/def/bfs.hpp"
#include "permuzzle/puzzles/def/builder.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"
#include "permuzzle/puzzles/def/planner.hpp"
#include "permuzzle/puzzles/def/solver.hpp"

namespace permuzzle::api {

namespace {

using namespace permuzzle::def;

Result<Definition> read_definition_file(const Request& q) {
  return read_definition_param(q, "file");
}

Param metric_param() {
  return with_choices(
      option("metric", ParamType::String, "Metric: htm (every power costs 1) or qtm", "htm"),
      {"htm", "qtm"});
}
Param memory_param(std::uint64_t fallback) {
  return with_range(option("memory", ParamType::Unsigned, "Table memory budget in MB", fallback), 1,
                    std::uint64_t{1} << 24);
}

Result<Output> bfs_command(const Request& q, Session& s) {
  auto d = read_definition_file(q);
  if (!d) return d.error();
  auto metric = parse_metric(q.string("metric"));
  if (!metric) return metric.error();
  DefBfsOptions o;
  o.metric = *metric;
  o.max_depth = q.has("max-depth") ? static_cast<int>(q.unsigned_integer("max-depth")) : -1;
  // --memory within the front end's budget: Registry::call made it the run's budget.
  o.memory_bytes = s.run.memory_budget();
  o.antipodes = static_cast<std::size_t>(q.unsigned_integer("antipodes"));
  if (q.has("checkpoint")) o.checkpoint_dir = q.string("checkpoint");
  o.resume = q.flag("resume");
  o.buffer_bytes = q.unsigned_integer("message-buffer") << 20;
  o.symmetry = q.string("symmetry") != "none";
  const RunContext run = with_threads(q, s);
  auto r = def::bfs(*d, o, run);
  if (!r) return r.error();
  Output out;
  nlohmann::json antipodes = nlohmann::json::array();
  for (const auto& a : r->antipodes) antipodes.push_back(a);
  std::uint64_t total = 0;
  for (std::uint64_t c : r->histogram) total += c;
  out.json = {{"name", d->name},
              {"metric", metric_name(*metric)},
              {"histogram", r->histogram},
              {"complete", r->complete},
              {"max_distance", r->max_distance},
              {"positions", total},
              {"antipodes", antipodes},
              {"method", r->method},
              {"seconds", r->seconds},
              {"table_bytes", r->table_bytes}};
  if (r->method == "ranked" || r->method == "symmetry") {
    out.json["bits"] = r->bits;
    out.json["rank_space"] = r->rank_space;
  }
  // Issue 33's interface: the symmetries used (1: none) and the classes searched.
  out.json["symmetries"] = r->symmetries;
  out.json["classes"] = r->classes;
  if (r->method == "symmetry") out.json["class_histogram"] = r->class_histogram;
  if (!r->symmetry_note.empty()) out.json["symmetry_note"] = r->symmetry_note;
  if (r->resumed_from >= 0) out.json["resumed_from"] = r->resumed_from;
  // Under mpirun (docs/distributed.md); table_bytes is then one process's share.
  add_distribution_json(out.json, r->distribution);
  out.stopped = r->stopped;
  std::string text =
      fmt::format("{} ({}): {} positions{}\n", d->name, metric_name(*metric), with_commas(total),
                  r->complete  ? ""
                  : r->stopped ? " (stopped, incomplete)"
                               : " (depth-limited)");
  if (r->method == "symmetry") {
    text += fmt::format("searched {} classes under {} symmetries\n", with_commas(r->classes),
                        r->symmetries);
  }
  text += "distance  positions\n";
  for (std::size_t i = 0; i < r->histogram.size(); ++i) {
    text += fmt::format("{:8}  {:>13}\n", i, with_commas(r->histogram[i]));
  }
  text += r->complete  ? fmt::format("God's number: {}\n", r->max_distance)
          : r->stopped ? fmt::format("stopped: searched to depth {}\n", r->max_distance)
                       : fmt::format("searched to depth {}\n", r->max_distance);
  for (const auto& a : r->antipodes) {
    std::string seq;
    for (const auto& m : a) seq += (seq.empty() ? "" : " ") + m;
    text += (r->complete ? "antipode: " : "deepest:  ") + seq + "\n";
  }
  out.text = std::move(text);
  return out;
}

Result<Output> solve_command(const Request& q, Session& s) {
  auto d = read_definition_file(q);
  if (!d) return d.error();
  auto metric = parse_metric(q.string("metric"));
  if (!metric) return metric.error();
  auto positions = read_positions_params(q, *d);
  if (!positions) return positions.error();
  const std::vector<Scramble>& scrambles = *positions;
  if (q.has("phases")) return solve_by_phases(q, s, *d, *metric, scrambles);
  if (q.has("beam") || q.has("branch") || q.has("slack") || q.flag("inverse")) {
    return make_error("--beam, --branch, --slack and --inverse apply to --phases only", {},
                      Error::NO_POSITION, ErrorKind::InvalidInput);
  }
  DefSolveOptions o;
  o.metric = *metric;
  // --memory within the front end's budget: Registry::call made it the run's budget.
  o.memory_bytes = s.run.memory_budget();
  o.all_optimal = q.flag("all-optimal");
  // Without --max-length: optimal answers only, searched up to 100 moves.
  o.accept_non_optimal = q.has("max-length");
  o.max_length = o.accept_non_optimal ? static_cast<int>(q.unsigned_integer("max-length")) : 100;
  const RunContext run = with_threads(q, s);
  // Tables sized to the job (planner.hpp): small ones first for a few positions, grown when the
  // search takes longer than building larger ones; `--plan largest` builds the largest at once.
  PlannedSolveOptions po;
  po.solve = o;
  po.positions = scrambles.size();
  po.grow = q.string("plan") == "grow";
  auto solver = PlannedSolver::create(*d, po, s.tables, run);
  if (!solver) return solver.error();
  Output out;
  nlohmann::json solutions = nlohmann::json::array();
  std::string text;
  for (const Scramble& sc : scrambles) {
    DefSolveReport report;
    auto r = (*solver)->solve(sc.state, run, &report);
    if (!r && report.stopped) {
      // Stopped by the time limit or cancellation: what is known of this position (a proven
      // lower bound), the positions solved before it, and the run's stop error.
      solutions.push_back({{"name", sc.name},
                           {"moves", nullptr},
                           {"optimal", false},
                           {"lower_bound", report.lower_bound},
                           {"stopped", true}});
      text += fmt::format("{}: stopped ({}); no solution shorter than {} moves\n", sc.name,
                          r.error().message, report.lower_bound);
      out.stopped = r.error();
      break;
    }
    if (!r) return r.error();
    const DefSolution& first = r->front();
    nlohmann::json entry = {{"name", sc.name},         {"moves", first.moves},
                            {"length", first.length},  {"optimal", first.optimal},
                            {"verified", true},        {"nodes", first.nodes},
                            {"seconds", first.seconds}};
    if (report.stopped) {
      // The quick pass's solution, kept when the optimal search ran out of time.
      entry["lower_bound"] = report.lower_bound;
      entry["stopped"] = true;
      out.stopped = run.stop_error();
    }
    if (o.all_optimal) {
      nlohmann::json all = nlohmann::json::array();
      for (const auto& x : *r) all.push_back(x.moves);
      entry["all"] = all;
    }
    solutions.push_back(entry);
    std::string seq;
    for (const auto& m : first.moves) seq += (seq.empty() ? "" : " ") + m;
    text += fmt::format("{}: {} ({} moves, {}{}{})\n", sc.name, seq.empty() ? "(solved)" : seq,
                        first.length, first.optimal ? "optimal" : "not proven optimal",
                        o.all_optimal ? fmt::format(", {} optimal solutions", r->size()) : "",
                        report.stopped ? fmt::format("; stopped, no solution is shorter than {}",
                                                     report.lower_bound)
                                       : "");
    if (out.stopped) break;
  }
  nlohmann::json tables = nlohmann::json::array();
  for (const TableUse& t : (*solver)->tables()) {
    tables.push_back({{"name", t.name},
                      {"pattern", t.name},
                      {"entries", t.entries},
                      {"bytes", t.bytes},
                      {"exact", t.exact},
                      {"source", t.source},
                      {"seconds", t.seconds},
                      {"tier", t.tier},
                      {"why", t.why}});
  }
  out.json = {{"name", d->name},
              {"metric", metric_name(*metric)},
              {"solutions", solutions},
              {"tables", tables}};
  out.text = std::move(text);
  return out;
}

}  // namespace

void register_def_bench(Registry& r);        // def_bench.cpp
void register_bfs_scale_bench(Registry& r);  // bfs_scale_bench.cpp

void register_def_search(Registry& r) {
  bool has_family = false;
  for (const auto& [family, help] : r.families()) has_family |= family == "def";
  if (!has_family)
    r.add_family("def", "Any permutation puzzle from a definition file (ksolve/twsearch)");
  const Param file = positional("file", ParamType::InputFile,
                                "Definition file (.tws/.def text format, or KPuzzle JSON)");
  const std::string cube = cube_definition_text(3);
  Command bfs{
      "def",
      "bfs",
      "Whole-graph BFS: positions per distance, God's number, antipodes (resumable)",
      {file, metric_param(),
       option("max-depth", ParamType::Unsigned, "Stop after this distance (depth-limited search)"),
       memory_param(4096),
       with_range(option("antipodes", ParamType::Unsigned, "How many antipodes to list", 10), 0,
                  100000),
       option("checkpoint", ParamType::HostPath,
              "Directory for a checkpoint after every level (command line only)"),
       flag("resume", "Continue from the last checkpoint in --checkpoint DIR"), threads_option(),
       with_choices(option("symmetry", ParamType::String,
                           "Search classes of positions under the file's symmetries (auto: where "
                           "it has some and its coordinates allow), or every position (none)",
                           "auto"),
                    {"auto", "none"}),
       with_range(option("message-buffer", ParamType::Unsigned,
                         "Under mpirun: message buffer memory per process in MB", 64),
                  2, 4096)},
      bfs_command,
      true};
  // 479,001,600 positions (a 120 MB table at 2 bits): about a minute on two cores.
  bfs.hard_example = {
      {"file", loopover_definition_text(3, 4)}, {"antipodes", 0}, {"symmetry", "none"}};
  bfs.invalid_examples = {{{"file", "garbage"}},
                          {{"file", cube}, {"metric", "xtm"}},
                          {{"file", loopover_definition_text(2, 4)}, {"resume", true}}};
  bfs.distributed = true;
  r.add(std::move(bfs));
  Command solve{
      "def",
      "solve",
      "Optimal solutions by IDA* with pattern databases chosen within --memory",
      {file,
       option("scramble", ParamType::InputFile, "Scramble file (Scramble/ScrambleAlg blocks)"),
       option("moves", ParamType::String, "Solve the position these moves make from solved"),
       option("state", ParamType::String,
              "A state in the Solved layout: \"SET 1 2 3 ... [0 0 1 ...] SET ...\" (1-based)"),
       metric_param(), flag("all-optimal", "Every optimal canonical solution"), memory_param(2048),
       with_choices(option("plan", ParamType::String,
                           "Pattern tables: grow (small ones first, larger ones when the search "
                           "takes longer than building them) or largest (the largest that fit "
                           "--memory at once)",
                           "grow"),
                    {"grow", "largest"}),
       with_range(option("max-length", ParamType::Unsigned,
                         "Stop at the first solution of at most N moves (a quick non-optimal "
                         "pass first); refuse (exit 3) when none exists (default: no cap, "
                         "optimal only)"),
                  0, 1000),
       threads_option(), phases_param()},
      solve_command,
      true};
  append_phase_beam_params(solve.params);
  // The superflip with 64 MB of tables: the tables take seconds to build, the search far longer.
  solve.hard_example = {{"file", cube}, {"moves", CUBE3_HARD_MOVES}, {"memory", 64}};
  // The same as one phase with every move and a sequence (Sune, costing its 7 moves): its
  // databases are built at the moves' costs (the weighted build), then searched.
  solve.other_hard_examples = {{{"file", cube},
                                {"moves", CUBE3_HARD_MOVES},
                                {"memory", 64},
                                {"phases", "Phase all\nSequence sune R U R' U R U2 R'\nEnd\n"}}};
  solve.invalid_examples = {
      {{"file", cube}, {"moves", "U Q"}},
      {{"file", cube}, {"moves", "U"}, {"state", "CORNERS 1 2"}},
      {{"file", cube}, {"state", "CORNERS 1 1 2 3 4 5 6 7"}},
      {{"file", cube}, {"moves", "U"}, {"phases", "Phase p\nCORNERS\n1"}},
      {{"file", cube}, {"moves", "U"}, {"phases", "auto"}, {"all-optimal", true}},
      {{"file", cube}, {"moves", "U"}, {"beam", 4}}};
  r.add(std::move(solve));
  register_def_bench(r);
  register_bfs_scale_bench(r);
  register_def_phases_bench(r);
}

}  // namespace permuzzle::api
