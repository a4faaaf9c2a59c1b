#pragma once
// run_space_type of `tilekit transpose` (transpose_case.hpp): the plans of
// every variant over one space and type, their checks and rows. Included by
// the case units only (cmake/TilekitToolCases.cmake): it includes the
// transposes' headers and seed 002's naive kernels, and none of the command
// line's (CLI11, the other families).
#include <tilekit/study/transpose_naive.hpp>
#include <tilekit/transpose.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "timing.hpp"
#include "transfers.hpp"
#include "transpose_case.hpp"

namespace tilekit::tool::transpose_cmd {

template <class Exec, class T>
bool run_space_type(const TransposeArgs& o, const Exec& exec, double peak, report::Report& rep) {
  using Mem = typename Exec::memory_space;
  using Buf = Kokkos::View<T*, Mem>;
  using Mat = Kokkos::View<T**, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged>;
  const std::int64_t rows = o.m > 0 ? o.m : o.n, cols = o.n;
  const std::int64_t count = rows * cols;
  const double bytes = 2.0 * static_cast<double>(count) * sizeof(T);
  Buf a(Kokkos::view_alloc(exec, "tilekit::tool::a"), count);
  Buf b(Kokkos::view_alloc(exec, "tilekit::tool::b"), count);
  Mat in(a.data(), rows, cols), out(b.data(), cols, rows), sq(b.data(), rows, cols);
  fill_pattern(exec, a);
  // --sub: the out-of-place rows read a strided window of a larger parent
  // (filled with the pattern by parent index); the output stays contiguous.
  using Win = Kokkos::View<const T**, Kokkos::LayoutStride, Mem, Kokkos::MemoryUnmanaged>;
  const bool sub = o.sub != "none";
  const std::int64_t ld = o.sub == "rows2" ? 2 * cols : (o.sub_ld > 0 ? o.sub_ld : cols + 64);
  Buf parent(Kokkos::view_alloc(exec, "tilekit::tool::parent"), sub ? (rows - 1) * ld + cols : 0);
  if (sub) fill_pattern(exec, parent);
  const Win win(parent.data(), Kokkos::LayoutStride(rows, ld, cols, 1));
  // Parent index of input element (i, j).
  auto at = [&](std::int64_t i, std::int64_t j) { return sub ? i * ld + j : i * cols + j; };
  exec.fence();

  const auto selected = variant_selector(o.variant);
  // b <- poison, so a kernel that skips elements is caught by the check.
  auto poison = [&] { Kokkos::deep_copy(exec, b, static_cast<T>(-7)); };
  // b holds in^T: out of place the input at(i, j) (a --sub window's parent
  // index), in place (a copy of) a, contiguous.
  auto verify = [&](bool out_of_place) -> bool {
    if (!o.common.check) return true;
    exec.fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j)
        if (h(j * rows + i) != static_cast<T>(pattern(out_of_place ? at(i, j) : i * cols + j)))
          return false;
    return true;
  };

  bool ok = true;
  double copy_gbps = 0, naive_ms = 0, inplace_naive_ms = 0;
  auto add_row = [&](const std::string& variant, const report::Timing& t, bool verified,
                     double base_ms) {
    report::Row row;
    row.op = "transpose";
    row.variant = variant;
    row.space = Exec::name();
    row.shape = {rows, cols};
    row.dtype = type_name<T>();
    row.ms = t.median_ms;
    row.bytes = bytes;
    row.verified = verified;
    report::finish_row(row, copy_gbps, peak);
    if (base_ms > 0) row.speedup = base_ms / row.ms;
    rep.rows.push_back(row);
    return row;
  };

  // The baseline is always measured: every "% copy" refers to it. On a host
  // space it is the better of deep_copy and a parallel memcpy of the same bytes.
  {
    const auto t = report::time_copy(exec, o.common.reps, b, a, bytes);
    copy_gbps = t.gbps;
    if constexpr (report::host_copy_v<Exec>) {
      const auto m = report::time_memcpy(exec, o.common.reps, b.data(), a.data(), count, bytes);
      copy_gbps = std::max(copy_gbps, m.gbps);
      add_row("copy", t, false, 0);
      add_row("memcpy", m, false, 0);
    } else {
      add_row("copy", t, false, 0);
    }
  }
  if (selected("copy_kernel")) {
    using Policy = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;
    impl::CopyKernel<T> f{a.data(), b.data()};
    auto t = report::time_median(exec, o.common.reps, [&] {
      Kokkos::parallel_for("tilekit::copy_kernel", Policy(exec, 0, count), f);
    });
    add_row("copy_kernel", t, false, 0);
  }
  // Seed 002's naive transpose (tilekit::study), then the library's variants,
  // with their speedup over it.
  auto out_of_place = [&](const std::string& name, const auto& src, const auto& plan) {
    constexpr bool naive = std::is_same_v<std::decay_t<decltype(plan)>,
                                          tilekit::study::NaiveTransposePlan<Exec, T>>;
    poison();
    plan.execute(src, out);
    const bool good = verify(true);
    ok = ok && good;
    auto t = report::time_median(exec, o.common.reps, [&] { plan.execute(src, out); });
    auto row = add_row(name + (sub ? "_sub_" + o.sub : ""), t, o.common.check && good,
                       naive ? 0 : naive_ms);
    auto& extra = rep.rows.back().extra;
    if constexpr (naive) {
      naive_ms = row.ms;
    } else {
      extra["tile"] = plan.config().tile;
      if (plan.tile_rows() != plan.config().tile) extra["tile_rows"] = plan.tile_rows();
      extra["threads"] = plan.config().team_rows * plan.config().vector;
      if (plan.thin()) extra["kernel"] = "thin";
      if (plan.skew() > 0) extra["skew"] = plan.skew();
    }
    if (sub) {
      extra["sub"] = o.sub;
      extra["in_strides"] = std::to_string(ld) + ",1";
      if constexpr (naive) extra["kernel"] = "naive";
      else extra["kernel"] = plan.thin() ? "thin" : plan.tiled() ? "tiled" : "strided";
    }
    if (!good) extra["error"] = "WRONG RESULT";
    if (!o.transfers.empty())
      add_transfer_rows(exec, o.common, o.transfers, a, b, [&] { plan.execute(src, out); },
                        rep.rows.back(), copy_gbps, peak, rep);
  };
  auto each_variant = [&](const auto& src) {
    if (selected("naive"))
      out_of_place("naive", src, tilekit::study::NaiveTransposePlan(exec, src, out));
    for (auto v : {TransposeVariant::tiled, TransposeVariant::tiled_padded})
      if (selected(std::string(to_string(v))))
        out_of_place(std::string(to_string(v)), src, TransposePlan(exec, src, out, v, o.shape));
  };
  if (sub)
    each_variant(win);
  else
    each_variant(in);
  // In place: the square swaps on square matrices; blocked (square blocks and
  // a shuffle) on others whose extents share a divisor of 16 or more; the
  // decomposition on any shape (rows x cols in b's memory, left as cols x
  // rows). Each timed execution transposes the previous result as a rows x
  // cols matrix again: the same moves on other data.
  auto in_place = [&](const std::string& name, const auto& plan) {
    constexpr bool naive = std::is_same_v<std::decay_t<decltype(plan)>,
                                          tilekit::study::NaiveInplaceTransposePlan<Exec, T>>;
    Kokkos::deep_copy(exec, b, a);
    plan.execute(sq);
    const bool good = verify(false);
    ok = ok && good;
    auto t = report::time_median(exec, o.common.reps, [&] { plan.execute(sq); });
    auto row = add_row(name, t, o.common.check && good, naive ? 0 : inplace_naive_ms);
    auto& extra = rep.rows.back().extra;
    if constexpr (naive) {
      inplace_naive_ms = row.ms;
    } else {
      if (rows != cols || plan.variant() == InplaceVariant::decomposed)
        extra["workspace_bytes"] = static_cast<double>(plan.workspace_bytes());
      if (plan.block_edge() > 0) {
        extra["block_edge"] = static_cast<double>(plan.block_edge());
        extra["batch_width"] = static_cast<double>(plan.batch_width());
      }
    }
    if (!good) extra["error"] = "WRONG RESULT";
  };
  if (selected("inplace_naive") && rows == cols)
    in_place("inplace_naive", tilekit::study::NaiveInplaceTransposePlan(exec, sq));
  for (auto v : {InplaceVariant::blocked, InplaceVariant::decomposed}) {
    if (!selected(std::string(to_string(v)))) continue;
    InplaceTransposePlan plan(exec, sq, v, o.shape);
    // blocked on a matrix it cannot block is the decomposition's row.
    if (plan.variant() != v) continue;
    in_place(std::string(to_string(v)), plan);
  }
  return ok;
}

}  // namespace tilekit::tool::transpose_cmd
