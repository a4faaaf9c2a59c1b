#pragma once
// Throughput timing of device work, shared by the tool and the benchmarks.
//
// One call timed alone between two fences measures launch + synchronisation
// latency as much as the kernel (10+ us on a GPU, as long as a whole 2^22-float
// reduction), and a buffer that fits the cache is read from the cache, not from
// memory. So a sample here is a batch of back-to-back calls between two fences
// (enough to last min_sample_s and at least min_calls of them, unless that
// would exceed max_sample_s), each call reading the next of several input
// buffers whose total exceeds twice the largest cache (Rotation); the time per
// call is sample time / calls, and the median over samples is reported. The
// time of one call alone between fences (over the same rotation) is kept
// beside it as latency_ms: what a caller that waits for every result sees.
#include <Kokkos_Core.hpp>
#include <tilekit/hardware_info.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tilekit::report {

/// Bytes a rotation of buffers must reach: twice the largest cache the
/// hardware reports (a GPU's L2, a CPU's last level), or 128 MiB if none; at
/// most 512 MiB (a CPU may report a socket's whole L3, 384 MiB and more, of
/// which one core sees a slice).
inline double rotation_bytes(const HardwareInfo& hw) {
  constexpr double MiB = 1 << 20;
  const double cache = static_cast<double>(std::max(hw.l2_bytes, hw.l3_bytes));
  return cache > 0 ? std::min(2 * cache, 512 * MiB) : 128 * MiB;
}

/// Buffers of `bytes` each whose total reaches `total`: 1 when one buffer
/// already does (no rotation, no extra memory for large sizes); at most `most`
/// (below total / most bytes a buffer, calls are latency-bound anyway).
inline int rotation_count(double bytes, double total, int most = 1024) {
  if (bytes <= 0) return 1;
  return static_cast<int>(std::clamp(std::ceil(total / bytes), 1.0, static_cast<double>(most)));
}

/// `count` buffers of n elements of T in one allocation, each starting on a
/// 256-byte boundary (the alignment of a fresh View); buffer k % count is
/// returned by (k), so a running call number rotates through them.
template <class T, class Mem>
class Rotation {
 public:
  using view_type = Kokkos::View<T*, Mem, Kokkos::MemoryUnmanaged>;

  Rotation() = default;
  template <class Exec>
  Rotation(const Exec& exec, const std::string& label, std::int64_t n, int count)
      : n_(n),
        stride_((n + kAlign - 1) / kAlign * kAlign),
        count_(std::max(count, 1)),
        arena_(Kokkos::view_alloc(exec, label), stride_ * count_) {}

  view_type operator()(std::int64_t k) const {
    return view_type(arena_.data() + (k % count_) * stride_, n_);
  }
  int count() const { return count_; }
  std::int64_t size() const { return n_; }

 private:
  static constexpr std::int64_t kAlign = sizeof(T) >= 256 ? 1 : 256 / sizeof(T);
  std::int64_t n_ = 0, stride_ = 0;
  int count_ = 1;
  Kokkos::View<T*, Mem> arena_;
};

struct ThroughputOptions {
  int samples = 10;            ///< samples whose median is reported
  double min_sample_s = 1e-3;  ///< a sample lasts at least this long ...
  int min_calls = 32;          ///< ... and has at least this many calls,
  double max_sample_s = 0.05;  ///< unless they would last longer than this
  bool latency = true;         ///< also time single calls (latency_ms)
};

struct Throughput {
  double ms = 0;          ///< median over samples of sample time / calls
  double min_ms = 0;      ///< fastest sample, per call
  double latency_ms = 0;  ///< median time of one call alone between fences
  int calls = 0;          ///< calls per sample
  int samples = 0;
};

inline double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t k = v.size();
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

/// Times fn(k), k = 0, 1, 2, ... the running call number (use it to pick the
/// input: rotation(k)), as described at the top of this file. The batch size
/// is calibrated first by doubling a batch until it lasts min_sample_s / 4.
template <class Exec, class Fn>
Throughput time_throughput(const Exec& exec, Fn&& fn, const ThroughputOptions& o = {}) {
  constexpr long kMostCalls = 1L << 16;
  std::int64_t k = 0;
  Kokkos::Timer timer;
  auto batch = [&](long calls) {
    exec.fence();
    timer.reset();
    for (long i = 0; i < calls; ++i) fn(k++);
    exec.fence();
    return timer.seconds();
  };
  batch(1);  // warm-up: first launch, lazy initialisations
  long b = 1;
  double tb = batch(1);
  while (tb < o.min_sample_s / 4 && b < kMostCalls) {
    b *= 2;
    tb = batch(b);
  }
  const double per = std::max(tb / static_cast<double>(b), 1e-9);
  const long by_time = static_cast<long>(std::ceil(o.min_sample_s / per));
  const long by_count =
      std::min<long>(o.min_calls, static_cast<long>(std::floor(o.max_sample_s / per)));
  const long calls = std::clamp(std::max(by_time, by_count), 1L, kMostCalls);

  Throughput t;
  t.calls = static_cast<int>(calls);
  t.samples = std::max(o.samples, 1);
  std::vector<double> ms, one;
  for (int s = 0; s < t.samples; ++s)
    ms.push_back(batch(calls) * 1e3 / static_cast<double>(calls));
  if (o.latency && calls > 1) {
    for (int s = 0; s < t.samples; ++s) one.push_back(batch(1) * 1e3);
  }
  t.ms = median_of(ms);
  t.min_ms = *std::min_element(ms.begin(), ms.end());
  t.latency_ms = calls > 1 ? median_of(one) : t.ms;
  return t;
}

}  // namespace tilekit::report
