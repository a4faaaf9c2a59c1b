#pragma once
// The host path of the tiled transposes: a one-thread team reads its tile
// into scratch transposed, then writes each scratch row out as one whole
// destination run (streamed when the output is large: streaming stores do
// not read the destination lines first). Reads and writes are decoupled so
// that each runs long: the tile is read L rows at a time across its whole
// width (few streams, which the hardware prefetchers follow, whatever the
// input's row stride), and every output row gets the tile's height at once.
// Where the CPU running it has vectors wide enough for the backend
// (Traits<Exec>::transpose_runtime_min_bytes, read at run time:
// backends::host_vector_bytes, backends/vector_block.hpp) and the element is
// 1, 2, 4 or 8 bytes, the tile goes into scratch in L x W blocks transposed
// in registers (transpose_line_blocks); elsewhere (narrower vectors, 16-byte
// elements, the in-place pair swap, the permute's tiled kernel: the boxes
// whose scratch its plan lays out transposed, their rows through row
// pointers) in micro-blocks (backends' transpose_micro_edge; the pair swap's
// B x B micro-blocks as W x W vector blocks of the build's width where they
// tile it (transpose_vector_bytes), the others as plain loops with
// compile-time trip counts).
//
// Backends choose it as data: Traits<Exec>::transpose_micro_edge (0 or
// absent: the scratch path of GPUs), Traits<Exec>::transpose_vector_bytes
// (0 or absent: no vector blocks in the micro-blocks),
// Traits<Exec>::transpose_runtime_min_bytes (the narrowest vectors with which
// out-of-place tiles go in line blocks; 0 or absent: never),
// Traits<Exec>::transpose_runtime_max_lanes (elements per vector there at
// most), Traits<Exec>::stream_min_bytes (outputs of at least this many bytes
// are streamed; 0 or absent: never) and Traits<Exec>::transpose_prefetch_blocks
// (how many rows of micro-blocks ahead the micro-blocks prefetch; 0 or
// absent: none).
#include <tilekit/backends/traits.hpp>
#include <tilekit/backends/prefetch.hpp>
#include <tilekit/backends/stream_store.hpp>
#include <tilekit/backends/vector_block.hpp>
#include <tilekit/impl/common/optional_traits.hpp>
#include <tilekit/impl/common/tile_copy.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace tilekit::impl {

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
/// every element otherwise, with plain stores: a streamed store of part of a
/// line costs the memory a read-modify-write of the line (outputs whose rows
/// are not whole lines). A line two runs share is stored plainly by both.
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
template <int B, int D = 0, int VB = 0, class T, class Row>
KOKKOS_INLINE_FUNCTION void micro_store_transposed_rows(const Row& row, T* dst, index_t ldd, int nr,
                                                        int nc, int tid, int nt,
                                                        RowsAhead after = {}) {
  // Vector blocks of W x W (VB: the backend's transpose_vector_bytes) where
  // they tile the micro-block, else the scalar loops.
  constexpr int W = backends::block_lanes<VB, T>();
  constexpr bool vec = W > 0 && B % W == 0;
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
        if constexpr (vec) {
          TILEKIT_UNROLL
          for (int rb = 0; rb < B; rb += W)
            TILEKIT_UNROLL
            for (int cb = 0; cb < B; cb += W)
              backends::transpose_block<VB>([&](const int r) { return p[rb + r] + j + cb; },
                                            dst + (j + cb) * ldd + i + rb, ldd);
        } else {
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
template <int B, int D = 0, int VB = 0, class T>
KOKKOS_INLINE_FUNCTION void micro_store_transposed(const T* src, index_t lds, T* dst, index_t ldd,
                                                   int nr, int nc, int tid, int nt,
                                                   RowsAhead after = {}) {
  micro_store_transposed_rows<B, D, VB>([&](int r) { return src + r * lds; }, dst, ldd, nr, nc, tid,
                                    nt, after);
}

/// Elements of T in a vector block on Exec: the lanes of its
/// transpose_vector_bytes (0: T keeps the scalar micro-kernel).
template <class Exec, class T>
constexpr int vector_lanes() {
  return backends::block_lanes<transpose_vector_bytes<Exec>(), T>();
}

/// The widest vectors with which out-of-place tiles of T go into scratch in
/// line blocks on Exec on any CPU: the backend's transpose_runtime_max_lanes
/// elements of T (at most 64 bytes), or 0 where that is below its
/// transpose_runtime_min_bytes or T does not move in vectors. The kernels
/// compile the routines of backends::with_vector_bytes up to this width only
/// (for floats no AVX-512 routine, for 1- and 2-byte elements none), not
/// routines no CPU runs.
template <class Exec, class T>
constexpr int runtime_max_vector_bytes() {
  constexpr int min = transpose_runtime_min_bytes<Exec>();
  constexpr int lanes = transpose_runtime_max_lanes<Exec>();
  if constexpr (min <= 0 || backends::block_lanes<64, T>() == 0) {
    return 0;
  } else {
    constexpr int cap = lanes > 0 && lanes * static_cast<int>(sizeof(T)) < 64
                            ? lanes * static_cast<int>(sizeof(T))
                            : 64;
    return cap >= min ? cap : 0;
  }
}

/// The vectors those line blocks take on the CPU running it, read at run
/// time: the widest it gives (backends::host_vector_bytes), narrowed to
/// runtime_max_vector_bytes, where that still reaches the backend's
/// transpose_runtime_min_bytes; 0 (micro-blocks) otherwise.
template <class Exec, class T>
KOKKOS_INLINE_FUNCTION int runtime_vector_bytes() {
  constexpr int top = runtime_max_vector_bytes<Exec, T>();
  constexpr int min = transpose_runtime_min_bytes<Exec>();
  if constexpr (top == 0) {
    return 0;
  } else {
    const int vb = backends::host_vector_bytes();
    const int w = vb < top ? vb : top;
    return w >= min ? w : 0;
  }
}

/// f(std::integral_constant<int, VB>{}) in the routine of the CPU's vectors
/// (backends::with_vector_bytes at runtime_vector_bytes: VB bytes) where
/// tiles of T go into scratch in line blocks of them on Exec; false, f not
/// called, where they do not (T not moved in vectors, a GPU's pass, a CPU
/// without the vectors). The transposes' one dispatch of their line blocks
/// (PermuteTiled::load_in_lines keeps its own, and says why). The width is
/// read at each call (a static, read once per process), not kept in a
/// functor: a GPU kernel's argument stays as small. f runs in another
/// routine: a lambda that captures the caller's locals by reference keeps
/// them in memory, which can cost the caller's own loops their vectors
/// (pass copies where that matters).
template <class Exec, class T, class F>
KOKKOS_INLINE_FUNCTION bool in_line_blocks(const F& f) {
  constexpr int top = runtime_max_vector_bytes<Exec, T>();
  bool done = false;
  if constexpr (top > 0)
    backends::with_vector_bytes<transpose_runtime_min_bytes<Exec>(), top>(
        runtime_vector_bytes<Exec, T>(), [&](auto vb) {
          if constexpr (backends::block_lanes<decltype(vb)::value, T>() > 0) {
            f(vb);
            done = true;
          }
        });
  (void)f;
  return done;
}

/// dst[c * ldd + r] = row(r)[c] for r < nr, c < nc (row(r): a pointer to
/// the tile's row r, rows anywhere; dst: a scratch tile): each L x W block
/// (W: the vector's lanes; L rows: backends::block_line_rows) transposed in
/// registers (backends::transpose_line_block) into W runs of L elements. The
/// tile goes L rows at a time across all its columns, so its reads are L
/// streams running along their rows (taking the columns down the tile
/// instead reads as many streams as the tile has rows, too many for the
/// prefetchers, and rows a multiple of 4 KiB apart share so few cache sets
/// that lines come from memory twice). Where nr or nc is no multiple of L or
/// W, the last block ends at the tile's edge and overlaps the one before it,
/// whose elements it writes again unchanged: every element still moves in
/// vectors, where element by element the rows left over would take a store
/// each (7 of a box's 47 rows). Only a tile of fewer than L rows or W
/// columns goes element by element along that side.
template <int VB, class T, class Row>
KOKKOS_INLINE_FUNCTION void transpose_line_blocks_rows(const Row& row, T* dst, index_t ldd, int nr,
                                                       int nc) {
  constexpr int W = backends::block_lanes<VB, T>();
  constexpr int L = backends::block_line_rows<VB, T>();
  static_assert(W >= 2 && L >= W && L % W == 0, "transpose_line_blocks: T is not moved in vectors");
  if (nr < L) {
    for (int i = 0; i < nr; ++i) {
      const T* const q = row(i);
      for (int j = 0; j < nc; ++j) dst[j * ldd + i] = q[j];
    }
    return;
  }
  for (int i0 = 0; i0 < nr; i0 += L) {
    const int i = i0 + L <= nr ? i0 : nr - L;  // the last block: rows nr - L .. nr - 1
    const T* p[L];
    TILEKIT_UNROLL
    for (int r = 0; r < L; ++r) p[r] = row(i + r);
    if (nc < W) {
      for (int j = 0; j < nc; ++j)
        TILEKIT_UNROLL
        for (int r = 0; r < L; ++r) dst[j * ldd + i + r] = p[r][j];
      continue;
    }
    for (int j0 = 0; j0 < nc; j0 += W) {
      const int j = j0 + W <= nc ? j0 : nc - W;  // the last group: columns nc - W .. nc - 1
      backends::transpose_line_block<VB>([&](const int r) { return p[r] + j; }, dst + j * ldd + i,
                                         ldd);
    }
  }
}

/// The same from a tile of row stride lds at src (the transposes).
template <int VB, class T>
KOKKOS_INLINE_FUNCTION void transpose_line_blocks(const T* src, index_t lds, T* dst, index_t ldd,
                                                  int nr, int nc) {
  transpose_line_blocks_rows<VB>([&](const int r) { return src + r * lds; }, dst, ldd, nr, nc);
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
