#pragma once
// Launch data of the in-place rectangular transpose (docs/transpose_inplace.md):
// each step permutes lines of the matrix (rows, or blocks of `line_bytes`
// wide columns) through a buffer, in team scratch when a line fits within
// `scratch_bytes`, otherwise in a workspace slot of global memory. The
// workspace has at most `slots` slots (one per team in flight).
//
// The blocked method (square blocks, then a shuffle of their rows through a
// workspace, docs/transpose_inplace.md) takes its square pass's launch from
// Traits<Exec>::transpose_inplace_tile and its workspace bound from
// `batch_bytes` here.
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
  /// Blocked method: workspace of one shuffle batch (bytes; the plan keeps it
  /// within a quarter of the matrix and takes one column of each row at least).
  std::size_t batch_bytes = std::size_t(32) << 20;
  /// Blocked method: team steps each team of the shuffle permutes takes in
  /// turn (0: the permute's, Traits::permute_tile).
  int shuffle_tiles_per_team = 0;
};

/// Hosts: a team is one thread, one slot per thread. A column block is 256
/// bytes (four cache lines) wide: its rows lie a matrix row apart, on other
/// pages, where the prefetchers do not follow, so each row visited should
/// bring several lines (at most 64 columns: a work item keeps one index walk
/// per column, `columns_per_item`). Every line buffer is a workspace slot,
/// never team scratch: a host team's scratch is per-thread memory too, but a
/// launch with scratch costs the Serial backend about as much as the step
/// itself (3000 x 2001 floats: 45 ms with row buffers in scratch, 26 ms
/// without, on a shared 2-core EPYC host). A blocked shuffle batch of 8 MiB
/// stays within a last-level cache share, so the batch's second pass reads
/// the workspace from cache.
template <class Exec>
struct RectInplaceTraits {
  static constexpr int columns_per_item = 64;
  /// Rows (elements of a row) a work item loads before it stores them.
  static constexpr int loads_in_flight = 4;
  static RectInplaceConfig config(const Exec& exec) {
    return {256, 1, exec.concurrency(), 0, std::size_t(8) << 20, 0};
  }
};

#if defined(KOKKOS_ENABLE_CUDA)
/// CUDA: 256-thread blocks; a column block is one 32-byte sector wide (8
/// floats), so a warp reads 4 rows x 32 bytes; line buffers up to 40 KiB in
/// shared memory (the 48 KiB a block gets without opt-in, less Kokkos' share);
/// four slots per SM. Blocked shuffle batches as large as the quarter of the
/// matrix allows: every batch costs two launches, and on an H200 fewer,
/// larger batches won over a workspace kept in L2 (8192 x 4096 floats: 8 MiB
/// batches 8.7% of copy, 32 MiB 21.7%, 128 MiB 29.8%). The shuffle permutes
/// take one team step per team: a 32 MiB batch is 2048 steps of the rows
/// kernel, which the permute's 4 per team leave to 512 teams of 128 threads,
/// a quarter of the GPU (8192 x 4096 floats: 27.5 us a launch with 4, 22 us
/// with 1; 22.0% of copy with 4, 25.9% with 2, 26.4% with 1).
template <>
struct RectInplaceTraits<Kokkos::Cuda> {
  /// One column per work item: its index walk stays in registers; eight
  /// loads in flight per work item before its stores (as Traits<Cuda>).
  static constexpr int columns_per_item = 1;
  static constexpr int loads_in_flight = 8;
  static RectInplaceConfig config(const Kokkos::Cuda& exec) {
    return {32, 256, 4 * exec.cuda_device_prop().multiProcessorCount, 40 * 1024,
            std::size_t(1) << 40, 1};
  }
};
#endif

}  // namespace tilekit::backends
