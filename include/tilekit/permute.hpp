#pragma once
// N-D tensor permutation, ranks 1 to 8:
//
//   out = alpha * permute(in, perm) + beta * out,   out.extent(i) == in.extent(perm[i])
//
// i.e. out(j_0, ..., j_{r-1}) = in(i_0, ..., i_{r-1}) with j_k = i_{perm[k]}
// (numpy.transpose / torch.permute followed by a copy). With beta == 0 the
// output is never read. Work runs asynchronously on the given execution space
// instance; nothing here fences.
//
//   tilekit::permute(exec, in, out, {1, 2, 0});              // out(y, x, z) = in(z, y, x)
//   tilekit::permute(exec, in, out, {2, 1, 0}, 2.0, 1.0);    // out = 2 in^T + out
//   tilekit::PermutePlan plan(exec, in, out, {1, 2, 0});     // validate and prepare once ...
//   plan.execute(in, out);                                    // ... run many times
//
// Input and output may hold different value types (float <-> half_t, bhalf_t
// or double, int32 -> float, ...): each element is converted inside the
// kernel, at its store, with alpha * x + beta * y computed in
// permute_scalar_t<TIn, TOut> (float for the 2-byte floats, the wider type of
// a mixed pair). tilekit::conjugate conjugates complex elements on the way
// (the conjugate transpose; a no-op for real types). docs/types.md.
//
//   tilekit::permute(exec, in_float, out_half, {2, 0, 1});          // converted
//   tilekit::permute(exec, a, ah, {1, 0}, tilekit::conjugate);      // ah = a^H
//   tilekit::PermutePlan plan(exec, in, out, perm, tilekit::conjugate);
//
// Views: the same rank, contiguous LayoutRight or LayoutLeft of one layout
// (the convention is on logical indices either way), or LayoutStride windows
// of larger tensors on either side (docs/strided.md: the strides are data of
// the same kernels, dimensions fuse where their strides chain); disjoint,
// with distinct elements, accessible from the execution space. A wrong rank
// or extent, a perm that is not a permutation of 0..rank-1, overlapping
// strides or aliasing views throw tilekit::invalid_argument before anything
// is written. Indices are 64-bit.
//
// Threads: a plan holds nothing execute() writes (its offset tables are filled
// once, at construction), so host threads may share one, each on its own
// views; plans on different execution space instances run concurrently
// (docs/reliability.md).
#include <tilekit/impl/permute/dispatch.hpp>
// The launching code, for the plans the library does not hold (impl/common/eti.hpp).
#include <tilekit/impl/permute/definitions.hpp>

namespace tilekit {

/// Default scalar type of a call on these views (permute_scalar_t).
template <class InView, class OutView>
using permute_scalar_of_t = permute_scalar_t<typename InView::non_const_value_type,
                                             typename OutView::non_const_value_type>;

template <class ExecSpace, class InView, class OutView,
          class A = permute_scalar_of_t<InView, OutView>, class B = A>
  requires(!std::is_same_v<A, conjugate_t>)
void permute(const ExecSpace& exec, const InView& in, const OutView& out,
             const std::vector<int>& perm, const A& alpha = A(1), const B& beta = B(0),
             PermuteVariant variant = PermuteVariant::fused, const PermuteOptions& opts = {}) {
  PermutePlan(exec, in, out, perm, variant, opts).execute(in, out, alpha, beta);
}

/// The conjugate permute: out = alpha * convert(conj(permute(in))) + beta * out
/// (complex elements; real ones are not changed by conj).
template <class ExecSpace, class InView, class OutView,
          class A = permute_scalar_of_t<InView, OutView>, class B = A>
void permute(const ExecSpace& exec, const InView& in, const OutView& out,
             const std::vector<int>& perm, conjugate_t, const A& alpha = A(1),
             const B& beta = B(0), PermuteVariant variant = PermuteVariant::fused,
             const PermuteOptions& opts = {}) {
  PermutePlan(exec, in, out, perm, conjugate, variant, opts).execute(in, out, alpha, beta);
}

/// Same, with the kernels labelled `label` for Kokkos tools.
template <class ExecSpace, class InView, class OutView,
          class A = permute_scalar_of_t<InView, OutView>, class B = A>
  requires(!std::is_same_v<A, conjugate_t>)
void permute(const std::string& label, const ExecSpace& exec, const InView& in,
             const OutView& out, const std::vector<int>& perm, const A& alpha = A(1),
             const B& beta = B(0)) {
  PermuteOptions o;
  o.label = label;
  permute(exec, in, out, perm, alpha, beta, PermuteVariant::fused, o);
}

}  // namespace tilekit
