// Checkered matrix multiplication (seed 001): the deep_copy baseline of the
// same bytes (2.5 N^2 elements), every variant, and in CUDA builds the cuBLAS
// reference - B regrouped into the two N x N/2 matrices G_s[k][j] =
// B[k ^ 1][2j + ((k ^ s ^ 1) & 1)] that the even (s = 0) and odd (s = 1) rows
// of A multiply, then one GEMM per half of C (`cublas` includes the regrouping,
// `cublas_gemm` is the two GEMMs alone). Counters: GB/s of the compulsory
// traffic, % of the copy, GFLOP/s (N^3 flops per product).
//   bench_cmm --benchmark_filter='/Cuda/float/4096/' --benchmark_out=cmm.json --benchmark_out_format=json
#include <tilekit/cmm.hpp>

#include <memory>
#include <type_traits>

#include "bench_common.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cublas_v2.h>
#endif

namespace {
using namespace tilekit;

/// Small integers: every product is exact, so variants can be compared exactly.
template <class Exec, class View>
void fill_small(const View& v, std::int64_t salt) {
  using T = typename View::value_type;
  T* p = v.data();
  Kokkos::parallel_for(
      "bench_cmm::fill",
      Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(0, static_cast<std::int64_t>(v.size())),
      KOKKOS_LAMBDA(const std::int64_t k) {
        p[k] = static_cast<T>(static_cast<int>(((k + salt) * 2654435761LL) % 1048573LL % 9) - 4);
      });
  Kokkos::fence();
}

template <class Exec, class T>
struct Buffers {
  using Mem = typename Exec::memory_space;
  Kokkos::View<T**, Kokkos::LayoutRight, Mem> a, b, c;
  Kokkos::View<T*, Mem> src, dst;  // the copy baseline: 2.5 N^2 elements' bytes moved
  explicit Buffers(std::int64_t n)
      : a("a", n, n), b("b", n, n), c("c", n / 2, n), src("src", n * n * 5 / 4),
        dst("dst", n * n * 5 / 4) {
    fill_small<Exec>(a, 0);
    fill_small<Exec>(b, n * n);
  }
};

#if defined(KOKKOS_ENABLE_CUDA)
/// cuBLAS reference: the regrouped B and a handle on the execution space's stream.
template <class T>
struct Cublas {
  cublasHandle_t handle{};
  Kokkos::View<T*, Kokkos::CudaSpace> g;  // G_0 then G_1, each N rows x N/2, row-major
  std::int64_t n;

  Cublas(const Kokkos::Cuda& exec, std::int64_t n_) : g("g", n_ * n_), n(n_) {
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate");
    cublasSetStream(handle, exec.cuda_stream());
    cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);  // FP32/FP64 arithmetic, no TF32
  }
  ~Cublas() { cublasDestroy(handle); }
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;

  template <class View>
  void regroup(const Kokkos::Cuda& exec, const View& b) const {
    const std::int64_t nn = n, half = n / 2;
    T* pg = g.data();
    const T* pb = b.data();
    Kokkos::parallel_for(
        "bench_cmm::cublas_regroup",
        Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::int64_t>>(exec, 0, nn * nn),
        KOKKOS_LAMBDA(const std::int64_t w) {
          const std::int64_t s = w / (nn * half), rem = w - s * nn * half;
          const std::int64_t k = rem / half, j = rem - k * half;
          pg[w] = pb[(k ^ 1) * nn + 2 * j + ((k ^ s ^ 1) & 1)];
        });
  }
  // C[r][j + s N/2] = sum_k G_s[k][j] A[2r + s][k]: column-major, C_s^T = G_s^T A_s^T
  // with A_s the rows of parity s (leading dimension 2N) and C_s a half of C (N).
  template <class AV, class CV>
  void gemms(const AV& a, const CV& c) const {
    const int h = static_cast<int>(n / 2), nn = static_cast<int>(n);
    const T one = 1, zero = 0;
    for (int s = 0; s < 2; ++s) {
      const T* gs = g.data() + static_cast<std::int64_t>(s) * n * (n / 2);
      cublasStatus_t st;
      if constexpr (std::is_same_v<T, float>)
        st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, h, h, nn, &one, gs, h, a.data() + s * n,
                         2 * nn, &zero, c.data() + s * h, nn);
      else
        st = cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, h, h, nn, &one, gs, h, a.data() + s * n,
                         2 * nn, &zero, c.data() + s * h, nn);
      if (st != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublas gemm failed");
    }
  }
};

/// Number of elements where x and y differ.
template <class View>
std::int64_t mismatches(const Kokkos::Cuda& exec, const View& x, const View& y) {
  const auto* px = x.data();
  const auto* py = y.data();
  std::int64_t bad = 0;
  Kokkos::parallel_reduce(
      "bench_cmm::compare",
      Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::int64_t>>(
          exec, 0, static_cast<std::int64_t>(x.size())),
      KOKKOS_LAMBDA(const std::int64_t k, std::int64_t& acc) { acc += px[k] != py[k]; }, bad);
  return bad;
}
#endif

template <class Exec, class T>
void register_size(const char* dtype, std::int64_t n, bool with_slow) {
  const double bytes = 2.5 * static_cast<double>(n) * n * sizeof(T);
  const double flops = static_cast<double>(n) * n * n;
  const std::string suffix =
      std::string("/") + Exec::name() + "/" + dtype + "/" + std::to_string(n);
  auto buf = bench::buffer_slot<Buffers<Exec, T>>();
  auto get = [buf, n]() -> Buffers<Exec, T>& {
    if (!*buf) *buf = std::make_unique<Buffers<Exec, T>>(n);
    return **buf;
  };
  auto add_gflops = [flops, bytes](benchmark::State& s) {
    s.counters["GFLOP/s"] = s.counters["GB/s"].value * flops / bytes;
  };
  bench::add("copy" + suffix, [=](benchmark::State& s) {
    auto& B = get();
    Exec exec;
    bench::timed(s, exec, bytes, dtype, true, [&] { Kokkos::deep_copy(exec, B.dst, B.src); });
  });
  for (auto v : {CmmVariant::naive, CmmVariant::tiled, CmmVariant::blocked}) {
    if (v != CmmVariant::blocked && !with_slow) continue;
    bench::add(std::string(to_string(v)) + suffix, [=](benchmark::State& s) {
      auto& B = get();
      Exec exec;
      CmmPlan plan(exec, B.a, B.b, B.c, v);
      bench::timed(s, exec, bytes, dtype, false, [&] { plan.execute(B.a, B.b, B.c); });
      add_gflops(s);
    });
  }
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
    for (bool with_regroup : {true, false}) {
      bench::add(std::string(with_regroup ? "cublas" : "cublas_gemm") + suffix,
                 [=](benchmark::State& s) {
                   auto& B = get();
                   Exec exec;
                   Cublas<T> ref(exec, n);
                   // The reference must agree with the blocked kernel (exact data).
                   Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::CudaSpace> check("check", n / 2, n);
                   checkered_matmul(exec, B.a, B.b, check);
                   ref.regroup(exec, B.b);
                   ref.gemms(B.a, B.c);
                   if (mismatches(exec, B.c, check) != 0) {
                     s.SkipWithError("cuBLAS reference disagrees with the blocked kernel");
                     return;
                   }
                   bench::timed(s, exec, bytes, dtype, false, [&] {
                     if (with_regroup) ref.regroup(exec, B.b);
                     ref.gemms(B.a, B.c);
                   });
                   add_gflops(s);
                 });
    }
  }
#endif
  bench::add_release("release" + suffix, buf);
}

template <class Exec>
void register_space(const Exec&) {
  // The naive and tiled kernels take minutes per product at large N on a CPU.
  const int max_log2 = bench::is_gpu_v<Exec> ? 13 : 11;
  const int slow_log2 = bench::is_gpu_v<Exec> ? 13 : 10;
  for (int k = 8; k <= max_log2; ++k) {
    register_size<Exec, float>("float", std::int64_t{1} << k, k <= slow_log2);
    register_size<Exec, double>("double", std::int64_t{1} << k, k <= slow_log2);
  }
  // Even N that are not multiples of the tile (issue #17: within 10% of the
  // powers of two): the last tiles of each row and column are shifted back.
  const std::int64_t awkward[] = {bench::is_gpu_v<Exec> ? 4000 : 1000,
                                  bench::is_gpu_v<Exec> ? 6002 : 2002,
                                  bench::is_gpu_v<Exec> ? 8002 : 1998};
  for (const std::int64_t n : awkward) {
    register_size<Exec, float>("float", n, false);
    register_size<Exec, double>("double", n, false);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return tilekit::bench::run(argc, argv, [] {
    tilekit::bench::for_bench_spaces([](auto exec) { register_space(exec); });
  });
}
