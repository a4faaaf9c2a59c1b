#pragma once
// The host path of the tiled transposes: a one-thread team moves its tile in
// micro-blocks of B x B elements. The out-of-place transpose, the in-place
// pair swap and the permute's tiled kernel (the boxes whose scratch its plan
// lays out transposed; their rows through row pointers) read each tile from
// memory into scratch transposed (backends' transpose_micro_edge), then write
// whole destination rows, streamed when large (out of place; the permute's
// gathered rows through a buffer). The
// micro-kernel is plain loops with compile-time trip counts, which
// the compiler unrolls fully and vectorises (docs/performance.md, "CPU path",
// shows what GCC makes of it). Large outputs may be written with streaming
// (non-temporal) stores, which do not read the destination lines first.
//
// Backends choose it as data: Traits<Exec>::transpose_micro_edge (0 or
// absent: the scratch path, as on GPUs), Traits<Exec>::stream_min_bytes
// (outputs of at least this many bytes are streamed; 0 or absent: never) and
// Traits<Exec>::transpose_prefetch_blocks (how many rows of micro-blocks
// ahead the transposes prefetch; 0 or absent: none).
#include <tilekit/backends/traits.hpp>
#include <tilekit/backends/prefetch.hpp>
#include <tilekit/backends/stream_store.hpp>
#include <tilekit/impl/common/tile_copy.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace tilekit::impl {

/// Defines impl::name<Exec>(): the backend's optional datum
/// Traits<Exec>::name where the backend gives it, else `fallback`. Every
/// backend difference of the transposes that a backend may leave out is read
/// through one of these.
#define TILEKIT_OPTIONAL_TRAIT(type, name, fallback)            \
  template <class Exec>                                         \
  KOKKOS_INLINE_FUNCTION constexpr type name() {                \
    if constexpr (requires { backends::Traits<Exec>::name; })   \
      return static_cast<type>(backends::Traits<Exec>::name);   \
    else                                                        \
      return fallback;                                          \
  }

/// The host path's micro-block edge (0: the scratch path, as on GPUs).
TILEKIT_OPTIONAL_TRAIT(int, transpose_micro_edge, 0)
/// Outputs of at least this many bytes are streamed (0: never).
TILEKIT_OPTIONAL_TRAIT(double, stream_min_bytes, 0)
/// In place: row strides, in bytes, of a multiple of which the pair swap's
/// large matrices take its aliased-rows path (0: never).
TILEKIT_OPTIONAL_TRAIT(int, inplace_alias_bytes, 0)
/// The rows, in bytes, of the pair tiles in that path by default (0: the
/// backend's in-place tile).
TILEKIT_OPTIONAL_TRAIT(int, inplace_alias_tile_bytes, 0)
/// The widest thin side, in bytes, below which an out-of-place transpose
/// takes the thin kernel instead of tiles (TransposeThin; 0: always tiles).
TILEKIT_OPTIONAL_TRAIT(int, transpose_thin_bytes, 0)
/// Long-side elements per team step of the staged thin kernel
/// (TransposeThinStaged; 0: the thin kernel without scratch for every thin
/// matrix).
TILEKIT_OPTIONAL_TRAIT(int, transpose_thin_chunk, 0)
/// The thinnest output row, in bytes, that takes the staged thin kernel.
TILEKIT_OPTIONAL_TRAIT(int, transpose_thin_stage_bytes, 0)
/// Bytes of its thin side a work item of the thin kernel (TransposeThin) loads
/// before it stores them (0: one element at a time).
TILEKIT_OPTIONAL_TRAIT(int, transpose_thin_batch_bytes, 0)
/// Work items per team of the staged thin kernel (0: the plan's team).
TILEKIT_OPTIONAL_TRAIT(int, transpose_thin_team, 0)
/// Bytes of the units in which the staged thin kernel writes a dense output
/// run that starts on one (0 or an element's size: element by element).
TILEKIT_OPTIONAL_TRAIT(int, transpose_thin_store_bytes, 0)
/// Bytes of the memory transaction (a GPU's 32-byte sector) that the tiled
/// kernels align their stores to where the output's rows do not start on one
/// (skewed tiles; 0: rectangular tiles for every shape).
TILEKIT_OPTIONAL_TRAIT(int, transpose_store_sector, 0)
/// The most elements per transaction the default skews (0: no limit).
TILEKIT_OPTIONAL_TRAIT(int, transpose_skew_max, 0)
/// Bytes of the units in which the permute's staged kernels move elements
/// smaller than that, where the rows allow (pure moves; 0: element by element).
TILEKIT_OPTIONAL_TRAIT(int, permute_pack_bytes, 0)
/// Elements of T per unit of those moves on Exec (1: none).
template <class Exec, class T>
constexpr int permute_pack_width() {
  constexpr int b = permute_pack_bytes<Exec>(), e = static_cast<int>(sizeof(T));
  return b > e && b % e == 0 ? b / e : 1;
}
/// Whether teams walk the tiles of a transpose down the columns of tiles, so
/// that consecutive tiles continue the same destination rows (a CPU thread's
/// writes stay sequential from tile to tile), rather than along the rows of
/// tiles (GPUs).
TILEKIT_OPTIONAL_TRAIT(bool, tiles_down_columns, false)
/// The team scratch level of the tiled kernels' tiles: the out-of-place
/// transpose's tile, the in-place pair and the permute's tile (a CPU's level
/// 1 holds tiles past the 32 KiB of level 0: rows long enough for the
/// prefetchers and the write streams).
TILEKIT_OPTIONAL_TRAIT(int, tile_scratch_level, 0)
/// Input rows of an out-of-place transpose's tile on the host path (micro
/// blocks, one-thread teams): tiles of rows x edge, the edge along the input's
/// rows, so that a tile reads long runs of memory (0: square tiles).
TILEKIT_OPTIONAL_TRAIT(int, transpose_tile_rows, 0)
/// Micro-block rows ahead whose lines the transposes' micro-kernel prefetches
/// on the host path while it reads a row of micro-blocks (0: none;
/// micro_store_transposed_rows; the permute's boxes pass none).
TILEKIT_OPTIONAL_TRAIT(int, transpose_prefetch_blocks, 0)
/// Whether the permute's rows method walks the rows in the input's order
/// (reads one after another, the output's rows scattered) rather than the
/// output's (make_rows_layout).
TILEKIT_OPTIONAL_TRAIT(bool, permute_rows_input_order, false)
/// Whether the permute's pure moves (one type, alpha 1, beta 0, not
/// conjugated) whose fused problem is a 2-D transposition run the
/// out-of-place transpose's plan (TransposePlan: its tiles, walk and
/// prefetching) rather than the permute's tiled boxes.
TILEKIT_OPTIONAL_TRAIT(bool, permute_2d_by_transpose, false)
/// Tiles a thread should get before a plan halves its default tile edge (the
/// transposes' and the permute's; hosts, whose tiles are large; 0: never).
TILEKIT_OPTIONAL_TRAIT(int, tiles_per_thread, 0)
#undef TILEKIT_OPTIONAL_TRAIT

/// Input rows of a tile `edge` elements wide whose backend asks for tiles of
/// `rows` rows (transpose_tile_rows on the host path; 0: square tiles): the
/// transposes' tiles and the permute's host boxes.
constexpr int tile_rows(int rows, int edge) { return rows > 0 && rows < edge ? rows : edge; }

/// Tiles below which a plan on `threads` threads halves its default tile
/// edge: tiles_per_thread a thread (0: never).
template <class Exec>
index_t tiles_wanted(int threads) {
  return static_cast<index_t>(tiles_per_thread<Exec>()) * (threads > 1 ? threads : 1);
}

/// Micro-block edge in elements on Exec: transpose_micro_edge (at least 2),
/// or 0 where the backend keeps the scratch path.
template <class Exec, class T>
constexpr int micro_edge() {
  constexpr int edge = transpose_micro_edge<Exec>();
  return edge <= 0 ? 0 : edge < 2 ? 2 : edge;
}

/// The backend's transpose_tile_rows where tiles of T in teams of the launch
/// shape `c` take the host path (micro blocks, one-thread teams); 0: square
/// tiles. The transposes' plan and the permute's host boxes ask alike.
template <class Exec, class T>
constexpr int host_tile_rows(const backends::TileConfig& c) {
  return micro_edge<Exec, T>() > 0 && c.team_rows * c.vector == 1 ? transpose_tile_rows<Exec>()
                                                                   : 0;
}

/// The out-of-place transpose's input rows a tile of T on the host path: the
/// backend's transpose_tile_rows_for(sizeof(T)) where it gives one, else
/// host_tile_rows (the permute's host boxes keep host_tile_rows); 0: square
/// tiles.
template <class Exec, class T>
constexpr int host_transpose_rows(const backends::TileConfig& c) {
  const int rows = host_tile_rows<Exec, T>(c);
  if constexpr (requires { backends::Traits<Exec>::transpose_tile_rows_for(sizeof(T)); })
    return rows > 0 ? backends::Traits<Exec>::transpose_tile_rows_for(sizeof(T)) : 0;
  else
    return rows;
}

/// Whether a thin matrix takes the staged thin kernel: the backend has one,
/// and the thin side is the output's rows (rows thin: without scratch each
/// work item writes its own output row) of at least
/// transpose_thin_stage_bytes.
template <class Exec>
constexpr bool transpose_thin_staged(bool rows_thin, std::size_t thin_bytes) {
  return transpose_thin_chunk<Exec>() > 0 && rows_thin &&
         thin_bytes >= static_cast<std::size_t>(transpose_thin_stage_bytes<Exec>());
}

/// Elements S of one store transaction for the skewed tiles of the transpose
/// and the permute (TransposeOptions / PermuteOptions::align: bytes, -1 for
/// the backend's transpose_store_sector) with elements of `bytes`; 0 where
/// there is none (S < 2, or align not a multiple of the element). The
/// backend's default skews only up to Traits<Exec>::transpose_skew_max
/// elements per transaction, where given; an align the caller sets is taken
/// as it is.
template <class Exec>
constexpr int skew_elements(int align, std::size_t bytes) {
  const int a = align >= 0 ? align : transpose_store_sector<Exec>();
  const int S = a % static_cast<int>(bytes) == 0 ? a / static_cast<int>(bytes) : 0;
  constexpr int most = transpose_skew_max<Exec>();
  if (align < 0 && most > 0 && S > most) return 0;
  return S > 1 ? S : 0;
}

/// Whether an output of `bytes` bytes is written with streaming stores on Exec.
template <class Exec>
KOKKOS_INLINE_FUNCTION bool stream_output(double bytes) {
  constexpr double min = stream_min_bytes<Exec>();
  return min > 0 && bytes >= min;
}

/// Whether streaming stores are compiled in (x86-64 host code).
constexpr bool have_stream_stores() { return backends::have_stream_stores(); }

/// dst[0, n) = src[0, n): the run's whole 64-byte lines streamed when `stream`
/// (and the host has streaming stores); its partial first and last lines, and
/// every element otherwise, with plain stores. A streamed store of part of a
/// line costs the memory a read-modify-write of the line: where the output's
/// rows are not whole lines (8200 x 8192 floats, 520 x 524288), streaming every
/// aligned run held the 16-core Xeon's transposes to 33-60% of memcpy. A line
/// two runs share is then stored plainly by both.
template <class T>
KOKKOS_INLINE_FUNCTION void put_run(T* dst, const T* src, int n, bool stream) {
  constexpr std::size_t line = 64;
  if constexpr (std::is_trivially_copyable_v<T> && line % sizeof(T) == 0) {
    const auto addr = reinterpret_cast<std::uintptr_t>(dst);
    if (stream && addr % sizeof(T) == 0) {
      constexpr int per_line = static_cast<int>(line / sizeof(T));
      const int head = static_cast<int>((line - addr % line) % line / sizeof(T));
      const int body = n > head ? (n - head) / per_line * per_line : 0;
      if (body > 0 && backends::stream_copy(dst + head, src + head, body * sizeof(T))) {
        for (int k = 0; k < head; ++k) dst[k] = src[k];
        for (int k = head + body; k < n; ++k) dst[k] = src[k];
        return;
      }
    }
  }
  for (int k = 0; k < n; ++k) dst[k] = src[k];
}

/// Orders this thread's streaming stores before what follows (the end of a
/// kernel: another thread may read the output next).
KOKKOS_INLINE_FUNCTION void stream_fence(bool stream) {
  if (stream) backends::stream_store_fence();
}

/// dst[0, n) = src[pos(j)], j < n: a row gathered from scratch (in L1) into a
/// small buffer, chunk by chunk, and written out by put_run (streamed when
/// `stream`): a store row whose elements are not contiguous in scratch.
template <class T, class Pos>
KOKKOS_INLINE_FUNCTION void put_gathered(T* dst, const T* src, const Pos& pos, int n, bool stream) {
  constexpr int C = 64;  // 16-byte multiples for every element size
  T buf[C];
  for (int j0 = 0; j0 < n; j0 += C) {
    const int m = n - j0 < C ? n - j0 : C;
    for (int j = 0; j < m; ++j) buf[j] = src[pos(j0 + j)];
    put_run(dst + j0, buf, m, stream);
  }
}

/// Rows that a thread reads right after a tile, beyond its last row, whose
/// lines the micro-kernel may prefetch: `rows` rows of which the first `cols`
/// columns are readable, the tile's row function giving them as its rows nr,
/// nr + 1, ... (the next tile down the same columns out of place; the lower
/// tile of an in-place pair, then the next pair's upper). {0, 0}: none.
struct RowsAhead {
  int rows = 0, cols = 0;
};

/// Row function of a tile of n rows at `first` whose rows n, n + 1, ... are
/// those at `next` (RowsAhead's rows: the next tile a thread reads), all rows
/// `stride` elements apart.
template <class T>
KOKKOS_INLINE_FUNCTION auto rows_then(const T* first, int n, const T* next, index_t stride) {
  return [=](int r) { return r < n ? first + r * stride : next + (r - n) * stride; };
}

/// dst[c * ldd + r] = row(r)[c] for r < nr, c < nc, row(r) a pointer to the
/// tile's row r (rows anywhere: the permute's table-driven boxes), dst a
/// scratch tile (contiguous rows, so its micro-blocks never fight over a
/// cache set, whatever the source's row stride). Full B x B micro-blocks go
/// through the micro-kernel, plain loops over compile-time counts that the
/// compiler unrolls and vectorises (it builds the transposed vectors from the
/// loads); the ragged edges go element by element. Rows of micro-blocks are
/// split over the team's work items (one on a CPU). With D > 0 (the backend's
/// transpose_prefetch_blocks), each micro-block also prefetches the same
/// columns of the rows D rows of micro-blocks further down the tile, so those
/// reads find their lines in L2: a tile's reads are short runs (a micro-block
/// row of 8 rows at a time), which the hardware prefetchers start on cold.
/// The last rows of micro-blocks prefetch the rows `ahead` (row(nr), ...),
/// where given, so the next tile's first rows do not start cold either.
template <int B, int D = 0, class T, class Row>
KOKKOS_INLINE_FUNCTION void micro_store_transposed_rows(const Row& row, T* dst, index_t ldd, int nr,
                                                        int nc, int tid, int nt,
                                                        RowsAhead after = {}) {
  const int fc = nc - nc % B;
  for (int i = tid * B; i < nr; i += nt * B) {
    if (i + B <= nr) {
      const T* p[B];
      TILEKIT_UNROLL
      for (int r = 0; r < B; ++r) p[r] = row(i + r);
      [[maybe_unused]] const T* ahead[B] = {};
      // Prefetched columns: the tile's, or those of the rows after it.
      [[maybe_unused]] int pc = 0;
      if constexpr (D > 0) {
        const int a = i + D * B;
        pc = a + B <= nr ? fc : a + B <= nr + after.rows ? Kokkos::min(fc, after.cols) : 0;
        if (pc > 0)
          TILEKIT_UNROLL
          for (int r = 0; r < B; ++r) ahead[r] = row(a + r);
      }
      for (int j = 0; j < fc; j += B) {
        if constexpr (D > 0)
          if (j + B <= pc)
            TILEKIT_UNROLL
            for (int r = 0; r < B; ++r) backends::prefetch_read(ahead[r] + j);
        T v[B][B];
        TILEKIT_UNROLL
        for (int r = 0; r < B; ++r)
          TILEKIT_UNROLL
          for (int c = 0; c < B; ++c) v[r][c] = p[r][j + c];
        TILEKIT_UNROLL
        for (int c = 0; c < B; ++c)
          TILEKIT_UNROLL
          for (int r = 0; r < B; ++r) dst[(j + c) * ldd + i + r] = v[r][c];
      }
      for (int j = fc; j < nc; ++j)
        TILEKIT_UNROLL
        for (int r = 0; r < B; ++r) dst[j * ldd + i + r] = p[r][j];
    } else {
      for (int r = i; r < nr; ++r) {
        const T* q = row(r);
        for (int j = 0; j < nc; ++j) dst[j * ldd + r] = q[j];
      }
    }
  }
}

/// The same from a tile of row stride lds at src (the transposes); `after`:
/// the rows below the tile, src + nr * lds on.
template <int B, int D = 0, class T>
KOKKOS_INLINE_FUNCTION void micro_store_transposed(const T* src, index_t lds, T* dst, index_t ldd,
                                                   int nr, int nc, int tid, int nt,
                                                   RowsAhead after = {}) {
  micro_store_transposed_rows<B, D>([&](int r) { return src + r * lds; }, dst, ldd, nr, nc, tid,
                                    nt, after);
}

/// dst[r * ldd + c] = s(r, c) for r < nr, c < nc: a scratch tile written out
/// row by row, each row one contiguous run (streamed when `stream`). Rows
/// are split over the team's work items (one on a CPU).
template <class Tile, class T>
KOKKOS_INLINE_FUNCTION void store_tile_rows(const Tile& s, T* dst, index_t ldd, int nr, int nc,
                                            int tid, int nt, bool stream) {
  for (int r = tid; r < nr; r += nt) put_run(dst + r * ldd, &s(r, 0), nc, stream);
}

}  // namespace tilekit::impl
