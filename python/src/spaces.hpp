#pragma once
// The execution spaces the module runs on, as data for the operations: the
// default host space for host memory, and Kokkos::Cuda (an instance on the
// caller's stream) for CUDA memory when Kokkos was built with it. The one
// place of the binding layer that knows which backends exist.
#include "bridge.hpp"

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

/// Calls fn(T{}) with the C++ type of a dtype.
template <class Fn>
decltype(auto) with_value_type(Dtype d, Fn&& fn) {
  switch (d) {
    case Dtype::int32: return fn(std::int32_t{});
    case Dtype::int64: return fn(std::int64_t{});
    case Dtype::float32: return fn(float{});
    case Dtype::float64: return fn(double{});
    case Dtype::complex64: return fn(Kokkos::complex<float>{});
    case Dtype::complex128: return fn(Kokkos::complex<double>{});
  }
  throw std::invalid_argument("tilekit: unknown dtype");
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
