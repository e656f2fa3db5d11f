// `permuzzle demo`: a short tour (well under 30 s) printing real results of every capability.
#include <CLI/CLI.hpp>
#include "cli.hpp"

namespace permuzzle::cli {

void add_demo_command(CLI::App& app, Context& ctx) {
  auto* demo = app.add_subcommand("demo", "A short tour of what permuzzle computes");
  set_action(ctx, demo, [&ctx]() -> Result<CommandOutput> {
    CommandOutput out;
    out.text = "permuzzle demo: every number below is computed now, not stored.\n";
    for (const auto& [family, section] : ctx.registry->demos()) {
      std::string text = section();
      if (!text.empty()) out.text += "\n" + text;
    }
    out.text +=
        "\nThe web app (play, solve and explore every puzzle and group in a browser):\n"
        "  permuzzle serve             # then open http://127.0.0.1:8080/\n"
        "  permuzzle serve --port 9000 # another port; --host ADDRESS to listen beyond this "
        "machine\n";
    out.json = {{"demo", out.text}};
    return out;
  });
}

void add_commands_command(CLI::App& app, Context& ctx) {
  auto* list = app.add_subcommand(
      "commands", "Every command with its parameters (the registry the web app and Python use)");
  set_action(ctx, list, [&ctx]() -> Result<CommandOutput> {
    CommandOutput out;
    out.json = {{"commands", ctx.registry->describe()}};
    for (const api::Command& c : ctx.registry->commands()) {
      std::string usage = c.family + " " + c.verb;
      for (const api::Param& p : c.params) {
        std::string name = p.positional ? p.name : "--" + p.name;
        usage += p.required ? " " + name : " [" + name + "]";
      }
      out.text += usage + "\n    " + c.help + "\n";
    }
    return out;
  });
}

// `serve` needs the web server, which only the permuzzle program links: from Python it is one
// clear error (exit 2), whatever its options. --help lists it as the program does.
void add_serve_refusal(CLI::App& app, Context& ctx) {
  CLI::App* serve = app.add_subcommand("serve", SERVE_HELP);
  serve->fallthrough(false);  // its options (--port ...) are its own, not the top level's
  serve->allow_extras();
  set_action(ctx, serve, []() -> Result<CommandOutput> {
    return make_error(
        "serve is not available from Python; run the permuzzle program instead (make build-cli, "
        "then build/release/permuzzle serve)");
  });
}

}  // namespace permuzzle::cli
