// `--phases auto|PHASEFILE` (def solve, def info), def random's "moves", `bench def-phases`
// (issue 24, parts 3 and 4). The engine is puzzles/def/phases.hpp.
#include "def_phases.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "common.hpp"
#include "def_common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/def/group_facts.hpp"

namespace permuzzle::api {

using namespace permuzzle::def;

namespace {

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

nlohmann::json phase_list_json(const Definition& d, const std::vector<Phase>& phases) {
  nlohmann::json list = nlohmann::json::array();
  for (const Phase& p : phases) {
    nlohmann::json moves = nlohmann::json::array();
    for (std::size_t m : p.moves) moves.push_back(d.moves[m].name);
    // "all", or the moves allowed ([] for a phase of sequences alone).
    nlohmann::json entry = {
        {"pattern", p.name},
        {"moves", p.moves.empty() && !p.only_sequences ? nlohmann::json("all") : moves},
        {"state", phase_pattern_text(d, p)}};
    // A phase file's `Sequence` lines: each played as one search move of the phase.
    if (!p.sequences.empty()) {
      nlohmann::json seqs = nlohmann::json::array();
      for (const PhaseSequence& q : p.sequences) {
        nlohmann::json qm = nlohmann::json::array();
        for (std::size_t m : q.moves) qm.push_back(d.moves[m].name);
        seqs.push_back({{"name", q.name}, {"moves", qm}, {"order", q.order}});
      }
      entry["sequences"] = seqs;
    }
    // A phase file's `Blocks` and `Together` lines: the pieces that must end together.
    if (!p.blocks.empty() || !p.together.empty()) {
      nlohmann::json blocks = nlohmann::json::array();
      for (const BlockGenerator& b : p.blocks) blocks.push_back(b.text);
      nlohmann::json together = nlohmann::json::array();
      for (const auto& group : p.together) together.push_back(together_text(d, group));
      entry["blocks"] = blocks;
      entry["together"] = together;
    }
    // `Parity` lines: sets whose permutation ends even.
    if (!p.parity.empty()) {
      nlohmann::json parity = nlohmann::json::array();
      for (const auto& line : p.parity) parity.push_back(parity_text(d, line));
      entry["parity"] = parity;
    }
    list.push_back(std::move(entry));
  }
  return list;
}

// The planned chain sizes its phases by the run's memory budget (the tables share it), and
// builds the tables its last resort needs in the session's store (the solve finds them there).
AutoPhaseOptions auto_options(const RunContext& run, TableStore& tables) {
  AutoPhaseOptions o;
  if (run.memory_budget() > 0) o.memory_bytes = run.memory_budget();
  o.tables = &tables;
  return o;
}

std::string joined(const std::vector<std::string>& moves) {
  std::string out;
  for (const auto& m : moves) out += (out.empty() ? "" : " ") + m;
  return out;
}

}  // namespace

Param phases_param() {
  Param p = option("phases", ParamType::InputFile,
                   "Solve in phases: auto (derived from the puzzle) or a phase file (Phase NAME "
                   "blocks, docs/def.md)");
  p.choices = {"auto"};  // a keyword the CLI passes as it is, not a file name
  return p;
}

Param random_phases_param() {
  Param p = phases_param();
  p.help =
      "The phases whose solution, inverted, is the scramble sequence: auto (default) or a phase "
      "file (e.g. data/puzzles/megaminx.phases, where auto's piece chain takes minutes)";
  return p;
}

void append_phase_beam_params(std::vector<Param>& params) {
  params.insert(
      params.end(),
      {with_range(option("beam", ParamType::Unsigned,
                         "With --phases: positions kept between phases (a beam; default 1: "
                         "one solution per phase)"),
                  1, MAX_PHASE_BEAM),
       with_range(option("branch", ParamType::Unsigned,
                         "With --phases: optimal solutions of a phase tried from each kept "
                         "position (default 32; 1: the first one found, a plain chain)"),
                  1, MAX_PHASE_BRANCH),
       with_range(option("slack", ParamType::Unsigned,
                         "With --phases and --branch: phase solutions up to this many moves "
                         "longer than the phase's optimum are tried too (default 0)"),
                  0, 4),
       flag("inverse",
            "With --phases: also solve the inverse position and invert its solution when "
            "shorter (puzzles whose positions are group elements)")});
}

void read_beam_params(const Request& q, PhaseOptions& o) {
  if (q.has("beam")) o.beam_width = static_cast<int>(q.unsigned_integer("beam"));
  if (q.has("branch")) o.branch = static_cast<int>(q.unsigned_integer("branch"));
  if (q.has("slack")) o.slack = static_cast<int>(q.unsigned_integer("slack"));
  o.inverse = q.flag("inverse");
}

Result<std::vector<Phase>> read_phases_param(const Request& q, const Definition& d,
                                             const RunContext& run, TableStore& tables) {
  const InputText in = q.input_file("phases");
  if (trimmed(in.text) == "auto") return auto_phases(d, run, auto_options(run, tables));
  auto specs = parse_phase_file(d, in.text, in.name);
  if (!specs) return escaped(specs.error());
  return phases_from_specs(d, *specs);
}

Result<Output> solve_by_phases(const Request& q, Session& s, const Definition& d, Metric metric,
                               const std::vector<Scramble>& positions) {
  if (q.flag("all-optimal")) {
    return make_error(
        "--all-optimal cannot be combined with --phases: a phased answer is one "
        "solution, not proven optimal",
        {}, Error::NO_POSITION, ErrorKind::InvalidInput);
  }
  const RunContext run = with_threads(q, s);
  auto phases = read_phases_param(q, d, run, s.tables);
  if (!phases) return phases.error();
  PhaseOptions o;
  o.metric = metric;
  o.memory_bytes = run.memory_budget();
  // --max-length N: each phase takes the first solution of at most N moves (a quick weighted
  // pass first), as `def solve --max-length` does for one search.
  if (q.has("max-length")) {
    o.max_length = static_cast<int>(q.unsigned_integer("max-length"));
    o.accept_non_optimal = true;
  }
  read_beam_params(q, o);
  Stopwatch tables_clock;
  auto solver = PhasedSolver::create(d, *phases, o, s.tables, run);
  if (!solver) return solver.error();
  const double table_seconds = tables_clock.seconds();
  Output out;
  nlohmann::json solutions = nlohmann::json::array();
  std::string text;
  for (const Scramble& sc : positions) {
    auto r = (*solver)->solve(sc.state, run);
    if (!r && run.should_stop()) {
      solutions.push_back(
          {{"name", sc.name}, {"moves", nullptr}, {"optimal", false}, {"stopped", true}});
      text += fmt::format("{}: stopped ({})\n", sc.name, r.error().message);
      out.stopped = r.error();
      break;
    }
    if (!r) return r.error();
    nlohmann::json phase_json = nlohmann::json::array();
    for (const PhaseReport& p : r->phases) {
      phase_json.push_back({{"pattern", p.pattern},
                            {"moves", p.moves},
                            {"length", p.length},
                            {"optimal", p.optimal},
                            {"seconds", p.seconds}});
    }
    // One phase solved optimally is an optimal answer; several phases prove nothing.
    const bool optimal = r->phases.size() == 1 && r->phases.front().optimal;
    solutions.push_back({{"name", sc.name},
                         {"moves", r->moves},
                         {"length", r->length},
                         {"optimal", optimal},
                         {"verified", true},
                         {"seconds", r->seconds},
                         {"phases", phase_json}});
    // With --inverse: whether the phases solved the inverse position (`moves` inverts theirs).
    if (o.inverse) solutions.back()["inverse"] = r->inverse;
    std::string lengths;
    for (const PhaseReport& p : r->phases)
      lengths += (lengths.empty() ? "" : "+") + std::to_string(p.length);
    // (Moves merged across phase boundaries can make the length less than the phases' sum.)
    text += fmt::format("{}: {} ({} moves; phases {}{}, {:.3f} s)\n", sc.name,
                        r->moves.empty() ? "(solved)" : joined(r->moves), r->length, lengths,
                        r->inverse ? " of the inverse position, inverted" : "", r->seconds);
  }
  nlohmann::json tables = nlohmann::json::array();
  const auto per_phase = (*solver)->tables();
  for (std::size_t k = 0; k < per_phase.size(); ++k) {
    for (const PdbInfo& t : per_phase[k]) {
      tables.push_back({{"phase", k + 1},
                        {"pattern", t.pattern},
                        {"entries", t.entries},
                        {"exact", t.exact},
                        {"source", t.source},
                        {"seconds", t.seconds}});
    }
  }
  out.json = {{"name", d.name},         {"metric", metric_name(metric)},
              {"solutions", solutions}, {"phases", phase_list_json(d, *phases)},
              {"tables", tables},       {"table_seconds", table_seconds}};
  out.text = std::move(text);
  return out;
}

Status add_phase_info(const Request& q, Session& s, const Definition& d, Output& out) {
  auto phases = read_phases_param(q, d, s.run, s.tables);
  if (!phases) return phases.error();
  const auto sizes = phase_sizes(d, *phases, s.run);
  if (s.run.should_stop()) return s.run.stop_error();
  nlohmann::json list = phase_list_json(d, *phases);
  std::string text = fmt::format("phases: {}\n", phases->size());
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const PhaseSize& z = sizes[k];
    list[k]["positions"] =
        z.positions.empty() ? nlohmann::json(nullptr) : nlohmann::json(z.positions);
    if (!z.refused.empty()) list[k]["positions_refused"] = z.refused;
    list[k]["rank_space"] = z.rank_space;
    // A together phase's count is of its pattern's positions (the pieces told apart); its goal
    // is every position with each group at one of its places.
    const std::size_t groups = (*phases)[k].together.size();
    std::string parity;
    for (const auto& line : (*phases)[k].parity) parity += "; even " + parity_text(d, line);
    text += fmt::format(
        "  {}. {} (moves: {}{}{}): {} positions\n", k + 1, z.name, z.moves,
        groups == 0 ? std::string()
                    : fmt::format("; {} together group{}", groups, groups == 1 ? "" : "s"),
        parity,
        z.positions.empty() ? "not computed (" + z.refused + ")" : with_commas(z.positions));
  }
  out.json["phases"] = list;
  out.text += text;
  // --write-phases: the phases as a phase file a user can read, edit and give to --phases.
  if (q.has("write-phases")) {
    const std::vector<std::string> comment = {
        fmt::format(
            "Phases for {} ({}), written by permuzzle def info --write-phases.", d.name,
            trimmed(q.input_file("phases").text) == "auto" ? "--phases auto" : "from a phase file"),
        "Each phase reaches its pattern with its Moves (none: only its Sequence lines) and",
        "its sequences, each played as one search move (docs/def-phases.md)."};
    out.artifacts.push_back({"write-phases", format_phase_file(d, *phases, comment), "phase file"});
  }
  return Ok{};
}

Status add_scramble_moves(const Request& q, Session& s, const Definition& d, const State& position,
                          Output& out) {
  // The phases that solve it: --phases (a phase file, or auto), auto when not given.
  auto phases = q.has("phases") ? read_phases_param(q, d, s.run, s.tables)
                                : auto_phases(d, s.run, auto_options(s.run, s.tables));
  // A phase file the caller gave that does not read is bad input, not a sequence not found.
  if (!phases && q.has("phases") && phases.error().kind == ErrorKind::InvalidInput) {
    return phases.error();
  }
  Result<std::shared_ptr<PhasedSolver>> solver =
      phases ? PhasedSolver::create(d, *phases, PhaseOptions{Metric::Htm, s.run.memory_budget()},
                                    s.tables, s.run)
             : Result<std::shared_ptr<PhasedSolver>>(phases.error());
  Result<PhasedSolution> r =
      solver ? (*solver)->solve(position, s.run) : Result<PhasedSolution>(solver.error());
  if (!r) {
    if (s.run.should_stop()) return s.run.stop_error();
    out.json["moves"] = nullptr;
    out.json["moves_refused"] = r.error().message;
    out.text += "moves: not found (" + r.error().message + ")\n";
    return Ok{};
  }
  // The solution undoes the position: its inverse makes it from the Solved pattern.
  auto inverse = inverse_sequence(d, r->move_indices);
  if (!inverse) return inverse.error();
  if (apply_moves(d, *inverse) != position) {
    return make_error("def random: the scramble sequence failed verification by replay", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  std::vector<std::string> names;
  for (std::size_t m : *inverse) names.push_back(d.moves[m].name);
  out.json["moves"] = names;
  out.text += "moves: " + joined(names) + "\n";
  return Ok{};
}

namespace {

// The phase file committed for a bench case (data/puzzles), or "" to use auto phases.
std::string bench_phase_file(const std::string& name) {
  if (name == "loopover5x5") return "loopover-5x5.phases";
  if (name == "loopover5x5-small") return "loopover-5x5-small.phases";
  if (name == "4x4x4") return "4x4x4-fixed-corner.phases";
  if (name == "4x4x4-reduction") return "4x4x4-reduction.phases";
  if (name == "megaminx") return "megaminx.phases";
  return {};
}

Result<Definition> bench_definition(const std::string& name, Session& s) {
  if (name == "3x3x3") return parse_definition(cube_definition_text(3), "3x3x3");
  if (name == "2x2x2") return parse_definition(cube_definition_text(2), "2x2x2");
  if (name == "loopover5x5" || name == "loopover5x5-small") return loopover_definition({5, 5});
  if (name == "loopover4x4") return loopover_definition({4, 4});
  // The cases whose definition is a data/puzzles file.
  const std::string file = name == "4x4x4" || name == "4x4x4-reduction" ? "4x4x4-fixed-corner.tws"
                           : name == "megaminx"                         ? "megaminx.tws"
                                                                        : "";
  if (!file.empty()) {
    auto text = read_data_puzzle_file(s, file, "bench def-phases");
    if (!text) return text.error();
    return parse_definition(*text, file);
  }
  return make_error("bench def-phases: unknown case '" + name +
                        "': expected 2x2x2, 3x3x3, 4x4x4, 4x4x4-reduction, loopover4x4, "
                        "loopover5x5, loopover5x5-small or megaminx",
                    {}, Error::NO_POSITION, ErrorKind::InvalidInput);
}

Result<Output> bench_def_phases(const Request& q, Session& s) {
  const std::vector<std::string> cases = split_list(q.string("cases"));
  std::vector<std::pair<std::string, Definition>> puzzles;
  for (const auto& c : cases) {
    auto d = bench_definition(c, s);
    if (!d) return d.error();
    puzzles.emplace_back(c, std::move(*d));
  }
  if (q.has("file")) {
    std::ifstream in(q.string("file"), std::ios::binary);
    if (!in) {
      return make_error("bench def-phases: cannot read " + q.string("file"), {}, Error::NO_POSITION,
                        ErrorKind::Io);
    }
    std::ostringstream text;
    text << in.rdbuf();
    auto d = parse_definition(text.str(), q.string("file"));
    if (!d) return d.error();
    puzzles.emplace_back(file_stem(q.string("file")), std::move(*d));
  }
  const std::uint64_t count = q.unsigned_integer("count");
  const std::uint64_t seed = q.unsigned_integer("seed");
  const RunContext run = with_threads(q, s);
  auto metric = parse_metric(q.string("metric"));
  if (!metric) return metric.error();
  PhaseOptions options{*metric, run.memory_budget()};
  read_beam_params(q, options);
  const bool use_files = q.string("phases") == "files";
  Output out;
  nlohmann::json results = nlohmann::json::array();
  std::string text;
  for (const auto& [name, d] : puzzles) {
    // Step 1. Phases (the case's committed phase file, or auto) and their tables (built or
    // loaded once).
    Stopwatch clock;
    const std::string file = use_files ? bench_phase_file(name) : std::string();
    Result<std::vector<Phase>> phases = std::vector<Phase>{};
    if (file.empty()) {
      phases = auto_phases(d, run, auto_options(run, s.tables));
    } else {
      auto body = read_data_puzzle_file(s, file, "bench def-phases");
      if (!body) return body.error();
      auto specs = parse_phase_file(d, *body, file);
      if (!specs) return specs.error();
      phases = phases_from_specs(d, *specs);
    }
    if (!phases) return phases.error();
    auto solver = PhasedSolver::create(d, *phases, options, s.tables, run);
    if (!solver) return solver.error();
    const double table_seconds = clock.seconds();
    // Step 2. Random positions (uniform group elements), each solved and replayed.
    auto g = build_group(d);
    if (!g) return g.error();
    Rng rng(seed);
    std::vector<int> lengths;
    std::vector<double> seconds;
    for (std::uint64_t i = 0; i < count; ++i) {
      const State start = random_position(d, *g, rng);
      auto r = (*solver)->solve(start, run);
      if (!r) return r.error();
      if (replay(d, start, r->move_indices) != d.solved) {
        return make_error("bench def-phases: " + name + " solution failed its replay", {},
                          Error::NO_POSITION, ErrorKind::Internal);
      }
      lengths.push_back(r->length);
      seconds.push_back(r->seconds);
    }
    double mean_length = 0, mean_seconds = 0, max_seconds = 0;
    for (int l : lengths) mean_length += l;
    for (double t : seconds) {
      mean_seconds += t;
      max_seconds = std::max(max_seconds, t);
    }
    if (count > 0) {
      mean_length /= static_cast<double>(count);
      mean_seconds /= static_cast<double>(count);
    }
    const int max_length = lengths.empty() ? 0 : *std::max_element(lengths.begin(), lengths.end());
    results.push_back({{"case", name},
                       {"phase_file", file.empty() ? nlohmann::json("auto") : nlohmann::json(file)},
                       {"phases", phases->size()},
                       {"positions", count},
                       {"mean_length", mean_length},
                       {"max_length", max_length},
                       {"lengths", lengths},
                       {"mean_seconds", mean_seconds},
                       {"max_seconds", max_seconds},
                       {"table_seconds", table_seconds}});
    text += fmt::format(
        "{:<12} {} phases ({}): {} random positions, mean {:.2f} moves (max {}), mean {:.3f} s, "
        "max {:.3f} s per solve (tables {:.1f} s)\n",
        name, phases->size(), file.empty() ? "auto" : file, count, mean_length, max_length,
        mean_seconds, max_seconds, table_seconds);
  }
  out.json = {{"results", results},
              {"seed", seed},
              {"metric", metric_name(*metric)},
              {"beam", options.beam_width},
              {"branch", options.branch},
              {"slack", options.slack},
              {"inverse", options.inverse}};
  out.text = std::move(text);
  return out;
}

}  // namespace

void register_def_phases_bench(Registry& r) {
  Command bench{
      "bench",
      "def-phases",
      "Definition-file puzzles solved by auto phases: mean length and time per random position "
      "(issue 24)",
      {option("cases", ParamType::String,
              "Comma-separated: 2x2x2, 3x3x3, 4x4x4 (data/puzzles), 4x4x4-reduction (the same "
              "puzzle with 4x4x4-reduction.phases: pairing and a 3x3x3 stage), loopover4x4, "
              "loopover5x5, "
              "loopover5x5-small (the same puzzle with loopover-5x5-small.phases), megaminx "
              "(data/puzzles, megaminx.phases)",
              "3x3x3,4x4x4,loopover5x5,megaminx"),
       option("file", ParamType::HostPath, "Also this definition file (e.g. a megaminx)"),
       with_range(option("count", ParamType::Unsigned, "Random positions per puzzle", 10), 1,
                  100000),
       option("seed", ParamType::Unsigned, "Random seed", 1),
       with_choices(option("phases", ParamType::String,
                           "files: a case's phase file in data/puzzles when it has one "
                           "(loopover5x5: loopover-5x5.phases; 4x4x4: 4x4x4-fixed-corner.phases; "
                           "4x4x4-reduction: 4x4x4-reduction.phases; megaminx: megaminx.phases), "
                           "else auto; auto: always auto",
                           "files"),
                    {"files", "auto"}),
       with_choices(option("metric", ParamType::String,
                           "htm (every power costs 1) or qtm (Loopover: single-tile moves)", "htm"),
                    {"htm", "qtm"}),
       with_range(option("memory", ParamType::Unsigned, "Table memory budget in MB", 2048), 1,
                  std::uint64_t{1} << 24),
       with_range(option("threads", ParamType::Unsigned, "Worker threads"), 1, 256)},
      bench_def_phases,
      true};
  append_phase_beam_params(bench.params);
  bench.hard_example = {{"cases", "3x3x3"}, {"count", 1000}, {"memory", 64}};
  // auto's planned chain on the megaminx: its block steps planned ahead, the sequence library
  // and the words met in the middle (seconds), then tables at the sequences' costs.
  bench.other_hard_examples = {{{"cases", "megaminx"}, {"phases", "auto"}}};
  bench.invalid_examples = {{{"cases", "megaminx9"}}, {{"count", 0}}};
  r.add(std::move(bench));
}

}  // namespace permuzzle::api
