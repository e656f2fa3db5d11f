// Huge-page hints for large lookup tables (engine-internal; Linux only, no-ops elsewhere).
//
// Pattern databases and distance tables of tens to hundreds of MB are read at random; backing
// them with 2 MiB pages saves most TLB misses. Both calls are advice: the kernel may ignore
// them, and then the table simply lives in small pages.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

namespace permuzzle::detail {

// For memory not touched yet: the whole 2 MiB pages inside [data, data + bytes) are to be
// backed by huge pages when they are first written (MADV_HUGEPAGE).
void advise_huge_pages(const void* data, std::size_t bytes);

// For memory already filled: the same advice, and the pages are collapsed into huge pages now
// (MADV_COLLAPSE, Linux >= 6.1) instead of gradually by khugepaged while a search runs.
void collapse_huge_pages(const void* data, std::size_t bytes);

// An allocator for tables read at random: blocks from 16 MiB up on 2 MiB boundaries with
// transparent huge pages asked for (with 4 KiB pages nearly every read of a table of GiB also
// misses the TLB); smaller ones from operator new.
template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t HUGE_PAGE = std::size_t(2) << 20;
  static constexpr std::size_t THRESHOLD = 8 * HUGE_PAGE;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}
  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < THRESHOLD) return static_cast<T*>(::operator new(bytes));
    const std::size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void* p = std::aligned_alloc(HUGE_PAGE, rounded);
    if (!p) throw std::bad_alloc();
    advise_huge_pages(p, rounded);  // advice only: without it the table still works
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < THRESHOLD) {
      ::operator delete(p);
    } else {
      std::free(p);
    }
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

}  // namespace permuzzle::detail
