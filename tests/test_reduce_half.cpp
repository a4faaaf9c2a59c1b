// Reductions of Kokkos' 2-byte floats (half_t, bhalf_t), accumulated in float:
// Sum and CompensatedSum (float results) within the plan's stated error bound
// of a host reference in double, Min/Max/MinLoc/MaxLoc exact (the element
// type, the first index), sums that would stall in a 2-byte accumulator,
// NaN, empty views and every alignment, on every enabled space.
//
// A host-only Kokkos defines half_t and bhalf_t as float (KOKKOS_HALF_T_IS_FLOAT):
// there the same checks run on half_t, i.e. float, so the file compiles and
// passes in both builds; the 2-byte types are exercised in GPU builds (their
// host spaces too).
#include <tilekit/reduce.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;
using tilekit::ValueIndex;
using half = Kokkos::Experimental::half_t;
using bhalf = Kokkos::Experimental::bhalf_t;

#if KOKKOS_HALF_T_IS_FLOAT || KOKKOS_BHALF_T_IS_FLOAT
using HalfTypes = tilekit::support::List<half>;
#else
using HalfTypes = tilekit::support::List<half, bhalf>;
#endif

TILEKIT_TYPED_TEST_SUITE(ReduceHalf, HalfTypes);

template <class T> T from_float(float x) { return T(x); }
template <class T> double to_double(const T& x) { return static_cast<double>(static_cast<float>(x)); }

/// Quarters in [-31.75, 31.75], exact in half_t and bhalf_t (8 significant
/// bits), repeating so that MinLoc/MaxLoc must report the first occurrence.
inline float quarter_value(i64 k) { return static_cast<float>((k * 37 + 11) % 255 - 127) / 4; }

template <class E, class T>
using Vec = Kokkos::View<T*, typename E::memory_space>;

/// A device view of n values f(k), starting `offset` elements into its
/// allocation (so every alignment of the 16-byte loads is met), and its host copy.
template <class E, class T, class F>
auto make_data(i64 n, i64 offset, F f, std::vector<T>& host) {
  Vec<E, T> base("base", n + offset);
  auto h = Kokkos::create_mirror_view(base);
  host.resize(n);
  for (i64 k = 0; k < n + offset; ++k) h(k) = from_float<T>(k < offset ? -999.f : f(k - offset));
  for (i64 k = 0; k < n; ++k) host[k] = h(k + offset);
  Kokkos::deep_copy(base, h);
  return Kokkos::subview(base, Kokkos::pair<i64, i64>(offset, offset + n));
}

struct Ref {
  double sum = 0, sum_abs = 0;
  double min = 0, max = 0;
  i64 imin = -1, imax = -1;
};
template <class T>
Ref reference(const std::vector<T>& h) {
  Ref r;
  for (i64 i = 0; i < static_cast<i64>(h.size()); ++i) {
    const double x = to_double(h[i]);
    r.sum += x;
    r.sum_abs += std::abs(x);
    if (r.imin < 0 || x < r.min) r.min = x, r.imin = i;
    if (r.imax < 0 || x > r.max) r.max = x, r.imax = i;
  }
  return r;
}

TYPED_TEST(ReduceHalf, ResultTypes) {
  TILEKIT_CASE_TYPES(E, T);
  Vec<E, T> v("v", 3);
  E exec;
  static_assert(std::is_same_v<tilekit::sum_t<T>, float>);
  static_assert(std::is_same_v<decltype(tilekit::reduce(exec, v, tilekit::Sum{})), float>);
  static_assert(std::is_same_v<decltype(tilekit::reduce(exec, v, tilekit::CompensatedSum{})), float>);
  static_assert(std::is_same_v<decltype(tilekit::reduce(exec, v, tilekit::Min{})), T>);
  static_assert(std::is_same_v<decltype(tilekit::reduce(exec, v, tilekit::MaxLoc{})), ValueIndex<T>>);
  EXPECT_EQ(tilekit::reduce(exec, v, tilekit::Sum{}), 0.f);
}

/// Sums within the plan's bound, extrema exact, at sizes around the loads,
/// the teams and 2^20, at every alignment of the first element.
TYPED_TEST(ReduceHalf, EveryOperationAgainstTheHostReference) {
  TILEKIT_CASE_TYPES(E, T);
  E exec;
  for (i64 n : {i64(1), i64(2), i64(7), i64(8), i64(9), i64(255), i64(4099), i64(65537),
                i64(1) << 20, i64(1000003)})
    for (i64 offset : {i64(0), i64(1), i64(3), i64(7)}) {
      if (n > 70000 && offset % 2) continue;  // (the large sizes: two alignments)
      std::vector<T> h;
      const auto v = make_data<E, T>(n, offset, quarter_value, h);
      const Ref r = reference(h);
      const std::string at = "n " + std::to_string(n) + " offset " + std::to_string(offset);
      tilekit::ReducePlan sum(exec, v, tilekit::Sum{});
      tilekit::ReducePlan comp(exec, v, tilekit::CompensatedSum{});
      const double s = sum.execute(v), c = comp.execute(v);
      EXPECT_LE(std::abs(s - r.sum), sum.error_bound(r.sum_abs)) << at;
      EXPECT_LE(std::abs(c - r.sum), comp.error_bound(r.sum_abs, std::abs(r.sum))) << at;
      EXPECT_EQ(to_double(tilekit::reduce(exec, v, tilekit::Min{})), r.min) << at;
      EXPECT_EQ(to_double(tilekit::reduce(exec, v, tilekit::Max{})), r.max) << at;
      const auto mn = tilekit::reduce(exec, v, tilekit::MinLoc{});
      const auto mx = tilekit::reduce(exec, v, tilekit::MaxLoc{});
      EXPECT_EQ(to_double(mn.value), r.min) << at;
      EXPECT_EQ(mn.index, r.imin) << at;
      EXPECT_EQ(to_double(mx.value), r.max) << at;
      EXPECT_EQ(mx.index, r.imax) << at;
    }
}

/// n ones: exact in float, while a 2-byte accumulator stalls (half_t at 2048,
/// bhalf_t at 256: 1 more is below half a unit).
TYPED_TEST(ReduceHalf, AccumulatesInFloat) {
  TILEKIT_CASE_TYPES(E, T);
  E exec;
  for (i64 n : {i64(4097), i64(100003), i64(1) << 22}) {
    std::vector<T> h;
    const auto v = make_data<E, T>(n, 0, [](i64) { return 1.f; }, h);
    EXPECT_EQ(tilekit::reduce(exec, v, tilekit::Sum{}), static_cast<float>(n)) << n;
    EXPECT_EQ(tilekit::reduce(exec, v, tilekit::CompensatedSum{}), static_cast<float>(n)) << n;
  }
}

/// NaN propagates (the first NaN for the Loc operations); an empty view gives
/// the identities.
TYPED_TEST(ReduceHalf, NanAndEmpty) {
  TILEKIT_CASE_TYPES(E, T);
  E exec;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<T> h;
  const auto v = make_data<E, T>(
      5003, 1, [nan](i64 k) { return k == 777 || k == 4000 ? nan : quarter_value(k); }, h);
  EXPECT_TRUE(std::isnan(tilekit::reduce(exec, v, tilekit::Sum{})));
  EXPECT_TRUE(std::isnan(to_double(tilekit::reduce(exec, v, tilekit::Min{}))));
  EXPECT_TRUE(std::isnan(to_double(tilekit::reduce(exec, v, tilekit::Max{}))));
  EXPECT_EQ(tilekit::reduce(exec, v, tilekit::MinLoc{}).index, 777);
  EXPECT_EQ(tilekit::reduce(exec, v, tilekit::MaxLoc{}).index, 777);

  Vec<E, T> empty("empty", 0);
  EXPECT_EQ(tilekit::reduce(exec, empty, tilekit::Sum{}), 0.f);
  EXPECT_EQ(to_double(tilekit::reduce(exec, empty, tilekit::Min{})),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(to_double(tilekit::reduce(exec, empty, tilekit::Max{})),
            -std::numeric_limits<double>::infinity());
  EXPECT_EQ(tilekit::reduce(exec, empty, tilekit::MaxLoc{}).index, -1);
}

}  // namespace
