#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>

#include "cli.hpp"

namespace permuzzle::cli {

namespace {
// CLI-layer state only; the library has no globals.
bool transient_open = false;
std::chrono::steady_clock::time_point last_transient{};
}  // namespace

void progress(const Context& ctx, const std::string& line, bool transient) {
  if (ctx.quiet) return;
  static const bool terminal = ::isatty(STDERR_FILENO) == 1;  // CLI only: fixed for the process
  if (!terminal) {
    if (transient) {
      auto now = std::chrono::steady_clock::now();
      if (now - last_transient < std::chrono::seconds(1)) return;
      last_transient = now;
    }
    std::cerr << line << "\n" << std::flush;
    return;
  }
  if (transient) {
    std::cerr << "\r" << line << "\x1b[K" << std::flush;
    transient_open = true;
  } else {
    if (transient_open) std::cerr << "\n";
    transient_open = false;
    std::cerr << line << "\n" << std::flush;
  }
}

void end_progress(const Context& ctx) {
  if (ctx.quiet) return;
  if (transient_open) std::cerr << "\n" << std::flush;
  transient_open = false;
}

api::Session Context::session() const {
  api::Session s{*store, RunContext{}, api::default_data_dir()};
  s.host_paths = true;  // the CLI's user names paths on their own machine
  if (time_limit > 0) s.run.with_time_limit(std::chrono::duration<double>(time_limit));
  s.run.with_memory_budget(memory_mb ? memory_mb << 20 : default_memory_budget());
  const Context* self = this;
  s.run.with_progress([self](const Progress& p) {
    // Lines with a known total or an unfinished phase are transient (they overwrite themselves
    // on a terminal, and are rate-limited elsewhere); the rest are lasting lines.
    std::string line = p.message.empty() ? p.phase
                       : p.phase.empty() ? p.message
                                         : p.phase + ": " + p.message;
    bool transient = !p.phase.empty() && (p.total == 0 || p.done < p.total);
    progress(*self, line, transient);
  });
  return s;
}

}  // namespace permuzzle::cli
