#pragma once
// Serial backend: the host data of host.hpp. (Its out-of-place tile was once
// narrower, 32 floats; with tiles read in transposed and written out as whole
// rows, the host's 128 x 128 floats measured twice as fast on one thread, and
// 512 x 512 another 20-30% faster.)
#include <tilekit/backends/host.hpp>

#if defined(KOKKOS_ENABLE_SERIAL)
namespace tilekit::backends {
template <>
struct Traits<Kokkos::Serial> : HostTraits<Kokkos::Serial> {};
}  // namespace tilekit::backends
#endif
