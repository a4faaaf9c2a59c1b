// CUDA device facts. The theoretical bandwidth is 2 (double data rate) x memory
// clock x bus width, both read from the driver.
#include <Kokkos_Core.hpp>
#include <tilekit/hardware_info.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>

namespace tilekit::backends {

HardwareInfo cuda_hardware(int device_id, int concurrency) {
  HardwareInfo h;
  h.space = Kokkos::Cuda::name();
  h.concurrency = concurrency;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device_id) != cudaSuccess) {
    h.device = "unknown CUDA device";
    h.peak_source = "unknown: cudaGetDeviceProperties failed";
    return h;
  }
  h.device = prop.name;
  h.compute_units = prop.multiProcessorCount;
  h.l1_bytes = prop.sharedMemPerMultiprocessor;
  h.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  h.memory_bytes = prop.totalGlobalMem;
  int current = -1;
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaGetDevice(&current) == cudaSuccess && current == device_id &&
      cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
    h.memory_free_bytes = free_bytes;
  int clock_khz = 0;
  int bus_bits = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device_id) == cudaSuccess &&
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device_id) ==
          cudaSuccess &&
      clock_khz > 0 && bus_bits > 0) {
    h.peak_gbps = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    h.peak_source = "2 x memory clock x bus width (CUDA device attributes)";
  } else {
    h.peak_source = "unknown: memory clock or bus width not reported";
  }
  return h;
}

}  // namespace tilekit::backends
#endif
