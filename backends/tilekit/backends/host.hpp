#pragma once
// Data shared by the host backends (OpenMP, Serial): a team is one thread
// (team size 1, vector length 1) and the tile loop is a plain loop the compiler
// vectorises. Out of place, a tile of 64 input rows by 4 KiB (128 rows of
// 4-byte elements) reads runs of 4 KiB, which the hardware prefetchers follow,
// and writes runs of 64 elements (128 of 4-byte ones: 512 bytes);
// in place, a pair of 128 x 128 tiles (64 x 64 of 8-byte elements) rows of 512
// bytes; the permute's boxes, where they transpose, load runs of 4 KiB and
// store runs of 64 elements as the transpose's tiles. Tiles live in level-1
// scratch.
#include <tilekit/backends/traits.hpp>

namespace tilekit::backends {
template <class Exec>
struct HostTraits {
  static constexpr int loads_in_flight = 1;
  static constexpr long max_league = 1L << 30;
  /// Out of place: tiles of 64 input rows by 4 KiB of each (64 x 512 8-byte
  /// elements, 256 KiB of scratch; 4-byte ones 128 x 1024, 512 KiB, below): a
  /// tile reads 64 runs of 4 KiB and writes 512 runs of 512 bytes (streamed
  /// when large). The edge was chosen with tiles of 64 rows.
  /// Reads are what a CPU's tiles pay for: on the 2-core AMD EPYC, 2 threads,
  /// 8192^2 floats, reading square 512 x 512 tiles (runs of 2 KiB) moved
  /// 16 GB/s against 28 for one sequential read, and a tile copy without
  /// transposing (read, then streamed write) 21-23 GB/s against 29-35 for
  /// memcpy. tiled_padded, GB/s, alternated runs of both builds: 512 x 512
  /// (the former default) 19.8-20.0 floats, 20.1-21.2 doubles; 64 x 2048
  /// 21.2-21.5, 64 x 1024 22.3-22.5 floats, 64 x 1024 doubles 25.4-25.9. The
  /// plan halves the edge (not the rows) for matrices that would give a thread
  /// fewer than tiles_per_thread tiles.
  static TileConfig transpose_tile(std::size_t elem_bytes) {
    const int edge = static_cast<int>(4096 / (elem_bytes > 0 ? elem_bytes : 1));
    return {edge, 1, 1, 1};
  }
  /// The input rows of those tiles (impl::transpose_tile_rows), and of the
  /// permute's host boxes that transpose.
  static constexpr int transpose_tile_rows = 64;
  /// The out-of-place transpose's tiles of 4-byte elements take 128 input rows
  /// (128 x 1024 floats, 512 KiB of scratch), so that a tile writes 512 bytes
  /// of each output row, as the doubles' 64 rows do; other sizes keep
  /// transpose_tile_rows (not measured otherwise). 16-core Xeon of an H200
  /// machine, 16 threads, floats, % of memcpy, three alternated rounds, 64 ->
  /// 128 rows: 16384^2 76.2, 77.0, 75.6 -> 81.0, 82.0, 81.2 (another machine
  /// of the kind ran 16384^2 floats at 51-69% with any tile edge of 64 rows,
  /// doubles at 76-85); 10007 x 10009 63.0, 68.6, 61.6 -> 75.7, 81.7, 55.8;
  /// 8200 x 8192 80.3, 69.7, 67.0 -> 92.6, 90.4, 54.1; 512 x 524288 112.1,
  /// 105.4, 97.4 -> 85.5, 112.2, 100.6. 2-core slice of the same Xeon, two
  /// rounds: 16384^2 44.0, 39.6 -> 51.0, 50.1; 8192^2 45.5, 45.5 -> 44.1, 51.7
  /// (bench/results/host-tile-rows-128/).
  static constexpr int transpose_tile_rows_for(std::size_t elem_bytes) {
    return elem_bytes == 4 ? 128 : transpose_tile_rows;
  }
  /// The default tile edges (out of place, in place, permute) are halved
  /// (down to 32) while a matrix or tensor would give each thread fewer
  /// tiles than this (a 2048^2 matrix on 16 threads: 64 tiles of 256, not 16
  /// of 512).
  static constexpr int tiles_per_thread = 4;
  static constexpr int stage_registers = 1;
  /// The transposes (out of place, in place, the permute's boxes whose
  /// scratch is transposed) move their tiles in micro-blocks of 8 x 8
  /// elements, plain loops of compile-time trip counts that the compiler
  /// unrolls and vectorises (impl/common/micro_transpose.hpp): each tile is read
  /// from memory straight into scratch transposed, then written out as whole
  /// destination rows.
  static constexpr int transpose_micro_edge = 8;
  /// While it reads a row of micro-blocks (8 input rows of the tile), the
  /// transposes' micro-kernel prefetches the same columns of the next 8 rows
  /// into L2 (impl::micro_store_transposed_rows): each row of a tile is a
  /// short run (4 KiB out of place, 512 bytes in place), 32 or 64 KiB from the
  /// next, which the hardware prefetchers start on cold. 2-core EPYC, 2
  /// threads, 8192^2 and 16384^2, two alternated rounds, GB/s: in place
  /// 13-23 -> 20-30, out of place floats 19-22 -> 25-27, doubles 23-28 ->
  /// 22-29 (16 or 32 rows ahead, or one prefetch a line: no better; the
  /// 16-core Xeon's figures: docs/performance.md). A tile's last row of
  /// micro-blocks prefetches the first rows read next (the next tile down the
  /// column out of place; in place the pair's lower tile, then the next
  /// pair's upper). The permute's boxes do not prefetch: its 3-D cases lost
  /// on both hosts.
  static constexpr int transpose_prefetch_blocks = 1;
  /// Out-of-place outputs of 32 MiB or more (beyond the last-level cache) are
  /// written with streaming stores: no read of the destination lines first.
  static constexpr long stream_min_bytes = 1L << 25;
  /// Consecutive tiles go down a column of tiles, so a thread's writes continue
  /// the same destination rows from tile to tile (impl/common/micro_transpose.hpp).
  static constexpr bool tiles_down_columns = true;
  /// Tiles live in level-1 scratch (the transposes' and the permute's): level
  /// 0 holds 32 KiB on OpenMP, and 512 x 512 floats (1 MiB) write
  /// destination rows of 2 KiB.
  static constexpr int tile_scratch_level = 1;
  /// Matrices with a side of at most 32 bytes (2 x N, N x 8 floats) take the
  /// thin kernel: each thread walks the long side, a few contiguous streams.
  static constexpr int transpose_thin_bytes = 32;
  /// In place: pairs of tiles whose rows hold 512 bytes (128 x 128 4-byte
  /// elements, 64 x 64 8-byte ones: 128 KiB of level-1 scratch a pair; the
  /// plan halves the edge for small matrices as out of place). The pair is
  /// read and written back in place, so it should stay in L2 between the two:
  /// 8192^2 floats, GB/s, tile 32 / 128 / 256: 2-core EPYC 9.7 / 16.2-18.0 /
  /// 18.7-19.5; 16-core Xeon (the former 32 x 32 kernel 65-72) 60-67 at 128,
  /// 44-63 at 256.
  static TileConfig transpose_inplace_tile(std::size_t elem_bytes) {
    const int edge = elem_bytes >= 16 ? 32 : elem_bytes >= 8 ? 64 : elem_bytes >= 4 ? 128 : 256;
    return {edge, 1, 1, 1};
  }
  /// In place, where the rows lie a multiple of 4 KiB apart (16384^2 floats:
  /// 64 KiB) and the matrix is past stream_min_bytes: the pair's rows then
  /// share few cache sets, so its lines are gone from L2 before they are
  /// written back, and each write first reads its line again. The pair swap
  /// then reads the lower tile in strips of micro-block rows, each written
  /// back at once while in L1, and streams the upper tile's rows
  /// (impl::TransposeInplaceBlocked). 16-core Xeon, 16 threads, % of memcpy,
  /// two rounds: 16384^2 floats 58-61 -> 72-74, doubles 60-61 -> 75-80,
  /// 12288^2 floats 60-66 -> 78-79; at 16000^2 (64000-byte rows) the plain
  /// path keeps 95-100% and the strips lose (82-87), hence the rule.
  static constexpr int inplace_alias_bytes = 4096;
  /// The pair tiles' rows in that order, in bytes, unless a tile is given:
  /// 1 KiB (256 x 256 4-byte elements, 128 x 128 8-byte ones). Xeon, % of
  /// memcpy, rows of 256 / 512 / 1024 bytes, two rounds: 16384^2 floats 67 /
  /// 67-70 / 80-85, doubles (rows of 512 / 1024 / 2048) 68-69 / 77-78 /
  /// 55-65; 8192^2 within the runs' spread.
  static constexpr int inplace_alias_tile_bytes = 1024;
  /// cmm: a team is one thread running every work item of a tile in turn, so
  /// tiles are large (staging is amortised) and live in level-1 scratch.
  static constexpr CmmShape cmm_shape(std::size_t elem_bytes, bool register_blocked) {
    const int k = elem_bytes >= 8 ? 32 : 64;
    if (!register_blocked) return {32, 32, 1, 1, k, 0, 4, 1, 1, 0};
    return elem_bytes >= 8 ? CmmShape{32, 32, 4, 4, k, 0, 4, 1, 1, 0}
                           : CmmShape{32, 16, 4, 8, k, 0, 4, 1, 1, 0};
  }
  /// reduce: one team per thread (Serial: one team), each reading its share as
  /// 32-byte loads, four in flight; the ladder's 256-item block and 32-wide
  /// "warp" are loops. A strided view is read 32 bytes of a run at a time too.
  /// MinLoc/MaxLoc take 128 rows (4 KiB of floats) at a time: their values
  /// first, vectorised, then indices only where the min/max improves.
  static constexpr ReduceConfig reduce_config() {
    return {1, 1, 32, 4, 100, false, 32, 128};
  }
  /// permute: boxes of 256 x 256 floats, 128 x 128 doubles (256 KiB of
  /// level-1 scratch), taken as load runs of edge^2 / 64 elements and store
  /// runs of 64 (transpose_tile_rows). With square boxes, (512, 512, 1024)
  /// floats, the four permutations that move the innermost dimension, GB/s,
  /// tile 64 / 256 / 512: 16-core
  /// Xeon 43-60 / 58-77 / 48-74; 2-core EPYC 7-18 / 12-21 / 16-21.
  static TileConfig permute_tile(std::size_t elem_bytes) {
    const int edge = elem_bytes >= 16 ? 64 : elem_bytes >= 8 ? 128 : elem_bytes >= 4 ? 256 : 512;
    return {edge, 1, 1, 1};
  }
  /// The permute's rows method walks the rows in the input's order: reads
  /// run on from row to row, the writes (streamed when large) need no
  /// prefetching.
  static constexpr bool permute_rows_input_order = true;
  /// The permute's pure moves whose fused problem is a 2-D transposition
  /// ([1, 2, 0] and [2, 0, 1] of a 3-D tensor, the innermost dimension moved
  /// outward at any rank) run the out-of-place transpose's plan: its tiles of
  /// 64 (floats 128) rows by 4 KiB, walked down the columns of tiles, with
  /// the next rows prefetched (the permute's boxes prefetch nothing). GB/s,
  /// boxes -> transpose: 2-core EPYC, (512, 512, 1024) floats [2,0,1] 21 ->
  /// 27-28, rank 4-6 with the innermost moved outward 10-17 -> 25-32;
  /// 16-core Xeon, those at 79-99 (88-99% of memcpy), but [1,2,0] and
  /// [2,0,1] of floats 81-86 -> 74-79 (docs/performance.md, "The permute's
  /// 2-D transpositions through the transpose"; tiles of 64 rows then).
  /// Batches of them ([2,1,0] and
  /// [0,2,1] of a 3-D tensor, matrices of at least transpose_tile_rows both
  /// ways) too, one launch for the batch: (512, 512, 1024), GB/s, boxes ->
  /// transpose, EPYC floats [2,1,0] 19.8 -> 21.0-21.1, [0,2,1] 22.9-25.3 ->
  /// 27.6-28.5; Xeon floats [2,1,0] 67-68 -> 65-70, [0,2,1] 91 -> 74-84,
  /// doubles 66-68 -> 67-76 and 79-89 -> 80-91 (bench/results/host-batched-*).
  static constexpr bool permute_2d_by_transpose = true;
  /// The permute's rows method (the fastest dimension stays) keeps the
  /// former tile's edge: fastest extents from 64 floats (32 doubles) move as
  /// rows, 4096 elements a team step, so mid-sized tensors still give every
  /// thread several steps.
  static constexpr int permute_rows_edge(std::size_t elem_bytes) {
    return elem_bytes >= 16 ? 16 : elem_bytes >= 8 ? 32 : 64;
  }
  /// Launch shapes tune.hpp tries: tile edges of 16 to 256 elements (a
  /// one-thread team: the edge sets the run length and the cache footprint),
  /// and for the transpose 512 to 2048 too (its tiles: 64 or 128 rows by the
  /// edge).
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
}  // namespace tilekit::backends
