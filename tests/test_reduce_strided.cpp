// The production reduce of strided (LayoutStride) views: windows of a larger
// LayoutRight/LayoutLeft allocation with every kind of gap (a block, every
// other element of the fastest or of a slow dimension), ranks 1 to 4, odd and
// prime extents and extents of 1; every operation against the host reference
// of the window's elements in memory order (MinLoc/MaxLoc: the position in
// that order, the first among equal values); many teams and the tail through
// launch-shape overrides; the float error bound; plan reuse; the rejections.
#include <tilekit/reduce.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "reduce_checks.hpp"
#include "strided_windows.hpp"
#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;

TILEKIT_TYPED_TEST_SUITE(ReduceStrided, tilekit::support::ReduceTypes);

/// Fills the parent of p with f(parent index) and returns the window's
/// elements in memory order (by parent address).
template <class E, class T, int R>
std::vector<T> fill(const Parent<E, T, R>& p, i64 (*f)(i64)) {
  auto h = Kokkos::create_mirror_view(p.data);
  for (i64 k = 0; k < volume(p.P); ++k) h(k) = static_cast<T>(f(k));
  Kokkos::deep_copy(p.data, h);
  std::vector<i64> at;
  for_each_index(p.ext, [&](const Ext& idx) { at.push_back(p.at(idx)); });
  std::sort(at.begin(), at.end());
  std::vector<T> mem;
  for (i64 k : at) mem.push_back(h(k));
  return mem;
}

/// Whether the window's elements leave gaps between the first and the last.
template <class P>
bool has_gaps(const P& p) {
  i64 lo = -1, hi = -1;
  for_each_index(p.ext, [&](const Ext& idx) {
    const i64 a = p.at(idx);
    lo = lo < 0 || a < lo ? a : lo;
    hi = a > hi ? a : hi;
  });
  return volume(p.ext) > 1 && hi - lo + 1 != volume(p.ext);
}

/// Every operation on window w of extents e (and, with `o`, a launch shape).
/// Windows with gaps take the strided kernel, others the contiguous one.
template <class E, class T, int R>
void check_window(const Win& w, const Ext& e, const tilekit::ReduceOptions& o = {}) {
  Parent<E, T, R> p(w, e);
  const auto mem = fill(p, small_value);
  const auto v = p.window();
  std::string what = w.name() + " extents";
  for (auto x : e) {
    what += ' ';
    what += std::to_string(x);
  }
  SCOPED_TRACE(what);
  E exec;
  EXPECT_EQ(tilekit::ReducePlan(exec, v, tilekit::Sum{}, o).strided(), has_gaps(p));
  check_all_ops<E, T>(v, reference(mem.data(), volume(e)), volume(e), o);
}

const std::vector<Ext> kShapes3 = {{1, 1, 1}, {1, 1, 97}, {89, 1, 1}, {7, 13, 5},
                                   {17, 3, 31}, {2, 65, 33}, {31, 37, 41}};

TYPED_TEST(ReduceStrided, EveryOperationOnRank3Windows) {
  TILEKIT_CASE_TYPES(E, T);
  for (bool left : {false, true})
    for (const Ext& e : kShapes3) {
      check_window<E, T, 3>(dense(3, left), e);
      check_window<E, T, 3>(block(3, left), e);
      for (int d = 0; d < 3; ++d) check_window<E, T, 3>(every_other(3, d, left), e);
    }
}

TYPED_TEST(ReduceStrided, Rank1AndRank4Windows) {
  TILEKIT_CASE_TYPES(E, T);
  for (i64 n : {i64(0), i64(1), i64(2), i64(255), i64(256), i64(257), i64(10007)}) {
    Win w{false, {1}, {3}, {2}};  // every third element
    check_window<E, T, 1>(w, {n});
  }
  for (bool left : {false, true}) {
    check_window<E, T, 4>(block(4, left), {3, 5, 7, 11});
    check_window<E, T, 4>(every_other(4, left ? 0 : 3, left), {4, 1, 9, 6});
    check_window<E, T, 4>(every_other(4, 1, left), {2, 33, 1, 129});
  }
}

TYPED_TEST(ReduceStrided, ManyTeamsAndTheTail) {
  TILEKIT_CASE_TYPES(E, T);
  // Over 2^20 elements: the default league has many teams.
  check_window<E, T, 2>(block(2), {1031, 1027});
  check_window<E, T, 2>(every_other(2, 1), {1031, 1027});
  // Few teams, of one work item, of several, or of the backend's size: shares
  // of several rows, uneven shares, and a tail (fewer elements than a row).
  const int most = std::min(E().concurrency(), 4);  // a team of several threads on a host
  for (int teams : {1, 2, 5, 64})
    for (int rows : {1, most, 0}) {
      tilekit::ReduceOptions o;
      o.teams = teams;
      o.team_rows = rows;
      if (rows == 1) o.vector = 1;
      check_window<E, T, 3>(block(3), {7, 13, 5}, o);
      check_window<E, T, 3>(every_other(3, 2), {17, 3, 31}, o);
      check_window<E, T, 2>(every_other(2, 0), {101, 97}, o);
    }
}

/// MinLoc/MaxLoc of windows where the extremum is not in the first rows a
/// work item reads (hosts fold the values of many rows of a run before they
/// look for an index: ReduceConfig::locate_rows): a unique extremum, two of
/// them (the first is reported), at the first and last elements, at a run's
/// last and the next run's first, a falling ramp (every group improves the
/// minimum), data all equal to the identity (index 0); long runs (a block),
/// runs of every other element, and short runs; the gaps hold values beyond
/// every element's, so reading one shows.
TYPED_TEST(ReduceStrided, LocationsAnywhere) {
  TILEKIT_CASE_TYPES(E, T);
  auto check = [](auto p, const std::string& what) {
    std::vector<i64> at;  // parent index of the window's elements in memory order
    for_each_index(p.ext, [&](const Ext& idx) { at.push_back(p.at(idx)); });
    std::sort(at.begin(), at.end());
    const i64 n = static_cast<i64>(at.size()), len = p.ext.back();  // rows of `len` in memory
    auto h = Kokkos::create_mirror_view(p.data);
    const std::pair<i64, i64> spots[] = {{0, 5}, {2, n / 2 + 1}, {n / 3, n / 3 + 1},
                                         {len - 1, len}, {n - 1, n - 1}};
    for (int pattern : {0, 1, 2, 3})
      for (auto [first, twin] : spots) {
        if (pattern > 0 && first > 0) continue;
        for (i64 k = 0; k < static_cast<i64>(h.extent(0)); ++k) h(k) = T(k % 2 ? 1000 : -1000);
        std::vector<T> mem(static_cast<std::size_t>(n));
        for (i64 i = 0; i < n; ++i) {
          const i64 v = pattern == 1 ? (n - i) % 30011 : small_value(i);
          mem[i] = pattern == 2 ? min_identity<T>() : pattern == 3 ? max_identity<T>() : T(v);
        }
        if (pattern == 0) {
          mem[first] = mem[twin] = T(-100);
          mem[n - 1 - first] = T(100);
        }
        for (i64 i = 0; i < n; ++i) h(at[i]) = mem[i];
        Kokkos::deep_copy(p.data, h);
        const auto ref = extremes(mem.data(), n);
        for (int teams : {0, 1, 3}) {
          tilekit::ReduceOptions o;
          o.teams = teams;
          E exec;
          const auto mn = tilekit::reduce(exec, p.window(), tilekit::MinLoc{}, o);
          const auto mx = tilekit::reduce(exec, p.window(), tilekit::MaxLoc{}, o);
          const std::string ctx = what + " pattern " + std::to_string(pattern) + " at " +
                                  std::to_string(first) + " teams " + std::to_string(teams);
          EXPECT_EQ(mn.index, ref.imin) << ctx;
          EXPECT_EQ(mn.value, ref.min) << ctx;
          EXPECT_EQ(mx.index, ref.imax) << ctx;
          EXPECT_EQ(mx.value, ref.max) << ctx;
        }
      }
  };
  check(Parent<E, T, 2>(block(2), {13, 3001}), "block 13x3001");
  check(Parent<E, T, 2>(every_other(2, 1), {7, 2503}), "every other 7x2503");
  check(Parent<E, T, 3>(block(3), {5, 41, 37}), "block 5x41x37");
}

TYPED_TEST(ReduceStrided, PlanReusedAndRejections) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  E exec;
  Parent<E, T, 2> p(block(2), {40, 30}), q(every_other(2, 0), {40, 30});
  const auto pm = fill(p, small_value);
  const auto qm = fill(q, small_value);
  const auto pv = p.window();
  const auto qv = q.window();
  tilekit::ReducePlan plan(exec, pv, tilekit::Sum{});
  EXPECT_TRUE(plan.strided());
  using R = tilekit::sum_t<T>;
  Kokkos::View<R, Mem> r("r");
  for (int rep = 0; rep < 3; ++rep) {  // the ticket resets itself between launches
    plan.execute(pv, r);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r);
    EXPECT_EQ(h(), static_cast<R>(reference(pm.data(), 1200).sum));
  }
  // The same extents with other strides, a contiguous view of them, and a
  // contiguous plan given the window: rejected before anything is written.
  Kokkos::deep_copy(r, static_cast<R>(-7));
  EXPECT_THROW(plan.execute(qv, r), tilekit::invalid_argument);
  Kokkos::View<T**, Mem> full("full", 40, 30);
  EXPECT_THROW(plan.execute(full, r), tilekit::invalid_argument);
  tilekit::ReducePlan cplan(exec, full, tilekit::Sum{});
  EXPECT_FALSE(cplan.strided());
  EXPECT_THROW(cplan.execute(pv, r), tilekit::invalid_argument);
  // Overlapping strides: elements that are not distinct.
  using Window = typename Parent<E, T, 2>::Window;
  Kokkos::LayoutStride overlap(40, 1, 30, 1);
  EXPECT_THROW(tilekit::reduce(exec, Window(p.data.data(), overlap), tilekit::Max{}),
               tilekit::invalid_argument);
  try {
    tilekit::ReducePlan bad(exec, Window(p.data.data(), overlap), tilekit::MinLoc{});
    FAIL() << "no exception";
  } catch (const tilekit::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("overlap"), std::string::npos) << e.what();
  }
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r);
  EXPECT_EQ(h(), static_cast<R>(-7));
  // A second strided plan on the other window.
  EXPECT_EQ(tilekit::reduce(exec, qv, tilekit::Sum{}),
            static_cast<R>(reference(qm.data(), 1200).sum));
}

/// Float sums that round stay within the plan's stated bound (values up to
/// 2^20: float sums round, double sums stay exact).
TYPED_TEST(ReduceStrided, FloatSumsWithinTheStatedBound) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (std::is_floating_point_v<T>) {
    Parent<E, T, 2> p(every_other(2, 1), {1031, 1027});
    const auto mem = fill(p, value_of);
    const double exact = static_cast<double>(reference(mem.data(), volume(p.ext)).sum);
    E exec;
    for (int teams : {0, 1, 3, 100}) {
      tilekit::ReduceOptions o;
      o.teams = teams;
      tilekit::ReducePlan plan(exec, p.window(), tilekit::Sum{}, o);
      const double got = plan.execute(p.window());
      EXPECT_LE(std::abs(got - exact), plan.error_bound(exact)) << "teams " << teams;
      if constexpr (std::is_same_v<T, double>) {
        EXPECT_EQ(got, exact) << "teams " << teams;
      }
    }
  }
}

}  // namespace
