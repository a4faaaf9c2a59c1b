// Reduce family: the copy baseline, CUB's sum (CUDA builds), Kokkos'
// parallel_reduce and the production sum (plain and compensated) at n = 2^20 ..
// 2^30 floats on a GPU (2^20 .. 2^26 on the CPU) and a few double sizes, plus
// seed 004's ladder at 2^26 floats. GB/s counts bytes read; pct_copy compares
// with the deep_copy of the same buffers, pct_cub with CUB's sum of them.
// Every row is timed for throughput (bench::throughput: batches of
// back-to-back calls over inputs rotated through twice the L2, median per
// call); latency_us is one call alone between fences.
//   bench_reduce --benchmark_filter=/Cuda/ --benchmark_out=reduce.json --benchmark_out_format=json
#include <tilekit/reduce.hpp>
#include <tilekit/study/reduce_ladder.hpp>

#include <map>
#include <memory>

#include "bench_common.hpp"
#include "vendor_reduce.hpp"

namespace {
using namespace tilekit;
using study::ReduceStep;
using study::ReduceStepPlan;

/// Inputs a(k) and copy destinations b(k), k % count: one buffer each once
/// n elements exceed twice the cache, else enough to exceed it together.
template <class Exec, class T>
struct Buffers {
  using Mem = typename Exec::memory_space;
  report::Rotation<T, Mem> a, b;
  Kokkos::View<sum_t<T>, Mem> r;
  Kokkos::View<T, Mem> rc;
  Buffers(const Exec& exec, std::int64_t n, int count)
      : a(exec, "a", n, count), b(exec, "b", n, count), r("r"), rc("rc") {
    for (int k = 0; k < count; ++k) Kokkos::deep_copy(exec, a(k), T(1));
    exec.fence();
  }
};

/// CUB's GB/s by "space/dtype/bytes", measured in this run.
std::map<std::string, double>& cub_baseline() {
  static std::map<std::string, double> m;
  return m;
}

template <class Exec, class T>
void register_size(const char* dtype, std::int64_t n, bool ladder) {
  const double read = static_cast<double>(n) * sizeof(T);
  const std::string key = bench::baseline_key(Exec::name(), dtype, read);
  const std::string suffix =
      std::string("/") + Exec::name() + "/" + dtype + "/" + std::to_string(n);
  // One allocation per (space, type, size), shared by its benchmarks.
  auto buf = bench::buffer_slot<Buffers<Exec, T>>();
  auto get = [buf, n, read]() -> Buffers<Exec, T>& {
    Exec exec;
    if (!*buf)
      *buf = std::make_unique<Buffers<Exec, T>>(exec, n, bench::rotation_count(exec, read));
    return **buf;
  };
  auto pct_cub = [key](benchmark::State& s) {
    if (auto it = cub_baseline().find(key); it != cub_baseline().end())
      s.counters["pct_cub"] = 100.0 * s.counters["GB/s"].value / it->second;
  };
  // Throughput of fn(k), k the running call number (its input is B.a(k)).
  auto measure = [](benchmark::State& s, const Buffers<Exec, T>& B, double bytes,
                    const char* dt, bool is_copy, auto&& fn) {
    bench::throughput(s, Exec(), bytes, dt, is_copy, B.a.count(), fn);
  };
  bench::add_throughput("copy" + suffix, [=](benchmark::State& s) {
    auto& B = get();
    Exec exec;
    measure(s, B, 2 * read, dtype, true,
            [&](std::int64_t k) { Kokkos::deep_copy(exec, B.b(k), B.a(k)); });
    // The reduce rows read `read` bytes: file the copy under their key too.
    bench::copy_baseline()[key] = s.counters["GB/s"].value;
  });
#if defined(TILEKIT_HAVE_CUB)
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
    bench::add_throughput("cub" + suffix, [=](benchmark::State& s) {
      auto& B = get();
      Exec exec;
      vendor::CubSum<T, sum_t<T>> cub(exec, n);
      measure(s, B, read, dtype, false, [&](std::int64_t k) { cub(B.a(k).data(), B.r.data()); });
      cub_baseline()[key] = s.counters["GB/s"].value;
    });
  }
#endif
  bench::add_throughput("kokkos" + suffix, [=](benchmark::State& s) {
    auto& B = get();
    Exec exec;
    ReduceStepPlan plan(exec, B.a(0), ReduceStep::kokkos);
    measure(s, B, read, dtype, false, [&](std::int64_t k) { plan.execute(B.a(k), B.r); });
    pct_cub(s);
  });
  // The production reduce of op into the buffers' result view `result`;
  // `teams`: the plan's league as a counter.
  auto production = [=](const std::string& name, auto op, auto result, bool teams) {
    bench::add_throughput(name + suffix, [=](benchmark::State& s) {
      auto& B = get();
      ReducePlan plan(Exec(), B.a(0), op);
      measure(s, B, read, dtype, false, [&](std::int64_t k) { plan.execute(B.a(k), B.*result); });
      if (teams) s.counters["teams"] = static_cast<double>(plan.league());
      pct_cub(s);
    });
  };
  production("sum", Sum{}, &Buffers<Exec, T>::r, true);
  production("sum_compensated", CompensatedSum{}, &Buffers<Exec, T>::rc, false);
  if (ladder) {
    for (auto step : {ReduceStep::naive, ReduceStep::strided, ReduceStep::sequential,
                      ReduceStep::first_add, ReduceStep::unroll_last, ReduceStep::multiple}) {
      bench::add_throughput(std::string(to_string(step)) + suffix, [=](benchmark::State& s) {
        auto& B = get();
        Exec exec;
        ReduceStepPlan plan(exec, B.a(0), step);
        measure(s, B, read, dtype, false, [&](std::int64_t k) { plan.execute(B.a(k), B.r); });
      });
    }
  }
  // Free the buffers once this size is done.
  bench::add_release("release" + suffix, buf);
}

template <class Exec>
void register_space(const Exec&) {
  const int max_log2 = bench::is_gpu_v<Exec> ? 30 : 26;
  for (int k = 20; k <= max_log2; k += bench::is_gpu_v<Exec> ? 1 : 2)
    register_size<Exec, float>("float", std::int64_t{1} << k, k == 26);
  for (int k = 20; k <= max_log2 - 1; k += 3)
    register_size<Exec, double>("double", std::int64_t{1} << k, false);
}

}  // namespace

int main(int argc, char** argv) {
  return tilekit::bench::run(argc, argv, [] {
    tilekit::bench::for_bench_spaces([](auto exec) { register_space(exec); });
  });
}
