// Huge-page hints for large lookup tables (engine-internal; Linux only, no-ops elsewhere).
//
// Pattern databases and distance tables of tens to hundreds of MB are read at random; backing
// them with 2 MiB pages saves most TLB misses. Both calls are advice: the kernel may ignore
// them, and then the table simply lives in small pages.
#pragma once

#include <cstddef>

namespace permuzzle::detail {

// For memory not touched yet: the whole 2 MiB pages inside [data, data + bytes) are to be
// backed by huge pages when they are first written (MADV_HUGEPAGE).
void advise_huge_pages(const void* data, std::size_t bytes);

// For memory already filled: the same advice, and the pages are collapsed into huge pages now
// (MADV_COLLAPSE, Linux >= 6.1) instead of gradually by khugepaged while a search runs.
void collapse_huge_pages(const void* data, std::size_t bytes);

}  // namespace permuzzle::detail
