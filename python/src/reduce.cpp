// tilekit.reduce: one ReducePlan per execution space, value type and
// operation, over the array's elements in memory order.
#include "ops.hpp"

#include <tilekit/reduce.hpp>

namespace tilekit::python {

namespace {

template <class Exec, class T, class Op>
class ReduceRun final : public ReducePlan {
  using View = Unmanaged<T, Exec, const T*>;

 public:
  ReduceRun(const Exec& exec, std::size_t n)
      : n_(n), plan_(exec, View(nullptr, n), Op{}, options()) {}

  ReduceResult execute(const void* in) override {
    const auto r = plan_.execute(View(static_cast<const T*>(in), n_));  // waits for the stream
    ReduceResult out;
    if constexpr (std::is_same_v<Op, MinLoc> || std::is_same_v<Op, MaxLoc>) {
      store(out, r.value);
      out.index = r.index;
    } else {
      store(out, r);
    }
    return out;
  }

 private:
  static ReduceOptions options() {
    ReduceOptions o;
    o.label = "tilekit::python::reduce";
    return o;
  }
  template <class R>
  static void store(ReduceResult& out, R v) {
    out.integral = std::is_integral_v<R>;
    if constexpr (std::is_integral_v<R>) out.i = static_cast<std::int64_t>(v);
    else out.f = static_cast<double>(v);
  }

  std::size_t n_;
  tilekit::ReducePlan<Exec, T, Op> plan_;
};

template <class Exec, class T>
std::unique_ptr<ReducePlan> make(const Exec& exec, ReduceOp op, std::size_t n) {
  switch (op) {
    case ReduceOp::sum: return std::make_unique<ReduceRun<Exec, T, Sum>>(exec, n);
    case ReduceOp::sum_compensated:
      if constexpr (std::is_floating_point_v<T>)
        return std::make_unique<ReduceRun<Exec, T, CompensatedSum>>(exec, n);
      else
        throw std::invalid_argument("tilekit.reduce: sum_compensated is for float32 and float64 "
                                    "(integer sums are exact)");
    case ReduceOp::min: return std::make_unique<ReduceRun<Exec, T, Min>>(exec, n);
    case ReduceOp::max: return std::make_unique<ReduceRun<Exec, T, Max>>(exec, n);
    case ReduceOp::argmin: return std::make_unique<ReduceRun<Exec, T, MinLoc>>(exec, n);
    case ReduceOp::argmax: return std::make_unique<ReduceRun<Exec, T, MaxLoc>>(exec, n);
  }
  throw std::invalid_argument("tilekit.reduce: unknown operation");
}

}  // namespace

std::unique_ptr<ReducePlan> plan_reduce(const Array& a, ReduceOp op, Stream stream) {
  return with_exec(a.device, stream, [&](const auto& exec) -> std::unique_ptr<ReducePlan> {
    using Exec = std::decay_t<decltype(exec)>;
    const auto n = static_cast<std::size_t>(a.size());
    switch (a.dtype) {
      case Dtype::int32: return make<Exec, std::int32_t>(exec, op, n);
      case Dtype::int64: return make<Exec, std::int64_t>(exec, op, n);
      case Dtype::float32: return make<Exec, float>(exec, op, n);
      case Dtype::float64: return make<Exec, double>(exec, op, n);
      default:
        throw std::invalid_argument(std::string("tilekit.reduce: ") + dtype_name(a.dtype) +
                                    " arrays are not supported (int32, int64, float32, float64)");
    }
  });
}

}  // namespace tilekit::python
