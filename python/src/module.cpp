// The tilekit Python module (tilekit._tilekit): the function calls,
// PermutePlan and the runtime queries, checked by arguments.hpp and planned
// through plan_cache.hpp. Stream choice and the conversion of outputs to the
// caller's framework live in tilekit/__init__.py.
#include "bridge.hpp"
#include "arguments.hpp"
#include "dlpack_io.hpp"
#include "plan_cache.hpp"

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <tilekit/config.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace tilekit::python;
using namespace tilekit::python::args;

namespace {

/// Runs a move plan (cached under `key`, or made now) with the GIL released.
template <class Make>
void run_move(const std::string& key, Make&& make, void* in, void* out, std::complex<double> alpha,
              std::complex<double> beta) {
  py::gil_scoped_release nogil;
  Lock l;
  initialize();
  PlanCache<MovePlan>::get().find(key, make).execute(in, out, alpha, beta);
}

/// The output of a move: `out_obj` taken and checked against `a` (device,
/// type, shape `want`, no overlap), or, when it is None, a new buffer of shape
/// `want` on a's device and stream.
template <class StreamArg>
void take_output(const Consumed& a, const py::object& out_obj, const Array& want,
                 const StreamArg& stream, const char* where, std::unique_ptr<Buffer>& buffer,
                 Consumed& out) {
  if (out_obj.is_none()) {
    buffer = std::make_unique<Buffer>(want, exec_stream(a.array, stream));
    out.array = buffer->array();
    return;
  }
  out = Consumed::take(out_obj, "out", stream, true);
  require_same(a.array, out.array, where);
  require_shape(out.array, want, where);
  require_disjoint(a.array, out.array, where);
}

// ---------------------------------------------------------------- functions
py::object permute(py::object a_obj, py::object axes_obj, py::object out_obj, std::complex<double> alpha,
                   std::complex<double> beta, py::object stream_obj) {
  const char* where = "permute";
  const auto stream = stream_of(stream_obj);
  Consumed a = Consumed::take(a_obj, "a", stream, false);
  require_rank(a.array, where);
  const std::vector<int> axes = normalise_axes(axes_obj, a.array.ndim, where);
  const Array want = permuted(a.array, axes);
  check_scalar(alpha, a.array.dtype, "alpha", where);
  check_scalar(beta, a.array.dtype, "beta", where);
  if (out_obj.is_none() && beta != 0.0)
    value_error("permute: beta != 0 needs out= (the output is read)");
  std::unique_ptr<Buffer> buffer;
  Consumed out;
  take_output(a, out_obj, want, stream, where, buffer, out);
  const Stream s = exec_stream(a.array, stream);
  const Array in = a.array, o = out.array;
  const bool scaled = alpha != 1.0 || beta != 0.0;
  run_move(key_of("permute", in, &o, axes, s, scaled),
           [&] { return plan_permute(in, o, axes, scaled, s); }, in.data, o.data, alpha, beta);
  if (buffer) return py::cast(std::move(buffer));
  return py::none();
}

py::object transpose(py::object a_obj, py::object out_obj, py::object stream_obj) {
  const char* where = "transpose";
  const auto stream = stream_of(stream_obj);
  Consumed a = Consumed::take(a_obj, "a", stream, false);
  if (a.array.ndim != 2)
    value_error("transpose: the input has rank " + std::to_string(a.array.ndim) +
                "; transpose takes matrices (use permute for other ranks)");
  const Array want = permuted(a.array, {1, 0});
  std::unique_ptr<Buffer> buffer;
  Consumed out;
  take_output(a, out_obj, want, stream, where, buffer, out);
  const Stream s = exec_stream(a.array, stream);
  const Array in = a.array, o = out.array;
  run_move(key_of("transpose", in, &o, {}, s), [&] { return plan_transpose(in, o, s); }, in.data,
           o.data, 1.0, 0.0);
  if (buffer) return py::cast(std::move(buffer));
  return py::none();
}

/// Returns whether `a` is F-ordered (the Python side then views the n x m
/// result with the same order).
bool transpose_inplace(py::object a_obj, py::object stream_obj) {
  const auto stream = stream_of(stream_obj);
  Consumed a = Consumed::take(a_obj, "a", stream, true);
  const Array& x = a.array;
  if (x.ndim != 2)
    value_error("transpose_inplace: needs a matrix (2-D array), got shape " + shape_string(x));
  require_contiguous(x, "a", "transpose_inplace");
  const Stream s = exec_stream(x, stream);
  run_move(key_of("transpose_inplace", x, nullptr, {}, s),
           [&] { return plan_transpose_inplace(x, s); }, x.data, nullptr, 1.0, 0.0);
  return x.fortran;
}

ReduceOp reduce_op(const std::string& op) {
  if (op == "sum") return ReduceOp::sum;
  if (op == "sum_compensated") return ReduceOp::sum_compensated;
  if (op == "min") return ReduceOp::min;
  if (op == "max") return ReduceOp::max;
  if (op == "argmin") return ReduceOp::argmin;
  if (op == "argmax") return ReduceOp::argmax;
  value_error("reduce: op \"" + op +
              "\" is not one of sum, sum_compensated, min, max, argmin, argmax");
}

py::object reduce(py::object a_obj, const std::string& op_name, py::object stream_obj) {
  const auto stream = stream_of(stream_obj);
  const ReduceOp op = reduce_op(op_name);
  Consumed a = Consumed::take(a_obj, "a", stream, false);
  const Array& x = a.array;
  if (x.dtype != Dtype::int32 && x.dtype != Dtype::int64 && x.dtype != Dtype::float32 &&
      x.dtype != Dtype::float64)
    throw py::type_error(std::string("tilekit: reduce: ") + dtype_name(x.dtype) +
                         " arrays are not supported (int32, int64, float32, float64)");
  require_contiguous(x, "a", "reduce");
  if (op == ReduceOp::sum_compensated && (x.dtype == Dtype::int32 || x.dtype == Dtype::int64))
    throw py::type_error(std::string("tilekit: reduce: sum_compensated is for float32 and float64 "
                                     "(integer sums are exact), got ") + dtype_name(x.dtype));
  if (x.size() == 0 && op != ReduceOp::sum && op != ReduceOp::sum_compensated)
    value_error("reduce: " + op_name + " of an empty array has no value");
  const Stream s = exec_stream(x, stream);
  ReduceResult r;
  {
    py::gil_scoped_release nogil;
    Lock l;
    initialize();
    r = PlanCache<tilekit::python::ReducePlan>::get()
            .find(key_of("reduce", x, nullptr, {static_cast<int>(op)}, s),
                  [&] { return plan_reduce(x, op, s); })
            .execute(x.data);
  }
  if (op == ReduceOp::argmin || op == ReduceOp::argmax) {
    std::int64_t i = r.index;
    if (x.fortran) {  // memory order -> C order, as numpy.argmin
      std::int64_t c = 0;
      std::array<std::int64_t, max_rank> idx{};
      for (int d = 0; d < x.ndim; ++d) idx[d] = i % x.shape[d], i /= x.shape[d];
      for (int d = 0; d < x.ndim; ++d) c = c * x.shape[d] + idx[d];
      i = c;
    }
    return py::int_(i);
  }
  if (r.integral) return py::int_(r.i);
  return py::float_(r.f);
}

// --------------------------------------------------------------- the plan
/// tilekit.PermutePlan: validated and prepared once for arrays like (a, out),
/// executed on any arrays of the same shapes, orders, dtype and device.
class PermutePlanObject final : public Finalizable {
 public:
  PermutePlanObject(py::object a_obj, py::object axes_obj, py::object out_obj, py::object stream_obj)
      : stream_(stream_of(stream_obj)) {
    const char* where = "PermutePlan";
    Consumed a = Consumed::take(a_obj, "a", stream_, false);
    require_rank(a.array, where);
    axes_ = normalise_axes(axes_obj, a.array.ndim, where);
    in_ = a.array;
    out_ = permuted(in_, axes_);
    if (!out_obj.is_none()) {
      Consumed out = Consumed::take(out_obj, "out", stream_, true);
      require_same(in_, out.array, where);
      require_shape(out.array, out_, where);
      require_disjoint(in_, out.array, where);
      out_ = out.array;
    } else {
      // Planning compares pointers only: one past the input stands for an output.
      out_.data = reinterpret_cast<void*>(in_.extent_bytes().second);
    }
    const Stream s = exec_stream(in_, stream_);
    py::gil_scoped_release nogil;
    Lock l;
    initialize();
    // Planned for any alpha and beta (a move-only dtype's: moves; float16 and
    // bfloat16 on a build with their own types: the arithmetic plan).
    plan_ = plan_permute(in_, out_, axes_, dtype_scales(in_.dtype), s);
  }

  py::object execute(py::object a_obj, py::object out_obj, std::complex<double> alpha,
                     std::complex<double> beta) {
    const char* where = "PermutePlan.execute";
    Consumed a = Consumed::take(a_obj, "a", stream_, false);
    require_like(a.array, in_, "a");
    check_scalar(alpha, in_.dtype, "alpha", where);
    check_scalar(beta, in_.dtype, "beta", where);
    std::unique_ptr<Buffer> buffer;
    Consumed out;
    if (out_obj.is_none()) {
      if (out_.fortran || out_.strided)
        value_error(std::string("PermutePlan.execute: the plan was made for ") +
                    (out_.strided ? "a strided" : "an F-ordered") + " out=; pass one");
      if (beta != 0.0) value_error("PermutePlan.execute: beta != 0 needs out= (the output is read)");
      buffer = std::make_unique<Buffer>(out_, exec_stream(in_, stream_));
      out.array = buffer->array();
    } else {
      out = Consumed::take(out_obj, "out", stream_, true);
      require_like(out.array, out_, "out");
      require_disjoint(a.array, out.array, where);
    }
    {
      py::gil_scoped_release nogil;
      Lock l;
      if (!plan_) throw std::runtime_error("tilekit: Kokkos has been finalized (interpreter exit)");
      plan_->execute(a.array.data, out.array.data, alpha, beta);
    }
    if (buffer) return py::cast(std::move(buffer));
    return py::none();
  }

  void drop() override { plan_.reset(); }

  std::vector<std::int64_t> shape() const { return {in_.shape.begin(), in_.shape.begin() + in_.ndim}; }
  std::vector<std::int64_t> out_shape() const {
    return {out_.shape.begin(), out_.shape.begin() + out_.ndim};
  }
  const std::vector<int>& axes() const { return axes_; }
  std::string dtype() const { return dtype_name(in_.dtype); }
  std::string device() const { return device_string(in_); }

 private:
  void require_like(const Array& x, const Array& planned, const char* name) const {
    const std::string n = std::string("PermutePlan.execute: ") + name;
    if (x.dtype != planned.dtype)
      throw py::type_error("tilekit: " + n + " has dtype " + dtype_name(x.dtype) +
                           ", the plan " + dtype_name(planned.dtype));
    if (x.device != planned.device || x.device_id != planned.device_id)
      value_error(n + " is on " + device_string(x) + ", the plan on " + device_string(planned));
    bool ok = x.ndim == planned.ndim;
    for (int d = 0; ok && d < x.ndim; ++d) ok = x.shape[d] == planned.shape[d];
    if (!ok) value_error(n + " has shape " + shape_string(x) + ", the plan " + shape_string(planned));
    auto order = [](const Array& a) {
      return a.strided ? std::string("strided") : std::string(a.fortran ? "F" : "C") + "-ordered";
    };
    if (x.size() > 0 && (x.fortran != planned.fortran || x.strided != planned.strided))
      value_error(n + " is " + order(x) + ", the plan's " + order(planned));
    for (int d = 0; x.size() > 0 && x.strided && d < x.ndim; ++d)
      if (x.shape[d] > 1 && x.strides[d] != planned.strides[d])
        value_error(n + " has element strides other than the plan's (axis " + std::to_string(d) +
                    ": " + std::to_string(x.strides[d]) + ", planned " +
                    std::to_string(planned.strides[d]) + ")");
  }

  std::optional<Stream> stream_;
  std::vector<int> axes_;
  Array in_, out_;
  std::unique_ptr<MovePlan> plan_;
};

}  // namespace

PYBIND11_MODULE(_tilekit, m) {
  m.doc() = "tilekit's kernels on DLPack arrays (see the tilekit package)";
  m.attr("__version__") = TILEKIT_VERSION_STRING;

  py::class_<Buffer>(m, "Buffer", py::buffer_protocol(),
                     "An output of tilekit: hand it to a framework's from_dlpack (done for you by "
                     "the tilekit functions). Exported once, without copies.")
      .def_buffer(&Buffer::buffer_info)
      .def("__dlpack__", &Buffer::dlpack, py::kw_only(), py::arg("stream") = py::none(),
           py::arg("max_version") = py::none(), py::arg("dl_device") = py::none(),
           py::arg("copy") = py::none())
      .def("__dlpack_device__", &Buffer::dlpack_device)
      .def_property_readonly("shape", [](const Buffer& b) {
        const Array& a = b.array();
        return std::vector<std::int64_t>(a.shape.begin(), a.shape.begin() + a.ndim);
      });

  m.def("permute", &permute, py::arg("a"), py::arg("axes"), py::arg("out"), py::arg("alpha"),
        py::arg("beta"), py::arg("stream"));
  m.def("transpose", &transpose, py::arg("a"), py::arg("out"), py::arg("stream"));
  m.def("transpose_inplace", &transpose_inplace, py::arg("a"), py::arg("stream"));
  m.def("reduce", &reduce, py::arg("a"), py::arg("op"), py::arg("stream"));

  py::class_<PermutePlanObject>(m, "PermutePlan")
      .def(py::init<py::object, py::object, py::object, py::object>(), py::arg("a"),
           py::arg("axes"), py::arg("out"), py::arg("stream"))
      .def("execute", &PermutePlanObject::execute, py::arg("a"), py::arg("out"),
           py::arg("alpha"), py::arg("beta"))
      .def_property_readonly("shape", &PermutePlanObject::shape)
      .def_property_readonly("out_shape", &PermutePlanObject::out_shape)
      .def_property_readonly("axes", &PermutePlanObject::axes)
      .def_property_readonly("dtype", &PermutePlanObject::dtype)
      .def_property_readonly("device", &PermutePlanObject::device);

  m.def("initialize", [](int num_threads, int device_id) {
        py::gil_scoped_release nogil;
        initialize(num_threads, device_id);
      }, py::arg("num_threads") = -1, py::arg("device_id") = -1);
  m.def("finalize", [] {
    py::gil_scoped_release nogil;
    finalize();
  });
  m.def("is_initialized", &is_initialized);
  m.def("is_finalized", &is_finalized);
  m.def("spaces", &spaces);
  m.def("kokkos_version", &kokkos_version);
  m.def("host_concurrency", [] {
    py::gil_scoped_release nogil;
    return host_concurrency();
  });
  m.def("cuda_device", [] {
    py::gil_scoped_release nogil;
    return cuda_device();
  });
  m.def("scaled_dtypes", [] {
    // The dtypes alpha and beta take: the arithmetic ones, and float16 and
    // bfloat16 where Kokkos has half_t and bhalf_t (the others are moved).
    std::vector<std::string> names;
    for (int d = 0; d < dtype_count; ++d)
      if (dtype_scales(static_cast<Dtype>(d))) names.push_back(dtype_name(static_cast<Dtype>(d)));
    return names;
  });
  m.def("release_cached_outputs", [] {
    py::gil_scoped_release nogil;
    release_cached_outputs();
  });
  m.def("cached_plans", [] {
    py::gil_scoped_release nogil;
    Lock l;
    return PlanCache<MovePlan>::get().size() + PlanCache<tilekit::python::ReducePlan>::get().size();
  });
}
