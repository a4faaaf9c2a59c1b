#pragma once
// OpenMP backend: the host data of host.hpp, one team per thread.
#include <tilekit/backends/host.hpp>

#if defined(KOKKOS_ENABLE_OPENMP)
namespace tilekit::backends {
template <>
struct Traits<Kokkos::OpenMP> : HostTraits<Kokkos::OpenMP> {};
}  // namespace tilekit::backends
#endif
