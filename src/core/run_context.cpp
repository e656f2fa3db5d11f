#include "permuzzle/core/run_context.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
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
  return make_error(std::string(what) + " needs about " + memory_text(estimate_bytes) +
                        ", more than the memory budget of " + memory_text(memory_budget_) +
                        " (raise it with --memory MB, or ask for less)",
                    {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
}

Status check_time_limit(double seconds, std::string_view what) {
  if (std::isfinite(seconds) && seconds > 0) return Ok{};
  std::string shown = std::isnan(seconds) ? "nan" : std::isinf(seconds) ? "inf" : [&] {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%g", seconds);
    return std::string(buffer);
  }();
  return make_error(std::string(what) + ": " + shown +
                    " is not a time limit: expected a positive, finite number of seconds (leave "
                    "the option out for no limit)");
}

std::uint64_t default_memory_budget() {
  long pages = ::sysconf(_SC_PHYS_PAGES);
  long page_size = ::sysconf(_SC_PAGE_SIZE);
  std::uint64_t physical =
      pages > 0 && page_size > 0 ? std::uint64_t(pages) * std::uint64_t(page_size) : 0;
  return std::max<std::uint64_t>(std::uint64_t(256) << 20, physical / 4 * 3);
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
