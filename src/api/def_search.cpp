// `def bfs|solve` and `bench def`: search over puzzles given by definition files (issue 11, part
// B). The reader, `def info|apply|random` and the exports are part A's (def.cpp).
#include <fmt/format.h>

#include <sstream>

#include "common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/puzzles/def/bfs.hpp"
#include "permuzzle/puzzles/def/builder.hpp"
#include "permuzzle/puzzles/def/compiled.hpp"

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

}  // namespace

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
}

}  // namespace permuzzle::api
