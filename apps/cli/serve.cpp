// `permuzzle serve`: the web app and the HTTP API (apps/server/) on loopback by default.
#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/core/table_store.hpp"
#include "server.hpp"

namespace permuzzle::cli {

void add_serve_command(CLI::App& app, Context& ctx) {
  auto* serve = app.add_subcommand("serve", SERVE_HELP);
  auto options = std::make_shared<server::Options>();
  serve->add_option("--host", options->host,
                    "Address to listen on (default 127.0.0.1: only this machine; any other "
                    "address lets the network run solves here)");
  serve->add_option("--port", options->port, "TCP port (default 8080; 0 = any free port)")
      ->check(CLI::Range(0, 65535));
  serve->add_option("--max-solves", options->max_concurrent_solves,
                    "Requests solved at once (default: one per hardware thread; more wait, then "
                    "get 503)");
  serve->add_option("--max-jobs", options->max_running_jobs, "Jobs running at once (default 2)");
  auto max_memory_mb = std::make_shared<std::uint64_t>(0);
  serve
      ->add_option("--max-memory", *max_memory_mb,
                   "Memory of the whole server in MB, shared out between the solve and job "
                   "slots, the quick calls and the finished jobs' results (default: the global "
                   "--memory, else 3/4 of physical memory)")
      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 40));
  set_action(ctx, serve, [&ctx, options, max_memory_mb]() -> Result<CommandOutput> {
    // The top-level --time-limit, when given, replaces the default 10 s per request.
    if (ctx.time_limit > 0) options->time_limit_seconds = ctx.time_limit;
    if (options->data_dir.empty()) options->data_dir = data_dir();
    std::uint64_t mb = *max_memory_mb ? *max_memory_mb : ctx.memory_mb;
    if (mb) options->max_memory_bytes = mb << 20;
    // The access log: one line per request on stderr (--quiet: none).
    if (!ctx.quiet) {
      auto mutex = std::make_shared<std::mutex>();
      options->log = [mutex](const std::string& line) {
        std::lock_guard lock(*mutex);
        std::cerr << line << '\n' << std::flush;
      };
    }
    if (!server::is_loopback(options->host)) {
      std::cerr << "permuzzle: warning: listening on " << options->host
                << ", not loopback: anyone who can reach this address can use the server (no "
                   "authentication, no TLS)\n";
    }
    // A server outlives its requests: table builds that outlive theirs go on in the
    // background, and the tables of every uploaded definition are kept within caps.
    TableStore::Options tables = ctx.store->options();
    tables.background_builds = true;
    tables.max_memory_bytes = default_memory_budget() / 2;
    tables.max_disk_bytes = std::uint64_t(4) << 30;  // "def-" tables: uploaded definitions
    ctx.store->set_options(tables);
    server::Server http(*ctx.registry, *ctx.store, *options);
    if (auto ok = http.bind(); !ok) return ok.error();
    std::cout << "permuzzle web app listening on " << http.url() << std::endl;
    if (!ctx.quiet) std::cerr << "permuzzle serve: " << http.limits().describe() << std::endl;
    if (auto ok = http.listen(); !ok) return ok.error();
    CommandOutput out;
    out.already_printed = true;
    return out;
  });
}

}  // namespace permuzzle::cli
