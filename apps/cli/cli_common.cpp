#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>

#include "cli.hpp"

namespace permuzzle::cli {

namespace {
bool transient_open = false;  // CLI-layer state only; the library has no globals
}

void progress(const Context& ctx, const std::string& line, bool transient) {
  if (ctx.quiet) return;
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
  if (const char* dir = std::getenv("PERMUZZLE_DATA")) return dir;
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

TableStore& table_store(const std::string& dir) {
  // CLI-layer state: one store per directory for the whole process.
  static std::map<std::string, std::unique_ptr<TableStore>> stores;
  const std::string path = dir.empty() ? default_tables_dir() : dir;
  auto& store = stores[path];
  if (!store) store = std::make_unique<TableStore>(path);
  return *store;
}

}  // namespace permuzzle::cli
