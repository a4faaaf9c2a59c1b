#pragma once
// The execution spaces the module runs on, as data for the operations: the
// default host space for host memory, and Kokkos::Cuda (an instance on the
// caller's stream) for CUDA memory when Kokkos was built with it. The one
// place of the binding layer that knows which backends exist.
#include "bridge.hpp"
#include "support/types.hpp"

#include <Kokkos_Core.hpp>

#include <stdexcept>
#include <string>

namespace tilekit::python {

using HostExec = Kokkos::DefaultHostExecutionSpace;

#if defined(KOKKOS_ENABLE_CUDA)
/// The Kokkos::Cuda instance on this stream (created once per stream and kept
/// until finalize: creating one allocates and synchronises).
Kokkos::Cuda cuda_instance(Stream stream);
#endif

/// Forgets the per-stream instances (finalize, after the plans are dropped).
void release_stream_instances();

/// Calls fn(exec) with the execution space instance for memory on `device`.
template <class Fn>
decltype(auto) with_exec(Device device, Stream stream, Fn&& fn) {
  if (device == Device::host) return fn(HostExec());
#if defined(KOKKOS_ENABLE_CUDA)
  return fn(cuda_instance(stream));
#else
  (void)stream;
  throw std::invalid_argument("tilekit: this module was built without CUDA (spaces: " +
                              std::string(HostExec::name()) + ")");
#endif
}

/// Calls fn(T{}) with the C++ type of a dtype (Dtype follows support::ElementTypes).
template <class Fn>
auto with_value_type(Dtype d, Fn&& fn) {
  const int k = static_cast<int>(d);
  if (k < 0 || k > static_cast<int>(Dtype::complex128))
    throw std::invalid_argument("tilekit: unknown dtype");
  return support::with_type_at(support::ElementTypes{}, k, std::forward<Fn>(fn));
}

/// Host spaces finish their work before a call returns (NumPy has no streams);
/// device spaces stay asynchronous on the caller's stream.
template <class Exec>
void finish_on_host(const Exec& exec) {
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename Exec::memory_space>::accessible)
    exec.fence("tilekit python: host call");
}

}  // namespace tilekit::python
