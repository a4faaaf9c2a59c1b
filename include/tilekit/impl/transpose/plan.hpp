#pragma once
// The out-of-place 2-D transpose's plan: the checks of the public call in
// front of the permute family's 2-D engine (impl::MatrixTranspose), which
// resolves the launch shape from the backend traits (or the caller's
// overrides), checks it against the space's limits and launches the kernel.
// Also the transposes' variants and options, which the in-place plan
// (dispatch.hpp) shares.
#include <tilekit/errors.hpp>
#include <tilekit/impl/common/launch.hpp>
#include <tilekit/impl/permute/matrix.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace tilekit {

/// Out-of-place variants: tiles through scratch, plain or with padded
/// scratch rows (the default). (Seed 002's naive transpose is
/// tilekit::study::NaiveTransposePlan.)
enum class TransposeVariant { tiled, tiled_padded };
/// In-place variants (docs/transpose_inplace.md): blocked swaps pairs of
/// tiles of a square matrix, and takes a matrix that is not square whose
/// extents share a divisor of 16 or more by square blocks, then a shuffle of
/// their rows through a workspace; decomposed takes any shape. Any other
/// matrix that is not square takes decomposed. (Seed 000's naive swap is
/// tilekit::study::NaiveInplaceTransposePlan.)
enum class InplaceVariant { blocked, decomposed };

/// Launch-shape overrides (LaunchOptions: 0, or -1 for pad and align, keeps
/// the backend default; the padding is that of tiled_padded and the in-place
/// variants), and the in-place variants' own.
struct TransposeOptions : LaunchOptions {
  /// In-place decomposed: largest line buffer (bytes) kept in team scratch,
  /// longer lines go through the workspace; 0 sends every line there; -1 keeps
  /// the backend's (Traits::inplace_rect).
  long line_scratch = -1;
  /// In-place decomposed: workspace slots (teams in flight on workspace
  /// lines); 0 keeps the backend's. There `tile` is the width of a column
  /// block (elements) and `team_rows` the work items of a (flat) team.
  int slots = 0;
  /// In-place blocked on a matrix that is not square: bound on the shuffle's
  /// workspace in bytes (whole batch columns, one at least); -1 keeps the
  /// backend's (backends::RectInplaceConfig::batch_bytes, within a quarter of
  /// the matrix). There `tile`, `team_rows`, `pad` and `tiles_per_team` shape
  /// the square pass as they do for a square matrix.
  long workspace = -1;
  std::string label = "tilekit::transpose";  ///< prefix of the kernel labels
};

constexpr std::string_view to_string(TransposeVariant v) {
  switch (v) {
    case TransposeVariant::tiled: return "tiled";
    case TransposeVariant::tiled_padded: return "tiled_padded";
  }
  return "?";
}
constexpr std::string_view to_string(InplaceVariant v) {
  switch (v) {
    case InplaceVariant::blocked: return "inplace_blocked";
    case InplaceVariant::decomposed: return "inplace_decomposed";
  }
  return "?";
}

namespace impl {

/// The checks of an out-of-place transpose's views against the planned
/// extents rows x cols (where: the call's label): rank 2, one layout or
/// LayoutStride on either side, accessible from ExecSpace, out's extents the
/// transposed ones, distinct elements, disjoint.
template <class ExecSpace, class T, class InView, class OutView>
void check_transpose(const std::string& w, const InView& in, const OutView& out,
                     std::size_t rows, std::size_t cols) {
  static_assert(InView::rank() == 2 && OutView::rank() == 2,
                "tilekit::transpose: views must be rank 2");
  detail::require_in_out_strided_pair<ExecSpace, T, InView, OutView>();
  if (in.extent(0) != rows || in.extent(1) != cols)
    detail::fail(w, "input extents " + detail::extents_string(in) + " differ from the planned (" +
                        std::to_string(rows) + ", " + std::to_string(cols) + ")");
  if (out.extent(0) != in.extent(1) || out.extent(1) != in.extent(0))
    detail::fail(w, "output extents " + detail::extents_string(out) +
                        " must be the transposed input extents (" + std::to_string(in.extent(1)) +
                        ", " + std::to_string(in.extent(0)) + ")");
  detail::require_strided(w, "input", in);
  detail::require_strided(w, "output", out);
  detail::require_disjoint(w, in, out);
  detail::checked_mul(w, static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols));
}

}  // namespace impl

/// Out-of-place transpose plan: out = in^T for 2-D views of one layout, or
/// either LayoutStride (docs/strided.md). Validates once; execute() re-checks
/// the extents and strides of the views it is given. The transposition is the
/// permute family's 2-D engine (impl::MatrixTranspose).
template <class ExecSpace, class T>
class TransposePlan {
 public:
  using value_type = T;

  template <class InView, class OutView>
  TransposePlan(const ExecSpace& exec, const InView& in, const OutView& out,
                TransposeVariant variant = TransposeVariant::tiled_padded,
                TransposeOptions opts = {})
      : variant_(variant), opts_(std::move(opts)), rows_(in.extent(0)), cols_(in.extent(1)) {
    check(in, out);
    matrix_ = impl::MatrixTranspose<ExecSpace, Move>(
        exec, impl::transpose_geom(in, out), impl::TransposeBatch{},
        variant_ == TransposeVariant::tiled_padded, opts_, opts_.label, impl::as_moves(in.data()),
        impl::as_moves(out.data()));
  }

  template <class InView, class OutView>
  void execute(const InView& in, const OutView& out) const {
    check(in, out);
    matrix_.execute(impl::transpose_geom(in, out), impl::as_moves(in.data()),
                    impl::as_moves(out.data()));
  }

  TransposeVariant variant() const { return variant_; }
  /// True when the planned views take the tiled kernels (both views have a
  /// unit stride in the same dimension order: contiguous, or windows with a
  /// leading dimension); otherwise the strided element kernel runs.
  bool tiled() const { return matrix_.tiled(); }
  /// True when the planned matrix is thin (a side of at most the backend's
  /// transpose_thin_bytes, e.g. 2 x N or N x 8 floats on every backend here):
  /// the thin kernel then runs (impl::TransposeThin), since a tile would be a
  /// sliver of a few rows.
  bool thin() const { return matrix_.thin(); }
  const backends::TileConfig& config() const { return matrix_.config(); }
  /// Elements per store transaction of the skewed tiles the planned views
  /// take (TransposeOptions::align), or 0: rectangular tiles (or no tiles).
  int skew() const { return matrix_.skew(); }
  /// Input rows of the tiles of the tiled kernels (the tile edge where they
  /// are square): TransposeTiled's ti without a skew.
  int tile_rows() const { return matrix_.tile_rows(); }

 private:
  template <class InView, class OutView>
  void check(const InView& in, const OutView& out) const {
    impl::check_transpose<ExecSpace, T>(opts_.label, in, out, rows_, cols_);
  }

  /// The engine moves the elements' bits (impl::move_t): one compiled engine
  /// serves every type of T's size.
  using Move = impl::move_t<T>;

  TransposeVariant variant_;
  TransposeOptions opts_;
  std::size_t rows_, cols_;
  impl::MatrixTranspose<ExecSpace, Move> matrix_;
};

template <class E, class I, class O>
TransposePlan(const E&, const I&, const O&) -> TransposePlan<E, typename O::non_const_value_type>;
template <class E, class I, class O>
TransposePlan(const E&, const I&, const O&, TransposeVariant)
    -> TransposePlan<E, typename O::non_const_value_type>;
template <class E, class I, class O>
TransposePlan(const E&, const I&, const O&, TransposeVariant, TransposeOptions)
    -> TransposePlan<E, typename O::non_const_value_type>;

}  // namespace tilekit
