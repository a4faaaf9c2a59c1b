#pragma once
// Timing of device work: warm up, then time each repetition between fences on
// the execution space instance and take the median.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

namespace tilekit::report {

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  int reps = 0;
};

template <class Exec, class Fn>
Timing time_median(const Exec& exec, int reps, Fn&& fn, int warmup = 2) {
  for (int i = 0; i < warmup; ++i) fn();
  exec.fence();
  std::vector<double> ms;
  ms.reserve(static_cast<std::size_t>(reps));
  Kokkos::Timer timer;
  for (int r = 0; r < std::max(reps, 1); ++r) {
    timer.reset();
    fn();
    exec.fence();
    ms.push_back(timer.seconds() * 1e3);
  }
  std::sort(ms.begin(), ms.end());
  const std::size_t k = ms.size();
  Timing t;
  t.median_ms = k % 2 ? ms[k / 2] : 0.5 * (ms[k / 2 - 1] + ms[k / 2]);
  t.min_ms = ms.front();
  t.reps = static_cast<int>(k);
  return t;
}

/// The copy baseline every "% copy" refers to: deep_copy(dst, src) timed as
/// above, with its bandwidth over `bytes` (bytes read plus bytes written).
struct CopyTiming : Timing {
  double gbps = 0;
};

template <class Exec, class Dst, class Src>
CopyTiming time_copy(const Exec& exec, int reps, const Dst& dst, const Src& src, double bytes) {
  CopyTiming c;
  static_cast<Timing&>(c) = time_median(exec, reps, [&] { Kokkos::deep_copy(exec, dst, src); });
  c.gbps = c.median_ms > 0 ? bytes / (c.median_ms * 1e-3) / 1e9 : 0;
  return c;
}

/// Whether the memcpy baseline applies: the space runs on the host.
template <class Exec>
constexpr bool host_copy_v = std::is_same_v<typename Exec::memory_space, Kokkos::HostSpace>;

/// The host's best copy of the same bytes: std::memcpy, each of exec's
/// threads copying its contiguous share of `count` elements (one share on
/// Serial). Host spaces only.
template <class Exec, class T>
CopyTiming time_memcpy(const Exec& exec, int reps, T* dst, const T* src, std::int64_t count,
                       double bytes) {
  const int parts = exec.concurrency();
  auto body = [=](const int p) {
    const std::int64_t lo = count * p / parts, hi = count * (p + 1) / parts;
    std::memcpy(dst + lo, src + lo, static_cast<std::size_t>(hi - lo) * sizeof(T));
  };
  CopyTiming c;
  static_cast<Timing&>(c) = time_median(exec, reps, [&] {
    Kokkos::parallel_for("tilekit::memcpy", Kokkos::RangePolicy<Exec>(exec, 0, parts), body);
  });
  c.gbps = c.median_ms > 0 ? bytes / (c.median_ms * 1e-3) / 1e9 : 0;
  return c;
}

}  // namespace tilekit::report
