// `tilekit cmm`: checkered matrix multiplication (seed 001). Every kernel
// variant against the deep_copy of the same bytes (time, GFLOP/s, effective
// bandwidth), then the host <-> device breakdown of one product - allocation,
// host-to-device, kernel, device-to-host - with pageable, pinned and unified
// memory (cmm_transfer.hpp).
#include <tilekit/cmm.hpp>

#include <algorithm>
#include <limits>
#include <vector>

#include "cmm_transfer.hpp"
#include "families.hpp"
#include "subcommand.hpp"
#include "timing.hpp"
#include "transfers.hpp"

namespace tilekit::tool {
// This file's own names, in a namespace of their own: the command-line units
// compile as one (TILEKIT_TOOL_UNITY), where each subcommand's variants,
// setup and cases would clash. measure_cmm is the family's (families.hpp).
namespace cmm_cmd {
namespace {

const std::vector<std::string> kVariants = {"copy",     "naive",  "tiled",   "blocked",
                                            "pageable", "pinned", "unified", "unified_prefetch"};

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

}  // namespace

// One space and type of the measurement: declared `extern` below and
// instantiated in the units cmake/TilekitToolCases.cmake generates.
template <class Exec, class T>
bool run_space_type(const CmmArgs& o, const Exec& exec, double peak, report::Report& rep) {
  using Mem = typename Exec::memory_space;
  using Mat = Kokkos::View<T**, Kokkos::LayoutRight, Mem>;
  const std::int64_t n = o.n;
  // Compulsory traffic: A and B read once, C written once.
  const double bytes = 2.5 * static_cast<double>(n) * n * sizeof(T);
  const double flops = static_cast<double>(n) * n * n;
  auto wanted = split_list(o.variant);
  auto selected = [&](const std::string& v) {
    return o.variant == "all" || std::find(wanted.begin(), wanted.end(), v) != wanted.end();
  };

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

#define TILEKIT_TOOL_CASE(prefix, Exec, T) \
  prefix template bool run_space_type<Exec, T>(const CmmArgs&, const Exec&, double, report::Report&);
#if !defined(TILEKIT_TOOL_INSTANCES_TU)
#include TILEKIT_TOOL_CASES

namespace {

Runner setup(CLI::App& app) {
  auto o = make_args<CmmArgs>(app);
  app.add_option("--n", o->n, "edge N of the N x N inputs (even); C is N/2 x N")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{2}, std::int64_t{1} << 20));
  app.add_option("--variant", o->variant,
                 "all, or a comma-separated list of: naive tiled blocked pageable pinned "
                 "unified unified_prefetch (copy is always measured)")
      ->capture_default_str();
  app.add_option("--team-rows", o->shape.team_rows, "work items along tile rows (default: backend's)");
  app.add_option("--team-cols", o->shape.team_cols, "work items along column sets (default: backend's)");
  app.add_option("--threads", o->shape.threads, "threads per team, dividing the work items");
  app.add_option("--k-step", o->shape.k_step, "k staged per step, even (default: backend's)");
  app.add_option("--pad", o->shape.pad, "scratch row padding (default: backend's)");
  app.add_option("--group", o->shape.group, "tile rows visited together (default: backend's)");
  return [o]() -> int {
    if (o->n % 2 != 0)
      throw CLI::ValidationError("--n", "checkered matrix multiplication needs an even N");
    const std::string dtypes = o->common.dtype == "all" ? "float,double" : o->common.dtype;
    for (const auto& d : split_list(dtypes))
      if (d != "float" && d != "double")
        throw CLI::ValidationError("--dtype", "cmm computes in float or double, not '" + d + "'");
    const double nn = static_cast<double>(o->n) * static_cast<double>(o->n);
    return measure_and_finish(*o, measure_cmm,
                              [&](std::size_t es) { return 2.5 * nn * es; });  // A, B and C
  };
}

}  // namespace

#endif  // !TILEKIT_TOOL_INSTANCES_TU
}  // namespace cmm_cmd
#if !defined(TILEKIT_TOOL_INSTANCES_TU)

bool measure_cmm(const CmmArgs& o, report::Report& rep) {
  check_variants(o.variant, cmm_cmd::kVariants);
  if (o.n % 2 != 0)
    throw CLI::ValidationError("--n", "checkered matrix multiplication needs an even N");
  const std::string dtypes = o.common.dtype == "all" ? "float,double" : o.common.dtype;
  for (const auto& d : split_list(dtypes))
    if (d != "float" && d != "double")
      throw CLI::ValidationError("--dtype", "cmm computes in float or double, not '" + d + "'");
  check_family_dtypes<false, float, double>(dtypes);  // the ones this tool is built with
  begin_report(o.common, "", rep);
  bool ok = true;
  for_each_space(o.common.space, [&](auto exec) {
    const double peak = hardware_info(exec).peak_gbps;
    for_each_family_dtype<false, float, double>(dtypes, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>)
        ok = cmm_cmd::run_space_type<std::decay_t<decltype(exec)>, T>(o, exec, peak, rep) && ok;
    });
  });
  return ok;
}

TILEKIT_SUBCOMMAND(cmm, "checkered matrix multiplication: variants, copy baseline, transfers",
                   cmm_cmd::setup);

// The case units name their cases after including this file; the command-line
// unit, which includes every subcommand's, ends this one's here.
#undef TILEKIT_TOOL_CASE
#endif  // !TILEKIT_TOOL_INSTANCES_TU

}  // namespace tilekit::tool
