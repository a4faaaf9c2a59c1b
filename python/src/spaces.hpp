#pragma once
// The execution spaces the module runs on, as data for the operations: the
// default host space for host memory, and Kokkos::Cuda (an instance on the
// caller's stream) for CUDA memory when Kokkos was built with it. The one
// place of the binding layer that knows which backends exist.
#include "bridge.hpp"

#include <Kokkos_Core.hpp>

#include <stdexcept>
#include <string>
#include <type_traits>

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

/// Whether Kokkos has half_t and bhalf_t as types of their own (a host-only
/// Kokkos makes them float: KOKKOS_HALF_T_IS_FLOAT).
inline constexpr bool own_half = !std::is_same_v<Kokkos::Experimental::half_t, float>;
inline constexpr bool own_bhalf = !std::is_same_v<Kokkos::Experimental::bhalf_t, float>;

/// Calls fn(T{}) with the C++ type the plans of a dtype run on: an
/// arithmetic dtype's own; for a move-only dtype an integer of its size whose
/// kernels the library holds (the kernels move bits, so one compiled set per
/// size serves every type of that size: uint8 and uint16, the library's MOVE
/// types, cmake/TilekitETI.cmake; int32 and int64 for 4 and 8 bytes), or,
/// `scaled` (alpha, beta), half_t and bhalf_t for float16 and bfloat16 where
/// Kokkos has them (dtype_scales; module.cpp refuses alpha and beta for the
/// others).
template <class Fn>
decltype(auto) with_plan_type(Dtype d, bool scaled, Fn&& fn) {
  switch (d) {
    case Dtype::int32: return fn(std::int32_t{});
    case Dtype::int64: return fn(std::int64_t{});
    case Dtype::float32: return fn(float{});
    case Dtype::float64: return fn(double{});
    case Dtype::complex64: return fn(Kokkos::complex<float>{});
    case Dtype::complex128: return fn(Kokkos::complex<double>{});
    case Dtype::float16:
      if constexpr (own_half)
        if (scaled) return fn(Kokkos::Experimental::half_t{});
      return fn(std::uint16_t{});
    case Dtype::bfloat16:
      if constexpr (own_bhalf)
        if (scaled) return fn(Kokkos::Experimental::bhalf_t{});
      return fn(std::uint16_t{});
    case Dtype::bool_:
    case Dtype::int8:
    case Dtype::uint8: return fn(std::uint8_t{});
    case Dtype::int16:
    case Dtype::uint16: return fn(std::uint16_t{});
    case Dtype::uint32: return fn(std::int32_t{});
    case Dtype::uint64: return fn(std::int64_t{});
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
