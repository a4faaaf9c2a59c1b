// tilekit.permute (and copies of any order): one PermutePlan per execution
// space and value type, on rank-8 row-major views.
#include "ops.hpp"

#include <tilekit/permute.hpp>

namespace tilekit::python {

namespace {

template <class Exec, class T>
class PermuteRun final : public MovePlan {
  using In = Unmanaged<T, Exec, const T********>;
  using Out = Unmanaged<T, Exec, T********>;

 public:
  PermuteRun(const Exec& exec, const RowMajorProblem& p, const void* in, void* out)
      : exec_(exec), p_(p),
        plan_(exec, in_view(in), out_view(out), p.perm, PermuteVariant::fused, options()) {}

  void execute(void* in, void* out, std::complex<double> alpha,
               std::complex<double> beta) override {
    plan_.execute(in_view(in), out_view(out), scalar_as<T>(alpha), scalar_as<T>(beta));
    finish_on_host(exec_);
  }

 private:
  static PermuteOptions options() {
    PermuteOptions o;
    o.label = "tilekit::python::permute";
    return o;
  }
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

}  // namespace

std::unique_ptr<MovePlan> plan_row_major_permute(const Array& in, const Array& out,
                                                 const RowMajorProblem& p, Stream stream) {
  return with_exec(in.device, stream, [&](const auto& exec) {
    return with_value_type(in.dtype, [&](auto t) -> std::unique_ptr<MovePlan> {
      using Exec = std::decay_t<decltype(exec)>;
      return std::make_unique<PermuteRun<Exec, decltype(t)>>(exec, p, in.data, out.data);
    });
  });
}

std::unique_ptr<MovePlan> plan_permute(const Array& in, const Array& out,
                                       const std::vector<int>& axes, Stream stream) {
  return plan_row_major_permute(in, out, row_major(in, out, axes), stream);
}

}  // namespace tilekit::python
