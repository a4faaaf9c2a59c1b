#pragma once
// run_case of `tilekit reduce` (reduce_case.hpp): seed 004's ladder, Kokkos'
// reduce, CUB's sum and the production reduce over one space and type, their
// checks and rows. Included by the case units only
// (cmake/TilekitToolCases.cmake): it includes the reductions' headers and
// none of the command line's (CLI11, the other families).
#include <tilekit/reduce.hpp>
#include <tilekit/study/reduce_ladder.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "reduce_case.hpp"
#include "throughput.hpp"
#include "transfers.hpp"
#include "vendor_reduce.hpp"

namespace tilekit::tool::reduce_cmd {

using tilekit::study::ReduceStep;
using tilekit::study::ReduceStepPlan;

inline constexpr ReduceStep kLadder[] = {
    ReduceStep::naive,     ReduceStep::strided,     ReduceStep::sequential,
    ReduceStep::first_add, ReduceStep::unroll_last, ReduceStep::multiple};

/// Exact facts of the tool's data (pattern(k) < 2^20, exact in every type but
/// the 2-byte floats; those take pattern(k) % data_modulus<T>, integers they
/// hold exactly).
struct Reference {
  std::int64_t sum = 0, imin = 0, imax = 0, min = 0, max = 0;
};

template <class T>
KOKKOS_INLINE_FUNCTION constexpr std::int64_t data_modulus() {
  if constexpr (!impl::is_half_v<T>) return 0;
  else if constexpr (std::is_same_v<T, Kokkos::Experimental::half_t>) return 2048;  // 11 bits
  else return 256;  // bhalf_t: 8 bits
}

/// The tool's element k of type T: pattern(k), reduced modulo data_modulus<T>().
template <class T>
KOKKOS_INLINE_FUNCTION T data_value(std::int64_t k) {
  constexpr std::int64_t m = data_modulus<T>();
  if constexpr (m == 0) return static_cast<T>(pattern(k));
  else return static_cast<T>(pattern(k) % m);
}

inline Reference reference(std::int64_t n, std::int64_t modulus) {
  auto value = [modulus](std::int64_t k) { return modulus ? pattern(k) % modulus : pattern(k); };
  Reference r;
  r.min = n ? value(0) : 0;
  r.max = r.min;
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t x = value(k);
    r.sum += x;
    if (x < r.min) r.min = x, r.imin = k;
    if (x > r.max) r.max = x, r.imax = k;
  }
  return r;
}

/// A sum within `bound` of the exact one (integers: equal).
template <class R>
bool sum_ok(R got, std::int64_t exact, double bound) {
  if constexpr (std::is_integral_v<R>) return got == exact;
  else return std::abs(static_cast<double>(got) - static_cast<double>(exact)) <= bound;
}

template <class Exec, class T>
bool run_case(const ReduceArgs& o, const Exec& exec, std::int64_t n, const HardwareInfo& hw,
              report::Report& rep) {
  using Mem = typename Exec::memory_space;
  using S = sum_t<T>;
  const double read = static_cast<double>(n) * sizeof(T);
  // Inputs a(k) and copy destinations b(k), k % count, all holding the same
  // data: one buffer each when n elements exceed twice the cache.
  const int count = report::rotation_count(read, report::rotation_bytes(hw));
  // --sub: a(k) is the parent of the window, holding the data at the window's
  // elements and -1 in its gaps (a gap read shows in the sum and the min); the
  // copy baseline copies c(k), n contiguous elements, into b(k).
  const bool sub = o.sub != "none";
  const SubWindow win = sub_window(o, n);
  report::Rotation<T, Mem> a(exec, "tilekit::tool::a", win.parent, count);
  report::Rotation<T, Mem> b(exec, "tilekit::tool::b", n, count);
  report::Rotation<T, Mem> c;
  if (sub) c = report::Rotation<T, Mem>(exec, "tilekit::tool::c", n, count);
  constexpr std::int64_t modulus = data_modulus<T>();
  for (int k = 0; k < count; ++k) {
    if constexpr (modulus == 0) {
      if (!sub) fill_pattern(exec, a(k));
    }
    if (modulus != 0 || sub) {
      if (sub) Kokkos::deep_copy(exec, a(k), static_cast<T>(-1));
      const auto p = a(k).data();
      const SubWindow w = win;
      Kokkos::parallel_for(
          "tilekit::tool::fill", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
          KOKKOS_LAMBDA(const std::int64_t i) {
            const std::int64_t at = (i / w.cols) * w.rs + (i % w.cols) * w.cs;
            p[at] = data_value<T>(i);
          });
    }
    if (sub) fill_pattern(exec, c(k));
  }
  exec.fence();
  const auto a0 = a(0);  // the checked call's input (the window's parent under --sub)
  // The production reduce's input of parent x: x itself, or its window.
  using Window = Kokkos::View<const T**, Kokkos::LayoutStride, Mem, Kokkos::MemoryUnmanaged>;
  auto window_of = [win](const auto& x) {
    return Window(x.data(), Kokkos::LayoutStride(static_cast<std::size_t>(win.rows),
                                                 static_cast<std::size_t>(win.rs),
                                                 static_cast<std::size_t>(win.cols),
                                                 static_cast<std::size_t>(win.cs)));
  };
  const Reference ref = o.common.check ? reference(n, modulus) : Reference{};
  const double sum_abs = static_cast<double>(ref.sum);  // the data are >= 0

  const auto selected = variant_selector(o.variant);
  bool ok = true;
  double copy_gbps = 0, naive_ms = 0, prev_ms = 0, cub_ms = 0;
  auto add_row = [&](const std::string& variant, const report::Throughput& t, double bytes,
                     bool checked, bool good) -> report::Row& {
    report::Row row;
    row.op = "reduce";
    row.variant = variant;
    row.space = Exec::name();
    row.shape = {n};
    row.dtype = type_name<T>();
    row.ms = t.ms;
    row.bytes = bytes;
    row.verified = checked && good;
    report::finish_row(row, copy_gbps, hw.peak_gbps);
    row.extra["latency_ms"] = t.latency_ms;
    row.extra["calls"] = t.calls;
    row.extra["buffers"] = count;
    if (checked && !good) row.extra["error"] = "WRONG RESULT";
    ok = ok && (!checked || good);
    rep.rows.push_back(row);
    return rep.rows.back();
  };
  auto fetch = [&](const auto& view) {
    exec.fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
    return h();
  };
  report::ThroughputOptions topt;
  topt.samples = o.common.reps;
  // fn(x) for the inputs x = a(k) of the running calls k.
  auto timed = [&](auto&& fn) {
    return report::time_throughput(exec, [&](std::int64_t k) { fn(a(k)); }, topt);
  };

  // The baseline: deep_copy of the same n elements (bytes read + written).
  {
    auto t = report::time_throughput(
        exec, [&](std::int64_t k) { Kokkos::deep_copy(exec, b(k), sub ? c(k) : a(k)); }, topt);
    add_row("copy", t, 2 * read, false, false);
    copy_gbps = rep.rows.back().gbps;
  }

  Kokkos::View<S, Mem> rs("tilekit::tool::sum");
  // The ladder (tilekit::study) takes the production reduce's team shape;
  // step 6 takes the first --teams value.
  tilekit::study::ReduceStepOptions ladder_shape;
  ladder_shape.team_rows = o.shape.team_rows;
  ladder_shape.vector = o.shape.vector;
  ladder_shape.teams = o.teams.empty() ? o.shape.teams : o.teams.front();
  ladder_shape.block = o.block;
  ladder_shape.warp = o.warp;
  ladder_shape.label = o.shape.label;
  // The ladder: step speedup over the previous rung, cumulative over naive
  // (the seed's sums of int32, int64, float and double).
  if constexpr (modulus == 0) {
    for (auto step : kLadder) {
      if (sub) break;  // the ladder, Kokkos and CUB take contiguous input
      const std::string name(to_string(step));
      if (!selected(name)) continue;
      ReduceStepPlan plan(exec, a0, step, ladder_shape);
      Kokkos::deep_copy(exec, rs, S(-7));
      plan.execute(a0, rs);
      const bool good = !o.common.check || sum_ok(fetch(rs), ref.sum, plan.error_bound(sum_abs));
      auto& row = add_row(name, timed([&](const auto& x) { plan.execute(x, rs); }), read,
                          o.common.check, good);
      if (naive_ms > 0) row.speedup = naive_ms / row.ms;
      if (prev_ms > 0) row.extra["step_speedup"] = prev_ms / row.ms;
      if (step == ReduceStep::naive) naive_ms = row.ms;
      prev_ms = row.ms;
    }
    if (selected("kokkos") && !sub) {
      tilekit::study::ReduceStepOptions kokkos_shape = ladder_shape;
      kokkos_shape.teams = o.shape.teams;
      ReduceStepPlan plan(exec, a0, ReduceStep::kokkos, kokkos_shape);
      Kokkos::deep_copy(exec, rs, S(-7));
      plan.execute(a0, rs);
      const bool good = !o.common.check || sum_ok(fetch(rs), ref.sum, plan.error_bound(sum_abs));
      auto& row = add_row("kokkos", timed([&](const auto& x) { plan.execute(x, rs); }), read,
                          o.common.check, good);
      if (naive_ms > 0) row.speedup = naive_ms / row.ms;
    }
  }
#if defined(TILEKIT_HAVE_CUB)
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda> && modulus == 0) {
    if (selected("cub") && !sub) {
      vendor::CubSum<T, S> cub(exec, n);
      Kokkos::deep_copy(exec, rs, S(-7));
      cub(a0.data(), rs.data());
      // CUB documents no order: any order's bound, (n - 1) u sum|x|.
      const double u = std::is_floating_point_v<T> ? std::numeric_limits<S>::epsilon() / 2 : 0;
      const bool good = !o.common.check || sum_ok(fetch(rs), ref.sum, n * u * sum_abs);
      auto& row = add_row("cub", timed([&](const auto& x) { cub(x.data(), rs.data()); }), read,
                          o.common.check, good);
      if (naive_ms > 0) row.speedup = naive_ms / row.ms;
      cub_ms = row.ms;
    }
  }
#endif

  // The production reduce, every operation, once per --teams value.
  ReduceOptions shape = o.shape;
  // input(x): the plan's input of parent x (x itself, or its --sub window).
  auto production_on = [&](auto op, auto&& good_of, auto&& input) {
    using Op = decltype(op);
    const std::string name(op_name<Op>());
    if (!selected(name)) return;
    ReducePlan plan(exec, input(a0), op, shape);
    using R = typename decltype(plan)::result_type;
    Kokkos::View<R, Mem> r("tilekit::tool::result");
    plan.execute(input(a0), r);
    const bool good = !o.common.check || good_of(fetch(r), plan);
    auto& row = add_row(sub ? name + "_sub_" + o.sub : name,
                        timed([&](const auto& x) { plan.execute(input(x), r); }), read,
                        o.common.check, good);
    row.extra["teams"] = plan.league();
    row.extra["split"] = plan.interleaved() ? "interleaved" : "contiguous";
    if (sub) {
      row.extra["sub"] = o.sub;
      row.extra["window"] = std::to_string(win.rows) + "x" + std::to_string(win.cols) +
                            " strides " + std::to_string(win.rs) + "," + std::to_string(win.cs);
      row.extra["strided_kernel"] = plan.strided();
      return;
    }
    if constexpr (std::is_same_v<Op, Sum>) {
      if (naive_ms > 0) row.speedup = naive_ms / row.ms;
      if (prev_ms > 0 && selected("multiple")) row.extra["step_speedup"] = prev_ms / row.ms;
      if (cub_ms > 0) row.extra["pct_cub"] = 100.0 * cub_ms / row.ms;
      if (!o.transfers.empty())
        add_transfer_rows(exec, o.common, o.transfers, a0, r, [&] { plan.execute(a0, r); },
                          report::Row(row), copy_gbps, hw.peak_gbps, rep);
    }
  };
  auto production = [&](auto op, auto&& good_of) {
    if (sub) production_on(op, good_of, window_of);
    else production_on(op, good_of, [](const auto& x) { return x; });
  };
  const std::vector<int> sweep = o.teams.empty() ? std::vector<int>{0} : o.teams;
  for (const int teams : sweep) {
    shape.teams = teams;
    production(Sum{}, [&](S got, const auto& plan) {
      return sum_ok(got, ref.sum, plan.error_bound(sum_abs));
    });
    if constexpr (std::is_floating_point_v<impl::compute_t<T>>) {
      production(CompensatedSum{}, [&](auto got, const auto& plan) {
        return sum_ok(got, ref.sum, plan.error_bound(sum_abs, sum_abs));
      });
    }
    production(Min{}, [&](T got, const auto&) { return got == static_cast<T>(ref.min); });
    production(Max{}, [&](T got, const auto&) { return got == static_cast<T>(ref.max); });
    production(MinLoc{}, [&](ValueIndex<T> got, const auto&) {
      return got.value == static_cast<T>(ref.min) && got.index == (n ? ref.imin : -1);
    });
    production(MaxLoc{}, [&](ValueIndex<T> got, const auto&) {
      return got.value == static_cast<T>(ref.max) && got.index == (n ? ref.imax : -1);
    });
  }
  return ok;
}

}  // namespace tilekit::tool::reduce_cmd
