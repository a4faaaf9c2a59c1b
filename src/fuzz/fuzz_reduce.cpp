// Fuzz runner for the production reductions: sum, compensated sum, min, max,
// minloc, maxloc over int32, int64, float and double views of rank 1 to 4.
#include <tilekit/reduce.hpp>

#include <cmath>
#include <exception>
#include <utility>
#include <vector>

#include "fuzz_reference.hpp"
#include "fuzz_run.hpp"
#include "support/spaces.hpp"
#include "support/views.hpp"

namespace tilekit::fuzz {

namespace {

/// fn(v) with v an unmanaged view of rank 1 to 4 of the case's shape and layout.
template <class Mem, class T, class Fn>
void with_view(const T* p, const Case& c, Fn&& fn) {
  const int r = static_cast<int>(c.shape.size());
  if (r < 1 || r > 4) throw std::invalid_argument("fuzz: reduce cases have rank 1 to 4");
  support::with_layout(c.left, [&](auto layout) {
    using L = decltype(layout);
    support::with_rank(r, [&](auto R) {
      constexpr int rank = decltype(R)::value;
      if constexpr (rank <= 4) fn(support::view_of<rank, L, Mem>(p, c.shape));
    });
  });
}

template <class Op, class T>
auto reference(const std::vector<T>& x) {
  const std::int64_t n = static_cast<std::int64_t>(x.size());
  if constexpr (std::is_same_v<Op, Sum> || std::is_same_v<Op, CompensatedSum>) {
    // Exact for the test data: int64 for integers, double (then T) for floats.
    using S = std::conditional_t<std::is_integral_v<T>, std::int64_t, double>;
    S s = 0;
    for (auto v : x) s += static_cast<S>(v);
    using Res = std::conditional_t<std::is_same_v<Op, Sum>, sum_t<T>, T>;
    return static_cast<Res>(s);
  } else {
    constexpr bool is_max = std::is_same_v<Op, Max> || std::is_same_v<Op, MaxLoc>;
    T best = is_max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    if constexpr (std::is_floating_point_v<T>)
      best = is_max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    std::int64_t at = -1;
    for (std::int64_t k = 0; k < n; ++k)
      if (is_max ? x[k] > best : x[k] < best) best = x[k], at = k;
    if constexpr (std::is_same_v<Op, MinLoc> || std::is_same_v<Op, MaxLoc>)
      return ValueIndex<T>{best, at};
    else
      return best;
  }
}

template <class R>
bool same_result(const R& a, const R& b) {
  if constexpr (std::is_same_v<R, ValueIndex<float>> || std::is_same_v<R, ValueIndex<double>> ||
                std::is_same_v<R, ValueIndex<std::int32_t>> ||
                std::is_same_v<R, ValueIndex<std::int64_t>>)
    return a.value == b.value && a.index == b.index;
  else
    return a == b;
}

template <class R>
std::string show_result(const R& r) {
  if constexpr (std::is_arithmetic_v<R>) return show(r);
  else return "{" + show(r.value) + ", " + std::to_string(r.index) + "}";
}

template <class Exec, class T, class Op>
Outcome reduce_typed(const Exec& exec, const Case& c) {
  using Mem = typename Exec::memory_space;
  const std::int64_t n = c.elements();
  std::vector<T> x(n);
  for (std::int64_t k = 0; k < n; ++k) x[k] = datum<T>(c.seed, k, /*narrow=*/true);
  Kokkos::View<T*, Mem> d(Kokkos::view_alloc(exec, "tilekit::fuzz reduce"), n);
  Kokkos::deep_copy(exec, d, Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(x.data(), n));
  exec.fence();
  Outcome o;
  o.method = c.variant;
  try {
    with_view<Mem>(d.data(), c, [&](const auto& v) {
      ReducePlan<Exec, T, Op> plan(exec, v, Op{});
      const auto got = plan.execute(v);
      const auto want = reference<Op>(x);
      o.ok = same_result(got, want);
      if (!o.ok) o.message = "got " + show_result(got) + ", want " + show_result(want);
    });
  } catch (const std::exception& e) {
    o.ok = false;
    o.message = std::string("threw: ") + e.what();
  }
  return o;
}

template <class Exec, class T>
Outcome reduce_op(const Exec& exec, const Case& c) {
  const std::string& v = c.variant;
  if (v == "sum") return reduce_typed<Exec, T, Sum>(exec, c);
  if (v == "min") return reduce_typed<Exec, T, Min>(exec, c);
  if (v == "max") return reduce_typed<Exec, T, Max>(exec, c);
  if (v == "minloc") return reduce_typed<Exec, T, MinLoc>(exec, c);
  if (v == "maxloc") return reduce_typed<Exec, T, MaxLoc>(exec, c);
  if constexpr (std::is_floating_point_v<T>)
    if (v == "sum_compensated") return reduce_typed<Exec, T, CompensatedSum>(exec, c);
  throw std::invalid_argument("fuzz: no reduce variant " + v + " for this type");
}

}  // namespace

template <class Exec>
Outcome run_reduce(const Exec& exec, const Case& c) {
  // Only the types this program compiles (support::built_case_v).
  auto typed = [&](auto t) -> Outcome {
    if constexpr (support::built_case_v<decltype(t)>) return reduce_op<Exec, decltype(t)>(exec, c);
    else return not_built(c);
  };
  switch (c.type) {
    case Type::int32: return typed(std::int32_t{});
    case Type::int64: return typed(std::int64_t{});
    case Type::float32: return typed(float{});
    case Type::float64: return typed(double{});
    default: break;
  }
  throw std::invalid_argument("fuzz: reductions take int32, int64, float or double");
}

#define TILEKIT_RUN_REDUCE(Exec) template Outcome run_reduce(const Exec&, const Case&);
TILEKIT_FOR_EACH_SPACE(TILEKIT_RUN_REDUCE)
#undef TILEKIT_RUN_REDUCE

}  // namespace tilekit::fuzz
