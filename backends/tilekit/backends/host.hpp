#pragma once
// The host backends, Serial and OpenMP: a team is one thread, so a tile loop
// is a plain loop the compiler vectorises; a CPU's tiles pay for their reads,
// so they read long runs (which the prefetchers follow) and write whole rows.
// docs/performance.md has the measurements behind each value.
#include <tilekit/backends/primary.hpp>
#include <tilekit/backends/vector_block.hpp>

namespace tilekit::backends {
template <class Exec>
struct HostTraits {
  static constexpr int loads_in_flight = 1;
  static constexpr long max_league = 1L << 30;
  static constexpr int stage_registers = 1;
  /// Out of place: tiles of transpose_tile_rows input rows by 4 KiB, so each
  /// writes 64 elements of each of its output rows at once and reads its
  /// rows L at a time along 4 KiB (micro_transpose.hpp); the tile transposed
  /// in scratch (256 KiB of 4-byte elements) stays in L2. Taller tiles (128
  /// rows) were no faster where their scratch fit, and slower with rows far
  /// apart (docs/performance.md).
  static TileConfig transpose_tile(std::size_t elem_bytes) {
    const int edge = static_cast<int>(4096 / (elem_bytes > 0 ? elem_bytes : 1));
    return {edge, 1, 1, 1};
  }
  static constexpr int transpose_tile_rows = 64;
  /// Default edges halve (to 32) while a thread would get fewer tiles.
  static constexpr int tiles_per_thread = 4;
  /// Where the vectors below are not there, tiles move in 8 x 8
  /// micro-blocks (impl/common/micro_transpose.hpp), read into scratch
  /// transposed and prefetching the next row of micro-blocks (each short run
  /// starts cold).
  static constexpr int transpose_micro_edge = 8;
  static constexpr int transpose_prefetch_blocks = 1;
  /// The in-place pair swap's micro-blocks move W x W blocks in the
  /// compiler's vector registers (vector_block.hpp).
  static constexpr int transpose_vector_bytes = vector_bytes();
  /// Out-of-place tiles go into scratch in line blocks transposed in the
  /// registers of the CPU running them (AVX2, AVX-512: chosen at run time on
  /// x86-64) where those have at least 32 bytes; with 16-byte vectors (SSE2,
  /// NEON) the micro-blocks were as fast (docs/performance.md) ...
  static constexpr int transpose_runtime_min_bytes = 32;
  /// ... with at most 8 elements per vector (8 x 8 blocks of floats with
  /// AVX2, of doubles with AVX-512): a line block keeps at least W rows in
  /// registers, which wider vectors of small elements overflow, so 1- and
  /// 2-byte elements keep the micro-blocks.
  static constexpr int transpose_runtime_max_lanes = 8;
  /// Outputs past the last-level cache are streamed (no read of the lines).
  static constexpr long stream_min_bytes = 1L << 25;
  /// Tiles go down columns: a thread's writes continue the same rows.
  static constexpr bool tiles_down_columns = true;
  /// Tiles live in level-1 scratch (level 0 holds 32 KiB on OpenMP).
  static constexpr int tile_scratch_level = 1;
  /// A side of at most 32 bytes: the thin kernel (a few streams a thread).
  static constexpr int transpose_thin_bytes = 32;
  /// In place: pairs of tiles of 512-byte rows, in L2 until written back.
  static TileConfig transpose_inplace_tile(std::size_t elem_bytes) {
    const int edge = elem_bytes >= 16 ? 32 : elem_bytes >= 8 ? 64 : elem_bytes >= 4 ? 128 : 256;
    return {edge, 1, 1, 1};
  }
  /// Rows 4 KiB-multiples apart (past stream_min_bytes) share few cache sets:
  /// the pair's lower tile then goes in strips, the upper streamed, 1 KiB rows.
  static constexpr int inplace_alias_bytes = 4096;
  static constexpr int inplace_alias_tile_bytes = 1024;
  /// cmm: a team is one thread running every work item of a tile in turn, so
  /// tiles are large (staging is amortised) and live in level-1 scratch.
  static constexpr CmmShape cmm_shape(std::size_t elem_bytes, bool register_blocked) {
    const int k = elem_bytes >= 8 ? 32 : 64;
    if (!register_blocked) return {32, 32, 1, 1, k, 0, 4, 1, 1, 0};
    return elem_bytes >= 8 ? CmmShape{32, 32, 4, 4, k, 0, 4, 1, 1, 0}
                           : CmmShape{32, 16, 4, 8, k, 0, 4, 1, 1, 0};
  }
  /// reduce: one team per thread reading its share in 32-byte loads, four in
  /// flight (strided runs too); MinLoc/MaxLoc fold 128 rows by value first
  /// (vectorised), then look for the index only where the extremum improves.
  static constexpr ReduceConfig reduce_config() { return {1, 1, 32, 4, 100, false, 32, 128}; }
  /// permute: boxes of 256 KiB of scratch, runs as the transpose's tiles.
  static TileConfig permute_tile(std::size_t elem_bytes) {
    const int edge = elem_bytes >= 16 ? 64 : elem_bytes >= 8 ? 128 : elem_bytes >= 4 ? 256 : 512;
    return {edge, 1, 1, 1};
  }
  /// The rows method walks the input's order (reads run on), with a smaller
  /// edge than the tiles so mid-sized tensors give every thread several steps.
  static constexpr bool permute_rows_input_order = true;
  static constexpr int permute_rows_edge(std::size_t elem_bytes) {
    return elem_bytes >= 16 ? 16 : elem_bytes >= 8 ? 32 : 64;
  }
  /// Pure 2-D transpositions (and batches of them) run the transpose's engine:
  /// its tiles, walk and prefetching beat the boxes.
  static constexpr bool permute_2d_by_transpose = true;
  /// Decomposed in place: a slot per thread, column blocks of 256 bytes (rows
  /// a matrix row apart: each visit brings several lines), no team scratch (a
  /// Serial launch with it costs about a step); blocked: 8 MiB batches (LLC).
  static RectInplaceConfig inplace_rect(const Exec& exec) {
    return {256, 1, exec.concurrency(), 0, std::size_t(8) << 20, 0};
  }
  static constexpr int inplace_rect_columns_per_item = 64;
  static constexpr int inplace_rect_loads_in_flight = 4;
  /// tune.hpp's candidates: edges 16 to 256 (transpose: to 2048, rows x edge).
  static std::vector<TileConfig> permute_candidates(std::size_t /*elem_bytes*/) {
    return {{16, 1, 1, 1}, {32, 1, 1, 1}, {64, 1, 1, 1}, {128, 1, 1, 1}, {256, 1, 1, 1}};
  }
  static std::vector<TileConfig> transpose_candidates(std::size_t e) {
    auto c = permute_candidates(e);
    for (int edge : {512, 1024, 2048}) c.push_back({edge, 1, 1, 1});
    return c;
  }
  static HardwareInfo hardware(const Exec& exec) {
    return host_hardware(Exec::name(), exec.concurrency());
  }
};

#if defined(KOKKOS_ENABLE_SERIAL)
template <>
struct Traits<Kokkos::Serial> : HostTraits<Kokkos::Serial> {};
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
template <>
struct Traits<Kokkos::OpenMP> : HostTraits<Kokkos::OpenMP> {};
#endif
}  // namespace tilekit::backends
