// tilekit.permute (and copies of any order): one PermutePlan per execution
// space and value type, on rank-8 row-major views (contiguous arrays: the
// fast path) or rank-8 LayoutStride views (strided arrays).
#include "ops.hpp"

#include <tilekit/permute.hpp>

namespace tilekit::python {

namespace {

PermuteOptions permute_options() {
  PermuteOptions o;
  o.label = "tilekit::python::permute";
  return o;
}

template <class Exec, class T>
class PermuteRun final : public MovePlan {
  using In = Unmanaged<T, Exec, const T********>;
  using Out = Unmanaged<T, Exec, T********>;
  using S = typename PermutePlan<Exec, T>::scalar_type;

 public:
  PermuteRun(const Exec& exec, const RowMajorProblem& p, const void* in, void* out)
      : exec_(exec), p_(p),
        plan_(exec, in_view(in), out_view(out), p.perm, PermuteVariant::fused, permute_options()) {}

  void execute(void* in, void* out, std::complex<double> alpha,
               std::complex<double> beta) override {
    plan_.execute(in_view(in), out_view(out), scalar_as<S>(alpha), scalar_as<S>(beta));
    finish_on_host(exec_);
  }

 private:
  In in_view(const void* d) const {
    const auto& n = p_.in;
    return In(static_cast<const T*>(d), n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]);
  }
  Out out_view(void* d) const {
    const auto& n = p_.out;
    return Out(static_cast<T*>(d), n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]);
  }

  Exec exec_;
  RowMajorProblem p_;
  PermutePlan<Exec, T> plan_;
};

/// The strided arrays' plan: the same PermutePlan class on LayoutStride views
/// (the library's strided path, docs/strided.md: the strides are data of the
/// same kernels).
template <class Exec, class T>
class StridedRun final : public MovePlan {
  template <class Data>
  using View = Kokkos::View<Data, Kokkos::LayoutStride, typename Exec::memory_space,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using In = View<const T********>;
  using Out = View<T********>;
  using S = typename PermutePlan<Exec, T>::scalar_type;

 public:
  StridedRun(const Exec& exec, const StridedProblem& p, const void* in, void* out)
      : exec_(exec), p_(p),
        plan_(exec, in_view(in), out_view(out), p.perm, PermuteVariant::fused, permute_options()) {}

  void execute(void* in, void* out, std::complex<double> alpha,
               std::complex<double> beta) override {
    plan_.execute(in_view(in), out_view(out), scalar_as<S>(alpha), scalar_as<S>(beta));
    finish_on_host(exec_);
  }

 private:
  static Kokkos::LayoutStride layout(const std::array<std::size_t, max_rank>& n,
                                     const std::array<std::size_t, max_rank>& s) {
    Kokkos::LayoutStride l;
    for (int d = 0; d < max_rank; ++d) {
      l.dimension[d] = n[d];
      l.stride[d] = s[d];
    }
    return l;
  }
  In in_view(const void* d) const {
    return In(static_cast<const T*>(d) + p_.in_shift, layout(p_.in_n, p_.in_s));
  }
  Out out_view(void* d) const {
    return Out(static_cast<T*>(d) + p_.out_shift, layout(p_.out_n, p_.out_s));
  }

  Exec exec_;
  StridedProblem p_;
  PermutePlan<Exec, T> plan_;
};

}  // namespace

std::unique_ptr<MovePlan> plan_row_major_permute(const Array& in, const Array& out,
                                                 const RowMajorProblem& p, bool scaled,
                                                 Stream stream) {
  return with_exec(in.device, stream, [&](const auto& exec) {
    return with_plan_type(in.dtype, scaled, [&](auto t) -> std::unique_ptr<MovePlan> {
      using Exec = std::decay_t<decltype(exec)>;
      return std::make_unique<PermuteRun<Exec, decltype(t)>>(exec, p, in.data, out.data);
    });
  });
}

std::unique_ptr<MovePlan> plan_permute(const Array& in, const Array& out,
                                       const std::vector<int>& axes, bool scaled, Stream stream) {
  if (!in.strided && !out.strided)
    return plan_row_major_permute(in, out, row_major(in, out, axes), scaled, stream);
  const StridedProblem p = strided_problem(in, out, axes, "permute");
  return with_exec(in.device, stream, [&](const auto& exec) {
    return with_plan_type(in.dtype, scaled, [&](auto t) -> std::unique_ptr<MovePlan> {
      using Exec = std::decay_t<decltype(exec)>;
      return std::make_unique<StridedRun<Exec, decltype(t)>>(exec, p, in.data, out.data);
    });
  });
}

}  // namespace tilekit::python
