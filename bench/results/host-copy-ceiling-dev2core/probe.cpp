// 2-core ceiling probe: parallel memcpy, a Kokkos copy kernel (plain stores) and a
// Kokkos copy kernel with streaming stores (backends::stream_copy), same bytes, median of 10.
#include <tilekit/backends/stream_store.hpp>
#include <Kokkos_Core.hpp>
#include <omp.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
using clk = std::chrono::steady_clock;
template <class F> double med(F f, double bytes) {
  f(); std::vector<double> t;
  for (int r = 0; r < 10; ++r) { auto t0 = clk::now(); f(); t.push_back(std::chrono::duration<double>(clk::now() - t0).count()); }
  std::sort(t.begin(), t.end()); return bytes / t[5] / 1e9;
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  for (long mib : {256L, 1024L}) {
    const long n = mib << 18;  // floats
    Kokkos::View<float*, Kokkos::HostSpace> a("a", n), b("b", n);
    Kokkos::deep_copy(a, 1.f);
    const int parts = Kokkos::OpenMP().concurrency();
    float* pa = a.data(); float* pb = b.data();
    const double bytes = 2.0 * n * 4;
    double mc = med([&] { Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::OpenMP>(0, parts), [=](int p) {
      long lo = n * p / parts, hi = n * (p + 1) / parts; std::memcpy(pb + lo, pa + lo, (hi - lo) * 4); }); Kokkos::fence(); }, bytes);
    double ck = med([&] { Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::OpenMP>(0, n), [=](long i) { pb[i] = pa[i]; }); Kokkos::fence(); }, bytes);
    double st = med([&] { Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::OpenMP>(0, parts), [=](int p) {
      long lo = n * p / parts / 16 * 16, hi = p == parts - 1 ? n : n * (p + 1) / parts / 16 * 16;
      const long step = 1024;  // 4 KiB runs
      for (long i = lo; i < hi; i += step) tilekit::backends::stream_copy(pb + i, pa + i, std::min(step, hi - i) * 4);
      tilekit::backends::stream_store_fence(); }); Kokkos::fence(); }, bytes);
    printf("%ld MiB: memcpy %.1f GB/s, copy kernel %.1f (%.1f%%), streamed copy kernel %.1f (%.1f%%)\n", mib, mc, ck, 100 * ck / mc, st, 100 * st / mc);
  }
}
