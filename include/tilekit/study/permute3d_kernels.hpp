#pragma once
// Seed 003's rank-3 permute kernels on row-major data (Permute3Plan,
// permute3d.hpp), kept to compare against the library's:
//   simple        one element per work item, permutation at run time;
//   simple, templated: the permutation as template parameters (StaticPerm3);
//   shared        8 x 8 x 8 cubes through team scratch, scratch indexed in
//                 output order, permutation at run time;
//   shared, templated; and shared with per-permutation padded scratch
//   extents (bank_free_dims) that remove the bank conflicts of the
//   permuted scratch write.
// The seed's "copy" kernels are these with the identity permutation.
#include <tilekit/impl/common/tile_copy.hpp>  // index_t, ScratchArray
#include <tilekit/impl/permute/store.hpp>      // permute_scalar_t, convert

#include <array>
#include <cstddef>
#include <map>
#include <mutex>
#include <utility>

namespace tilekit::study {

using impl::convert;
using impl::index_t;
using impl::ScratchArray;

/// The permutation as template parameters: perm[k] folds to a constant.
template <int A, int B, int C>
struct StaticPerm3 {
  KOKKOS_INLINE_FUNCTION constexpr int operator[](int k) const {
    return k == 0 ? A : k == 1 ? B : C;
  }
};
/// The permutation at run time.
struct RuntimePerm3 {
  int p[3];
  KOKKOS_INLINE_FUNCTION int operator[](int k) const { return p[k]; }
};

/// Calls fn(StaticPerm3<p0, p1, p2>{}) for the permutation p (seed 003's
/// transpose_selector: every permutation is compiled).
template <class Fn>
void with_static_perm3(const std::array<int, 3>& p, Fn&& fn) {
  const int code = p[0] * 9 + p[1] * 3 + p[2];
  switch (code) {
    case 0 * 9 + 1 * 3 + 2: fn(StaticPerm3<0, 1, 2>{}); break;
    case 0 * 9 + 2 * 3 + 1: fn(StaticPerm3<0, 2, 1>{}); break;
    case 1 * 9 + 0 * 3 + 2: fn(StaticPerm3<1, 0, 2>{}); break;
    case 1 * 9 + 2 * 3 + 0: fn(StaticPerm3<1, 2, 0>{}); break;
    case 2 * 9 + 0 * 3 + 1: fn(StaticPerm3<2, 0, 1>{}); break;
    default: fn(StaticPerm3<2, 1, 0>{}); break;
  }
}

/// The seed's store: out = alpha * v + beta * out chosen at run time (the
/// seed kernels are references; the general kernels specialise this), in the
/// arithmetic of impl/permute/store.hpp (float for the 2-byte floats).
template <class T>
struct StoreRuntime {
  using out_type = T;
  using S = permute_scalar_t<T, T>;
  S alpha, beta;
  int mode;  ///< 0: move, 1: scale, 2: alpha/beta (beta == 0 never reads out)
  KOKKOS_INLINE_FUNCTION void operator()(T* p, const T& v) const {
    if (mode == 0) *p = v;
    else if (mode == 1) *p = convert<T>(alpha * convert<S>(v));
    else *p = convert<T>(alpha * convert<S>(v) + beta * convert<S>(*p));
  }
  static StoreRuntime make(const S& alpha, const S& beta) {
    return {alpha, beta, beta != S(0) ? 2 : alpha != S(1) ? 1 : 0};
  }
};

/// Seed C / D: one element per (z, y, x) of the input.
template <class T, class Perm, class Store>
struct Permute3Simple {
  const T* in;
  T* out;
  index_t n0, n1, n2;
  Perm perm;
  Store store;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t z, const index_t y, const index_t x) const {
    const index_t i[3] = {z, y, x};
    const index_t n[3] = {n0, n1, n2};
    const index_t o = (i[perm[0]] * n[perm[1]] + i[perm[1]]) * n[perm[2]] + i[perm[2]];
    store(out + o, in[(z * n1 + y) * n2 + x]);
  }
};

/// Edge of the seed's cubes.
inline constexpr int cube_edge = 8;

/// Scratch extents (8 x dy x dx) of the shared variants.
struct CubeDims {
  int dy = cube_edge, dx = cube_edge;
};

/// Seed E / F / G: a team moves one 8 x 8 x 8 input cube. Rows (z, y) of the
/// cube go to team ranks, x to vector lanes; the value read at input (z, y, x)
/// lands in scratch at its output position (t[p0], t[p1], t[p2]), and the
/// output cube is then written in order.
template <class Exec, class T, class Perm, class Store>
struct Permute3Shared {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Scratch = ScratchArray<T, Exec>;
  static constexpr int E = cube_edge;
  const T* in;
  T* out;
  index_t n[3];
  index_t cubes[3];  ///< cubes per input dimension
  Perm perm;
  CubeDims dims;
  Store store;

  static std::size_t scratch_bytes(const CubeDims& d) {
    return Scratch::shmem_size(E * d.dy * d.dx);
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    Scratch s(team.team_scratch(0), E * dims.dy * dims.dx);
    const index_t lr = team.league_rank();
    const index_t c[3] = {lr / (cubes[1] * cubes[2]), (lr / cubes[2]) % cubes[1], lr % cubes[2]};
    const index_t m[3] = {n[perm[0]], n[perm[1]], n[perm[2]]};
    const int dy = dims.dy, dx = dims.dx;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, E * E), [&](const int row) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, E), [&](const int tx) {
        const int t[3] = {row / E, row % E, tx};
        const index_t z = c[0] * E + t[0], y = c[1] * E + t[1], x = c[2] * E + t[2];
        if (z < n[0] && y < n[1] && x < n[2])
          s((t[perm[0]] * dy + t[perm[1]]) * dx + t[perm[2]]) = in[(z * n[1] + y) * n[2] + x];
      });
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, E * E), [&](const int row) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, E), [&](const int tx) {
        const int tz = row / E, ty = row % E;
        const index_t oz = c[perm[0]] * E + tz, oy = c[perm[1]] * E + ty, ox = c[perm[2]] * E + tx;
        if (oz < m[0] && oy < m[1] && ox < m[2])
          store(out + (oz * m[1] + oy) * m[2] + ox, s((tz * dy + ty) * dx + tx));
      });
    });
  }
};

/// Extra shared-memory wavefronts of one team's scratch accesses in the
/// shared kernels on a GPU: 32 banks of 4 bytes; a warp is 4 cube rows x 8
/// lanes; a warp's request is served 128 bytes at a time. Counts the
/// permuted write (write = true) or the ordered read.
inline int cube_bank_conflicts(const std::array<int, 3>& p, int dy, int dx,
                               std::size_t elem_bytes, bool write) {
  const int E = cube_edge, words = elem_bytes < 4 ? 1 : static_cast<int>(elem_bytes / 4);
  const int group = elem_bytes <= 4 ? 32 : static_cast<int>(128 / elem_bytes);
  int extra = 0;
  for (int warp = 0; warp < E * E / 4; ++warp) {
    int addr[32];
    for (int k = 0; k < 32; ++k) {
      const int row = warp * 4 + k / E;
      const int t[3] = {row / E, row % E, k % E};
      addr[k] = write ? (t[p[0]] * dy + t[p[1]]) * dx + t[p[2]] : (t[0] * dy + t[1]) * dx + t[2];
    }
    // Each work item touches its own element, so the words are distinct and a
    // bank's wavefronts are the number of the group's words it holds.
    for (int g0 = 0; g0 < 32; g0 += group) {
      int per_bank[32] = {}, most = 0;
      for (int k = g0; k < g0 + group; ++k)
        for (int w = 0; w < words; ++w) {
          const int b = (addr[k] * words + w) % 32;
          most = ++per_bank[b] > most ? per_bank[b] : most;
        }
      extra += most - 1;
    }
  }
  return extra;
}

/// Seed G's padding: the scratch extents (dy, dx in 8..16) with the fewest
/// conflicts of write and read together, then the fewest on the permuted
/// write, then the smallest; for 4-byte elements this finds the seed's table
/// for (0,2,1), (1,0,2) and (2,1,0).
inline CubeDims bank_free_dims(const std::array<int, 3>& p, std::size_t elem_bytes) {
  CubeDims best;
  int best_key[3] = {1 << 30, 1 << 30, 1 << 30};
  for (int dy = cube_edge; dy <= 2 * cube_edge; ++dy)
    for (int dx = cube_edge; dx <= 2 * cube_edge; ++dx) {
      const int w = cube_bank_conflicts(p, dy, dx, elem_bytes, true);
      const int key[3] = {w + cube_bank_conflicts(p, dy, dx, elem_bytes, false), w, dy * dx};
      if (key[0] < best_key[0] || (key[0] == best_key[0] && (key[1] < best_key[1] ||
                                   (key[1] == best_key[1] && key[2] < best_key[2])))) {
        best = {dy, dx};
        for (int i = 0; i < 3; ++i) best_key[i] = key[i];
      }
    }
  return best;
}

/// bank_free_dims, worked out once per permutation and element size.
inline CubeDims bank_free_dims_cached(const std::array<int, 3>& p, std::size_t elem_bytes) {
  static std::mutex m;
  static std::map<std::pair<int, std::size_t>, CubeDims> cache;
  const std::lock_guard<std::mutex> lock(m);
  const std::pair<int, std::size_t> key{p[0] * 9 + p[1] * 3 + p[2], elem_bytes};
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, bank_free_dims(p, elem_bytes)).first;
  return it->second;
}

}  // namespace tilekit::study
