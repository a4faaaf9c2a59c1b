// Kokkos' lifetime inside a Python process: initialised on first use (or by
// tilekit.initialize), finalised at interpreter exit. Kokkos aborts when a
// View is deallocated after finalize, and a NumPy or PyTorch array may hold an
// output of ours past that point; so finalize() first drops every plan, then
// gives each live output allocation one more reference that is never
// released (the process is ending: the memory stays valid for those arrays),
// and only then finalises Kokkos.
#include "bridge.hpp"
#include "spaces.hpp"

#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilekit::python {

namespace {

// Leaked on purpose: they must outlive every static destructor that might
// still release an allocation or a plan.
std::recursive_mutex& mutex() {
  static auto* m = new std::recursive_mutex();
  return *m;
}
std::set<Finalizable*>& finalizables() {
  static auto* s = new std::set<Finalizable*>();
  return *s;
}
std::set<Allocation*>& allocations() {
  static auto* s = new std::set<Allocation*>();
  return *s;
}
bool finalized = false;

}  // namespace

// ------------------------------------------------------------------- dtypes
namespace {
struct DtypeInfo {
  const char* name;
  std::size_t size;  ///< also the alignment the kernels need (Kokkos::complex: its size)
};
constexpr DtypeInfo dtype_info[dtype_count] = {
    {"int32", 4},  {"int64", 8},  {"float32", 4}, {"float64", 8},  {"complex64", 8},
    {"complex128", 16}, {"bool", 1}, {"int8", 1}, {"uint8", 1},   {"int16", 2},
    {"uint16", 2}, {"uint32", 4}, {"uint64", 8},  {"float16", 2}, {"bfloat16", 2}};
}  // namespace

const char* dtype_name(Dtype d) { return dtype_info[static_cast<int>(d)].name; }
std::size_t dtype_size(Dtype d) { return dtype_info[static_cast<int>(d)].size; }
std::size_t dtype_align(Dtype d) {
  // The plans' C++ type's alignment (the move-only dtypes': their size).
  return with_plan_type(d, dtype_scales(d), [](auto t) { return alignof(decltype(t)); });
}
bool dtype_scales(Dtype d) {
  return dtype_arithmetic(d) || (d == Dtype::float16 && own_half) ||
         (d == Dtype::bfloat16 && own_bhalf);
}

// ------------------------------------------------------------------ locking
Lock::Lock() { mutex().lock(); }
Lock::~Lock() { mutex().unlock(); }

Finalizable::Finalizable() {
  Lock l;
  finalizables().insert(this);
}
Finalizable::~Finalizable() {
  Lock l;
  finalizables().erase(this);
}

// ------------------------------------------------------------------ runtime
void initialize(int num_threads, int device_id) {
  Lock l;
  if (finalized)
    throw std::runtime_error("tilekit: Kokkos has been finalized (interpreter exit)");
  if (Kokkos::is_initialized()) return;
  Kokkos::InitializationSettings s;
  if (num_threads > 0) s.set_num_threads(num_threads);
  if (device_id >= 0) s.set_device_id(device_id);
  // Kokkos' advice on OMP_PROC_BIND is for whole programs, not for a module
  // imported into Python; KOKKOS_DISABLE_WARNINGS=0 shows it again.
  if (!std::getenv("KOKKOS_DISABLE_WARNINGS")) s.set_disable_warnings(true);
  Kokkos::initialize(s);
}

bool is_initialized() { return Kokkos::is_initialized(); }
bool is_finalized() { return finalized; }

namespace {
struct AllocationBase {
  virtual ~AllocationBase() = default;
  virtual void* data() const = 0;
  virtual void keep_forever() const = 0;
};
template <class Mem>
struct ViewAllocation final : AllocationBase {
  Kokkos::View<unsigned char*, Mem> view;
  explicit ViewAllocation(Kokkos::View<unsigned char*, Mem> v) : view(std::move(v)) {}
  void* data() const override { return view.data(); }
  void keep_forever() const override { new Kokkos::View<unsigned char*, Mem>(view); }
};
}  // namespace

struct Allocation {
  std::unique_ptr<AllocationBase> impl;
};

void finalize() {
  Lock l;
  if (finalized || !Kokkos::is_initialized()) {
    finalized = true;
    return;
  }
  for (Finalizable* f : std::vector<Finalizable*>(finalizables().begin(), finalizables().end()))
    f->drop();
  release_stream_instances();
  for (Allocation* a : allocations()) a->impl->keep_forever();
  Kokkos::fence("tilekit python: finalize");
  finalized = true;
  Kokkos::finalize();
}

std::vector<std::string> spaces() {
  std::vector<std::string> s;
#if defined(KOKKOS_ENABLE_CUDA)
  s.push_back(Kokkos::Cuda::name());
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  s.push_back(Kokkos::OpenMP::name());
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
  s.push_back(Kokkos::Serial::name());
#endif
  return s;
}

std::string kokkos_version() {
  return std::to_string(KOKKOS_VERSION / 10000) + "." + std::to_string(KOKKOS_VERSION / 100 % 100) +
         "." + std::to_string(KOKKOS_VERSION % 100);
}

int host_concurrency() {
  initialize();
  return HostExec().concurrency();
}

int cuda_device() {
#if defined(KOKKOS_ENABLE_CUDA)
  initialize();
  return Kokkos::Cuda().cuda_device();
#else
  return -1;
#endif
}

// -------------------------------------------------------------- allocations
Allocation* allocate(Device device, std::size_t bytes, Stream stream) {
  Lock l;
  initialize();
  auto a = std::make_unique<Allocation>();
  with_exec(device, stream, [&](const auto& exec) {
    using Mem = typename std::decay_t<decltype(exec)>::memory_space;
    a->impl = std::make_unique<ViewAllocation<Mem>>(Kokkos::View<unsigned char*, Mem>(
        Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "tilekit python output"), bytes));
  });
  allocations().insert(a.get());
  return a.release();
}

void* allocation_data(const Allocation* a) { return a->impl->data(); }

void release(Allocation* a) {
  Lock l;
  allocations().erase(a);
  delete a;
}

}  // namespace tilekit::python
