// Long computations stop on the run context's stop token and deadline, within a few
// milliseconds of the request, with the run's error.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "permuzzle/core/run_context.hpp"
#include "permuzzle/puzzles/loopover/bfs.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"
#include "permuzzle/puzzles/sliding/solver.hpp"

namespace permuzzle::sliding {
namespace cancel_test {

// Korf's 24-puzzle instance 1 (data/korf24.txt): far beyond Manhattan-distance IDA*'s reach.
Position hard_start() {
  auto p = parse_position(
      "14 5 9 2 18 / 8 23 19 12 17 / 15 0 10 20 4 / 6 11 21 1 7 / 24 3 16 22 13", BoardSize{5, 5});
  EXPECT_TRUE(p.ok());
  return *p;
}

TEST(SlidingCancel, StopTokenEndsTheSearchQuickly) {
  std::stop_source source;
  RunContext run;
  run.with_stop_token(source.get_token());
  SolveOptions options;
  options.heuristic = Heuristic::Manhattan;
  options.run = &run;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    source.request_stop();
  });
  Stopwatch watch;
  auto r = solve(BoardSize{5, 5}, hard_start(), blank_first_goal(BoardSize{5, 5}), options);
  const double seconds = watch.seconds();
  stopper.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Cancelled);
  EXPECT_LT(seconds, 1.2);
}

TEST(SlidingCancel, DeadlineGivesLimitExceeded) {
  RunContext run;
  run.with_time_limit(std::chrono::milliseconds(150));
  SolveOptions options;
  options.heuristic = Heuristic::LinearConflict;
  options.run = &run;
  Stopwatch watch;
  auto r = solve(BoardSize{5, 5}, hard_start(), blank_first_goal(BoardSize{5, 5}), options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::LimitExceeded);
  EXPECT_LT(watch.seconds(), 1.2);
}

}  // namespace cancel_test
}  // namespace permuzzle::sliding

namespace permuzzle::loopover {
namespace cancel_test {

TEST(LoopoverBfsCancel, TimeLimitStopsTheWholeGraphSearch) {
  RunContext run;
  run.with_time_limit(std::chrono::milliseconds(300));
  BfsOptions options;
  options.run = &run;
  Stopwatch watch;
  auto table = DistanceTable::build(BoardSize{3, 4}, options);  // 26 s to the end
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.error().kind, ErrorKind::LimitExceeded);
  EXPECT_LT(watch.seconds(),
            5.0);  // far below the 26 s of the whole search, even on a loaded machine
}

}  // namespace cancel_test
}  // namespace permuzzle::loopover

namespace permuzzle {
namespace cancel_test {

// A refusal whose estimate and budget round to the same text says the exact figures, so the
// message never reads "needs 1.1 GB, more than the budget of 1.1 GB".
TEST(MemoryBudget, RefusalsThatRoundAlikeGiveTheExactFigures) {
  RunContext run;
  run.with_memory_budget(std::uint64_t{1000} << 20);  // --memory 1000: 1.05 GB
  const Status near = run.check_memory(std::uint64_t{1'090'000'000}, "the table");
  ASSERT_FALSE(near.ok());
  EXPECT_NE(near.error().message.find("1090000000 bytes"), std::string::npos)
      << near.error().message;
  EXPECT_NE(near.error().message.find("1048576000 bytes"), std::string::npos);
  const Status far = run.check_memory(std::uint64_t{5'000'000'000}, "the table");
  ASSERT_FALSE(far.ok());
  EXPECT_EQ(far.error().message.find("bytes)"), std::string::npos) << far.error().message;
  EXPECT_TRUE(run.check_memory(std::uint64_t{1000} << 20, "the table").ok());
}

}  // namespace cancel_test
}  // namespace permuzzle
