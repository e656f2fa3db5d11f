#include "permuzzle/core/table_cache.hpp"

#include <unistd.h>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace permuzzle {

namespace {

constexpr char MAGIC[8] = {'P', 'Z', 'T', 'A', 'B', 'L', 'E', '1'};
constexpr std::uint32_t MAX_NAME_LENGTH = 4096;

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
bool get_u32(std::istream& in, std::uint32_t& v) {
  unsigned char b[4];
  if (!in.read(reinterpret_cast<char*>(b), 4)) return false;
  v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | b[i];
  return true;
}
bool get_u64(std::istream& in, std::uint64_t& v) {
  unsigned char b[8];
  if (!in.read(reinterpret_cast<char*>(b), 8)) return false;
  v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[i];
  return true;
}
bool get_string(std::istream& in, std::string& s) {
  std::uint32_t n = 0;
  if (!get_u32(in, n) || n > MAX_NAME_LENGTH) return false;
  s.resize(n);
  return static_cast<bool>(in.read(s.data(), n));
}

std::string sanitise(const std::string& name) {
  std::string out = table_file_prefix(name);
  // Distinct patterns could sanitise to one name: disambiguate with a short hash.
  std::uint64_t h = fnv1a64(reinterpret_cast<const std::uint8_t*>(name.data()), name.size());
  char suffix[16];
  std::snprintf(suffix, sizeof suffix, "%08x", static_cast<unsigned>(h & 0xffffffffu));
  return out.substr(0, 80) + "-" + suffix;
}

}  // namespace

std::string table_file_prefix(const std::string& puzzle_prefix) {
  std::string out;
  for (char c : puzzle_prefix) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '_' || c == '.';
    out.push_back(keep ? c : '_');
  }
  return out;
}

bool is_table_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  char magic[sizeof MAGIC];
  in.read(magic, sizeof magic);
  if (in.gcount() == 0 && in.eof()) return true;  // created, nothing written yet
  return in.gcount() == sizeof magic && std::memcmp(magic, MAGIC, sizeof magic) == 0;
}

std::uint64_t fnv1a64(const std::uint8_t* data, std::size_t size) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string table_path(const std::string& dir, const TableKey& key) {
  return (std::filesystem::path(dir) /
          (sanitise(key.puzzle) + "." + sanitise(key.pattern) + ".pztable"))
      .string();
}

namespace {

// Opens a table file and checks its header; on success `in` stands at the payload and `size` /
// `checksum` hold the header's values. Otherwise `outcome` says why.
bool open_table(const std::string& dir, const TableKey& key, std::uint64_t expected_size,
                std::ifstream& in, TableLoadOutcome& outcome, std::uint64_t& size,
                std::uint64_t& checksum) {
  outcome.path = table_path(dir, key);
  in.open(outcome.path, std::ios::binary);
  if (!in) {
    outcome.status = TableLoadStatus::Missing;
    outcome.detail = "no cached table at " + outcome.path;
    return false;
  }
  auto corrupt = [&](const std::string& why) {
    outcome.status = TableLoadStatus::Corrupt;
    outcome.detail = "cached table " + outcome.path + " is damaged: " + why;
    return false;
  };
  auto stale = [&](const std::string& why) {
    outcome.status = TableLoadStatus::Stale;
    outcome.detail = "cached table " + outcome.path + " is stale: " + why;
    return false;
  };
  // Step 1. Header.
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, MAGIC, 8) != 0) return corrupt("bad magic");
  std::uint32_t version = 0;
  std::string puzzle, pattern;
  if (!get_u32(in, version) || !get_string(in, puzzle) || !get_string(in, pattern) ||
      !get_u64(in, size) || !get_u64(in, checksum)) {
    return corrupt("truncated header");
  }
  if (version != key.format_version) {
    return stale("format version " + std::to_string(version) + ", expected " +
                 std::to_string(key.format_version));
  }
  if (puzzle != key.puzzle || pattern != key.pattern) {
    return stale("it holds " + puzzle + "/" + pattern + ", expected " + key.puzzle + "/" +
                 key.pattern);
  }
  if (expected_size != 0 && size != expected_size) {
    return stale("payload of " + std::to_string(size) + " bytes, expected " +
                 std::to_string(expected_size));
  }
  // Step 2. The file must end right after the payload.
  std::error_code ec;
  auto file_size = std::filesystem::file_size(outcome.path, ec);
  auto header_size = static_cast<std::uint64_t>(in.tellg());
  if (ec || file_size != header_size + size) {
    return corrupt("file has " + std::to_string(file_size) + " bytes, header says " +
                   std::to_string(header_size + size));
  }
  return true;
}

// Reads the payload of an opened table into `data` and verifies the checksum.
void read_payload(std::ifstream& in, std::uint8_t* data, std::uint64_t size, std::uint64_t checksum,
                  TableLoadOutcome& outcome) {
  if (!in.read(reinterpret_cast<char*>(data), static_cast<std::streamsize>(size))) {
    outcome.status = TableLoadStatus::Corrupt;
    outcome.detail = "cached table " + outcome.path + " is damaged: truncated payload";
    return;
  }
  if (fnv1a64(data, size) != checksum) {
    outcome.status = TableLoadStatus::Corrupt;
    outcome.detail = "cached table " + outcome.path + " is damaged: checksum mismatch";
    return;
  }
  outcome.status = TableLoadStatus::Loaded;
  outcome.detail = "loaded " + outcome.path;
}

}  // namespace

TableLoadOutcome load_table(const std::string& dir, const TableKey& key,
                            std::vector<std::uint8_t>& payload, std::uint64_t expected_size) {
  TableLoadOutcome outcome;
  std::ifstream in;
  std::uint64_t size = 0, checksum = 0;
  payload.clear();
  if (!open_table(dir, key, expected_size, in, outcome, size, checksum)) return outcome;
  payload.resize(size);
  read_payload(in, payload.data(), size, checksum, outcome);
  if (outcome.status != TableLoadStatus::Loaded) payload.clear();
  return outcome;
}

TableLoadOutcome load_table(const std::string& dir, const TableKey& key, std::uint8_t* data,
                            std::uint64_t size) {
  TableLoadOutcome outcome;
  std::ifstream in;
  std::uint64_t stored = 0, checksum = 0;
  if (!open_table(dir, key, size, in, outcome, stored, checksum)) return outcome;
  read_payload(in, data, size, checksum, outcome);
  return outcome;
}

Status save_table(const std::string& dir, const TableKey& key,
                  const std::vector<std::uint8_t>& payload) {
  return save_table(dir, key, payload.data(), payload.size());
}

Status save_table(const std::string& dir, const TableKey& key, const std::uint8_t* data,
                  std::uint64_t size) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return make_error("cannot create table directory " + dir + ": " + ec.message(), {},
                      Error::NO_POSITION, ErrorKind::Io);
  }
  std::string header(MAGIC, 8);
  put_u32(header, key.format_version);
  put_u32(header, static_cast<std::uint32_t>(key.puzzle.size()));
  header += key.puzzle;
  put_u32(header, static_cast<std::uint32_t>(key.pattern.size()));
  header += key.pattern;
  put_u64(header, size);
  put_u64(header, fnv1a64(data, size));

  // Write to a unique temporary name in the same directory, then rename over the target:
  // readers see either the old file or the complete new one.
  std::string path = table_path(dir, key);
  std::string temp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    out.flush();
    if (!out) {
      out.close();
      std::filesystem::remove(temp, ec);
      return make_error("cannot write table " + path + " (disk full or not writable)", {},
                        Error::NO_POSITION, ErrorKind::Io);
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    return make_error("cannot move table into place at " + path, {}, Error::NO_POSITION,
                      ErrorKind::Io);
  }
  return Ok{};
}

void remove_table(const std::string& dir, const TableKey& key) {
  std::error_code ec;
  std::filesystem::remove(table_path(dir, key), ec);
}

}  // namespace permuzzle
