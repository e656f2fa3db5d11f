#include "permuzzle/core/run_context.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <thread>

namespace permuzzle {

unsigned hardware_threads() {
  unsigned hardware = std::thread::hardware_concurrency();
  return hardware == 0 ? 1 : hardware;
}

unsigned RunContext::threads() const {
  return threads_ != 0 ? threads_ : hardware_threads();
}

bool RunContext::should_stop() const {
  if (stop_.stop_requested()) return true;
  return deadline_ && Clock::now() >= *deadline_;
}

Error RunContext::stop_error() const {
  if (stop_.stop_requested()) {
    return make_error("cancelled: the request was stopped before it finished", {},
                      Error::NO_POSITION, ErrorKind::Cancelled);
  }
  return make_error("time limit reached before the computation finished", {}, Error::NO_POSITION,
                    ErrorKind::LimitExceeded);
}

Status RunContext::check(std::uint64_t nodes) const {
  if (should_stop()) return stop_error();
  if (node_limit_ != 0 && nodes > node_limit_) {
    return make_error(
        "node limit of " + std::to_string(node_limit_) + " reached before the computation finished",
        {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  return Ok{};
}

Status RunContext::check_memory(std::uint64_t estimate_bytes, std::string_view what) const {
  if (memory_budget_ == 0 || estimate_bytes <= memory_budget_) return Ok{};
  std::string need = memory_text(estimate_bytes), budget = memory_text(memory_budget_);
  if (need == budget) {
    // Rounded alike ("1.1 GB, more than ... 1.1 GB"): the exact figures say which is larger.
    need += " (" + std::to_string(estimate_bytes) + " bytes)";
    budget += " (" + std::to_string(memory_budget_) + " bytes)";
  }
  return make_error(std::string(what) + " needs about " + need +
                        ", more than the memory budget of " + budget +
                        " (raise it with --memory MB, or ask for less)",
                    {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
}

Status check_time_limit(double seconds, std::string_view what) {
  if (std::isfinite(seconds) && seconds > 0) return Ok{};
  std::string shown = std::isnan(seconds)   ? "nan"
                      : std::isinf(seconds) ? "inf"
                                            : [&] {
                                                char buffer[64];
                                                std::snprintf(buffer, sizeof buffer, "%g", seconds);
                                                return std::string(buffer);
                                              }();
  return make_error(std::string(what) + ": " + shown +
                    " is not a time limit: expected a positive, finite number of seconds (leave "
                    "the option out for no limit)");
}

namespace {

// A number read from a cgroup file ("max" and unreadable files: no limit).
std::optional<std::uint64_t> read_limit(const std::string& path) {
  std::ifstream file(path);
  std::string text;
  if (!(file >> text) || text.empty() ||
      text.find_first_not_of("0123456789") != std::string::npos || text.size() > 19) {
    return std::nullopt;
  }
  return std::stoull(text);
}

// The smallest memory limit of the cgroups the process is in, and of their ancestors (a limit
// set on a parent binds its children): cgroup v2's memory.max and v1's memory.limit_in_bytes,
// through /proc/self/cgroup. Unlimited (v1 says so with a huge number) and unreadable: none.
std::optional<std::uint64_t> cgroup_memory_limit() {
  std::optional<std::uint64_t> least;
  auto consider = [&](const std::string& path) {
    auto limit = read_limit(path);
    if (limit && *limit < (std::uint64_t(1) << 60) && (!least || *limit < *least)) least = limit;
  };
  std::ifstream self("/proc/self/cgroup");
  std::string line;
  while (std::getline(self, line)) {
    // "0::/user.slice/x" (v2) or "4:memory:/docker/x" (v1).
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    std::string dir = line.substr(second + 1);
    const bool v2 = controllers.empty();
    if (!v2 && controllers.find("memory") == std::string::npos) continue;
    const std::string root = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
    const std::string file = v2 ? "/memory.max" : "/memory.limit_in_bytes";
    for (;;) {
      consider(root + (dir == "/" ? "" : dir) + file);
      if (dir.empty() || dir == "/") break;
      dir = dir.substr(0, std::max<std::size_t>(1, dir.rfind('/')));
    }
    // Inside a cgroup namespace the process's own cgroup is the mount's root.
    consider(root + file);
  }
  return least;
}

}  // namespace

std::uint64_t memory_limit_of_process() {
  long pages = ::sysconf(_SC_PHYS_PAGES);
  long page_size = ::sysconf(_SC_PAGE_SIZE);
  std::uint64_t limit = pages > 0 && page_size > 0 ? std::uint64_t(pages) * std::uint64_t(page_size)
                                                   : std::numeric_limits<std::uint64_t>::max();
  if (auto cgroup = cgroup_memory_limit()) limit = std::min(limit, *cgroup);
  rlimit address_space{};
  if (::getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY) {
    limit = std::min<std::uint64_t>(limit, address_space.rlim_cur);
  }
  return limit;
}

std::uint64_t default_memory_budget() {
  return std::max<std::uint64_t>(std::uint64_t(256) << 20, memory_limit_of_process() / 4 * 3);
}

std::string memory_text(std::uint64_t bytes) {
  constexpr const char* UNITS[] = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
  if (bytes < 1000) return std::to_string(bytes) + " bytes";
  double value = double(bytes);
  int unit = 0;
  while (value >= 1000 && unit < 6) {
    value /= 1000;
    ++unit;
  }
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, value < 10 ? "%.1f %s" : "%.0f %s",
                std::ceil(value * (value < 10 ? 10 : 1)) / (value < 10 ? 10 : 1), UNITS[unit]);
  return buffer;
}

}  // namespace permuzzle
