#pragma once
// Serial backend: the host data of host.hpp (one team, one thread).
#include <tilekit/backends/host.hpp>

#if defined(KOKKOS_ENABLE_SERIAL)
namespace tilekit::backends {
template <>
struct Traits<Kokkos::Serial> : HostTraits<Kokkos::Serial> {};
}  // namespace tilekit::backends
#endif
