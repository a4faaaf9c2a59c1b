// Kokkos' lifetime inside a Python process: initialised on first use (or by
// tilekit.initialize), finalised at interpreter exit. Kokkos aborts when a
// View is deallocated after finalize, and a NumPy or PyTorch array may hold an
// output of ours past that point; so finalize() first drops every plan, then
// gives each live output allocation one more reference that is never
// released (the process is ending: the memory stays valid for those arrays),
// and only then finalises Kokkos.
#include "bridge.hpp"
#include "spaces.hpp"

#include <tilekit/fresh_output.hpp>

#include <cstdint>
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
  std::size_t offset;  ///< where the output starts in the view
  ViewAllocation(Kokkos::View<unsigned char*, Mem> v, std::size_t off)
      : view(std::move(v)), offset(off) {}
  void* data() const override { return view.data() + offset; }
  void keep_forever() const override { new Kokkos::View<unsigned char*, Mem>(view); }
};
}  // namespace

struct Allocation {
  std::unique_ptr<AllocationBase> impl;
  std::size_t bytes = 0;  ///< as asked for
  bool host = false;
};

namespace {
// The last few large host outputs released, kept for the next output of the
// same size: a loop that makes a new output per call (tilekit.transpose(a),
// the result dropped before the next call) then writes into mapped memory
// as a reused out= does, without the fresh pages' zeroing. At most
// pool_entries buffers of at most pool_bytes in all, so what the pool holds
// stays bounded by a couple of the outputs the program made last; emptied at
// finalize (before Kokkos is), and by tilekit.release_cached_outputs().
constexpr std::size_t pool_entries = 2;
constexpr std::size_t pool_bytes = std::size_t(1) << 30;
struct Pooled {
  std::size_t bytes;
  std::unique_ptr<AllocationBase> impl;
};
std::vector<Pooled>& pool() {
  static auto* p = new std::vector<Pooled>();  // leaked, as the sets above
  return *p;
}
}  // namespace

void release_cached_outputs() {
  Lock l;
  pool().clear();
}

void finalize() {
  Lock l;
  if (finalized || !Kokkos::is_initialized()) {
    finalized = true;
    return;
  }
  for (Finalizable* f : std::vector<Finalizable*>(finalizables().begin(), finalizables().end()))
    f->drop();
  release_stream_instances();
  pool().clear();
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
  a->bytes = bytes;
  a->host = device == Device::host;
  if (a->host) {
    auto& p = pool();
    for (auto it = p.begin(); it != p.end(); ++it)
      if (it->bytes == bytes) {
        a->impl = std::move(it->impl);
        p.erase(it);
        allocations().insert(a.get());
        return a.release();
      }
  }
  with_exec(device, stream, [&](const auto& exec) {
    using Exec = std::decay_t<decltype(exec)>;
    using Mem = typename Exec::memory_space;
    constexpr bool host = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;
    // A large host output starts on a 2 MiB boundary (the allocation has
    // that much more, never written, so never mapped): all of it can then
    // be huge pages, none of it 4 KiB pages faulted one by one.
    constexpr std::size_t huge = backends::host_huge_page;
    const std::size_t slack = host && bytes >= huge ? huge : 0;
    Kokkos::View<unsigned char*, Mem> v(
        Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "tilekit python output"),
        bytes + slack);
    const auto at = reinterpret_cast<std::uintptr_t>(v.data());
    const std::size_t offset = slack ? (huge - at % huge) % huge : 0;
    // A host output is mapped before the kernel writes it: faults taken in the
    // kernel's transposed write order cost many times those of this parallel
    // pass (fresh_output.hpp).
    if constexpr (host) first_touch(exec, v.data() + offset, bytes);
    a->impl = std::make_unique<ViewAllocation<Mem>>(std::move(v), offset);
  });
  allocations().insert(a.get());
  return a.release();
}

void* allocation_data(const Allocation* a) { return a->impl->data(); }

void release(Allocation* a) {
  Lock l;
  allocations().erase(a);
  if (a->host && !finalized && a->bytes >= backends::host_huge_page && a->bytes <= pool_bytes) {
    auto& p = pool();
    p.push_back({a->bytes, std::move(a->impl)});
    std::size_t held = 0;
    for (const Pooled& e : p) held += e.bytes;
    while (p.size() > pool_entries || held > pool_bytes) {  // the oldest go first
      held -= p.front().bytes;
      p.erase(p.begin());
    }
  }
  delete a;
}

}  // namespace tilekit::python
