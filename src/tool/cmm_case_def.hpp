#pragma once
// run_space_type of `tilekit cmm` (cmm_case.hpp): every kernel variant over
// one space and type, the host <-> device breakdown (cmm_transfer.hpp), their
// checks and rows. Included by the case units only
// (cmake/TilekitToolCases.cmake): it includes CMM's headers and none of the
// command line's (CLI11, the other families).
#include <tilekit/cmm.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cmm_case.hpp"
#include "cmm_transfer.hpp"
#include "timing.hpp"

namespace tilekit::tool::cmm_cmd {

/// Input element k: a small integer (-4 .. 4), so that every result is exact
/// in float and double and the check can compare exactly.
template <class T>
T input(std::int64_t k) {
  return static_cast<T>(pattern(k) % 9 - 4);
}

/// A(i, j) = input(i N + j), B(i, j) = input(N^2 + i N + j), written on the host.
template <class T, class HA, class HB>
void fill_inputs(const HA& a, const HB& b) {
  const std::int64_t n = static_cast<std::int64_t>(a.extent(0));
  using Host = Kokkos::DefaultHostExecutionSpace;
  Kokkos::parallel_for(
      "tilekit::tool::cmm_fill", Kokkos::RangePolicy<Host, Kokkos::IndexType<std::int64_t>>(0, n),
      [=](const std::int64_t i) {
        for (std::int64_t j = 0; j < n; ++j) {
          a(i, j) = input<T>(i * n + j);
          b(i, j) = input<T>(n * n + i * n + j);
        }
      });
  Host().fence();
}

/// Checks a host-readable C exactly: for each half s, C_s x = A_s (G_s x) row
/// by row for an all-nonzero x (Freivalds; any wrong element of a row shows),
/// where G_s[k][j] = B[k ^ 1][2j + ((k ^ s ^ 1) & 1)]; then every element of
/// four rows against the definition. All sums are integers below 2^53.
template <class T, class HC>
bool verify(const HC& c, std::int64_t n) {
  const std::int64_t half = n / 2;
  auto A = [n](std::int64_t i, std::int64_t k) { return double(input<T>(i * n + k)); };
  auto G = [n](int s, std::int64_t k, std::int64_t j) {
    return double(input<T>(n * n + (k ^ 1) * n + 2 * j + ((k ^ s ^ 1) & 1)));
  };
  std::vector<double> x(static_cast<std::size_t>(half)), g(static_cast<std::size_t>(n));
  for (int s = 0; s < 2; ++s) {
    for (std::int64_t j = 0; j < half; ++j) x[j] = 1 + (7 * j + 3 * s) % 7;
    for (std::int64_t k = 0; k < n; ++k) {
      double sum = 0;
      for (std::int64_t j = 0; j < half; ++j) sum += G(s, k, j) * x[j];
      g[k] = sum;
    }
    for (std::int64_t r = 0; r < half; ++r) {
      double lhs = 0, rhs = 0;
      for (std::int64_t j = 0; j < half; ++j) lhs += double(c(r, j + s * half)) * x[j];
      for (std::int64_t k = 0; k < n; ++k) rhs += A(2 * r + s, k) * g[k];
      if (!(lhs == rhs)) return false;
    }
  }
  for (std::int64_t r : {std::int64_t{0}, half / 3, half / 2, half - 1})
    for (std::int64_t col = 0; col < n; ++col) {
      const int s = col >= half;
      const std::int64_t j = col - s * half;
      double ref = 0;
      for (std::int64_t k = 0; k < n; ++k) ref += A(2 * r + s, k) * G(s, k, j);
      if (!(double(c(r, col)) == ref)) return false;
    }
  return true;
}

template <class Exec, class T>
bool run_space_type(const CmmArgs& o, const Exec& exec, double peak, report::Report& rep) {
  using Mem = typename Exec::memory_space;
  using Mat = Kokkos::View<T**, Kokkos::LayoutRight, Mem>;
  const std::int64_t n = o.n;
  // Compulsory traffic: A and B read once, C written once.
  const double bytes = 2.5 * static_cast<double>(n) * n * sizeof(T);
  const double flops = static_cast<double>(n) * n * n;
  const auto selected = variant_selector(o.variant);

  bool ok = true;
  double copy_gbps = 0, naive_ms = 0;
  auto add_row = [&](const std::string& variant, double ms, double copy, double pk) {
    report::Row row;
    row.op = "cmm";
    row.variant = variant;
    row.space = Exec::name();
    row.shape = {n, n};
    row.dtype = type_name<T>();
    row.ms = ms;
    row.bytes = bytes;
    report::finish_row(row, copy, pk);
    rep.rows.push_back(row);
    return &rep.rows.back();
  };

  {  // The baseline, always measured: deep_copy of 2.5 N^2 elements' bytes.
    Kokkos::View<T*, Mem> src(Kokkos::view_alloc(exec, "tilekit::tool::cmm_src"), n * n * 5 / 4);
    Kokkos::View<T*, Mem> dst(Kokkos::view_alloc(exec, "tilekit::tool::cmm_dst"), n * n * 5 / 4);
    const auto t = report::time_copy(exec, o.common.reps, dst, src, bytes);
    copy_gbps = t.gbps;
    add_row("copy", t.median_ms, copy_gbps, peak);
  }

  Mat a(Kokkos::view_alloc(exec, "tilekit::tool::cmm_a"), n, n);
  Mat b(Kokkos::view_alloc(exec, "tilekit::tool::cmm_b"), n, n);
  Mat c(Kokkos::view_alloc(exec, "tilekit::tool::cmm_c"), n / 2, n);
  {
    auto ha = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, a);
    auto hb = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, b);
    fill_inputs<T>(ha, hb);
    Kokkos::deep_copy(exec, a, ha);
    Kokkos::deep_copy(exec, b, hb);
    exec.fence();
  }
  for (auto v : {CmmVariant::naive, CmmVariant::tiled, CmmVariant::blocked}) {
    const std::string name(to_string(v));
    if (!selected(name)) continue;
    CmmPlan plan(exec, a, b, c, v, o.shape);
    bool good = true;
    if (o.common.check) {
      Kokkos::deep_copy(exec, c, std::numeric_limits<T>::quiet_NaN());
      plan.execute(a, b, c);
      good = verify<T>(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c), n);
      ok = ok && good;
    }
    auto t = report::time_median(exec, o.common.reps, [&] { plan.execute(a, b, c); });
    auto* row = add_row(name, t.median_ms, copy_gbps, peak);
    row->verified = o.common.check && good;
    if (v == CmmVariant::naive) naive_ms = t.median_ms;
    else if (naive_ms > 0) row->speedup = naive_ms / t.median_ms;
    row->extra["gflops"] = flops / (t.median_ms * 1e-3) / 1e9;
    if (v != CmmVariant::naive) {
      const auto& s = plan.shape();
      const int sets = s.reg_cols * s.team_cols;
      // rows of A x columns of B x k step; work items : outputs per item
      row->extra["tile"] = std::to_string(s.reg_rows * s.team_rows) + "x" +
                           std::to_string(2 * sets) + "x" + std::to_string(s.k_step);
      row->extra["team"] = std::to_string(s.team_rows) + "x" + std::to_string(s.team_cols) + ":" +
                           std::to_string(s.reg_rows) + "x" + std::to_string(s.reg_cols);
    }
    if (!good) row->extra["error"] = "WRONG RESULT";
  }
  a = Mat();
  b = Mat();
  c = Mat();

  using cmm_transfer::Flow;
  for (auto flow : {Flow::pageable, Flow::pinned, Flow::unified, Flow::unified_prefetch}) {
    if (!selected(cmm_transfer::name(flow))) continue;
    const std::string why = cmm_transfer::not_applicable<Exec>(flow);
    if (!why.empty()) {
      add_row(cmm_transfer::name(flow), 0, 0, 0)->extra["note"] = why;
      continue;
    }
    auto fill = [](const auto& ha, const auto& hb) { fill_inputs<T>(ha, hb); };
    auto check = [&](const auto& hc) { return !o.common.check || verify<T>(hc, n); };
    const auto ph =
        cmm_transfer::run<Exec, T>(exec, flow, n, o.common.reps, o.shape, fill, check);
    ok = ok && ph.verified;
    auto* row = add_row(cmm_transfer::name(flow), ph.total, 0, 0);
    row->verified = o.common.check && ph.verified;
    row->extra["alloc_ms"] = ph.alloc;
    row->extra["h2d_ms"] = ph.h2d;
    row->extra["kernel_ms"] = ph.kernel;
    row->extra["d2h_ms"] = ph.d2h;
    // The seed's effective bandwidth: bytes moved / time of the transfers.
    if (ph.h2d + ph.d2h > 0) row->extra["xfer_gbps"] = bytes / ((ph.h2d + ph.d2h) * 1e-3) / 1e9;
    if (!ph.verified) row->extra["error"] = "WRONG RESULT";
  }
  return ok;
}

}  // namespace tilekit::tool::cmm_cmd
