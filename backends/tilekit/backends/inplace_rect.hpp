#pragma once
// Launch data of the in-place rectangular transpose (docs/transpose_inplace.md):
// each step permutes lines of the matrix (rows, or blocks of `line_bytes`
// wide columns) through a buffer, in team scratch when a line fits within
// `scratch_bytes`, otherwise in a workspace slot of global memory. The
// workspace has at most `slots` slots (one per team in flight).
//
// Kept apart from Traits<Exec> (traits.hpp) so the family can be tuned on its
// own; the primary template holds the host data.
#include <Kokkos_Core.hpp>

#include <cstddef>

namespace tilekit::backends {

struct RectInplaceConfig {
  int line_bytes = 64;             ///< width in bytes of a column block (one cache line)
  int team_threads = 1;            ///< work items of a team
  int slots = 1;                   ///< workspace slots: teams in flight on workspace lines
  std::size_t scratch_bytes = 0;   ///< largest line buffer kept in team scratch
};

/// Hosts: a team is one thread, one slot per thread. A column block is 256
/// bytes (four cache lines) wide: its rows lie a matrix row apart, on other
/// pages, where the prefetchers do not follow, so each row visited should
/// bring several lines (at most 64 columns: a work item keeps one index walk
/// per column, `columns_per_item`). Every line buffer is a workspace slot,
/// never team scratch: a host team's scratch is per-thread memory too, but a
/// launch with scratch costs the Serial backend about as much as the step
/// itself (3000 x 2001 floats: 45 ms with row buffers in scratch, 26 ms
/// without, on a shared 2-core EPYC host).
template <class Exec>
struct RectInplaceTraits {
  static constexpr int columns_per_item = 64;
  /// Rows (elements of a row) a work item loads before it stores them.
  static constexpr int loads_in_flight = 4;
  static RectInplaceConfig config(const Exec& exec) { return {256, 1, exec.concurrency(), 0}; }
};

#if defined(KOKKOS_ENABLE_CUDA)
/// CUDA: 256-thread blocks; a column block is one 32-byte sector wide (8
/// floats), so a warp reads 4 rows x 32 bytes; line buffers up to 40 KiB in
/// shared memory (the 48 KiB a block gets without opt-in, less Kokkos' share);
/// four slots per SM.
template <>
struct RectInplaceTraits<Kokkos::Cuda> {
  /// One column per work item: its index walk stays in registers; eight
  /// loads in flight per work item before its stores (as Traits<Cuda>).
  static constexpr int columns_per_item = 1;
  static constexpr int loads_in_flight = 8;
  static RectInplaceConfig config(const Kokkos::Cuda& exec) {
    return {32, 256, 4 * exec.cuda_device_prop().multiProcessorCount, 40 * 1024};
  }
};
#endif

}  // namespace tilekit::backends
