// libFuzzer harness: Perm::parse on arbitrary bytes must never crash, hang or leak, and every
// permutation it accepts must satisfy the invariants below (ASan/UBSan check memory and UB).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "permuzzle/core/perm.hpp"

namespace {

void check(bool condition) {
  if (!condition) std::abort();  // libFuzzer records the input that got here
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using permuzzle::Perm;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = Perm::parse(text);
  if (!parsed.ok()) {
    // Errors carry a message and a position inside the input (or none).
    const auto& e = parsed.error();
    check(!e.message.empty());
    check(e.position == permuzzle::Error::NO_POSITION || e.position <= e.input.size());
    (void)e.describe();
    return 0;
  }
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
