// The chain cache of the `group` commands: the stabilizer chain of a request's generators kept in
// the session's table store, so that a later command on the same generators skips Schreier–Sims.
//
//   key     = table "group-chain", pattern: FNV-1a 64 of the normalised request (degree, how the
//             chain is built, every generator in cycle notation), hex
//   payload = uint32 length of that normalised text, the text padded with zero bytes to a
//             multiple of 4, then PermGroup::chain_record() (see perm_group.hpp)
//
// A file is used only when its text equals the request's (no trust in the hash alone) and
// PermGroup::from_chain accepts its chain (orbit lengths giving the recorded order, every
// generator a member); otherwise it is ignored and the chain is built and saved again. Saving is
// best effort (a warning line, never a failure), and only for chains that took long enough to
// build for a load to pay (CHAIN_CACHE_MIN_BUILD_SECONDS). Without a table directory
// (`--tables none`, the library's tests), or with a cap on the store's disk use (the server,
// whose clients must not fill its disk), nothing is read or written.
#pragma once

#include <string>
#include <vector>

#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/result.hpp"
#include "permuzzle/core/run_context.hpp"
#include "permuzzle/core/table_store.hpp"
#include "permuzzle/group/perm_group.hpp"

namespace permuzzle::api {

// Chains built faster than this are not saved: a saved chain spares at most its build time,
// and every saved chain is a file. Measured (best of 20, restore = from_chain without the file
// read): the cube group builds in 0.43 ms (restore 0.05 ms), M24 0.03 ms, S12 wr S2 0.06 ms,
// PSL(2,1031) 101 ms (restore 0.09 ms, 91 KB file): only chains like the last are worth a file.
constexpr double CHAIN_CACHE_MIN_BUILD_SECONDS = 0.002;

enum class ChainSource { Built, Loaded };

// The group of `generators` as PermGroup::from_generators(generators, names, options) builds it,
// with its chain loaded from or saved to `store` as described above. `source` (optional) says
// which happened. Progress lines go to options.run (when set). Chains built in less than
// `min_build_seconds` are not saved (tests pass 0 to save every chain).
Result<PermGroup> group_with_cached_chain(std::vector<Perm> generators,
                                          std::vector<std::string> names,
                                          const SchreierSimsOptions& options, TableStore& store,
                                          ChainSource* source = nullptr,
                                          double min_build_seconds = CHAIN_CACHE_MIN_BUILD_SECONDS);

}  // namespace permuzzle::api
