// Reductions: the production reduce (every operation) and every step of the
// seed-004 ladder (tilekit::study) against host references, at sizes 0, 1, 2^k - 1, 2^k,
// 2^k + 1, primes and 2^26; any rank, layout and alignment; NaN and infinity;
// launch-shape overrides (several teams on every space); every error case.
#include <tilekit/reduce.hpp>
#include <tilekit/study/reduce_ladder.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "reduce_checks.hpp"
#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;
using tilekit::study::ReduceStep;
using tilekit::study::ReduceStepOptions;
using tilekit::study::ReduceStepPlan;
using tilekit::ValueIndex;

const ReduceStep kSteps[] = {ReduceStep::naive,     ReduceStep::strided,
                             ReduceStep::sequential, ReduceStep::first_add,
                             ReduceStep::unroll_last, ReduceStep::multiple,
                             ReduceStep::kokkos};

/// Every ladder step's sum of v, exactly.
template <class E, class T, class View>
void check_steps(const View& v, i64 expected, const ReduceStepOptions& o = {}) {
  E exec;
  for (auto s : kSteps) {
    ReduceStepPlan plan(exec, v, s, o);
    EXPECT_EQ(plan.execute(v), static_cast<tilekit::sum_t<T>>(expected))
        << "n = " << v.size() << " step " << tilekit::study::to_string(s);
  }
}

const std::vector<i64> kSizes = {0,    1,    2,    3,    5,     7,     8,       9,
                                 31,   32,   33,   127,  128,   129,   255,     256,
                                 257,  1023, 1024, 1025, 4095,  4096,  4097,    8191,
                                 8192, 8193, 1009, 7919, 65521, 65536, 65537,   104729,
                                 (1 << 20) - 1, 1 << 20, (1 << 20) + 1};

TILEKIT_TYPED_TEST_SUITE(Reduce, tilekit::support::ReduceTypes);

TYPED_TEST(Reduce, EveryOperationEverySize) {
  TILEKIT_CASE_TYPES(E, T);
  std::vector<T> h;
  for (i64 n : kSizes) {
    auto v = make_data<E, T>(n, small_value, h);
    check_all_ops<E, T>(v, reference(h.data(), n), n);
  }
}

TYPED_TEST(Reduce, EveryStepEverySize) {
  TILEKIT_CASE_TYPES(E, T);
  std::vector<T> h;
  for (i64 n : kSizes) {
    auto v = make_data<E, T>(n, small_value, h);
    check_steps<E, T>(v, reference(h.data(), n).sum);
  }
}

TYPED_TEST(Reduce, EveryAlignment) {
  // Views starting 0..7 elements into an allocation: the production kernel's
  // unaligned head and every split between head, whole tiles and tail.
  TILEKIT_CASE_TYPES(E, T);
  using U = Kokkos::View<T*, typename E::memory_space, Kokkos::MemoryUnmanaged>;
  std::vector<T> h;
  for (i64 n : {1, 5, 37, 4099, 100003}) {
    auto buf = make_data<E, T>(n + 8, small_value, h);
    for (i64 off = 0; off < 8; ++off) {
      U v(buf.data() + off, n);
      check_all_ops<E, T>(v, reference(h.data() + off, n), n);
    }
  }
}

TYPED_TEST(Reduce, AnyRankAndLayout) {
  // The index of minloc/maxloc is the offset in memory order.
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  std::vector<T> h;
  auto flat = make_data<E, T>(5 * 6 * 7, small_value, h);
  const auto ref = reference(h.data(), 5 * 6 * 7);
  Kokkos::View<T***, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged> r3(flat.data(), 5, 6, 7);
  Kokkos::View<T**, Kokkos::LayoutLeft, Mem, Kokkos::MemoryUnmanaged> l2(flat.data(), 35, 6);
  Kokkos::View<T**, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged> row(flat.data(), 1, 210),
      col(flat.data(), 210, 1);
  check_all_ops<E, T>(r3, ref, 210);
  check_all_ops<E, T>(l2, ref, 210);
  check_all_ops<E, T>(row, ref, 210);
  check_all_ops<E, T>(col, ref, 210);
  // A LayoutStride view without gaps (rows 2..4 of a row-major matrix).
  Kokkos::View<T**, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged> m(flat.data(), 30, 7);
  auto rows = Kokkos::subview(m, Kokkos::pair<int, int>(2, 5), Kokkos::ALL);
  check_all_ops<E, T>(rows, reference(h.data() + 14, 21), 21);
  check_steps<E, T>(rows, reference(h.data() + 14, 21).sum);
}

TYPED_TEST(Reduce, LaunchShapeOverrides) {
  // Several teams on every space (so the last-team join runs on Serial too),
  // one-item teams, and small ladder blocks.
  TILEKIT_CASE_TYPES(E, T);
  std::vector<T> h;
  for (i64 n : {0, 1, 1000, 65537, 300007}) {
    auto v = make_data<E, T>(n, small_value, h);
    const auto ref = reference(h.data(), n);
    for (int teams : {1, 2, 3, 7, 64}) {
      tilekit::ReduceOptions o;
      o.teams = teams;
      o.team_rows = 1;
      o.vector = 1;
      check_all_ops<E, T>(v, ref, n, o);
    }
    for (auto [block, warp] : {std::pair{2, 1}, {8, 4}, {64, 8}, {512, 32}}) {
      ReduceStepOptions o;
      o.block = block;
      o.warp = warp;
      o.teams = 5;
      o.team_rows = 1;
      o.vector = 1;
      check_steps<E, T>(v, ref.sum, o);
    }
  }
}

/// MinLoc/MaxLoc where the extremum is not in the first rows a work item
/// reads (CPUs fold values of many rows before looking for indices:
/// ReduceConfig::locate_rows): a unique extremum, two of them (the first is
/// reported), one among the head and tail elements, a falling ramp (every
/// row improves the minimum), and data all equal to the identity (index 0);
/// one to 64 teams, aligned and unaligned views.
TYPED_TEST(Reduce, LocationsAnywhere) {
  TILEKIT_CASE_TYPES(E, T);
  const i64 n = 100003;
  std::vector<T> h(static_cast<std::size_t>(n + 1));  // the view's n elements from h[offset]
  auto fill = [&](int pattern, i64 at, i64 twin, int offset) {
    for (i64 i = 0; i <= n; ++i) {
      const i64 v = pattern == 1 ? (n - i) % 30011 : small_value(i);
      h[i] = pattern == 2 ? min_identity<T>() : pattern == 3 ? max_identity<T>() : T(v);
    }
    if (pattern == 0) {
      h[offset + at] = h[offset + twin] = T(-100);
      h[offset + n - 1 - at] = T(100);
    }
  };
  Kokkos::View<T*, typename E::memory_space> whole("whole", n + 1);
  for (int pattern : {0, 1, 2, 3})
    for (auto [at, twin] : {std::pair<i64, i64>{0, 5}, {2, 70001}, {33333, 33334}, {61001, 99999},
                            {n - 1, n - 1}, {n / 2, n / 2}})
      for (int offset : {0, 1}) {
        if (pattern > 0 && at > 0) continue;
        fill(pattern, at, twin, offset);
        Kokkos::deep_copy(whole, Kokkos::View<const T*, Kokkos::HostSpace>(h.data(), n + 1));
        auto v = Kokkos::subview(whole, std::pair<i64, i64>(offset, offset + n));
        const i64 len = n;
        const auto ref = extremes(h.data() + offset, len);
        for (int teams : {0, 1, 3, 64}) {
          tilekit::ReduceOptions o;
          o.teams = teams;
          E exec;
          const auto mn = tilekit::reduce(exec, v, tilekit::MinLoc{}, o);
          const auto mx = tilekit::reduce(exec, v, tilekit::MaxLoc{}, o);
          const std::string ctx = "pattern " + std::to_string(pattern) + " at " +
                                  std::to_string(at) + " offset " + std::to_string(offset) +
                                  " teams " + std::to_string(teams);
          EXPECT_EQ(mn.index, ref.imin) << ctx;
          EXPECT_EQ(mn.value, ref.min) << ctx;
          EXPECT_EQ(mx.index, ref.imax) << ctx;
          EXPECT_EQ(mx.value, ref.max) << ctx;
        }
      }
}

TYPED_TEST(Reduce, EvenSplitOfRows) {
  // The backend's team shape with league caps that leave teams uneven shares
  // (one row or one round more or less), shares that are not whole rounds of
  // loads, more teams than rows, and unaligned starts, with contiguous shares
  // and with rounds dealt to the teams in turn: every element is reduced once.
  TILEKIT_CASE_TYPES(E, T);
  using U = Kokkos::View<T*, typename E::memory_space, Kokkos::MemoryUnmanaged>;
  using tilekit::ReduceSplit;
  std::vector<T> h;
  for (i64 n : {i64(3), i64(1000), i64(65537), i64(300007)}) {
    auto buf = make_data<E, T>(n + 3, small_value, h);
    for (int teams : {1, 2, 3, 7, 64, 1000}) {
      for (auto split : {ReduceSplit::contiguous, ReduceSplit::interleaved}) {
        tilekit::ReduceOptions o;
        o.teams = teams;
        o.split = split;
        for (i64 off : {0, 3}) {
          U v(buf.data() + off, n);
          check_all_ops<E, T>(v, reference(h.data() + off, n), n, o);
          tilekit::ReducePlan plan(E(), v, tilekit::Sum{}, o);
          EXPECT_GE(plan.league(), 1);
          EXPECT_LE(plan.league(), teams) << "n = " << n;
          EXPECT_EQ(plan.league_cap(), teams);
          EXPECT_EQ(plan.interleaved(), split == ReduceSplit::interleaved);
        }
      }
    }
  }
  // The default split is the backend's, for contiguous views; MinLoc and
  // MaxLoc take contiguous shares unless asked.
  auto v = make_data<E, T>(1000, small_value, h);
  EXPECT_EQ(tilekit::ReducePlan(E(), v, tilekit::Sum{}).interleaved(),
            tilekit::backends::Traits<E>::reduce_config().interleave);
  EXPECT_EQ(tilekit::ReducePlan(E(), v, tilekit::Max{}).interleaved(),
            tilekit::backends::Traits<E>::reduce_config().interleave);
  EXPECT_FALSE(tilekit::ReducePlan(E(), v, tilekit::MinLoc{}).interleaved());
}

TYPED_TEST(Reduce, DefaultLeagueIsBoundedAndGrowsWithSize) {
  // The default league: never more teams than there are rounds of loads to
  // share (no idle teams at small sizes); at most the cap, or where the
  // backend deals the rounds of a kernel that loads ahead in waves
  // (ReduceConfig::team_rounds), whole waves of the cap, one for every cap x
  // team_rounds rounds, up to league_waves of them. The large views are
  // unmanaged ones over a small allocation: a plan reads nothing of its view.
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  using U = Kokkos::View<T*, Mem, Kokkos::MemoryUnmanaged>;
  E exec;
  constexpr auto c = tilekit::backends::Traits<E>::reduce_config();
  const i64 threads = i64(c.team_rows) * c.vector;
  const i64 W = c.load_bytes > int(sizeof(T)) ? c.load_bytes / i64(sizeof(T)) : 1;
  constexpr bool ahead =
      tilekit::impl::ReduceKernel<E, T, tilekit::Sum, c.load_bytes, c.loads>::Ahead;
  const bool waves = c.team_rounds > 0 && c.league_waves > 1 && c.interleave && ahead;
  Kokkos::View<T*, Mem> small(Kokkos::view_alloc(Kokkos::WithoutInitializing, "v"), 64);
  i64 prev = 0;
  for (int lg : {-1, 10, 16, 20, 24, 28, 31, 34}) {
    const i64 n = lg < 0 ? 0 : i64(1) << lg;
    tilekit::ReducePlan plan(exec, U(small.data(), n), tilekit::Sum{});
    const i64 rows = n / W / threads;  // a fresh allocation is aligned
    const i64 rounds = (rows + c.loads - 1) / c.loads;
    const i64 cap = plan.league_cap();
    EXPECT_EQ(plan.league_most(), waves ? cap * c.league_waves : cap);
    const i64 w = waves ? std::clamp<i64>(rounds / (cap * c.team_rounds), 1, c.league_waves) : 1;
    const i64 most = w * cap;
    EXPECT_EQ(plan.league(), std::max<i64>(1, std::min<i64>(most, rounds))) << "n = " << n;
    EXPECT_GE(plan.league(), prev);
    EXPECT_LE(plan.league(), plan.league_most());
    prev = plan.league();
  }
  // A caller's teams, a split into contiguous shares, and a strided view
  // keep the cap.
  const i64 big = i64(1) << 34;
  tilekit::ReduceOptions o;
  o.split = tilekit::ReduceSplit::contiguous;
  EXPECT_EQ(tilekit::ReducePlan(exec, U(small.data(), big), tilekit::Sum{}, o).league_most(),
            tilekit::ReducePlan(exec, U(small.data(), big), tilekit::Sum{}, o).league_cap());
  o = {};
  o.teams = 7;
  EXPECT_EQ(tilekit::ReducePlan(exec, U(small.data(), big), tilekit::Sum{}, o).league(), 7);
  Kokkos::View<T*, Kokkos::LayoutStride, Mem, Kokkos::MemoryUnmanaged> every2(
      small.data(), Kokkos::LayoutStride(big / 2, 2));
  tilekit::ReducePlan strided(exec, every2, tilekit::Sum{});
  EXPECT_TRUE(strided.strided());
  EXPECT_EQ(strided.league_most(), strided.league_cap());
}

TYPED_TEST(Reduce, DefaultLeagueInWavesGivesEveryOperation) {
  // Where the backend deals a large view's rounds to more teams than its cap
  // (league_most() > league_cap(): CUDA), every operation at a size whose
  // league is two waves of the cap, from an unaligned start.
  TILEKIT_CASE_TYPES(E, T);
  using U = Kokkos::View<T*, typename E::memory_space, Kokkos::MemoryUnmanaged>;
  const auto c = tilekit::backends::Traits<E>::reduce_config();
  Kokkos::View<T*, typename E::memory_space> probe("probe", 1);
  tilekit::ReducePlan sizing(E(), probe, tilekit::Sum{});
  if (sizing.league_most() == sizing.league_cap())
    GTEST_SKIP() << "this space's default league is its cap at every size";
  const i64 threads = i64(c.team_rows) * c.vector;
  const i64 W = c.load_bytes > int(sizeof(T)) ? c.load_bytes / i64(sizeof(T)) : 1;
  const i64 rounds = 2 * sizing.league_cap() * c.team_rounds + 1;
  const i64 n = rounds * c.loads * threads * W - 5;
  std::vector<T> h;
  auto buf = make_data<E, T>(n + 3, small_value, h);
  U v(buf.data() + 3, n);
  tilekit::ReducePlan plan(E(), v, tilekit::Sum{});
  EXPECT_EQ(plan.league(), 2 * plan.league_cap());
  check_all_ops<E, T>(v, reference(h.data() + 3, n), n);
}

// ------------------------------------------------------------------ 2^26
TILEKIT_TYPED_TEST_SUITE(ReduceSeedSize, tilekit::support::List<std::int32_t, float>);

TYPED_TEST(ReduceSeedSize, SumsOfTwoToThe26) {
  // int32: dense values up to 2^20 (exact int64 sums). float: 0 or +-1 on every
  // 8th element, so every partial sum stays an integer below 2^24 (exact).
  TILEKIT_CASE_TYPES(E, T);
  const i64 n = i64(1) << 26;
  auto f = std::is_integral_v<T> ? +[](i64 k) { return value_of(k); }
                                 : +[](i64 k) { return k % 8 ? i64(0) : value_of(k) % 3 - 1; };
  std::vector<T> h;
  auto v = make_data<E, T>(n, f, h);
  const auto ref = reference(h.data(), n);
  E exec;
  EXPECT_EQ(tilekit::reduce(exec, v, tilekit::Sum{}), static_cast<tilekit::sum_t<T>>(ref.sum));
  const auto mx = tilekit::reduce(exec, v, tilekit::MaxLoc{});
  EXPECT_EQ(mx.index, ref.imax);
  EXPECT_EQ(mx.value, ref.max);
  if constexpr (std::is_floating_point_v<T>) {
    EXPECT_EQ(tilekit::reduce(exec, v, tilekit::CompensatedSum{}), static_cast<T>(ref.sum));
  }
  check_steps<E, T>(v, ref.sum);
}

// ------------------------------------------------------------------ floats
TILEKIT_TYPED_TEST_SUITE(ReduceFloat, tilekit::support::List<float, double>);

TYPED_TEST(ReduceFloat, WithinTheStatedBound) {
  // Dense values up to 2^20: float sums round, double sums stay exact. The
  // plans state |result - exact| <= error_bound(sum |x|, |sum x|).
  TILEKIT_CASE_TYPES(E, T);
  E exec;
  std::vector<T> h;
  for (i64 n : {(i64(1) << 20) + 3, i64(3000017)}) {
    auto v = make_data<E, T>(n, value_of, h);
    const double exact = static_cast<double>(reference(h.data(), n).sum);  // < 2^53
    tilekit::ReducePlan plan(exec, v, tilekit::Sum{});
    const double got = plan.execute(v);
    EXPECT_LE(std::abs(got - exact), plan.error_bound(exact)) << "n = " << n;
    if constexpr (std::is_same_v<T, double>) {
      EXPECT_EQ(got, exact);
    }
    for (auto s : kSteps) {
      ReduceStepPlan sp(exec, v, s);
      EXPECT_LE(std::abs(static_cast<double>(sp.execute(v)) - exact), sp.error_bound(exact))
          << "n = " << n << " step " << tilekit::study::to_string(s);
    }
  }
  // Other league caps and both splits: the bound follows the rounds and the
  // partials' join.
  for (int teams : {1, 3, 100, 5000}) {
    const i64 n = 3000017;
    auto v = make_data<E, T>(n, value_of, h);
    const double exact = static_cast<double>(reference(h.data(), n).sum);
    for (auto split : {tilekit::ReduceSplit::contiguous, tilekit::ReduceSplit::interleaved}) {
      tilekit::ReduceOptions o;
      o.teams = teams;
      o.split = split;
      tilekit::ReducePlan plan(exec, v, tilekit::Sum{}, o);
      EXPECT_LE(std::abs(plan.execute(v) - exact), plan.error_bound(exact))
          << "teams " << teams << (plan.interleaved() ? " interleaved" : " contiguous");
    }
  }
  // 0.1 repeated: plain sums drift, the compensated sum must stay within its bound.
  for (i64 n : {i64(1) << 20, i64(3000017)}) {
    Kokkos::View<T*, typename E::memory_space> v("tenths", n);
    Kokkos::deep_copy(v, T(0.1));
    const long double exact = static_cast<long double>(T(0.1)) * n;
    tilekit::ReducePlan plan(exec, v, tilekit::CompensatedSum{});
    const long double got = plan.execute(v);
    const double bound = plan.error_bound(static_cast<double>(exact), static_cast<double>(exact));
    EXPECT_LE(std::abs(got - exact), bound) << "n = " << n;
    EXPECT_LT(bound, 1e-3 * static_cast<double>(exact));  // the bound says something
  }
}

TYPED_TEST(ReduceFloat, NanAndInfinityPropagate) {
  TILEKIT_CASE_TYPES(E, T);
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  E exec;
  std::vector<T> h;
  for (i64 n : {1, 2, 37, 70001}) {
    for (i64 first : {i64(0), n / 2, n - 1}) {
      auto v = make_data<E, T>(n, small_value, h);
      auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
      hv(first) = nan;
      if (first + 3 < n) hv(first + 3) = nan;  // a later NaN must not win
      Kokkos::deep_copy(v, hv);
      const std::string at = "n = " + std::to_string(n) + ", NaN at " + std::to_string(first);
      expect_nan_everywhere(exec, v, first, at);
      for (auto s : kSteps) {
        ReduceStepPlan sp(exec, v, s);
        EXPECT_TRUE(std::isnan(sp.execute(v))) << at << " step " << tilekit::study::to_string(s);
      }
      // Infinities: +inf alone gives +inf (also compensated); with -inf, NaN.
      hv(first) = inf;
      if (first + 3 < n) hv(first + 3) = 1;
      Kokkos::deep_copy(v, hv);
      EXPECT_EQ(tilekit::reduce(exec, v, tilekit::Sum{}), inf) << at;
      EXPECT_EQ(tilekit::reduce(exec, v, tilekit::CompensatedSum{}), inf) << at;
      EXPECT_EQ(tilekit::reduce(exec, v, tilekit::MaxLoc{}).index, first) << at;
      if (n > 1) {
        hv((first + 1) % n) = -inf;
        Kokkos::deep_copy(v, hv);
        EXPECT_TRUE(std::isnan(tilekit::reduce(exec, v, tilekit::Sum{}))) << at;
        EXPECT_TRUE(std::isnan(tilekit::reduce(exec, v, tilekit::CompensatedSum{}))) << at;
        EXPECT_EQ(tilekit::reduce(exec, v, tilekit::Min{}), -inf) << at;
        EXPECT_EQ(tilekit::reduce(exec, v, tilekit::MinLoc{}).index, (first + 1) % n) << at;
      }
    }
  }
}

// ------------------------------------------------------------------ errors
TILEKIT_TYPED_TEST_SUITE(ReduceErrors, tilekit::support::List<float>);

TYPED_TEST(ReduceErrors, RejectedBeforeAnythingIsWritten) {
  using E = typename TypeParam::exec;
  using Mem = typename E::memory_space;
  E exec;
  Kokkos::View<float**, Kokkos::LayoutRight, Mem> m("m", 20, 30);
  Kokkos::deep_copy(m, 1.0f);
  Kokkos::View<float, Mem> r("r");
  Kokkos::View<tilekit::ValueIndex<float>, Mem> rl("rl");
  auto poisoned = [&] {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r);
    auto hl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rl);
    return h() == poison<float>() && hl().index == -7;
  };
  Kokkos::deep_copy(r, poison<float>());
  Kokkos::deep_copy(rl, tilekit::ValueIndex<float>{0, -7});
  // A column block of a row-major matrix is not contiguous: the ladder needs
  // contiguous views (the production reduce takes it: test_reduce_strided.cpp).
  auto cols = Kokkos::subview(m, Kokkos::ALL, Kokkos::pair<int, int>(0, 3));
  EXPECT_THROW(ReduceStepPlan(exec, cols, ReduceStep::naive), tilekit::invalid_argument);
  // Strides whose elements overlap.
  Kokkos::View<float**, Kokkos::LayoutStride, Mem> over(m.data(), Kokkos::LayoutStride(20, 1, 3, 1));
  EXPECT_THROW(tilekit::reduce(exec, over, tilekit::Sum{}), tilekit::invalid_argument);
  EXPECT_THROW(tilekit::ReducePlan(exec, over, tilekit::MinLoc{}), tilekit::invalid_argument);
  try {
    tilekit::reduce(exec, over, tilekit::Max{});
    FAIL() << "no exception";
  } catch (const tilekit::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("tilekit::reduce"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(20, 3)"), std::string::npos) << e.what();
  }
  // A plan given a view of another size, or a non-contiguous one of the same size.
  Kokkos::View<float*, Mem> a("a", 60), b("b", 61);
  tilekit::ReducePlan plan(exec, a, tilekit::Sum{});
  tilekit::ReducePlan lplan(exec, a, tilekit::MinLoc{});
  ReduceStepPlan splan(exec, a, ReduceStep::multiple);
  EXPECT_THROW(plan.execute(b, r), tilekit::invalid_argument);
  EXPECT_THROW(lplan.execute(b, rl), tilekit::invalid_argument);
  EXPECT_THROW(splan.execute(b), tilekit::invalid_argument);
  auto strided = Kokkos::subview(m, Kokkos::pair<int, int>(0, 20), Kokkos::pair<int, int>(0, 3));
  EXPECT_THROW(plan.execute(strided, r), tilekit::invalid_argument);
  EXPECT_TRUE(poisoned());
  // Launch shapes the space cannot run, and ladder blocks it does not define.
  tilekit::ReduceOptions huge;
  huge.team_rows = 1 << 20;
  EXPECT_THROW(tilekit::ReducePlan(exec, a, tilekit::Sum{}, huge), tilekit::invalid_argument);
  ReduceStepOptions huge_ladder;
  huge_ladder.team_rows = 1 << 20;
  EXPECT_THROW(ReduceStepPlan(exec, a, ReduceStep::naive, huge_ladder),
               tilekit::invalid_argument);
  ReduceStepOptions odd;
  odd.block = 96;
  EXPECT_THROW(ReduceStepPlan(exec, a, ReduceStep::sequential, odd),
               tilekit::invalid_argument);
  ReduceStepOptions narrow;
  narrow.block = 32;
  narrow.warp = 32;
  EXPECT_NO_THROW(ReduceStepPlan(exec, a, ReduceStep::first_add, narrow));
  EXPECT_THROW(ReduceStepPlan(exec, a, ReduceStep::unroll_last, narrow),
               tilekit::invalid_argument);
  tilekit::ReduceOptions negative;
  negative.teams = -1;
  try {  // the check says what it checks: 0 is allowed, the backend's choice
    tilekit::ReducePlan plan_of_negative(exec, a, tilekit::Sum{}, negative);
    FAIL() << "no exception";
  } catch (const tilekit::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("must not be negative (0: the backend's choice)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(poisoned());
}

TYPED_TEST(ReduceErrors, PlanReusedAcrossViews) {
  using E = typename TypeParam::exec;
  using Mem = typename E::memory_space;
  E exec;
  Kokkos::View<float*, Mem> a("a", 100003), b("b", 100003);
  Kokkos::deep_copy(a, 1.0f);
  Kokkos::deep_copy(b, 2.0f);
  tilekit::ReducePlan plan(exec, a, tilekit::Sum{});
  Kokkos::View<float, Mem> ra("ra"), rb("rb");
  for (int rep = 0; rep < 3; ++rep) {  // the ticket resets itself between launches
    plan.execute(a, ra);
    plan.execute(b, rb);
    auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ra);
    auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rb);
    EXPECT_EQ(ha(), 100003.0f);
    EXPECT_EQ(hb(), 200006.0f);
  }
}

}  // namespace
