// Black-box helper: runs the built `permuzzle` executable and captures what it printed.
#pragma once

#include <sys/wait.h>
#include <unistd.h>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace permuzzle::test {

struct CliRun {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
  nlohmann::json json() const { return nlohmann::json::parse(out); }
};

// Quotes one argument for /bin/sh.
inline std::string shell_quote(const std::string& arg) {
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// `args` is a shell fragment appended to the executable path (quote arguments with
// shell_quote when they contain spaces or parentheses). `input` is fed to stdin.
inline CliRun run_cli_env(const std::string& env, const std::string& args,
                          const std::string& input = {});

inline CliRun run_cli(const std::string& args, const std::string& input = {}) {
  return run_cli_env("", args, input);
}

// The same with environment assignments ("NAME=value ...") before the command.
inline CliRun run_cli_env(const std::string& env, const std::string& args,
                          const std::string& input) {
  char err_path[] = "/tmp/permuzzle-test-err-XXXXXX";
  int err_fd = mkstemp(err_path);
  close(err_fd);
  char in_path[] = "/tmp/permuzzle-test-in-XXXXXX";
  int in_fd = mkstemp(in_path);
  if (!input.empty()) {
    [[maybe_unused]] auto n = write(in_fd, input.data(), input.size());
  }
  close(in_fd);
  std::string command = (env.empty() ? std::string() : env + " ") +
                        std::string(PERMUZZLE_CLI_PATH) + " " + args + " <" + in_path + " 2>" +
                        err_path;
  CliRun run;
  FILE* pipe = popen(command.c_str(), "r");
  std::array<char, 4096> buffer{};
  std::size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.out.append(buffer.data(), n);
  int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err_file(err_path);
  std::stringstream ss;
  ss << err_file.rdbuf();
  run.err = ss.str();
  std::remove(err_path);
  std::remove(in_path);
  return run;
}

}  // namespace permuzzle::test
