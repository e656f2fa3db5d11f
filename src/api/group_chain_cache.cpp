// The chain cache of the `group` commands (see group_chain_cache.hpp).
#include "group_chain_cache.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <span>

#include "permuzzle/core/table_cache.hpp"

namespace permuzzle::api {

namespace {

// Bump when the payload layout or PermGroup::chain_record()'s layout changes.
constexpr std::uint32_t CHAIN_CACHE_FORMAT = 1;

// What determines the chain: the degree, the construction (deterministic, or randomized with
// its seed: the two give different but equally valid chains, and answers such as words depend
// on which; the representation asked for; the base prefix) and the generators in order (names
// do not matter).
std::string normalised_request(const std::vector<Perm>& generators,
                               const SchreierSimsOptions& options) {
  std::size_t n = 0;
  for (const Perm& p : generators) n = std::max(n, p.largest_moved_point());
  std::string text = "degree " + std::to_string(n) + "; ";
  text += options.randomized ? "randomized " + std::to_string(options.seed) : "deterministic";
  text += "; transversals " + std::to_string(static_cast<int>(options.transversals));
  text += "; base prefix";
  for (Point b : options.base_prefix) text += " " + std::to_string(b);
  for (const Perm& p : generators) text += "; " + p.to_cycle_string();
  return text;
}

TableKey chain_key(const std::string& text) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  return {"group-chain", fmt::format("{:016x}", fnv1a64(bytes, text.size())), CHAIN_CACHE_FORMAT};
}

// The payload's header: the text's length, the text, zero bytes to a multiple of 4 (the chain
// record follows; PermGroup::chain_record appends it, so the record is never copied).
std::vector<std::uint8_t> payload_header(const std::string& text) {
  std::vector<std::uint8_t> out;
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(text.size() >> (8 * i)));
  out.insert(out.end(), text.begin(), text.end());
  out.resize((out.size() + 3) / 4 * 4, 0);
  return out;
}

// The chain record inside a payload whose text is `text` (a view into it); empty when it is
// another request's.
std::span<const std::uint8_t> record_of(const std::vector<std::uint8_t>& payload,
                                        const std::string& text) {
  if (payload.size() < 4) return {};
  std::size_t length = 0;
  for (int i = 0; i < 4; ++i) length |= static_cast<std::size_t>(payload[i]) << (8 * i);
  const std::size_t start = 4 + (length + 3) / 4 * 4;
  if (length != text.size() || start > payload.size() ||
      !std::equal(text.begin(), text.end(), payload.begin() + 4)) {
    return {};
  }
  return std::span<const std::uint8_t>(payload).subspan(start);
}

void note(const SchreierSimsOptions& options, std::string line) {
  if (options.run) options.run->report({"", 0, 0, std::move(line)});
}

}  // namespace

Result<PermGroup> group_with_cached_chain(std::vector<Perm> generators,
                                          std::vector<std::string> names,
                                          const SchreierSimsOptions& options, TableStore& store,
                                          ChainSource* source, double min_build_seconds) {
  if (source) *source = ChainSource::Built;
  // A store with a disk cap (the server's) keeps no chains: its cap counts only the files of
  // its own prefix, and requests from clients must not fill its disk.
  if (!store.persistent() || store.options().max_disk_bytes != 0 || generators.empty()) {
    return PermGroup::from_generators(std::move(generators), std::move(names), options);
  }
  // Step 1. A saved chain for exactly these generators, checked by from_chain.
  const std::string text = normalised_request(generators, options);
  const TableKey key = chain_key(text);
  std::vector<std::uint8_t> payload;
  TableLoadOutcome outcome;
  std::error_code ec;
  const std::uint64_t file_bytes = std::filesystem::file_size(table_path(store.dir(), key), ec);
  // A file over the memory budget is not read (the build below is refused the same way).
  if (!ec && (!options.run || options.run->check_memory(file_bytes, "a saved chain").ok())) {
    outcome = load_table(store.dir(), key, payload);
  }
  if (outcome.status == TableLoadStatus::Loaded) {
    const std::span<const std::uint8_t> record = record_of(payload, text);
    if (!record.empty()) {
      auto loaded = PermGroup::from_chain(generators, names, record, options);
      if (loaded) {
        // No progress line: a command's output (and an error's one message) stays as without
        // the cache.
        if (source) *source = ChainSource::Loaded;
        return loaded;
      }
      if (options.run && options.run->should_stop()) return options.run->stop_error();
      note(options, "rebuilding the stabilizer chain: " + loaded.error().message);
    } else {
      note(options, "rebuilding the stabilizer chain: " + outcome.path +
                        " holds the chain of other generators");
    }
  } else if (outcome.status != TableLoadStatus::Missing) {
    note(options, "rebuilding the stabilizer chain: " + outcome.detail);
  }
  // Step 2. Build as without a cache; save when the build took long enough to pay. A payload
  // that did not load (another request's, or damaged) is freed first.
  std::vector<std::uint8_t>().swap(payload);
  Stopwatch watch;
  auto built = PermGroup::from_generators(std::move(generators), std::move(names), options);
  if (!built || watch.seconds() < min_build_seconds) return built;
  // A run that is stopping does not save: the command's answer (or its stop) comes first.
  const RunContext* run = options.run;
  if (run && run->should_stop()) return built;
  payload = built->chain_record(run, payload_header(text));
  // Empty: S_m / A_m recognised (nothing to save), or the run stopped while it was written.
  if (payload.empty() || (run && run->should_stop())) return built;
  if (Status saved = save_table(store.dir(), key, payload); !saved) {
    note(options, "stabilizer chain not saved: " + saved.error().message);
  }
  return built;
}

}  // namespace permuzzle::api
