// `bench limits`: the contract's time promises measured over the whole registry. Every command
// with a hard example (Command::hard_example, and each of other_hard_examples) runs it twice on a
// table store of its own (no cache: first-use table builds are part of the wait): once under a time
// limit, once cancelled through its stop token after a delay. The report gives each answer's delay
// past the limit (or past the stop request), in wall and CPU time with the machine's load, beside
// the promise, max(0.5 s, 10% of the limit); the verdict is api/contract.hpp's, the one the
// conformance suite asserts. A missed promise is reported, not an error.
#include <algorithm>

#include "common.hpp"
#include "permuzzle/api/contract.hpp"

namespace permuzzle::api {

namespace {

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

// Runs one command's hard example on a table store of its own, under `parent`'s stop token and
// deadline, plus its own limit (`limit` seconds) or a stop request after `cancel_after` seconds.
CallMeasurement measure(const Registry& registry, const Command& c, const nlohmann::json& params,
                        const RunContext& parent, std::uint64_t memory_budget,
                        std::optional<double> limit, double cancel_after) {
  TableStore store;  // no directory: a cold start, nothing written
  CallPlan plan;
  plan.params = params;
  plan.time_limit = limit;
  plan.cancel_after = limit ? 0 : cancel_after;
  plan.memory_budget = memory_budget;
  plan.threads = parent.requested_threads();
  plan.parent = &parent;
  return measure_call(registry, c, store, plan);
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
  const double promise = time_limit_promise_seconds(limit);

  // Every hard example: a command's own, then its other paths' (named "family verb #2", ...).
  struct Example {
    const Command* command;
    nlohmann::json params;
    std::string name;
  };
  const Registry registry = make_registry();
  std::vector<Example> examples;
  for (const Command& c : registry.commands()) {
    if (c.hard_example.is_null() || (c.family == "bench" && c.verb == "limits")) continue;
    if (!only.empty() && c.family != only) continue;
    const std::vector<nlohmann::json> list = hard_examples(c);
    for (std::size_t i = 0; i < list.size(); ++i) {
      examples.push_back(
          {&c, list[i], c.family + " " + c.verb + (i == 0 ? "" : fmt::format(" #{}", i + 1))});
    }
  }
  if (examples.empty()) return make_error("no command of family '" + only + "' has a hard example");

  // Step 1. Each command: under the limit, then cancelled.
  Output out;
  out.json["limit"] = limit;
  out.json["cancel_after"] = cancel_after;
  out.json["promise_seconds"] = promise;
  out.json["commands"] = nlohmann::json::array();
  out.text = fmt::format("{:<24} {:>9} {:>9} {:>9} {:>5} {:<18} {:>10} {:<12}\n", "command",
                         "seconds", "overrun", "cpu", "load", "outcome", "cancel in", "outcome");
  double worst_overrun = 0, worst_overrun_cpu = 0, worst_cancel = 0, worst_cancel_cpu = 0;
  double highest_load = 0;
  std::size_t kept = 0, done = 0;
  for (const Example& e : examples) {
    if (s.run.should_stop()) break;
    s.run.report({"bench limits", done, examples.size(), e.name});
    CallMeasurement limited = measure(registry, *e.command, e.params, s.run, budget, limit, 0);
    if (s.run.should_stop()) break;
    CallMeasurement cancelled =
        measure(registry, *e.command, e.params, s.run, budget, std::nullopt, cancel_after);
    ++done;
    const std::string& name = e.name;
    const std::string missed = contract_violation(limited, promise);
    const std::string missed_cancel = contract_violation(cancelled, CANCEL_PROMISE_SECONDS);
    const bool ok = missed.empty() && missed_cancel.empty();
    kept += ok;
    worst_overrun = std::max(worst_overrun, limited.past_stop);
    worst_overrun_cpu = std::max(worst_overrun_cpu, limited.past_stop_cpu);
    worst_cancel = std::max(worst_cancel, cancelled.past_stop);
    worst_cancel_cpu = std::max(worst_cancel_cpu, cancelled.past_stop_cpu);
    highest_load = std::max({highest_load, limited.load, cancelled.load});
    out.text +=
        fmt::format("{:<24} {:>9.3f} {:>9.3f} {:>9.3f} {:>5.1f} {:<18} {:>10.3f} {:<12}{}\n", name,
                    limited.seconds, limited.past_stop, limited.past_stop_cpu, limited.load,
                    outcome_of(limited.result), cancelled.past_stop, outcome_of(cancelled.result),
                    ok ? "" : "  MISSED: " + (missed.empty() ? missed_cancel : missed));
    out.json["commands"].push_back({{"command", name},
                                    {"seconds", limited.seconds},
                                    {"overrun", limited.past_stop},
                                    {"overrun_cpu", limited.past_stop_cpu},
                                    {"load", limited.load},
                                    {"outcome", outcome_of(limited.result)},
                                    {"cancel_seconds", cancelled.past_stop},
                                    {"cancel_cpu", cancelled.past_stop_cpu},
                                    {"cancel_outcome", outcome_of(cancelled.result)},
                                    {"kept", ok}});
  }
  // Step 2. The summary.
  out.json["measured"] = done;
  out.json["kept"] = kept;
  out.json["worst_overrun"] = worst_overrun;
  out.json["worst_overrun_cpu"] = worst_overrun_cpu;
  out.json["worst_cancel"] = worst_cancel;
  out.json["worst_cancel_cpu"] = worst_cancel_cpu;
  out.json["highest_load"] = highest_load;
  out.json["complete"] = done == examples.size();
  out.text += fmt::format(
      "{} of {} hard examples measured; {} kept the promise (answer within {:.2f} s of a {:g} s "
      "limit, "
      "within {:g} s of a stop request; CPU per thread, wall scaled by the load); worst overrun "
      "{:.3f} s wall, {:.3f} s CPU; worst cancellation {:.3f} s wall, {:.3f} s CPU; load up to "
      "{:.1f} on {} cores\n",
      done, examples.size(), kept, promise, limit, CANCEL_PROMISE_SECONDS, worst_overrun,
      worst_overrun_cpu, worst_cancel, worst_cancel_cpu, highest_load, hardware_threads());
  if (done < examples.size()) out.stopped = s.run.stop_error();
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
