#pragma once
// Serial backend: one thread; a team is that thread. The tile is one 64-byte
// cache line of 4-byte elements wide (seed 000's block 16), twice that for
// smaller footprints of 8-byte types.
#include <tilekit/backends/traits.hpp>

#if defined(KOKKOS_ENABLE_SERIAL)
namespace tilekit::backends {
template <>
struct Traits<Kokkos::Serial> {
  static constexpr int loads_in_flight = 1;
  static constexpr long max_league = 1L << 30;
  static TileConfig transpose_tile(std::size_t elem_bytes) {
    return {elem_bytes >= 8 ? 16 : 32, 1, 1, 1};
  }
  static HardwareInfo hardware(const Kokkos::Serial& exec) {
    return host_hardware(Kokkos::Serial::name(), exec.concurrency());
  }
};
}  // namespace tilekit::backends
#endif
