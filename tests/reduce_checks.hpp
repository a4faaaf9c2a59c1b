#pragma once
// The reduce tests' host references and checks (test_reduce.cpp,
// test_reduce_strided.cpp): every operation of a view against the reference
// of its elements in memory order, through a plan and through tilekit::reduce.
#include <tilekit/reduce.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "test_helpers.hpp"

namespace tilekit::test {

/// Small signed values (-8 .. 7): every partial sum of up to 2^21 of them is an
/// integer below 2^24, so float and double sums are exact in any order, and
/// values repeat, so minloc/maxloc must report the first occurrence.
inline i64 small_value(i64 k) { return value_of(k) % 16 - 8; }

template <class T>
struct Reference {
  i64 sum = 0;
  T min = std::numeric_limits<T>::max(), max = std::numeric_limits<T>::lowest();
  i64 imin = -1, imax = -1;
};

template <class T>
Reference<T> reference(const T* h, i64 n) {
  Reference<T> r;
  for (i64 i = 0; i < n; ++i) {
    r.sum += static_cast<i64>(h[i]);
    if (r.imin < 0 || h[i] < r.min) r.min = h[i], r.imin = i;
    if (r.imax < 0 || h[i] > r.max) r.max = h[i], r.imax = i;
  }
  return r;
}

/// The min and max of h[0, n) and their first positions, without the sum
/// (data equal to an identity would overflow it).
template <class T>
Reference<T> extremes(const T* h, i64 n) {
  Reference<T> r;
  for (i64 i = 0; i < n; ++i) {
    if (r.imin < 0 || h[i] < r.min) r.min = h[i], r.imin = i;
    if (r.imax < 0 || h[i] > r.max) r.max = h[i], r.imax = i;
  }
  return r;
}

template <class T>
T min_identity() {
  return std::is_floating_point_v<T> ? std::numeric_limits<T>::infinity()
                                     : std::numeric_limits<T>::max();
}
template <class T>
T max_identity() {
  return std::is_floating_point_v<T> ? -std::numeric_limits<T>::infinity()
                                     : std::numeric_limits<T>::lowest();
}

template <class E, class T>
Kokkos::View<T*, typename E::memory_space> make_data(i64 n, i64 (*f)(i64),
                                                     std::vector<T>& host) {
  Kokkos::View<T*, typename E::memory_space> v("data", n);
  host.resize(static_cast<std::size_t>(n));
  for (i64 i = 0; i < n; ++i) host[i] = static_cast<T>(f(i));
  Kokkos::deep_copy(v, Kokkos::View<const T*, Kokkos::HostSpace>(host.data(), n));
  return v;
}

/// Runs op through a plan into a poisoned result view (asynchronous form) and
/// through tilekit::reduce (returning form); both must give the same value.
template <class E, class Op, class View>
auto run_both(const View& v, Op op, const tilekit::ReduceOptions& o = {}) {
  E exec;
  tilekit::ReducePlan plan(exec, v, op, o);
  using R = typename decltype(plan)::result_type;
  Kokkos::View<R, typename E::memory_space> r("r");
  plan.execute(v, r);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r);
  const R direct = tilekit::reduce(exec, v, op, o);
  if constexpr (std::is_same_v<R, ValueIndex<typename View::non_const_value_type>>) {
    EXPECT_EQ(h().index, direct.index);
    EXPECT_TRUE(h().value == direct.value || (h().value != h().value && direct.value != direct.value));
  } else {
    EXPECT_TRUE(h() == direct || (h() != h() && direct != direct));
  }
  return direct;
}

/// Every operation on v against the reference of its host copy (exact data).
template <class E, class T, class View>
void check_all_ops(const View& v, const Reference<T>& ref, i64 n,
                   const tilekit::ReduceOptions& o = {}) {
  const std::string at = "n = " + std::to_string(n);
  EXPECT_EQ(run_both<E>(v, tilekit::Sum{}, o), static_cast<tilekit::sum_t<T>>(ref.sum)) << at;
  if constexpr (std::is_floating_point_v<T>) {
    EXPECT_EQ(run_both<E>(v, tilekit::CompensatedSum{}, o), static_cast<T>(ref.sum)) << at;
  }
  EXPECT_EQ(run_both<E>(v, tilekit::Min{}, o), n ? ref.min : min_identity<T>()) << at;
  EXPECT_EQ(run_both<E>(v, tilekit::Max{}, o), n ? ref.max : max_identity<T>()) << at;
  if (o.split == tilekit::ReduceSplit::interleaved &&
      tilekit::backends::Traits<E>::reduce_config().locate_rows > 0) {
    // A space that locates takes contiguous shares for MinLoc/MaxLoc: the
    // interleaved split is refused there.
    EXPECT_THROW(tilekit::ReducePlan(E(), v, tilekit::MinLoc{}, o), tilekit::invalid_argument);
    EXPECT_THROW(tilekit::ReducePlan(E(), v, tilekit::MaxLoc{}, o), tilekit::invalid_argument);
    return;
  }
  const auto mn = run_both<E>(v, tilekit::MinLoc{}, o);
  EXPECT_EQ(mn.index, ref.imin) << at;
  EXPECT_EQ(mn.value, n ? ref.min : min_identity<T>()) << at;
  const auto mx = run_both<E>(v, tilekit::MaxLoc{}, o);
  EXPECT_EQ(mx.index, ref.imax) << at;
  EXPECT_EQ(mx.value, n ? ref.max : max_identity<T>()) << at;
}

/// Every operation on a view whose first NaN is at `first`: a NaN (IEEE
/// 754-2019 minimum/maximum), and MinLoc/MaxLoc say where it is.
template <class Exec, class View>
void expect_nan_everywhere(const Exec& exec, const View& v, std::int64_t first,
                           const std::string& ctx) {
  EXPECT_TRUE(std::isnan(tilekit::reduce(exec, v, tilekit::Sum{}))) << ctx;
  EXPECT_TRUE(std::isnan(tilekit::reduce(exec, v, tilekit::CompensatedSum{}))) << ctx;
  EXPECT_TRUE(std::isnan(tilekit::reduce(exec, v, tilekit::Min{}))) << ctx;
  EXPECT_TRUE(std::isnan(tilekit::reduce(exec, v, tilekit::Max{}))) << ctx;
  const auto mn = tilekit::reduce(exec, v, tilekit::MinLoc{});
  const auto mx = tilekit::reduce(exec, v, tilekit::MaxLoc{});
  EXPECT_TRUE(std::isnan(mn.value) && std::isnan(mx.value)) << ctx;
  EXPECT_EQ(mn.index, first) << ctx;
  EXPECT_EQ(mx.index, first) << ctx;
}

}  // namespace tilekit::test
