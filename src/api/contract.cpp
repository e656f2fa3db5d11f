#include "permuzzle/api/contract.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <ctime>
#include <fstream>
#include <mutex>
#include <stop_token>
#include <thread>

#include "common.hpp"

namespace permuzzle::api {

namespace {

// CPU seconds of the whole process, every thread included.
double process_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

double load_average() {
  std::ifstream file("/proc/loadavg");
  double load = 0;
  file >> load;
  return load;
}

}  // namespace

double time_limit_promise_seconds(double limit) {
  return std::max(0.5, 0.1 * limit);
}

CallMeasurement measure_call(const Registry& registry, const Command& command, TableStore& tables,
                             const CallPlan& plan) {
  // Step 1. The session, stopped by the plan's limit, its stop request or the parent's.
  std::stop_source stop;
  std::optional<std::stop_callback<std::function<void()>>> forward;
  if (plan.parent) {
    forward.emplace(plan.parent->stop_token(),
                    std::function<void()>([&stop] { stop.request_stop(); }));
  }
  Session session{tables, RunContext{}, default_data_dir()};
  session.run.with_stop_token(stop.get_token())
      .with_memory_budget(plan.memory_budget)
      .with_threads(plan.threads);
  const auto start = RunContext::Clock::now();
  std::optional<RunContext::Clock::time_point> deadline =
      plan.parent ? plan.parent->deadline() : std::nullopt;
  if (plan.time_limit) {
    auto own = start + std::chrono::duration_cast<RunContext::Clock::duration>(
                           std::chrono::duration<double>(*plan.time_limit));
    deadline = deadline ? std::min(*deadline, own) : own;
  }
  if (deadline) session.run.with_time_limit(*deadline - start);

  // Step 2. The call on its own thread; its answer's wall and CPU time taken there, at once.
  CallMeasurement m;
  m.cores = hardware_threads();
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  double answer_cpu = 0;
  RunContext::Clock::time_point answer_time;
  std::thread worker([&] {
    auto r = registry.call(command.family, command.verb, plan.params, session);
    const double cpu = process_cpu_seconds();
    const auto now = RunContext::Clock::now();
    std::lock_guard lock(mutex);
    m.result = std::move(r);
    answer_cpu = cpu;
    answer_time = now;
    done = true;
    done_cv.notify_all();
  });

  // Step 3. The stop: the deadline passing, or the stop request after cancel_after.
  std::unique_lock lock(mutex);
  std::optional<RunContext::Clock::time_point> stop_time;
  double stop_cpu = 0;
  if (plan.cancel_after > 0) {
    done_cv.wait_for(lock, std::chrono::duration<double>(plan.cancel_after), [&] { return done; });
    if (!done) {
      stop_cpu = process_cpu_seconds();
      stop_time = RunContext::Clock::now();
      stop.request_stop();
    }
  } else if (deadline) {
    // The stop is the deadline, whenever this thread wakes: on a busy machine it may wake after
    // the call answered past the deadline (then its CPU time after the stop is not known, and
    // the wall time past the stop is what is judged).
    done_cv.wait_until(lock, *deadline, [&] { return done; });
    stop_cpu = done ? answer_cpu : process_cpu_seconds();
    stop_time = *deadline;
  }
  // Step 4. The answer (the watchdog first, when asked for).
  if (plan.watchdog_seconds > 0 &&
      !done_cv.wait_until(lock,
                          start + std::chrono::duration_cast<RunContext::Clock::duration>(
                                      std::chrono::duration<double>(plan.watchdog_seconds)),
                          [&] { return done; }) &&
      plan.on_hang) {
    plan.on_hang();
  }
  done_cv.wait(lock, [&] { return done; });
  lock.unlock();
  worker.join();

  // Step 5. The figures.
  m.seconds = std::chrono::duration<double>(answer_time - start).count();
  m.load = load_average();
  if (stop_time && answer_time > *stop_time) {
    m.stopped = true;
    m.past_stop = std::chrono::duration<double>(answer_time - *stop_time).count();
    const unsigned threads = std::max(1u, std::min(m.cores, session.run.threads()));
    m.past_stop_cpu = std::max(0.0, answer_cpu - stop_cpu) / threads;
  }
  return m;
}

std::string contract_violation(const CallMeasurement& m, double promise) {
  if (!m.stopped) return "";
  const double load_factor = 1.0 + m.load / std::max(1u, m.cores);
  std::string missed;
  if (m.past_stop_cpu > promise) {
    missed = fmt::format("it used {:.3f} s of CPU (per thread) after its stop, more than {:.2f} s",
                         m.past_stop_cpu, promise);
  } else if (m.past_stop > promise * load_factor) {
    missed = fmt::format(
        "it answered {:.3f} s after its stop, more than {:.2f} s even at the machine's load of "
        "{:.1f} on {} cores (x{:.2f})",
        m.past_stop, promise * load_factor, m.load, m.cores, load_factor);
  }
  return missed;
}

std::optional<ErrorKind> stop_kind(const Result<Output>& r) {
  if (!r) return r.error().kind;
  if (r->stopped) return r->stopped->kind;
  return std::nullopt;
}

}  // namespace permuzzle::api
