#include "permuzzle/api/registry.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>
#include <stdexcept>
#include <system_error>

#include "permuzzle/core/cluster.hpp"

namespace permuzzle::api {

namespace {

Error param_error(const std::string& name, const std::string& what) {
  return make_error("parameter '" + name + "': " + what);
}

bool is_decimal(std::string_view text) {
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// A decimal integer without '+' and leading zeros ("-0" is "0"): what GMP and every handler
// read as decimal (GMP's default base would read "010" as octal 8 and refuse "+5" and "09").
std::string canonical_decimal(std::string_view text) {
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  const std::size_t first = text.find_first_not_of('0');
  if (first == std::string_view::npos) return "0";
  return (negative ? "-" : "") + std::string(text.substr(first));
}

std::string range_text(const Param& p) {
  std::string lo = p.min ? std::to_string(*p.min) : (p.type == ParamType::Unsigned ? "0" : "");
  std::string hi = p.max ? std::to_string(*p.max) : "";
  if (!lo.empty() && !hi.empty()) return "from " + lo + " to " + hi;
  if (!lo.empty()) return "at least " + lo;
  return "at most " + hi;
}

// Checks one present value and returns it normalised (BigInteger as text).
Result<nlohmann::json> check_value(const Param& p, const nlohmann::json& v) {
  switch (p.type) {
    case ParamType::String:
      if (!v.is_string()) return param_error(p.name, "expected a string");
      if (!p.choices.empty() &&
          std::find(p.choices.begin(), p.choices.end(), v.get<std::string>()) == p.choices.end()) {
        std::string list;
        for (const auto& c : p.choices) list += (list.empty() ? "" : ", ") + c;
        return param_error(p.name,
                           "'" + v.get<std::string>() + "' is not one of the choices: " + list);
      }
      return v;
    case ParamType::Strings: {
      if (v.is_string()) return nlohmann::json::array({v});
      if (!v.is_array()) return param_error(p.name, "expected an array of strings");
      for (const auto& item : v) {
        if (!item.is_string()) return param_error(p.name, "expected an array of strings");
      }
      return v;
    }
    case ParamType::Integer: {
      if (!v.is_number_integer()) return param_error(p.name, "expected an integer");
      if (v.is_number_unsigned() &&
          v.get<std::uint64_t>() >
              static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        return param_error(p.name, "the integer is too large");
      }
      std::int64_t x = v.get<std::int64_t>();
      if ((p.min && x < *p.min) || (p.max && x >= 0 && static_cast<std::uint64_t>(x) > *p.max)) {
        return param_error(p.name,
                           std::to_string(x) + " is out of range: expected " + range_text(p));
      }
      return v;
    }
    case ParamType::Unsigned: {
      if (!v.is_number_integer()) return param_error(p.name, "expected a non-negative integer");
      if (!v.is_number_unsigned() && v.get<std::int64_t>() < 0) {
        return param_error(p.name, std::to_string(v.get<std::int64_t>()) +
                                       " is negative: expected a non-negative integer");
      }
      std::uint64_t x = v.get<std::uint64_t>();
      if ((p.min && *p.min > 0 && x < static_cast<std::uint64_t>(*p.min)) ||
          (p.max && x > *p.max)) {
        return param_error(p.name,
                           std::to_string(x) + " is out of range: expected " + range_text(p));
      }
      return nlohmann::json(x);
    }
    case ParamType::BigInteger:
      if (v.is_number_integer()) return nlohmann::json(v.dump());
      if (v.is_string() && is_decimal(v.get<std::string>())) {
        return nlohmann::json(canonical_decimal(v.get<std::string>()));
      }
      return param_error(p.name, "expected an integer (decimal digits, any length)");
    case ParamType::Number:
      if (!v.is_number()) return param_error(p.name, "expected a number");
      // JSON text cannot carry NaN or infinity, but a front end's own values can (Python's
      // float('inf')): refused here for every front end.
      if (!std::isfinite(v.get<double>())) return param_error(p.name, "expected a finite number");
      return v;
    case ParamType::Flag:
      if (!v.is_boolean()) return param_error(p.name, "expected true or false");
      return v;
    case ParamType::HostPath:
      if (!v.is_string() || v.get_ref<const std::string&>().empty()) {
        return param_error(p.name, "expected a path");
      }
      return v;
    case ParamType::OutputPath:
      if (v.is_boolean()) return v.get<bool>() ? nlohmann::json("-") : nlohmann::json(nullptr);
      if (!v.is_string()) return param_error(p.name, "expected a path or true");
      return v;
    case ParamType::InputFile: {
      // Normalised to {"name", "text"}.
      nlohmann::json text, name = p.name;
      if (v.is_string()) {
        text = v;
      } else if (v.is_object() && v.contains("text") && v.at("text").is_string() &&
                 (!v.contains("name") || v.at("name").is_string()) &&
                 v.size() == (v.contains("name") ? 2u : 1u)) {
        text = v.at("text");
        if (v.contains("name")) name = v.at("name");
      } else {
        return param_error(p.name, "expected the file's text as a string, or {\"name\", \"text\"}");
      }
      if (text.get_ref<const std::string&>().size() > MAX_INPUT_FILE_BYTES) {
        return make_error("parameter '" + p.name + "': the file is larger than " +
                              std::to_string(MAX_INPUT_FILE_BYTES >> 20) + " MiB",
                          {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
      }
      return nlohmann::json{{"name", name}, {"text", text}};
    }
  }
  return v;
}

}  // namespace

std::string_view type_name(ParamType type) {
  switch (type) {
    case ParamType::String:
      return "string";
    case ParamType::Strings:
      return "strings";
    case ParamType::Integer:
      return "integer";
    case ParamType::Unsigned:
      return "unsigned";
    case ParamType::BigInteger:
      return "big-integer";
    case ParamType::Number:
      return "number";
    case ParamType::Flag:
      return "flag";
    case ParamType::OutputPath:
      return "output";
    case ParamType::InputFile:
      return "input-file";
    case ParamType::HostPath:
      return "host-path";
  }
  return "string";
}

// --- Request -------------------------------------------------------------------------------

bool Request::has(const std::string& name) const {
  auto it = params_.find(name);
  return it != params_.end() && !it->is_null();
}
std::string Request::string(const std::string& name) const {
  return has(name) ? params_.at(name).get<std::string>() : std::string();
}
std::vector<std::string> Request::strings(const std::string& name) const {
  return has(name) ? params_.at(name).get<std::vector<std::string>>() : std::vector<std::string>{};
}
std::int64_t Request::integer(const std::string& name) const {
  return has(name) ? params_.at(name).get<std::int64_t>() : 0;
}
std::uint64_t Request::unsigned_integer(const std::string& name) const {
  return has(name) ? params_.at(name).get<std::uint64_t>() : 0;
}
std::string Request::big_integer(const std::string& name) const {
  return has(name) ? params_.at(name).get<std::string>() : std::string("0");
}
double Request::number(const std::string& name) const {
  return has(name) ? params_.at(name).get<double>() : 0.0;
}
bool Request::flag(const std::string& name) const {
  return has(name) && params_.at(name).get<bool>();
}
InputText Request::input_file(const std::string& name) const {
  if (!has(name)) return {};
  const nlohmann::json& v = params_.at(name);
  return {v.at("name").get<std::string>(), v.at("text").get<std::string>()};
}

// --- Registry ------------------------------------------------------------------------------

void Registry::add_family(std::string family, std::string help) {
  if (!keeps(family)) return;
  families_.emplace_back(std::move(family), std::move(help));
}

void Registry::add(Command command) {
  if (!keeps(command.family)) return;
  assert(find(command.family, command.verb) == nullptr);
  // Every command's thread count is checked here, once: from 1 to MAX_THREADS whatever the
  // command declared (a narrower range it gives stays), so that no handler ever tries to start
  // thousands of threads (or 2^64-1, wrapped to an unsigned) and dies when the system refuses.
  for (Param& p : command.params) {
    if (p.name != "threads") continue;
    assert(p.type == ParamType::Unsigned);
    p.min = std::max<std::int64_t>(p.min.value_or(1), 1);
    p.max = std::min<std::uint64_t>(p.max.value_or(MAX_THREADS), MAX_THREADS);
  }
  commands_.push_back(std::move(command));
}

void Registry::add_demo(std::string family, std::function<std::string()> section) {
  if (!keeps(family)) return;
  demos_.emplace_back(std::move(family), std::move(section));
}

const Command* Registry::find(std::string_view family, std::string_view verb) const {
  for (const Command& c : commands_) {
    if (c.family == family && c.verb == verb) return &c;
  }
  return nullptr;
}

Result<Request> Registry::validate(const Command& command, const nlohmann::json& params) const {
  if (!params.is_object() && !params.is_null()) {
    return make_error("the parameters of '" + command.family + " " + command.verb +
                      "' must be a JSON object");
  }
  nlohmann::json out = nlohmann::json::object();
  std::vector<std::string> names;
  for (const Param& p : command.params) names.push_back(p.name);
  if (params.is_object()) {
    for (auto it = params.begin(); it != params.end(); ++it) {
      if (std::find(names.begin(), names.end(), it.key()) == names.end()) {
        std::string hint = closest_name(it.key(), names);
        return make_error("unknown parameter '" + it.key() + "' for '" + command.family + " " +
                          command.verb + "'" +
                          (hint.empty() ? std::string() : "; did you mean '" + hint + "'?"));
      }
    }
  }
  for (const Param& p : command.params) {
    const nlohmann::json* v = nullptr;
    if (params.is_object()) {
      auto it = params.find(p.name);
      if (it != params.end() && !it->is_null()) v = &*it;
    }
    if (!v) {
      if (p.required) return param_error(p.name, "is required: " + p.help);
      if (!p.fallback.is_null()) out[p.name] = p.fallback;
      continue;
    }
    auto checked = check_value(p, *v);
    if (!checked) return checked.error();
    if (!checked->is_null()) out[p.name] = std::move(*checked);
  }
  return Request(std::move(out));
}

Result<Output> Registry::call(std::string_view family, std::string_view verb,
                              const nlohmann::json& params, Session& session) const {
  const Command* command = find(family, verb);
  if (!command) {
    std::vector<std::string> verbs;
    bool family_known = false;
    for (const Command& c : commands_) {
      if (c.family == family) {
        family_known = true;
        verbs.push_back(c.verb);
      }
    }
    if (!family_known) {
      std::vector<std::string> fams;
      for (const auto& f : families_) fams.push_back(f.first);
      std::string hint = closest_name(std::string(family), fams);
      return make_error("unknown command '" + std::string(family) + "'" +
                        (hint.empty() ? std::string() : "; did you mean '" + hint + "'?"));
    }
    std::string hint = closest_name(std::string(verb), verbs);
    return make_error("unknown command '" + std::string(verb) + "' of '" + std::string(family) +
                      "'" + (hint.empty() ? std::string() : "; did you mean '" + hint + "'?"));
  }
  // Step 1. The parameters, exactly.
  auto request = validate(*command, params);
  if (!request) return request.error();
  // Step 2. Host paths are a capability of the front end, checked here once for every command.
  if (!session.host_paths) {
    for (const Param& p : command->params) {
      if (p.type == ParamType::HostPath && request->has(p.name)) {
        return make_error("parameter '" + p.name +
                          "' names a path on the server's disk, which this front end does not "
                          "grant to its clients (use the command line for it)");
      }
    }
  }
  // Only the commands written for it share their work over an MPI job's processes.
  if (const Cluster* cluster = session.run.cluster();
      cluster != nullptr && cluster->size() > 1 && !command->distributed) {
    return make_error("'" + command->family + " " + command->verb + "' does not run over " +
                      std::to_string(cluster->size()) +
                      " processes (under mpirun only 'def bfs' and 'bench bfs-scale' share "
                      "their work); run it without mpirun or with -np 1");
  }
  // A command's own `memory` option (MB) is its budget, within the front end's.
  if (request->has("memory") && request->json().at("memory").is_number_unsigned()) {
    const std::uint64_t mb = request->unsigned_integer("memory");
    const std::uint64_t asked = mb > (~std::uint64_t(0) >> 20) ? ~std::uint64_t(0) : mb << 20;
    const std::uint64_t budget = session.run.memory_budget();
    session.run.with_memory_budget(budget ? std::min(budget, asked) : asked);
  }
  // Step 3. The handler; what escapes it is still an answer, not a crash.
  try {
    return command->handler(*request, session);
  } catch (const std::bad_alloc&) {
    return make_error("out of memory: '" + command->family + " " + command->verb +
                          "' needs more memory than this machine can give (ask for less)",
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  } catch (const std::system_error& e) {
    // The system refused a resource (a thread, above all): an answer over a limit, not a crash.
    return make_error("'" + command->family + " " + command->verb +
                          "' could not get what it needs from the system (" + e.what() +
                          "); ask for fewer threads or less work",
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  } catch (const std::length_error&) {
    return make_error("'" + command->family + " " + command->verb +
                          "' asked for a list larger than memory can hold (ask for less)",
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  } catch (const std::exception& e) {
    return make_error(
        "internal error in '" + command->family + " " + command->verb + "': " + e.what(), {},
        Error::NO_POSITION, ErrorKind::Internal);
  }
}

nlohmann::json Registry::describe() const {
  nlohmann::json list = nlohmann::json::array();
  for (const Command& c : commands_) {
    nlohmann::json params = nlohmann::json::array();
    for (const Param& p : c.params) {
      nlohmann::json d = {{"name", p.name},
                          {"type", type_name(p.type)},
                          {"help", p.help},
                          {"positional", p.positional},
                          {"required", p.required}};
      if (!p.fallback.is_null()) d["default"] = p.fallback;
      if (!p.choices.empty()) d["choices"] = p.choices;
      if (p.min) d["min"] = *p.min;
      if (p.max) d["max"] = *p.max;
      params.push_back(std::move(d));
    }
    list.push_back({{"family", c.family},
                    {"verb", c.verb},
                    {"help", c.help},
                    {"long_running", c.long_running},
                    {"cost", c.cost == Cost::Cheap ? "cheap" : "expensive"},
                    {"params", std::move(params)}});
  }
  return list;
}

// --- command-line values --------------------------------------------------------------------

Result<nlohmann::json> parse_cli_value(const Param& p, const std::string& text) {
  auto bad = [&](const std::string& what) {
    return make_error("--" + p.name + ": " + what, text, 0);
  };
  switch (p.type) {
    case ParamType::String:
    case ParamType::Strings:
    case ParamType::OutputPath:
    case ParamType::InputFile:
    case ParamType::HostPath:
      return nlohmann::json(text);
    case ParamType::Integer: {
      std::int64_t x = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
      if (ec == std::errc::result_out_of_range) return bad("the integer does not fit in 64 bits");
      if (ec != std::errc() || end != text.data() + text.size()) return bad("expected an integer");
      return nlohmann::json(x);
    }
    case ParamType::Unsigned: {
      if (!text.empty() && text[0] == '-') {
        return bad("a negative value is not allowed: expected a non-negative integer");
      }
      std::uint64_t x = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
      if (ec == std::errc::result_out_of_range) {
        return bad("the integer does not fit in 64 bits (at most 18446744073709551615)");
      }
      if (ec != std::errc() || end != text.data() + text.size()) {
        return bad("expected a non-negative integer");
      }
      return nlohmann::json(x);
    }
    case ParamType::BigInteger:
      if (!is_decimal(text)) return bad("expected an integer (decimal digits)");
      return nlohmann::json(text);
    case ParamType::Number: {
      char* end = nullptr;
      double x = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size()) return bad("expected a number");
      // JSON has no NaN or infinity (they would reach the handler as null): refused here, as
      // the other front ends cannot send them either.
      if (!std::isfinite(x)) return bad("expected a finite number");
      return nlohmann::json(x);
    }
    case ParamType::Flag:
      return nlohmann::json(true);
  }
  return nlohmann::json(text);
}

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (const std::string& c : candidates) {
    // Optimal string alignment distance (edits and swaps of neighbours), full table: names are
    // short.
    const std::size_t n = name.size(), m = c.size();
    std::vector<std::vector<std::size_t>> dist(n + 1, std::vector<std::size_t>(m + 1));
    for (std::size_t i = 0; i <= n; ++i) dist[i][0] = i;
    for (std::size_t j = 0; j <= m; ++j) dist[0][j] = j;
    for (std::size_t i = 1; i <= n; ++i) {
      for (std::size_t j = 1; j <= m; ++j) {
        dist[i][j] = std::min({dist[i - 1][j] + 1, dist[i][j - 1] + 1,
                               dist[i - 1][j - 1] + (name[i - 1] != c[j - 1])});
        if (i > 1 && j > 1 && name[i - 1] == c[j - 2] && name[i - 2] == c[j - 1]) {
          dist[i][j] = std::min(dist[i][j], dist[i - 2][j - 2] + 1);
        }
      }
    }
    std::size_t d = dist[n][m];
    bool prefix = c.rfind(name, 0) == 0 && !name.empty();
    if (prefix) d = std::min<std::size_t>(d, 1);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  // Close enough: at most a third of the name wrong (and at least one edit allowed).
  if (best_distance <= std::max<std::size_t>(1, name.size() / 3)) return best;
  return "";
}

std::string default_data_dir() {
  if (const char* dir = std::getenv("PERMUZZLE_DATA"); dir && *dir) return dir;
  return PERMUZZLE_DATA_DIR;
}

std::string default_tables_dir() {
  if (const char* dir = std::getenv("PERMUZZLE_TABLES"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return std::string(xdg) + "/permuzzle";
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::string(home) + "/.cache/permuzzle";
  }
  return ".permuzzle-tables";
}

namespace {

using RegisterFunction = void (*)(Registry&);

void register_bench_family(Registry& r) {
  r.add_family("bench", "Benchmarks on published instances, with checks");
}

// Every register function in make_registry()'s order. Some add commands of more than one family
// (register_sliding adds `bench sliding`, register_def adds `loopover export` and `cube
// export`): family_sources() names, for each family, every function that adds to it.
constexpr RegisterFunction ALL_REGISTRATIONS[] = {
    register_perm,    register_group,      register_sliding,     register_loopover,
    register_triloop, register_hanoi,      register_binary,      register_fifteen,
    register_cube,    register_def,        register_def_search,  register_bench_family,
    register_bench,   register_cube_bench, register_limits_bench};

struct FamilySources {
  std::string_view family;
  std::vector<RegisterFunction> functions;  // in ALL_REGISTRATIONS's order
};

std::vector<FamilySources> family_sources() {
  return {
      {"perm", {register_perm}},
      {"group", {register_group}},
      {"sliding", {register_sliding}},
      {"loopover", {register_loopover, register_def}},
      {"triloop", {register_triloop}},
      {"hanoi", {register_hanoi}},
      {"binary", {register_binary}},
      {"fifteen", {register_fifteen}},
      {"cube", {register_cube, register_def}},
      {"cube2", {register_cube}},
      {"def", {register_def, register_def_search}},
      {"bench",
       {register_sliding, register_loopover, register_def_search, register_bench_family,
        register_bench, register_cube_bench, register_limits_bench}},
  };
}

}  // namespace

Registry make_registry() {
  Registry r;
  for (RegisterFunction add : ALL_REGISTRATIONS) add(r);
  return r;
}

Registry make_registry(std::string_view family) {
  for (const FamilySources& sources : family_sources()) {
    if (sources.family != family) continue;
    Registry r{std::string(family)};
    for (RegisterFunction add : sources.functions) add(r);
    return r;
  }
  return make_registry();
}

bool is_family(std::string_view name) {
  for (const FamilySources& sources : family_sources()) {
    if (sources.family == name) return true;
  }
  return false;
}

}  // namespace permuzzle::api
