// Checkered matrix multiplication: the seed's 4 x 4 example written out by
// hand, every even N from 2 to 130 and 256 for every variant against a host
// reference accumulated in double (every element checked), rounding of real
// data, both layouts, launch-shape overrides, plan reuse, and every error case.
#include <tilekit/cmm.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;
using tilekit::CmmOptions;
using tilekit::CmmVariant;

constexpr CmmVariant kVariants[] = {CmmVariant::naive, CmmVariant::tiled, CmmVariant::blocked};

TILEKIT_TYPED_TEST_SUITE(Cmm, tilekit::support::List<float, double>);

enum class Data { integers, reals };

/// Host reference straight from the definition, accumulated in double; also
/// returns sum |a b| per output element, the scale of its rounding error.
template <class HA, class HB>
void reference(const HA& a, const HB& b, int n, std::vector<double>& c,
               std::vector<double>& scale) {
  const int half = n / 2;
  c.assign(static_cast<std::size_t>(half) * n, 0.0);
  scale.assign(c.size(), 0.0);
  for (int i = 0; i < n; ++i) {
    const int s = i % 2;
    for (int j = 0; j < half; ++j) {
      double sum = 0, abs_sum = 0;
      for (int p = 0; p < half; ++p) {
        const double x = double(a(i, 2 * p)) * double(b(2 * p + 1, 2 * j + 1 - s));
        const double y = double(a(i, 2 * p + 1)) * double(b(2 * p, 2 * j + s));
        sum += x + y;
        abs_sum += std::abs(x) + std::abs(y);
      }
      const std::size_t at = static_cast<std::size_t>(i / 2) * n + j + s * half;
      c[at] = sum;
      scale[at] = abs_sum;
    }
  }
}

/// Runs every variant in `variants` on one random N x N problem and checks
/// every element of C. Integer data in [-8, 8] makes every result exact in
/// float and double, so those are compared exactly; real data in [-1, 1] must
/// stay within N eps sum|a b| of the reference.
template <class E, class T, class LA = Kokkos::LayoutRight, class LB = LA, class LC = LA>
void check_cmm(int n, std::initializer_list<CmmVariant> variants, Data data = Data::integers,
               const CmmOptions& opts = {}) {
  using Mem = typename E::memory_space;
  Kokkos::View<T**, LA, Mem> a("a", n, n);
  Kokkos::View<T**, LB, Mem> b("b", n, n);
  Kokkos::View<T**, LC, Mem> c("c", n / 2, n);
  auto ha = Kokkos::create_mirror_view(a);
  auto hb = Kokkos::create_mirror_view(b);
  std::mt19937 rng(1234u + static_cast<unsigned>(n));
  std::uniform_int_distribution<int> small(-8, 8);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  auto draw = [&] { return data == Data::integers ? T(small(rng)) : T(unit(rng)); };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      ha(i, j) = draw();
      hb(i, j) = draw();
    }
  Kokkos::deep_copy(a, ha);
  Kokkos::deep_copy(b, hb);
  std::vector<double> ref, scale;
  reference(ha, hb, n, ref, scale);
  const double eps = std::numeric_limits<T>::epsilon();
  E exec;
  for (auto v : variants) {
    Kokkos::deep_copy(c, poison<T>());
    tilekit::checkered_matmul(exec, typename decltype(a)::const_type(a),
                              typename decltype(b)::const_type(b), c, v, opts);
    exec.fence();
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
    long wrong = 0;
    for (int r = 0; r < n / 2; ++r)
      for (int col = 0; col < n; ++col) {
        const std::size_t at = static_cast<std::size_t>(r) * n + col;
        const double got = double(hc(r, col));
        const bool ok = data == Data::integers
                            ? got == ref[at]
                            : std::abs(got - ref[at]) <= n * eps * scale[at] + 1e-300;
        wrong += !ok;
      }
    EXPECT_EQ(wrong, 0) << "N = " << n << ", variant " << tilekit::to_string(v)
                        << ", k_step " << opts.k_step << ", team " << opts.team_rows << "x"
                        << opts.team_cols << " on " << opts.threads << " threads, group "
                        << opts.group << ", pad " << opts.pad;
  }
}

TYPED_TEST(Cmm, SeedExample4x4ByHand) {
  TILEKIT_CASE_TYPES(E, T);
  using View = Kokkos::View<T**, Kokkos::LayoutRight, typename E::memory_space>;
  View a("a", 4, 4), b("b", 4, 4), c("c", 2, 4);
  auto ha = Kokkos::create_mirror_view(a);
  auto hb = Kokkos::create_mirror_view(b);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      ha(i, j) = T(1 + 4 * i + j);   // a_ij = 1 .. 16
      hb(i, j) = T(17 + 4 * i + j);  // b_ij = 17 .. 32
    }
  Kokkos::deep_copy(a, ha);
  Kokkos::deep_copy(b, hb);
  auto A = [&](int i, int j) { return double(ha(i, j)); };
  auto B = [&](int i, int j) { return double(hb(i, j)); };
  // The seed's eight formulas, as printed.
  const double expected[2][4] = {
      {A(0, 0) * B(1, 1) + A(0, 2) * B(3, 1) + A(0, 1) * B(0, 0) + A(0, 3) * B(2, 0),
       A(0, 0) * B(1, 3) + A(0, 2) * B(3, 3) + A(0, 1) * B(0, 2) + A(0, 3) * B(2, 2),
       A(1, 0) * B(1, 0) + A(1, 2) * B(3, 0) + A(1, 1) * B(0, 1) + A(1, 3) * B(2, 1),
       A(1, 0) * B(1, 2) + A(1, 2) * B(3, 2) + A(1, 1) * B(0, 3) + A(1, 3) * B(2, 3)},
      {A(2, 0) * B(1, 1) + A(2, 2) * B(3, 1) + A(2, 1) * B(0, 0) + A(2, 3) * B(2, 0),
       A(2, 0) * B(1, 3) + A(2, 2) * B(3, 3) + A(2, 1) * B(0, 2) + A(2, 3) * B(2, 2),
       A(3, 0) * B(1, 0) + A(3, 2) * B(3, 0) + A(3, 1) * B(0, 1) + A(3, 3) * B(2, 1),
       A(3, 0) * B(1, 2) + A(3, 2) * B(3, 2) + A(3, 1) * B(0, 3) + A(3, 3) * B(2, 3)}};
  // c00 = 1*22 + 3*30 + 2*17 + 4*25 = 246: the first formula, evaluated by hand.
  ASSERT_EQ(expected[0][0], 246.0);
  E exec;
  for (auto v : kVariants) {
    Kokkos::deep_copy(c, poison<T>());
    tilekit::checkered_matmul(exec, a, b, c, v);
    exec.fence();
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
    for (int r = 0; r < 2; ++r)
      for (int col = 0; col < 4; ++col)
        EXPECT_EQ(double(hc(r, col)), expected[r][col])
            << "c" << r << col << ", variant " << tilekit::to_string(v);
  }
}

TYPED_TEST(Cmm, EveryVariantEveryEvenSizeTo130And256) {
  TILEKIT_CASE_TYPES(E, T);
  for (int n = 2; n <= 130; n += 2)
    check_cmm<E, T>(n, {CmmVariant::naive, CmmVariant::tiled, CmmVariant::blocked});
  check_cmm<E, T>(256, {CmmVariant::naive, CmmVariant::tiled, CmmVariant::blocked});
}

// Past one tile both ways (the GPU's blocked tiles are 128 rows of A by 256
// columns of B): whole tiles and edge tiles in one product, whole k steps and
// (398: 398 % 8 = 6) a partial last one, row- and column-major. The last tile
// of each row and column of tiles is shifted back to end on the matrix and
// stores only the outputs its neighbour does not.
TYPED_TEST(Cmm, WholeAndEdgeTilesOfOneProduct) {
  TILEKIT_CASE_TYPES(E, T);
  using L = Kokkos::LayoutLeft;
  using R = Kokkos::LayoutRight;
  for (int n : {386, 398}) check_cmm<E, T>(n, {CmmVariant::tiled, CmmVariant::blocked});
  check_cmm<E, T, L>(398, {CmmVariant::blocked});
  check_cmm<E, T, L, R, L>(398, {CmmVariant::blocked});
}

TYPED_TEST(Cmm, RealDataWithinRoundingBound) {
  TILEKIT_CASE_TYPES(E, T);
  for (int n : {2, 34, 130, 256})
    check_cmm<E, T>(n, {CmmVariant::naive, CmmVariant::tiled, CmmVariant::blocked}, Data::reals);
}

TYPED_TEST(Cmm, LayoutLeftAndMixedLayouts) {
  TILEKIT_CASE_TYPES(E, T);
  using L = Kokkos::LayoutLeft;
  using R = Kokkos::LayoutRight;
  for (int n : {2, 6, 66, 130}) {
    check_cmm<E, T, L, L, L>(n, {CmmVariant::naive, CmmVariant::tiled, CmmVariant::blocked});
    check_cmm<E, T, L, R, R>(n, {CmmVariant::naive, CmmVariant::blocked});
    check_cmm<E, T, R, L, L>(n, {CmmVariant::naive, CmmVariant::blocked});
  }
}

/// Largest team the space runs with scratch-free kernels (Serial: 1).
template <class E>
int team_size_limit() {
  using Policy = Kokkos::TeamPolicy<E>;
  return Policy(E(), 1, 1).team_size_max(
      KOKKOS_LAMBDA(const typename Policy::member_type&){}, Kokkos::ParallelForTag());
}

TYPED_TEST(Cmm, LaunchShapeOverrides) {
  TILEKIT_CASE_TYPES(E, T);
  const int tmax = team_size_limit<E>();
  // Backends whose threads run several work items (default threads > 0) take
  // any thread count dividing the items; the others one thread per item.
  const bool shared = tilekit::backends::Traits<E>::cmm_shape(sizeof(T), true).threads > 0;
  const int default_threads = tilekit::backends::Traits<E>::cmm_shape(sizeof(T), true).threads;
  // Small tiles, several work items per thread, odd pads, k steps shorter and
  // longer than N, tile groups: tiles with ragged edges in every direction and
  // threads that stage more elements than they keep in flight.
  struct Shape {
    int rows, cols, threads, k, pad, group;
  };
  const Shape shapes[] = {{2, 1, 0, 2, 0, 1},  {2, 1, 0, 6, 5, 3},  {2, 1, 2, 34, 1, 2},
                          {2, 2, 1, 4, 3, 1},  {2, 2, 4, 10, 0, 4}, {4, 2, 2, 8, 2, 2},
                          {4, 4, 16, 6, 1, 1}, {2, 3, 3, 12, 0, 2}, {6, 3, 0, 4, 2, 1}};
  int ran = 0, rejected = 0;
  for (const auto& s : shapes) {
    const int items = s.rows * s.cols;
    const int threads = s.threads > 0 ? s.threads : default_threads > 0 ? default_threads : items;
    if (threads > tmax) continue;
    CmmOptions o;
    o.team_rows = s.rows;
    o.team_cols = s.cols;
    o.threads = s.threads;
    o.k_step = s.k;
    o.pad = s.pad;
    o.group = s.group;
    if (!shared && threads != items) {
      for (auto v : {CmmVariant::tiled, CmmVariant::blocked})
        EXPECT_THROW((check_cmm<E, T>(18, {v}, Data::integers, o)), tilekit::invalid_argument);
      ++rejected;
      continue;
    }
    for (int n : {2, 18, 66, 130}) check_cmm<E, T>(n, {CmmVariant::tiled, CmmVariant::blocked},
                                                   Data::integers, o);
    ++ran;
  }
  EXPECT_GE(ran, 4) << rejected << " shapes rejected";
}

TYPED_TEST(Cmm, PlanReusedAcrossViewsAndConstInputs) {
  TILEKIT_CASE_TYPES(E, T);
  using View = Kokkos::View<T**, Kokkos::LayoutRight, typename E::memory_space>;
  const int n = 42;
  View a1("a1", n, n), b1("b1", n, n), c1("c1", n / 2, n);
  View a2("a2", n, n), c2("c2", n / 2, n);
  Kokkos::deep_copy(a1, T(1));
  Kokkos::deep_copy(b1, T(2));
  Kokkos::deep_copy(a2, T(3));
  E exec;
  typename View::const_type ca1 = a1, cb1 = b1;
  tilekit::CmmPlan plan(exec, ca1, cb1, c1, CmmVariant::blocked);
  plan.execute(ca1, cb1, c1);
  plan.execute(a2, a2, c2);  // A and B may be the same matrix
  exec.fence();
  auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c1);
  auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c2);
  for (int r = 0; r < n / 2; ++r)
    for (int col = 0; col < n; ++col) {
      ASSERT_EQ(h1(r, col), T(2 * n)) << r << "," << col;  // N terms of 1 x 2
      ASSERT_EQ(h2(r, col), T(9 * n)) << r << "," << col;  // N terms of 3 x 3
    }
  View wrong_a("wa", n + 2, n + 2), wrong_b("wb", n + 2, n + 2), wrong_c("wc", n / 2 + 1, n + 2);
  EXPECT_THROW(plan.execute(wrong_a, wrong_b, wrong_c), tilekit::invalid_argument);
}

TILEKIT_TYPED_TEST_SUITE(CmmErrors, tilekit::support::List<float>);

/// The call throws tilekit::invalid_argument naming the call and `needle`.
template <class Fn>
void expect_rejected(Fn&& fn, const std::string& needle) {
  try {
    fn();
    ADD_FAILURE() << "no exception; expected one mentioning " << needle;
  } catch (const tilekit::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("tilekit::checkered_matmul"), std::string::npos) << what;
    EXPECT_NE(what.find(needle), std::string::npos) << what;
  }
}

TYPED_TEST(CmmErrors, RejectedBeforeAnythingIsWritten) {
  using E = typename TypeParam::exec;
  using View = Matrix<E, float>;
  using Unmanaged = UMatrix<E, float>;
  E exec;
  View a4("a4", 4, 4), b4("b4", 4, 4), c4("c4", 2, 4);
  View a5("a5", 5, 5), b5("b5", 5, 5), c5("c5", 2, 5);
  View a46("a46", 4, 6), b46("b46", 4, 6), b6("b6", 6, 6);
  View c44("c44", 4, 4), c25("c25", 2, 5), c42("c42", 4, 2);
  View a0("a0", 0, 0), c0("c0", 0, 0);
  for (const View& c : {c4, c5, c44, c25, c42}) Kokkos::deep_copy(c, poison<float>());
  for (auto v : kVariants) {
    auto call = [&exec, v](const View& a, const View& b, const View& c) {
      return [&exec, v, a, b, c] { tilekit::checkered_matmul(exec, a, b, c, v); };
    };
    expect_rejected(call(a5, b5, c5), "(5, 5)");     // odd N
    expect_rejected(call(a46, b4, c4), "(4, 6)");    // non-square A
    expect_rejected(call(a4, b46, c4), "(4, 6)");    // non-square B
    expect_rejected(call(a4, b6, c4), "(6, 6)");     // B of another N
    expect_rejected(call(a4, b4, c44), "(4, 4)");    // C not N/2 x N
    expect_rejected(call(a4, b4, c25), "(2, 5)");
    expect_rejected(call(a4, b4, c42), "(4, 2)");    // C transposed
    expect_rejected(call(a0, a0, c0), "(0, 0)");     // N = 0
  }
  exec.fence();
  for (const View& c : {c4, c5, c44, c25, c42}) EXPECT_TRUE(still_poisoned(c));

  // C sharing memory with A, with B, or with both.
  View big("big", 8, 8);
  Kokkos::deep_copy(big, poison<float>());
  Unmanaged a(big.data(), 4, 4), b(big.data() + 16, 4, 4), c_in_a(big.data() + 8, 2, 4),
      c_in_b(big.data() + 20, 2, 4);
  for (auto v : kVariants) {
    expect_rejected([&] { tilekit::checkered_matmul(exec, a, b4, c_in_a, v); }, "shares memory with A");
    expect_rejected([&] { tilekit::checkered_matmul(exec, a4, b, c_in_b, v); }, "shares memory with B");
    expect_rejected([&] { tilekit::checkered_matmul(exec, a, a, c_in_a, v); }, "shares memory");
  }
  exec.fence();
  EXPECT_TRUE(still_poisoned(big));
}

TYPED_TEST(CmmErrors, LaunchShapesBeyondTheSpaceAreRejected) {
  using E = typename TypeParam::exec;
  using View = Kokkos::View<float**, Kokkos::LayoutRight, typename E::memory_space>;
  E exec;
  View a("a", 8, 8), b("b", 8, 8), c("c", 4, 8);
  Kokkos::deep_copy(c, poison<float>());
  auto with = [&](CmmOptions o, CmmVariant v, const std::string& needle) {
    expect_rejected([&] { tilekit::checkered_matmul(exec, a, b, c, v, o); }, needle);
  };
  for (auto v : {CmmVariant::tiled, CmmVariant::blocked}) {
    CmmOptions odd_k;
    odd_k.k_step = 7;
    with(odd_k, v, "k_step 7");
    CmmOptions negative;
    negative.team_rows = -1;
    with(negative, v, "group must not be negative (0: the backend's choice)");
    CmmOptions below_pad;
    below_pad.pad = -2;
    with(below_pad, v, "pad not below -1 (-1: the backend's choice)");
    CmmOptions odd_rows;
    odd_rows.team_rows = 3;
    with(odd_rows, v, "team_rows 3 must be even");
    CmmOptions indivisible;
    indivisible.team_rows = 2;
    indivisible.team_cols = 3;
    indivisible.threads = 4;
    with(indivisible, v, "4 threads");
    CmmOptions huge_team;
    huge_team.team_rows = 1024;
    huge_team.team_cols = 1024;
    huge_team.threads = 1024 * 1024;
    with(huge_team, v, "1024 x 1024");
    CmmOptions huge_scratch;
    huge_scratch.k_step = 4096;
    huge_scratch.pad = 1024;
    with(huge_scratch, v, "scratch");
  }
  exec.fence();
  EXPECT_TRUE(still_poisoned(c));
}

}  // namespace
