#pragma once
// What tilekit can tell about the hardware behind an execution space: the
// facts each backend reads (backends/src), under the public name
// <tilekit/hardware_info.hpp> (plain C++, no Kokkos).
#include <cstddef>
#include <string>

namespace tilekit {

struct HardwareInfo {
  std::string space;         ///< Kokkos execution space name ("Cuda", "OpenMP", ...)
  std::string device;        ///< device or CPU model name
  int concurrency = 1;       ///< Kokkos concurrency of the space
  double peak_gbps = 0.0;    ///< theoretical memory bandwidth in GB/s; 0 when unknown
  std::string peak_source;   ///< how peak_gbps was obtained, or why it is unknown
  std::size_t l1_bytes = 0;  ///< per-core L1 data cache (CPU) or per-SM L1/shared (GPU)
  std::size_t l2_bytes = 0;
  std::size_t l3_bytes = 0;
  int compute_units = 0;     ///< SMs on a GPU, logical CPUs on a host
  std::size_t memory_bytes = 0;       ///< the space's memory (host: RAM); 0 when unknown
  std::size_t memory_free_bytes = 0;  ///< what can be allocated now (host: MemAvailable); 0 when unknown
};

}  // namespace tilekit
