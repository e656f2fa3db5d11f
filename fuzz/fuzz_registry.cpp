// libFuzzer harness: HTTP request bodies into the registry, as `POST /api/v1/<family>/<verb>`
// reaches it through the server. Input: a first line "family/verb" picks the command (a line
// that names none picks one by its hash, so every mutation still reaches some command and the
// seeds keep their command when commands are added), the rest is the request body, parsed as
// the server parses it (empty: {}, else a JSON object). The call runs with the server's
// capabilities and short limits: no host paths, a 50 ms time limit, a 64 MB memory budget, one
// thread, and a table store without a directory (tables in memory, new for every input).
//
// Checked: no crash, leak or undefined behaviour; every error has a kind and a message (and a
// position inside its input); every answer (and a stopped run's partial answer) serialises as
// JSON the way the server sends it; and no command touches the disk where the client says: a
// string "$TMP" in the body is replaced by a fresh temporary directory, which must still be empty
// after the call (a checkpoint, an output path or a bench file named by the client is refused,
// never created).
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_common.hpp"
#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/table_store.hpp"

namespace {

using nlohmann::json;
using permuzzle::fuzz::check;

constexpr auto TIME_LIMIT = std::chrono::milliseconds(50);
constexpr std::uint64_t MEMORY_BUDGET = std::uint64_t(64) << 20;

// The process's registry and its temporary directory (created once, removed at exit).
struct Fixture {
  permuzzle::api::Registry registry = permuzzle::api::make_registry();
  std::filesystem::path tmp;

  Fixture() {
    std::string pattern = (std::filesystem::temp_directory_path() / "permuzzle-fuzz-XXXXXX");
    check(::mkdtemp(pattern.data()) != nullptr);
    tmp = pattern;
  }
  ~Fixture() {
    std::error_code ec;
    std::filesystem::remove_all(tmp, ec);
  }
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

// Every string "$TMP..." becomes the temporary directory's path with the same tail, so that
// seeds (and what the fuzzer derives from them) can name a path the harness watches.
void substitute_tmp(json& j, const std::string& tmp) {
  if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    if (s.starts_with("$TMP")) j = tmp + s.substr(4);
  } else if (j.is_structured()) {
    for (auto& item : j) substitute_tmp(item, tmp);
  }
}

// The server's parse_object: an empty body is {}, else one JSON object (errors are answers, 400).
bool parse_body(std::string_view body, json& out) {
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    out = json::object();
    return true;
  }
  try {
    out = json::parse(body);
  } catch (const json::exception&) {  // a syntax error, or a number no double holds (1e999999)
    return false;
  }
  return out.is_object();
}

void check_error(const permuzzle::Error& e) {
  permuzzle::fuzz::check_error(e);
  switch (e.kind) {
    case permuzzle::ErrorKind::InvalidInput:
    case permuzzle::ErrorKind::Unsolvable:
    case permuzzle::ErrorKind::LimitExceeded:
    case permuzzle::ErrorKind::Io:
    case permuzzle::ErrorKind::Cancelled:
      return;
    case permuzzle::ErrorKind::Internal:
      // An internal error is a bug of the engine (an exception escaped a handler).
      check(false);
  }
  check(false);  // not one of the kinds
}

// As the server sends an answer: invalid UTF-8 replaced, never an exception.
void check_serialises(const json& j) {
  check(j.is_object());
  (void)j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// The command "family/verb" names, else one chosen by the line's FNV-1a hash.
const permuzzle::api::Command& pick_command(const permuzzle::api::Registry& registry,
                                            std::string_view head) {
  if (const std::size_t slash = head.find('/'); slash != std::string_view::npos) {
    if (const auto* c = registry.find(head.substr(0, slash), head.substr(slash + 1))) return *c;
  }
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : head) hash = (hash ^ c) * 1099511628211ull;
  return registry.commands()[hash % registry.commands().size()];
}

bool directory_empty(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::is_empty(dir, ec) && !ec;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Fixture& f = fixture();
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t eol = input.find('\n');
  const std::string_view head = input.substr(0, eol);
  const std::string_view body = eol == std::string_view::npos ? "" : input.substr(eol + 1);
  const permuzzle::api::Command& command = pick_command(f.registry, head);
  json params;
  if (!parse_body(body, params)) return 0;  // the server answers 400 before the registry
  substitute_tmp(params, f.tmp.string());

  permuzzle::TableStore tables;  // no directory: nothing is written
  permuzzle::api::Session session{tables, permuzzle::RunContext{},
                                  permuzzle::api::default_data_dir()};
  session.run.with_time_limit(TIME_LIMIT).with_memory_budget(MEMORY_BUDGET).with_threads(1);
  check(!session.host_paths);

  auto out = f.registry.call(command.family, command.verb, params, session);
  if (!out) {
    check_error(out.error());
  } else {
    check_serialises(out->json);
    if (out->stopped) check_error(*out->stopped);
    for (const auto& a : out->artifacts) check(!a.param.empty());
  }
  check(directory_empty(f.tmp));
  return 0;
}
