#pragma once
// Whether a GPU compiler is compiling the device side of a unit: nvcc's and
// clang's CUDA device pass (__CUDA_ARCH__), HIP's, SYCL's. A GPU compiler
// runs a device pass over every unit, host spaces' code included, and its
// front end then parses and instantiates all of that code for nothing: a
// unit that holds only a host space's instances (the library's and the
// programs' generated units of Serial and OpenMP) puts them under
// `#if !TILEKIT_DEVICE_PASS`. Kokkos' headers come first, outside the test,
// so that both passes declare the same device symbols.
#include <Kokkos_Core.hpp>

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
#define TILEKIT_DEVICE_PASS 1
#else
#define TILEKIT_DEVICE_PASS 0
#endif
