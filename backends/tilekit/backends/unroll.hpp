#pragma once
// Loop pragmas of the kernels, per compiler: the one place that tests which
// one compiles, so the kernels that use them (impl/reduce/) have no such test.
//
// TILEKIT_LANES, before the lane loop of a load: unrolled into registers on
// the GPU; left whole on the CPU for the loop vectoriser (GCC does not
// vectorise the loop once it is fully unrolled; clang takes no hint).
#if defined(__CUDA_ARCH__)
#define TILEKIT_LANES _Pragma("unroll")
#elif defined(__clang__)
#define TILEKIT_LANES
#else
#define TILEKIT_LANES _Pragma("GCC unroll 1")
#endif

// TILEKIT_HOST_PRAGMAS_BEGIN / _END around a header that uses TILEKIT_LANES:
// nvcc's front end does not know the host compiler's unroll pragma it passes
// on (diagnostic 1675), which is expected there, so it is silenced in between.
#if defined(__NVCC__)
#define TILEKIT_HOST_PRAGMAS_BEGIN _Pragma("nv_diagnostic push") _Pragma("nv_diag_suppress 1675")
#define TILEKIT_HOST_PRAGMAS_END _Pragma("nv_diagnostic pop")
#else
#define TILEKIT_HOST_PRAGMAS_BEGIN
#define TILEKIT_HOST_PRAGMAS_END
#endif
