#pragma once
// Serial backend: the host data of host.hpp, except that the out-of-place
// tile is one 64-byte cache line of 4-byte elements wide (seed 000's block 16),
// twice that for 8-byte types: with one thread no prefetch stream is shared.
#include <tilekit/backends/host.hpp>

#if defined(KOKKOS_ENABLE_SERIAL)
namespace tilekit::backends {
template <>
struct Traits<Kokkos::Serial> : HostTraits<Kokkos::Serial> {
  static TileConfig transpose_tile(std::size_t elem_bytes) {
    return {elem_bytes >= 8 ? 16 : 32, 1, 1, 1};
  }
};
}  // namespace tilekit::backends
#endif
