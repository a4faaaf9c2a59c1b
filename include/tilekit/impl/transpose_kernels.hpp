#pragma once
// Out-of-place 2-D transpose kernels on row-major (LayoutRight) data:
// out (cols x rows) = in (rows x cols)^T. The dispatch maps LayoutLeft onto
// these by swapping extents. The row strides (leading dimensions) ld_in and
// ld_out are data: cols and rows for contiguous views, larger for a window of
// a larger allocation (docs/strided.md).
#include <tilekit/impl/micro_transpose.hpp>
#include <tilekit/impl/tile_copy.hpp>

namespace tilekit::impl {

/// Naive: one element per work item; reads coalesced, writes strided.
/// Element strides: in(i, j) = in[i * si0 + j * si1], out(j, i) =
/// out[j * so0 + i * so1] (contiguous: si = (cols, 1), so = (rows, 1)).
template <class T>
struct TransposeNaive {
  const T* in;
  T* out;
  index_t si0, si1, so0, so1;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i, const index_t j) const {
    out[j * so0 + i * so1] = in[i * si0 + j * si1];
  }
};

/// Tiled through team scratch: a tile is read row by row, then written back
/// transposed row by row, so both global accesses are coalesced. `ld` > tile
/// pads the scratch rows so the transposed read avoids bank conflicts.
///
/// A team takes tiles t = league_rank, + league_size, ... When a tile fits the
/// team's N staging registers per work item (GPUs: many work items per team),
/// the next tile's loads are issued before the current tile is stored, so
/// loads stay in flight across the barriers. Otherwise (CPUs: a team is one
/// thread), where the backend gives a micro-block edge, the tile is read into
/// scratch already transposed, micro-block by micro-block, and written out as
/// whole destination rows (streamed when the output is large), the teams
/// walking the tiles down their columns so a thread's writes continue the
/// same rows (micro_transpose.hpp); else it is read and written in row strips
/// of K rows.
///
/// Skewed tiles (skew = S > 1, staged tiles only): where the output's rows do
/// not start on a memory transaction of S elements (an odd number of rows),
/// a rectangular tile writes each output row's piece across two partial
/// transactions at both ends. Instead tile (a, b) writes, of output row j in
/// column block b, the `ti` elements (a multiple of S) from a ti - s_j, where
/// s_j is how far row j's element a ti lies past a transaction's start: every
/// piece starts on one. The tile reads the input rows [a ti - S + 1, a ti +
/// ti) (at most `tile` rows: ti = the largest multiple of S up to tile - S +
/// 1), so neighbouring tiles read S - 1 rows twice (from the cache, as they
/// run close together) and every element is written once.
template <class Exec, class T, int K, int N>
struct TransposeTiled {
  static constexpr int B = micro_edge<Exec, T>();
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Tile = ScratchTile<T, Exec>;

  const T* in;
  T* out;
  index_t rows, cols;
  index_t ld_in, ld_out;  ///< row strides of in (>= cols) and out (>= rows)
  int tile, ld;
  index_t tiles_per_row, ntiles;
  int skew = 0;      ///< S: output pieces start on transactions of S elements (0: off)
  int ti = 0;        ///< input rows a tile writes (tile; skewed: skew_rows(tile, S))
  index_t phase = 0;  ///< skewed: out's address in elements, mod S

  static std::size_t scratch_bytes(int tile, int ld) { return Tile::shmem_size(tile, ld); }
  /// Rows a skewed tile writes: the largest multiple of S up to tile - S + 1
  /// (0: tiles too small for S).
  static constexpr int skew_rows(int tile, int S) { return (tile - S + 1) / S * S; }
  /// Tiles of an m x n transpose (rows of ti input rows, columns of tile).
  static index_t tiles(index_t m, index_t n, int tile, int ti, int S) {
    const index_t down = S > 1 ? (m + S - 2) / ti + 1 : (m + ti - 1) / ti;
    return down * ((n + tile - 1) / tile);
  }

  /// Tile t: output pieces from input row i0, input rows [r0, r0 + nr) read,
  /// columns [j0, j0 + nc).
  struct Geom {
    index_t i0, r0, j0;
    int nr, nc;
  };
  KOKKOS_INLINE_FUNCTION Geom geom(index_t t) const {
    Geom g;
    if constexpr (tiles_down_columns<Exec>()) {
      const index_t tiles_per_column = ntiles / tiles_per_row;
      g.i0 = (t % tiles_per_column) * ti;
      g.j0 = (t / tiles_per_column) * tile;
    } else {
      g.i0 = (t / tiles_per_row) * ti;
      g.j0 = (t % tiles_per_row) * tile;
    }
    g.r0 = skew > 1 ? Kokkos::max<index_t>(0, g.i0 - skew + 1) : g.i0;
    g.nr = static_cast<int>(Kokkos::min<index_t>(g.i0 + ti, rows) - g.r0);
    g.nc = static_cast<int>(Kokkos::min<index_t>(tile, cols - g.j0));
    return g;
  }

  /// Skewed store: output row j = j0 + c gets elements i0 - s_j + q, q < ti,
  /// from scratch row i - r0; a flat team, consecutive work items along a
  /// piece (no division past the first element).
  KOKKOS_INLINE_FUNCTION void store_skewed(const Tile& s, const Geom& g, int tid, int nt) const {
    const int dc = nt / ti, dq = nt % ti;
    int c = tid / ti, q = tid % ti;
    const index_t mask = skew - 1;
    while (c < g.nc) {
      const index_t j = g.j0 + c, row = j * ld_out;
      const index_t i = g.i0 - ((phase + row) & mask) + q;
      if (i >= 0 && i < rows) out[row + i] = s(static_cast<int>(i - g.r0), c);
      c += dc;
      q += dq;
      if (q >= ti) {
        q -= ti;
        ++c;
      }
    }
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    Tile s(team.team_scratch(transpose_scratch_level<Exec>()), tile, ld);
    const int tid = team.team_rank(), nt = team.team_size();
    T v[N];
    const bool stream = B > 0 && stream_output<Exec>(static_cast<double>(rows) * cols * sizeof(T));
    index_t t = team.league_rank();
    if (t < ntiles) {
      const Geom g = geom(t);
      if (stage_fits(N, g.nr, g.nc, nt)) stage_fetch(v, in + g.r0 * ld_in + g.j0, ld_in, g.nr, g.nc, tid, nt);
    }
    for (; t < ntiles; t += team.league_size()) {
      const Geom g = geom(t);
      const bool staged = stage_fits(N, g.nr, g.nc, nt);
      if (staged)
        stage_commit(v, s, g.nr, g.nc, tid, nt);
      else if constexpr (B > 0)  // transposed on the way in: s(c, r) = in(r, c)
        micro_store_transposed<B>(in + g.r0 * ld_in + g.j0, ld_in, s.data(),
                                  static_cast<index_t>(s.stride(0)), g.nr, g.nc, tid, nt, false);
      else
        tile_load<K>(team, s, in + g.r0 * ld_in + g.j0, ld_in, g.nr, g.nc);
      team.team_barrier();
      const index_t tn = t + team.league_size();
      if (tn < ntiles) {
        const Geom h = geom(tn);
        if (stage_fits(N, h.nr, h.nc, nt)) stage_fetch(v, in + h.r0 * ld_in + h.j0, ld_in, h.nr, h.nc, tid, nt);
      }
      if (staged && skew > 1)
        store_skewed(s, g, tid, nt);
      else if (staged)
        stage_store_transposed(s, out + g.j0 * ld_out + g.i0, ld_out, g.nr, g.nc, tid, nt);
      else if constexpr (B > 0)  // whole destination rows, one contiguous run each
        store_tile_rows(s, out + g.j0 * ld_out + g.i0, ld_out, g.nc, g.nr, tid, nt, stream);
      else
        tile_store_transposed<K>(team, s, out + g.j0 * ld_out + g.i0, ld_out, g.nr, g.nc);
      team.team_barrier();
    }
    stream_fence(stream);
  }
};

/// Thin matrices (one side of a few elements: 2 x N, N x 2): a tile would be
/// a sliver (2 x 64 elements), so instead each work item q of the long side
/// moves the few elements r of the thin side, element (q, r) read from
/// in[q * a + r * b] and written to out[q * c + r * d]. The dispatch orders
/// the strides so that consecutive work items step through unit strides: the
/// array whose rows are the thin side is walked row by row (one contiguous
/// run), the other as a few contiguous streams, one per thin index.
template <class T>
struct TransposeThin {
  const T* in;
  T* out;
  index_t a, b, c, d;
  int thin;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t q) const {
    const T* src = in + q * a;
    T* dst = out + q * c;
    for (int r = 0; r < thin; ++r) dst[r * d] = src[r * b];
  }
};

/// Thin matrices through team scratch (backends whose Traits set
/// transpose_thin_chunk: GPUs, where a work item writing its own row of
/// `thin` elements leaves every store instruction of a warp a scatter of
/// partial sectors). The matrix is seen as a wide array (`thin` rows of `len`
/// elements, row stride ws) and a narrow one (`len` rows of `thin` elements,
/// row stride ns); wide_in says which one is the input. A team takes chunks of
/// `chunk` consecutive long-side indices q (c = league_rank, + league_size,
/// ...): it reads the chunk's elements in the input's memory order into
/// scratch, s[q * (thin + 1) + r] (the pitch thin + 1 spreads both passes over
/// the banks), and after a barrier writes them in the output's memory order,
/// so consecutive work items touch consecutive addresses in both passes. Each
/// work item keeps K loads in flight before its stores.
template <class Exec, class T, int K>
struct TransposeThinStaged {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  const T* in;
  T* out;
  index_t len, ws, ns;
  int thin;
  bool wide_in;
  index_t chunk, chunks;
  int threads;  ///< work items per team

  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int thin, index_t chunk) {
    return sizeof(T) * static_cast<std::size_t>(chunk) * static_cast<std::size_t>(thin + 1);
  }

  /// dst = src for the chunk's nq x thin elements from q0, in the wide
  /// array's order (r, then q fastest) or the narrow one's (q, then r
  /// fastest): work item tid takes elements tid, tid + threads, ..., K loads
  /// at a time. Its (outer, inner) position steps by threads with no division
  /// (one per chunk and work item, where it starts).
  template <bool ToScratch>
  KOKKOS_INLINE_FUNCTION void pass(const member_type& team, const T* src, T* dst, bool wide,
                                   index_t q0, index_t nq) const {
    const index_t count = nq * thin, inner = wide ? nq : index_t(thin);
    const index_t d_outer = div_nonneg(threads, inner), d_inner = threads - d_outer * inner;
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, threads), [&](const int tid) {
      index_t o = div_nonneg(tid, inner), i = tid - o * inner;
      for (index_t e0 = tid; e0 < count; e0 += index_t(K) * threads) {
        T v[K];
        index_t to[K];
TILEKIT_UNROLL
        for (int k = 0; k < K; ++k) {
          if (e0 + index_t(k) * threads < count) {
            const index_t r = wide ? o : i, q = wide ? i : o;
            const index_t g = wide ? r * ws + q0 + q : (q0 + q) * ns + r;
            const index_t sc = q * (thin + 1) + r;
            v[k] = src[ToScratch ? g : sc];
            to[k] = ToScratch ? sc : g;
          }
          o += d_outer;
          i += d_inner;
          if (i >= inner) {
            i -= inner;
            ++o;
          }
        }
TILEKIT_UNROLL
        for (int k = 0; k < K; ++k)
          if (e0 + index_t(k) * threads < count) dst[to[k]] = v[k];
      }
    });
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    T* s = static_cast<T*>(team.team_shmem().get_shmem(scratch_bytes(thin, chunk)));
    for (index_t c = team.league_rank(); c < chunks; c += team.league_size()) {
      const index_t q0 = c * chunk, nq = len - q0 < chunk ? len - q0 : chunk;
      pass<true>(team, in, s, wide_in, q0, nq);
      team.team_barrier();
      pass<false>(team, s, out, !wide_in, q0, nq);
      team.team_barrier();
    }
  }
};

/// A plain copy, one element per work item: the "Kokkos copy kernel" row of
/// the benchmarks (Kokkos::deep_copy is the baseline that counts).
template <class T>
struct CopyKernel {
  const T* src;
  T* dst;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i) const { dst[i] = src[i]; }
};

}  // namespace tilekit::impl
