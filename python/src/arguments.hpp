#pragma once
// The module's argument checks: each raises a Python TypeError or ValueError
// naming the argument and the problem, before anything is written.
#include "bridge.hpp"
#include "dlpack_io.hpp"

#include <pybind11/pybind11.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace tilekit::python::args {

namespace py = pybind11;

[[noreturn]] inline void value_error(const std::string& m) { throw py::value_error("tilekit: " + m); }

inline std::vector<int> normalise_axes(py::object axes, int ndim, const char* where) {
  std::vector<int> p;
  if (axes.is_none()) {
    for (int d = ndim - 1; d >= 0; --d) p.push_back(d);  // numpy.transpose's default
    return p;
  }
  for (py::handle h : axes) {
    int v = h.cast<int>();
    if (v < 0) v += ndim;
    p.push_back(v);
  }
  std::vector<int> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> iota(ndim);
  std::iota(iota.begin(), iota.end(), 0);
  if (sorted != iota) {
    std::string s;
    for (py::handle h : axes) s += (s.empty() ? "" : ", ") + std::string(py::str(h));
    value_error(std::string(where) + ": axes (" + s + ") are not a permutation of the " +
                std::to_string(ndim) + " axes of the input");
  }
  return p;
}

inline void require_rank(const Array& a, const char* where) {
  if (a.ndim < 1) value_error(std::string(where) + ": the input has rank 0; it needs rank 1 to 8");
}

inline void require_same(const Array& a, const Array& out, const char* where) {
  if (a.dtype != out.dtype)
    throw py::type_error(std::string("tilekit: ") + where + ": out has dtype " +
                         dtype_name(out.dtype) + ", the input " + dtype_name(a.dtype));
  if (a.device != out.device || a.device_id != out.device_id)
    value_error(std::string(where) + ": the input is on " + device_string(a) + " and out on " +
                device_string(out));
}

/// Disjoint address ranges (strided arrays: from their lowest to their
/// highest element, so interleaved views of one array count as sharing).
inline void require_disjoint(const Array& a, const Array& out, const char* where) {
  if (a.size() == 0 || out.size() == 0) return;
  const auto [a0, a1] = a.extent_bytes();
  const auto [o0, o1] = out.extent_bytes();
  if (a0 < o1 && o0 < a1)
    value_error(std::string(where) + ": out shares memory with the input; pass a separate array "
                "(or use transpose_inplace for a square matrix)");
}

inline Array permuted(const Array& a, const std::vector<int>& axes) {
  Array o = a;
  for (int d = 0; d < a.ndim; ++d) o.shape[d] = a.shape[axes[d]];
  o.set_contiguous(false);
  return o;
}

inline void require_shape(const Array& out, const Array& want, const char* where) {
  bool ok = out.ndim == want.ndim;
  for (int d = 0; ok && d < want.ndim; ++d) ok = out.shape[d] == want.shape[d];
  if (!ok)
    value_error(std::string(where) + ": out has shape " + shape_string(out) + ", expected " +
                shape_string(want));
}

/// alpha, beta representable in the array's type; other than 1 and 0 only
/// for the dtypes that scale (dtype_scales: the move-only ones are moved).
inline std::complex<double> check_scalar(std::complex<double> z, Dtype t, const char* what,
                                  const char* where) {
  const bool identity = z == (std::string(what) == "alpha" ? 1.0 : 0.0);
  if (!identity && !dtype_scales(t))
    throw py::type_error(std::string("tilekit: ") + where + ": " + what + " is " +
                         (std::string(what) == "alpha" ? "not 1" : "not 0") + "; " +
                         dtype_name(t) + " arrays are moved only (alpha = 1, beta = 0): alpha "
                         "and beta take int32, int64, float32, float64, complex64, complex128" +
                         (dtype_scales(Dtype::float16) ? ", float16 and bfloat16" : "") +
                         " arrays");
  const bool complex = t == Dtype::complex64 || t == Dtype::complex128;
  const bool integral = t == Dtype::int32 || t == Dtype::int64;
  if (!complex && z.imag() != 0)
    throw py::type_error(std::string("tilekit: ") + where + ": " + what + " is complex for a " +
                         dtype_name(t) + " array");
  if (integral && z.real() != static_cast<double>(static_cast<std::int64_t>(z.real())))
    throw py::type_error(std::string("tilekit: ") + where + ": " + what +
                         " must be an integer for a " + dtype_name(t) + " array");
  return z;
}

inline std::optional<Stream> stream_of(py::object s) {
  if (s.is_none()) return std::nullopt;
  return s.cast<Stream>();
}

/// Arrays that must be contiguous (C or F order) for an operation.
inline void require_contiguous(const Array& a, const char* name, const char* where) {
  if (!a.strided) return;
  std::string st;
  for (int d = 0; d < a.ndim; ++d) st += (d ? ", " : "") + std::to_string(a.strides[d]);
  value_error(std::string(where) + ": " + name + " with shape " + shape_string(a) +
              " and element strides (" + st + ") is not contiguous; " + where +
              " takes C- or F-contiguous arrays (permute and transpose take strided ones): "
              "numpy.ascontiguousarray(x), x.contiguous() or cupy.ascontiguousarray(x) make one");
}

/// The stream the Kokkos work runs on: the caller's on CUDA, none on the host.
/// A CUDA array must be on Kokkos' device (the first CUDA array a process
/// passes chooses it, unless tilekit.initialize(device_id=...) did).
inline Stream exec_stream(const Array& a, std::optional<Stream> s) {
  if (a.device != Device::cuda) return 0;
  int device = -1;
  {
    py::gil_scoped_release nogil;
    if (!is_initialized()) initialize(-1, a.device_id);
    device = cuda_device();
  }
  if (device < 0) value_error("the array is on " + device_string(a) + "; this module was built without CUDA");
  if (device != a.device_id)
    value_error("the array is on " + device_string(a) + ", tilekit's Kokkos runs on cuda:" +
                std::to_string(device));
  return s.value_or(0);
}

}  // namespace tilekit::python::args
