#pragma once
// Streaming loads of the CUDA backend: a 16-byte load of data that no thread
// writes while the kernel runs, through the non-coherent (read-only) path and
// without allocating in L1 (`ld.global.nc.L1::no_allocate`), as a read that
// passes once over its input wants. Host compilation and other devices load
// plainly. The one place with the ISA test, so the kernels that use it
// (impl/reduce/kernels.hpp) have none.
#include <Kokkos_Macros.hpp>

#include <cstring>

namespace tilekit::backends {

/// *p, for a p that no thread writes during the kernel (16-byte V: the
/// read-only path on a CUDA device).
template <class V>
KOKKOS_FORCEINLINE_FUNCTION V load_stream(const V* p) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(V) == 16 && alignof(V) >= 16) {
    unsigned u[4];
    asm("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
        : "=r"(u[0]), "=r"(u[1]), "=r"(u[2]), "=r"(u[3])
        : "l"(p));
    V v;
    std::memcpy(&v, u, sizeof(V));
    return v;
  }
#endif
  return *p;
}

}  // namespace tilekit::backends
