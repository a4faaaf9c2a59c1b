#pragma once
// Dispatch for the 2-D transpose family: the out-of-place plan (plan.hpp)
// and the in-place plan, which picks the method for the matrix's shape,
// resolves its launch shape from the backend traits (or the caller's
// overrides), checks it against the space's limits, and launches it on the
// caller's execution space.
#include <tilekit/backends/traits.hpp>
#include <tilekit/errors.hpp>
#include <tilekit/impl/common/launch.hpp>
#include <tilekit/impl/transpose/inplace_blocks.hpp>
#include <tilekit/impl/transpose/inplace_kernels.hpp>  // the pair swap's aliasing rule
#include <tilekit/impl/transpose/inplace_rect.hpp>
#include <tilekit/impl/transpose/plan.hpp>

#include <algorithm>
#include <optional>
#include <string>

namespace tilekit {

namespace impl {

/// The checks of an in-place transpose's view against the planned extents
/// rows x cols (where: the call's label): rank 2, mutable of T, accessible
/// from ExecSpace, one contiguous span (LayoutRight, LayoutLeft, or a
/// LayoutStride view without gaps).
template <class ExecSpace, class T, class View>
void check_inplace(const std::string& w, const View& a, std::size_t rows, std::size_t cols) {
  static_assert(View::rank() == 2, "tilekit::transpose_inplace: the view must be rank 2");
  static_assert(std::is_same_v<typename View::value_type, T>,
                "tilekit::transpose_inplace: the view must be mutable, of the plan's type");
  detail::require_accessible<ExecSpace, View>();
  if (a.extent(0) != rows || a.extent(1) != cols)
    detail::fail(w, "extents " + detail::extents_string(a) + " differ from the planned (" +
                        std::to_string(rows) + ", " + std::to_string(cols) + ")");
  if constexpr (detail::is_stride_v<View>) {
    // A strided window is rejected (docs/strided.md): the in-place kernels
    // address the matrix as one flat span.
    if (a.size() > 0 && !a.span_is_contiguous())
      detail::fail(w, "matrix with extents " + detail::extents_string(a) + " and strides (" +
                          std::to_string(a.stride(0)) + ", " + std::to_string(a.stride(1)) +
                          ") is a strided window; in-place transposition needs a contiguous "
                          "matrix (transpose out of place instead)");
  } else {
    detail::require_contiguous(w, "matrix", a);
  }
}

}  // namespace impl

/// In-place transpose plan: a = a^T in a's memory. A square matrix takes the
/// blocked pair swap; any other (m x n, giving n x m: read the memory back
/// through a view of the swapped extents) blocked by square blocks where
/// gcd(m, n) >= 16 and the variant is blocked, else the decomposition. Those two
/// own a workspace (workspace_bytes(); none for the square variants).
/// Executions of one plan with a workspace must not overlap (one execution
/// space instance).
template <class ExecSpace, class T>
class InplaceTransposePlan {
 public:
  template <class View>
  InplaceTransposePlan(const ExecSpace& exec, const View& a,
                       InplaceVariant variant = InplaceVariant::blocked,
                       TransposeOptions opts = {})
      : exec_(exec), variant_(variant), opts_(std::move(opts)), rows_(a.extent(0)),
        cols_(a.extent(1)) {
    if (opts_.label == "tilekit::transpose") opts_.label = "tilekit::transpose_inplace";
    check(a);
    // A LayoutLeft m x n matrix is a LayoutRight n x m matrix in memory.
    bool left = impl::is_left_v<View>;
    if constexpr (detail::is_stride_v<View>) left = a.extent(1) > 1 && a.stride(1) != 1;
    const auto R = static_cast<impl::index_t>(left ? cols_ : rows_);
    const auto C = static_cast<impl::index_t>(left ? rows_ : cols_);
    if (rows_ != cols_ && (variant_ != InplaceVariant::blocked ||
                           !impl::RectBlockedTranspose<ExecSpace, T>::applies(R, C)))
      variant_ = InplaceVariant::decomposed;
    if (opts_.workspace < -1) detail::fail(opts_.label, "workspace must be -1 or a byte count");
    if (variant_ == InplaceVariant::decomposed) {
      rect_.emplace(exec_, R, C, opts_.label,
                    typename impl::RectInplaceTranspose<ExecSpace, Move>::Overrides{
                        opts_.line_scratch, opts_.slots, opts_.tile, opts_.team_rows});
      return;
    }
    config_ = impl::resolve_tile(opts_.label, opts_,
                                 backends::Traits<ExecSpace>::transpose_inplace_tile(sizeof(T)),
                                 /*padded=*/true, /*max_edge=*/1024);
    if (opts_.tile <= 0) {
      // Rows that alias (the pair swap's strips): tiles of the backend's row bytes.
      constexpr int alias_row = impl::inplace_alias_tile_bytes<ExecSpace>();
      if (alias_row > 0 &&
          impl::inplace_rows_aliased<ExecSpace, T>(C, static_cast<double>(R) * C * sizeof(T)))
        config_.tile = std::max(1, alias_row / static_cast<int>(sizeof(T)));
      config_.tile = impl::fit_tile<ExecSpace>(config_.tile, R, C, exec_.concurrency());
    }
    if (rows_ != cols_)
      blocks_.emplace(exec_, a.data(), R, C, config_, opts_.workspace, opts_.label);
    else
      launch(nullptr, true);
  }

  template <class View>
  void execute(const View& a) const {
    check(a);
    if (rect_) rect_->execute(impl::as_moves(a.data()));
    else if (blocks_) blocks_->execute(a.data());
    else launch(impl::as_moves(a.data()), false);
  }

  InplaceVariant variant() const { return variant_; }
  /// Launch shape of the blocked pair swap (unused by decomposed).
  const backends::TileConfig& config() const { return config_; }
  /// Bytes of device workspace the plan holds (none for a square matrix's
  /// blocked swap).
  std::size_t workspace_bytes() const {
    return rect_ ? rect_->workspace_bytes() : blocks_ ? blocks_->workspace_bytes() : 0;
  }
  /// Blocked, not square: the edge g of the square blocks and the columns w of
  /// each of their rows that one shuffle batch moves (0, 0 otherwise).
  impl::index_t block_edge() const { return blocks_ ? blocks_->edge() : 0; }
  impl::index_t batch_width() const { return blocks_ ? blocks_->batch_width() : 0; }

 private:
  template <class View>
  void check(const View& a) const {
    impl::check_inplace<ExecSpace, T>(opts_.label, a, rows_, cols_);
  }

  /// The square and decomposed engines move the elements' bits
  /// (impl::move_t): one compiled engine serves every type of T's size.
  using Move = impl::move_t<T>;

  void launch(Move* a, bool dry_run) const {
    const auto n = static_cast<impl::index_t>(rows_);
    impl::launch_inplace_blocked<ExecSpace, Move>(opts_.label, exec_, config_, a, n, n, 1, 1,
                                                  dry_run);
  }

  ExecSpace exec_;
  InplaceVariant variant_;
  TransposeOptions opts_;
  std::size_t rows_, cols_;
  backends::TileConfig config_{};
  std::optional<impl::RectInplaceTranspose<ExecSpace, Move>> rect_;
  std::optional<impl::RectBlockedTranspose<ExecSpace, T>> blocks_;
};

template <class E, class V>
InplaceTransposePlan(const E&, const V&) -> InplaceTransposePlan<E, typename V::value_type>;
template <class E, class V>
InplaceTransposePlan(const E&, const V&, InplaceVariant)
    -> InplaceTransposePlan<E, typename V::value_type>;
template <class E, class V>
InplaceTransposePlan(const E&, const V&, InplaceVariant, TransposeOptions)
    -> InplaceTransposePlan<E, typename V::value_type>;

}  // namespace tilekit
