#pragma once
// The permute's interleaving kernel: a batch of matrices with a side of 2 to
// interleave_max elements (an image's channels beside its pixels: NCHW <->
// NHWC) transposed in registers, no scratch. A work item takes V elements of
// the long side from each of the t rows of the wide matrix (t vector loads)
// and writes the t x V elements they make on the narrow side (t vector stores
// of consecutive memory), or the reverse. The tiled kernel's staged teams move
// such a tile through scratch a few bytes a step, with the barriers and index
// arithmetic of a general box; here every access is a whole vector and the
// shuffle is resolved at compile time (t and V are template parameters).
#include <tilekit/impl/common/tile_copy.hpp>  // Pack, TILEKIT_UNROLL

#include <Kokkos_Core.hpp>

namespace tilekit::impl {

/// The most elements of the tiny side the interleaving kernel takes (one
/// instance per count from 2 to this: RGB and RGBA images, pairs).
inline constexpr int interleave_max = 4;

/// A batch of `count` matrices for PermuteInterleave, in elements: the wide
/// matrix is t rows of L (row stride `wide`), the narrow one L rows of t
/// (dense: row stride t); matrix k of the input at k * si, of the output at
/// k * so. `to_narrow`: the input is the wide matrix (NCHW -> NHWC).
struct InterleaveGeom {
  int t = 0;  ///< 0: the plan does not interleave
  bool to_narrow = true;
  index_t L = 0, wide = 0, count = 1, si = 0, so = 0;
};

/// Moves V elements of the long side of one matrix a work item; work item i
/// takes matrix i / (L / V). Requires L, wide, si and so multiples of V and
/// both arrays aligned to V elements (the plan checks: interleave_geom,
/// interleaves()).
template <class U, int t, int V>
struct PermuteInterleave {
  using Vec = Pack<U, V>;
  const U* in;
  U* out;
  InterleaveGeom g;
  index_t chunks;  ///< L / V: work items a matrix

  KOKKOS_INLINE_FUNCTION void operator()(const index_t i) const {
    const index_t k = div_nonneg(i, chunks), p = (i - k * chunks) * V;
    Vec a[t], o[t];
    if (g.to_narrow) {
      const U* src = in + k * g.si + p;
      TILEKIT_UNROLL
      for (int r = 0; r < t; ++r) a[r] = *reinterpret_cast<const Vec*>(src + r * g.wide);
      // Narrow element e = j t + r (position j of the long side, row r).
      TILEKIT_UNROLL
      for (int e = 0; e < t * V; ++e) o[e / V].v[e % V] = a[e % t].v[e / t];
      Vec* dst = reinterpret_cast<Vec*>(out + k * g.so + p * t);
      TILEKIT_UNROLL
      for (int r = 0; r < t; ++r) dst[r] = o[r];
    } else {
      const Vec* src = reinterpret_cast<const Vec*>(in + k * g.si + p * t);
      TILEKIT_UNROLL
      for (int r = 0; r < t; ++r) a[r] = src[r];
      TILEKIT_UNROLL
      for (int e = 0; e < t * V; ++e) o[e % t].v[e / t] = a[e / V].v[e % V];
      U* dst = out + k * g.so + p;
      TILEKIT_UNROLL
      for (int r = 0; r < t; ++r) *reinterpret_cast<Vec*>(dst + r * g.wide) = o[r];
    }
  }
};

/// The batch a fused permutation (f: dimensions in the input's order, f.p
/// the output's) interleaves in vectors of V elements, or t = 0: a 2-D
/// transposition, or a batch of them over a leading dimension that stays
/// (rank 2 or 3, the last two swapped), whose side on the input's or the
/// output's fastest dimension has 2 to interleave_max elements, the narrow
/// matrix dense, the long side, the wide rows' stride and the batch strides
/// multiples of V.
template <class Shape>
InterleaveGeom interleave_geom(const Shape& f, int V) {
  InterleaveGeom g;
  const int r = f.rank;
  if (V < 2 || r < 2 || r > 3 || f.p[r - 1] != r - 2 || f.p[r - 2] != r - 1) return g;
  const int a = r - 1, b = r - 2;  // the input's fastest dimension, the output's
  if (f.si[a] != 1 || f.so[b] != 1) return g;
  const auto tiny = [](index_t n) { return n >= 2 && n <= interleave_max; };
  if (tiny(f.n[b]) && f.so[a] == f.n[b]) {
    g = {static_cast<int>(f.n[b]), true, f.n[a], f.si[b]};  // t rows of L in, dense out
  } else if (tiny(f.n[a]) && f.si[b] == f.n[a]) {
    g = {static_cast<int>(f.n[a]), false, f.n[b], f.so[a]};  // dense in, t rows of L out
  } else {
    return {};
  }
  if (r == 3) {
    g.count = f.n[0];
    g.si = f.si[0];
    g.so = f.so[0];
  }
  if (g.L < V || g.L % V != 0 || g.wide % V != 0 || g.si % V != 0 || g.so % V != 0) return {};
  return g;
}

}  // namespace tilekit::impl
