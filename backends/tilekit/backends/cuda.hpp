#pragma once
// CUDA backend: a team is a thread block of team_rows x vector threads; the
// tiled kernels launch it flat, consecutive work items on consecutive
// addresses, and each thread keeps several loads in flight (staged in
// registers) before its first store: one load per thread leaves the memory
// system idle. docs/performance.md has the measurements behind each value.
#include <tilekit/backends/primary.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
namespace tilekit::backends {

/// Device facts read through the CUDA runtime (defined in backends/src).
HardwareInfo cuda_hardware(int device_id, int concurrency);

template <>
struct Traits<Kokkos::Cuda> {
  static constexpr int loads_in_flight = 8;
  static constexpr long max_league = 1L << 30;
  /// Transpose: 64 x 64 tiles moved by 4 x 32 work items, the whole tile in
  /// registers; one tile a team for 4- and 8-byte elements (a larger league
  /// keeps more loads in flight than a team's next tile), four for 2-byte
  /// ones; 16-byte elements take 32 x 32 tiles (a padded 64 x 64 tile exceeds
  /// the team's scratch). In place: pairs of 32 x 32 tiles, 2 x 32 work items.
  static constexpr int stage_registers = 32;
  /// Larger teams than the staged kernels' registers allow take the unstaged.
  static constexpr int staged_team_max = 512;
  static constexpr int team_launch_max = 1024;
  static TileConfig transpose_tile(std::size_t elem_bytes) {
    if (elem_bytes > 8) return {32, 4, 32, 1, 4};
    return {64, 4, 32, 1, elem_bytes >= 4 ? 1 : 4};
  }
  static TileConfig transpose_inplace_tile(std::size_t /*elem_bytes*/) {
    return {32, 2, 32, 1, 1};
  }
  /// A side of at most 64 bytes: a 64-wide tile would be a sliver. Where the
  /// output's rows are the thin side (16 bytes or more), chunks of 512 long-
  /// side elements go through scratch in 512-thread teams and are written in
  /// 16-byte units; else each work item loads its whole thin side before it
  /// stores it, reading its own row of what its neighbours leave in cache.
  static constexpr int transpose_thin_bytes = 64;
  static constexpr int transpose_thin_batch_bytes = 64;
  static constexpr int transpose_thin_chunk = 512;
  static constexpr int transpose_thin_team = 512;
  static constexpr int transpose_thin_stage_bytes = 16;
  static constexpr int transpose_thin_store_bytes = 16;
  /// Skewed tiles start every store on a 32-byte sector where the output's
  /// rows do not; by default up to 8 elements a sector (2-byte ones ran slower).
  static constexpr int transpose_store_sector = 32;
  static constexpr int transpose_skew_max = 8;
  /// Pure moves of 2-byte elements go in 4-byte pairs where the rows allow.
  static constexpr int permute_pack_bytes = 4;
  /// A store run that interleaves up to 16 elements of tiny dimensions with a
  /// long one (an image's channels: NCHW -> NHWC) keeps its tile in scratch in
  /// the store's order, every offset computed, rather than reading a table
  /// entry per element (a load row's elements then lie that many apart in
  /// scratch: more would cost bank conflicts).
  static constexpr int permute_interleave_rows = 16;
  /// Batches of matrices with a side of 2 to 4 elements of at most 4 bytes
  /// (RGB/RGBA images): 8 bytes of each row a thread, transposed in registers
  /// (the staged boxes above move them a few bytes a step). Wider vectors
  /// ran slower both ways, the more so from the wide side: fewer threads
  /// each holding more of their rows in flight.
  static constexpr int permute_interleave_vector_bytes = 8;
  /// cmm, blocked: 16 x 8 work items of 8 rows x 8 (float) or 4 (double)
  /// column sets, two blocks an SM (a launch bound: no spills, one block
  /// computes while the other waits at its barrier), 16 (8) k a step within
  /// the 40 KiB a team's scratch gets; every staged line one share of the
  /// team's threads. Tiled: one output per thread, 16 x 16, 32 k a step.
  static constexpr CmmShape cmm_shape(std::size_t elem_bytes, bool register_blocked) {
    if (!register_blocked) return {16, 16, 1, 1, 32, 4, 8, 0, 0, 2};
    return elem_bytes >= 8 ? CmmShape{16, 8, 8, 4, 8, 2, 8, 0, 0, 2}
                           : CmmShape{16, 8, 8, 8, 16, 4, 4, 0, 0, 2};
  }
  /// reduce: 256-thread blocks, four 16-byte loads in flight a thread, one
  /// resident wave of half an SM's blocks, capped at the kernel's resident
  /// teams (register-heavy operations); interleaved rounds loaded a round
  /// ahead; large views take whole waves more (a partial wave is a tail).
  static constexpr ReduceConfig reduce_config() {
    return {8, 32, 16, 4, 50, true, 0, 0, true, 40, 12};
  }
  static int compute_units(const Kokkos::Cuda& exec) {
    return exec.cuda_device_prop().multiProcessorCount;
  }
  /// permute: 64 x 64 tiles (32 x 32 of 16-byte elements) moved by 4 x 32
  /// work items, within the 48 KiB a block gets without opt-in; one tile a
  /// team unless skewed (skewed tiles ran faster with four).
  static TileConfig permute_tile(std::size_t elem_bytes) {
    return {elem_bytes >= 16 ? 32 : 64, 4, 32, 1, 4};
  }
  static constexpr int permute_tiled_tiles_per_team = 1;
  /// Boxes whose output starts with a dimension of fewer than 32 elements:
  /// store runs of 256, load runs of 32, moved by 256 work items.
  static constexpr PermuteWideBox permute_wide_box{32, 4, 2, 2, 2};
  /// Decomposed in place: sector-wide column blocks, a column a work item,
  /// lines up to 40 KiB in shared memory, four slots an SM; blocked: batches
  /// up to a quarter of the matrix (each costs two launches).
  static RectInplaceConfig inplace_rect(const Kokkos::Cuda& exec) {
    return {32, 256, 4 * exec.cuda_device_prop().multiProcessorCount, 40 * 1024,
            std::size_t(1) << 40, 1};
  }
  static constexpr int inplace_rect_columns_per_item = 1;
  static constexpr int inplace_rect_loads_in_flight = 8;
  /// tune.hpp's candidates: the default's neighbours in edge, team rows and
  /// tiles a team (16-byte elements stay at 32 x 32).
  static std::vector<TileConfig> transpose_candidates(std::size_t elem_bytes) {
    std::vector<TileConfig> c = {{32, 2, 32, 1, 4}, {32, 4, 32, 1, 4}, {32, 8, 32, 1, 1},
                                 {32, 8, 32, 1, 4}};
    if (elem_bytes <= 8)
      for (TileConfig t : {TileConfig{64, 4, 32, 1, 4}, TileConfig{64, 4, 32, 1, 1},
                           TileConfig{64, 8, 32, 1, 2}, TileConfig{64, 2, 32, 1, 4}})
        c.push_back(t);
    return c;
  }
  static std::vector<TileConfig> permute_candidates(std::size_t elem_bytes) {
    std::vector<TileConfig> c = {{32, 2, 32, 1, 4}, {32, 4, 32, 1, 4}, {32, 8, 32, 1, 4}};
    if (elem_bytes < 16)
      for (TileConfig t : {TileConfig{64, 4, 32, 1, 4}, TileConfig{64, 8, 32, 1, 4},
                           TileConfig{64, 2, 32, 1, 4}})
        c.push_back(t);
    return c;
  }
  static HardwareInfo hardware(const Kokkos::Cuda& exec) {
    return cuda_hardware(exec.cuda_device(), exec.concurrency());
  }
};
}  // namespace tilekit::backends
#endif
