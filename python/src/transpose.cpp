// tilekit.transpose and tilekit.transpose_inplace: the transpose family's
// plans on row-major views. A transpose between arrays of different orders
// (C in, F out, or the reverse) is a copy in memory: it goes to the permute
// plan, which fuses it into one; so does a transpose of strided arrays.
#include "ops.hpp"

#include <tilekit/transpose.hpp>

namespace tilekit::python {

namespace {

template <class Exec, class T>
class TransposeRun final : public MovePlan {
 public:
  TransposeRun(const Exec& exec, std::size_t rows, std::size_t cols, const void* in, void* out)
      : exec_(exec), rows_(rows), cols_(cols),
        plan_(exec, in_view(in), out_view(out), TransposeVariant::tiled_padded, options()) {}

  void execute(void* in, void* out, std::complex<double>, std::complex<double>) override {
    plan_.execute(in_view(in), out_view(out));
    finish_on_host(exec_);
  }

 private:
  static TransposeOptions options() {
    TransposeOptions o;
    o.label = "tilekit::python::transpose";
    return o;
  }
  Unmanaged<T, Exec, const T**> in_view(const void* d) const {
    return Unmanaged<T, Exec, const T**>(static_cast<const T*>(d), rows_, cols_);
  }
  Unmanaged<T, Exec, T**> out_view(void* d) const {
    return Unmanaged<T, Exec, T**>(static_cast<T*>(d), cols_, rows_);
  }

  Exec exec_;
  std::size_t rows_, cols_;
  TransposePlan<Exec, T> plan_;
};

template <class Exec, class T>
class InplaceRun final : public MovePlan {
 public:
  /// A rows x cols row-major matrix in memory (an F array: its extents
  /// swapped); `a` the array the plan is made on.
  InplaceRun(const Exec& exec, std::size_t rows, std::size_t cols, void* a)
      : exec_(exec), rows_(rows), cols_(cols),
        plan_(exec, view(a), InplaceVariant::blocked, options()) {}

  void execute(void* a, void*, std::complex<double>, std::complex<double>) override {
    plan_.execute(view(a));
    finish_on_host(exec_);
  }

 private:
  static TransposeOptions options() {
    TransposeOptions o;
    o.label = "tilekit::python::transpose_inplace";
    return o;
  }
  Unmanaged<T, Exec, T**> view(void* d) const {
    return Unmanaged<T, Exec, T**>(static_cast<T*>(d), rows_, cols_);
  }

  Exec exec_;
  std::size_t rows_, cols_;
  InplaceTransposePlan<Exec, T> plan_;
};

}  // namespace

std::unique_ptr<MovePlan> plan_transpose(const Array& in, const Array& out, Stream stream) {
  if (in.strided || out.strided) return plan_permute(in, out, {1, 0}, false, stream);
  const RowMajorProblem p = row_major(in, out, {1, 0});
  if (p.core() != std::vector<int>{1, 0}) return plan_row_major_permute(in, out, p, false, stream);
  return with_exec(in.device, stream, [&](const auto& exec) {
    return with_plan_type(in.dtype, false, [&](auto t) -> std::unique_ptr<MovePlan> {
      using Exec = std::decay_t<decltype(exec)>;
      return std::make_unique<TransposeRun<Exec, decltype(t)>>(exec, p.in[6], p.in[7], in.data,
                                                                out.data);
    });
  });
}

std::unique_ptr<MovePlan> plan_transpose_inplace(const Array& a, Stream stream) {
  // An m x n F array is an n x m C matrix in memory; transposing that in
  // place leaves the n x m F transpose (for a square one, the same motion).
  const auto m = static_cast<std::size_t>(a.shape[0]), n = static_cast<std::size_t>(a.shape[1]);
  return with_exec(a.device, stream, [&](const auto& exec) {
    return with_plan_type(a.dtype, false, [&](auto t) -> std::unique_ptr<MovePlan> {
      using Exec = std::decay_t<decltype(exec)>;
      return std::make_unique<InplaceRun<Exec, decltype(t)>>(exec, a.fortran ? n : m,
                                                             a.fortran ? m : n, a.data);
    });
  });
}

}  // namespace tilekit::python
