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

  static std::size_t scratch_bytes(int tile, int ld) { return Tile::shmem_size(tile, ld); }

  struct Geom {
    index_t i0, j0;
    int nr, nc;
  };
  KOKKOS_INLINE_FUNCTION Geom geom(index_t t) const {
    Geom g;
    if constexpr (tiles_down_columns<Exec>()) {
      const index_t tiles_per_column = ntiles / tiles_per_row;
      g.i0 = (t % tiles_per_column) * tile;
      g.j0 = (t / tiles_per_column) * tile;
    } else {
      g.i0 = (t / tiles_per_row) * tile;
      g.j0 = (t % tiles_per_row) * tile;
    }
    g.nr = static_cast<int>(Kokkos::min<index_t>(tile, rows - g.i0));
    g.nc = static_cast<int>(Kokkos::min<index_t>(tile, cols - g.j0));
    return g;
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    Tile s(team.team_scratch(transpose_scratch_level<Exec>()), tile, ld);
    const int tid = team.team_rank(), nt = team.team_size();
    T v[N];
    const bool stream = B > 0 && stream_output<Exec>(static_cast<double>(rows) * cols * sizeof(T));
    index_t t = team.league_rank();
    if (t < ntiles) {
      const Geom g = geom(t);
      if (stage_fits(N, g.nr, g.nc, nt)) stage_fetch(v, in + g.i0 * ld_in + g.j0, ld_in, g.nr, g.nc, tid, nt);
    }
    for (; t < ntiles; t += team.league_size()) {
      const Geom g = geom(t);
      const bool staged = stage_fits(N, g.nr, g.nc, nt);
      if (staged)
        stage_commit(v, s, g.nr, g.nc, tid, nt);
      else if constexpr (B > 0)  // transposed on the way in: s(c, r) = in(r, c)
        micro_store_transposed<B>(in + g.i0 * ld_in + g.j0, ld_in, s.data(),
                                  static_cast<index_t>(s.stride(0)), g.nr, g.nc, tid, nt, false);
      else
        tile_load<K>(team, s, in + g.i0 * ld_in + g.j0, ld_in, g.nr, g.nc);
      team.team_barrier();
      const index_t tn = t + team.league_size();
      if (tn < ntiles) {
        const Geom h = geom(tn);
        if (stage_fits(N, h.nr, h.nc, nt)) stage_fetch(v, in + h.i0 * ld_in + h.j0, ld_in, h.nr, h.nc, tid, nt);
      }
      if (staged)
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

/// A plain copy, one element per work item: the "Kokkos copy kernel" row of
/// the benchmarks (Kokkos::deep_copy is the baseline that counts).
template <class T>
struct CopyKernel {
  const T* src;
  T* dst;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i) const { dst[i] = src[i]; }
};

}  // namespace tilekit::impl
