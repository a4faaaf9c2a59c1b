#pragma once
// The host path of the tiled transposes: a one-thread team moves its tile in
// micro-blocks of B x B elements. The out-of-place transpose reads the tile
// from the matrix into scratch transposed (backends' transpose_micro_edge),
// then writes whole destination rows, streamed when large; the permute's
// tiled kernel writes its scratch tile out transposed by micro-blocks one
// cache line wide (store_micro_bytes). The micro-kernel is plain loops with compile-time trip counts, which
// the compiler unrolls fully and vectorises (docs/performance.md, "CPU path",
// shows what GCC makes of it). Large outputs may be written with streaming
// (non-temporal) stores, which do not read the destination lines first.
//
// Backends choose it as data: Traits<Exec>::transpose_micro_edge (0 or
// absent: the scratch path, as on GPUs) and Traits<Exec>::stream_min_bytes
// (outputs of at least this many bytes are streamed; 0 or absent: never).
#include <tilekit/backends/traits.hpp>
#include <tilekit/backends/stream_store.hpp>
#include <tilekit/impl/tile_copy.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace tilekit::impl {

/// Micro-block edge in elements on Exec: Traits<Exec>::transpose_micro_edge
/// (at least 2), or 0 where the backend keeps the scratch path (absent or 0).
template <class Exec, class T>
constexpr int micro_edge() {
  if constexpr (requires { backends::Traits<Exec>::transpose_micro_edge; }) {
    constexpr int edge = backends::Traits<Exec>::transpose_micro_edge;
    return edge <= 0 ? 0 : edge < 2 ? 2 : edge;
  } else {
    return 0;
  }
}

/// Micro-block edge in elements of T for the permute's transposed store on
/// Exec: Traits<Exec>::store_micro_bytes / sizeof(T) (at least 2): each
/// destination row of a block is one cache line, written whole; 0 where the
/// backend keeps the scratch path (absent or 0).
template <class Exec, class T>
constexpr int line_micro_edge() {
  if constexpr (requires { backends::Traits<Exec>::store_micro_bytes; }) {
    constexpr int bytes = backends::Traits<Exec>::store_micro_bytes;
    if constexpr (bytes <= 0) return 0;
    else return bytes / static_cast<int>(sizeof(T)) >= 2 ? bytes / static_cast<int>(sizeof(T)) : 2;
  } else {
    return 0;
  }
}

/// The widest thin side, in bytes, below which an out-of-place transpose takes
/// the thin kernel instead of tiles (TransposeThin): Traits<Exec>::
/// transpose_thin_bytes; absent or 0: always tiles.
template <class Exec>
constexpr int transpose_thin_bytes() {
  if constexpr (requires { backends::Traits<Exec>::transpose_thin_bytes; })
    return backends::Traits<Exec>::transpose_thin_bytes;
  else
    return 0;
}

/// Long-side elements per team step of the staged thin kernel
/// (TransposeThinStaged): Traits<Exec>::transpose_thin_chunk; absent or 0:
/// the thin kernel without scratch (TransposeThin) for every thin matrix.
template <class Exec>
constexpr int transpose_thin_chunk() {
  if constexpr (requires { backends::Traits<Exec>::transpose_thin_chunk; })
    return backends::Traits<Exec>::transpose_thin_chunk;
  else
    return 0;
}

/// Whether a thin matrix takes the staged thin kernel: the backend has one,
/// and the thin side is the output's rows (rows thin: without scratch each
/// work item writes its own output row) of at least
/// Traits<Exec>::transpose_thin_stage_bytes.
template <class Exec>
constexpr bool transpose_thin_staged(bool rows_thin, std::size_t thin_bytes) {
  if constexpr (transpose_thin_chunk<Exec>() > 0)
    return rows_thin && thin_bytes >= static_cast<std::size_t>(
                                         backends::Traits<Exec>::transpose_thin_stage_bytes);
  else
    return false;
}

/// Bytes of the memory transaction (a GPU's 32-byte sector) that the tiled
/// transpose aligns its stores to where the output's rows do not start on one
/// (TransposeTiled's skewed tiles): Traits<Exec>::transpose_store_sector;
/// absent or 0: rectangular tiles for every shape.
template <class Exec>
constexpr int transpose_store_sector() {
  if constexpr (requires { backends::Traits<Exec>::transpose_store_sector; })
    return backends::Traits<Exec>::transpose_store_sector;
  else
    return 0;
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
  if constexpr (requires { backends::Traits<Exec>::transpose_skew_max; })
    if (align < 0 && S > backends::Traits<Exec>::transpose_skew_max) return 0;
  return S > 1 ? S : 0;
}

/// Whether Exec's teams walk the tiles of a transpose down the columns of
/// tiles, so that consecutive tiles continue the same destination rows (a
/// CPU thread's writes stay sequential from tile to tile), rather than along
/// the rows of tiles (GPUs). Traits<Exec>::tiles_down_columns; absent: false.
template <class Exec>
KOKKOS_INLINE_FUNCTION constexpr bool tiles_down_columns() {
  if constexpr (requires { backends::Traits<Exec>::tiles_down_columns; })
    return backends::Traits<Exec>::tiles_down_columns;
  else
    return false;
}

/// The team scratch level of the tiled out-of-place transpose's tile on Exec:
/// Traits<Exec>::transpose_scratch_level (a CPU's level 1 holds tiles past the
/// 32 KiB of level 0: rows long enough for the write streams); absent: 0.
template <class Exec>
KOKKOS_INLINE_FUNCTION constexpr int transpose_scratch_level() {
  if constexpr (requires { backends::Traits<Exec>::transpose_scratch_level; })
    return backends::Traits<Exec>::transpose_scratch_level;
  else
    return 0;
}

/// Whether an output of `bytes` bytes is written with streaming stores on Exec.
template <class Exec>
KOKKOS_INLINE_FUNCTION bool stream_output(double bytes) {
  if constexpr (requires { backends::Traits<Exec>::stream_min_bytes; }) {
    constexpr double min = static_cast<double>(backends::Traits<Exec>::stream_min_bytes);
    return min > 0 && bytes >= min;
  } else {
    return false;
  }
}

/// Whether streaming stores are compiled in (x86-64 host code).
constexpr bool have_stream_stores() { return backends::have_stream_stores(); }

/// dst[0, n) = src[0, n): streamed 16 bytes at a time when `stream` and dst
/// and the run are 16-byte aligned (and the host has streaming stores), else
/// plain stores.
template <class T>
KOKKOS_INLINE_FUNCTION void put_run(T* dst, const T* src, int n, bool stream) {
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
  if (stream && std::is_trivially_copyable_v<T> && bytes % 16 == 0 &&
      reinterpret_cast<std::uintptr_t>(dst) % 16 == 0 && backends::stream_copy(dst, src, bytes))
    return;
  for (int k = 0; k < n; ++k) dst[k] = src[k];
}

/// Orders this thread's streaming stores before what follows (the end of a
/// kernel: another thread may read the output next).
KOKKOS_INLINE_FUNCTION void stream_fence(bool stream) {
  if (stream) backends::stream_store_fence();
}

/// The micro-kernel: dst[c * ldd + r] = src[r * lds + c] for a full B x B block.
/// Both loops run over compile-time counts: the compiler unrolls them and
/// vectorises the transposed stores (and builds the vectors from the loads).
/// Streamed, the block is first transposed in registers/stack (w), then each
/// destination row goes out as whole 16-byte streaming stores.
template <int B, class T>
KOKKOS_INLINE_FUNCTION void micro_transpose(const T* src, index_t lds, T* dst, index_t ldd,
                                            bool stream) {
  T v[B][B];
  TILEKIT_UNROLL
  for (int r = 0; r < B; ++r)
    TILEKIT_UNROLL
    for (int c = 0; c < B; ++c) v[r][c] = src[r * lds + c];
  if (stream) {
    T w[B][B];
    TILEKIT_UNROLL
    for (int c = 0; c < B; ++c)
      TILEKIT_UNROLL
      for (int r = 0; r < B; ++r) w[c][r] = v[r][c];
    TILEKIT_UNROLL
    for (int c = 0; c < B; ++c) put_run(dst + c * ldd, w[c], B, true);
    return;
  }
  TILEKIT_UNROLL
  for (int c = 0; c < B; ++c)
    TILEKIT_UNROLL
    for (int r = 0; r < B; ++r) dst[c * ldd + r] = v[r][c];
}

/// dst[c * ldd + r] = src[r * lds + c] for r < nr, c < nc, src a scratch tile
/// (contiguous rows, so its micro-blocks never fight over a cache set,
/// whatever the matrix's row stride): full micro-blocks through the
/// micro-kernel, the ragged edges element by element. Rows of micro-blocks
/// are split over the team's work items (one on a CPU).
template <int B, class T>
KOKKOS_INLINE_FUNCTION void micro_store_transposed(const T* src, index_t lds, T* dst, index_t ldd,
                                                   int nr, int nc, int tid, int nt, bool stream) {
  const int fc = nc - nc % B;
  for (int i = tid * B; i < nr; i += nt * B) {
    if (i + B <= nr) {
      for (int j = 0; j < fc; j += B)
        micro_transpose<B>(src + i * lds + j, lds, dst + j * ldd + i, ldd, stream);
      for (int j = fc; j < nc; ++j)
        TILEKIT_UNROLL
        for (int r = 0; r < B; ++r) dst[j * ldd + i + r] = src[(i + r) * lds + j];
    } else {
      for (int j = 0; j < nc; ++j)
        for (int r = i; r < nr; ++r) dst[j * ldd + r] = src[r * lds + j];
    }
  }
}

/// dst[r * ldd + c] = s(r, c) for r < nr, c < nc: a scratch tile written out
/// row by row, each row one contiguous run (streamed when `stream`). Rows
/// are split over the team's work items (one on a CPU).
template <class Tile, class T>
KOKKOS_INLINE_FUNCTION void store_tile_rows(const Tile& s, T* dst, index_t ldd, int nr, int nc, int tid,
                                       int nt, bool stream) {
  for (int r = tid; r < nr; r += nt) put_run(dst + r * ldd, &s(r, 0), nc, stream);
}

/// The same from a scratch tile view s(r, c).
template <int B, class Tile, class T>
KOKKOS_INLINE_FUNCTION void micro_store_transposed(const Tile& s, T* dst, index_t ldd, int nr,
                                                   int nc, int tid, int nt, bool stream) {
  micro_store_transposed<B>(s.data(), static_cast<index_t>(s.stride(0)), dst, ldd, nr, nc, tid,
                            nt, stream);
}

}  // namespace tilekit::impl
