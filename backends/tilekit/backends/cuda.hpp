#pragma once
// CUDA backend: a team is a thread block of team_rows x vector threads
// (threadIdx.y x threadIdx.x); vector lanes walk a tile row so global reads and
// writes are coalesced. Each thread keeps several loads in flight before its
// first store into shared memory.
#include <tilekit/backends/traits.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
namespace tilekit::backends {

/// Device facts read through the CUDA runtime (defined in backends/src).
HardwareInfo cuda_hardware(int device_id, int concurrency);

template <>
struct Traits<Kokkos::Cuda> {
  static constexpr int loads_in_flight = 8;
  static constexpr long max_league = 1L << 30;
  static TileConfig transpose_tile(std::size_t /*elem_bytes*/) { return {64, 8, 32, 1}; }
  static HardwareInfo hardware(const Kokkos::Cuda& exec) {
    return cuda_hardware(exec.cuda_device(), exec.concurrency());
  }
};
}  // namespace tilekit::backends
#endif
