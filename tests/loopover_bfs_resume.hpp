// A Loopover whole-graph search stopped after a level, then resumed from its checkpoint: the
// run that loopover_bfs_test.cpp and loopover_symmetry_classes_test.cpp both check.
#pragma once

#include <filesystem>
#include <stop_token>
#include <string>

#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/loopover/bfs.hpp"

namespace permuzzle::loopover::test {

struct StoppedAndResumed {
  bool stopped_ok = false;  // what the stopped analyse() returned (a stop is an error)
  BfsStats partial;         // its options.partial
  Result<BfsStats> resumed;
};

// analyse(size, options) with checkpoints in a fresh `dir` and 2 threads, cancelled after level
// `stop_depth`, then the same search with --resume (2 threads, no stop).
inline StoppedAndResumed stop_and_resume(BoardSize size, BfsOptions options, const std::string& dir,
                                         int stop_depth) {
  std::filesystem::remove_all(dir);
  std::stop_source cancel;
  const RunContext cancellable = RunContext().with_threads(2).with_stop_token(cancel.get_token());
  options.checkpoint_dir = dir;
  options.run = &cancellable;
  options.on_level = [&](int depth, std::uint64_t, double) {
    if (depth == stop_depth) cancel.request_stop();
  };
  BfsStats partial;
  options.partial = &partial;
  const bool stopped_ok = analyse(size, options).ok();
  const RunContext unlimited = RunContext().with_threads(2);
  options.run = &unlimited;
  options.on_level = nullptr;
  options.resume = true;
  Result<BfsStats> resumed = analyse(size, options);
  return {stopped_ok, std::move(partial), std::move(resumed)};
}

}  // namespace permuzzle::loopover::test
