#include "dlpack_io.hpp"

#include <pybind11/stl.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace tilekit::python {

namespace {

[[noreturn]] void type_error(const std::string& m) { throw py::type_error("tilekit: " + m); }
[[noreturn]] void value_error(const std::string& m) { throw py::value_error("tilekit: " + m); }

// DLPack 0.8's boolean type code (PyTorch and CuPy export bool arrays with it;
// the 0.6 header may not name it).
constexpr std::uint8_t dl_bool = 6;

std::string dl_dtype_string(DLDataType t) {
  const char* kind = t.code == kDLInt     ? "int"
                     : t.code == kDLUInt  ? "uint"
                     : t.code == kDLFloat ? "float"
                     : t.code == kDLBfloat ? "bfloat"
                     : t.code == kDLComplex ? "complex"
                     : t.code == dl_bool ? "bool"
                                            : "code";
  std::string s = std::string(kind) + std::to_string(t.bits);
  if (t.code == kDLUInt && t.bits == 1) s = "bool";
  if (t.lanes != 1) s += "x" + std::to_string(t.lanes);
  return s;
}

constexpr const char* taken_dtypes =
    "tilekit takes bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, "
    "bfloat16, float32, float64, complex64 and complex128";

Dtype to_dtype(DLDataType t, const char* name) {
  if (t.lanes == 1) {
    if (t.code == kDLInt && t.bits == 8) return Dtype::int8;
    if (t.code == kDLInt && t.bits == 16) return Dtype::int16;
    if (t.code == kDLInt && t.bits == 32) return Dtype::int32;
    if (t.code == kDLInt && t.bits == 64) return Dtype::int64;
    if (t.code == kDLUInt && t.bits == 8) return Dtype::uint8;
    if (t.code == kDLUInt && t.bits == 16) return Dtype::uint16;
    if (t.code == kDLUInt && t.bits == 32) return Dtype::uint32;
    if (t.code == kDLUInt && t.bits == 64) return Dtype::uint64;
    if (t.code == dl_bool && t.bits == 8) return Dtype::bool_;
    if (t.code == kDLFloat && t.bits == 16) return Dtype::float16;
    if (t.code == kDLBfloat && t.bits == 16) return Dtype::bfloat16;
    if (t.code == kDLFloat && t.bits == 32) return Dtype::float32;
    if (t.code == kDLFloat && t.bits == 64) return Dtype::float64;
    if (t.code == kDLComplex && t.bits == 64) return Dtype::complex64;
    if (t.code == kDLComplex && t.bits == 128) return Dtype::complex128;
  }
  type_error(std::string(name) + " has dtype " + dl_dtype_string(t) + "; " + taken_dtypes);
}

DLDataType dl_type_of(Dtype d) {
  auto dl = [](std::uint8_t code, int bits) { return DLDataType{code, static_cast<std::uint8_t>(bits), 1}; };
  switch (d) {
    case Dtype::int32: return dl(kDLInt, 32);
    case Dtype::int64: return dl(kDLInt, 64);
    case Dtype::float32: return dl(kDLFloat, 32);
    case Dtype::float64: return dl(kDLFloat, 64);
    case Dtype::complex64: return dl(kDLComplex, 64);
    case Dtype::complex128: return dl(kDLComplex, 128);
    case Dtype::bool_: return dl(dl_bool, 8);
    case Dtype::int8: return dl(kDLInt, 8);
    case Dtype::uint8: return dl(kDLUInt, 8);
    case Dtype::int16: return dl(kDLInt, 16);
    case Dtype::uint16: return dl(kDLUInt, 16);
    case Dtype::uint32: return dl(kDLUInt, 32);
    case Dtype::uint64: return dl(kDLUInt, 64);
    case Dtype::float16: return dl(kDLFloat, 16);
    case Dtype::bfloat16: return dl(kDLBfloat, 16);
  }
  return dl(kDLUInt, 8);
}

/// The buffer protocol's struct format of a dtype (NumPy's; bfloat16 has
/// none: tilekit/__init__.py passes NumPy's ml_dtypes.bfloat16 as uint16).
const char* format_of(Dtype d) {
  switch (d) {
    case Dtype::int32: return "i";
    case Dtype::int64: return "q";
    case Dtype::float32: return "f";
    case Dtype::float64: return "d";
    case Dtype::complex64: return "Zf";
    case Dtype::complex128: return "Zd";
    case Dtype::bool_: return "?";
    case Dtype::int8: return "b";
    case Dtype::uint8: return "B";
    case Dtype::int16: return "h";
    case Dtype::uint16: return "H";
    case Dtype::uint32: return "I";
    case Dtype::uint64: return "Q";
    case Dtype::float16: return "e";
    case Dtype::bfloat16: return "H";
  }
  return "B";
}

/// struct format of the buffer protocol -> DLPack type (native byte order only).
DLDataType format_dtype(const std::string& f, py::ssize_t itemsize, const char* name) {
  std::string c = f;
  if (!c.empty() && (c[0] == '@' || c[0] == '=' || c[0] == '<')) c = c.substr(1);
  auto dl = [](uint8_t code, py::ssize_t bytes) {
    return DLDataType{code, static_cast<uint8_t>(8 * bytes), 1};
  };
  if (c == "?" && itemsize == 1) return dl(dl_bool, 1);
  if (c == "e" && itemsize == 2) return dl(kDLFloat, 2);
  if (c == "f" || c == "d") return dl(kDLFloat, itemsize);
  if (c == "Zf" || c == "Zd") return dl(kDLComplex, itemsize);
  // C's integer letters: the size is the item size (l is 4 or 8 bytes).
  if (c.size() == 1 && std::string("bhilq").find(c[0]) != std::string::npos) return dl(kDLInt, itemsize);
  if (c.size() == 1 && std::string("BHILQ").find(c[0]) != std::string::npos) return dl(kDLUInt, itemsize);
  type_error(std::string(name) + " has an unsupported dtype (buffer format '" + f + "'); " +
             taken_dtypes);
}

std::string strides_string(const std::int64_t* strides, int ndim) {
  std::string st;
  for (int d = 0; d < ndim; ++d) st += (d ? ", " : "") + std::to_string(strides[d]);
  return "(" + st + (ndim == 1 ? ",)" : ")");
}

/// Fills the layout of `a` from extents and element strides (null: C order):
/// C- or F-contiguous, or strided. The kernels take any strides whose
/// elements are distinct (every axis of extent > 1 steps over all the axes of
/// smaller step, as any view of a contiguous array does); negative ones are
/// checked where an operation pairs the axes of its arrays (ops.hpp).
void set_layout(Array& a, const std::int64_t* shape, const std::int64_t* strides, int ndim,
                const char* name) {
  if (ndim > max_rank)
    value_error(std::string(name) + " has rank " + std::to_string(ndim) +
                "; tilekit takes ranks up to 8");
  a.ndim = ndim;
  for (int d = 0; d < ndim; ++d) {
    if (shape[d] < 0) value_error(std::string(name) + " has a negative extent");
    a.shape[d] = shape[d];
  }
  a.set_contiguous(false);
  if (!strides || a.size() == 0) return;
  bool c = true, f = true;
  std::int64_t s = 1;
  for (int d = ndim - 1; d >= 0; --d) {
    if (shape[d] != 1 && strides[d] != s) c = false;
    s *= shape[d];
  }
  s = 1;
  for (int d = 0; d < ndim; ++d) {
    if (shape[d] != 1 && strides[d] != s) f = false;
    s *= shape[d];
  }
  if (c) return;
  if (f) return a.set_contiguous(true);
  a.strided = true;
  a.fortran = false;
  for (int d = 0; d < ndim; ++d) a.strides[d] = shape[d] == 1 ? 1 : strides[d];
  // Distinct elements (the library's rule): sorted by |stride|, each axis of
  // extent > 1 steps past the last element the axes before it reach
  // (broadcast views, stride 0, and overlapping as_strided windows do not).
  std::array<int, max_rank> order{};
  int k = 0;
  for (int d = 0; d < ndim; ++d)
    if (shape[d] > 1) order[k++] = d;
  for (int i = 1; i < k; ++i)  // insertion sort by |stride| (rank <= 8)
    for (int j = i; j > 0 && std::abs(strides[order[j]]) < std::abs(strides[order[j - 1]]); --j)
      std::swap(order[j], order[j - 1]);
  std::int64_t span = 1;
  for (int i = 0; i < k; ++i) {
    const int d = order[i];
    if (std::abs(strides[d]) < span) {
      const std::string why = strides[d] == 0
                                  ? " repeats elements along axis " + std::to_string(d) +
                                        " (stride 0: a broadcast view)"
                                  : " has overlapping axes (axis " + std::to_string(d) + ")";
      value_error(std::string(name) + " with shape " + shape_string(a) + " and element strides " +
                  strides_string(strides, ndim) + why +
                  "; tilekit takes arrays whose elements are distinct: "
                  "numpy.ascontiguousarray(x), x.contiguous() or cupy.ascontiguousarray(x) make one");
    }
    span += (shape[d] - 1) * std::abs(strides[d]);
  }
}

void check_alignment(const Array& a, const char* name) {
  const std::size_t al = dtype_align(a.dtype);
  if (a.size() > 0 && reinterpret_cast<std::uintptr_t>(a.data) % al != 0)
    value_error(std::string(name) + " (" + dtype_name(a.dtype) + ") starts at an address that is "
                "not a multiple of " + std::to_string(al) + " bytes; pass an aligned copy");
}

void delete_capsule(PyObject* cap) {
  // Still named "dltensor": nobody consumed it, so its deleter is ours to call.
  if (PyCapsule_IsValid(cap, "dltensor")) {
    auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, "dltensor"));
    if (t && t->deleter) t->deleter(t);
  }
}

struct Export {
  DLManagedTensor managed{};
  std::array<std::int64_t, max_rank> shape{}, strides{};
  Allocation* allocation = nullptr;
};

void delete_export(DLManagedTensor* t) {
  auto* e = static_cast<Export*>(t->manager_ctx);
  release(e->allocation);  // no Python here: consumers may call this from any thread
  delete e;
}

}  // namespace

std::string shape_string(const Array& a) {
  std::string s = "(";
  for (int d = 0; d < a.ndim; ++d) s += (d ? ", " : "") + std::to_string(a.shape[d]);
  return s + (a.ndim == 1 ? ",)" : ")");
}

std::string device_string(const Array& a) {
  return a.device == Device::host ? "cpu" : "cuda:" + std::to_string(a.device_id);
}

// ---------------------------------------------------------------- Consumed
Consumed::Consumed(Consumed&& o) noexcept
    : array(o.array), readonly(o.readonly), owner(std::move(o.owner)),
      managed_(std::exchange(o.managed_, nullptr)), buffer_(std::move(o.buffer_)) {}

Consumed& Consumed::operator=(Consumed&& o) noexcept {
  std::swap(array, o.array);
  std::swap(readonly, o.readonly);
  std::swap(owner, o.owner);
  std::swap(managed_, o.managed_);
  std::swap(buffer_, o.buffer_);
  return *this;
}

Consumed::~Consumed() {
  if (managed_ && managed_->deleter) managed_->deleter(managed_);
}

Consumed Consumed::take(py::handle obj, const char* name, std::optional<Stream> stream,
                        bool writable) {
  Consumed c;
  c.owner = py::reinterpret_borrow<py::object>(obj);
  const bool has_dlpack = py::hasattr(obj, "__dlpack__") && py::hasattr(obj, "__dlpack_device__");
  if (!has_dlpack && !PyObject_CheckBuffer(obj.ptr()))
    type_error(std::string(name) + " is a " + std::string(py::str(py::type::of(obj).attr("__name__"))) +
               ", not an array: tilekit takes NumPy (>= 1.22), CuPy and PyTorch arrays "
               "(objects with __dlpack__)");
  py::object capsule;
  if (has_dlpack) {
    const auto dev = obj.attr("__dlpack_device__")().cast<std::pair<int, int>>();
    if (dev.first == kDLCUDA || dev.first == kDLCUDAManaged) {
      // DLPack: 1 names the legacy default stream (0 is not allowed).
      const Stream s = stream.value_or(0);
      capsule = obj.attr("__dlpack__")(py::arg("stream") = (s == 0 ? Stream(1) : s));
    } else if (dev.first == kDLCPU || dev.first == kDLCUDAHost) {
      try {
        capsule = obj.attr("__dlpack__")();
      } catch (py::error_already_set& e) {
        // NumPy refuses to export read-only arrays, and bool ones, through
        // DLPack 0.6: the buffer protocol gives the same memory.
        if (!e.matches(PyExc_BufferError) || !PyObject_CheckBuffer(obj.ptr())) throw;
        const py::object flags = py::getattr(obj, "flags", py::none());
        if (writable && !flags.is_none() && !py::getattr(flags, "writeable", py::bool_(true)).cast<bool>())
          value_error(std::string(name) + " is read-only (" + std::string(py::str(e.value())) +
                      ")");
      }
    } else {
      value_error(std::string(name) + " is on DLPack device type " + std::to_string(dev.first) +
                  "; tilekit takes CPU and CUDA arrays");
    }
  }
  if (capsule) {
    PyObject* cap = capsule.ptr();
    if (!PyCapsule_IsValid(cap, "dltensor"))
      type_error(std::string(name) + ".__dlpack__() did not return an unused \"dltensor\" capsule");
    c.managed_ = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, "dltensor"));
    PyCapsule_SetName(cap, "used_dltensor");  // ours now: the producer's capsule destructor skips it
    const DLTensor& t = c.managed_->dl_tensor;
    Array& a = c.array;
    a.dtype = to_dtype(t.dtype, name);
    a.device = (t.device.device_type == kDLCUDA || t.device.device_type == kDLCUDAManaged)
                   ? Device::cuda
                   : Device::host;
    a.device_id = t.device.device_id;
    a.data = static_cast<char*>(t.data) + t.byte_offset;
    set_layout(a, t.shape, t.strides, t.ndim, name);
  } else {
    try {
      c.buffer_ = std::make_unique<py::buffer_info>(
          py::reinterpret_borrow<py::buffer>(obj).request(writable));
    } catch (py::error_already_set& e) {
      // Neither DLPack nor the buffer protocol: a dtype that neither carries
      // (NumPy's datetime64, strings, objects).
      if (!has_dlpack || !py::hasattr(obj, "dtype")) throw;
      type_error(std::string(name) + " has dtype " + std::string(py::str(obj.attr("dtype"))) +
                 " (" + std::string(py::str(e.value())) + "); " + taken_dtypes);
    }
    const py::buffer_info& b = *c.buffer_;
    Array& a = c.array;
    a.dtype = to_dtype(format_dtype(b.format, b.itemsize, name), name);
    a.data = b.ptr;
    c.readonly = b.readonly;
    if (b.ndim > max_rank)
      value_error(std::string(name) + " has rank " + std::to_string(b.ndim) +
                  "; tilekit takes ranks up to 8");
    std::array<std::int64_t, max_rank> shape{}, strides{};
    for (py::ssize_t d = 0; d < b.ndim; ++d) {
      shape[d] = b.shape[d];
      if (b.strides[d] % b.itemsize != 0)
        value_error(std::string(name) + " has strides that are not multiples of its item size");
      strides[d] = b.strides[d] / b.itemsize;
    }
    set_layout(a, shape.data(), strides.data(), static_cast<int>(b.ndim), name);
  }
  if (writable && c.readonly) value_error(std::string(name) + " is read-only");
  check_alignment(c.array, name);
  return c;
}

// ------------------------------------------------------------------ Buffer
Buffer::Buffer(Array shape_like, Stream stream) : array_(shape_like), stream_(stream) {
  array_.set_contiguous(false);
  {
    py::gil_scoped_release nogil;
    allocation_ = allocate(array_.device, std::max<std::size_t>(array_.bytes(), 16), stream_);
  }
  array_.data = allocation_data(allocation_);
}

Buffer::~Buffer() {
  if (allocation_) release(allocation_);
}

py::buffer_info Buffer::buffer_info() {
  if (array_.device != Device::host || !allocation_)
    throw py::buffer_error("tilekit: only host outputs that were not exported are buffers");
  const auto item = static_cast<py::ssize_t>(dtype_size(array_.dtype));
  std::vector<py::ssize_t> shape(array_.ndim), strides(array_.ndim);
  py::ssize_t s = item;
  for (int d = array_.ndim - 1; d >= 0; --d) {
    shape[d] = array_.shape[d];
    strides[d] = s;
    s *= array_.shape[d];
  }
  return py::buffer_info(array_.data, item, format_of(array_.dtype), array_.ndim,
                         shape, strides, /*readonly=*/false);
}

py::tuple Buffer::dlpack_device() const {
  return py::make_tuple(array_.device == Device::host ? int(kDLCPU) : int(kDLCUDA),
                        array_.device_id);
}

py::capsule Buffer::dlpack(py::object stream, py::object max_version, py::object dl_device,
                           py::object copy) {
  (void)max_version;  // DLPack 0.6: always the unversioned capsule
  if (!allocation_) throw py::buffer_error("tilekit: this output was already exported");
  if (!copy.is_none() && copy.cast<bool>())
    throw py::buffer_error("tilekit: outputs are exported without copies (copy=True)");
  if (!dl_device.is_none() && !dl_device.equal(dlpack_device()))
    throw py::buffer_error("tilekit: the output lives on " + device_string(array_));
  if (array_.device == Device::cuda) {
    // None: the consumer works on the legacy default stream; -1: no ordering.
    // 0 is not a DLPack stream number; taken, like None, as the legacy default.
    const Stream consumer = stream.is_none() ? Stream(1) : stream.cast<Stream>();
    stream_wait(stream_, consumer);
  }
  auto* e = new Export;
  e->allocation = std::exchange(allocation_, nullptr);
  std::int64_t s = 1;
  for (int d = array_.ndim - 1; d >= 0; --d) {
    e->shape[d] = array_.shape[d];
    e->strides[d] = s;
    s *= array_.shape[d];
  }
  DLTensor& t = e->managed.dl_tensor;
  t.data = array_.data;
  t.device = {array_.device == Device::host ? kDLCPU : kDLCUDA, array_.device_id};
  t.ndim = array_.ndim;
  t.dtype = dl_type_of(array_.dtype);
  t.shape = e->shape.data();
  t.strides = e->strides.data();
  t.byte_offset = 0;
  e->managed.manager_ctx = e;
  e->managed.deleter = delete_export;
  PyObject* cap = PyCapsule_New(&e->managed, "dltensor", delete_capsule);
  if (!cap) {
    delete_export(&e->managed);
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::capsule>(cap);
}

}  // namespace tilekit::python
