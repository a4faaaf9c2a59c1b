#pragma once
// run_case of `tilekit permute` (permute_case.hpp) and its helpers: the
// plans of every variant over one space and type, their checks and rows.
// Included by the case units only (cmake/TilekitToolCases.cmake), each
// instantiating a space's cases: it includes the permute's headers and the
// seeds' rank-3 kernels, and none of the command line's (CLI11, the other
// families).
#include <tilekit/permute.hpp>
#include <tilekit/study/permute3d.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "permute_case.hpp"
#include "permute_common.hpp"
#include "timing.hpp"
#include "transfers.hpp"

namespace tilekit::tool::permute_cmd {

using index_t = std::int64_t;

/// A plan over the buffers a (input) and b (output) viewed with the shape's
/// rank and layout: execute() and what the plan chose.
struct PlanRun {
  std::function<void()> execute;
  std::string method;  ///< PermuteMethod's name, or the seed kernel's family
  std::string fused;
  int skew = 0;  ///< the plan's skewed tiles (PermutePlan::skew), 0: none
  int pack = 1;  ///< elements per access of its pure moves (PermutePlan::pack_width)
  /// The tiled method's box (load rows x load run, elements) and team (work
  /// items); empty and 0 for the other methods.
  std::string box;
  int threads = 0;
};

/// --sub: the parent of the input window (extents and strides; the window
/// starts at the parent's first element).
struct SubWindow {
  std::vector<index_t> parent, strides;
  index_t size = 0;  ///< the parent's elements
};

inline SubWindow sub_window(const std::string& kind,
                            const std::vector<index_t>& ext, bool left) {
  const int r = static_cast<int>(ext.size());
  SubWindow w{ext, std::vector<index_t>(r), 1};
  const int fast = left ? 0 : r - 1, second = left ? 1 : r - 2;
  if (kind == "block") w.parent[fast] += 64;
  else if (kind == "rows2" && r >= 2) w.parent[second] *= 2;
  index_t acc = 1;
  for (int q = 0; q < r; ++q) {
    const int d = left ? q : r - 1 - q;
    w.strides[d] = (kind == "rows2" && d == second ? 2 : 1) * acc;
    acc *= w.parent[d];
  }
  w.size = acc;
  return w;
}

/// A variant of the subcommand: the library's, or a seed kernel (tilekit::study).
using Variant = std::variant<PermuteVariant, tilekit::study::Permute3Variant>;

/// The plan's views over a (input) and b (output): the library's plans take
/// LayoutStride views of the buffers, contiguous with the strides of the
/// layout (left: LayoutLeft's, else LayoutRight's) or (sub) the input a
/// window of a parent at a. One view type per rank thus serves both layouts
/// and --sub, so PermutePlan's view-typed members compile once per rank, not
/// once per rank, layout and input kind (most of the case units' build time).
/// The plan orders strided views' dimensions by stride, which gives contiguous
/// views the problem of their layout (impl::strided_shape); only extents of 1
/// sit elsewhere in the plan's unfused shape, which fusion drops and the
/// naive kernel walks as digits of 1 either way. The seeds' kernels
/// (tilekit::study, rank-3 contiguous views) get views of the layout.
template <class Exec, class T, int R>
PlanRun make_run(const Exec& exec, T* a, T* b, const std::vector<index_t>& ext, bool left,
                 const std::vector<int>& perm, const Variant& v, const PermuteOptions& opts,
                 double alpha, double beta, const SubWindow* sub) {
  using Mem = typename Exec::memory_space;
  std::vector<index_t> oext(R);
  for (int k = 0; k < R; ++k) oext[k] = ext[perm[k]];
  if (const auto* seed = std::get_if<tilekit::study::Permute3Variant>(&v)) {
    if constexpr (R == 3) {
      return support::with_layout(left, [&](auto layout) -> PlanRun {
        using V = ViewOf<T, R, decltype(layout), Mem>;
        const V in = make_view<V>(a, ext, std::make_index_sequence<R>{});
        const V out = make_view<V>(b, oext, std::make_index_sequence<R>{});
        auto plan = std::make_shared<tilekit::study::Permute3Plan<Exec, T>>(exec, in, out, perm,
                                                                            *seed, opts);
        return {[plan, in, out, alpha, beta] { plan->execute(in, out, alpha, beta); },
                std::string(plan->method()), "", 0, 1, "", 0};
      });
    }
    throw std::logic_error("the seeds' kernels take rank-3 views");  // run_case selects them so
  }
  const auto in = support::strided_view_of<R, Mem>(
      a, ext, sub ? sub->strides : support::contiguous_strides(ext, left));
  const auto out =
      support::strided_view_of<R, Mem>(b, oext, support::contiguous_strides(oext, left));
  using P = PermutePlan<Exec, T>;
  auto plan = std::make_shared<P>(exec, in, out, perm, std::get<PermuteVariant>(v), opts);
  PlanRun r{[plan, in, out, alpha, beta] { plan->execute(in, out, alpha, beta); },
            std::string(to_string(plan->method())), plan->fused_shape().to_string(),
            plan->skew(), plan->pack_width(), "", 0};
  if (plan->method() == PermuteMethod::tiled) {
    const impl::TiledLayout& L = plan->tiled_layout();
    r.box = std::to_string(L.box[impl::load_rows]) + "x" + std::to_string(L.box[impl::load_cols]);
    r.threads = plan->tiled_team_size();
  }
  return r;
}

/// --sub: copies the contiguous input a into the window of the parent p, so
/// that window element idx holds what a holds at idx (the check is unchanged).
/// The copy is the library's compiled permute by the identity, not
/// Kokkos::deep_copy, which would instantiate copy kernels here for every
/// rank, layout and type of the tool; its views are make_run's.
template <class Exec, class T, int R>
void fill_window(const Exec& exec, T* a, T* p, const std::vector<index_t>& ext, bool left,
                 const SubWindow& sub) {
  using Mem = typename Exec::memory_space;
  std::vector<int> identity(R);
  std::iota(identity.begin(), identity.end(), 0);
  PermuteOptions o;
  o.label = "tilekit::tool::fill_window";
  permute(exec, support::strided_view_of<R, Mem>(a, ext, support::contiguous_strides(ext, left)),
          support::strided_view_of<R, Mem>(p, ext, sub.strides), identity, T(1), T(0),
          PermuteVariant::fused, o);
}

template <class Exec, class T>
bool run_case(const PermuteArgs& o, const Exec& exec, const std::vector<index_t>& ext, double peak,
              report::Report& rep) {
  using Mem = typename Exec::memory_space;
  const bool left = o.layout == "left";
  const int R = static_cast<int>(ext.size());
  index_t count = 1;
  for (auto e : ext) count *= e;
  const double bytes = 2.0 * static_cast<double>(count) * sizeof(T);
  // The kernels' bytes: beta != 0 reads the output too.
  const double kernel_bytes = bytes + (o.beta != 0 ? static_cast<double>(count) * sizeof(T) : 0);
  Kokkos::View<T*, Mem> a(Kokkos::view_alloc(exec, "tilekit::tool::a"), count);
  Kokkos::View<T*, Mem> b(Kokkos::view_alloc(exec, "tilekit::tool::b"), count);
  fill_pattern(exec, a);
  // --sub: the kernels read a window of a parent holding a's elements.
  const bool sub = o.sub != "none";
  const SubWindow win = sub ? sub_window(o.sub, ext, left) : SubWindow{};
  Kokkos::View<T*, Mem> parent(Kokkos::view_alloc(exec, "tilekit::tool::parent"), win.size);
  if (sub)
    support::with_rank(R, [&](auto rank) {
      fill_window<Exec, T, decltype(rank)::value>(exec, a.data(), parent.data(), ext, left, win);
    });
  T* const src = sub ? parent.data() : a.data();
  exec.fence();

  const auto selected = variant_selector(o.variant);
  auto host_out = Kokkos::create_mirror_view(Kokkos::HostSpace(), b);
  auto verify = [&](const std::vector<int>& perm) -> bool {
    if (!o.common.check) return true;
    exec.fence();
    Kokkos::deep_copy(host_out, b);
    const bool plain = o.alpha == 1 && o.beta == 0;
    return check_permuted(host_out.data(), ext, perm, left, [&](const T& v, index_t i) {
      const T x = static_cast<T>(pattern(i));
      return plain ? v == x : close_to(v, expected_store<T, T, false>(x, T(-7), o.alpha, o.beta));
    });
  };

  bool ok = true;
  double copy_gbps = 0;
  auto add_row = [&](const std::string& variant, const std::vector<int>& perm,
                     const report::Timing& t, bool verified, double naive_ms,
                     double row_bytes) -> report::Row& {
    report::Row row = permute_row(Exec::name(), ext, variant, type_name<T>(), perm, left, t,
                                  row_bytes, verified, copy_gbps, peak);
    if (naive_ms > 0) row.speedup = naive_ms / row.ms;
    rep.rows.push_back(row);
    return rep.rows.back();
  };
  // Runs one plan: poison, execute, check, time; adds its row.
  auto measure = [&](const std::string& name, const std::vector<int>& perm, const Variant& v,
                     double naive_ms) -> double {
    const SubWindow* w = sub ? &win : nullptr;
    const PlanRun run = support::with_rank(R, [&](auto rank) {
      return make_run<Exec, T, decltype(rank)::value>(exec, src, b.data(), ext, left, perm, v,
                                                      o.launch, o.alpha, o.beta, w);
    });
    Kokkos::deep_copy(exec, b, static_cast<T>(-7));
    run.execute();
    const bool good = verify(perm);
    ok = ok && good;
    auto t = report::time_median(exec, o.common.reps, run.execute);
    auto& row = add_row(sub ? name + "_sub_" + o.sub : name, perm, t, o.common.check && good,
                        naive_ms, kernel_bytes);
    if (sub) {
      row.extra["sub"] = o.sub;
      row.extra["in_strides"] = impl::join(win.strides, win.strides.size());
    }
    if (o.alpha != 1 || o.beta != 0) row.extra["alpha"] = o.alpha, row.extra["beta"] = o.beta;
    row.extra["method"] = run.method;
    if (v == Variant(PermuteVariant::fused)) row.extra["fused"] = run.fused;
    if (run.skew > 0) row.extra["skew"] = run.skew;
    if (!run.box.empty()) {
      row.extra["box"] = run.box;
      row.extra["threads"] = run.threads;
    }
    if (run.pack > 1 && o.alpha == 1 && o.beta == 0) row.extra["pack"] = run.pack;
    if (!good) row.extra["error"] = "WRONG RESULT";
    const double ms = row.ms;
    if (!o.transfers.empty())
      add_transfer_rows(exec, o.common, o.transfers, a, b, run.execute, row, copy_gbps, peak, rep);
    return ms;
  };

  // The baseline, always measured: every "% copy" refers to it. On a host
  // space it is the better of deep_copy and a parallel memcpy of the same bytes.
  {
    const auto t = report::time_copy(exec, o.common.reps, b, a, bytes);
    copy_gbps = t.gbps;
    std::vector<int> id(R);
    std::iota(id.begin(), id.end(), 0);
    if constexpr (report::host_copy_v<Exec>) {
      const auto m = report::time_memcpy(exec, o.common.reps, b.data(), a.data(),
                                         static_cast<std::int64_t>(a.size()), bytes);
      copy_gbps = std::max(copy_gbps, m.gbps);
      add_row("copy", id, t, false, 0, bytes);
      add_row("memcpy", id, m, false, 0, bytes);
    } else {
      add_row("copy", id, t, false, 0, bytes);
    }
  }
  if (R == 3 && !sub) {
    const std::vector<int> id = {0, 1, 2};
    using tilekit::study::Permute3Variant;
    if (selected("copy_simple")) measure("copy_simple", id, Permute3Variant::simple_templated, 0);
    if (selected("copy_shared")) measure("copy_shared", id, Permute3Variant::shared_templated, 0);
  }
  // The library's variants, then the seeds' rank-3 kernels (contiguous views
  // only); those after naive report their speedup over it.
  std::vector<Variant> variants(std::begin(permute_variants), std::end(permute_variants));
  if (R == 3 && !sub)
    for (auto v : tilekit::study::permute3_variants) variants.push_back(v);
  for (const auto& perm : permutations(o, R)) {
    double naive_ms = 0;
    for (const auto& v : variants) {
      const std::string name = std::visit([](auto x) { return std::string(to_string(x)); }, v);
      if (!selected(name)) continue;
      const bool naive = v == Variant(PermuteVariant::naive);
      const double ms = measure(name, perm, v, naive ? 0 : naive_ms);
      if (naive) naive_ms = ms;
    }
  }
  return ok;
}

}  // namespace tilekit::tool::permute_cmd
