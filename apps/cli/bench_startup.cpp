// `permuzzle bench startup`: how long the program takes to start and answer, as a user or a
// script that runs it thousands of times sees it. This executable runs N times per case
// (posix_spawn, output to /dev/null); the wall time of each run and its CPU time (wait4's
// rusage) give a median each, beside the goals (issue 38: --version within 3 ms, a cheap group
// command within 5 ms). The machine's load is reported with them: on a busy machine the wall
// time counts the wait for a CPU, the CPU time does not.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli.hpp"

extern char** environ;

namespace permuzzle::cli {

namespace {

struct StartupCase {
  std::vector<std::string> args;
  double goal_ms;
};

struct Timing {
  double wall_ms = 0;
  double cpu_ms = 0;
};

// One run of `program args...`: its wall and CPU time, or an error.
Result<Timing> run_once(const std::string& program, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  std::string name = "permuzzle";
  argv.push_back(name.data());
  std::vector<std::string> copies = args;
  for (std::string& a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    return make_error("bench startup: cannot run " + program, {}, Error::NO_POSITION,
                      ErrorKind::Io);
  }
  int status = 0;
  rusage usage{};
  if (::wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return make_error("bench startup: " + program + " failed", {}, Error::NO_POSITION,
                      ErrorKind::Internal);
  }
  Timing t;
  t.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  auto ms = [](const timeval& tv) { return double(tv.tv_sec) * 1e3 + double(tv.tv_usec) * 1e-3; };
  t.cpu_ms = ms(usage.ru_utime) + ms(usage.ru_stime);
  return t;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

void add_startup_bench(CLI::App& bench, Context& ctx) {
  auto* sub = bench.add_subcommand(
      "startup",
      "The program's start-up: --version and a cheap group command, run N times each "
      "(median wall and CPU time, beside 3 ms and 5 ms)");
  auto runs = std::make_shared<unsigned>(100);
  sub->add_option("--runs", *runs, "Runs per case (default 100)")->check(CLI::Range(1, 10000));
  set_action(ctx, sub, [runs, &ctx]() -> Result<CommandOutput> {
    char self[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
      return make_error("bench startup: cannot find this program", {}, Error::NO_POSITION,
                        ErrorKind::Io);
    const std::string program(self, static_cast<std::size_t>(n));
    const std::vector<StartupCase> cases = {{{"--version"}, 3.0},
                                            {{"group", "order", "(1,2)"}, 5.0}};
    // The global --time-limit and Ctrl-C end it between runs, as every long loop.
    const RunContext run = ctx.session().run;
    CommandOutput out;
    out.json["program"] = program;
    out.json["runs"] = *runs;
    out.json["cases"] = nlohmann::json::array();
    out.text =
        fmt::format("{:<26} {:>12} {:>12} {:>8}\n", "command", "median wall", "median CPU", "goal");
    for (const StartupCase& c : cases) {
      std::vector<double> wall, cpu;
      for (unsigned i = 0; i < *runs; ++i) {
        if (run.should_stop()) return run.stop_error();
        auto t = run_once(program, c.args);
        if (!t) return t.error();
        wall.push_back(t->wall_ms);
        cpu.push_back(t->cpu_ms);
      }
      std::string shown = "permuzzle";
      for (const std::string& a : c.args) shown += " " + a;
      const double w = median(wall), u = median(cpu);
      out.text += fmt::format("{:<26} {:>9.2f} ms {:>9.2f} ms {:>5.0f} ms{}\n", shown, w, u,
                              c.goal_ms, w <= c.goal_ms ? "" : "  (over)");
      out.json["cases"].push_back({{"command", shown},
                                   {"median_wall_ms", w},
                                   {"median_cpu_ms", u},
                                   {"goal_ms", c.goal_ms}});
    }
    double load = 0;
    std::ifstream("/proc/loadavg") >> load;
    out.json["load"] = load;
    out.text += fmt::format("load average {:.1f} (wall time counts the wait for a CPU)\n", load);
    return out;
  });
}

}  // namespace permuzzle::cli
