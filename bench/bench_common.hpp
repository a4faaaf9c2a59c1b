#pragma once
// Shared by every bench_<family>.cpp: Kokkos set-up, manual timing between
// fences (one call per sample: timed(); batches of calls over rotated inputs:
// throughput()), GB/s and "% of copy" counters, and the run's context (device,
// Kokkos configuration, commit) in the JSON output.
#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>
#include <tilekit/hardware.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kokkos_context.hpp"
#include "report.hpp"
#include "throughput.hpp"

namespace tilekit::bench {

/// deep_copy bandwidth measured in this run, by "space/dtype/bytes".
inline std::map<std::string, double>& copy_baseline() {
  static std::map<std::string, double> m;
  return m;
}

inline std::string baseline_key(const char* space, const char* dtype, double bytes) {
  return std::string(space) + "/" + dtype + "/" + std::to_string(static_cast<long long>(bytes));
}

/// GB/s and bytes counters; files a copy's rate as the baseline of its bytes,
/// else reports % of that copy; % of the theoretical peak where known.
template <class Exec>
void rate_counters(benchmark::State& state, const Exec& exec, double bytes, const char* dtype,
                   bool is_copy, double gbps) {
  state.counters["GB/s"] = gbps;
  state.counters["bytes"] = bytes;
  const auto key = baseline_key(Exec::name(), dtype, bytes);
  if (is_copy) {
    copy_baseline()[key] = gbps;
  } else if (auto it = copy_baseline().find(key); it != copy_baseline().end()) {
    state.counters["pct_copy"] = 100.0 * gbps / it->second;
  }
  const double peak = hardware_info(exec).peak_gbps;
  if (peak > 0) state.counters["pct_peak"] = 100.0 * gbps / peak;
}

/// Times fn() per iteration between fences; reports GB/s (bytes read +
/// written) and, unless this is the copy itself, % of the copy of the same bytes.
template <class Exec, class Fn>
void timed(benchmark::State& state, const Exec& exec, double bytes, const char* dtype,
           bool is_copy, Fn&& fn) {
  fn();  // warm-up
  exec.fence();
  double total = 0;
  for (auto _ : state) {
    Kokkos::Timer t;
    fn();
    exec.fence();
    const double s = t.seconds();
    state.SetIterationTime(s);
    total += s;
  }
  rate_counters(state, exec, bytes, dtype, is_copy,
                bytes * static_cast<double>(state.iterations()) / total / 1e9);
}

/// Throughput timing (throughput.hpp): the benchmark's one iteration reports
/// the median time per call of batches of back-to-back calls fn(k), k the
/// running call number with which the caller rotates over `buffers` inputs
/// (report::Rotation). Counters as timed()'s, plus latency_us (one call alone
/// between fences), calls (per sample) and buffers. Register with
/// add_throughput(). A benchmark that calls both this and timed() for the
/// same bytes compares with whichever copy ran last.
template <class Exec, class Fn>
void throughput(benchmark::State& state, const Exec& exec, double bytes, const char* dtype,
                bool is_copy, int buffers, Fn&& fn) {
  report::Throughput t;
  for (auto _ : state) {
    t = report::time_throughput(exec, fn);
    state.SetIterationTime(t.ms * 1e-3);
  }
  rate_counters(state, exec, bytes, dtype, is_copy, bytes / (t.ms * 1e-3) / 1e9);
  state.counters["latency_us"] = t.latency_ms * 1e3;
  state.counters["calls"] = t.calls;
  state.counters["buffers"] = buffers;
}

/// Buffers to rotate over for inputs of `bytes` each on exec's device
/// (report::rotation_count of twice its largest cache).
template <class Exec>
int rotation_count(const Exec& exec, double bytes) {
  return report::rotation_count(bytes, report::rotation_bytes(hardware_info(exec)));
}

/// "210" for the permutation {2, 1, 0} (benchmark names).
inline std::string perm_name(const std::vector<int>& p) {
  std::string s;
  for (int v : p) s += std::to_string(v);
  return s;
}

/// Registers a benchmark that uses manual time and reports in microseconds.
inline benchmark::internal::Benchmark* add(const std::string& name,
                                           std::function<void(benchmark::State&)> fn) {
  return benchmark::RegisterBenchmark(name.c_str(), std::move(fn))
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

/// Registers a benchmark timed by throughput(): one iteration (it takes its
/// own samples and reports their median).
inline benchmark::internal::Benchmark* add_throughput(
    const std::string& name, std::function<void(benchmark::State&)> fn) {
  return add(name, std::move(fn))->Iterations(1);
}

/// The buffers a group of benchmarks shares (one size, space and type),
/// allocated by the group's first benchmark that runs. They are freed by the
/// group's "release" benchmark (add_release) or, when a filter skips it,
/// before Kokkos finalizes: views must not outlive Kokkos.
template <class Buffers>
using BufferSlot = std::shared_ptr<std::unique_ptr<Buffers>>;

template <class Buffers>
BufferSlot<Buffers> buffer_slot() {
  auto slot = std::make_shared<std::unique_ptr<Buffers>>();
  Kokkos::push_finalize_hook([slot] { slot->reset(); });
  return slot;
}

/// Registers `name`, which frees the group's buffers once its benchmarks ran.
template <class Buffers>
void add_release(const std::string& name, const BufferSlot<Buffers>& slot) {
  add(name, [slot](benchmark::State& s) {
    for (auto _ : s) s.SetIterationTime(1e-9);
    slot->reset();
  })->Iterations(1);
}

/// Runs Kokkos, the registration callback, and Google Benchmark with context.
inline int run(int argc, char** argv, const std::function<void()>& register_all) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("tilekit_commit", report::git_commit());
  benchmark::AddCustomContext("kokkos", report::kokkos_configuration());
  const auto dev = hardware_info(Kokkos::DefaultExecutionSpace());
  benchmark::AddCustomContext("device", dev.device);
  if (dev.peak_gbps > 0)
    benchmark::AddCustomContext("device_peak_gbps", std::to_string(dev.peak_gbps));
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

/// The default space, and the host space too when they differ.
template <class Fn>
void for_bench_spaces(Fn&& fn) {
  fn(Kokkos::DefaultExecutionSpace());
  if constexpr (!std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::DefaultHostExecutionSpace>)
    fn(Kokkos::DefaultHostExecutionSpace());
}

template <class Exec>
constexpr bool is_gpu_v = !Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                                      typename Exec::memory_space>::accessible;

}  // namespace tilekit::bench
