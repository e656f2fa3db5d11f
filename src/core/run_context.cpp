#include "permuzzle/core/run_context.hpp"

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

}  // namespace permuzzle
