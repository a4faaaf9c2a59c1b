#pragma once
// Out-of-place 2-D transpose kernels on row-major (LayoutRight) data:
// out (cols x rows) = in (rows x cols)^T. The dispatch maps LayoutLeft onto
// these by swapping extents.
#include <tilekit/impl/tile_copy.hpp>

namespace tilekit::impl {

/// Naive: one element per work item; reads coalesced, writes strided.
template <class T>
struct TransposeNaive {
  const T* in;
  T* out;
  index_t rows, cols;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i, const index_t j) const {
    out[j * rows + i] = in[i * cols + j];
  }
};

/// Tiled through team scratch: a tile is read row by row, then written back
/// transposed row by row, so both global accesses are coalesced. `ld` > tile
/// pads the scratch rows so the transposed read avoids bank conflicts.
template <class Exec, class T, int K>
struct TransposeTiled {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Tile = ScratchTile<T, Exec>;

  const T* in;
  T* out;
  index_t rows, cols;
  int tile, ld;
  index_t tiles_per_row, ntiles;

  static std::size_t scratch_bytes(int tile, int ld) { return Tile::shmem_size(tile, ld); }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    Tile s(team.team_scratch(0), tile, ld);
    for (index_t t = team.league_rank(); t < ntiles; t += team.league_size()) {
      const index_t i0 = (t / tiles_per_row) * tile;
      const index_t j0 = (t % tiles_per_row) * tile;
      const int nr = static_cast<int>(Kokkos::min<index_t>(tile, rows - i0));
      const int nc = static_cast<int>(Kokkos::min<index_t>(tile, cols - j0));
      tile_load<K>(team, s, in + i0 * cols + j0, cols, nr, nc);
      team.team_barrier();
      tile_store_transposed<K>(team, s, out + j0 * rows + i0, rows, nr, nc);
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
