// The registry's commands as CLI11 subcommands: `permuzzle <family> <verb> [positionals]
// [--options]`. Positional parameters become positional arguments in order, the others
// `--name` options (with their one-letter aliases), flags are flags, and OutputPath parameters
// options whose value may be left out (meaning stdout). Values are kept as the text the user
// typed and converted exactly by api::parse_cli_value after parsing, so that "-1" for a count is
// an error naming the option instead of 2^64-1. A String or Strings value "-" is read from
// stdin and "@FILE" from the file ("@@x" is the literal "@x"); values in list notation "[2,3,1]"
// arrive verbatim (run.cpp keeps CLI11 from splitting them).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "cli.hpp"

namespace permuzzle::cli {

namespace {

// Text values of one command's parameters as CLI11 stored them.
struct Values {
  std::map<std::string, std::string> single;
  std::map<std::string, std::vector<std::string>> many;
  std::map<std::string, bool> flags;
  std::map<std::string, CLI::Option*> options;
  std::vector<std::string> in_former_place;  // options given in their former positional place
};

// Writes `content` to `path` through a temporary file and a rename, so that a failure never
// leaves a half-written file under the real name.
Status write_atomically(const std::string& path, const std::string& content) {
  std::string temp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(temp, ec);
      return make_error("cannot write " + path, {}, Error::NO_POSITION, ErrorKind::Io);
    }
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    return make_error("cannot write " + path + ": " + ec.message(), {}, Error::NO_POSITION,
                      ErrorKind::Io);
  }
  return Ok{};
}

// The contents of an InputFile parameter's file ("-" = stdin), at most MAX_INPUT_FILE_BYTES.
Result<std::string> read_input_file(const std::string& path) {
  const std::string name = path == "-" ? std::string("standard input") : path;
  auto io_error = [&](const std::string& what) {
    return make_error("cannot read " + name + ": " + what, {}, Error::NO_POSITION, ErrorKind::Io);
  };
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return io_error("it is a directory");
    file.open(path, std::ios::binary);
    if (!file) return io_error("no such file or no permission");
    in = &file;
  }
  std::string text;
  char buffer[1 << 16];
  while (in->read(buffer, sizeof buffer) || in->gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in->gcount()));
    if (text.size() > api::MAX_INPUT_FILE_BYTES) {
      return make_error(
          name + " is larger than " + std::to_string(api::MAX_INPUT_FILE_BYTES >> 20) + " MiB", {},
          Error::NO_POSITION, ErrorKind::LimitExceeded);
    }
  }
  if (in->bad()) return io_error("read error");
  return text;
}

// The value of a String or Strings parameter as typed, or read from where it points: "-" is
// stdin, "@FILE" the file's contents (for inputs longer than the system's argument limit, such
// as a long move sequence), "@@text" the literal "@text". What is read is at most
// MAX_INPUT_FILE_BYTES, its trailing line breaks removed. Stdin can be read once per command.
Result<std::string> expand_value(const api::Param& p, const std::string& text, bool& stdin_read) {
  const std::string option = p.positional ? p.name : "--" + p.name;
  auto named = [&](Error e) {
    e.message = option + ": " + e.message;
    return e;
  };
  std::string source;
  if (text == "-") {
    if (stdin_read) {
      return make_error(option +
                        ": '-' (standard input) was already given to another value; "
                        "standard input can be read once (use @FILE for the others)");
    }
    stdin_read = true;
    source = "-";
  } else if (text.starts_with("@@")) {
    return text.substr(1);
  } else if (text.starts_with("@")) {
    source = text.substr(1);
    if (source.empty()) {
      return make_error(option +
                        ": '@' needs a file name (@FILE reads the value from FILE; "
                        "@@text is the literal @text)");
    }
  } else {
    return text;
  }
  auto content = read_input_file(source);
  if (!content) return named(content.error());
  while (!content->empty() && (content->back() == '\n' || content->back() == '\r')) {
    content->pop_back();
  }
  return std::move(*content);
}

// Turns the stored text into the JSON parameters of the call.
Result<nlohmann::json> collect(const api::Command& command, const Values& values) {
  nlohmann::json params = nlohmann::json::object();
  bool stdin_read = false;
  for (const api::Param& p : command.params) {
    const CLI::Option* opt = values.options.at(p.name);
    if (opt->count() == 0) continue;
    if (p.type == api::ParamType::Flag) {
      params[p.name] = values.flags.at(p.name);
      continue;
    }
    if (p.type == api::ParamType::Strings) {
      nlohmann::json list = nlohmann::json::array();
      for (const std::string& item : values.many.at(p.name)) {
        auto value = expand_value(p, item, stdin_read);
        if (!value) return value.error();
        list.push_back(std::move(*value));
      }
      params[p.name] = std::move(list);
      continue;
    }
    std::string text = values.single.at(p.name);
    if (p.type == api::ParamType::OutputPath && text.empty()) text = "-";
    if (p.type == api::ParamType::InputFile) {
      // A keyword of the parameter (e.g. `--phases auto`) is passed as it is, not read.
      if (std::find(p.choices.begin(), p.choices.end(), text) != p.choices.end()) {
        params[p.name] = {{"name", text}, {"text", text}};
        continue;
      }
      if (text == "-") {
        if (stdin_read) {
          return make_error("--" + p.name +
                            ": standard input was already given to another value; it can be "
                            "read once");
        }
        stdin_read = true;
      }
      auto content = read_input_file(text);
      if (!content) return content.error();
      params[p.name] = {{"name", text}, {"text", std::move(*content)}};
      continue;
    }
    if (p.type == api::ParamType::String) {
      auto value = expand_value(p, text, stdin_read);
      if (!value) return value.error();
      text = std::move(*value);
    }
    auto v = api::parse_cli_value(p, text);
    if (!v) return v.error();
    params[p.name] = std::move(*v);
  }
  return params;
}

// Where each artifact goes: a file, or stdout in place of the text (with --json: into the JSON).
Status deliver_artifacts(const Context& ctx, const nlohmann::json& params, api::Output& out) {
  // Under mpirun every process has the same artifacts; process 0 writes them.
  if (ctx.cluster != nullptr && ctx.cluster->rank() != 0) return Ok{};
  for (const api::Artifact& a : out.artifacts) {
    std::string path = params.value(a.param, std::string("-"));
    if (path == "-") {
      if (ctx.json) {
        out.json[a.param] = a.content;
      } else {
        out.text = a.content;
      }
      continue;
    }
    if (auto ok = write_atomically(path, a.content); !ok) return ok.error();
    out.text += a.what + " written to " + path + "\n";
    out.json[a.param] = path;
  }
  return Ok{};
}

void add_command(CLI::App& family, Context& ctx, const api::Command& command) {
  CLI::App* sub = family.add_subcommand(command.verb, command.help);
  auto values = std::make_shared<Values>();
  for (const api::Param& p : command.params) {
    std::string help = p.help;
    if (!p.fallback.is_null() && p.type != api::ParamType::Flag) {
      help += " (default " +
              (p.fallback.is_string() ? p.fallback.get<std::string>() : p.fallback.dump()) + ")";
    }
    if (!p.choices.empty()) {
      std::string list;
      for (const auto& c : p.choices) list += (list.empty() ? "" : "|") + c;
      help += " [" + list + "]";
    }
    std::string name =
        p.positional ? p.name
                     : (p.short_name ? std::string("-") + p.short_name + "," : "") + "--" + p.name;
    CLI::Option* opt = nullptr;
    switch (p.type) {
      case api::ParamType::Flag:
        opt = sub->add_flag(name, values->flags[p.name], help);
        break;
      case api::ParamType::Strings:
        opt = sub->add_option(name, values->many[p.name], help);
        break;
      case api::ParamType::OutputPath:
        opt = sub->add_option(name, values->single[p.name], help + " ('-' or no value: stdout)")
                  ->expected(0, 1);
        break;
      default:
        opt = sub->add_option(name, values->single[p.name], help);
        // Numbers such as -5 are values here, not options.
        break;
    }
    if (p.required) opt->required();
    values->options[p.name] = opt;
  }
  // Options that were positional (`loopover random 3x5`, `cube apply "R U"`): still taken there
  // during the transition to one argument style, in their former order, and noted.
  for (const api::Param& p : command.params) {
    if (!p.positional_alias) continue;
    CLI::Option* target = values->options.at(p.name);
    std::string shown = p.name;
    for (char& c : shown) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    sub->add_option_function<std::string>(
           shown,
           [target, values, name = p.name](const std::string& value) {
             // The value is stored where the option keeps its own (a result added to an option
             // while a positional argument is parsed does not reach its variable in CLI11 2.1);
             // the result counts it as given (`required`, collect()).
             values->single[name] = value;
             target->add_result(value);
             values->in_former_place.push_back(name);
           },
           "The same as --" + p.name + " (its former place; give it as --" + p.name + ")")
        ->trigger_on_parse();
  }
  // Group commands: `--generators FILE|-` (the spelling GAP users expect) is the CLI's name for
  // `--generators-file`; the positional `generators` keeps the permutations typed inline.
  if (values->options.contains("generators") && values->options.contains("generators-file")) {
    CLI::Option* file = values->options.at("generators-file");
    sub->add_option_function<std::string>(
           "--generators", [file](const std::string& path) { file->add_result(path); },
           "Read the generators from FILE or '-' (stdin): the same as --generators-file")
        ->trigger_on_parse();
  }
  const api::Command* cmd = &command;
  sub->callback([&ctx, cmd, values] {
    ctx.action = [&ctx, cmd, values]() -> Result<CommandOutput> {
      if (!ctx.quiet) {
        for (const std::string& name : values->in_former_place) {
          std::cerr << "permuzzle: note: give the " << name << " as --" << name
                    << " VALUE; its positional form is still read, but not for long\n";
        }
      }
      auto params = collect(*cmd, *values);
      if (!params) return params.error();
      api::Session session = ctx.session();
      auto out = ctx.registry->call(cmd->family, cmd->verb, *params, session);
      if (!out) return out.error();
      if (auto ok = deliver_artifacts(ctx, *params, *out); !ok) return ok.error();
      CommandOutput result;
      result.text = std::move(out->text);
      result.json = std::move(out->json);
      result.stopped = std::move(out->stopped);
      return result;
    };
  });
}

}  // namespace

void add_registry_commands(CLI::App& app, Context& ctx) {
  for (const auto& [family, help] : ctx.registry->families()) {
    CLI::App* sub = app.add_subcommand(family, help);
    sub->require_subcommand(1);
    for (const api::Command& c : ctx.registry->commands()) {
      if (c.family == family) add_command(*sub, ctx, c);
    }
  }
}

}  // namespace permuzzle::cli
