#pragma once
// Team-level moves between global memory and a scratch tile, shared by every
// tiled kernel. Team ranks split the tile's rows, vector lanes split its
// columns (so lanes touch consecutive addresses), and each work item issues K
// independent loads before its first store.
#include <Kokkos_Core.hpp>

#include <cstdint>

// Full unrolling of the loads-in-flight loops (a compile-time count).
#if defined(__CUDA_ARCH__) || defined(__clang__)
#define TILEKIT_UNROLL _Pragma("unroll")
#else
#define TILEKIT_UNROLL _Pragma("GCC unroll 16")
#endif

namespace tilekit::impl {

using index_t = std::int64_t;

/// Scratch tile: rows x ld elements, ld = tile edge + padding.
template <class T, class Exec>
using ScratchTile = Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::scratch_memory_space,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// s(r, c) = src[r * ld_src + c] for r < nr, c < nc.
template <int K, class Member, class Tile, class T>
KOKKOS_INLINE_FUNCTION void tile_load(const Member& team, const Tile& s, const T* src,
                                      index_t ld_src, int nr, int nc) {
  const int R = team.team_size();
  for (int r0 = team.team_rank(); r0 < nr; r0 += R * K) {
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, nc), [&](const int c) {
      T v[K];
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k) {
        const int r = r0 + k * R;
        v[k] = r < nr ? src[r * ld_src + c] : T{};
      }
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k)
        if (r0 + k * R < nr) s(r0 + k * R, c) = v[k];
    });
  }
}

/// dst[c * ld_dst + r] = s(r, c) for r < nr, c < nc: the tile written transposed,
/// team ranks over destination rows, lanes along them.
template <int K, class Member, class Tile, class T>
KOKKOS_INLINE_FUNCTION void tile_store_transposed(const Member& team, const Tile& s, T* dst,
                                                  index_t ld_dst, int nr, int nc) {
  const int R = team.team_size();
  for (int c0 = team.team_rank(); c0 < nc; c0 += R * K) {
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, nr), [&](const int r) {
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k) {
        const int c = c0 + k * R;
        if (c < nc) dst[c * ld_dst + r] = s(r, c);
      }
    });
  }
}

/// League size for `work` independent items: capped, teams loop over the rest.
inline int league_for(index_t work, long max_league) {
  const index_t cap = max_league < 1 ? 1 : max_league;
  return static_cast<int>(work < 1 ? 1 : (work < cap ? work : cap));
}

}  // namespace tilekit::impl
