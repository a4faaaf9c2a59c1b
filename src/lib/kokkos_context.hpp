#pragma once
// The Kokkos configuration of this build, for reports and benchmark context.
#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <sstream>
#include <string>

namespace tilekit::report {

inline std::string kokkos_configuration() {
  std::ostringstream s;
  s << "Kokkos " << KOKKOS_VERSION / 10000 << '.' << KOKKOS_VERSION / 100 % 100 << '.'
    << KOKKOS_VERSION % 100 << "; default space " << Kokkos::DefaultExecutionSpace::name()
    << "; host space " << Kokkos::DefaultHostExecutionSpace::name() << " ("
    << Kokkos::DefaultHostExecutionSpace().concurrency() << " threads";
  // The thread binding the run had (README: "Running on a CPU").
  for (const char* var : {"OMP_PROC_BIND", "OMP_PLACES", "OMP_NUM_THREADS"}) {
    const char* v = std::getenv(var);
    s << ", " << var << '=' << (v ? v : "unset");
  }
  s << ')';
  return s.str();
}

}  // namespace tilekit::report
