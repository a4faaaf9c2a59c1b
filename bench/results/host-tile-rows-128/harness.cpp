// A/B of host tile shapes on input rows a power of two apart: tiled transpose
// and permute against a parallel memcpy of the same bytes, median of reps.
#include <tilekit/transpose.hpp>
#include <tilekit/permute.hpp>
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
static double memcpy_gbs(const void* a, void* b, size_t total, int reps) {
  return med([&] {
#pragma omp parallel
    { int t = omp_get_thread_num(), nt = omp_get_num_threads(); size_t lo = total / nt * t, hi = t == nt - 1 ? total : total / nt * (t + 1);
      std::memcpy((char*)b + lo, (const char*)a + lo, hi - lo); }
  }, reps, 2.0 * total);
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  const char* tag = argv[1];
  const int reps = 10;
  Kokkos::OpenMP ex;
  // 2-D: m x n
  for (int i = 2; i < argc; ++i) {
    long a0, a1, a2 = 0; int p0 = -1, p1 = -1, p2 = -1;
    if (!std::strchr(argv[i], ':')) {
      if (sscanf(argv[i], "%ldx%ld", &a0, &a1) != 2) continue;
      using V = Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace>;
      long m = a0, n = a1;
      V a(Kokkos::view_alloc("a", Kokkos::WithoutInitializing), m, n), b(Kokkos::view_alloc("b", Kokkos::WithoutInitializing), n, m);
      Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::OpenMP>(0, m), KOKKOS_LAMBDA(long r) { for (long c = 0; c < n; ++c) a(r, c) = float(r * n + c); });
      Kokkos::deep_copy(b, 0.f);
      const size_t total = size_t(m) * n * 4;
      double mc = memcpy_gbs(a.data(), b.data(), total, reps);
      double tt = med([&] { tilekit::transpose(ex, a, b, tilekit::TransposeVariant::tiled); ex.fence(); }, reps, 2.0 * total);
      long bad = 0;
      for (long r = 0; r < m; r += 7) for (long c = 0; c < n; c += 5) bad += b(c, r) != a(r, c);
      printf("%s %s memcpy %.1f kernel %.1f GB/s = %.1f%% %s\n", tag, argv[i], mc, tt, 100 * tt / mc, bad ? "WRONG" : "ok");
    } else {
      if (sscanf(argv[i], "%ldx%ldx%ld:%1d%1d%1d", &a0, &a1, &a2, &p0, &p1, &p2) != 6) continue;
      using V = Kokkos::View<float***, Kokkos::LayoutRight, Kokkos::HostSpace>;
      long e[3] = {a0, a1, a2}; int p[3] = {p0, p1, p2};
      V a(Kokkos::view_alloc("a", Kokkos::WithoutInitializing), a0, a1, a2), b(Kokkos::view_alloc("b", Kokkos::WithoutInitializing), e[p[0]], e[p[1]], e[p[2]]);
      Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::OpenMP>(0, a0), KOKKOS_LAMBDA(long x) { for (long y = 0; y < a1; ++y) for (long z = 0; z < a2; ++z) a(x, y, z) = float((x * a1 + y) * a2 + z); });
      Kokkos::deep_copy(b, 0.f);
      const size_t total = size_t(a0) * a1 * a2 * 4;
      double mc = memcpy_gbs(a.data(), b.data(), total, reps);
      std::vector<int> perm{p0, p1, p2};
      double tt = med([&] { tilekit::permute(ex, a, b, perm); ex.fence(); }, reps, 2.0 * total);
      long bad = 0;
      for (long x = 0; x < a0; x += 7) for (long y = 0; y < a1; y += 5) for (long z = 0; z < a2; z += 3) {
        long i[3] = {x, y, z};
        bad += b(i[p[0]], i[p[1]], i[p[2]]) != a(x, y, z);
      }
      printf("%s %s memcpy %.1f kernel %.1f GB/s = %.1f%% %s\n", tag, argv[i], mc, tt, 100 * tt / mc, bad ? "WRONG" : "ok");
    }
    fflush(stdout);
  }
}
