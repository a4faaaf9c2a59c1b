#pragma once
// 2-D matrix transposition: out-of-place (tiled, tiled_padded) and in-place
// (square: blocked pair swap; extents sharing a divisor >= 16: square blocks
// and a shuffle; any shape: the decomposition; docs/transpose_inplace.md). Work runs
// asynchronously on the given execution space instance; nothing here fences.
//
//   tilekit::transpose(exec, in, out);                  // out = in^T
//   tilekit::transpose_inplace(exec, a);                 // a = a^T in a's memory
//   auto at = tilekit::transposed_view(a);               // a is m x n: at is n x m
//   tilekit::TransposePlan plan(exec, in, out, tilekit::TransposeVariant::tiled);
//   plan.execute(in, out);                               // reuse the checked setup
//   tilekit::transpose(exec, in_float, out_half);        // converted (a permute {1, 0})
//   tilekit::transpose(exec, c, ch, tilekit::conjugate); // ch = c^H (docs/types.md)
//
// Views: rank 2, contiguous LayoutRight or LayoutLeft (both of one layout),
// or, out of place, LayoutStride windows (docs/strided.md: a unit innermost
// stride keeps the tiled kernels), accessible from the execution space. Bad
// extents, overlapping strides or aliasing throw tilekit::invalid_argument
// before anything is written.
//
// Threads: a plan holds nothing execute() writes, so host threads may share
// one (each on its own views); plans on different execution space instances
// run concurrently (docs/reliability.md).
#include <tilekit/impl/transpose/dispatch.hpp>
// The launching code, for the pairs the library does not hold (impl/common/eti.hpp).
#include <tilekit/impl/transpose/definitions.hpp>
#include <tilekit/permute.hpp>

namespace tilekit {

namespace impl {

/// A transpose's options for the permute {1, 0} it runs as (the same meanings).
inline PermuteOptions as_permute_options(const TransposeOptions& o) {
  PermuteOptions p;
  static_cast<LaunchOptions&>(p) = o;
  p.label = o.label;
  return p;
}

}  // namespace impl

/// out = in^T. Views of different value types (out = convert(in)^T, e.g.
/// float into half_t) run as the permute {1, 0}: its fused plan, converting
/// at the store (docs/types.md).
template <class ExecSpace, class InView, class OutView>
void transpose(const ExecSpace& exec, const InView& in, const OutView& out,
               TransposeVariant variant = TransposeVariant::tiled_padded,
               const TransposeOptions& opts = {}) {
  if constexpr (!std::is_same_v<typename InView::non_const_value_type,
                                typename OutView::non_const_value_type>) {
    (void)variant;  // both tiled variants: the permute's fused plan
    permute(exec, in, out, {1, 0}, 1, 0, PermuteVariant::fused, impl::as_permute_options(opts));
  } else {
    TransposePlan(exec, in, out, variant, opts).execute(in, out);
  }
}

/// out = alpha * convert(in)^T + beta * out: the permute {1, 0} (beta == 0
/// never reads out; permute_scalar_t is the arithmetic's type).
template <class ExecSpace, class InView, class OutView, class A, class B = A>
  requires(!std::is_same_v<A, conjugate_t> && !std::is_same_v<A, TransposeVariant>)
void transpose(const ExecSpace& exec, const InView& in, const OutView& out, const A& alpha,
               const B& beta = B(0)) {
  static_assert(InView::rank() == 2 && OutView::rank() == 2,
                "tilekit::transpose: views must be rank 2");
  permute(exec, in, out, {1, 0}, alpha, beta);
}

/// The conjugate transpose out = alpha * convert(conj(in))^T + beta * out
/// (complex elements; for real ones the plain transpose), as the permute {1, 0}.
template <class ExecSpace, class InView, class OutView,
          class A = permute_scalar_of_t<InView, OutView>, class B = A>
void transpose(const ExecSpace& exec, const InView& in, const OutView& out, conjugate_t,
               const A& alpha = A(1), const B& beta = B(0)) {
  static_assert(InView::rank() == 2 && OutView::rank() == 2,
                "tilekit::transpose: views must be rank 2");
  permute(exec, in, out, {1, 0}, conjugate, alpha, beta);
}

/// Same, with the kernels labelled `label` for Kokkos tools.
template <class ExecSpace, class InView, class OutView>
void transpose(const std::string& label, const ExecSpace& exec, const InView& in,
               const OutView& out, TransposeVariant variant = TransposeVariant::tiled_padded) {
  TransposeOptions o;
  o.label = label;
  transpose(exec, in, out, variant, o);
}

template <class ExecSpace, class View>
void transpose_inplace(const ExecSpace& exec, const View& a,
                       InplaceVariant variant = InplaceVariant::blocked,
                       const TransposeOptions& opts = {}) {
  InplaceTransposePlan(exec, a, variant, opts).execute(a);
}

/// The n x m matrix that transpose_inplace leaves in the memory of an m x n
/// view `a` (same layout; unmanaged: `a` keeps the allocation alive).
template <class View>
auto transposed_view(const View& a) {
  static_assert(View::rank() == 2, "tilekit::transposed_view: the view must be rank 2");
  using Result = Kokkos::View<typename View::data_type, typename View::array_layout,
                              typename View::memory_space, Kokkos::MemoryUnmanaged>;
  return Result(a.data(), a.extent(1), a.extent(0));
}

template <class ExecSpace, class View>
void transpose_inplace(const std::string& label, const ExecSpace& exec, const View& a,
                       InplaceVariant variant = InplaceVariant::blocked) {
  TransposeOptions o;
  o.label = label;
  transpose_inplace(exec, a, variant, o);
}

}  // namespace tilekit
