// libFuzzer harness: the table cache's file header (load_table, core/table_cache.hpp). The
// input is written to the file that table_path() names for a fixed key, then loaded both ways
// (into a vector of the stored size, and into a caller buffer of a fixed size).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "permuzzle/core/table_cache.hpp"

namespace {

using namespace permuzzle;
using permuzzle::fuzz::check;

// The key the committed seeds were written with (fuzz/corpus/table/).
const TableKey KEY{"fuzz-puzzle", "pattern/1", 7};
constexpr std::uint64_t BUFFER_SIZE = 16;

// One scratch directory per fuzzing process (libFuzzer's -jobs/-fork run several), under TMPDIR
// (`make fuzz` points it at /dev/shm when it can: a disk makes this harness 10x slower),
// removed at exit.
struct ScratchDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("permuzzle-fuzz-table-" + std::to_string(::getpid()));
  ScratchDir() { std::filesystem::create_directories(path / "in"); }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};
const ScratchDir DIR;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string dir = (DIR.path / "in").string();
  const std::string path = table_path(dir, KEY);
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  // Step 1. Into a vector: Loaded exactly when the payload matches the header; then saving the
  //         payload under the same key writes the very same bytes.
  std::vector<std::uint8_t> payload;
  TableLoadOutcome outcome = load_table(dir, KEY, payload);
  check(outcome.path == path && !outcome.detail.empty());
  check(outcome.status != TableLoadStatus::Missing);
  if (outcome.status == TableLoadStatus::Loaded) {
    check(payload.size() < size);
    const std::string copy = (DIR.path / "copy").string();
    check(save_table(copy, KEY, payload).ok());
    check(read_file(table_path(copy, KEY)) ==
          std::string(reinterpret_cast<const char*>(data), size));
  } else {
    check(payload.empty());
  }
  // Step 2. Into a caller buffer of BUFFER_SIZE bytes: Loaded only for a payload of that size.
  std::vector<std::uint8_t> buffer(BUFFER_SIZE);
  TableLoadOutcome fixed = load_table(dir, KEY, buffer.data(), BUFFER_SIZE);
  check(fixed.status != TableLoadStatus::Missing);
  if (fixed.status == TableLoadStatus::Loaded) {
    check(outcome.status == TableLoadStatus::Loaded && payload == buffer);
  }
  return 0;
}
