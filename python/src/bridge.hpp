#pragma once
// The seam between the pybind11 layer (module.cpp, plain C++: no Kokkos
// headers, so it compiles with the host compiler in a CUDA build) and the
// Kokkos side (runtime.cpp, ops_*.cpp, compiled in Kokkos' language).
// Arrays cross it as raw descriptors that module.cpp has already validated;
// the tilekit C++ API re-checks them (tilekit::invalid_argument, a
// std::invalid_argument, reaches Python as ValueError).
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tilekit::python {

inline constexpr int max_rank = 8;

/// The arithmetic types first (alpha, beta, reductions: the order of
/// support::ElementTypes), then the move-only ones (NumPy's bool_, 1- and
/// 2-byte integers, unsigned ones, the 2-byte floats): their moves run the
/// library's kernels of the unsigned type of their size (the kernels move
/// bits); float16 and bfloat16 also scale where Kokkos has half_t and bhalf_t
/// as types of their own (CUDA builds).
enum class Dtype {
  int32, int64, float32, float64, complex64, complex128,
  bool_, int8, uint8, int16, uint16, uint32, uint64, float16, bfloat16
};
inline constexpr int dtype_count = 15;
enum class Device { host, cuda };

const char* dtype_name(Dtype d);
std::size_t dtype_size(Dtype d);
/// Alignment the kernels need (alignof of the C++ type; Kokkos::complex is
/// aligned to its size).
std::size_t dtype_align(Dtype d);

/// Whether a dtype is one of the arithmetic ones (int32 ... complex128).
inline bool dtype_arithmetic(Dtype d) { return static_cast<int>(d) <= static_cast<int>(Dtype::complex128); }

/// An array: extents in shape[0..ndim) and element strides in
/// strides[0..ndim) (any signs; always set). C order (row-major) or F order
/// (column-major, `fortran`) when contiguous, the kernels' fast path of
/// row-major views; otherwise `strided` (a window of a larger array, views
/// with steps, reversed axes), which the plans take as Kokkos::LayoutStride.
struct Array {
  void* data = nullptr;
  Dtype dtype = Dtype::float32;
  Device device = Device::host;
  int device_id = 0;
  int ndim = 0;
  std::array<std::int64_t, max_rank> shape{};
  std::array<std::int64_t, max_rank> strides{};
  bool fortran = false;
  bool strided = false;

  /// Sets C-order (or, with f, F-order) strides of the extents.
  void set_contiguous(bool f) {
    fortran = f;
    strided = false;
    std::int64_t s = 1;
    for (int k = 0; k < ndim; ++k) {
      const int d = f ? k : ndim - 1 - k;
      strides[d] = s;
      s *= shape[d];
    }
  }

  std::int64_t size() const {
    std::int64_t n = 1;
    for (int d = 0; d < ndim; ++d) n *= shape[d];
    return n;
  }
  std::size_t bytes() const { return static_cast<std::size_t>(size()) * dtype_size(dtype); }
  /// The addresses the elements occupy, [first, last) in bytes (empty: data, data).
  std::pair<std::uintptr_t, std::uintptr_t> extent_bytes() const {
    const auto base = reinterpret_cast<std::uintptr_t>(data);
    if (size() == 0) return {base, base};
    std::int64_t lo = 0, hi = 0;
    for (int d = 0; d < ndim; ++d)
      (strides[d] < 0 ? lo : hi) += (shape[d] - 1) * strides[d];
    const auto item = static_cast<std::int64_t>(dtype_size(dtype));
    return {base + lo * item, base + (hi + 1) * item};
  }
};

/// A cudaStream_t handle as an integer (0 is the legacy default stream);
/// ignored on the host, where every call returns when its work is done.
using Stream = std::intptr_t;

// ------------------------------------------------------------------ runtime
/// Initialises Kokkos unless it is already; num_threads / device_id < 0 keep
/// Kokkos' defaults (environment: OMP_NUM_THREADS, KOKKOS_NUM_THREADS,
/// KOKKOS_DEVICE_ID). Throws std::runtime_error after finalize().
void initialize(int num_threads = -1, int device_id = -1);
bool is_initialized();
bool is_finalized();
/// Drops every plan, keeps every allocation still referenced from Python
/// alive for the rest of the process, then finalises Kokkos.
void finalize();
std::vector<std::string> spaces();
std::string kokkos_version();
int host_concurrency();
/// Kokkos' CUDA device, -1 without CUDA.
int cuda_device();

// ------------------------------------------------------ memory for outputs
/// A Kokkos View allocation handed to Python through DLPack.
struct Allocation;
/// Allocates `bytes` in the space of `device`, on the stream `stream`.
Allocation* allocate(Device device, std::size_t bytes, Stream stream);
void* allocation_data(const Allocation* a);
/// Releases the View (thread-safe, no Python; also valid after finalize()); a
/// large host one is kept for the next output of its size (runtime.cpp).
void release(Allocation* a);
/// Frees the host outputs kept for reuse.
void release_cached_outputs();
/// The consumer stream waits for the work enqueued so far on the producer
/// stream (CUDA; an event, no host synchronisation). No-op on the host.
void stream_wait(Stream producer, Stream consumer);

// -------------------------------------------------------------- operations
enum class ReduceOp { sum, sum_compensated, min, max, argmin, argmax };

struct ReduceResult {
  bool integral = false;  ///< value in `i` (integer sum, min, max) or in `f`
  std::int64_t i = 0;
  double f = 0;
  std::int64_t index = -1;  ///< argmin/argmax: memory-order index
};

/// A prepared data movement: out = alpha * op(in) + beta * out.
class MovePlan {
 public:
  virtual ~MovePlan() = default;
  virtual void execute(void* in, void* out, std::complex<double> alpha,
                       std::complex<double> beta) = 0;
};

class ReducePlan {
 public:
  virtual ~ReducePlan() = default;
  virtual ReduceResult execute(const void* in) = 0;
};

/// Plans, built for arrays like in/out (their data pointers are only
/// compared, never read, while planning; their strides are the plan's).
/// `axes` as numpy.transpose. `scaled`: for alpha != 1 or beta != 0, which
/// a move-only dtype takes only as float16/bfloat16 with Kokkos' own half_t
/// and bhalf_t (module.cpp has refused the rest); its pure moves run the
/// unsigned integer kernels of its size.
std::unique_ptr<MovePlan> plan_permute(const Array& in, const Array& out,
                                       const std::vector<int>& axes, bool scaled, Stream stream);
std::unique_ptr<MovePlan> plan_transpose(const Array& in, const Array& out, Stream stream);
std::unique_ptr<MovePlan> plan_transpose_inplace(const Array& a, Stream stream);
/// Whether alpha and beta can be taken for arrays of d (the arithmetic
/// dtypes; float16 and bfloat16 where Kokkos has half_t and bhalf_t).
bool dtype_scales(Dtype d);
std::unique_ptr<ReducePlan> plan_reduce(const Array& a, ReduceOp op, Stream stream);

/// A lock every call into Kokkos holds (plans, caches, launches).
class Lock {
 public:
  Lock();
  ~Lock();
  Lock(const Lock&) = delete;
  Lock& operator=(const Lock&) = delete;
};

/// Plans that must be destroyed before Kokkos is finalised register here;
/// finalize() calls drop() on each.
class Finalizable {
 public:
  Finalizable();
  virtual ~Finalizable();
  Finalizable(const Finalizable&) = delete;
  Finalizable& operator=(const Finalizable&) = delete;
  virtual void drop() = 0;
};

}  // namespace tilekit::python
