#include "huge_pages.hpp"

#include <cstdint>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace permuzzle::detail {

namespace {

constexpr std::uintptr_t HUGE_PAGE = std::uintptr_t{2} << 20;
constexpr int MADVISE_COLLAPSE = 25;  // MADV_COLLAPSE, missing from older C library headers

// Applies `advice` to the whole huge pages inside the range, if there are any.
void advise(const void* data, std::size_t bytes, int advice) {
#ifdef __linux__
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  const std::uintptr_t last = (begin + bytes) & ~(HUGE_PAGE - 1);
  if (data != nullptr && last > first) {
    ::madvise(reinterpret_cast<void*>(first), last - first, advice);  // advice only
  }
#else
  (void)data, (void)bytes, (void)advice;
#endif
}

}  // namespace

void advise_huge_pages(const void* data, std::size_t bytes) {
#ifdef __linux__
  advise(data, bytes, MADV_HUGEPAGE);
#else
  (void)data, (void)bytes;
#endif
}

void collapse_huge_pages(const void* data, std::size_t bytes) {
#ifdef __linux__
  advise(data, bytes, MADV_HUGEPAGE);
  advise(data, bytes, MADVISE_COLLAPSE);
#else
  (void)data, (void)bytes;
#endif
}

}  // namespace permuzzle::detail
