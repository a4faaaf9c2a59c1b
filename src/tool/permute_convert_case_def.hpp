#pragma once
// run_convert_case of `tilekit permute --out-dtype/--conj`
// (permute_convert_case.hpp): the fused plan of one pair over one space, its
// copy baselines, checks and rows. Included by the case units only
// (cmake/TilekitToolCases.cmake): it includes the permute's headers and none
// of the command line's (CLI11, the other families).
#include <tilekit/permute.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "permute_common.hpp"
#include "permute_convert_case.hpp"
#include "timing.hpp"

namespace tilekit::tool::permute_convert_cmd {

using index_t = std::int64_t;

/// The pair's plan over raw buffers: LayoutStride views with the strides of
/// the layout, one view type per rank for both layouts (permute_case_def.hpp's
/// make_run says why and what the plan makes of them).
template <class Exec, class P, int R>
std::function<void()> make_convert_run(const Exec& exec, const typename P::in* a,
                                       typename P::out* b, const std::vector<index_t>& ext,
                                       bool left, const std::vector<int>& perm,
                                       const PermuteArgs& o, PermuteMethod& method,
                                       std::string& fused) {
  using Mem = typename Exec::memory_space;
  std::vector<index_t> oext(R);
  for (int k = 0; k < R; ++k) oext[k] = ext[perm[k]];
  const auto in = support::strided_view_of<R, Mem>(a, ext, support::contiguous_strides(ext, left));
  const auto out =
      support::strided_view_of<R, Mem>(b, oext, support::contiguous_strides(oext, left));
  auto plan = std::make_shared<PermutePlan<Exec, typename P::in, typename P::out, P::conj>>(
      exec, in, out, perm, PermuteVariant::fused, o.launch);
  method = plan->method();
  fused = plan->fused_shape().to_string();
  const double alpha = o.alpha, beta = o.beta;
  return [plan, in, out, alpha, beta] { plan->execute(in, out, alpha, beta); };
}

/// What out holds before a run: -7 under beta != 0 (read), else NaN where the
/// type has one (beta == 0 never reads it), -7 for integers.
template <class T>
T initial_out(double beta) {
  if constexpr (std::is_integral_v<T>) return T(-7);
  else return impl::convert<T>(beta != 0 ? -7.0 : std::numeric_limits<double>::quiet_NaN());
}

template <class Exec, class P>
bool run_convert_case(const PermuteArgs& o, const Exec& exec, const std::vector<index_t>& ext,
                      double peak, report::Report& rep) {
  using TIn = typename P::in;
  using TOut = typename P::out;
  using Mem = typename Exec::memory_space;
  const bool left = o.layout == "left";
  const int R = static_cast<int>(ext.size());
  index_t count = 1;
  for (auto e : ext) count *= e;
  const double n = static_cast<double>(count);
  const double bytes = n * (sizeof(TIn) + sizeof(TOut)) + (o.beta != 0 ? n * sizeof(TOut) : 0);
  Kokkos::View<TIn*, Mem> a(Kokkos::view_alloc(exec, "tilekit::tool::a"), count);
  Kokkos::View<TOut*, Mem> b(Kokkos::view_alloc(exec, "tilekit::tool::b"), count);
  {
    const auto p = a.data();
    Kokkos::parallel_for(
        "tilekit::tool::fill", Kokkos::RangePolicy<Exec, Kokkos::IndexType<index_t>>(exec, 0, count),
        KOKKOS_LAMBDA(const index_t k) { p[k] = input_value<TIn>(k); });
  }
  exec.fence();
  const std::string name = type_name<TIn>() + "->" + type_name<TOut>();

  double copy_gbps = 0;
  auto add_row = [&](const std::string& variant, const std::string& dtype,
                     const std::vector<int>& perm, const report::Timing& t, double row_bytes,
                     bool verified) -> report::Row& {
    rep.rows.push_back(permute_row(Exec::name(), ext, variant, dtype, perm, left, t, row_bytes,
                                   verified, copy_gbps, peak));
    return rep.rows.back();
  };

  // The baselines: the deep_copy of each type (through a scratch buffer of
  // that type), on a host space also a parallel memcpy; "% copy" refers to
  // the best of them.
  std::vector<int> id(R);
  std::iota(id.begin(), id.end(), 0);
  {
    std::size_t rows = 0;
    auto copy_of = [&](const auto& v) {
      using V = std::decay_t<decltype(v)>;
      using T = typename V::non_const_value_type;
      const double cb = 2 * n * sizeof(T);
      V tmp(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "tilekit::tool::copy"), count);
      const auto t = report::time_copy(exec, o.common.reps, tmp, v, cb);
      copy_gbps = std::max(copy_gbps, t.gbps);
      add_row("copy", type_name<T>(), id, t, cb, false);
      ++rows;
      if constexpr (report::host_copy_v<Exec>) {
        const auto m = report::time_memcpy(exec, o.common.reps, tmp.data(), v.data(), count, cb);
        copy_gbps = std::max(copy_gbps, m.gbps);
        add_row("memcpy", type_name<T>(), id, m, cb, false);
        ++rows;
      }
    };
    copy_of(a);
    if constexpr (!std::is_same_v<TIn, TOut>) copy_of(b);
    // (each row's % copy against the best of them, known now)
    const std::size_t first = rep.rows.size() - rows;
    for (std::size_t k = first; k < rep.rows.size(); ++k)
      report::finish_row(rep.rows[k], copy_gbps, peak);
  }

  bool ok = true;
  auto host_out = Kokkos::create_mirror_view(Kokkos::HostSpace(), b);
  auto host_in = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  const TOut y0 = initial_out<TOut>(o.beta);
  constexpr bool conj = P::conj && impl::is_complex_v<TIn>;
  for (const auto& perm : permutations(o, R)) {
    PermuteMethod method{};
    std::string fused;
    const auto run = support::with_rank(R, [&](auto rank) {
      return make_convert_run<Exec, P, decltype(rank)::value>(exec, a.data(), b.data(), ext,
                                                              left, perm, o, method, fused);
    });
    Kokkos::deep_copy(exec, b, y0);
    run();
    bool good = true;
    if (o.common.check) {
      exec.fence();
      Kokkos::deep_copy(host_out, b);
      good = check_permuted(host_out.data(), ext, perm, left, [&](const TOut& v, index_t i) {
        return close_to(v, expected_store<TIn, TOut, conj>(host_in(i), y0, o.alpha, o.beta));
      });
    }
    ok = ok && good;
    const auto t = report::time_median(exec, o.common.reps, run);
    auto& row = add_row("fused", name, perm, t, bytes, o.common.check && good);
    row.extra["method"] = std::string(to_string(method));
    row.extra["fused"] = fused;
    row.extra["in_dtype"] = type_name<TIn>();
    row.extra["out_dtype"] = type_name<TOut>();
    row.extra["conj"] = conj;
    row.extra["alpha"] = o.alpha;
    row.extra["beta"] = o.beta;
    if (!good) row.extra["error"] = "WRONG RESULT";
  }
  return ok;
}

}  // namespace tilekit::tool::permute_convert_cmd
