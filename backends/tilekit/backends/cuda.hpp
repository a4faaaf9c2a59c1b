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
  /// transpose: 64 x 64 tiles, 4 x 32 = 128 work items per team, so a tile is
  /// 32 elements per work item, all staged in registers (H200, 16384^2 float,
  /// four tiles a team: 83% of deep_copy; 8 x 32 work items: 61%). One tile a
  /// team for 4- and 8-byte elements: a team then loads no next tile during
  /// its stores, but the league is four times as large and the loads in
  /// flight are other resident teams' (measured, not profiled). H100, % of
  /// the copy of the same run, two rounds, four / two / one
  /// tiles a team (bench/results/tiles-per-team-h100/): float 16384^2 86.3-86.8
  /// / 88.9-89.0 / 90.7-90.9, 10007 x 10009 83.8-84.1 / 87.8-88.1 / 90.6-91.4,
  /// 12289 x 8191 83.5-84.1 / - / 91.4-92.3, 9999^2 83.5-83.6 / - /
  /// 90.9-91.0, 1000 x 100003 79.1-79.3 / 79.8-80.1 / 80.3-80.7; double
  /// 16384^2 89.8-90.2 / 90.9-91.0 / 91.3-92.5, 9999^2 86.1-86.3 / - /
  /// 93.1-93.3. 2-byte elements keep four (half 16384^2: 83 against 77 with
  /// one; its odd shapes gain with one, 10007 x 10009 46 -> 58). In place: a
  /// pair of 32 x 32 tiles per step, 2 x 32 work items (16 elements of each
  /// tile per work item), one pair a team (four / one: float 16384^2
  /// 88.6-89.0 / 89.8-90.3 in three of four rounds, 9999^2 57.3-57.5 /
  /// 78.8-79.2; double 16384^2 88.7-89.7 / 91.0-91.1, 9999^2 69.0-69.3 /
  /// 86.0-87.2; half 16384^2 58.1-58.4 / 62.0; 64 x 64 tiles with 8 x 32 work
  /// items: 77%).
  static constexpr int stage_registers = 32;
  /// The staged transposes use about 100 registers per thread on sm_90, so a
  /// block holds at most 640 of their threads; larger teams (seed 002's
  /// 1024-thread blocks) take the kernels without staging registers.
  static constexpr int staged_team_max = 512;
  /// The kernels without staging are compiled for blocks of up to 1024
  /// threads (launch bounds: at most 64 registers a thread), the most a Cuda
  /// block holds.
  static constexpr int team_launch_max = 1024;
  /// 16-byte elements (complex<double>): a padded 64 x 64 tile needs 66 KB of the
  /// 40 KB of team scratch a launch gets, so they take 32 x 32 tiles (found by the
  /// randomized tests: the default call threw for cdouble on Cuda).
  static TileConfig transpose_tile(std::size_t elem_bytes) {
    if (elem_bytes > 8) return {32, 4, 32, 1, 4};
    return {64, 4, 32, 1, elem_bytes >= 4 ? 1 : 4};
  }
  static TileConfig transpose_inplace_tile(std::size_t /*elem_bytes*/) {
    return {32, 2, 32, 1, 1};
  }
  /// Matrices with a side of at most 64 bytes (2 x N to 16 x N floats, and
  /// N x 16) take the thin kernels: a 64-wide tile of them is a sliver (2 x
  /// 2^25 floats ran at 6% of copy tiled, 9 x 2^23 and 2^23 x 9 at 25-32%;
  /// H200 and H100, bench/awkward.sh). Where the output's rows are the thin
  /// side and hold at least 16 bytes (4 x N floats), chunks of 512 long-side
  /// elements go through team scratch (TransposeThinStaged: 32 KiB for the
  /// widest rows), read by 512-thread teams, one column of the chunk per work
  /// item, and written back in 16-byte units. H100, % of copy: 8 x 2^23
  /// floats 96, 9 x 2^23 98, 16 x 2^23 94, 4 x 2^24 90, 12 x 2^23 97 (the
  /// former staged kernel, 128-thread teams and element-wise passes: 59, 52,
  /// 62, -, -; integer-bound at 74% of the SMs' issue). A prototype swept the
  /// team, 128 / 256 / 512 threads: 8 x N 88 / 92 / 94, 16 x N 88 / 90 / 91.
  /// Where the input's rows are the thin side, each work item reads its own
  /// row, which its neighbours' reads leave in cache (TransposeThin): 2^23 x
  /// 8, 9 and 16 floats 96-98, 2^25 x 2 93 (bench/results/thin-h100/).
  static constexpr int transpose_thin_bytes = 64;
  /// A work item of TransposeThin loads its whole thin side before it
  /// stores it: 2^23 x 16 floats with one load in flight at a time ran at 56%
  /// of copy (no eligible warp in 93% of issue slots), 98% with the batch.
  /// Hosts keep the plain loop (transpose_thin_batch_bytes unset): on the
  /// 2-core development machine batches of 2, 4 and 8 floats ran slower than
  /// one at a time (2 x 2^23: 19, 14, 13 and 8 GB/s for 1, 2, 4 and 8).
  static constexpr int transpose_thin_batch_bytes = 64;
  /// Skewed tiles (TransposeTiled): every store starts on a 32-byte sector
  /// where the output's rows do not (odd rows). H100, tiled_padded, % of the
  /// copy of the same run, --align 0 -> 32 (bench/results/skew-h100/):
  /// float 10007 x 10009 60 -> 81, 9999^2 59 -> 81, 8191^2 61 -> 82,
  /// 12289 x 8191 -> 82; double 72-74 -> 87. Shapes whose output rows start
  /// on sectors (16384^2, 1000 x 100003) do not skew and do not change.
  static constexpr int transpose_store_sector = 32;
  /// The default skews elements of 4 bytes or more (S <= 8) only: 2-byte
  /// ones (S = 16) ran slower skewed, 16 rows in 64 written per 63 read.
  /// H100, half, % of copy, --align 0 -> 32: transpose 10007 x 10009 46 ->
  /// 34; permute 1023 x 1025 x 255 (210, 120, 021) 52, 61, 50 -> 39, 43, 39.
  /// Float and double permutes of it: 63-70 -> 84-91 and 76-83 -> 86-94.
  static constexpr int transpose_skew_max = 8;
  /// The permute's staged kernels move 2-byte elements (pure moves) in 4-byte
  /// pairs where every row starts on and holds whole pairs
  /// (PermutePlan::pack_width): one access and one staging register per pair,
  /// and tiled teams of half the work items, so each stages 32 pairs. H200,
  /// (512, 512, 1024) half, % of copy: copy 53 -> 92, rows 51 -> 87, tiled
  /// 46-49 -> 74-78 (84-94 with the shorter staged walk of 2d49c0d).
  static constexpr int permute_pack_bytes = 4;
  static constexpr int transpose_thin_chunk = 512;
  static constexpr int transpose_thin_team = 512;
  static constexpr int transpose_thin_stage_bytes = 16;
  static constexpr int transpose_thin_store_bytes = 16;
  /// cmm: one thread per work item, tiles in shared memory. Blocked: 128-
  /// thread blocks (16 x 8 work items), 8 rows x 8 (float) or 4 (double)
  /// column sets per thread, a 128-row x 64 (32) column-set tile per block,
  /// and a bound of two blocks per SM: 255 registers for floats (ptxas,
  /// sm_90; 226 for doubles), no spills, so one block computes while the
  /// other waits at its step's barrier. Floats stage 16 k per step (35 KiB of
  /// scratch for both buffers), doubles 8 (16 k: 52 KiB, above the 40 KiB a
  /// Kokkos team gets). H100, % of cuBLAS at N = 4096 / 8192 / 4000, float:
  /// this shape 63.7 / 62.6 / 64.5; 8 k per step 54.4 / 53.0 / 56.6; the
  /// 256-thread block (128 x 128 sets, 8 k, one block an SM: 203 registers,
  /// a bound of two spills) 57.8 / 56.4 / 59.6; pad 0: 47, pad 8: 56-58;
  /// tile groups of 2-16 within 0.6 points. Double: 27.6 / 26.2 / 27.7
  /// against 25.1 / 24.4 / 25.2 with 256 threads (cuBLAS uses DMMA). Every
  /// staged line must be one share of the team's threads (8 x 16 work items:
  /// 256 columns of B for 128 threads, the general staging path: 13%), and
  /// k_step must split evenly (12 k: 41%) (bench/results/cmm-shape-h100/).
  /// Tiled: one output per thread, 16 x 16 per block, 32 k per step (16 k:
  /// 40% slower; 32 x 8 or 8 x 32 threads: 27-35% slower).
  static constexpr CmmShape cmm_shape(std::size_t elem_bytes, bool register_blocked) {
    if (!register_blocked) return {16, 16, 1, 1, 32, 4, 8, 0, 0, 2};
    return elem_bytes >= 8 ? CmmShape{16, 8, 8, 4, 8, 2, 8, 0, 0, 2}
                           : CmmShape{16, 8, 8, 8, 16, 4, 4, 0, 0, 2};
  }
  /// reduce: 256-thread blocks (8 warps); each thread keeps four 16-byte loads
  /// in flight (64 bytes, for every element type). Production league: one
  /// resident wave, 50% of the 8 blocks of 256 threads an SM holds at full
  /// occupancy (the sum kernels held 48-56 registers when this was set; at 6337028
  /// the double sum holds 70, three blocks an SM: fit_league): 4 blocks per SM, 528 on an
  /// H200, which keeps 64 KiB of loads in flight per SM and leaves the last
  /// block about two partials per thread to join. Swept on the H200 (sum, %
  /// of CUB's throughput, float 2^22 / 2^24 / 2^26): 264 teams 81 / 78 / 80,
  /// 528 teams 85 / 90 / 94, 1056 teams 69 / 82 / 92, 2112 teams - / 71 / 88;
  /// eight loads in flight instead of four: 88 / 83 / 85. The ladder's step 6 caps its
  /// league at two blocks per 256 resident threads; its block is one team and
  /// its unrolled last level one warp. The league is also capped at the teams
  /// an SM holds given the kernel's registers (fit_league): the compensated
  /// sum uses 72 registers, so 3 teams per SM (396 on an H200, 3.9 TB/s at
  /// 2^28 floats against 3.3 with 528 teams in two uneven waves); MinLoc and
  /// MaxLoc about 100, 2 per SM.
  /// Interleaved rounds (not for MinLoc/MaxLoc by default), each round's loads
  /// issued before the previous round is folded (where an accumulator is no
  /// wider than an element: ReduceKernel::Ahead), and loads through the
  /// read-only path (backends::load_stream):
  /// H100, sum, % of CUB's throughput, float 2^24 / 2^26 / 2^28 / 2^30, three
  /// rounds each: contiguous shares and plain loads 94.7 / 94.7 / 96.0 / 97.7;
  /// read-only loads 104.4 / 95.8 / 96.2 / 97.9; and interleaved 101.1 / 98.5
  /// / 98.1 / 98.7; and the next round's loads ahead 102.6 / 99.8 / 98.7 /
  /// 98.9 (an L2 prefetch hint of 256 bytes: 102.9 / 100.5 / 99.8 / 93.8).
  /// Larger views deal their rounds to more teams: whole waves of the league
  /// (team_rounds 40: a wave for every 40 rounds a team of the league would
  /// take, up to 12; the double sum: 396 teams at 2^24, 792 at 2^26, 3168 at
  /// 2^28, 4752 from 2^29). H100, sum, % of CUB's throughput at 2^28 / 2^30
  /// (bench/results/reduce-waves-h100/): double, 396 teams 99.3 / 98.5, 1584
  /// 100.2 / 99.6, 3168 100.9 / 100.1, 4224 102.0 / 100.7, 6336 101.7 / 100.5;
  /// float, 528 teams 100.2 / 100.1, 1584 100.4 / 100.8, 4224 102.0 / 101.7,
  /// 6336 102.3 / 102.3. A last partial wave is a tail (double, 2^26: 792
  /// teams 100.5, 820 93; 528 at 2^28 95.9); one wave stays best below 2^26.
  static constexpr ReduceConfig reduce_config() {
    return {8, 32, 16, 4, 50, true, 0, 0, true, 40, 12};
  }
  static int compute_units(const Kokkos::Cuda& exec) {
    return exec.cuda_device_prop().multiProcessorCount;
  }
  /// permute: tiles of 64 x 64 elements (padded: 33 KiB for 8-byte ones, within
  /// the 48 KiB a block gets without opt-in; 32 x 32 for 16-byte ones) moved by
  /// a flat team of 4 x 32 work items, so a tile is at most 32 staged elements
  /// per work item, and the next tile's loads are in flight during a store;
  /// four tiles per team.
  static TileConfig permute_tile(std::size_t elem_bytes) {
    return {elem_bytes >= 16 ? 32 : 64, 4, 32, 1, 4};
  }
  /// The permute's tiled kernel takes one tile a team where its tiles are not
  /// skewed (skewed ones keep four). H100, the awkward permute set (floats, %
  /// of copy, two alternated rounds), four / one tile a team: 7 x 33 x 5 x 64
  /// x 31 x 29 reversed 57 / 69, 3 x 4096 x 4096 x 5 reversed 62 / 79, the
  /// power-of-two rank 3-6 cases 88.5-97 / 89.5-100; lower with one: (7, 33,
  /// 5, 64, 31, 29) [1, 0, 3, 2, 5, 4] 84 / 76, (3, 4096, 4096, 5) [3, 1, 2,
  /// 0] 90 / 83; the skewed 1023 x 1025 x 255 84-93 / 75-83 (hence four).
  static constexpr int permute_tiled_tiles_per_team = 1;
  /// Boxes whose output side starts with a dimension of fewer than 32
  /// elements (runs of several small dimensions, offsets from tables) take
  /// store runs of 256 elements, load runs of 32 and up to 2 x 64^2 elements,
  /// moved by 256 work items (PermuteWideBox; 4-byte and smaller elements:
  /// larger ones exceed the 48 KiB of scratch and keep the default box).
  static constexpr PermuteWideBox permute_wide_box{32, 4, 2, 2, 2};
  /// Launch shapes tune.hpp tries: the default and its neighbours in tile
  /// edge (32, 64), team rows (2 to 8 rows of 32 lanes) and tiles per team;
  /// 16-byte elements stay at 32 x 32 (scratch).
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
