#pragma once
// Team-level moves between global memory and a scratch tile, shared by every
// tiled kernel. The tiled kernels' teams are flat (no vector lanes):
// consecutive work items take consecutive elements of a tile row, so they
// touch consecutive addresses, and each work item issues its loads before its
// first store (flat_move: K at a time; the staged moves: all of them).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

// Full unrolling of the loads-in-flight loops (a compile-time count).
#if defined(__CUDACC__) || defined(__clang__)
#define TILEKIT_UNROLL _Pragma("unroll")
#else
#define TILEKIT_UNROLL _Pragma("GCC unroll 16")
#endif
// Unrolling by 4 of a loop with a run-time count (a remainder loop follows).
#if defined(__CUDACC__) || defined(__clang__)
#define TILEKIT_UNROLL_4 _Pragma("unroll 4")
#else
#define TILEKIT_UNROLL_4 _Pragma("GCC unroll 4")
#endif

namespace tilekit::impl {

using index_t = std::int64_t;

/// a / b for non-negative a, b, with a 32-bit division when both fit (GPUs
/// divide 64-bit integers in software).
KOKKOS_INLINE_FUNCTION index_t div_nonneg(index_t a, index_t b) {
  if (((a | b) >> 32) == 0)
    return static_cast<index_t>(static_cast<std::uint32_t>(a) / static_cast<std::uint32_t>(b));
  return a / b;
}

/// W consecutive elements moved as one aligned unit (a vector load or store
/// where the memory is aligned to it).
template <class T, int W>
struct alignas(W * sizeof(T)) Pack {
  T v[W];
};

/// The unsigned integer of B bytes: the bits of a pure move (B = 1, 2, 4, 8).
template <int B> struct bits_of;
template <> struct bits_of<1> { using type = std::uint8_t; };
template <> struct bits_of<2> { using type = std::uint16_t; };
template <> struct bits_of<4> { using type = std::uint32_t; };
template <> struct bits_of<8> { using type = std::uint64_t; };
template <int B> using bits_t = typename bits_of<B>::type;

/// The element a pure move of T runs the kernels of: the unsigned integer of
/// its size where T is trivially copyable, 1, 2, 4 or 8 bytes and aligned to
/// its size (so every such type, float and int32 say, shares one compiled
/// kernel: the moves keep every bit), else T itself.
template <class T>
constexpr bool moves_as_bits_v = std::is_trivially_copyable_v<T> &&
                                 (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 ||
                                  sizeof(T) == 8) &&
                                 alignof(T) == sizeof(T);
template <class T, bool = moves_as_bits_v<T>> struct move_of { using type = T; };
template <class T> struct move_of<T, true> { using type = bits_t<sizeof(T)>; };
template <class T> using move_t = typename move_of<T>::type;
/// p as the elements its moves run on (move_t).
template <class T>
KOKKOS_INLINE_FUNCTION auto as_moves(T* p) {
  using M = std::conditional_t<std::is_const_v<T>, const move_t<std::remove_const_t<T>>,
                               move_t<std::remove_const_t<T>>>;
  return reinterpret_cast<M*>(p);
}

/// Scratch tile: rows x ld elements, ld = tile edge + padding.
template <class T, class Exec>
using ScratchTile = Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::scratch_memory_space,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// Scratch array of n elements.
template <class T, class Exec>
using ScratchArray = Kokkos::View<T*, typename Exec::scratch_memory_space,
                                  Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// A flat team (work item `tid` of `nt`, no vector lanes) moves an nr x nc
/// block: the work items take elements q = tid + e * nt in row-major order, so
/// consecutive work items touch consecutive columns, and each issues K loads
/// (get(r, c)) before its first store (put(r, c, v)). A team of one work item
/// (hosts) walks the rows with a plain inner loop over the columns. The
/// kernels without staging registers move their tiles with it. (It replaced
/// a move that gave team ranks rows and vector lanes columns: in a flat team
/// each work item had a whole row, and a warp's loads fell in 32 rows.)
template <int K, class Get, class Put>
KOKKOS_INLINE_FUNCTION void flat_move(int nr, int nc, int tid, int nt, const Get& get,
                                      const Put& put) {
  if (nt == 1) {
    for (int r = 0; r < nr; ++r)
      for (int c = 0; c < nc; ++c) put(r, c, get(r, c));
    return;
  }
  using V = std::remove_cv_t<std::remove_reference_t<decltype(get(0, 0))>>;
  const int dr = nt / nc, dc = nt % nc;
  auto step = [&](int& r, int& c) {
    r += dr;
    c += dc;
    if (c >= nc) {
      c -= nc;
      ++r;
    }
  };
  int r = tid / nc, c = tid % nc;
  while (r < nr) {
    const int r1 = r, c1 = c;
    V v[K];
TILEKIT_UNROLL
    for (int k = 0; k < K; ++k) {
      v[k] = r < nr ? get(r, c) : V{};
      step(r, c);
    }
    r = r1;
    c = c1;
TILEKIT_UNROLL
    for (int k = 0; k < K; ++k) {
      if (r < nr) put(r, c, v[k]);
      step(r, c);
    }
  }
}

/// s(r, c) = src[r * ld_src + c] for r < nr, c < nc, by a flat team.
template <int K, class Tile, class T>
KOKKOS_INLINE_FUNCTION void flat_tile_load(const Tile& s, const T* src, index_t ld_src, int nr,
                                           int nc, int tid, int nt) {
  flat_move<K>(
      nr, nc, tid, nt, [&](const int r, const int c) { return src[r * ld_src + c]; },
      [&](const int r, const int c, const T& v) { s(r, c) = v; });
}

/// dst[c * ld_dst + r] = s(r, c) for r < nr, c < nc: the tile written
/// transposed by a flat team, consecutive work items along destination rows.
template <int K, class Tile, class T>
KOKKOS_INLINE_FUNCTION void flat_store_transposed(const Tile& s, T* dst, index_t ld_dst, int nr,
                                                  int nc, int tid, int nt) {
  flat_move<K>(
      nc, nr, tid, nt, [&](const int c, const int r) { return s(r, c); },
      [&](const int c, const int r, const T& v) { dst[c * ld_dst + r] = v; });
}

/// Register staging of a tile, for teams of many work items (GPUs). The team
/// is flat: work item `tid` of `nt` takes elements q = tid + e * nt (e < E) of
/// the nr x nc block in row-major order, so consecutive work items touch
/// consecutive addresses, and keeps them in v[e] (E <= N, unrolled) between
/// the global load and the scratch store: all of a tile's loads are in flight
/// at once, and a kernel can issue the next tile's loads before storing the
/// current one. stage_fits() says whether a block fits the N registers.
KOKKOS_INLINE_FUNCTION bool stage_fits(int n_regs, int nr, int nc, int nt) {
  return static_cast<index_t>(nr) * nc <= static_cast<index_t>(n_regs) * nt;
}

/// Walks the elements of work item tid: f(e, r, c) for each (r < nr). The
/// row never decreases along the walk, so the unrolled walk ends at the first
/// element past the block: a partial tile (a matrix of 32 rows in 64-row
/// tiles) does not issue the guards of its missing half.
template <int N, class F>
KOKKOS_INLINE_FUNCTION void stage_walk(int nr, int nc, int tid, int nt, const F& f) {
  const int dr = nt / nc, dc = nt % nc;
  if (dc == 0) {  // full-width tiles: each work item stays in one column
    const int c = tid % nc;
    int r = tid / nc;
    TILEKIT_UNROLL
    for (int e = 0; e < N; ++e, r += dr) {
      if (r >= nr) return;
      f(e, r, c);
    }
    return;
  }
  int r = tid / nc, c = tid % nc;
  TILEKIT_UNROLL
  for (int e = 0; e < N; ++e) {
    if (r >= nr) return;
    f(e, r, c);
    r += dr;
    c += dc;
    if (c >= nc) {
      c -= nc;
      ++r;
    }
  }
}

/// v[e] = src[r * ld + c] for this work item's elements of an nr x nc block.
template <int N, class T>
KOKKOS_INLINE_FUNCTION void stage_fetch(T (&v)[N], const T* src, index_t ld, int nr, int nc,
                                        int tid, int nt) {
  stage_walk<N>(nr, nc, tid, nt, [&](int e, int r, int c) { v[e] = src[r * ld + c]; });
}

/// s(r, c) = v[e]: the staged elements into the scratch tile.
template <int N, class Tile, class T>
KOKKOS_INLINE_FUNCTION void stage_commit(const T (&v)[N], const Tile& s, int nr, int nc, int tid,
                                         int nt) {
  stage_walk<N>(nr, nc, tid, nt, [&](int e, int r, int c) { s(r, c) = v[e]; });
}

/// dst[c * ld + r] = s(r, c): the scratch tile written transposed by a flat
/// team, consecutive work items along destination rows.
template <class Tile, class T>
KOKKOS_INLINE_FUNCTION void stage_store_transposed(const Tile& s, T* dst, index_t ld, int nr,
                                                   int nc, int tid, int nt) {
  const int dc = nt / nr, dr = nt % nr;
  int c = tid / nr, r = tid % nr;
  if (dr == 0) {  // full-height tiles: each work item stays in one row of s
    for (; c < nc; c += dc) dst[c * ld + r] = s(r, c);
    return;
  }
  while (c < nc) {
    dst[c * ld + r] = s(r, c);
    c += dc;
    r += dr;
    if (r >= nr) {
      r -= nr;
      ++c;
    }
  }
}

}  // namespace tilekit::impl
