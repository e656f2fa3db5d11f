// The API layer: every puzzle verb as a command with typed parameters and a JSON result.
//
// A command is (family, verb), e.g. ("sliding", "solve"), with a help line, its parameters and a
// handler. Front ends never reimplement a command: the CLI builds its subcommands from the
// registry (positional parameters become positional arguments, the others `--name` options), the
// web server maps `POST /api/v1/<family>/<verb>` to it and the Python module's `call` too. All of
// them pass the parameters as one JSON object named like the CLI's arguments and get the same
// JSON object back; the text form is what the CLI prints without --json.
//
// The registry validates parameters before a handler runs: unknown names, wrong types, missing
// required ones, values outside a choice list, and integers that do not fit (never clamped or
// wrapped: a negative count is an error, not 2^64-1) are errors naming the parameter.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/core/table_store.hpp"

namespace permuzzle::api {

enum class ParamType {
  String,      // JSON string
  Strings,     // JSON array of strings (a repeated option, or all remaining positionals)
  Integer,     // JSON integer that fits in int64
  Unsigned,    // JSON integer that fits in uint64 (no negative values)
  BigInteger,  // decimal digits of any length with an optional sign (JSON string or integer)
  Number,      // JSON number (double)
  Flag,        // JSON boolean (a flag on the command line)
  OutputPath,  // asks for an artifact (an SVG, a DOT file): on the CLI a path, "-" = stdout (the
               // option may be given without a value, meaning "-"); other front ends pass any
               // string and get the artifact's content in the JSON result
  InputFile,   // the contents of a file (a definition file, a scramble file): on the CLI a path
               // that the CLI reads (at most MAX_INPUT_FILE_BYTES); other front ends pass the
               // text itself, as a JSON string or as {"name": ..., "text": ...}
  HostPath,    // a path on the machine running the command, which the command itself reads or
               // writes (a checkpoint directory): accepted only from a front end that grants
               // host paths (Session::host_paths: the CLI does; the server and Python's call
               // never), refused before the handler runs otherwise
};

// Most threads any command starts: every parameter named "threads" is checked against it by the
// registry (Registry::add), whatever the command itself declares.
inline constexpr std::uint64_t MAX_THREADS = 256;

// Largest file an InputFile parameter reads (front ends refuse bigger ones).
inline constexpr std::size_t MAX_INPUT_FILE_BYTES = std::size_t(64) << 20;

// An InputFile parameter's value: the name to use in error messages and the text.
struct InputText {
  std::string name;
  std::string text;
};

std::string_view type_name(ParamType type);

struct Param {
  std::string name;  // JSON key; the CLI's positional help name or long option without dashes
  ParamType type = ParamType::String;
  std::string help;
  bool positional = false;
  // An option that the command line also takes in its former positional place (the transition
  // to one argument style, README: Conventions); the CLI then notes the option's form.
  bool positional_alias = false;
  bool required = false;
  char short_name = 0;                // one-letter CLI alias, e.g. 'e' for -e
  nlohmann::json fallback = nullptr;  // value when absent (null: absent stays absent)
  std::vector<std::string> choices;   // allowed values of a String (empty: any)
  // Inclusive bounds of an Integer or Unsigned (checked exactly).
  std::optional<std::int64_t> min;
  std::optional<std::uint64_t> max;
};

// Parameters of one call after validation: typed accessors over the JSON object. Absent
// parameters without a fallback are reported by has() == false; the accessors then return the
// type's zero value.
class Request {
 public:
  explicit Request(nlohmann::json params) : params_(std::move(params)) {}
  const nlohmann::json& json() const { return params_; }
  bool has(const std::string& name) const;
  std::string string(const std::string& name) const;
  std::vector<std::string> strings(const std::string& name) const;
  std::int64_t integer(const std::string& name) const;
  std::uint64_t unsigned_integer(const std::string& name) const;
  std::string big_integer(const std::string& name) const;  // decimal text, exact
  double number(const std::string& name) const;
  bool flag(const std::string& name) const;
  InputText input_file(const std::string& name) const;  // {name, text}; name defaults to the param

 private:
  nlohmann::json params_;
};

// What a front end provides to every call: the table store it owns for the process, the run
// context of this call (progress, cancellation, limits, threads), and where the committed data
// files (Korf's instances) are.
struct Session {
  TableStore& tables;
  RunContext run;
  std::string data_dir;
  // The front end grants reading and writing the host paths its user names (HostPath
  // parameters). The CLI does, for its own user; the server and Python's `call` never do for a
  // client: there a HostPath parameter is refused.
  bool host_paths = false;
  // Reports one human-readable progress line through run (the CLI prints it on stderr).
  void note(std::string line) const { run.report({"", 0, 0, std::move(line)}); }
};

// A document produced on request by an OutputPath parameter; the front end decides where it
// goes (the library writes no files).
struct Artifact {
  std::string param;    // the OutputPath parameter that asked for it
  std::string content;  // e.g. the SVG text
  std::string what;     // for the CLI's "<what> written to <path>" line
};

struct Output {
  nlohmann::json json = nlohmann::json::object();  // the result (the CLI's --json)
  std::string text;                                // the CLI's text form
  std::vector<Artifact> artifacts;
  // Set when the run stopped before it finished (time limit, cancellation) and json/text hold
  // what it knew then ("complete": false, "optimal": false, a proven lower bound, ...). Front
  // ends print the output and report the error's kind: the CLI exits 3 (1 when cancelled), the
  // server answers 422 with the JSON.
  std::optional<Error> stopped;
};

using Handler = std::function<Result<Output>(const Request&, Session&)>;

// How much a call of the command can cost, so that a server keeps cheap calls from waiting
// behind expensive ones.
enum class Cost {
  Cheap,      // bounded small work on any valid input (parsing, a product, a check)
  Expensive,  // searches, table builds, enumerations: may run until its limits stop it
};

struct Command {
  std::string family;
  std::string verb;
  std::string help;
  std::vector<Param> params;
  Handler handler;
  bool long_running = false;  // table builds, whole-graph BFS, benchmarks: run as a job
  Cost cost = Cost::Expensive;
  // The conformance suite (tests/conformance_test.cpp) runs these on every command:
  // `hard_example`: parameters of a call that runs far longer than a second unless stopped
  // (null: none exists, every valid call is quick); `invalid_examples`: parameters that must be
  // refused with InvalidInput.
  nlohmann::json hard_example = nullptr;
  std::vector<nlohmann::json> invalid_examples{};
  // The handler shares its work with the other processes of an MPI job (RunContext::cluster()).
  // Under a job of two or more processes every other command is refused (Registry::call): each
  // process would do the whole work again.
  bool distributed = false;
  // Hard examples of the command's other paths, which the parameters of `hard_example` do not
  // take (a method `auto` does not choose there): the conformance suite runs each like it.
  std::vector<nlohmann::json> other_hard_examples{};
};

// A command's hard examples: `hard_example` (none when null), then `other_hard_examples`.
inline std::vector<nlohmann::json> hard_examples(const Command& c) {
  std::vector<nlohmann::json> all;
  if (!c.hard_example.is_null()) all.push_back(c.hard_example);
  all.insert(all.end(), c.other_hard_examples.begin(), c.other_hard_examples.end());
  return all;
}

class Registry {
 public:
  Registry() = default;
  // A registry of one family's commands only: what is added for other families is dropped (so
  // that a front end serving one command builds that family alone: make_registry(family)).
  explicit Registry(std::string only_family) : only_family_(std::move(only_family)) {}

  void add_family(std::string family, std::string help);
  void add(Command command);

  const std::vector<Command>& commands() const { return commands_; }
  const Command* find(std::string_view family, std::string_view verb) const;
  // Families in registration order with their help lines.
  const std::vector<std::pair<std::string, std::string>>& families() const { return families_; }

  // Checks `params` against the command's parameters (see the file comment) and fills fallbacks.
  Result<Request> validate(const Command& command, const nlohmann::json& params) const;
  // validate, refuse HostPath parameters the session does not grant, then run the handler; an
  // exception escaping a handler becomes an error value (out of memory: LimitExceeded).
  Result<Output> call(std::string_view family, std::string_view verb, const nlohmann::json& params,
                      Session& session) const;

  // `permuzzle demo`: each family adds a section of real computed results, printed in order.
  void add_demo(std::string family, std::function<std::string()> section);
  const std::vector<std::pair<std::string, std::function<std::string()>>>& demos() const {
    return demos_;
  }

  // [{"family", "verb", "help", "params": [{"name", "type", "help", "positional", "required",
  //   "default", "choices"}]}] for GET /api/v1/commands and `permuzzle --json commands`.
  nlohmann::json describe() const;

 private:
  bool keeps(std::string_view family) const {
    return only_family_.empty() || family == only_family_;
  }

  std::string only_family_;  // "" = every family
  std::vector<std::pair<std::string, std::string>> families_;
  std::vector<Command> commands_;
  std::vector<std::pair<std::string, std::function<std::string()>>> demos_;
};

// Every command of every puzzle. Front ends build it once and keep it for the process.
Registry make_registry();
// The commands of one family, in the order make_registry() has them, built without the others'
// (a command line names one family: it starts in a fraction of the time); a name that is not a
// family gives every command.
Registry make_registry(std::string_view family);
// The families make_registry() has, by name.
bool is_family(std::string_view name);

// Converts one command-line value to the JSON the registry takes, exactly: "-1" for an Unsigned
// is an error, "99999999999999999999" for a BigInteger stays text, and so on.
Result<nlohmann::json> parse_cli_value(const Param& param, const std::string& text);

// Closest name by edit distance (for "did you mean ...?"), or "" when nothing is close.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

// Default directory of the committed data files ($PERMUZZLE_DATA, else the source tree's data/).
std::string default_data_dir();
// Default table cache: $PERMUZZLE_TABLES, else $XDG_CACHE_HOME/permuzzle, else
// $HOME/.cache/permuzzle.
std::string default_tables_dir();

// Registration of one family each (src/api/<family>.cpp).
void register_perm(Registry& registry);
void register_group(Registry& registry);
void register_sliding(Registry& registry);
void register_loopover(Registry& registry);
void register_triloop(Registry& registry);
void register_hanoi(Registry& registry);
void register_binary(Registry& registry);
void register_fifteen(Registry& registry);
void register_cube(Registry& registry);
void register_def(Registry& registry);
// `def bfs|solve` (def_search.cpp); adds the family `def` when register_def has not.
void register_def_search(Registry& registry);
// The benchmarks of no single family: `bench binary|hanoi` (puzzles_bench.cpp) and, through
// register_group_bench, `bench groups` (group_bench.cpp).
void register_bench(Registry& registry);
void register_group_bench(Registry& registry);
void register_words_bench(Registry& registry);  // `bench words` (words_bench.cpp)
// `bench cube` (cube_bench.cpp).
void register_cube_bench(Registry& registry);
// `bench limits` (limits_bench.cpp): every command's hard example under a time limit and a
// cancellation, with the measured overruns.
void register_limits_bench(Registry& registry);

}  // namespace permuzzle::api
