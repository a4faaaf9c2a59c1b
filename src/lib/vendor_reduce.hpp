#pragma once
// The vendor's reduction, the peer the production reduce is measured against:
// cub::DeviceReduce::Sum (CUB ships with the CUDA Toolkit). Available in CUDA
// builds whose sources nvcc compiles; TILEKIT_HAVE_CUB says so.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include <cub/device/device_reduce.cuh>
#define TILEKIT_HAVE_CUB 1

namespace tilekit::vendor {

/// cub::DeviceReduce::Sum of n elements of T into one R, on exec's stream,
/// with its temporary storage allocated once. Sizes below 2^31 pass an int
/// count (CUB's 32-bit offsets, its fastest path), larger ones an int64.
template <class T, class R>
class CubSum {
 public:
  CubSum(const Kokkos::Cuda& exec, std::int64_t n) : exec_(exec), n_(n) {
    std::size_t bytes = 0;
    call(nullptr, bytes, nullptr, nullptr);
    temp_ = Kokkos::View<unsigned char*, Kokkos::CudaSpace>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "tilekit::cub_sum temp"),
        bytes > 0 ? bytes : 1);
    bytes_ = bytes;
  }

  /// *out = sum of in[0 .. n), asynchronously.
  void operator()(const T* in, R* out) const {
    std::size_t bytes = bytes_;
    call(temp_.data(), bytes, in, out);
  }

 private:
  void call(void* temp, std::size_t& bytes, const T* in, R* out) const {
    const cudaError_t e =
        n_ <= std::numeric_limits<int>::max()
            ? cub::DeviceReduce::Sum(temp, bytes, in, out, static_cast<int>(n_),
                                     exec_.cuda_stream())
            : cub::DeviceReduce::Sum(temp, bytes, in, out, n_, exec_.cuda_stream());
    if (e != cudaSuccess)
      throw std::runtime_error(std::string("cub::DeviceReduce::Sum: ") + cudaGetErrorString(e));
  }

  Kokkos::Cuda exec_;
  std::int64_t n_;
  std::size_t bytes_ = 0;
  Kokkos::View<unsigned char*, Kokkos::CudaSpace> temp_;
};

}  // namespace tilekit::vendor
#endif
