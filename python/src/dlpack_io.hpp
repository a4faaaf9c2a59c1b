#pragma once
// DLPack on the Python side of the module (no Kokkos here): arrays in, by
// consuming a producer's "dltensor" capsule (or, for read-only host arrays
// that NumPy will not export through DLPack 0.6, the buffer protocol), and
// outputs out, as a Buffer object whose __dlpack__ hands a Kokkos View
// allocation to the caller's framework.
#include "bridge.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/buffer_info.h>

#include <dlpack/dlpack.h>

#include <memory>
#include <optional>
#include <string>

namespace tilekit::python {

namespace py = pybind11;

/// An array taken from a Python object for the duration of one call: the
/// producer's DLManagedTensor (its deleter runs when this is destroyed) or
/// the Py_buffer, and the reference to the producer.
class Consumed {
 public:
  Consumed() = default;
  Consumed(Consumed&&) noexcept;
  Consumed& operator=(Consumed&&) noexcept;
  ~Consumed();

  Array array;
  bool readonly = false;
  py::object owner;

  /// The consumption itself; `name` names the argument in error messages.
  /// CUDA producers are asked to make the data ready on `stream`.
  static Consumed take(py::handle obj, const char* name, std::optional<Stream> stream,
                       bool writable);

 private:
  DLManagedTensor* managed_ = nullptr;
  std::unique_ptr<py::buffer_info> buffer_;
};

/// An output allocated by the module, exported once through __dlpack__.
class Buffer {
 public:
  Buffer(Array shape_like, Stream stream);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const Array& array() const { return array_; }
  py::capsule dlpack(py::object stream, py::object max_version, py::object dl_device,
                     py::object copy);
  py::tuple dlpack_device() const;
  /// Host outputs are also writable Python buffers: NumPy marks arrays made
  /// by from_dlpack of an unversioned (0.6) capsule read-only, so the module
  /// gives NumPy the same memory through the buffer protocol instead.
  py::buffer_info buffer_info();

 private:
  Array array_;
  Stream stream_;
  Allocation* allocation_;  ///< null once exported
};

/// "(2, 3, 4)"
std::string shape_string(const Array& a);
/// "cpu" or "cuda:0"
std::string device_string(const Array& a);

}  // namespace tilekit::python
