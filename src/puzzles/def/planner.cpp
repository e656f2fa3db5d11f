#include "permuzzle/puzzles/def/planner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "permuzzle/core/table_cache.hpp"

namespace permuzzle::def {

namespace {

// The smallest tier's budget and the factor between tiers (see planner.hpp).
constexpr std::uint64_t FIRST_TIER_BYTES = std::uint64_t{1} << 20;
constexpr std::uint64_t TIER_FACTOR = 16;
// Seconds per (entry x move) of a database build when none was measured in this process (the
// tier was loaded): about what the 4x4 Loopover and 3x3x3 builds take on one thread.
constexpr double DEFAULT_BUILD_RATE = 8e-9;
// A search on a tier gets at least this long before the next tier is built.
constexpr double MIN_SEARCH_SECONDS = 0.05;

std::string mb(std::uint64_t bytes) {
  if (bytes < (std::uint64_t{1} << 20)) return fmt::format("{} KB", (bytes + 1023) / 1024);
  return fmt::format("{} MB", bytes >> 20);
}

// Whether the store's directory holds a file for the table (load_table verifies it when it is
// used; this only steers the choice of the first tier).
bool table_file_exists(const TableStore& store, const TableKey& key) {
  if (!store.persistent()) return false;
  std::error_code ec;
  return std::filesystem::is_regular_file(table_path(store.dir(), key), ec);
}

bool same_tables(const std::vector<PlannedTable>& a, const std::vector<PlannedTable>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].pattern != b[i].pattern) return false;
  }
  return true;
}

}  // namespace

std::uint64_t PlannedSolver::Tier::entries() const {
  std::uint64_t n = 0;
  for (const PlannedTable& t : tables) n += t.entries;
  return n;
}

Result<std::unique_ptr<PlannedSolver>> PlannedSolver::create(const Definition& definition,
                                                             const PlannedSolveOptions& options,
                                                             TableStore& tables,
                                                             const RunContext& run) {
  auto out = std::make_unique<PlannedSolver>();
  out->definition_ = definition;
  out->options_ = options;
  out->store_ = &tables;
  // Step 1. The tiers' plans (nothing built), distinct ones only.
  std::vector<std::uint64_t> budgets;
  if (options.grow) {
    for (std::uint64_t b = FIRST_TIER_BYTES; b < options.solve.memory_bytes; b *= TIER_FACTOR) {
      budgets.push_back(b);
    }
  }
  budgets.push_back(options.solve.memory_bytes);
  if (budgets.size() == 1) {
    // One tier: DefSolver::create makes the plan itself (planning twice costs a 4x4 Loopover
    // a noticeable part of a short time limit).
    Tier tier;
    tier.memory_bytes = budgets.front();
    out->tiers_.push_back(std::move(tier));
    const std::string why =
        options.grow
            ? fmt::format("the only tier ({})", mb(budgets.front()))
            : fmt::format("the largest tables for --memory ({}), as asked (--plan largest)",
                          mb(budgets.front()));
    if (auto ok = out->enter(0, why, run); !ok) return ok.error();
    return out;
  }
  for (std::uint64_t b : budgets) {
    DefSolveOptions o = options.solve;
    o.memory_bytes = b;
    // The first tier's tables fill its budget (fewer, larger tables: see
    // DefSolveOptions::fill_budget); the larger tiers keep their equal shares.
    o.fill_budget = b == budgets.front();
    auto plan = DefSolver::plan(definition, o, run);
    if (!plan) {
      if (run.should_stop()) return run.stop_error();
      return plan.error();
    }
    if (plan->empty()) continue;  // nothing fits in so little memory
    Tier tier;
    tier.memory_bytes = b;
    tier.fill_budget = o.fill_budget;
    tier.tables = std::move(*plan);
    tier.cached = tables.persistent();
    for (const PlannedTable& t : tier.tables) {
      tier.cached = tier.cached && table_file_exists(tables, t.key);
    }
    if (!out->tiers_.empty() && same_tables(out->tiers_.back().tables, tier.tables)) {
      out->tiers_.back() = std::move(tier);  // the same databases: keep the larger budget
      continue;
    }
    out->tiers_.push_back(std::move(tier));
  }
  if (out->tiers_.empty()) {
    return make_error("no pattern database fits in the memory budget (--memory)", {},
                      Error::NO_POSITION, ErrorKind::LimitExceeded);
  }
  // Step 2. The first tier: the largest one cached, else the smallest.
  const std::size_t last = out->tiers_.size() - 1;
  std::size_t first = 0;
  for (std::size_t t = 0; t <= last; ++t) {
    if (out->tiers_[t].cached) first = t;
  }
  std::string why;
  if (out->tiers_[first].cached) {
    why = first == last ? fmt::format("the largest tables for --memory ({}), cached on disk",
                                      mb(options.solve.memory_bytes))
                        : fmt::format("cached on disk (tier {} of {}, {})", first + 1, last + 1,
                                      mb(out->tiers_[first].memory_bytes));
  } else if (first == last) {
    why = last == 0 ? "the only plan" : "the largest tables for --memory";
    why += fmt::format(" ({})", mb(out->tiers_[first].memory_bytes));
  } else {
    why = fmt::format(
        "tier 1 of {} ({}): small tables first, for {} position(s); larger ones only if the "
        "search takes longer than building them",
        last + 1, mb(out->tiers_[first].memory_bytes), options.positions);
  }
  if (auto ok = out->enter(first, why, run); !ok) return ok.error();
  return out;
}

Status PlannedSolver::enter(std::size_t tier, const std::string& why, const RunContext& run) {
  DefSolveOptions o = options_.solve;
  o.memory_bytes = tiers_[tier].memory_bytes;
  o.fill_budget = tiers_[tier].fill_budget;
  // Below the last tier the search is cut by the planner's own deadline: a quick non-optimal
  // pass would only be thrown away, unless the caller accepts such answers or has a deadline
  // of its own (the quick answer is then kept for when that deadline comes).
  if (tier + 1 < tiers_.size() && !options_.solve.accept_non_optimal && !run.deadline()) {
    o.quick_pass = false;
  }
  auto solver = DefSolver::create(definition_, o, *store_, run);
  if (!solver) return solver.error();
  solver_ = std::move(*solver);
  tier_ = static_cast<int>(tier) + 1;
  // The build rate: seconds per (entry x move) of the databases built here.
  double built_seconds = 0, built_work = 0;
  const auto moves = static_cast<double>(solver_->puzzle().move_count());
  for (const PdbInfo& info : solver_->tables()) {
    if (info.source != "built") continue;
    built_seconds += info.seconds;
    built_work += static_cast<double>(info.entries) * moves;
  }
  if (built_work > 0 && built_seconds > 0) build_rate_ = built_seconds / built_work;
  for (const PdbInfo& info : solver_->tables()) {
    uses_.push_back({info.pattern, info.entries, (info.entries + 1) / 2, info.seconds, info.source,
                     info.exact, tier_, why});
  }
  searched_seconds_ = 0;
  solved_ = 0;
  return Ok{};
}

double PlannedSolver::estimated_build_seconds(std::size_t tier) const {
  const double rate = build_rate_ > 0 ? build_rate_ : DEFAULT_BUILD_RATE;
  const auto moves = static_cast<double>(solver_->puzzle().move_count());
  double seconds = 0;
  for (const PlannedTable& t : tiers_[tier].tables) {
    if (table_file_exists(*store_, t.key)) continue;
    seconds += static_cast<double>(t.entries) * moves * rate;
  }
  return seconds;
}

Result<std::vector<DefSolution>> PlannedSolver::solve(const State& start, const RunContext& run,
                                                      DefSolveReport* report) {
  DefSolveReport own;
  DefSolveReport& rep = report != nullptr ? *report : own;
  while (true) {
    const auto current = static_cast<std::size_t>(tier_ - 1);
    if (current + 1 >= tiers_.size()) {
      auto r = solver_->solve(start, run, &rep);
      if (r) ++solved_;
      return r;
    }
    // Step 1. The next tier's estimated build time bounds this tier's search (ski rental).
    const double budget = std::max(MIN_SEARCH_SECONDS, estimated_build_seconds(current + 1));
    const std::size_t left =
        options_.positions > solved_ ? options_.positions - solved_ : std::size_t{1};
    if (solved_ > 0 &&
        searched_seconds_ / static_cast<double>(solved_) * static_cast<double>(left) > budget) {
      // The positions left would take longer here than building the next tier.
      const std::string why = fmt::format(
          "tier {} of {} ({}): {} position(s) left would take about {:.2f} s on tier {} "
          "({:.3f} s each so far), more than building this tier (estimated {:.2f} s)",
          current + 2, tiers_.size(), mb(tiers_[current + 1].memory_bytes), left,
          searched_seconds_ / static_cast<double>(solved_) * static_cast<double>(left), current + 1,
          searched_seconds_ / static_cast<double>(solved_), budget);
      if (auto ok = enter(current + 1, why, run); !ok) return ok.error();
      continue;
    }
    // Step 2. The search on this tier, cut at the budget by a deadline of the planner's own.
    RunContext sub = run;
    const auto own_deadline =
        RunContext::Clock::now() + std::chrono::duration_cast<RunContext::Clock::duration>(
                                       std::chrono::duration<double>(budget));
    if (!run.deadline() || own_deadline < *run.deadline()) {
      sub.with_time_limit(std::chrono::duration<double>(budget));
    }
    Stopwatch clock;
    auto r = solver_->solve(start, sub, &rep);
    searched_seconds_ += clock.seconds();
    if (r && !rep.stopped) {
      ++solved_;
      return r;
    }
    if (run.should_stop() || !sub.should_stop()) return r;  // the caller's stop, or an error
    // Step 3. Past the budget: build the next tier and search this position again there.
    const std::string why = fmt::format(
        "tier {} of {} ({}): the search on tier {} passed {:.2f} s, the estimated time to build "
        "this tier",
        current + 2, tiers_.size(), mb(tiers_[current + 1].memory_bytes), current + 1, budget);
    if (auto ok = enter(current + 1, why, run); !ok) return ok.error();
  }
}

}  // namespace permuzzle::def
