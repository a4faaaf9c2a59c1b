#pragma once
// In-place transpose of a square row-major n x n matrix by pairs of tiles, or of
// every n x n block of a grid of them inside a larger row-major matrix (the
// first step of the rectangular blocked transpose, docs/transpose_inplace.md).
#include <tilekit/impl/common/micro_transpose.hpp>
#include <tilekit/impl/common/tile_copy.hpp>

#include <cmath>

namespace tilekit::impl {

/// Maps p in [0, nb(nb+1)/2) to the tile pair (bi, bj), bi <= bj.
KOKKOS_INLINE_FUNCTION void tile_pair(index_t p, index_t& bi, index_t& bj) {
  index_t j = static_cast<index_t>((Kokkos::sqrt(8.0 * static_cast<double>(p) + 1.0) - 1.0) / 2.0);
  while (j * (j + 1) / 2 > p) --j;
  while ((j + 1) * (j + 2) / 2 <= p) ++j;
  bj = j;
  bi = p - j * (j + 1) / 2;
}

/// Whether the in-place pair swap of a matrix (or grid of blocks) of `bytes`
/// whose rows lie `stride` elements apart takes the host path's aliased-rows
/// order on Exec: the row stride a multiple of the backend's
/// inplace_alias_bytes and the matrix past its stream_min_bytes. Asked by
/// the plans on the host (kernels get the answer as data).
template <class Exec, class T>
bool inplace_rows_aliased(index_t stride, double bytes) {
  constexpr index_t alias = inplace_alias_bytes<Exec>();
  if constexpr (micro_edge<Exec, T>() <= 0 || alias <= 0) {
    (void)stride, (void)bytes;
    return false;
  } else {
    return (stride * static_cast<index_t>(sizeof(T))) % alias == 0 && stream_output<Exec>(bytes);
  }
}

/// Blocked pair swap: a team takes tile (bi, bj) and its mirror (bj, bi) into
/// scratch, then writes each one transposed into the other's place. Diagonal
/// tiles (bi == bj) are transposed within themselves. Teams of many work items
/// stage both tiles in registers (N per tile) so all their loads are in
/// flight together, and issue the next pair's loads before storing the
/// current pair. One-thread teams (CPUs), where the backend gives a
/// micro-block edge, read both tiles into scratch already transposed (in line
/// blocks where the CPU running it has vectors wide enough for the backend,
/// runtime_vector_bytes; else micro-block by micro-block) and write each back
/// as whole rows of the other's place (the out-of-place host path,
/// common/micro_transpose.hpp); else they move row strips of K rows. Where the rows alias (inplace_rows_aliased: they
/// share few cache sets, so a pair's lines do not stay cached from read to
/// write), one-thread teams read the lower tile in strips of B rows, each
/// written back from the upper tile at once (its lines still in L1), and
/// stream the upper tile's rows, which were read first. The tiles live at
/// the backend's tile_scratch_level (a CPU's level 1: pairs with rows of
/// 1 KiB).
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
  static constexpr int VB = transpose_vector_bytes<Exec>();

  T* a;
  index_t n;
  int tile, ld;
  index_t tiles_per_edge, npairs;
  index_t stride, blocks_q, blocks;
  bool aliased;  // inplace_rows_aliased: strips of the lower tile, upper streamed

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
    // The strips write a strip as soon as it is read, without a barrier: one
    // work item per team only (a host's teams; larger ones keep the order below).
    const bool strips = aliased && nt == 1;
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
      bool lines = false;  // swapped whole already (line blocks, one-thread teams)
      if constexpr (B > 0)
        if (!staged && nt == 1)
          lines = in_line_blocks<Exec, T>(
              [&](auto w) { swap_in_line_blocks<decltype(w)::value>(q, sa, sb, strips); });
      if (staged) {
        stage_commit(va, sa, q.ni, q.nj, tid, nt);
        if (q.mirrored) stage_commit(vb, sb, q.nj, q.ni, tid, nt);
      } else if (!lines) {  // (line blocks swapped the pair already)
        if constexpr (B > 0) {  // transposed on the way in: sa = upper^T, sb = lower^T
          // Each tile's last rows prefetch the first rows read next: the
          // lower tile's, then the next pair's upper (a host's teams take
          // consecutive pairs; none where nothing is prefetched).
          const Pair nq = PF > 0 && p + 1 < total ? pair_at(p + 1) : Pair{};
          const RowsAhead next{nq.ni, nq.nj};  // the next pair's upper tile (none: 0 rows)
          micro_store_transposed_rows<B, PF, VB>(
              rows_then(q.upper, q.ni, q.mirrored ? q.lower : nq.upper, stride), sa.data(),
              static_cast<index_t>(sa.stride(0)), q.ni, q.nj, tid, nt,
              q.mirrored ? RowsAhead{q.nj, q.ni} : next);
          if (q.mirrored && strips)
            swap_lower_in_strips(q, sa, sb, nq.upper, next);
          else if (q.mirrored)
            micro_store_transposed_rows<B, PF, VB>(rows_then(q.lower, q.nj, nq.upper, stride),
                                               sb.data(), static_cast<index_t>(sb.stride(0)), q.nj,
                                               q.ni, tid, nt, next);
        } else {
          flat_tile_load<K>(sa, q.upper, stride, q.ni, q.nj, tid, nt);
          if (q.mirrored) flat_tile_load<K>(sb, q.lower, stride, q.nj, q.ni, tid, nt);
        }
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
      } else if (!lines) {
        if constexpr (B > 0) {  // whole rows, one contiguous run each
          if (!(q.mirrored && strips))  // else written strip by strip already
            store_tile_rows(sa, q.lower, stride, q.nj, q.ni, tid, nt, false);
          if (q.mirrored) store_tile_rows(sb, q.upper, stride, q.ni, q.nj, tid, nt, strips);
        } else {
          flat_store_transposed<K>(sa, q.lower, stride, q.ni, q.nj, tid, nt);
          if (q.mirrored) flat_store_transposed<K>(sb, q.upper, stride, q.nj, q.ni, tid, nt);
        }
      }
      team.team_barrier();
    }
    stream_fence(strips);
  }

  /// Pair q swapped by a one-thread team in line blocks of the CPU's vectors
  /// (VB bytes, transpose_line_blocks): the upper tile read into sa
  /// transposed, L rows at a time across its width, then the lower into sb,
  /// each written back as whole rows of the other's place (put_rows_vectors).
  /// Where the rows alias (`strips`), the lower tile goes in strips of L rows,
  /// each overwritten from sa as soon as it is read (its lines still in L1),
  /// and the upper tile's rows are streamed.
  template <int V>
  KOKKOS_INLINE_FUNCTION void swap_in_line_blocks(const Pair& q, const Tile& sa, const Tile& sb,
                                                  bool strips) const {
    constexpr int L = backends::block_line_rows<V, T>();
    const auto la = static_cast<index_t>(sa.stride(0)), lb = static_cast<index_t>(sb.stride(0));
    transpose_line_blocks<V>(q.upper, stride, sa.data(), la, q.ni, q.nj);
    if (!q.mirrored) {  // the diagonal: transposed within itself
      backends::put_rows_vectors<V>(q.upper, stride, sa.data(), la, q.nj, q.ni, false);
      return;
    }
    if (strips) {
      for (int r0 = 0; r0 < q.nj; r0 += L) {
        const int h = Kokkos::min(L, q.nj - r0);
        T* const strip = q.lower + r0 * stride;
        transpose_line_blocks<V>(strip, stride, sb.data() + r0, lb, h, q.ni);
        backends::put_rows_vectors<V>(strip, stride, sa.data() + r0 * la, la, h, q.ni, false);
      }
    } else {
      transpose_line_blocks<V>(q.lower, stride, sb.data(), lb, q.nj, q.ni);
      backends::put_rows_vectors<V>(q.lower, stride, sa.data(), la, q.nj, q.ni, false);
    }
    backends::put_rows_vectors<V>(q.upper, stride, sb.data(), lb, q.ni, q.nj, strips);
  }

  /// The lower tile of pair q read into sb transposed, B rows at a time, each
  /// strip then overwritten by its rows of sa (the upper tile transposed, read
  /// whole before): the strip's lines are still in L1. The last strip
  /// prefetches the next pair's upper tile (`next` rows at next_upper). One
  /// work item per team (no barrier between a strip's read and its write).
  KOKKOS_INLINE_FUNCTION void swap_lower_in_strips(const Pair& q, const Tile& sa, const Tile& sb,
                                                   const T* next_upper, RowsAhead next) const {
    constexpr int S = B > 0 ? B : 1;
    for (int r0 = 0; r0 < q.nj; r0 += S) {
      const int h = Kokkos::min(S, q.nj - r0);
      const bool last = r0 + h == q.nj;
      const T* strip = q.lower + r0 * stride;
      micro_store_transposed_rows<B, PF, VB>(
          rows_then(strip, h, last ? next_upper : strip + h * stride, stride), sb.data() + r0,
          static_cast<index_t>(sb.stride(0)), h, q.ni, 0, 1,
          last ? next : RowsAhead{q.nj - r0 - h, q.ni});
      for (int r = r0; r < r0 + h; ++r) put_run(q.lower + r * stride, &sa(r, 0), q.ni, false);
    }
  }
};

}  // namespace tilekit::impl
