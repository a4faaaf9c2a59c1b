#pragma once
// What the host's operating system offers for fresh memory (used by
// include/tilekit/fresh_output.hpp): the size of its huge pages, and advice to
// back a range with them. Plain C++, no Kokkos; the OS test stays here, out
// of the library's headers.
#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tilekit::backends {

/// Linux's transparent huge page on x86-64 and on aarch64 with 4 KiB base pages.
inline constexpr std::size_t host_huge_page = std::size_t(2) << 20;
/// The smallest page of the hosts tilekit runs on.
inline constexpr std::size_t host_base_page = 4096;

/// Asks the operating system to back the host_huge_page-aligned part of
/// [data, data + bytes) with huge pages (Linux madvise(MADV_HUGEPAGE): honoured
/// where /sys/kernel/mm/transparent_hugepage/enabled is "always" or "madvise").
/// Call it before the memory is first written; does nothing elsewhere, and an
/// unsuccessful advice changes nothing (the memory stays valid either way).
inline void advise_huge_pages(void* data, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = host_huge_page;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t lo = (begin + huge - 1) & ~(huge - 1), hi = (begin + bytes) & ~(huge - 1);
  if (hi > lo) (void)madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace tilekit::backends
