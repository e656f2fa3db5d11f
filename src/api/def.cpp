// `def info|apply|random`: any permutation puzzle given by a definition file (ksolve/twsearch
// text format or cubing.js KPuzzle JSON). The search commands (`def bfs`, `def solve`) live in
// their own file and share the input helpers of def_common.hpp.
#include "common.hpp"
#include "def_common.hpp"
#include "def_phases.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/def/group_facts.hpp"
#include "permuzzle/puzzles/def/symmetry.hpp"

namespace permuzzle::api {

namespace {

Param file_param() {
  return positional("file", ParamType::InputFile,
                    "Definition file (.tws/.def text format, or KPuzzle JSON)");
}

std::string big_with_commas(const mpz_class& v) {
  return with_commas(v.get_str());
}

Result<Output> info_command(const Request& q, Session& session) {
  auto d = read_definition_param(q, "file");
  if (!d) return d.error();
  Output out;
  nlohmann::json sets = nlohmann::json::array();
  std::string text = "name: " + d->name + "\nsets:";
  for (const def::PieceSet& s : d->sets) {
    sets.push_back({{"name", s.name}, {"pieces", s.pieces}, {"orientations", s.orientations}});
    text += " " + s.name + " (" + std::to_string(s.pieces) + " pieces, " +
            std::to_string(s.orientations) + " orientation" + (s.orientations > 1 ? "s" : "") + ")";
  }
  nlohmann::json moves = nlohmann::json::array();
  text += "\nmoves:";
  for (std::size_t i = 0; i < d->base_moves.size(); ++i) {
    const def::BaseMove& b = d->base_moves[i];
    moves.push_back({{"name", b.name}, {"order", b.order}});
    if (i < 40) text += " " + b.name + " (order " + std::to_string(b.order) + ")";
  }
  if (d->base_moves.size() > 40) text += " ...";
  std::vector<std::string> search_moves, rotations;
  for (const def::Move& m : d->moves) search_moves.push_back(m.name);
  for (const def::BaseMove& b : d->rotations) rotations.push_back(b.name);
  text += "\nsearch moves: " + std::to_string(search_moves.size()) + " (";
  // Big files have thousands of moves: the text lists the first ones (JSON has them all).
  constexpr std::size_t LISTED = 60;
  for (std::size_t i = 0; i < search_moves.size() && i < LISTED; ++i) {
    text += (i ? " " : "") + search_moves[i];
  }
  text += search_moves.size() > LISTED ? " ...)\n" : ")\n";
  if (!rotations.empty()) {
    text += "rotations (symmetries, not moves):";
    for (const auto& r : rotations) text += " " + r;
    text += "\n";
  }
  out.json = {{"name", d->name},
              {"sets", sets},
              {"moves", moves},
              {"search_moves", search_moves},
              {"rotations", rotations}};
  // Group facts are refused (not guessed) for groups too large to handle: the rest is printed.
  // --phases: the chosen phases and their positions, before the group facts.
  if (q.has("write-phases") && !q.has("phases")) {
    return make_error(
        "--write-phases writes the phases of --phases: give --phases auto (or a "
        "phase file)",
        {}, Error::NO_POSITION, ErrorKind::InvalidInput);
  }
  if (q.has("phases")) {
    Output phases;
    if (auto ok = add_phase_info(q, session, *d, phases); !ok) return ok.error();
    out.json["phases"] = phases.json["phases"];
    text += phases.text;
    out.artifacts = std::move(phases.artifacts);
  }
  // The symmetry group (puzzles/def/symmetry.hpp), refused rather than guessed when its search
  // is too long.
  auto symmetries = def::symmetry_group(*d, session.run);
  if (!symmetries && session.run.should_stop()) return session.run.stop_error();
  if (symmetries) {
    out.json["symmetries"] = symmetries->order;
    text += fmt::format("symmetries: {} (moves mapped onto moves, the solved pattern kept)\n",
                        symmetries->order);
  } else {
    out.json["symmetries"] = nullptr;
    out.json["symmetries_refused"] = symmetries.error().message;
    text += "symmetries: not computed (" + symmetries.error().message + ")\n";
  }
  auto facts = def::group_facts(*d, session.run);
  if (!facts) {
    if (session.run.should_stop()) return session.run.stop_error();
    if (facts.error().kind != ErrorKind::LimitExceeded) return facts.error();
    out.json["positions"] = nullptr;
    out.json["positions_refused"] = facts.error().message;
    text += "positions: not computed (" + facts.error().message + ")\n";
    out.text = std::move(text);
    return out;
  }
  out.json["positions"] = facts->positions.get_str();
  out.json["group_order"] = facts->group_order.get_str();
  out.json["stabiliser_order"] = facts->stabiliser_order.get_str();
  out.json["stabiliser_matters"] = facts->stabiliser_matters;
  out.json["structure"] = facts->structure.structure;
  out.json["structure_recognised"] = facts->structure.recognised;
  text += "group order: " + big_with_commas(facts->group_order) + "\n";
  text += "group structure: " + facts->structure.structure + "\n";
  if (facts->stabiliser_matters) {
    text += "solved pattern: stabilised by " + big_with_commas(facts->stabiliser_order) +
            " group elements (identical pieces or ignored orientations)\n";
  } else {
    text += "solved pattern: every group element gives a different position\n";
  }
  text += "positions: " + big_with_commas(facts->positions) + "\n";
  out.text = std::move(text);
  return out;
}

Output state_output(const def::Definition& d, const def::State& s, const std::string& name) {
  Output out;
  out.json["state"] = state_json(d, s);
  out.json["scramble"] = def::format_scramble(d, s, name);
  out.json["solved"] = s == d.solved;
  out.text = def::format_scramble(d, s, name);
  return out;
}

Result<Output> apply_command(const Request& q, Session& session) {
  auto d = read_definition_param(q, "file");
  if (!d) return d.error();
  def::State start = d->solved;
  if (q.has("state")) {
    auto s = def::parse_state(*d, q.string("state"), "--state");
    if (!s) return escaped(s.error());
    start = std::move(*s);
    // An unreachable start is refused with the reason (the moves cannot make it reachable).
    auto g = def::build_group(*d);
    if (g) {
      if (auto ok = def::check_reachable(*d, *g, start, session.run); !ok) {
        Error e = ok.error();
        if (e.kind == ErrorKind::Unsolvable) e.message = "--state: " + e.message;
        return e;
      }
    } else if (g.error().kind != ErrorKind::LimitExceeded) {
      return g.error();
    }
  }
  const std::string text = q.string("moves");
  auto moves = def::parse_move_sequence(*d, text);
  if (!moves) {
    Error e = moves.error();
    e.message = "--moves: " + e.message;
    return escaped(std::move(e));
  }
  Output out = state_output(*d, def::apply_moves(*d, start, *moves), "moves");
  std::vector<std::string> names;
  for (std::size_t m : *moves) names.push_back(d->moves[m].name);
  out.json["moves"] = names;
  return out;
}

Result<Output> random_command(const Request& q, Session& session) {
  auto d = read_definition_param(q, "file");
  if (!d) return d.error();
  auto g = def::build_group(*d);
  if (!g) return g.error();
  const std::uint64_t seed = q.unsigned_integer("seed");
  Rng rng(seed);
  const def::State position = def::random_position(*d, *g, rng);
  Output out = state_output(*d, position, "random_" + std::to_string(seed));
  out.json["seed"] = seed;
  // A scramble sequence reaching exactly this position (solved by phases, inverted, replayed).
  if (!q.flag("no-moves")) {
    if (auto ok = add_scramble_moves(q, session, *d, position, out); !ok) return ok.error();
  }
  return out;
}

}  // namespace

void register_def(Registry& r) {
  r.add_family("def", "Any permutation puzzle from a definition file (ksolve/twsearch, KPuzzle)");
  const std::string cube = cube_definition_text(3);
  Command info{"def",
               "info",
               "Sets, moves and their orders, group order and structure, and the exact number of "
               "positions reachable from the solved pattern (identical pieces and ignored "
               "orientations counted correctly)",
               {file_param(), phases_param(),
                option("write-phases", ParamType::OutputPath,
                       "With --phases: write the phases (and the sequences auto found) as a phase "
                       "file to read, edit and give to --phases")},
               info_command};
  // Expensive: besides the group facts (Schreier–Sims, a stabiliser search bounded by
  // STABILISER_SEARCH_NODES) it searches the puzzle's symmetries (up to 20,000,000 steps) and,
  // with --phases auto, plans the phases and searches their sequences (seconds on a megaminx).
  info.cost = Cost::Expensive;
  info.hard_example = {{"file", loopover_definition_text(8, 8)}, {"phases", "auto"}};
  info.invalid_examples = {
      {{"file", "Set X 2 1\nbogus\n"}},
      {{"file", "Set X 4 1\nMove M1\nX\n2 3 4 1\nEnd\nMove M12\nX\n2 1 3 4\nEnd\n"}},
      {{"file", cube}, {"write-phases", true}}};  // --write-phases without --phases
  r.add(std::move(info));
  Command apply{
      "def",
      "apply",
      "Apply moves to the solved pattern (or --state); prints the position as a scramble "
      "file entry",
      {file_param(), required(option("moves", ParamType::String, "Moves, e.g. \"R U R' U2\"")),
       option("state", ParamType::String,
              "Start from this state: SET numbers [orientations] ... (1-based, Solved "
              "layout)")},
      apply_command};
  apply.cost = Cost::Cheap;
  apply.invalid_examples = {{{"file", cube}, {"moves", "U Q"}},
                            {{"file", "not a definition"}, {"moves", "U"}}};
  r.add(std::move(apply));
  Command random{"def",
                 "random",
                 "A uniformly random reachable position (a uniform group element applied to the "
                 "solved pattern), as a scramble file entry, and moves that make it",
                 {file_param(), option("seed", ParamType::Unsigned, "Random seed", 1),
                  flag("no-moves",
                       "Leave the scramble sequence out (it solves the position by phases, "
                       "which takes long on the biggest puzzles)"),
                  random_phases_param()},
                 random_command};
  // The scramble sequence solves the position by phases (tables, searches): expensive.
  random.cost = Cost::Expensive;
  // The 5x5 Loopover's block-building phases answer within a second; the 6x6's take minutes.
  random.hard_example = {{"file", loopover_definition_text(6, 6)}, {"seed", 3}};
  random.invalid_examples = {{{"file", "Move"}},
                             {{"file", cube}, {"seed", "x"}},
                             {{"file", cube}, {"phases", "Phase p\nCORNERS\n1 2\nEnd\n"}}};
  r.add(std::move(random));
  register_def_exports(r);
}

}  // namespace permuzzle::api
