// The sweep's harness (not built by the project): the blocked CMM against cuBLAS
// (B regrouped, then two GEMMs) in one process, T = float or -DXT=double. Each
// candidate shape was compiled in as Traits<Cuda>::cmm_shape's default (a copy of
// the headers), one binary per candidate: nvcc -std=c++20 -arch=sm_90, linked with
// Kokkos (CUDA) and cuBLAS. Prints ms, TFLOP/s and % of cuBLAS per round.
#include <tilekit/cmm.hpp>
#include <cublas_v2.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <chrono>
#ifndef XT
#define XT float
#endif
using T = XT;

using V = Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::CudaSpace>;
static void fill(const V& v, long salt) {
  T* p = v.data();
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<long>>(0, (long)v.size()),
                       KOKKOS_LAMBDA(long k) { p[k] = (T)((int)(((k + salt) * 2654435761LL) % 1048573LL % 9) - 4); });
}
template <class F> double time_ms(F f, int reps) {
  for (int i = 0; i < 3; ++i) f();
  Kokkos::fence();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) f();
  Kokkos::fence();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / reps;
}
static void gemm(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k, const float* al, const float* A, int la, const float* B, int lb, const float* be, float* C, int lc) { cublasSgemm(h, a, b, m, n, k, al, A, la, B, lb, be, C, lc); }
static void gemm(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k, const double* al, const double* A, int la, const double* B, int lb, const double* be, double* C, int lc) { cublasDgemm(h, a, b, m, n, k, al, A, la, B, lb, be, C, lc); }
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  const char* tag = argc > 1 ? argv[1] : "x";
  for (long n : {4096L, 8192L, 4000L}) {
    V a("a", n, n), b("b", n, n), c("c", n / 2, n), c2("c2", n / 2, n);
    Kokkos::View<T*, Kokkos::CudaSpace> gv("g", n * n);
    fill(a, 0); fill(b, n * n);
    Kokkos::Cuda exec;
    tilekit::CmmPlan plan(exec, a, b, c);
    cublasHandle_t h; cublasCreate(&h); cublasSetStream(h, exec.cuda_stream());
    cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
    auto ref = [&] {
      const long nn = n, half = n / 2; T* pg = gv.data(); const T* pb = b.data();
      Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<long>>(exec, 0, nn * nn),
        KOKKOS_LAMBDA(long w) { long s = w / (nn * half), rem = w - s * nn * half, k = rem / half, j = rem - k * half;
          pg[w] = pb[(k ^ 1) * nn + 2 * j + ((k ^ s ^ 1) & 1)]; });
      const T one = 1, zero = 0; const int hh = n / 2, ni = n;
      for (int s = 0; s < 2; ++s)
        gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, hh, hh, ni, &one, pg + s * n * (n / 2), hh, a.data() + s * n, 2 * ni, &zero, c2.data() + s * hh, ni);
    };
    auto mine = [&] { plan.execute(a, b, c); };
    mine(); ref(); Kokkos::fence();
    long bad = 0; const T* x = c.data(); const T* y = c2.data();
    Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<long>>(0, (long)c.size()),
      KOKKOS_LAMBDA(long k, long& acc) { acc += x[k] != y[k]; }, bad);
    const int reps = n >= 8192 ? 10 : 30;
    const double fl = (double)n * n * n;
    for (int round = 0; round < 3; ++round) {
      double tm = time_ms(mine, reps), tr = time_ms(ref, reps);
      std::printf("%s n=%ld round=%d mine %.3f ms %.2f TF  cublas %.3f ms %.2f TF  ratio %.1f%%  bad=%ld\n", tag, n, round,
                  tm, fl / tm / 1e9, tr, fl / tr / 1e9, 100.0 * tr / tm, bad);
    }
    cublasDestroy(h);
  }
}
