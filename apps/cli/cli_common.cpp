#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
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

namespace {

// The length of the valid UTF-8 sequence at the start of `text` (1..4), or 0 when its first byte
// does not start one (stray continuation bytes, overlong forms, surrogates, beyond U+10FFFF).
std::size_t utf8_sequence_length(std::string_view text, char32_t& code) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  char32_t min = 0;
  if (lead < 0x80) {
    code = lead;
    return 1;
  } else if ((lead & 0xE0) == 0xC0) {
    length = 2, code = lead & 0x1F, min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, code = lead & 0x0F, min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, code = lead & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i) & 0x3F);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

}  // namespace

std::string terminal_text(std::string_view text) {
  static constexpr char HEX[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  auto escape = [&](std::string_view bytes) {
    for (unsigned char b : bytes) {
      out += "\\x";
      out += HEX[b >> 4];
      out += HEX[b & 15];
    }
  };
  while (!text.empty()) {
    char32_t code = 0;
    std::size_t length = utf8_sequence_length(text, code);
    if (length == 0) {
      escape(text.substr(0, 1));
      text.remove_prefix(1);
      continue;
    }
    const bool control =
        (code < 0x20 && code != '\n' && code != '\t') || (code >= 0x7F && code <= 0x9F);
    if (control) {
      escape(text.substr(0, length));
    } else {
      out.append(text.substr(0, length));
    }
    text.remove_prefix(length);
  }
  return out;
}

void progress(const Context& ctx, const std::string& raw_line, bool transient) {
  if (ctx.quiet) return;
  const std::string line = terminal_text(raw_line);
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

std::string data_dir() {
  if (const char* dir = std::getenv("PERMUZZLE_DATA"); dir && *dir) return dir;
  // PERMUZZLE_INSTALL_DATA: the installed data directory relative to the installed program's
  // directory (CMake's install layout, e.g. ../share/permuzzle).
  std::error_code error;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path installed = program.parent_path() / PERMUZZLE_INSTALL_DATA;
    if (std::filesystem::is_directory(installed / "puzzles", error)) {
      return installed.lexically_normal().string();
    }
  }
  return api::default_data_dir();
}

api::Session Context::session() const {
  api::Session s{*store, RunContext{}, data_dir()};
  s.host_paths = true;  // the CLI's user names paths on their own machine
  if (time_limit > 0) s.run.with_time_limit(std::chrono::duration<double>(time_limit));
  s.run.with_memory_budget(memory_mb ? memory_mb << 20 : default_memory_budget());
  s.run.with_cluster(cluster);
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
