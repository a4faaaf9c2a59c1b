#pragma once
// Software prefetch of the host backends: asks the caches for the line that
// holds an address, into L2 and outward (GCC's and Clang's __builtin_prefetch,
// locality 2: prefetcht1 on x86-64). Device compilation passes and other
// compilers do nothing. The one place with the compiler test, so the kernels
// that use it (impl/common/micro_transpose.hpp) have none.
#include <Kokkos_Macros.hpp>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__) && \
    !defined(__HIP_DEVICE_COMPILE__) && !defined(__SYCL_DEVICE_ONLY__)
#define TILEKIT_PREFETCH 1
#endif

namespace tilekit::backends {

/// Starts loading the line at p for a read soon (a hint: never faults, any p).
KOKKOS_FORCEINLINE_FUNCTION void prefetch_read(const void* p) {
#if defined(TILEKIT_PREFETCH)
  __builtin_prefetch(p, 0, 2);
#else
  (void)p;
#endif
}

}  // namespace tilekit::backends
