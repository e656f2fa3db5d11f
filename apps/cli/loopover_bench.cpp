// `permuzzle bench loopover`: optimal solving of seeded random positions, every solution
// verified by replay; the target (4x4 STM mean <= 20 ms, tables loaded) is measured here.
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <random>

#include "cli.hpp"
#include "loopover_solver.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"
#include "permuzzle/puzzles/loopover/optimal_solver.hpp"

namespace permuzzle::cli {

using namespace permuzzle::loopover;

void add_bench_loopover(CLI::App& bench_app, Context& ctx) {
  CLI::App* bench = &bench_app;
  struct Args {
    std::string size = "4x4";
    std::string metric = "stm";
    std::string tables;
    std::string pattern = "auto";
    int probes = 0;
    int cross_check = 0;
    int count = 100;
    std::uint64_t seed = 1;
  };
  auto a = std::make_shared<Args>();
  auto* lo = bench->add_subcommand("loopover", "Optimal Loopover on seeded random positions");
  lo->add_option("--size", a->size, "Board ROWSxCOLS (default 4x4)");
  lo->add_option("--metric", a->metric, "stm (default) or mtm");
  lo->add_option("--count", a->count, "Positions (default 100)")->check(CLI::Range(1, 1000000));
  lo->add_option("--seed", a->seed, "Seed (default 1)");
  lo->add_option("--tables", a->tables, "Table cache directory");
  lo->add_option("--pattern", a->pattern, "Piece pattern database: auto (default) or none");
  lo->add_option("--probes", a->probes,
                 "Pattern lookups per node at most (default 0 = all; for measuring)")
      ->check(CLI::Range(0, 64));
  lo->add_option("--cross-check", a->cross_check,
                 "Also solve the first N positions with the walking-distance-only solver and "
                 "compare lengths (default 0; not timed)")
      ->check(CLI::Range(0, 1000000));
  set_action(ctx, lo, [a, &ctx]() -> Result<CommandOutput> {
    auto size = parse_size(a->size);
    if (!size) return size.error();
    Metric metric;
    if (a->metric == "stm") {
      metric = Metric::Stm;
    } else if (a->metric == "mtm") {
      metric = Metric::Mtm;
    } else {
      return make_error("bad metric: expected stm or mtm", a->metric, 0);
    }
    progress(ctx, "loading or building the tables ...");
    auto solver = make_loopover_solver(
        ctx, *size, metric, a->tables.empty() ? default_tables_dir() : a->tables, a->pattern);
    if (!solver) return solver.error();
    // An independent check of optimality: the walking-distance-only solver (no pattern).
    std::optional<OptimalSolver> reference;
    if (a->cross_check > 0) {
      auto r = OptimalSolver::create(*size, metric, &table_store(a->tables));
      if (!r) return r.error();
      reference = std::move(*r);
    }
    int cross_checked = 0, cross_mismatches = 0;
    Rng rng(a->seed);
    double total_seconds = 0, max_seconds = 0;
    std::uint64_t total_length = 0, total_nodes = 0;
    bool all_verified = true;
    std::vector<std::uint64_t> lengths;
    OptimalSolveOptions o;
    o.metric = metric;
    o.max_pattern_probes = a->probes;
    for (int i = 0; i < a->count; ++i) {
      Position p = random_position(*size, rng);
      auto r = solver->solve(p, o);
      if (!r) return r.error();
      Position check = p;
      apply_moves(*size, check, r->moves);
      all_verified =
          all_verified && is_goal(check) && sequence_length(*size, r->moves, metric) == r->length;
      total_seconds += r->seconds;
      max_seconds = std::max(max_seconds, r->seconds);
      total_length += static_cast<std::uint64_t>(r->length);
      total_nodes += r->nodes;
      if (lengths.size() <= static_cast<std::size_t>(r->length)) lengths.resize(r->length + 1);
      ++lengths[r->length];
      if (reference && i < a->cross_check) {
        auto ref = reference->solve(p, o);
        if (!ref) return ref.error();
        ++cross_checked;
        if (ref->length != r->length) ++cross_mismatches;
      }
      progress(ctx,
               fmt::format("{}/{}: {} moves, {:.3f} s", i + 1, a->count, r->length, r->seconds),
               true);
    }
    if (cross_mismatches > 0) {
      return make_error(
          fmt::format("cross-check failed: on {} of {} positions the walking-distance "
                      "solver found another length (internal error)",
                      cross_mismatches, cross_checked),
          {}, Error::NO_POSITION, ErrorKind::Internal);
    }
    const double n = a->count;
    CommandOutput out;
    out.text = fmt::format(
        "bench loopover {} {}: {} positions (seed {})\n  mean {:.4f} s, max {:.3f} s, mean length "
        "{:.3f}, mean nodes {:.0f}\n  tables {:.2f} s (not in the mean){}; all verified: {}\n",
        format_size(*size), a->metric, a->count, a->seed, total_seconds / n, max_seconds,
        static_cast<double>(total_length) / n, static_cast<double>(total_nodes) / n,
        solver->build_seconds(),
        solver->pattern_db()
            ? fmt::format(", pattern database {:.1f} MB {} in {:.2f} s, {} probes per node",
                          static_cast<double>(solver->pattern_db()->bytes()) / 1e6,
                          solver->pattern_db()->loaded_from_cache() ? "loaded" : "built",
                          solver->pattern_db()->seconds(),
                          a->probes > 0 ? std::min(a->probes, solver->probes()) : solver->probes())
            : std::string(),
        all_verified ? "yes" : "NO");
    if (cross_checked > 0) {
      out.text += fmt::format(
          "  cross-checked {} positions against the walking-distance-only "
          "solver: same lengths\n",
          cross_checked);
    }
    nlohmann::json hist = nlohmann::json::array();
    for (auto v : lengths) hist.push_back(v);
    out.json = {
        {"mean_seconds", total_seconds / n},
        {"max_seconds", max_seconds},
        {"mean_length", static_cast<double>(total_length) / n},
        {"mean_nodes", static_cast<double>(total_nodes) / n},
        {"length_histogram", hist},
        {"all_verified", all_verified},
        {"count", a->count},
        {"seed", a->seed},
        {"size", format_size(*size)},
        {"metric", a->metric},
        {"tables_seconds", solver->build_seconds()},
        {"pattern", a->pattern},
        {"pattern_bytes", solver->pattern_db() ? solver->pattern_db()->bytes() : 0},
        {"probes", a->probes > 0 ? std::min(a->probes, solver->probes()) : solver->probes()},
        {"optimal", true},
        {"cross_checked", cross_checked}};
    return out;
  });
}

}  // namespace permuzzle::cli
