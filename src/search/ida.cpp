#include "permuzzle/search/ida.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace permuzzle::search {

namespace {

constexpr std::uint64_t NEVER = std::numeric_limits<std::uint64_t>::max();

std::uint64_t smaller_limit(std::uint64_t a, std::uint64_t b) {
  if (a == 0) return b;
  if (b == 0) return a;
  return std::min(a, b);
}

}  // namespace

IdaControl::IdaControl(const RunContext& run, const IdaOptions& options)
    : run_(run),
      interval_(std::max<std::uint64_t>(1, options.check_interval)),
      node_limit_(smaller_limit(options.node_limit, run.node_limit())) {
  next_check_ = node_limit_ != 0 ? std::min(interval_, node_limit_) : interval_;
}

bool IdaControl::poll(std::uint64_t nodes) {
  if (stopped_) return false;
  if (node_limit_ != 0 && nodes >= node_limit_) {
    stopped_ = node_limit_hit_ = true;
    next_check_ = 0;  // every later call comes back here
    return false;
  }
  if (run_.should_stop()) {
    stopped_ = true;
    next_check_ = 0;
    return false;
  }
  next_check_ = nodes > NEVER - interval_ ? NEVER : nodes + interval_;
  if (node_limit_ != 0) next_check_ = std::min(next_check_, node_limit_);
  return true;
}

Error IdaControl::stop_error(int bound) const {
  if (node_limit_hit_) {
    return make_error(fmt::format("node limit of {} reached before a solution was found (bound {})",
                                  node_limit_, bound),
                      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  return run_.stop_error();
}

namespace ida_detail {

Error exhausted_error(int bound) {
  return make_error(fmt::format("the search space is exhausted at bound {}: no solution", bound),
                    {}, Error::NO_POSITION, ErrorKind::Unsolvable);
}

Error bound_limit_error(int bound, int max_bound) {
  return make_error(
      fmt::format("the search would need a bound of {}, past the limit of {}", bound, max_bound),
      {}, Error::NO_POSITION, ErrorKind::LimitExceeded);
}

Error replay_error() {
  return make_error("solution failed verification by replay (internal error)", {},
                    Error::NO_POSITION, ErrorKind::Internal);
}

void report_iteration(const RunContext& run, const IdaOptions& options, int bound,
                      std::uint64_t nodes) {
  if (options.on_iteration) options.on_iteration(bound, nodes);
  if (run.wants_progress()) {
    run.report(Progress{options.phase, nodes, 0, fmt::format("bound {}", bound)});
  }
}

}  // namespace ida_detail

}  // namespace permuzzle::search
