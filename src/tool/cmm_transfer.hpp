#pragma once
// `tilekit cmm`'s host <-> device study (seed 001, sections 5.2 and 6): the
// whole life of one product, timed phase by phase between fences -
// allocation, host-to-device, kernel, device-to-host - with the host matrices
// in pageable memory (Kokkos::HostSpace), in pinned memory
// (Kokkos::SharedHostPinnedSpace), or all three matrices in unified memory
// (Kokkos::SharedSpace), migrated on demand or prefetched with read-mostly
// advice on A and B. Only a space whose memory the host cannot read has
// transfers; elsewhere the rows say why they do not apply.
#include <Kokkos_Core.hpp>
#include <tilekit/cmm.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace tilekit::tool::cmm_transfer {

enum class Flow { pageable, pinned, unified, unified_prefetch };
inline const char* name(Flow f) {
  switch (f) {
    case Flow::pageable: return "pageable";
    case Flow::pinned: return "pinned";
    case Flow::unified: return "unified";
    case Flow::unified_prefetch: return "unified_prefetch";
  }
  return "?";
}

/// Median times of each phase in milliseconds.
struct Phases {
  double alloc = 0, h2d = 0, kernel = 0, d2h = 0, total = 0;
  bool verified = false;
};

template <class Exec>
constexpr bool is_device_v =
    !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible;

/// Unified-memory prefetch and advice (CUDA only; Kokkos has no portable call).
template <class Exec>
constexpr bool can_prefetch_v =
#if defined(KOKKOS_ENABLE_CUDA)
    std::is_same_v<Exec, Kokkos::Cuda>;
#else
    false;
#endif

/// Why `flow` does not apply to Exec in this build; empty when it does.
template <class Exec>
std::string not_applicable(Flow flow) {
  if (!is_device_v<Exec>)
    return std::string("n/a: ") + Exec::name() + " computes in host memory, nothing to transfer";
  if (flow == Flow::pinned && !Kokkos::has_shared_host_pinned_space)
    return "n/a: no host-pinned memory space in this Kokkos";
  if ((flow == Flow::unified || flow == Flow::unified_prefetch) &&
      (!Kokkos::has_shared_space ||
       !Kokkos::SpaceAccessibility<Exec, Kokkos::SharedSpace>::accessible))
    return "n/a: no shared (unified) memory space for this device";
  if (flow == Flow::unified_prefetch && !can_prefetch_v<Exec>)
    return std::string("n/a: no prefetch call for ") + Exec::name();
  return {};
}

#if defined(KOKKOS_ENABLE_CUDA)
inline void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
inline cudaMemLocation location(const Kokkos::Cuda& exec, bool device) {
  cudaMemLocation l{};
  l.type = device ? cudaMemLocationTypeDevice : cudaMemLocationTypeHost;
  l.id = device ? exec.cuda_device() : 0;
  return l;
}
inline void prefetch(const Kokkos::Cuda& exec, const void* p, std::size_t bytes, bool to_device) {
#if CUDART_VERSION >= 13000
  check_cuda(cudaMemPrefetchAsync(p, bytes, location(exec, to_device), 0, exec.cuda_stream()),
             "cudaMemPrefetchAsync");
#else
  check_cuda(cudaMemPrefetchAsync(p, bytes, to_device ? exec.cuda_device() : cudaCpuDeviceId,
                                  exec.cuda_stream()),
             "cudaMemPrefetchAsync");
#endif
}
inline void read_mostly(const Kokkos::Cuda& exec, const void* p, std::size_t bytes) {
#if CUDART_VERSION >= 13000
  check_cuda(cudaMemAdvise(p, bytes, cudaMemAdviseSetReadMostly, location(exec, true)),
             "cudaMemAdvise");
#else
  check_cuda(cudaMemAdvise(p, bytes, cudaMemAdviseSetReadMostly, exec.cuda_device()),
             "cudaMemAdvise");
#endif
}
#endif

/// Runs `flow` reps + 1 times for N x N matrices of T: fill(A, B) writes the
/// inputs on the host, check(C) verifies the host's C. The first run is an
/// untimed warm-up; its C is poisoned before the kernel and checked.
template <class Exec, class T, class Fill, class Check>
Phases run(const Exec& exec, Flow flow, std::int64_t n, int reps, const CmmOptions& opts,
           const Fill& fill, const Check& check) {
  using Right = Kokkos::LayoutRight;
  using Dev = Kokkos::View<T**, Right, typename Exec::memory_space>;
  const auto no_init = Kokkos::WithoutInitializing;
  std::vector<double> alloc, h2d, kernel, d2h, total;
  Phases out;
  const T poison = std::numeric_limits<T>::quiet_NaN();
  Kokkos::Timer timer;
  auto lap = [&](std::vector<double>& into) {
    exec.fence();
    Kokkos::DefaultHostExecutionSpace().fence();
    into.push_back(timer.seconds() * 1e3);
    timer.reset();
  };
  for (int rep = 0; rep <= reps; ++rep) {
    std::vector<double> a_ms, h_ms, k_ms, d_ms;
    if (flow == Flow::pageable || flow == Flow::pinned) {
      auto body = [&](auto host_space) {
        using Host = Kokkos::View<T**, Right, decltype(host_space)>;
        timer.reset();
        Host ha(Kokkos::view_alloc(no_init, "cmm::host_a"), n, n),
            hb(Kokkos::view_alloc(no_init, "cmm::host_b"), n, n),
            hc(Kokkos::view_alloc(no_init, "cmm::host_c"), n / 2, n);
        Dev da(Kokkos::view_alloc(exec, no_init, "cmm::a"), n, n),
            db(Kokkos::view_alloc(exec, no_init, "cmm::b"), n, n),
            dc(Kokkos::view_alloc(exec, no_init, "cmm::c"), n / 2, n);
        lap(a_ms);
        fill(ha, hb);
        timer.reset();
        Kokkos::deep_copy(exec, da, ha);
        Kokkos::deep_copy(exec, db, hb);
        lap(h_ms);
        CmmPlan plan(exec, da, db, dc, CmmVariant::blocked, opts);
        if (rep == 0) Kokkos::deep_copy(exec, dc, poison);
        exec.fence();
        timer.reset();
        plan.execute(da, db, dc);
        lap(k_ms);
        Kokkos::deep_copy(exec, hc, dc);
        lap(d_ms);
        if (rep == 0) out.verified = check(hc);
      };
      if (flow == Flow::pageable) body(Kokkos::HostSpace());
      else body(Kokkos::SharedHostPinnedSpace());
    } else {
      using Shared = Kokkos::View<T**, Right, Kokkos::SharedSpace>;
      timer.reset();
      Shared a(Kokkos::view_alloc(no_init, "cmm::unified_a"), n, n),
          b(Kokkos::view_alloc(no_init, "cmm::unified_b"), n, n),
          c(Kokkos::view_alloc(no_init, "cmm::unified_c"), n / 2, n);
      lap(a_ms);
      fill(a, b);
      CmmPlan plan(exec, a, b, c, CmmVariant::blocked, opts);
      if (rep == 0) Kokkos::deep_copy(exec, c, poison);
      exec.fence();
      timer.reset();
      if (flow == Flow::unified_prefetch) {
#if defined(KOKKOS_ENABLE_CUDA)
        if constexpr (can_prefetch_v<Exec>) {
          const std::size_t ab = static_cast<std::size_t>(n) * n * sizeof(T);
          read_mostly(exec, a.data(), ab);
          read_mostly(exec, b.data(), ab);
          prefetch(exec, a.data(), ab, true);
          prefetch(exec, b.data(), ab, true);
          prefetch(exec, c.data(), ab / 2, true);
        }
#endif
      }
      lap(h_ms);  // on demand: nothing moves before the kernel
      plan.execute(a, b, c);
      lap(k_ms);
      if (flow == Flow::unified_prefetch) {
#if defined(KOKKOS_ENABLE_CUDA)
        if constexpr (can_prefetch_v<Exec>)
          prefetch(exec, c.data(), static_cast<std::size_t>(n) * n / 2 * sizeof(T), false);
#endif
      } else {
        // On demand: the host's first touch of each page of C migrates it.
        T sum = 0;
        const T* p = c.data();
        for (std::int64_t k = 0; k < n * n / 2; k += 4096 / static_cast<std::int64_t>(sizeof(T)))
          sum += p[k];
        volatile T sink = sum;
        (void)sink;
      }
      lap(d_ms);
      if (rep == 0) out.verified = check(c);
    }
    if (rep == 0) continue;  // warm-up
    alloc.push_back(a_ms.front());
    h2d.push_back(h_ms.front());
    kernel.push_back(k_ms.front());
    d2h.push_back(d_ms.front());
    total.push_back(a_ms.front() + h_ms.front() + k_ms.front() + d_ms.front());
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t k = v.size();
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
  };
  out.alloc = median(alloc);
  out.h2d = median(h2d);
  out.kernel = median(kernel);
  out.d2h = median(d2h);
  out.total = median(total);
  return out;
}

}  // namespace tilekit::tool::cmm_transfer
