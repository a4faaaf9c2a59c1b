// m x n float transposes (tiled), memcpy and deep_copy in the same run; A/B of put_run.
#include <tilekit/transpose.hpp>
#include <Kokkos_Core.hpp>
#include <omp.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
using clk = std::chrono::steady_clock;
template <class F> double med(F f, int reps, double bytes) {
  f();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) { auto t0 = clk::now(); f(); t.push_back(std::chrono::duration<double>(clk::now() - t0).count()); }
  std::sort(t.begin(), t.end());
  return bytes / t[t.size() / 2] / 1e9;
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  const char* tag = argv[1];
  for (int i = 2; i + 1 < argc; i += 2) {
    long m = atol(argv[i]), n = atol(argv[i + 1]);
    using V = Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace>;
    Kokkos::OpenMP ex;
    V a(Kokkos::view_alloc("a", Kokkos::WithoutInitializing), m, n), b(Kokkos::view_alloc("b", Kokkos::WithoutInitializing), n, m);
    Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::OpenMP>(0, m), KOKKOS_LAMBDA(long r) { for (long c = 0; c < n; ++c) a(r, c) = float(r * n + c); });
    Kokkos::deep_copy(b, 0.f);
    const double bytes = 2.0 * m * n * 4; const size_t total = size_t(m) * n * 4;
    double mc = med([&] {
#pragma omp parallel
      { int t = omp_get_thread_num(), nt = omp_get_num_threads(); size_t lo = total / nt * t, hi = t == nt - 1 ? total : total / nt * (t + 1);
        std::memcpy((char*)b.data() + lo, (const char*)a.data() + lo, hi - lo); }
    }, 10, bytes);
    double tt = med([&] { tilekit::transpose(ex, a, b, tilekit::TransposeVariant::tiled); ex.fence(); }, 10, bytes);
    long bad = 0;
    for (long r = 0; r < m; r += 7) for (long c = 0; c < n; c += 5) bad += b(c, r) != a(r, c);
    printf("%s %ld x %ld memcpy %.1f tiled %.1f GB/s = %.1f%% %s\n", tag, m, n, mc, tt, 100 * tt / mc, bad ? "WRONG" : "ok");
  }
}
