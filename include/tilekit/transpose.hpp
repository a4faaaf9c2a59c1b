#pragma once
// 2-D matrix transposition: out-of-place (naive, tiled, tiled_padded) and
// in-place (square: naive swap, blocked pair swap; any shape: the
// decomposition of docs/transpose_inplace.md). Work runs asynchronously on the
// given execution space instance; nothing here fences.
//
//   tilekit::transpose(exec, in, out);                  // out = in^T
//   tilekit::transpose_inplace(exec, a);                 // a = a^T in a's memory
//   auto at = tilekit::transposed_view(a);               // a is m x n: at is n x m
//   tilekit::TransposePlan plan(exec, in, out, tilekit::TransposeVariant::tiled);
//   plan.execute(in, out);                               // reuse the checked setup
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
#include <tilekit/impl/transpose_dispatch.hpp>

namespace tilekit {

template <class ExecSpace, class InView, class OutView>
void transpose(const ExecSpace& exec, const InView& in, const OutView& out,
               TransposeVariant variant = TransposeVariant::tiled_padded,
               const TransposeOptions& opts = {}) {
  TransposePlan(exec, in, out, variant, opts).execute(in, out);
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
