// `permuzzle demo`: a short tour (well under 30 s) printing real results of every capability.
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
    out.json = {{"demo", out.text}};
    return out;
  });
}

}  // namespace permuzzle::cli
