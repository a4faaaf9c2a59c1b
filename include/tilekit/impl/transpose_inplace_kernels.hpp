#pragma once
// In-place transpose of a square row-major n x n matrix (seed 000).
#include <tilekit/impl/tile_copy.hpp>

#include <cmath>

namespace tilekit::impl {

/// Naive swap: one work item per (i, j); those above the diagonal swap.
template <class T>
struct TransposeInplaceNaive {
  T* a;
  index_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i, const index_t j) const {
    if (j > i) {
      const T x = a[i * n + j];
      a[i * n + j] = a[j * n + i];
      a[j * n + i] = x;
    }
  }
};

/// Maps p in [0, nb(nb+1)/2) to the tile pair (bi, bj), bi <= bj.
KOKKOS_INLINE_FUNCTION void tile_pair(index_t p, index_t& bi, index_t& bj) {
  index_t j = static_cast<index_t>((Kokkos::sqrt(8.0 * static_cast<double>(p) + 1.0) - 1.0) / 2.0);
  while (j * (j + 1) / 2 > p) --j;
  while ((j + 1) * (j + 2) / 2 <= p) ++j;
  bj = j;
  bi = p - j * (j + 1) / 2;
}

/// Blocked pair swap: a team takes tile (bi, bj) and its mirror (bj, bi) into
/// scratch, then writes each one transposed into the other's place. Diagonal
/// tiles (bi == bj) are transposed within themselves.
template <class Exec, class T, int K>
struct TransposeInplaceBlocked {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Tile = ScratchTile<T, Exec>;

  T* a;
  index_t n;
  int tile, ld;
  index_t tiles_per_edge, npairs;

  static std::size_t scratch_bytes(int tile, int ld) { return 2 * Tile::shmem_size(tile, ld); }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    Tile sa(team.team_scratch(0), tile, ld);
    Tile sb(team.team_scratch(0), tile, ld);
    for (index_t p = team.league_rank(); p < npairs; p += team.league_size()) {
      index_t bi, bj;
      tile_pair(p, bi, bj);
      const index_t i0 = bi * tile, j0 = bj * tile;
      const int ni = static_cast<int>(Kokkos::min<index_t>(tile, n - i0));
      const int nj = static_cast<int>(Kokkos::min<index_t>(tile, n - j0));
      T* upper = a + i0 * n + j0;  // rows i0.., columns j0..
      T* lower = a + j0 * n + i0;  // rows j0.., columns i0..
      tile_load<K>(team, sa, upper, n, ni, nj);
      if (bi != bj) tile_load<K>(team, sb, lower, n, nj, ni);
      team.team_barrier();
      tile_store_transposed<K>(team, sa, lower, n, ni, nj);
      if (bi != bj) tile_store_transposed<K>(team, sb, upper, n, nj, ni);
      team.team_barrier();
    }
  }
};

}  // namespace tilekit::impl
