#pragma once
// Streaming (non-temporal) stores of the host backends: 16-byte stores that
// bypass the caches, where the host compiler targets SSE2 (every x86-64).
// Device compilation passes and other hosts have none: stream_copy returns
// false and the caller stores normally. The one place with the ISA test, so
// the kernels that use it (impl/common/micro_transpose.hpp) have none.
#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <cstdint>

#if defined(__SSE2__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && \
    !defined(__SYCL_DEVICE_ONLY__)
#include <emmintrin.h>
#define TILEKIT_STREAM_STORES 1
#endif

namespace tilekit::backends {

/// Whether streaming stores are compiled in.
constexpr bool have_stream_stores() {
#if defined(TILEKIT_STREAM_STORES)
  return true;
#else
  return false;
#endif
}

/// Copies `bytes` (a multiple of 16) from src to a 16-byte aligned dst with
/// streaming stores; false (nothing written) where there are none.
KOKKOS_INLINE_FUNCTION bool stream_copy(void* dst, const void* src, std::size_t bytes) {
#if defined(TILEKIT_STREAM_STORES)
  auto* d = static_cast<__m128i*>(dst);
  const auto* s = static_cast<const char*>(src);
  for (std::size_t k = 0; k < bytes / 16; ++k)
    _mm_stream_si128(d + k, _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16 * k)));
  return true;
#else
  (void)dst, (void)src, (void)bytes;
  return false;
#endif
}

/// Orders this thread's streaming stores before what follows.
KOKKOS_INLINE_FUNCTION void stream_store_fence() {
#if defined(TILEKIT_STREAM_STORES)
  _mm_sfence();
#endif
}

}  // namespace tilekit::backends
