#pragma once
// The 2-D transposition engine: one out-of-place matrix transpose (or a batch
// of them in one launch) at a resolved launch shape, on the kernels of
// matrix_kernels.hpp. A transposition is the permute {1, 0}: the permute's
// plan runs its fused 2-D problems through this engine where the backend
// says so (Traits::permute_2d_by_transpose), and the transpose family's
// TransposePlan (impl/transpose/plan.hpp) is this engine behind the checks of
// its public call. It checks no views: its callers do.
#include <tilekit/backends/traits.hpp>
#include <tilekit/errors.hpp>
#include <tilekit/impl/common/launch.hpp>
#include <tilekit/impl/common/eti.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

namespace tilekit::impl {

/// The addressing of one out-of-place transpose (docs/strided.md), in the
/// frame the kernels use: element (i, j), i < m, j < n, is read from
/// in[i * si0 + j * si1] and written to out[j * so0 + i * so1]. `tiled` when
/// both unit strides are innermost (si1 == so1 == 1): the tiled kernels then
/// take ld_in = si0, ld_out = so0 (contiguous: n and m).
struct TransposeGeom {
  index_t m = 0, n = 0, si0 = 0, si1 = 0, so0 = 0, so1 = 0;
  bool tiled = false;
};

/// in (R x C) strides (a, b), out (C x R) strides (c, d). The row-major frame
/// is (m, n) = (R, C); the column-major one (m, n) = (C, R) with the strides
/// swapped. Strides of extent-1 dimensions do not matter and are normalised.
inline TransposeGeom transpose_geom(index_t R, index_t C, index_t a, index_t b, index_t c,
                                    index_t d) {
  auto frame = [](index_t m, index_t n, index_t si0, index_t si1, index_t so0, index_t so1) {
    if (n <= 1) si1 = 1, so0 = m;
    if (m <= 1) si0 = n, so1 = 1;
    TransposeGeom g{m, n, si0, si1, so0, so1, false};
    g.tiled = si1 == 1 && so1 == 1;
    return g;
  };
  const TransposeGeom right = frame(R, C, a, b, c, d);
  if (right.tiled) return right;
  const TransposeGeom left = frame(C, R, b, a, d, c);
  if (left.tiled) return left;
  return left.si1 == 1 ? left : right;  // element by element: keep the reads unit-stride if any
}

template <class InView, class OutView>
TransposeGeom transpose_geom(const InView& in, const OutView& out) {
  auto st = [](const auto& v, int r) { return static_cast<index_t>(v.stride(r)); };
  return transpose_geom(static_cast<index_t>(in.extent(0)), static_cast<index_t>(in.extent(1)),
                        st(in, 0), st(in, 1), st(out, 0), st(out, 1));
}

/// A batch of matrices transposed by one launch (the permute's batched 2-D
/// transpositions): `count` matrices, matrix b at in + b si and out + b so
/// (element strides); one matrix: count 1.
struct TransposeBatch {
  index_t count = 1, si = 0, so = 0;
};

/// One planned 2-D transposition of T on ExecSpace: the launch shape resolved
/// from the backend traits and the caller's overrides, checked against the
/// space's limits once; launch() runs the kernel its geometry takes: the
/// tiled kernel (unit inner strides), the thin kernels (a side of at most the
/// backend's transpose_thin_bytes) or, for other strides, element by element.
template <class ExecSpace, class T>
class MatrixTranspose {
 public:
  MatrixTranspose() = default;

  /// `padded`: the scratch rows take the backend's (or the caller's) padding;
  /// in and out: the planned addresses (the skew of the tiles depends on the
  /// output's). Throws for a launch shape the space cannot run.
  MatrixTranspose(const ExecSpace& exec, const TransposeGeom& g, TransposeBatch batch,
                  bool padded, const LaunchOptions& opts, std::string label, const T* in,
                  T* out);

  /// The planned geometry's kernel on other addresses.
  void execute(const T* in, T* out) const { launch(geom_, in, out, false); }
  /// The kernel for g (views of the planned extents, other strides).
  void execute(const TransposeGeom& g, const T* in, T* out) const { launch(g, in, out, false); }

  const TransposeGeom& geom() const { return geom_; }
  bool tiled() const { return geom_.tiled; }
  /// A side of at most the backend's transpose_thin_bytes: the thin kernel
  /// (a batch takes the tiled kernel whatever its matrices' sides).
  bool thin() const { return thin(geom_); }
  const backends::TileConfig& config() const { return config_; }
  /// Elements per store transaction of the skewed tiles of the planned
  /// geometry (LaunchOptions::align), or 0: rectangular tiles (or no tiles).
  int skew() const { return skew_; }
  /// Input rows of the tiled kernel's tiles (the tile edge where they are
  /// square): TransposeTiled's ti without a skew.
  int tile_rows() const { return impl::tile_rows(host_rows(), config_.tile); }

 private:
  /// The backend's tile rows where its tiles take the host path
  /// (impl::host_tile_rows); 0: square tiles.
  int host_rows() const { return impl::host_tile_rows<ExecSpace, T>(config_); }

  bool thin(const TransposeGeom& g) const {
    constexpr int bytes = transpose_thin_bytes<ExecSpace>();
    const auto side = static_cast<std::size_t>(std::min(g.m, g.n));
    return bytes > 0 && g.tiled && batch_.count == 1 &&
           side * sizeof(T) <= static_cast<std::size_t>(bytes);
  }

  /// The thin kernel through team scratch (TransposeThinStaged): the input is
  /// the wide array (m rows of n), the output the narrow one (n rows of m).
  void launch_thin_staged(const TransposeGeom& g, const T* in, T* out, bool dry_run) const;

  /// Elements per store transaction S where the tiled kernel skews its tiles
  /// (TransposeTiled; matrix_def.hpp), or 0.
  template <int N>
  int skew_for(const TransposeGeom& g, index_t at) const;

  /// Launches the kernel for g (dry_run: checks its launch shape only);
  /// returns the skew of its tiles (skew_for), 0 for other kernels.
  int launch(const TransposeGeom& g, const T* in, T* out, bool dry_run) const;

  ExecSpace exec_;
  std::string label_;
  int align_ = -1;
  TransposeBatch batch_{};
  TransposeGeom geom_{};
  backends::TileConfig config_{};
  int skew_ = 0;
};

}  // namespace tilekit::impl

// The library's compiled pairs (impl/common/eti.hpp; cmake/TilekitETI.cmake).
#define TILEKIT_ETI_MATRIX_TRANSPOSE(E, T) \
  extern template class tilekit::impl::MatrixTranspose<E, T>;
TILEKIT_ETI_FOR_EACH_TRANSPOSE_PAIR(TILEKIT_ETI_MATRIX_TRANSPOSE)
#undef TILEKIT_ETI_MATRIX_TRANSPOSE
