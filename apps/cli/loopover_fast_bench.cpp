// `permuzzle bench loopover-fast`: the fast multi-stage Loopover solver on seeded random
// positions; every solution is replayed by an independent implementation of the rules.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>

#include "cli.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"
#include "permuzzle/puzzles/loopover/fast_solver.hpp"

namespace permuzzle::cli {

namespace {

using loopover::Axis;
using loopover::BoardSize;
using loopover::Position;

Result<BoardSize> parse_size(const std::string& text) {
  int r = 0, c = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &r, &x, &c, &extra) != 3 || (x != 'x' && x != 'X'))
    return make_error("bad board size: expected RxC, e.g. 5x5", text, 0);
  if (r < 2 || r > 9 || c < 2 || c > 9)
    return make_error("board size out of range: rows and columns must be 2..9", text, 0);
  return BoardSize{r, c};
}

// Independent replay through the board model (not the solver's own replay).
bool replay_solves(BoardSize size, Position p, const std::vector<loopover::Move>& moves) {
  loopover::apply_moves(size, p, moves);
  return loopover::is_goal(p);
}

}  // namespace

void add_bench_loopover_fast(CLI::App& bench, Context& ctx) {
  struct Args {
    std::string size = "5x5";
    int count = 100;
    std::uint64_t seed = 1;
    std::string metric = "stm";
    int beam = loopover::FastSolveOptions{}.beam_width;
    int branch = loopover::FastSolveOptions{}.branch;
    int slack = loopover::FastSolveOptions{}.slack;
    int examine = loopover::FastSolveOptions{}.examine;
    std::uint64_t table = 60'000'000;  // 5x5: one stage 3x3 -> 4x4 (57.7M entries)
    std::string tables = default_tables_dir();
  };
  auto a = std::make_shared<Args>();
  auto* sub = bench.add_subcommand(
      "loopover-fast", "Fast near-optimal Loopover solver on seeded random positions (verified)");
  sub->add_option("--size", a->size, "Board size RxC (2..9 each)")->capture_default_str();
  sub->add_option("--count", a->count, "Number of random positions")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub->add_option("--seed", a->seed, "Random seed")->capture_default_str();
  sub->add_option("--metric", a->metric, "stm or mtm")
      ->check(CLI::IsMember({"stm", "mtm"}))
      ->capture_default_str();
  sub->add_option("--beam", a->beam, "Beam width (partial solutions kept per stage)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub->add_option("--branch", a->branch, "Stage solutions expanded per partial solution")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub->add_option("--slack", a->slack, "Extra moves a stage solution may take beyond its optimum")
      ->check(CLI::Range(0, 8))
      ->capture_default_str();
  sub->add_option("--examine", a->examine,
                  "Stage solutions examined per partial solution (the best --branch are kept)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub->add_option("--table-limit", a->table, "Largest stage table (entries)")
      ->capture_default_str();
  sub->add_option("--tables", a->tables, "Directory of cached tables")->capture_default_str();
  set_action(ctx, sub, [a, &ctx]() -> Result<CommandOutput> {
    auto size = parse_size(a->size);
    if (!size) return size.error();
    loopover::FastSolveOptions options;
    options.metric = a->metric == "mtm" ? loopover::Metric::Mtm : loopover::Metric::Stm;
    options.seed = a->seed;
    options.beam_width = a->beam;
    options.branch = a->branch;
    options.slack = a->slack;
    options.examine = a->examine;
    options.max_table_entries = a->table;
    options.tables = &table_store(a->tables);
    progress(ctx, fmt::format("building stage tables for {}x{} ...", size->rows, size->cols));
    auto solver = loopover::FastSolver::create(*size, options);
    if (!solver) return solver.error();
    progress(ctx, fmt::format("plan {}, tables built or loaded in {:.2f} s", solver->plan(),
                              solver->build_seconds()));
    for (const auto& st : solver->stages()) {
      progress(ctx, fmt::format("  stage {} -> {}: {} pieces on {} free cells, {} lines, {} "
                                "entries, max {}, mean {:.2f}",
                                st.from, st.to, st.pieces, st.free_cells, st.lines, st.entries,
                                st.max_distance, st.mean_distance));
    }
    std::mt19937_64 rng(a->seed);
    const int n = size->cells();
    double total_seconds = 0, max_seconds = 0;
    long long total_length = 0;
    int max_length = 0;
    bool all_verified = true;
    for (int i = 0; i < a->count; ++i) {
      Position p(n);
      for (int t = 0; t < n; ++t) p[t] = static_cast<std::uint8_t>(t + 1);
      std::shuffle(p.begin(), p.end(), rng);
      if (size->rows % 2 == 1 && size->cols % 2 == 1) {
        int inversions = 0;
        for (int x = 0; x < n; ++x)
          for (int y = x + 1; y < n; ++y) inversions += p[x] > p[y];
        if (inversions % 2) std::swap(p[0], p[1]);  // keep it uniform over the solvable half
      }
      auto res = solver->solve(p, options);
      if (!res) return res.error();
      const bool ok = replay_solves(*size, p, res->moves);
      all_verified = all_verified && ok;
      total_seconds += res->seconds;
      max_seconds = std::max(max_seconds, res->seconds);
      total_length += res->length;
      max_length = std::max(max_length, res->length);
      progress(ctx,
               fmt::format("{}/{}: {} moves, {:.4f} s", i + 1, a->count, res->length, res->seconds),
               true);
    }
    end_progress(ctx);
    const double mean_seconds = total_seconds / a->count;
    const double mean_length = static_cast<double>(total_length) / a->count;
    CommandOutput out;
    out.text = fmt::format(
        "loopover-fast {}x{} {}: {} positions (seed {}), plan {}\n"
        "mean length {:.2f} (max {}), mean time {:.4f} s (max {:.4f} s), tables {:.2f} s, "
        "all verified: {}\n",
        size->rows, size->cols, a->metric, a->count, a->seed, solver->plan(), mean_length,
        max_length, mean_seconds, max_seconds, solver->build_seconds(),
        all_verified ? "yes" : "NO");
    out.json = {{"size", a->size},
                {"metric", a->metric},
                {"count", a->count},
                {"seed", a->seed},
                {"plan", solver->plan()},
                {"mean_seconds", mean_seconds},
                {"max_seconds", max_seconds},
                {"mean_length", mean_length},
                {"max_length", max_length},
                {"beam", a->beam},
                {"branch", a->branch},
                {"slack", a->slack},
                {"examine", a->examine},
                {"table_seconds", solver->build_seconds()},
                {"all_verified", all_verified}};
    return out;
  });
}

}  // namespace permuzzle::cli
