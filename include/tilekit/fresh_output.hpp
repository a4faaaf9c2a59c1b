#pragma once
// New host outputs that the kernels can fill at the speed of reused ones.
//
// Fresh memory from the operating system is mapped page by page on its first
// write. A transpose writes its output in the transposed order: each host tile
// writes a short piece of a thousand output rows, so on fresh memory the kernel
// takes its page faults scattered over the whole output, from every thread,
// between its streamed stores; on a virtual machine each such fault costs far
// more than the same fault taken in a plain sequential pass
// (docs/python.md, "Fresh outputs", has the measurements). So a new output is
// prepared before the kernel runs: its 2 MiB-aligned interior is advised for
// transparent huge pages (Linux; fewer, larger faults where the system grants
// them), then every page is written once, in parallel, by the thread whose
// share of the output it lies in (a static partition of the pages, as the
// kernels' static schedules give thread k the k-th contiguous share of the
// output's rows).
#include <tilekit/backends/host_memory.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace tilekit {

/// Asks for huge pages on the 2 MiB-aligned part of [data, data + bytes)
/// before it is first written (Linux; nothing elsewhere):
/// backends/tilekit/backends/host_memory.hpp.
using backends::advise_huge_pages;

/// The page size first_touch writes at: 4 KiB, the smallest page of the
/// hosts tilekit runs on (a larger page is then written several times, which
/// costs a cache miss each, not a fault).
inline constexpr std::size_t first_touch_page = backends::host_base_page;

/// Maps fresh host memory [data, data + bytes) before a kernel writes it:
/// advises huge pages (advise_huge_pages), then writes a zero byte into every
/// page in a parallel_for on exec with a static schedule (thread k the k-th
/// contiguous share of the pages). The contents are unspecified afterwards,
/// as they were before: use it on outputs that will be overwritten, never on
/// data to keep. Requires an execution space that can access host memory.
template <class Exec>
void first_touch(const Exec& exec, void* data, std::size_t bytes) {
  static_assert(Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible,
                "tilekit::first_touch: the execution space must access host memory");
  if (bytes == 0) return;
  advise_huge_pages(data, bytes);
  auto* const base = static_cast<unsigned char*>(data);
  // Pages are counted from the page boundary at or below data; the first
  // write of each is its first byte inside [data, data + bytes).
  const auto start = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = start & ~std::uintptr_t(first_touch_page - 1);
  const auto pages =
      static_cast<std::int64_t>((start + bytes - first + first_touch_page - 1) / first_touch_page);
  Kokkos::parallel_for(
      "tilekit::first_touch",
      Kokkos::RangePolicy<Exec, Kokkos::Schedule<Kokkos::Static>, Kokkos::IndexType<std::int64_t>>(
          exec, 0, pages),
      KOKKOS_LAMBDA(const std::int64_t p) {
        const std::uintptr_t at = first + static_cast<std::uintptr_t>(p) * first_touch_page;
        base[(at > start ? at : start) - start] = 0;
      });
  exec.fence("tilekit::first_touch");
}

/// A new row-major View of `DataType` (e.g. float**) in Exec's memory space,
/// ready to be written at the speed of a reused one: allocated without
/// initialisation and, where Exec runs on the host, first_touch'ed. Its
/// elements are unspecified (as Kokkos::WithoutInitializing leaves them).
///   auto out = tilekit::new_output<float**>(exec, "out", n, m);
///   tilekit::TransposePlan plan(exec, in, out);
template <class DataType, class Exec, class... Extents>
Kokkos::View<DataType, Kokkos::LayoutRight, typename Exec::memory_space> new_output(
    const Exec& exec, const std::string& label, Extents... extents) {
  using View = Kokkos::View<DataType, Kokkos::LayoutRight, typename Exec::memory_space>;
  View v(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, label),
         static_cast<std::size_t>(extents)...);
  if constexpr (Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible)
    first_touch(exec, v.data(), v.span() * sizeof(typename View::value_type));
  return v;
}

}  // namespace tilekit
