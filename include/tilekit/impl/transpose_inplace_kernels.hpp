#pragma once
// In-place transpose of a square row-major n x n matrix (seed 000), or of
// every n x n block of a grid of them inside a larger row-major matrix (the
// first step of the rectangular blocked transpose, docs/transpose_inplace.md).
#include <tilekit/impl/micro_transpose.hpp>
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
/// tiles (bi == bj) are transposed within themselves. Teams of many work items
/// stage both tiles in registers (N per tile) so all their loads are in
/// flight together, and issue the next pair's loads before storing the
/// current pair. One-thread teams (CPUs), where the backend gives a
/// micro-block edge, read both tiles into scratch already transposed, micro-
/// block by micro-block, and write each back as whole rows of the other's
/// place (the out-of-place host path, micro_transpose.hpp); else they move
/// row strips of K rows. The tiles live at the backend's
/// tile_scratch_level (a CPU's level 1: pairs with rows of 1 KiB).
///
/// The matrix is `blocks` n x n blocks, `blocks_q` side by side, their rows
/// `stride` elements apart (one square matrix: 1, 1, n): pair p is pair
/// p mod npairs of block p / npairs.
template <class Exec, class T, int K, int N>
struct TransposeInplaceBlocked {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Tile = ScratchTile<T, Exec>;
  static constexpr int B = micro_edge<Exec, T>();
  static constexpr int PF = transpose_prefetch_blocks<Exec>();

  T* a;
  index_t n;
  int tile, ld;
  index_t tiles_per_edge, npairs;
  index_t stride, blocks_q, blocks;

  static std::size_t scratch_bytes(int tile, int ld) { return 2 * Tile::shmem_size(tile, ld); }

  struct Pair {
    T* upper;  // rows i0.., columns j0..: ni x nj
    T* lower;  // rows j0.., columns i0..: nj x ni
    int ni, nj;
    bool mirrored;  // false on the diagonal
  };
  KOKKOS_INLINE_FUNCTION Pair pair_at(index_t p) const {
    const index_t blk = p / npairs, bp = blk / blocks_q;
    T* base = a + bp * n * stride + (blk - bp * blocks_q) * n;
    index_t bi, bj;
    tile_pair(p - blk * npairs, bi, bj);
    const index_t i0 = bi * tile, j0 = bj * tile;
    return {base + i0 * stride + j0, base + j0 * stride + i0,
            static_cast<int>(Kokkos::min<index_t>(tile, n - i0)),
            static_cast<int>(Kokkos::min<index_t>(tile, n - j0)), bi != bj};
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    Tile sa(team.team_scratch(tile_scratch_level<Exec>()), tile, ld);
    Tile sb(team.team_scratch(tile_scratch_level<Exec>()), tile, ld);
    const int tid = team.team_rank(), nt = team.team_size();
    T va[N], vb[N];
    auto fetch = [&](const Pair& q) {
      stage_fetch(va, q.upper, stride, q.ni, q.nj, tid, nt);
      if (q.mirrored) stage_fetch(vb, q.lower, stride, q.nj, q.ni, tid, nt);
    };
    const index_t total = npairs * blocks;
    index_t p = team.league_rank();
    if (p < total) {
      const Pair q = pair_at(p);
      if (stage_fits(N, q.ni, q.nj, nt)) fetch(q);
    }
    for (; p < total; p += team.league_size()) {
      const Pair q = pair_at(p);
      const bool staged = stage_fits(N, q.ni, q.nj, nt);
      if (staged) {
        stage_commit(va, sa, q.ni, q.nj, tid, nt);
        if (q.mirrored) stage_commit(vb, sb, q.nj, q.ni, tid, nt);
      } else if constexpr (B > 0) {  // transposed on the way in: sa = upper^T, sb = lower^T
        // Each tile's last rows prefetch the first rows read next: the
        // lower tile's, then the next pair's upper (a host's teams take
        // consecutive pairs; none where nothing is prefetched).
        const Pair nq = PF > 0 && p + 1 < total ? pair_at(p + 1) : Pair{};
        const RowsAhead next{nq.ni, nq.nj};  // the next pair's upper tile (none: 0 rows)
        micro_store_transposed_rows<B, PF>(
            rows_then(q.upper, q.ni, q.mirrored ? q.lower : nq.upper, stride), sa.data(),
            static_cast<index_t>(sa.stride(0)), q.ni, q.nj, tid, nt,
            q.mirrored ? RowsAhead{q.nj, q.ni} : next);
        if (q.mirrored)
          micro_store_transposed_rows<B, PF>(rows_then(q.lower, q.nj, nq.upper, stride),
                                             sb.data(), static_cast<index_t>(sb.stride(0)), q.nj,
                                             q.ni, tid, nt, next);
      } else {
        flat_tile_load<K>(sa, q.upper, stride, q.ni, q.nj, tid, nt);
        if (q.mirrored) flat_tile_load<K>(sb, q.lower, stride, q.nj, q.ni, tid, nt);
      }
      team.team_barrier();
      // The next pair's loads are issued before this pair is stored.
      const index_t pn = p + team.league_size();
      if (pn < total) {
        const Pair next = pair_at(pn);
        if (stage_fits(N, next.ni, next.nj, nt)) fetch(next);
      }
      if (staged) {
        stage_store_transposed(sa, q.lower, stride, q.ni, q.nj, tid, nt);
        if (q.mirrored) stage_store_transposed(sb, q.upper, stride, q.nj, q.ni, tid, nt);
      } else if constexpr (B > 0) {  // whole rows, one contiguous run each
        store_tile_rows(sa, q.lower, stride, q.nj, q.ni, tid, nt, false);
        if (q.mirrored) store_tile_rows(sb, q.upper, stride, q.ni, q.nj, tid, nt, false);
      } else {
        flat_store_transposed<K>(sa, q.lower, stride, q.ni, q.nj, tid, nt);
        if (q.mirrored) flat_store_transposed<K>(sb, q.upper, stride, q.nj, q.ni, tid, nt);
      }
      team.team_barrier();
    }
  }
};

}  // namespace tilekit::impl
