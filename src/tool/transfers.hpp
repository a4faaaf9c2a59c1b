#pragma once
// Rows that include the host <-> device transfers around a kernel (seed 003
// reports its speedups with and without them; seed 001 compares pageable and
// pinned host memory): the input is copied from host memory to the space, the
// kernel runs, the output is copied back, all between fences. A space that
// computes in host memory moves nothing, so it gets no such rows.
#include <Kokkos_Core.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "measure_common.hpp"
#include "timing.hpp"

namespace tilekit::tool {

template <class Exec>
constexpr bool moves_data_v =
    !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible;

/// The kinds of host memory in a --transfers list ("pageable", "pinned").
/// Throws std::invalid_argument for another word, in the form of the tool's
/// option errors ("--transfers: ..."); each family's measurement checks the
/// list first (begin_report, common.hpp), before any row.
inline std::vector<std::string> transfer_kinds(const std::string& which) {
  auto kinds = split_list(which == "all" ? "pageable,pinned" : which);
  for (const auto& k : kinds)
    if (k != "pageable" && k != "pinned")
      throw std::invalid_argument("--transfers: unknown host memory '" + k + "'");
  return kinds;
}

/// After the kernel row `kernel` (already in rep), one row per kind of host
/// memory: ms = host-to-device copy of `in` + fn() + device-to-host copy of
/// `out`, with each copy's own median beside it. Bandwidth and % of copy are
/// over the kernel's bytes, so they show what the transfers cost.
template <class Exec, class In, class Out, class Fn>
void add_transfer_rows(const Exec& exec, const CommonOptions& o, const std::string& which,
                       const In& in, const Out& out, Fn&& fn, report::Row kernel,
                       double copy_gbps, double peak, report::Report& rep) {
  if constexpr (moves_data_v<Exec>) {
    for (const auto& kind : transfer_kinds(which)) {
      auto rows = [&](auto host_space) {
        using HostMem = decltype(host_space);
        const auto no_init = Kokkos::WithoutInitializing;
        auto hin = Kokkos::create_mirror(Kokkos::view_alloc(HostMem{}, no_init), in);
        auto hout = Kokkos::create_mirror(Kokkos::view_alloc(HostMem{}, no_init), out);
        Kokkos::deep_copy(exec, hin, in);
        auto h2d = report::time_median(exec, o.reps, [&] { Kokkos::deep_copy(exec, in, hin); });
        auto d2h = report::time_median(exec, o.reps, [&] { Kokkos::deep_copy(exec, hout, out); });
        auto all = report::time_median(exec, o.reps, [&] {
          Kokkos::deep_copy(exec, in, hin);
          fn();
          Kokkos::deep_copy(exec, hout, out);
        });
        report::Row row = kernel;
        row.ms = all.median_ms;
        row.speedup = 0;
        report::finish_row(row, copy_gbps, peak);
        row.extra["transfers"] = kind;
        row.extra["kernel_ms"] = kernel.ms;
        row.extra["h2d_ms"] = h2d.median_ms;
        row.extra["d2h_ms"] = d2h.median_ms;
        rep.rows.push_back(row);
      };
      if (kind == "pageable") rows(Kokkos::HostSpace());
      else if (Kokkos::has_shared_host_pinned_space) rows(Kokkos::SharedHostPinnedSpace());
    }
  } else {
    (void)exec, (void)o, (void)which, (void)in, (void)out, (void)fn, (void)kernel,
        (void)copy_gbps, (void)peak, (void)rep;
  }
}

}  // namespace tilekit::tool
