// Transpose family: the copy baseline, the Kokkos copy kernel and every
// variant at n x n, n = 2^6 .. 2^14 (2^15 on a GPU), float and double; on the
// host's parallel space also a parallel memcpy of the same bytes and, where
// OpenBLAS is installed, its out-of-place transpose (cblas_somatcopy /
// cblas_domatcopy, row-major, threads as OpenBLAS sets them); tiled_padded
// into a new output per call (tiled_padded_new_view, _new_output).
//   bench_transpose --benchmark_out=transpose.json --benchmark_out_format=json
#include <tilekit/fresh_output.hpp>
#include <tilekit/study/transpose_naive.hpp>
#include <tilekit/transpose.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <type_traits>

#include "bench_common.hpp"

#if defined(TILEKIT_BENCH_OPENBLAS)
#include <cblas.h>
#endif

namespace {
using namespace tilekit;

template <class Exec, class T>
struct Buffers {
  using Mem = typename Exec::memory_space;
  Kokkos::View<T*, Mem> a, b;
  Kokkos::View<T**, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged> in, out;
  explicit Buffers(std::int64_t n)
      : a("a", n * n), b("b", n * n), in(a.data(), n, n), out(b.data(), n, n) {
    Kokkos::deep_copy(a, T(1));
  }
};

template <class Exec, class T>
void register_size(const char* dtype, std::int64_t n) {
  const double bytes = 2.0 * n * n * sizeof(T);
  const std::string suffix = std::string("/") + Exec::name() + "/" + dtype + "/" +
                             std::to_string(n);
  // One allocation per (space, type, size), shared by its benchmarks.
  auto buf = bench::buffer_slot<Buffers<Exec, T>>();
  auto get = [buf, n]() -> Buffers<Exec, T>& {
    if (!*buf) *buf = std::make_unique<Buffers<Exec, T>>(n);
    return **buf;
  };
  bench::add("copy" + suffix, [=](benchmark::State& s) {
    auto& B = get();
    Exec exec;
    bench::timed(s, exec, bytes, dtype, true, [&] { Kokkos::deep_copy(exec, B.b, B.a); });
  });
  bench::add("copy_kernel" + suffix, [=](benchmark::State& s) {
    auto& B = get();
    Exec exec;
    impl::CopyKernel<T> f{B.a.data(), B.b.data()};
    bench::timed(s, exec, bytes, dtype, false, [&] {
      Kokkos::parallel_for("tilekit::copy_kernel",
                           Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, n * n),
                           f);
    });
  });
  if constexpr (std::is_same_v<Exec, Kokkos::DefaultHostExecutionSpace>) {
    // The host's best copy: each thread memcpy's its contiguous share.
    bench::add("memcpy" + suffix, [=](benchmark::State& s) {
      auto& B = get();
      Exec exec;
      const int parts = exec.concurrency();
      const T* src = B.a.data();
      T* dst = B.b.data();
      bench::timed(s, exec, bytes, dtype, false, [&] {
        Kokkos::parallel_for("tilekit::memcpy", Kokkos::RangePolicy<Exec>(exec, 0, parts),
                             [=](const int p) {
                               const std::int64_t lo = n * n * p / parts, hi = n * n * (p + 1) / parts;
                               std::memcpy(dst + lo, src + lo, (hi - lo) * sizeof(T));
                             });
      });
    });
    // The tiles' own ceiling: the same bytes copied tile by tile (64 x 64, the
    // host transpose's tile, rows of tiles split over the threads) without
    // transposing. On a CPU whose memcpy streams far faster than any blocked
    // access, this row, not memcpy, bounds every kernel that visits a matrix
    // in tiles (docs/performance.md, "The CPU").
    bench::add("tile_copy" + suffix, [=](benchmark::State& s) {
      auto& B = get();
      Exec exec;
      constexpr std::int64_t t = 64;
      const std::int64_t tiles = (n + t - 1) / t;
      const T* src = B.a.data();
      T* dst = B.b.data();
      bench::timed(s, exec, bytes, dtype, false, [&] {
        Kokkos::parallel_for(
            "tilekit::tile_copy", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, tiles * tiles),
            [=](const std::int64_t k) {
              const std::int64_t i0 = k / tiles * t, j0 = k % tiles * t;
              const std::int64_t i1 = std::min(n, i0 + t), w = std::min(n, j0 + t) - j0;
              for (std::int64_t i = i0; i < i1; ++i)
                std::memcpy(dst + i * n + j0, src + i * n + j0, w * sizeof(T));
            });
      });
    });
#if defined(TILEKIT_BENCH_OPENBLAS)
    bench::add("openblas_omatcopy" + suffix, [=](benchmark::State& s) {
      auto& B = get();
      Exec exec;
      const int m = static_cast<int>(n);
      bench::timed(s, exec, bytes, dtype, false, [&] {
        if constexpr (std::is_same_v<T, float>)
          cblas_somatcopy(CblasRowMajor, CblasTrans, m, m, 1.0f, B.a.data(), m, B.b.data(), m);
        else
          cblas_domatcopy(CblasRowMajor, CblasTrans, m, m, 1.0, B.a.data(), m, B.b.data(), m);
      });
    });
#endif
  }
  bench::add("naive" + suffix, [=](benchmark::State& s) {  // seed 002 (tilekit::study)
    auto& B = get();
    Exec exec;
    study::NaiveTransposePlan plan(exec, B.in, B.out);
    bench::timed(s, exec, bytes, dtype, false, [&] { plan.execute(B.in, B.out); });
  });
  for (auto v : {TransposeVariant::tiled, TransposeVariant::tiled_padded}) {
    bench::add(std::string(to_string(v)) + suffix, [=](benchmark::State& s) {
      auto& B = get();
      Exec exec;
      TransposePlan plan(exec, B.in, B.out, v);
      bench::timed(s, exec, bytes, dtype, false, [&] { plan.execute(B.in, B.out); });
    });
  }
  // Fresh outputs: the same plan into a new View each call (allocated,
  // written, freed inside the timing), as Kokkos::View(WithoutInitializing)
  // gives it and as tilekit::new_output prepares it (first-touched in parallel,
  // huge pages advised): what a caller that does not reuse its output pays.
  using OutView = Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::memory_space>;
  bench::add("tiled_padded_new_view" + suffix, [=](benchmark::State& s) {
    auto& B = get();
    Exec exec;
    TransposePlan plan(exec, B.in, B.out, TransposeVariant::tiled_padded);
    bench::timed(s, exec, bytes, dtype, false, [&] {
      OutView o(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "fresh"), n, n);
      plan.execute(B.in, o);
      exec.fence();
    });
  });
  bench::add("tiled_padded_new_output" + suffix, [=](benchmark::State& s) {
    auto& B = get();
    Exec exec;
    TransposePlan plan(exec, B.in, B.out, TransposeVariant::tiled_padded);
    bench::timed(s, exec, bytes, dtype, false, [&] {
      auto o = new_output<T**>(exec, "fresh", n, n);
      plan.execute(B.in, o);
      exec.fence();
    });
  });
  bench::add("inplace_naive" + suffix, [=](benchmark::State& s) {  // seed 000 (tilekit::study)
    auto& B = get();
    Exec exec;
    study::NaiveInplaceTransposePlan plan(exec, B.in);
    bench::timed(s, exec, bytes, dtype, false, [&] { plan.execute(B.in); });
  });
  bench::add(std::string(to_string(InplaceVariant::blocked)) + suffix, [=](benchmark::State& s) {
    auto& B = get();
    Exec exec;
    InplaceTransposePlan plan(exec, B.in, InplaceVariant::blocked);
    bench::timed(s, exec, bytes, dtype, false, [&] { plan.execute(B.in); });
  });
  // Free the buffers once this size is done.
  bench::add_release("release" + suffix, buf);
}

template <class Exec>
void register_space(const Exec&) {
  const int max_log2 = bench::is_gpu_v<Exec> ? 15 : 14;
  for (int k = 6; k <= max_log2; ++k) {
    register_size<Exec, float>("float", std::int64_t{1} << k);
    register_size<Exec, double>("double", std::int64_t{1} << k);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return tilekit::bench::run(argc, argv, [] {
    tilekit::bench::for_bench_spaces([](auto exec) { register_space(exec); });
  });
}
