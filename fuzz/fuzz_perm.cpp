// libFuzzer harness: Perm::parse on arbitrary bytes must never crash, hang or leak, and every
// permutation it accepts must satisfy the invariants below (ASan/UBSan check memory and UB).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_common.hpp"
#include "permuzzle/core/perm.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using permuzzle::Perm;
  using permuzzle::fuzz::check;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = Perm::parse(text);
  if (!permuzzle::fuzz::accepted(parsed)) return 0;
  const Perm& p = *parsed;
  // 1. Printing and re-parsing round-trips, in both notations.
  auto again = Perm::parse(p.to_cycle_string());
  check(again.ok() && *again == p);
  // (The list form of a huge degree is megabytes of text; check it on moderate degrees so the
  // fuzzer keeps its speed.)
  if (p.degree() <= 4096) {
    auto listed = Perm::parse(p.to_list_string(std::max<std::size_t>(p.degree(), 1)));
    check(listed.ok() && *listed == p);
  }
  // 2. p * p^-1 and p^-1 * p are the identity.
  check((p * p.inverse()).is_identity());
  check((p.inverse() * p).is_identity());
  // 3. The sign by cycles agrees with the sign by inversions; p^order is the identity when the
  //    order is small enough to use as an exponent.
  check(p.sign() == p.sign_by_inversions());
  mpz_class order = p.order();
  if (order.fits_slong_p()) check(p.pow(order.get_si()).is_identity());
  return 0;
}
