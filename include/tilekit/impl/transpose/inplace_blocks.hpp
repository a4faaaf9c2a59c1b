#pragma once
// Dispatch of the blocked in-place transposes (docs/transpose_inplace.md):
// the square pair swap (launch_inplace_blocked, also batched over a grid of
// square blocks), and the rectangular transpose by square blocks
// (RectBlockedTranspose): with g = gcd(m, n), an m x n row-major matrix is
// P x Q blocks of g x g (P = m / g, Q = n / g).
//
//  1. Every block is transposed in place (one launch of the pair swap).
//  2. Element (p, b, q, a) (row p g + b, column q g + a) now belongs at
//     (q, b, p, a) of the n x m result, i.e. at (q g + b) m + p g + a: a
//     permutation of the rows of g elements that keeps each element's column
//     a within its row. Both address sets of the columns a in [a0, a0 + w)
//     are the addresses congruent to them modulo g, so each such batch of
//     columns is shuffled on its own: a permute {2, 1, 0, 3} of the batch into
//     a workspace, then a copy back to its place (two PermutePlan launches on
//     strided views, their inner runs w elements long).
//
// Traffic: the matrix is read and written three times (the square pass and
// both shuffle passes), the workspace once each way; it is sized to stay in
// the last-level cache (RectInplaceConfig::batch_bytes) where it can.
#include <tilekit/backends/traits.hpp>
#include <tilekit/errors.hpp>
#include <tilekit/impl/common/launch.hpp>
#include <tilekit/impl/permute/dispatch.hpp>
#include <tilekit/impl/common/eti.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>

namespace tilekit::impl {

/// Transposes in place each n x n block of a grid of blocks_p x blocks_q of
/// them whose rows lie `stride` elements apart (a square matrix: 1, 1, n),
/// with the pair swap's launch shape `config`; dry_run validates the launch.
template <class ExecSpace, class T>
void launch_inplace_blocked(const std::string& label, const ExecSpace& exec,
                            const backends::TileConfig& config, T* a, index_t n, index_t stride,
                            index_t blocks_p, index_t blocks_q, bool dry_run);

/// The rectangular transpose by square blocks (above) of a rows x cols
/// row-major matrix, rows != cols, whose gcd g is at least min_edge. Its
/// kernels move bits (the pair swap of impl::move_t<T>, the shuffle's plans'
/// moves); the class itself is host code per type.
/// Workspace: rows * cols / g * w elements, w the columns of a shuffle batch.
template <class ExecSpace, class T>
class RectBlockedTranspose {
 public:
  /// Smallest block edge. Below it the decomposition is faster: the batches'
  /// rows are then a few elements long. The workspace of one column of every
  /// row is then at most 1/16 of the matrix.
  static constexpr index_t min_edge = 16;
  static bool applies(index_t rows, index_t cols) {
    return rows > 0 && cols > 0 && rows != cols && std::gcd(rows, cols) >= min_edge;
  }

  /// `square`: the pair swap's launch shape (resolved); `workspace_bytes`
  /// >= 0 the caller's bound on the workspace (rounded down to whole batch
  /// columns, one at least), else the backend's batch_bytes within a quarter
  /// of the matrix.
  RectBlockedTranspose(const ExecSpace& exec, T* a, index_t rows, index_t cols,
                       const backends::TileConfig& square, long workspace_bytes,
                       std::string label);

  void execute(T* a) const;

  std::size_t workspace_bytes() const { return workspace_.size() * sizeof(T); }
  index_t edge() const { return g_; }
  /// Columns of each row of g elements that one shuffle batch moves.
  index_t batch_width() const { return width_; }

 private:
  using Mem = typename ExecSpace::memory_space;
  using Strided = Kokkos::View<T****, Kokkos::LayoutStride, Mem, Kokkos::MemoryUnmanaged>;
  using Plan = PermutePlan<ExecSpace, T>;
  struct Pass {
    index_t width;
    Plan gather, scatter;
  };

  /// The batch's columns of the blocks after step 1: (p, b, q, a).
  Strided source(T* at, index_t w) const {
    const index_t P = rows_ / g_, Q = cols_ / g_;
    return Strided(at, Kokkos::LayoutStride(P, g_ * cols_, g_, cols_, Q, g_, w, 1));
  }
  /// The workspace, (q, b, p, a) in order.
  Strided buffer(index_t w) const {
    const index_t P = rows_ / g_, Q = cols_ / g_;
    return Strided(workspace_.data(),
                   Kokkos::LayoutStride(Q, g_ * P * w, g_, P * w, P, w, w, 1));
  }
  /// Their places in the cols x rows result: (q, b, p, a).
  Strided destination(T* at, index_t w) const {
    const index_t P = rows_ / g_, Q = cols_ / g_;
    return Strided(at, Kokkos::LayoutStride(Q, g_ * rows_, g_, rows_, P, g_, w, 1));
  }
  Pass make_pass(T* a, index_t w, const PermuteOptions& po) const;

  ExecSpace exec_;
  std::string label_;
  backends::TileConfig square_;
  index_t rows_, cols_, g_ = 1, width_ = 1;
  Kokkos::View<T*, Mem> workspace_;
  std::optional<Pass> full_, rest_;
};

}  // namespace tilekit::impl

// The library's compiled instances (impl/common/eti.hpp; cmake/TilekitETI.cmake):
// the pair swap per element size (the transposes' engines), the blocked
// rectangular plan per type, with the permute plans of its shuffle.
#define TILEKIT_ETI_INPLACE_BLOCKS(E, T)                                                       \
  extern template void tilekit::impl::launch_inplace_blocked<E, T>(                           \
      const std::string&, const E&, const tilekit::backends::TileConfig&, T*,                 \
      tilekit::impl::index_t, tilekit::impl::index_t, tilekit::impl::index_t,                 \
      tilekit::impl::index_t, bool);
TILEKIT_ETI_FOR_EACH_TRANSPOSE_PAIR(TILEKIT_ETI_INPLACE_BLOCKS)
#undef TILEKIT_ETI_INPLACE_BLOCKS
#define TILEKIT_ETI_RECT_BLOCKED(E, T) extern template class tilekit::impl::RectBlockedTranspose<E, T>;
TILEKIT_ETI_FOR_EACH_PAIR(TILEKIT_ETI_RECT_BLOCKED)
#undef TILEKIT_ETI_RECT_BLOCKED
