#pragma once
// Reductions of a whole view: sum (plain or compensated), min, max, and the
// index of the min or max, over int32, int64, float, double, half_t and bhalf_t
// views of any rank, contiguous or LayoutStride windows with gaps (their own
// kernel: docs/strided.md). docs/reduce.md has the details (docs/types.md: the
// 2-byte floats).
//
//   float s = tilekit::reduce(exec, v, tilekit::Sum{});   // returns on the host: waits
//   tilekit::ReducePlan plan(exec, v, tilekit::MinLoc{}); // validate, size the workspace once
//   plan.execute(v, r);   // r() = {value, index}: asynchronous on exec, no fence
//
// Asynchronous use goes through a plan because the plan owns the workspace the
// kernel is still using after the call returns. For the same reason a plan
// serves one host thread at a time: a second thread inside execute() while
// the first is gets tilekit::invalid_argument (give each thread its own plan;
// plans on different execution space instances run concurrently).
//
// Results: Sum gives sum_t<T> (int64 for integers: exact; float for half_t and
// bhalf_t, which accumulate in float), CompensatedSum T (float for the 2-byte
// floats), Min/Max T, MinLoc/MaxLoc ValueIndex<T> (index in memory order, the smallest
// index among equal values, -1 when empty). An empty view gives the operation's
// identity (0, +inf / the largest integer for Min, ...). NaN propagates: a sum
// with a NaN is NaN, and so are min and max (IEEE 754-2019 minimum/maximum).
// Float sums accumulate in T in a fixed order (see ReducePlan::depth and
// error_bound); the same n, alignment and launch shape give the same bits.
//
// (Seed 004's ladder, six refinement steps of a parallel sum, is
// tilekit::study::ReduceStepPlan: <tilekit/study.hpp>.)
#include <tilekit/impl/reduce/dispatch.hpp>
// The launching code, for the plans the library does not hold (impl/common/eti.hpp).
#include <tilekit/impl/reduce/definitions.hpp>

#include <string>

namespace tilekit {

/// The reduction of v by op, returned on the host (this waits for exec).
template <class ExecSpace, class View, class Op>
auto reduce(const ExecSpace& exec, const View& v, Op op, const ReduceOptions& opts = {}) {
  return ReducePlan<ExecSpace, typename View::non_const_value_type, Op>(exec, v, op, opts)
      .execute(v);
}

/// Same, with the kernel labelled `label` for Kokkos tools.
template <class ExecSpace, class View, class Op>
auto reduce(const std::string& label, const ExecSpace& exec, const View& v, Op op) {
  ReduceOptions o;
  o.label = label;
  return reduce(exec, v, op, o);
}

}  // namespace tilekit
