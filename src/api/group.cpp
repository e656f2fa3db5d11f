// `group ...`: permutation groups given by generators in GAP cycle notation.
//
// Generators are positional arguments, named g1, g2, ... in order, or NAME=PERM. Every command
// builds the stabiliser chain first (exact; randomized with a deterministic certificate above
// degree 64 unless `deterministic`), then answers from it.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <set>

#include "common.hpp"
#include "group_backtrack.hpp"
#include "group_chain_cache.hpp"
#include "group_common.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/cayley.hpp"
#include "permuzzle/group/chain.hpp"
#include "permuzzle/group/examples.hpp"
#include "permuzzle/group/generator_text.hpp"
#include "permuzzle/group/naming.hpp"
#include "permuzzle/group/operations.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/group/words.hpp"

namespace permuzzle::api {

namespace {

// Degree above which the randomized Schreier–Sims variant is used (still exact).
constexpr std::size_t RANDOMIZED_FROM_DEGREE = 64;
// `group random`: the output is bounded. A request whose printed elements would exceed this many
// points in all is refused (LimitExceeded) instead of filling memory and the terminal.
constexpr std::uint64_t MAX_RANDOM_POINTS = 50'000'000;
// GraphViz lays out a few hundred vertices in seconds; beyond this the SVG is refused.
constexpr std::size_t MAX_SVG_VERTICES = 400;
constexpr int DOT_TIME_LIMIT_SECONDS = 30;
// Subgroup results print at most this many generators.
constexpr std::size_t MAX_PRINTED_GENERATORS = 50;
// `describe` prints at most this many base points (and points per orbit) as text (JSON has
// them all).
constexpr std::size_t MAX_PRINTED_BASE = 30;

struct Generators {
  std::vector<Perm> perms;
  std::vector<std::string> names;
};

Result<Generators> parse_generators(const std::vector<std::string>& args, const RunContext& run);

// account_generator with the argument count in its message (a
// generator holds as many images as its largest point, whatever its text's length).
Status count_generator(std::uint64_t& bytes, const Perm& generator, std::size_t read,
                       std::size_t of, const RunContext& run) {
  return account_generator(
      bytes, generator, run,
      "the generators (" + std::to_string(read) + " of " + std::to_string(of) + " read)");
}

// Generators from --generators-file (GAP's list or cycle notation, generator_text.hpp), or from
// positional arguments, where one argument (read with @FILE or -) may hold a whole list. Their
// images are counted against the run's memory budget as they are read.
Result<Generators> request_generators(const Request& q, const RunContext& run) {
  const bool from_file = q.has("generators-file");
  auto args = q.strings("generators");
  if (from_file && !args.empty()) {
    return make_error(
        "give the generators either as arguments or from a file (--generators FILE, also spelled "
        "--generators-file), not both");
  }
  std::vector<std::pair<std::string, std::string>> texts;  // (source, text) of generator lists
  if (from_file) {
    InputText file = q.input_file("generators-file");
    texts.emplace_back(file.name, file.text);
  } else {
    bool any_list = false;
    for (const auto& a : args) any_list = any_list || looks_like_generator_list(a);
    if (!any_list) return parse_generators(args, run);
    for (std::size_t i = 0; i < args.size(); ++i) {
      texts.emplace_back("generator argument " + std::to_string(i + 1), args[i]);
    }
  }
  Generators gens;
  std::set<std::string> used;
  for (const auto& [source, text] : texts) {
    auto list = parse_generator_text(text, source, &run);
    if (!list) return list.error();
    for (auto& g : *list) {
      std::string name =
          g.name.empty() ? "g" + std::to_string(gens.perms.size() + 1) : std::move(g.name);
      if (!used.insert(name).second) {
        return make_error(source + ": the generator name '" + name +
                          "' is used twice; names must be distinct");
      }
      gens.perms.push_back(std::move(g.perm));
      gens.names.push_back(std::move(name));
    }
  }
  return gens;
}

Result<Generators> parse_generators(const std::vector<std::string>& args, const RunContext& run) {
  if (args.empty()) {
    return make_error(
        "empty generator list: give at least one generator in cycle notation, e.g. "
        "permuzzle group order \"(1,2,3)\" \"(1,2)\" (or NAME=PERM, e.g. U=\"(1,3,8,6)\")");
  }
  Generators gens;
  std::set<std::string> used;
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string name = "g" + std::to_string(i + 1);
    std::size_t offset = 0;
    std::size_t eq = arg.find('=');
    std::size_t paren = arg.find_first_of("([");
    if (eq != std::string::npos && (paren == std::string::npos || eq < paren)) {
      std::size_t start = arg.find_first_not_of(" \t");
      std::size_t end = arg.find_last_not_of(" \t", eq == 0 ? 0 : eq - 1);
      name = (start == std::string::npos || start >= eq) ? "" : arg.substr(start, end - start + 1);
      if (!valid_generator_name(name)) {
        return make_error("generator " + std::to_string(i + 1) + ": invalid name '" + name +
                              "': expected NAME=PERM with NAME a letter followed by letters, "
                              "digits or _",
                          arg, start == std::string::npos ? 0 : start);
      }
      offset = eq + 1;
    }
    auto p =
        parse_perm_param(arg, "generator " + std::to_string(i + 1) + " (" + name + ")", offset);
    if (!p) return p.error();
    if (!used.insert(name).second) {
      return make_error("generator " + std::to_string(i + 1) + ": the name '" + name +
                            "' is used twice; names must be distinct",
                        arg, 0);
    }
    if (auto fits = count_generator(bytes, *p, i + 1, args.size(), run); !fits) {
      return fits.error();
    }
    gens.perms.push_back(std::move(*p));
    gens.names.push_back(std::move(name));
  }
  return gens;
}

// Schreier–Sims within the run's time limit and memory budget.
Result<PermGroup> build_group(const Request& q, const Session& s) {
  auto gens = request_generators(q, s.run);
  if (!gens) return gens.error();
  std::size_t degree = 0;
  for (const Perm& p : gens->perms) degree = std::max(degree, p.largest_moved_point());
  SchreierSimsOptions options;
  options.randomized = !q.flag("deterministic") && degree > RANDOMIZED_FROM_DEGREE;
  options.run = &s.run;
  // The chain comes from the session's table store when an earlier command saved it.
  return group_with_cached_chain(std::move(gens->perms), std::move(gens->names), options, s.tables);
}

// Removes a file when it goes out of scope, on every exit path.
class TempFile {
 public:
  TempFile() {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/permuzzle-cayley-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    int fd = ::mkstemp(buffer.data());
    if (fd >= 0) {
      ::close(fd);
      path_ = buffer.data();
    }
  }
  ~TempFile() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs `dot -Tsvg` on the DOT text (GraphViz) with a time limit, or explains what is missing.
Result<std::string> render_svg(const std::string& dot) {
  if (std::system("command -v dot >/dev/null 2>&1") != 0) {
    return make_error("--svg needs GraphViz's `dot` on PATH (Debian: apt-get install graphviz)", {},
                      Error::NO_POSITION, ErrorKind::Io);
  }
  TempFile input;
  if (input.path().empty()) {
    return make_error("cannot create a temporary file for dot in $TMPDIR", {}, Error::NO_POSITION,
                      ErrorKind::Io);
  }
  {
    std::ofstream file(input.path());
    file << dot;
    if (!file) {
      return make_error("cannot write a temporary file for dot", {}, Error::NO_POSITION,
                        ErrorKind::Io);
    }
  }
  std::string command = "timeout " + std::to_string(DOT_TIME_LIMIT_SECONDS) + " dot -Tsvg '" +
                        input.path() + "' 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  std::string svg;
  if (pipe) {
    std::array<char, 4096> buffer{};
    std::size_t n;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) svg.append(buffer.data(), n);
  }
  int status = pipe ? pclose(pipe) : -1;
  if (status != 0 || svg.empty()) {
    return make_error(
        "dot -Tsvg failed or took longer than " + std::to_string(DOT_TIME_LIMIT_SECONDS) + " s", {},
        Error::NO_POSITION, ErrorKind::Io);
  }
  return svg;
}

Param generators_param() {
  return positional("generators", ParamType::Strings,
                    "Generators in cycle notation, e.g. \"(1,2,3)\" \"(1,2)\", or NAME=PERM",
                    /*required=*/false);  // none: the handler explains with an example
}

Param generators_file_param() {
  return option("generators-file", ParamType::InputFile,
                "Read the generators from a file (- = standard input; on the command line also "
                "--generators FILE): GAP's list "
                "[ (1,2,3), (1,2) ] or cycle notation, one or many per line, NAME=PERM allowed");
}

Param deterministic_param() {
  return flag("deterministic",
              "Always use deterministic Schreier–Sims (default above degree 64: randomized "
              "with a deterministic certificate, same exact answers)");
}

Param element_param() {
  return required(
      with_short(option("element", ParamType::String, "The element, e.g. \"(1,2)(3,4)\""), 'e'));
}

Contract group_contract(const nlohmann::json& hard, const std::string& verb);

// `hard`: the hard example's generators (hard_generators()), built once per registry.
Command with_contract(const nlohmann::json& hard, Command c) {
  Contract k = group_contract(hard, c.verb);
  c.cost = k.cost;
  c.hard_example = std::move(k.hard_example);
  c.invalid_examples = std::move(k.invalid_examples);
  return c;
}

using GroupBody = std::function<Result<Output>(const Request&, const PermGroup&, Session&)>;

// Adds a group command: generators and --deterministic first, then `extra` parameters.
void add_group(Registry& r, const nlohmann::json& hard, std::string verb, std::string help,
               std::vector<Param> extra, GroupBody body) {
  std::vector<Param> params = {generators_param(), generators_file_param(), deterministic_param()};
  params.insert(params.end(), extra.begin(), extra.end());
  r.add(with_contract(hard,
                      {"group", std::move(verb), std::move(help), std::move(params),
                       [body = std::move(body)](const Request& q, Session& s) -> Result<Output> {
                         auto g = build_group(q, s);
                         if (!g) return g.error();
                         return body(q, *g, s);
                       }}));
}
// The same for a command that needs nothing of the session beyond the group.
void add_group(Registry& r, const nlohmann::json& hard, std::string verb, std::string help,
               std::vector<Param> extra,
               std::function<Result<Output>(const Request&, const PermGroup&)> body) {
  add_group(r, hard, std::move(verb), std::move(help), std::move(extra),
            GroupBody([body = std::move(body)](const Request& q, const PermGroup& g, Session&) {
              return body(q, g);
            }));
}

// "1,5,7" -> 0-based points.
Result<std::vector<Point>> parse_points(const std::string& text, const std::string& what) {
  std::vector<Point> points;
  std::size_t i = 0;
  while (i <= text.size()) {
    std::size_t end = text.find(',', i);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(i, end - i);
    std::size_t a = item.find_first_not_of(" \t"), b = item.find_last_not_of(" \t");
    std::string digits = a == std::string::npos ? "" : item.substr(a, b - a + 1);
    bool ok =
        !digits.empty() && digits.size() <= 9 &&
        std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    unsigned long v = ok ? std::stoul(digits) : 0;
    if (!ok || v < 1 || v > MAX_PARSE_DEGREE) {
      return make_error(what + ": expected points 1.." + std::to_string(MAX_PARSE_DEGREE) +
                            " separated by commas, e.g. 1,5,7",
                        text, i);
    }
    points.push_back(static_cast<Point>(v - 1));
    i = end + 1;
  }
  return points;
}

Param subgroup_param() {
  return required(with_short(
      option("subgroup", ParamType::Strings,
             "A generator of the subgroup H in cycle notation (repeatable), e.g. -s \"(1,2,3)\""),
      's'));
}

Result<PermGroup> build_subgroup(const Request& q, const Session& s) {
  std::vector<Perm> gens;
  auto texts = q.strings("subgroup");
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    auto x = parse_perm_param(texts[i], "--subgroup element " + std::to_string(i + 1));
    if (!x) return x.error();
    if (auto fits = count_generator(bytes, *x, i + 1, texts.size(), s.run); !fits) {
      return fits.error();
    }
    gens.push_back(std::move(*x));
  }
  std::size_t degree = 0;
  for (const Perm& p : gens) degree = std::max(degree, p.largest_moved_point());
  SchreierSimsOptions options;
  options.randomized = degree > RANDOMIZED_FROM_DEGREE;
  options.run = &s.run;
  return PermGroup::from_generators(gens, {}, options);
}

// Refuses, before the answer is built, a listing whose text and JSON would not fit in the
// memory budget: `items` strings of `chars` characters in all, each held in the text and as a
// JSON string (about 64 bytes of overhead each). `what` says what was asked and how to get less.
Status check_listing(const Session& s, std::uint64_t items, std::uint64_t chars,
                     const std::string& what) {
  const std::uint64_t bytes = 2 * chars + 64 * items;
  return s.run.check_memory(bytes, what);
}

// Lists permutations one a line (text) and as a JSON array of cycle strings, after checking
// that both fit in the memory budget (`what` names the listing and how to ask for less); the
// stop request is polled as the list is built.
Status list_perms(const std::vector<Perm>& perms, const Session& s, const std::string& what,
                  std::string& text, nlohmann::json& list) {
  std::uint64_t chars = 0;
  for (std::size_t i = 0; i < perms.size(); ++i) {
    if ((i & 4095) == 4095 && s.run.should_stop()) return s.run.stop_error();
    chars += perms[i].to_cycle_string().size() + 1;
  }
  if (auto st = check_listing(s, perms.size(), chars, what); !st) return st;
  text.reserve(text.size() + chars);
  for (std::size_t i = 0; i < perms.size(); ++i) {
    if ((i & 4095) == 4095 && s.run.should_stop()) return s.run.stop_error();
    std::string e = perms[i].to_cycle_string();
    text += e + "\n";
    list.push_back(std::move(e));
  }
  return Ok{};
}

// A subgroup's order, structure and generators (at most MAX_PRINTED_GENERATORS printed).
Output subgroup_output(const PermGroup& h, nlohmann::json extra) {
  auto d = h.describe();
  nlohmann::json gens = nlohmann::json::array();
  std::string text;
  for (std::size_t i = 0; i < h.generators().size() && i < MAX_PRINTED_GENERATORS; ++i) {
    std::string g = h.generators()[i].to_cycle_string();
    if (h.generators()[i].is_identity() && h.order() > 1) continue;
    gens.push_back(g);
    text += " " + g;
  }
  Output out;
  out.text = fmt::format("order {}, {}\ngenerators:{}\n", h.order().get_str(), d.structure,
                         h.order() == 1 ? " none" : text);
  out.json = std::move(extra);
  if (!out.json.is_object()) out.json = nlohmann::json::object();
  out.json["order"] = h.order().get_str();
  out.json["structure"] = d.structure;
  out.json["generators"] = h.order() == 1 ? nlohmann::json::array() : gens;
  return out;
}

Output describe_group(const PermGroup& g, const RunContext& run) {
  auto d = g.describe();
  if (auto name = structure_name(g, &run)) {
    d.structure = *name;
    d.recognised = true;
  }
  auto base = g.base();
  Output out;
  nlohmann::json orbits = nlohmann::json::array();
  std::string orbit_text;
  for (const auto& orbit : d.orbits) {
    orbits.push_back(points_json(orbit));
    orbit_text +=
        (orbit_text.empty() ? "" : " ") +
        (orbit.size() <= MAX_PRINTED_BASE
             ? points_text(orbit, "{", "}")
             : points_text(std::vector<Point>(orbit.begin(), orbit.begin() + MAX_PRINTED_BASE), "{",
                           ", ...}"));
  }
  std::size_t moved = 0;
  for (const auto& orbit : d.orbits) moved += orbit.size();
  out.text = fmt::format(
      "structure:    {}{}\norder:        {}\nmoved points: {} (degree {})\norbits:       {}\n"
      "transitive:   {}\nbase:         {} (length {})\nstrong gens:  {}\n",
      d.structure, d.recognised ? "" : " (not recognised as a named group)", g.order().get_str(),
      moved, g.degree(), orbit_text.empty() ? "none" : orbit_text, d.transitive ? "yes" : "no",
      base.size() <= MAX_PRINTED_BASE
          ? points_text(base, "[", "]")
          : points_text(std::vector<Point>(base.begin(), base.begin() + MAX_PRINTED_BASE), "[",
                        ", ...]"),
      base.size(), g.strong_generator_count());
  out.json = {{"structure", d.structure},
              {"order", g.order().get_str()},
              {"recognised", d.recognised},
              {"transitive", d.transitive},
              {"orbits", orbits},
              {"moved_points", moved},
              {"degree", g.degree()},
              {"base", points_json(base)},
              {"strong_generators", g.strong_generator_count()}};
  return out;
}

Result<Output> cayley_graph_output(const Request& q, const PermGroup& g, Session& s) {
  std::vector<Perm> connection;
  auto texts = q.strings("connection");
  for (std::size_t i = 0; i < texts.size(); ++i) {
    auto x = parse_perm_param(texts[i], "connection element " + std::to_string(i + 1));
    if (!x) return x.error();
    connection.push_back(std::move(*x));
  }
  auto cay =
      cayley_graph(g, connection, {}, !q.flag("undirected"), q.unsigned_integer("limit"), &s.run);
  if (!cay) return cay.error();
  // The answer: the DOT text (a line per vertex and per edge) twice (text and JSON), and the
  // vertex names again in the components.
  std::uint64_t name_chars = 0;
  for (const auto& name : cay->names) name_chars += name.size() + 40;
  std::uint64_t label_chars = 0;
  for (const auto& e : cay->edges) label_chars += cay->connection_names[e.label].size() + 48;
  if (auto st =
          check_listing(s, cay->names.size() + cay->edges.size(), 2 * name_chars + label_chars,
                        "the Cayley graph's DOT text (ask for a smaller group)");
      !st) {
    return st.error();
  }
  std::string dot = to_dot(*cay);
  Output out;
  nlohmann::json components = nlohmann::json::array();
  for (std::size_t c = 0; c < cay->component_count; ++c) {
    nlohmann::json members = nlohmann::json::array();
    for (std::size_t v = 0; v < cay->elements.size(); ++v) {
      if (cay->component[v] == c) members.push_back(cay->names[v]);
    }
    components.push_back(members);
  }
  out.json = {{"vertices", cay->elements.size()},
              {"edges", cay->edges.size()},
              {"directed", cay->directed},
              {"connection", cay->connection_names},
              {"component_count", cay->component_count},
              {"components", components},
              {"dot", dot}};
  out.text = dot;
  if (q.has("svg")) {
    if (cay->elements.size() > MAX_SVG_VERTICES) {
      return make_error(fmt::format("--svg: the graph has {} vertices; GraphViz draws at most {} "
                                    "in reasonable time (use the DOT output instead)",
                                    cay->elements.size(), MAX_SVG_VERTICES),
                        {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
    auto svg = render_svg(dot);
    if (!svg) return svg.error();
    out.artifacts.push_back({"svg", *svg, "SVG drawing"});
  }
  return out;
}

std::string demo_groups() {
  std::string out = "Permutation groups (Schreier–Sims, exact orders):\n";
  auto group_of = [](std::vector<std::string> texts, std::vector<std::string> names = {}) {
    std::vector<Perm> gens;
    for (const auto& t : texts) gens.push_back(*Perm::parse(t));
    return *PermGroup::from_generators(gens, names);
  };
  PermGroup cube =
      *PermGroup::from_generators(rubik_cube_generators(), {"U", "L", "F", "R", "B", "D"});
  out += fmt::format("  Rubik's cube (6 face turns on 48 facelets): order {}\n",
                     cube.order().get_str());
  out += fmt::format("    a single corner twist (8,19,25) is in the group: {}\n",
                     cube.contains(*Perm::parse("(8,19,25)")) ? "yes" : "no");
  PermGroup loop4 = group_of({"(1,2,3,4)", "(5,6,7,8)", "(9,10,11,12)", "(13,14,15,16)",
                              "(1,5,9,13)", "(2,6,10,14)", "(3,7,11,15)", "(4,8,12,16)"});
  out += fmt::format("  Loopover 4x4 moves generate {} (order {})\n", loop4.describe().structure,
                     loop4.order().get_str());
  PermGroup loop3 = group_of({"(1,2,3)", "(4,5,6)", "(7,8,9)", "(1,4,7)", "(2,5,8)", "(3,6,9)"},
                             {"r1", "r2", "r3", "c1", "c2", "c3"});
  out += fmt::format("  Loopover 3x3 moves generate {} (order {})\n", loop3.describe().structure,
                     loop3.order().get_str());
  if (auto w = loop3.word(*Perm::parse("(1,2)(4,5)")); w.ok()) {
    out += fmt::format("    (1,2)(4,5) = {} ({} moves, verified)\n", loop3.word_to_string(*w),
                       w->size());
  }
  PermGroup tri =
      group_of({"(2,4)", "(5,7,9)(6,8)", "(10,12,14,16)(11,13,15)", "(1,2,5,10)(3,6,11)",
                "(4,7,12)(8,13)", "(9,14)", "(1,4,9,16)(3,8,15)", "(2,7,14)(6,13)", "(5,12)"});
  out += fmt::format("  Triangular Loopover, 4 rows: {} (order {})\n", tri.describe().structure,
                     tri.order().get_str());
  PermGroup a4 = group_of({"(1,2,3)", "(1,2)(3,4)"});
  if (auto cay = cayley_graph(a4, {*Perm::parse("(1,2)(3,4)"), *Perm::parse("(1,4)(2,3)")});
      cay.ok()) {
    out +=
        fmt::format("  Cay(A4, {{(1,2)(3,4), (1,4)(2,3)}}): {} vertices, {} components (cosets)\n",
                    cay->elements.size(), cay->component_count);
  }
  return out;
}

// Short-word chains and subgroup chains are cached per process (per generator set and options)
// in the session's table store.
std::string generators_key(const PermGroup& g) {
  std::string key;
  for (const Perm& p : g.generators()) key += p.to_cycle_string() + ";";
  return key;
}

Param chain_param(bool required_here) {
  Param p = option("chain", ParamType::InputFile,
                   "Subgroup chain file: one subgroup per line (generators in cycle notation "
                   "separated by blanks) from G1 down; an empty line or () ends it");
  return required_here ? required(p) : p;
}

Param powers_param() {
  return flag("powers",
              "Chain method: every power of a stage generator is one move (the cube's half-turn "
              "metric); default: generators and their inverses");
}

std::vector<Param> chain_params(bool word) {
  std::vector<Param> params = {generators_param(), generators_file_param(), deterministic_param()};
  if (word) params.push_back(element_param());
  params.push_back(chain_param(!word));
  params.push_back(powers_param());
  if (word) {
    params.push_back(option("time-budget", ParamType::Number,
                            "Short words: seconds spent improving the word chain (set-up)", 4.0));
    params.push_back(option("memory-budget", ParamType::Unsigned,
                            "Short words: MiB for the ball of shortest words", 256));
  }
  return params;
}

std::vector<Param> word_params() {
  return chain_params(true);
}

Result<std::shared_ptr<ShortWords>> short_words(const Request& q, Session& s, const PermGroup& g) {
  ShortWordOptions options;
  if (q.has("time-budget")) {
    double t = q.number("time-budget");
    if (!(t >= 0) || t > 3600) {
      return make_error("--time-budget: expected seconds between 0 and 3600");
    }
    options.time_budget_seconds = t;
  }
  if (q.has("memory-budget")) {
    std::uint64_t mib = q.unsigned_integer("memory-budget");
    if (mib > (std::uint64_t{1} << 20)) return make_error("--memory-budget: at most 1048576 MiB");
    options.memory_budget_bytes = static_cast<std::size_t>(mib) << 20;
  }
  // The run's memory budget bounds the ball too: at most half of it (the key below includes
  // the bound, so a smaller budget builds its own, smaller ball). ShortWords::build takes the
  // group's chain and the word chain's tables off the run's budget itself.
  const std::uint64_t run_budget = s.run.memory_budget();
  if (run_budget != 0 && run_budget / 2 < options.memory_budget_bytes) {
    options.memory_budget_bytes = static_cast<std::size_t>(run_budget / 2);
  }
  std::string key = fmt::format("group-words:{}:{}:{}", generators_key(g),
                                options.time_budget_seconds, options.memory_budget_bytes);
  return s.tables.shared<ShortWords>(key, [&]() { return ShortWords::build(g, options, &s.run); });
}

Result<std::shared_ptr<SubgroupChain>> subgroup_chain(const Request& q, Session& s,
                                                      const PermGroup& g) {
  InputText file = q.input_file("chain");
  auto subgroups = parse_chain(file.text, file.name);
  if (!subgroups) return subgroups.error();
  ChainOptions options;
  options.powers = q.flag("powers");
  std::string key =
      "group-chain:" + generators_key(g) + (options.powers ? ":powers:" : ":") + file.text;
  return s.tables.shared<SubgroupChain>(key, [&]() -> Result<std::shared_ptr<SubgroupChain>> {
    // Moves that are not powers of one generator are written by the short-word chain.
    std::shared_ptr<ShortWords> words;
    auto word_of = [&](const Perm& m) -> Result<Word> {
      if (!words) {
        auto w = short_words(q, s, g);
        if (!w) return w.error();
        words = *w;
      }
      auto w = words->word(m);
      if (!w) return w.error();
      return w->word;
    };
    return SubgroupChain::build(g, *subgroups, options, word_of, s.run);
  });
}

Result<Output> word_command(const Request& q, Session& s) {
  auto built = build_group(q, s);
  if (!built) return built.error();
  const PermGroup& g = *built;
  auto x = parse_perm_param(q.string("element"), "--element");
  if (!x) return x.error();
  Word word;
  std::string method;
  nlohmann::json stages = nullptr;
  // Dispatch point: how the word is found. GAP's cube generators: the cube's two-phase solver;
  // --chain: the subgroup method; otherwise the short-word chain, falling back to the group's
  // own stabiliser-chain word when it is refused.
  if (auto cube = q.has("chain") ? std::nullopt : cube_group_word(g, *x, s)) {
    // The cube group (GAP's 48-sticker face turns) is answered by the two-phase solver.
    if (!*cube) return cube->error();
    word = std::move(**cube);
    method = "cube two-phase solver (quarter-turn metric)";
  } else if (q.has("chain")) {
    auto chain = subgroup_chain(q, s, g);
    if (!chain) return chain.error();
    auto solution = (*chain)->solve(*x);
    if (!solution) return solution.error();
    word = std::move(solution->word);
    method = q.flag("powers") ? "subgroup chain (optimal per stage, powers as moves)"
                              : "subgroup chain (optimal per stage)";
    stages = nlohmann::json::array();
    for (std::size_t i = 0; i < solution->stage_lengths.size(); ++i) {
      stages.push_back({{"index", (*chain)->stages()[i].index.get_str()},
                        {"length", solution->stage_lengths[i]}});
    }
  } else {
    auto words = short_words(q, s, g);
    if (words) {
      auto w = (*words)->word(*x);
      if (!w) return w.error();
      word = std::move(w->word);
      method = w->method;
    } else if (words.error().kind == ErrorKind::LimitExceeded && !s.run.should_stop()) {
      auto w = g.word(*x, &s.run);
      if (!w) return w.error();
      word = std::move(*w);
      method = "stabiliser chain";
    } else {
      return words.error();
    }
  }
  // Both methods verify; check once more so the printed claim rests on this output.
  bool verified = g.evaluate(word) == *x;
  if (!verified) {
    return make_error("internal error: word does not multiply back to the element", {},
                      Error::NO_POSITION, ErrorKind::Internal);
  }
  // The answer: each letter in the text and as a JSON string.
  std::uint64_t name_chars = 0;
  for (const Letter& l : word) name_chars += g.generator_names()[l.generator].size() + 4;
  if (auto st = check_listing(s, word.size(), name_chars,
                              "printing the " + std::to_string(word.size()) + "-letter word");
      !st) {
    return st.error();
  }
  nlohmann::json letters = nlohmann::json::array();
  for (const Letter& l : word) {
    letters.push_back(g.generator_names()[l.generator] + (l.exponent == 1 ? "" : "^-1"));
  }
  Output out;
  out.text = (word.empty() ? std::string("()") : g.word_to_string(word)) +
             fmt::format("\nlength {} (verified: the product equals {}); method: {}\n", word.size(),
                         x->to_cycle_string(), method);
  out.json = {{"word", letters},
              {"length", word.size()},
              {"verified", verified},
              {"method", method},
              {"element", x->to_cycle_string()}};
  if (!stages.is_null()) {
    out.json["stages"] = stages;
    for (const auto& st : stages) {
      out.text += fmt::format("  stage index {}: {} moves\n", st["index"].get<std::string>(),
                              st["length"].get<std::size_t>());
    }
  }
  return out;
}

Result<Output> chain_info_command(const Request& q, Session& s) {
  auto built = build_group(q, s);
  if (!built) return built.error();
  auto chain = subgroup_chain(q, s, *built);
  if (!chain) return chain.error();
  Output out;
  nlohmann::json stages = nlohmann::json::array();
  for (std::size_t i = 0; i < (*chain)->stages().size(); ++i) {
    const ChainStageInfo& st = (*chain)->stages()[i];
    stages.push_back({{"index", st.index.get_str()},
                      {"gods_number", st.gods_number},
                      {"moves", st.moves},
                      {"histogram", st.histogram}});
    out.text += fmt::format("stage {}: index {}, God's number {} ({} moves)\n", i + 1,
                            st.index.get_str(), st.gods_number, st.moves);
  }
  out.json = {{"stages", stages}};
  return out;
}

// Generators of the wreath product C2 wr S_m on 2m points (blocks {2i-1, 2i}): a group whose
// Schreier–Sims runs far longer than a second at m = HARD_WREATH_BLOCKS (not S_n or A_n, so
// Jordan's shortcut does not apply), the conformance suite's hard example for every command
// that builds a group from generators.
constexpr std::size_t HARD_WREATH_BLOCKS = 3000;
std::vector<std::string> hard_generators() {
  // Appended in place: every group command's contract is made at start-up, and building these
  // strings from temporaries cost every process (a 0.08 s `def solve` too) about 10 ms.
  std::string gen;
  gen.reserve(HARD_WREATH_BLOCKS * 12 + 4);
  for (std::size_t parity = 1; parity <= 2; ++parity) {
    gen += '(';
    for (std::size_t i = 0; i < HARD_WREATH_BLOCKS; ++i) {
      if (i > 0) gen += ',';
      char digits[24];
      const auto end = std::to_chars(digits, digits + sizeof digits, 2 * i + parity).ptr;
      gen.append(digits, end);
    }
    gen += ')';
  }
  return {std::move(gen), "(1,3)(2,4)", "(1,2)"};
}

Contract group_contract(const nlohmann::json& hard, const std::string& verb) {
  // Step 1. What each command needs besides the generators (valid values), and the command's own
  // parameters out of their range.
  nlohmann::json extra = nlohmann::json::object();
  std::vector<nlohmann::json> invalid;
  auto one = [](const char* text) { return nlohmann::json::array({text}); };
  if (verb == "contains" || verb == "word") {
    extra["element"] = "(1,2)";
    invalid.push_back({{"element", "(1,2"}});
  }
  if (verb == "stabilizer") {
    extra["points"] = "1";
    invalid.push_back({{"points", "0"}});
  }
  if (verb == "orbit") {
    extra["set"] = "1,2";
    invalid.push_back({{"set", "1,x"}});
  }
  if (verb == "is-subgroup" || verb == "index" || verb == "cosets") {
    extra["subgroup"] = nlohmann::json::array({"(1,2)"});
    invalid.push_back({{"subgroup", one("(1,2")}});
  }
  if (verb == "random" || verb == "elements" || verb == "cayley-table" || verb == "cayley-graph" ||
      verb == "cosets" || verb == "orbit") {
    invalid.push_back({{verb == "random" ? "count" : "limit", -1}});
  }
  if (verb == "chain-info") {
    extra["chain"] = "(1,2)\n";
    invalid.push_back({{"chain", "(1,2"}});
  }
  if (verb == "word") invalid.push_back({{"time-budget", -1.0}});
  // Step 2. The examples every group command shares (group_examples), and listings asked to be
  // unlimited.
  Contract c = group_examples(hard, extra, invalid);
  if (verb == "elements" || verb == "cayley-table" || verb == "cayley-graph" || verb == "cosets") {
    c.hard_example["limit"] = std::numeric_limits<std::uint64_t>::max();
  }
  return c;
}

}  // namespace

Contract group_examples(const nlohmann::json& hard_generators, const nlohmann::json& extra,
                        const std::vector<nlohmann::json>& invalid_extra) {
  // Every command builds the group first: Schreier–Sims is unbounded in the degree, so every one
  // is Expensive, with the wreath product as its hard example.
  Contract c;
  c.hard_example = extra;
  c.hard_example["generators"] = hard_generators;
  // Invalid: a generator that does not parse, none at all, a generator file that does not
  // parse, and the command's own bad values.
  auto with = [&](const nlohmann::json& changes) {
    nlohmann::json params = extra;
    params["generators"] = nlohmann::json::array({"(1,2,3)", "(1,2)"});
    for (auto& [key, value] : changes.items()) params[key] = value;
    return params;
  };
  auto one = [](const char* text) { return nlohmann::json::array({text}); };
  c.invalid_examples = {
      with({{"generators", one("(1,2")}}), with({{"generators", one("(1,0)")}}),
      with({{"generators", nlohmann::json::array()}}),
      with({{"generators", nlohmann::json::array()}, {"generators-file", "[ (1,2), (1,"}})};
  for (const nlohmann::json& changes : invalid_extra) c.invalid_examples.push_back(with(changes));
  return c;
}

// Shared with group_structure.cpp (group_common.hpp).
Result<PermGroup> build_request_group(const Request& q, const Session& s) {
  return build_group(q, s);
}
std::vector<Param> group_base_params() {
  return {generators_param(), generators_file_param(), deterministic_param()};
}
Output subgroup_answer(const PermGroup& h, nlohmann::json extra) {
  return subgroup_output(h, std::move(extra));
}
Status check_answer_size(const Session& s, std::uint64_t items, std::uint64_t chars,
                         const std::string& what) {
  return check_listing(s, items, chars, what);
}

void register_group(Registry& r) {
  // The hard example's generators (36 KB of text), built once for every command's contract:
  // built per command they cost every process start about 19 M instructions.
  const nlohmann::json hard = hard_generators();
  r.add_family("group",
               "Permutation groups from generators: order, membership, structure, words, Cayley");

  add_group(r, hard, "order", "Exact order of the group (Schreier–Sims)", {},
            [](const Request&, const PermGroup& g) -> Result<Output> {
              Output out;
              out.text = g.order().get_str() + "\n";
              out.json = {{"order", g.order().get_str()}};
              return out;
            });

  add_group(r, hard, "describe",
            "Structure in GAP's spelling (cyclic, abelian, dihedral, S_n, A_n, Mathieu, "
            "PSL(2,q), wreath and direct products, puzzle groups as twists : permutations), "
            "order, orbits, transitivity, base",
            {}, [](const Request&, const PermGroup& g, Session& s) -> Result<Output> {
              return describe_group(g, s.run);
            });

  add_group(r, hard, "contains", "Is an element in the group? (sifting)", {element_param()},
            [](const Request& q, const PermGroup& g) -> Result<Output> {
              auto x = parse_perm_param(q.string("element"), "--element");
              if (!x) return x.error();
              bool member = g.contains(*x);
              Output out;
              out.text = fmt::format("{}: {} is {}in the group\n", member ? "yes" : "no",
                                     x->to_cycle_string(), member ? "" : "not ");
              out.json = {{"member", member},
                          {"element", x->to_cycle_string()},
                          {"order", g.order().get_str()}};
              return out;
            });

  add_group(r, hard, "orbits", "Orbits of the group on its moved points", {},
            [](const Request&, const PermGroup& g) -> Result<Output> {
              auto all = g.orbits();
              Output out;
              nlohmann::json list = nlohmann::json::array();
              for (const auto& orbit : all) {
                out.text += points_text(orbit, "{", "}") + "\n";
                list.push_back(points_json(orbit));
              }
              if (all.empty()) out.text = "no moved points\n";
              out.json = {{"orbits", list}, {"transitive", all.size() == 1}};
              return out;
            });

  add_group(
      r, hard, "random", "Uniformly random elements",
      {with_short(option("count", ParamType::Unsigned, "How many elements", 1), 'n'),
       option("seed", ParamType::Unsigned, "Seed of the random generator (default: random)")},
      [](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
        const std::uint64_t count = q.unsigned_integer("count");
        const std::uint64_t degree = std::max<std::uint64_t>(g.degree(), 1);
        if (count > MAX_RANDOM_POINTS / degree) {
          return make_error(
              fmt::format("--count {}: {} elements of degree {} would print more than {} "
                          "points; ask for at most {} at a time",
                          count, count, degree, MAX_RANDOM_POINTS, MAX_RANDOM_POINTS / degree),
              {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
        }
        // At most "points" digits plus a separator per point, in the text and in JSON.
        const std::uint64_t digits = std::to_string(degree).size() + 1;
        if (auto st = check_listing(s, count, count * degree * digits,
                                    fmt::format("printing {} random elements of degree {} (ask "
                                                "for fewer with --count)",
                                                count, degree));
            !st) {
          return st.error();
        }
        std::uint64_t seed = q.has("seed") ? q.unsigned_integer("seed") : std::random_device{}();
        Rng rng(seed);
        Output out;
        nlohmann::json list = nlohmann::json::array();
        for (std::uint64_t i = 0; i < count; ++i) {
          if ((i & 1023) == 1023 && s.run.should_stop()) return s.run.stop_error();
          std::string e = g.random_element(rng).to_cycle_string();
          out.text += e + "\n";
          list.push_back(e);
        }
        out.json = {{"elements", list}, {"seed", std::to_string(seed)}};
        return out;
      });

  add_group(r, hard, "elements",
            "All elements, sorted (small groups only: refused over --limit and over the memory "
            "budget; `group order` gives their number)",
            {option("limit", ParamType::Unsigned, "Refuse groups larger than this", 10000)},
            [](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
              // Before the enumeration: the list and its answer together, each element's
              // cycle string at most `degree` points of `digits` characters and a separator.
              const std::uint64_t limit = q.unsigned_integer("limit");
              if (g.order() <= mpz_class(std::to_string(limit))) {
                const std::uint64_t count = g.order().get_ui();
                const std::uint64_t digits = std::to_string(g.degree()).size() + 2;
                const std::uint64_t per = g.element_bytes() + 64 + 2 * g.degree() * digits;
                const std::uint64_t bytes = count > UINT64_MAX / per ? UINT64_MAX : count * per;
                if (auto st = s.run.check_memory(
                        bytes, "listing the " + g.order().get_str() +
                                   " elements of the group (`group order` gives their number)");
                    !st) {
                  return st.error();
                }
              }
              auto all = g.elements(limit, &s.run);
              if (!all) return all.error();
              Output out;
              nlohmann::json list = nlohmann::json::array();
              if (auto st = list_perms(*all, s,
                                       "printing the " + g.order().get_str() +
                                           " elements (`group order` gives their number only)",
                                       out.text, list);
                  !st) {
                return st.error();
              }
              out.json = {{"order", g.order().get_str()}, {"elements", std::move(list)}};
              return out;
            });

  add_group(r, hard, "cayley-table",
            "Cayley table (SageMath layout: entry in row x, column y is x*y)",
            {option("limit", ParamType::Unsigned, "Refuse groups larger than this", 500)},
            [](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
              auto t = cayley_table(g, q.unsigned_integer("limit"), &s.run);
              if (!t) return t.error();
              // The answer: order^2 cells in the text (padded to the widest name) and in JSON.
              std::uint64_t width = 1;
              for (const auto& name : t->names) width = std::max<std::uint64_t>(width, name.size());
              const std::uint64_t cells = std::uint64_t(t->names.size()) * t->names.size();
              if (auto st = check_listing(s, cells, cells * (width + 1),
                                          "printing the Cayley table (" + with_commas(cells) +
                                              " cells; ask for a smaller group)");
                  !st) {
                return st.error();
              }
              Output out;
              out.text = format_cayley_table(*t);
              nlohmann::json rows = nlohmann::json::array();
              for (const auto& row : t->product) {
                nlohmann::json cells = nlohmann::json::array();
                for (auto j : row) cells.push_back(t->names[j]);
                rows.push_back(cells);
              }
              out.json = {{"elements", t->names}, {"table", rows}, {"order", g.order().get_str()}};
              return out;
            });

  add_group(r, hard, "cayley-graph",
            "Cayley (di)graph Cay(G, X) as GraphViz DOT; components = cosets of <X>",
            {with_short(option("connection", ParamType::Strings,
                               "An element of X (repeatable; default X = the generators)"),
                        'x'),
             flag("undirected", "Undirected Cayley graph (default: digraph)"),
             option("svg", ParamType::OutputPath,
                    "Render with GraphViz (dot -Tsvg) and write the SVG there"),
             option("limit", ParamType::Unsigned, "Refuse groups larger than this", 2000)},
            cayley_graph_output);

  r.add(with_contract(
      hard, {"group", "word",
             "Write an element as a short product of the generators and their inverses (short-word "
             "chain, or --chain FILE: the subgroup method, optimal per stage); verified by "
             "multiplying back",
             word_params(), word_command}));

  r.add(with_contract(
      hard,
      {"group", "chain-info",
       "Subgroup chain G0 > G1 > ... > 1 (--chain FILE): index and God's number of each stage "
       "(coset distance tables)",
       chain_params(false), chain_info_command, /*long_running=*/true}));

  // Step: operations (operations.hpp), named as in GAP / SymPy.
  add_group(r, hard, "stabilizer",
            "Pointwise stabilizer of points (GAP: Stabilizer(G, pts, OnTuples)): order, "
            "structure and generators",
            {required(option("points", ParamType::String,
                             "Points to fix, comma-separated, e.g. 1 or 1,5,7"))},
            [](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
              auto points = parse_points(q.string("points"), "--points");
              if (!points) return points.error();
              auto h = pointwise_stabilizer(g, *points, &s.run);
              if (!h) return h.error();
              return subgroup_output(*h, {{"points", points_json(*points)}});
            });

  add_group(r, hard, "is-subgroup",
            "Is the group generated by the --subgroup elements a subgroup? (GAP: IsSubgroup) "
            "With its index when it is",
            {subgroup_param()},
            [](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
              auto h = build_subgroup(q, s);
              if (!h) return h.error();
              bool sub = is_subgroup(*h, g);
              Output out;
              out.json = {{"is_subgroup", sub},
                          {"order", g.order().get_str()},
                          {"subgroup_order", h->order().get_str()}};
              out.text = sub ? "yes" : "no";
              if (sub) {
                mpz_class index = g.order() / h->order();
                out.json["index"] = index.get_str();
                out.text += fmt::format(" (index {})", index.get_str());
              }
              out.text += "\n";
              return out;
            });

  add_group(
      r, hard, "index", "Index |G : H| of the subgroup H generated by the --subgroup elements",
      {subgroup_param()}, [](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
        auto h = build_subgroup(q, s);
        if (!h) return h.error();
        auto index = subgroup_index(g, *h);
        if (!index) return index.error();
        Output out;
        out.text = index->get_str() + "\n";
        out.json = {{"index", index->get_str()}};
        return out;
      });

  add_group(r, hard, "cosets",
            "Representatives of the right cosets H*x of the --subgroup H (GAP: "
            "RightTransversal); quadratic in the index",
            {subgroup_param(),
             option("limit", ParamType::Unsigned, "Refuse indices larger than this", 2000)},
            [](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
              auto h = build_subgroup(q, s);
              if (!h) return h.error();
              auto reps = right_coset_representatives(g, *h, q.unsigned_integer("limit"), &s.run);
              if (!reps) return reps.error();
              Output out;
              nlohmann::json list = nlohmann::json::array();
              if (auto st = list_perms(*reps, s,
                                       "printing the " + std::to_string(reps->size()) +
                                           " coset representatives (`group index` gives their "
                                           "number only)",
                                       out.text, list);
                  !st) {
                return st.error();
              }
              out.json = {{"index", std::to_string(reps->size())}, {"representatives", list}};
              return out;
            });

  add_group(r, hard, "orbit",
            "Orbit of a set of points under the group acting on sets (GAP: Orbit(G, set, "
            "OnSets))",
            {required(option("set", ParamType::String, "Points, comma-separated, e.g. 1,2")),
             option("limit", ParamType::Unsigned, "Refuse orbits longer than this", 100000)},
            [](const Request& q, const PermGroup& g, Session& s) -> Result<Output> {
              auto set = parse_points(q.string("set"), "--set");
              if (!set) return set.error();
              auto orbit = set_orbit(g, *set, q.unsigned_integer("limit"), &s.run);
              if (!orbit) return orbit.error();
              // Each set printed as "{1,2,...}": at most 8 characters a point.
              const std::uint64_t set_size = orbit->empty() ? 0 : (*orbit)[0].size();
              if (auto st = check_listing(
                      s, orbit->size(), orbit->size() * (set_size * 8 + 3),
                      "printing the orbit of " + std::to_string(orbit->size()) + " sets");
                  !st) {
                return st.error();
              }
              Output out;
              nlohmann::json list = nlohmann::json::array();
              for (const auto& s : *orbit) {
                out.text += points_text(s, "{", "}") + "\n";
                list.push_back(points_json(s));
              }
              out.json = {{"orbit", list}, {"length", orbit->size()}};
              return out;
            });

  add_group(r, hard, "derived-subgroup",
            "Commutator subgroup [G,G] (GAP: DerivedSubgroup): normal closure of the "
            "generators' commutators",
            {}, [](const Request&, const PermGroup& g, Session& s) -> Result<Output> {
              auto h = derived_subgroup(g, &s.run);
              if (!h) return h.error();
              return subgroup_output(*h, {});
            });

  add_group(r, hard, "is-abelian", "Do the generators commute? (GAP: IsAbelian)", {},
            [](const Request&, const PermGroup& g) -> Result<Output> {
              bool a = is_abelian(g);
              Output out;
              out.text = a ? "yes\n" : "no\n";
              out.json = {{"is_abelian", a}};
              return out;
            });

  add_group(r, hard, "is-solvable", "Does the derived series reach 1? (GAP: IsSolvableGroup)", {},
            [](const Request&, const PermGroup& g, Session& s) -> Result<Output> {
              auto solvable = is_solvable(g, &s.run);
              if (!solvable) return solvable.error();
              const bool yes = *solvable;
              Output out;
              out.text = yes ? "yes\n" : "no\n";
              out.json = {{"is_solvable", yes}};
              return out;
            });

  // Step: the backtrack search's commands (group_backtrack.cpp).
  register_group_backtrack(r, {{generators_param(), generators_file_param(), deterministic_param()},
                               build_group,
                               build_subgroup,
                               subgroup_output,
                               parse_points,
                               hard});

  register_group_structure(r, hard);
  r.add_demo("group", demo_groups);
}

}  // namespace permuzzle::api
