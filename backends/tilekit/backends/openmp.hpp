#pragma once
// OpenMP backend: a team is one thread (team size 1, vector length 1) and the
// tile loop is a plain loop the compiler vectorises. A tile of 32x32 4-byte
// elements (4 KiB), 16x16 for 8-byte ones, keeps a tile pair well inside L1.
#include <tilekit/backends/traits.hpp>

#if defined(KOKKOS_ENABLE_OPENMP)
namespace tilekit::backends {
template <>
struct Traits<Kokkos::OpenMP> {
  static constexpr int loads_in_flight = 1;
  static constexpr long max_league = 1L << 30;
  static TileConfig transpose_tile(std::size_t elem_bytes) {
    return {elem_bytes >= 8 ? 16 : 32, 1, 1, 1};
  }
  static HardwareInfo hardware(const Kokkos::OpenMP& exec) {
    return host_hardware(Kokkos::OpenMP::name(), exec.concurrency());
  }
};
}  // namespace tilekit::backends
#endif
