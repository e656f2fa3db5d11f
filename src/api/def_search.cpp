// `def bfs|solve` and `bench def`: search over puzzles given by definition files (issue 11, part
// B). The reader, `def info|apply|random` and the exports are part A's (def.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/def/bfs.hpp"
#include "permuzzle/puzzles/def/builder.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"
#include "permuzzle/puzzles/def/solver.hpp"

namespace permuzzle::api {

namespace {

using namespace permuzzle::def;

// TODO(issue 11): switch to part A's shared reader of the FILE parameter (src/api/def.cpp) once
// it is merged. This local reader knows the core of the text format only: Name, Set, Solved,
// Move blocks (1-based, orientation lines by piece) and comments.
Result<Definition> read_definition_local(const InputText& file) {
  std::istringstream in(file.text);
  std::string line;
  int line_no = 0;
  std::string name = file.name;
  std::vector<PieceSet> sets;
  std::vector<SetState> solved;
  std::vector<std::pair<std::string, std::vector<SetState>>> moves;
  auto where = [&](const std::string& what) {
    return make_error(fmt::format("{}:{}: {}", file.name, line_no, what));
  };
  auto tokens_of = [](const std::string& l) {
    std::istringstream ls(l);
    std::vector<std::string> t;
    for (std::string w; ls >> w;) t.push_back(w);
    return t;
  };
  auto set_index = [&](const std::string& n) -> int {
    for (std::size_t k = 0; k < sets.size(); ++k) {
      if (sets[k].name == n) return static_cast<int>(k);
    }
    return -1;
  };
  auto next_tokens = [&]() -> std::optional<std::vector<std::string>> {
    while (std::getline(in, line)) {
      ++line_no;
      if (line.empty() || line[0] == '#') continue;
      auto t = tokens_of(line);
      if (t.empty()) continue;
      return t;
    }
    return std::nullopt;
  };
  // A Solved or Move block; `is_move` converts piece-indexed orientations into state form.
  auto read_block = [&](bool is_move, std::vector<SetState>& parts) -> Status {
    parts.assign(sets.size(), SetState{});
    while (true) {
      auto t = next_tokens();
      if (!t) return where("missing End");
      if ((*t)[0] == "End") return Ok{};
      const int k = set_index((*t)[0]);
      if (k < 0) return where("unknown set '" + (*t)[0] + "'");
      const int n = sets[static_cast<std::size_t>(k)].pieces;
      auto perm_line = next_tokens();
      if (!perm_line || static_cast<int>(perm_line->size()) != n) {
        return where(fmt::format("expected {} piece numbers", n));
      }
      SetState part;
      for (const auto& w : *perm_line) {
        const int v = std::atoi(w.c_str());
        if (v < 1 || v > n) return where(fmt::format("piece number '{}' is not in 1..{}", w, n));
        part.perm.push_back(static_cast<std::uint8_t>(v - 1));
      }
      // Optional orientation line: a line of n numbers (or '?') that is not a set name or End.
      const auto pos = in.tellg();
      const int saved_line = line_no;
      auto ori_line = next_tokens();
      if (ori_line && (*ori_line)[0] != "End" && set_index((*ori_line)[0]) < 0) {
        if (static_cast<int>(ori_line->size()) != n)
          return where(fmt::format("expected {} orientations", n));
        for (const auto& w : *ori_line) {
          if (w == "?" && !is_move) {
            part.ori.push_back(ORIENTATION_IGNORED);
          } else {
            part.ori.push_back(static_cast<std::uint8_t>(std::atoi(w.c_str())));
          }
        }
        if (is_move) {
          SetState converted = part;
          for (int i = 0; i < n; ++i) {
            converted.ori[static_cast<std::size_t>(i)] =
                part.ori[part.perm[static_cast<std::size_t>(i)]];
          }
          part = std::move(converted);
        }
      } else {
        in.clear();
        in.seekg(pos);
        line_no = saved_line;
        part.ori.assign(static_cast<std::size_t>(n), 0);
      }
      parts[static_cast<std::size_t>(k)] = std::move(part);
    }
  };
  while (auto t = next_tokens()) {
    const std::string& head = (*t)[0];
    if (head == "Name" && t->size() >= 2) {
      name = (*t)[1];
    } else if (head == "Set" && t->size() == 4) {
      sets.push_back({(*t)[1], std::atoi((*t)[2].c_str()), std::atoi((*t)[3].c_str())});
    } else if ((head == "Solved") && t->size() == 1) {
      if (auto ok = read_block(false, solved); !ok) return ok.error();
    } else if (head == "Move" && t->size() == 2) {
      std::vector<SetState> parts;
      if (auto ok = read_block(true, parts); !ok) return ok.error();
      moves.emplace_back((*t)[1], std::move(parts));
    } else {
      return where("'" + head + "' is not supported by this reader (Name, Set, Solved, Move)");
    }
  }
  DefinitionBuilder b(name);
  for (const PieceSet& s : sets) b.set(s.name, s.pieces, s.orientations);
  for (std::size_t k = 0; k < solved.size(); ++k) {
    if (!solved[k].perm.empty()) b.solved(k, solved[k].perm, solved[k].ori);
  }
  for (auto& [n, parts] : moves) b.move(n, parts);
  return b.build();
}

Result<Definition> read_definition_param(const Request& q) {
  return read_definition_local(q.input_file("file"));
}

RunContext with_threads(const Request& q, const Session& s) {
  RunContext run = s.run;
  if (q.has("threads")) run.with_threads(static_cast<unsigned>(q.unsigned_integer("threads")));
  return run;
}

Param threads_option() {
  return with_range(
      option("threads", ParamType::Unsigned, "Worker threads (default: every hardware thread)"), 1,
      256);
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
  auto d = read_definition_param(q);
  if (!d) return d.error();
  auto metric = parse_metric(q.string("metric"));
  if (!metric) return metric.error();
  DefBfsOptions o;
  o.metric = *metric;
  o.max_depth = q.has("max-depth") ? static_cast<int>(q.unsigned_integer("max-depth")) : -1;
  o.memory_bytes = q.unsigned_integer("memory") << 20;
  o.antipodes = static_cast<std::size_t>(q.unsigned_integer("antipodes"));
  if (q.has("checkpoint")) o.checkpoint_dir = q.string("checkpoint");
  o.resume = q.flag("resume");
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
  if (r->method == "ranked") {
    out.json["bits"] = r->bits;
    out.json["rank_space"] = r->rank_space;
  }
  if (r->resumed_from >= 0) out.json["resumed_from"] = r->resumed_from;
  std::string text = fmt::format("{} ({}): {} positions{}\n", d->name, metric_name(*metric),
                                 with_commas(total), r->complete ? "" : " (depth-limited)");
  text += "distance  positions\n";
  for (std::size_t i = 0; i < r->histogram.size(); ++i) {
    text += fmt::format("{:8}  {:>13}\n", i, with_commas(r->histogram[i]));
  }
  text += r->complete ? fmt::format("God's number: {}\n", r->max_distance)
                      : fmt::format("searched to depth {}\n", r->max_distance);
  for (const auto& a : r->antipodes) {
    std::string seq;
    for (const auto& m : a) seq += (seq.empty() ? "" : " ") + m;
    text += (r->complete ? "antipode: " : "deepest:  ") + seq + "\n";
  }
  out.text = std::move(text);
  return out;
}

Result<std::vector<std::size_t>> parse_move_names(const Definition& d, const std::string& text,
                                                  const std::string& what) {
  std::istringstream in(text);
  std::vector<std::size_t> out;
  for (std::string w; in >> w;) {
    bool found = false;
    for (std::size_t m = 0; m < d.moves.size() && !found; ++m) {
      if (d.moves[m].name == w) {
        out.push_back(m);
        found = true;
      }
    }
    for (const auto& [alias, target] : d.aliases) {
      if (found || alias != w) continue;
      for (std::size_t m = 0; m < d.moves.size() && !found; ++m) {
        if (d.moves[m].name == target) {
          out.push_back(m);
          found = true;
        }
      }
    }
    if (!found) {
      std::vector<std::string> names;
      for (const Move& m : d.moves) names.push_back(m.name);
      const std::string close = closest_name(w, names);
      return make_error(fmt::format("{}: unknown move '{}'{}", what, w,
                                    close.empty() ? "" : " (did you mean " + close + "?)"),
                        text);
    }
  }
  return out;
}

// A state in the Solved layout (1-based pieces, state-form orientations, '?' allowed): lines
// "SET", "p1 p2 ...", optionally "o1 o2 ..."; ';' may separate lines.
Result<State> parse_state_text(const Definition& d, std::string text, const std::string& what) {
  std::replace(text.begin(), text.end(), ';', '\n');
  std::istringstream in(text);
  State s = full_solved(d);
  for (auto& part : s.sets) {
    for (std::size_t i = 0; i < part.perm.size(); ++i) {
      part.perm[i] = static_cast<std::uint8_t>(i);
      part.ori[i] = 0;
    }
  }
  std::vector<std::vector<std::string>> lines;
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::vector<std::string> t;
    for (std::string w; ls >> w;) t.push_back(w);
    if (!t.empty() && t[0][0] != '#') lines.push_back(std::move(t));
  }
  for (std::size_t i = 0; i < lines.size();) {
    std::size_t k = 0;
    while (k < d.sets.size() && d.sets[k].name != lines[i][0]) ++k;
    if (k == d.sets.size() || lines[i].size() != 1) {
      return make_error(fmt::format("{}: expected a set name, got '{}'", what, lines[i][0]));
    }
    const auto n = static_cast<std::size_t>(d.sets[k].pieces);
    if (i + 1 >= lines.size() || lines[i + 1].size() != n) {
      return make_error(
          fmt::format("{}: set {} needs a line of {} piece numbers", what, d.sets[k].name, n));
    }
    for (std::size_t j = 0; j < n; ++j) {
      const int v = std::atoi(lines[i + 1][j].c_str());
      if (v < 1 || v > static_cast<int>(n)) {
        return make_error(fmt::format("{}: set {}: piece '{}' is not in 1..{}", what,
                                      d.sets[k].name, lines[i + 1][j], n));
      }
      s.sets[k].perm[j] = static_cast<std::uint8_t>(v - 1);
    }
    i += 2;
    if (i < lines.size() && lines[i].size() == n) {
      for (std::size_t j = 0; j < n; ++j) {
        s.sets[k].ori[j] = lines[i][j] == "?"
                               ? ORIENTATION_IGNORED
                               : static_cast<std::uint8_t>(std::atoi(lines[i][j].c_str()));
      }
      ++i;
    }
  }
  return s;
}

struct Scramble {
  std::string name;
  State state;
};

// TODO(issue 11): part A's scramble-file reader. This one knows `Scramble NAME` ... `End` (the
// Solved layout, 1-based) and `ScrambleAlg NAME` followed by move lines until `End`.
Result<std::vector<Scramble>> read_scrambles_local(const Definition& d, const InputText& file) {
  std::istringstream in(file.text);
  std::vector<Scramble> out;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::istringstream ls(line);
    std::string head, name;
    ls >> head >> name;
    if (head.empty() || head[0] == '#') continue;
    if (head != "Scramble" && head != "ScrambleAlg") {
      return make_error(fmt::format("{}:{}: expected Scramble or ScrambleAlg, got '{}'", file.name,
                                    line_no, head));
    }
    std::string body;
    bool ended = false;
    while (std::getline(in, line)) {
      ++line_no;
      std::istringstream t(line);
      std::string first;
      t >> first;
      if (first == "End") {
        ended = true;
        break;
      }
      body += line + "\n";
    }
    if (!ended) return make_error(fmt::format("{}:{}: missing End", file.name, line_no));
    if (head == "Scramble") {
      auto st = parse_state_text(d, body, file.name + " (" + name + ")");
      if (!st) return st.error();
      out.push_back({name, *st});
    } else {
      auto moves = parse_move_names(d, body, file.name + " (" + name + ")");
      if (!moves) return moves.error();
      out.push_back({name, replay(d, full_solved(d), *moves)});
    }
  }
  if (out.empty()) return make_error(file.name + ": no scramble in the file");
  return out;
}

Result<Output> solve_command(const Request& q, Session& s) {
  auto d = read_definition_param(q);
  if (!d) return d.error();
  auto metric = parse_metric(q.string("metric"));
  if (!metric) return metric.error();
  const int given =
      (q.has("scramble") ? 1 : 0) + (q.has("moves") ? 1 : 0) + (q.has("state") ? 1 : 0);
  if (given != 1) return make_error("def solve needs exactly one of --scramble, --moves, --state");
  std::vector<Scramble> scrambles;
  if (q.has("scramble")) {
    auto r = read_scrambles_local(*d, q.input_file("scramble"));
    if (!r) return r.error();
    scrambles = std::move(*r);
  } else if (q.has("moves")) {
    auto moves = parse_move_names(*d, q.string("moves"), "--moves");
    if (!moves) return moves.error();
    scrambles.push_back({"moves", replay(*d, full_solved(*d), *moves)});
  } else {
    auto st = parse_state_text(*d, q.string("state"), "--state");
    if (!st) return st.error();
    scrambles.push_back({"state", *st});
  }
  DefSolveOptions o;
  o.metric = *metric;
  o.memory_bytes = q.unsigned_integer("memory") << 20;
  o.all_optimal = q.flag("all-optimal");
  o.max_length = static_cast<int>(q.unsigned_integer("max-length"));
  const RunContext run = with_threads(q, s);
  auto solver = DefSolver::create(*d, o, s.tables, run);
  if (!solver) return solver.error();
  Output out;
  nlohmann::json solutions = nlohmann::json::array();
  std::string text;
  for (const Scramble& sc : scrambles) {
    auto r = (*solver)->solve(sc.state, run);
    if (!r) return r.error();
    const DefSolution& first = r->front();
    nlohmann::json entry = {
        {"name", sc.name},  {"moves", first.moves}, {"length", first.length},  {"optimal", true},
        {"verified", true}, {"nodes", first.nodes}, {"seconds", first.seconds}};
    if (o.all_optimal) {
      nlohmann::json all = nlohmann::json::array();
      for (const auto& x : *r) all.push_back(x.moves);
      entry["all"] = all;
    }
    solutions.push_back(entry);
    std::string seq;
    for (const auto& m : first.moves) seq += (seq.empty() ? "" : " ") + m;
    text += fmt::format("{}: {} ({} moves, optimal{})\n", sc.name, seq.empty() ? "(solved)" : seq,
                        first.length,
                        o.all_optimal ? fmt::format(", {} optimal solutions", r->size()) : "");
  }
  nlohmann::json tables = nlohmann::json::array();
  for (const PdbInfo& t : (*solver)->tables()) {
    tables.push_back({{"pattern", t.pattern},
                      {"entries", t.entries},
                      {"exact", t.exact},
                      {"source", t.source},
                      {"seconds", t.seconds}});
  }
  out.json = {{"name", d->name},
              {"metric", metric_name(*metric)},
              {"solutions", solutions},
              {"tables", tables}};
  out.text = std::move(text);
  return out;
}

}  // namespace

void register_def_bench(Registry& r);  // def_bench.cpp

void register_def_search(Registry& r) {
  bool has_family = false;
  for (const auto& [family, help] : r.families()) has_family |= family == "def";
  if (!has_family)
    r.add_family("def", "Any permutation puzzle from a definition file (ksolve/twsearch)");
  const Param file = positional("file", ParamType::InputFile, "Definition file (.tws/.def)");
  r.add(
      {"def",
       "bfs",
       "Whole-graph BFS: positions per distance, God's number, antipodes (resumable)",
       {file, metric_param(),
        option("max-depth", ParamType::Unsigned, "Stop after this distance (depth-limited search)"),
        memory_param(4096),
        with_range(option("antipodes", ParamType::Unsigned, "How many antipodes to list", 10), 0,
                   100000),
        option("checkpoint", ParamType::String, "Directory for a checkpoint after every level"),
        flag("resume", "Continue from the last checkpoint in --checkpoint DIR"), threads_option()},
       bfs_command,
       true});
  r.add(
      {"def",
       "solve",
       "Optimal solutions by IDA* with pattern databases chosen within --memory",
       {file,
        option("scramble", ParamType::InputFile, "Scramble file (Scramble/ScrambleAlg blocks)"),
        option("moves", ParamType::String, "Solve the position these moves make from solved"),
        option("state", ParamType::String,
               "A state in the Solved layout, ';' between lines: \"SET;1 2 3 ...;0 0 1 ...\""),
        metric_param(), flag("all-optimal", "Every optimal canonical solution"), memory_param(2048),
        with_range(option("max-length", ParamType::Unsigned, "Give up past this length", 100), 0,
                   1000),
        threads_option()},
       solve_command,
       true});
  register_def_bench(r);
}

}  // namespace permuzzle::api
