#pragma once
// The Kokkos configuration of this build, for reports and benchmark context.
#include <Kokkos_Core.hpp>

#include <sstream>
#include <string>

namespace tilekit::report {

inline std::string kokkos_configuration() {
  std::ostringstream s;
  s << "Kokkos " << KOKKOS_VERSION / 10000 << '.' << KOKKOS_VERSION / 100 % 100 << '.'
    << KOKKOS_VERSION % 100 << "; default space " << Kokkos::DefaultExecutionSpace::name()
    << "; host space " << Kokkos::DefaultHostExecutionSpace::name();
  return s.str();
}

}  // namespace tilekit::report
