// CUDA streams of the callers (PyTorch's or CuPy's current stream, or a
// stream= argument): one Kokkos::Cuda instance per stream, and the event that
// orders a consumer's stream after an output's producer stream (DLPack).
#include "spaces.hpp"

#include <cuda_runtime.h>

#include <map>
#include <stdexcept>
#include <string>

namespace tilekit::python {

namespace {

constexpr std::size_t max_instances = 64;

std::map<Stream, Kokkos::Cuda>& instances() {
  static auto* m = new std::map<Stream, Kokkos::Cuda>();  // emptied by finalize
  return *m;
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("tilekit: ") + what + ": " + cudaGetErrorString(e));
}

/// DLPack's stream numbers: 1 is the legacy default stream, 2 the per-thread
/// default stream (cudaStreamPerThread); 0 is taken as the legacy default too.
cudaStream_t to_cuda(Stream s) {
  return s == 1 ? cudaStream_t{} : reinterpret_cast<cudaStream_t>(s);
}

}  // namespace

Kokkos::Cuda cuda_instance(Stream stream) {
  auto& m = instances();
  const Stream key = stream == 0 ? 1 : stream;
  auto it = m.find(key);
  if (it == m.end()) {
    // A program that makes streams without end should not make instances
    // without end: past 64, one is forgotten (plans still using it keep it).
    if (m.size() >= max_instances) m.erase(m.begin());
    it = m.emplace(key, Kokkos::Cuda(to_cuda(key))).first;
  }
  return it->second;
}

void release_stream_instances() { instances().clear(); }

void stream_wait(Stream producer, Stream consumer) {
  const Stream p = producer == 0 ? 1 : producer, c = consumer == 0 ? 1 : consumer;
  if (p == c || c == -1) return;
  cudaEvent_t ev;
  check(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "cudaEventCreate");
  check(cudaEventRecord(ev, to_cuda(p)), "cudaEventRecord");
  check(cudaStreamWaitEvent(to_cuda(c), ev, 0), "cudaStreamWaitEvent");
  check(cudaEventDestroy(ev), "cudaEventDestroy");  // released once the wait is done
}

}  // namespace tilekit::python
