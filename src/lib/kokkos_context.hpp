#pragma once
// The Kokkos configuration of this build, for reports and benchmark context.
#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace tilekit::report {

/// Linux's transparent huge pages mode (the bracketed word of
/// /sys/kernel/mm/transparent_hugepage/enabled: always, madvise or never), ""
/// where there is none. Under madvise only memory asked for gets 2 MiB pages;
/// glibc asks for its large allocations with GLIBC_TUNABLES=glibc.malloc.hugetlb=1.
inline std::string transparent_huge_pages() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  if (!std::getline(f, line)) return "";
  const auto open = line.find('['), close = line.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return "";
  return line.substr(open + 1, close - open - 1);
}

inline std::string kokkos_configuration() {
  std::ostringstream s;
  s << "Kokkos " << KOKKOS_VERSION / 10000 << '.' << KOKKOS_VERSION / 100 % 100 << '.'
    << KOKKOS_VERSION % 100 << "; default space " << Kokkos::DefaultExecutionSpace::name()
    << "; host space " << Kokkos::DefaultHostExecutionSpace::name() << " ("
    << Kokkos::DefaultHostExecutionSpace().concurrency() << " threads";
  // The thread binding the run had (docs/tool.md: "Running on a CPU").
  for (const char* var : {"OMP_PROC_BIND", "OMP_PLACES", "OMP_NUM_THREADS"}) {
    const char* v = std::getenv(var);
    s << ", " << var << '=' << (v ? v : "unset");
  }
  s << ')';
  // The host's page size mode: copies and tiled kernels alike can move faster on
  // 2 MiB pages (docs/tool.md: "Running on a CPU"); glibc's tunables say whether malloc
  // asks for them.
  if (const std::string thp = transparent_huge_pages(); !thp.empty()) {
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    s << "; transparent huge pages " << thp << " (GLIBC_TUNABLES="
      << (tunables ? tunables : "unset") << ')';
  }
  return s.str();
}

}  // namespace tilekit::report
