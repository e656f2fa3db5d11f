// `bench limits`: the contract's time promises measured over the whole registry. Every command
// with a hard example (Command::hard_example) runs it twice on a table store of its own (no
// cache: first-use table builds are part of the wait): once under a time limit, once cancelled
// through its stop token after a delay. The report gives each answer's delay past the limit (or
// past the stop request) beside the promise, max(0.5 s, 10% of the limit). A missed promise is
// reported, not an error: wall clock on a shared machine (tests/conformance_test.cpp checks the
// same calls with slack).
#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "common.hpp"

namespace permuzzle::api {

namespace {

struct Measured {
  double seconds = 0;    // from the call's start to its answer
  double past_stop = 0;  // from the limit or the stop request to the answer
  std::string outcome;   // "time limit", "cancelled", "refused: memory", "finished", ...
};

std::string outcome_of(const Result<Output>& r) {
  const Error* e = !r ? &r.error() : r->stopped ? &*r->stopped : nullptr;
  if (!e) return "finished";
  switch (e->kind) {
    case ErrorKind::LimitExceeded:
      return e->message.find("memory") != std::string::npos ? "refused (memory)" : "time limit";
    case ErrorKind::Cancelled:
      return "cancelled";
    case ErrorKind::InvalidInput:
      return "invalid input";
    case ErrorKind::Unsolvable:
      return "unsolvable";
    default:
      return "failed";
  }
}

// Runs one command under `parent`'s stop token and deadline, plus its own limit (`limit`
// seconds) or a stop request after `cancel_after` seconds.
Measured measure(const Registry& registry, const Command& c, const RunContext& parent,
                 std::uint64_t memory_budget, std::optional<double> limit, double cancel_after) {
  TableStore store;  // no directory: a cold start, nothing written
  std::stop_source stop;
  std::stop_callback forward(parent.stop_token(), [&stop] { stop.request_stop(); });
  Session session{store, RunContext{}, default_data_dir()};
  session.run.with_stop_token(stop.get_token()).with_memory_budget(memory_budget);
  const auto start = RunContext::Clock::now();
  std::optional<RunContext::Clock::time_point> deadline = parent.deadline();
  if (limit) {
    auto own = start + std::chrono::duration_cast<RunContext::Clock::duration>(
                           std::chrono::duration<double>(*limit));
    deadline = deadline ? std::min(*deadline, own) : own;
  }
  if (deadline) session.run.with_time_limit(*deadline - start);

  Measured m;
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  std::thread worker([&] {
    auto r = registry.call(c.family, c.verb, c.hard_example, session);
    std::lock_guard lock(mutex);
    m.outcome = outcome_of(r);
    m.seconds = std::chrono::duration<double>(RunContext::Clock::now() - start).count();
    done = true;
    done_cv.notify_all();
  });
  double stop_at = limit.value_or(0);
  if (!limit) {
    std::unique_lock lock(mutex);
    done_cv.wait_for(lock, std::chrono::duration<double>(cancel_after), [&] { return done; });
    stop_at = std::chrono::duration<double>(RunContext::Clock::now() - start).count();
    if (!done) stop.request_stop();
  }
  worker.join();
  m.past_stop = std::max(0.0, m.seconds - stop_at);
  return m;
}

Result<Output> bench_limits(const Request& q, Session& s) {
  const double limit = q.number("limit");
  const double cancel_after = q.number("cancel-after");
  if (auto ok = check_time_limit(limit, "--limit"); !ok) return ok.error();
  if (auto ok = check_time_limit(cancel_after, "--cancel-after"); !ok) return ok.error();
  const std::string only = q.string("family");
  // Each measured command gets --budget, within this run's own budget (a server's share).
  const std::uint64_t budget =
      s.run.memory_budget() ? std::min(q.unsigned_integer("budget") << 20, s.run.memory_budget())
                            : q.unsigned_integer("budget") << 20;
  const double promise = std::max(0.5, 0.1 * limit);

  const Registry registry = make_registry();
  std::vector<const Command*> commands;
  for (const Command& c : registry.commands()) {
    if (c.hard_example.is_null() || (c.family == "bench" && c.verb == "limits")) continue;
    if (!only.empty() && c.family != only) continue;
    commands.push_back(&c);
  }
  if (commands.empty()) return make_error("no command of family '" + only + "' has a hard example");

  // Step 1. Each command: under the limit, then cancelled.
  Output out;
  out.json["limit"] = limit;
  out.json["cancel_after"] = cancel_after;
  out.json["promise_seconds"] = promise;
  out.json["commands"] = nlohmann::json::array();
  out.text = fmt::format("{:<24} {:>9} {:>9} {:<18} {:>10} {:<12}\n", "command", "seconds",
                         "overrun", "outcome", "cancel in", "outcome");
  double worst_overrun = 0, worst_cancel = 0;
  std::size_t kept = 0, done = 0;
  for (const Command* c : commands) {
    if (s.run.should_stop()) break;
    s.run.report({"bench limits", done, commands.size(), c->family + " " + c->verb});
    Measured limited = measure(registry, *c, s.run, budget, limit, 0);
    if (s.run.should_stop()) break;
    Measured cancelled = measure(registry, *c, s.run, budget, std::nullopt, cancel_after);
    ++done;
    const std::string name = c->family + " " + c->verb;
    const bool ok = limited.past_stop <= promise && cancelled.past_stop <= 1.0;
    kept += ok;
    worst_overrun = std::max(worst_overrun, limited.past_stop);
    worst_cancel = std::max(worst_cancel, cancelled.past_stop);
    out.text += fmt::format("{:<24} {:>9.3f} {:>9.3f} {:<18} {:>10.3f} {:<12}{}\n", name,
                            limited.seconds, limited.past_stop, limited.outcome,
                            cancelled.past_stop, cancelled.outcome, ok ? "" : "  MISSED");
    out.json["commands"].push_back({{"command", name},
                                    {"seconds", limited.seconds},
                                    {"overrun", limited.past_stop},
                                    {"outcome", limited.outcome},
                                    {"cancel_seconds", cancelled.past_stop},
                                    {"cancel_outcome", cancelled.outcome},
                                    {"kept", ok}});
  }
  // Step 2. The summary.
  out.json["measured"] = done;
  out.json["kept"] = kept;
  out.json["worst_overrun"] = worst_overrun;
  out.json["worst_cancel"] = worst_cancel;
  out.json["complete"] = done == commands.size();
  out.text += fmt::format(
      "{} of {} commands measured; {} kept the promise (answer within {:.2f} s of a {:g} s limit, "
      "within 1 s of a stop request); worst overrun {:.3f} s, worst cancellation {:.3f} s\n",
      done, commands.size(), kept, promise, limit, worst_overrun, worst_cancel);
  if (done < commands.size()) out.stopped = s.run.stop_error();
  return out;
}

}  // namespace

void register_limits_bench(Registry& r) {
  Command c{
      "bench",
      "limits",
      "Every command's hard example under a time limit and cancelled: the measured delay "
      "of each answer",
      {option("limit", ParamType::Number, "Time limit per command in seconds", 1.0),
       option("cancel-after", ParamType::Number,
              "Seconds before the stop request of the cancellation run", 0.3),
       option("family", ParamType::String, "Only the commands of this family"),
       with_range(option("budget", ParamType::Unsigned, "Memory budget per command in MB", 256), 1,
                  1u << 20)},
      bench_limits,
      true};
  c.hard_example = nlohmann::json::object();
  c.invalid_examples = {{{"limit", 0}}, {{"cancel-after", -1}}, {{"family", "no-such-family"}}};
  r.add(std::move(c));
}

}  // namespace permuzzle::api
