// On-disk cache for generated tables (pattern databases, distance tables).
//
// Tables are never committed: they are built on demand and cached in a directory chosen by the
// caller (the CLI's --tables, default under the user's cache directory). Every file starts with
// a fixed header so that a stale or damaged file is detected and rebuilt, never trusted:
//
//   offset size  field
//   0      8     magic "PZTABLE1"
//   8      4     format version of the table (uint32, little endian), chosen by the table's owner
//   12     4     length P of the puzzle name, then P bytes (e.g. "sliding-4x4")
//   ..     4     length Q of the pattern name, then Q bytes (e.g. "7-8:1,2,3,4,5,6,7")
//   ..     8     payload size in bytes (uint64)
//   ..     8     FNV-1a 64-bit checksum of the payload
//   ..           payload
//
// Writes go to a temporary file that is renamed into place, so a crash or a full disk never
// leaves a half-written table under the real name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "permuzzle/core/result.hpp"

namespace permuzzle {

struct TableKey {
  std::string puzzle;            // e.g. "sliding-4x4"
  std::string pattern;           // e.g. "7-8/a" (anything identifying the table's content)
  std::uint32_t format_version;  // bump when the table's layout or meaning changes
};

enum class TableLoadStatus {
  Loaded,   // header and checksum verified; payload filled
  Missing,  // no file
  Stale,    // a file with another format version, puzzle or pattern, or a wrong payload size
  Corrupt,  // truncated, bad magic, or checksum mismatch
};

struct TableLoadOutcome {
  TableLoadStatus status = TableLoadStatus::Missing;
  std::string detail;  // human-readable reason (for "rebuilding because ...")
  std::string path;
};

// File name of the table inside `dir` (puzzle and pattern sanitised into a file name).
std::string table_path(const std::string& dir, const TableKey& key);
// How table_path spells the start of the file name of every table whose puzzle name starts with
// `puzzle_prefix` (the characters a file name should not hold become '_').
std::string table_file_prefix(const std::string& puzzle_prefix);

// Loads and verifies a table. `expected_size` (if nonzero) must match the stored payload size.
TableLoadOutcome load_table(const std::string& dir, const TableKey& key,
                            std::vector<std::uint8_t>& payload, std::uint64_t expected_size = 0);

// Writes a table atomically (temporary file + rename), creating `dir` if needed.
Status save_table(const std::string& dir, const TableKey& key,
                  const std::vector<std::uint8_t>& payload);

// The same for a caller-owned buffer of exactly `size` bytes, so that tables of hundreds of MB
// need no second copy in memory. On any status but Loaded the buffer's content is unspecified.
TableLoadOutcome load_table(const std::string& dir, const TableKey& key, std::uint8_t* data,
                            std::uint64_t size);
Status save_table(const std::string& dir, const TableKey& key, const std::uint8_t* data,
                  std::uint64_t size);

// Is the file one that save_table wrote (or began to write): it starts with the magic, or is
// empty? The cache removes no other file, whatever its name (a user's file in the folder stays).
bool is_table_file(const std::string& path);

// Removes a table's file, best effort (checkpoints replaced by newer ones).
void remove_table(const std::string& dir, const TableKey& key);

std::uint64_t fnv1a64(const std::uint8_t* data, std::size_t size);

}  // namespace permuzzle
