// Permute (and transpose) with an output of another value type, alpha/beta
// and conjugation, out = alpha * convert(op(permute(in))) + beta * out: each
// conversion pair on every enabled space, ranks 2-4 (every permutation of
// ranks 2 and 3, LayoutRight and LayoutLeft), odd and prime extents, 1 x N and
// N x 1; beta == 0 over a NaN-poisoned output (never read), beta != 0; every
// element against a host reference computed in double (complex<double>).
//
// The pairs with Kokkos' 2-byte floats (half_t, bhalf_t) run where they are
// types of their own (GPU builds); a host-only Kokkos defines both as float,
// and int16_t stands in for a 2-byte input and output there.
#include <tilekit/permute.hpp>
#include <tilekit/transpose.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "test_helpers.hpp"

// (A named namespace: nvcc warns about the typed-test machinery's declared-only
// functions over types of internal linkage.)
namespace tilekit_test_permute_convert {

/// A case's input and output types, and whether it conjugates.
template <class In, class Out, bool Conj = false>
struct Pair {
  using in = In;
  using out = Out;
  static constexpr bool conj = Conj;
};

}  // namespace tilekit_test_permute_convert

namespace {
using namespace tilekit::test;
using tilekit_test_permute_convert::Pair;
using tilekit::PermuteVariant;
using index_t = std::int64_t;
using Extents = std::vector<index_t>;
using Perm = std::vector<int>;
using half = Kokkos::Experimental::half_t;
using bhalf = Kokkos::Experimental::bhalf_t;
using cfloat = Kokkos::complex<float>;
using cdouble = Kokkos::complex<double>;
using tilekit::impl::is_complex_v;
using tilekit::impl::is_half_v;

using CommonPairs =
    List<Pair<float, double>, Pair<double, float>, Pair<std::int32_t, float>,
         Pair<std::int16_t, float>, Pair<float, std::int16_t>, Pair<cfloat, cfloat, true>,
         Pair<cdouble, cdouble, true>, Pair<cfloat, cdouble, true>, Pair<float, double, true>>;
#if KOKKOS_HALF_T_IS_FLOAT || KOKKOS_BHALF_T_IS_FLOAT
using AllPairs = CommonPairs;
#else
using AllPairs = Cat<CommonPairs, List<Pair<float, half>, Pair<half, float>, Pair<float, bhalf>,
                                       Pair<bhalf, float>>>;
#endif
template <class L> struct PairCases;
template <class... P>
struct PairCases<List<P...>> {
  using type = Cases<P...>;
};

template <class T> std::string type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, std::int16_t>) return "int16";
  else if constexpr (std::is_same_v<T, cfloat>) return "cfloat";
  else if constexpr (std::is_same_v<T, cdouble>) return "cdouble";
  else if constexpr (std::is_same_v<T, half>) return "half";
  else if constexpr (std::is_same_v<T, bhalf>) return "bhalf";
  else return "other";
}
struct PairNames {
  template <class C>
  static std::string GetName(int) {
    using P = typename C::value;
    return std::string(C::exec::name()) + "_" + type_name<typename P::in>() + "_to_" +
           type_name<typename P::out>() + (P::conj ? "_conj" : "");
  }
};

// ------------------------------------------------------------ host values

using cd = std::complex<double>;

/// Value k of an input: quarters in [-31.75, 31.75] (integers in [-127, 127]
/// for integer types), exact in every tested type (bhalf_t has 8 significant
/// bits); complex values differ in both parts.
inline double real_value(index_t k, bool integral) {
  const double v = static_cast<double>((k * 37 + 11) % 255) - 127;
  return integral ? v : v / 4;
}
template <class T>
T from_double(double re, double im = 0) {
  if constexpr (is_complex_v<T>) return T(static_cast<typename T::value_type>(re),
                                          static_cast<typename T::value_type>(im));
  else if constexpr (is_half_v<T>) return T(static_cast<float>(re));
  else return static_cast<T>(re);
}
template <class T>
cd to_cd(const T& x) {
  if constexpr (is_complex_v<T>) return {static_cast<double>(x.real()), static_cast<double>(x.imag())};
  else if constexpr (is_half_v<T>) return {static_cast<double>(static_cast<float>(x)), 0};
  else return {static_cast<double>(x), 0};
}
template <class T>
T value_at(index_t k) {
  const bool integral = std::is_integral_v<T>;
  return from_double<T>(real_value(k, integral), real_value(k + 7, integral));
}

/// Relative unit of the type (0 for integers: exact).
template <class T>
double eps_of() {
  if constexpr (is_complex_v<T>) return eps_of<typename T::value_type>();
  else if constexpr (std::is_integral_v<T>) return 0;
  else if constexpr (std::is_same_v<T, half> && is_half_v<T>) return std::ldexp(1.0, -10);
  else if constexpr (std::is_same_v<T, bhalf> && is_half_v<T>) return std::ldexp(1.0, -7);
  else return std::numeric_limits<T>::epsilon();
}

// ---------------------------------------------------------------- running

template <class T, int R> struct Stars { using type = typename Stars<T, R - 1>::type*; };
template <class T> struct Stars<T, 0> { using type = T; };
template <class T, int R, class Layout, class Mem>
using UView = Kokkos::View<typename Stars<T, R>::type, Layout, Mem, Kokkos::MemoryUnmanaged>;

template <class V, std::size_t... I>
V make_view(typename V::pointer_type p, const Extents& e, std::index_sequence<I...>) {
  return V(p, static_cast<std::size_t>(e[I])...);
}

index_t volume(const Extents& e) {
  index_t v = 1;
  for (auto x : e) v *= x;
  return v;
}

index_t offset_of(const Extents& idx, const Extents& ext, bool left) {
  index_t off = 0, stride = 1;
  const int r = static_cast<int>(ext.size());
  for (int q = 0; q < r; ++q) {
    const int d = left ? q : r - 1 - q;
    off += idx[d] * stride;
    stride *= ext[d];
  }
  return off;
}

struct Scalars {
  double alpha, beta;
};

/// The plan of a case over raw buffers: the free function for plain pairs
/// (fused) or a plan (conjugating, or naive).
template <class Exec, class P, int R, class Layout>
void execute(const typename P::in* a, typename P::out* b, const Extents& ext, const Perm& perm,
             Scalars s, PermuteVariant v) {
  using Mem = typename Exec::memory_space;
  using VI = UView<const typename P::in, R, Layout, Mem>;
  using VO = UView<typename P::out, R, Layout, Mem>;
  Extents oext(R);
  for (int k = 0; k < R; ++k) oext[k] = ext[perm[k]];
  const VI in = make_view<VI>(a, ext, std::make_index_sequence<R>{});
  const VO out = make_view<VO>(b, oext, std::make_index_sequence<R>{});
  Exec exec;
  if constexpr (P::conj) {
    tilekit::PermutePlan plan(exec, in, out, perm, tilekit::conjugate, v);
    static_assert(std::is_same_v<decltype(plan), tilekit::PermutePlan<Exec, typename P::in,
                                                                      typename P::out, true>>);
    plan.execute(in, out, s.alpha, s.beta);
  } else if (v == PermuteVariant::fused) {
    tilekit::permute(exec, in, out, perm, s.alpha, s.beta);
  } else {
    tilekit::PermutePlan plan(exec, in, out, perm, v);
    plan.execute(in, out, s.alpha, s.beta);
  }
  exec.fence();
}

/// Runs one case and checks every element; returns the number of wrong ones.
template <class Exec, class P, int R>
long run_one(const Extents& ext, const Perm& perm, bool left, Scalars s,
             PermuteVariant v = PermuteVariant::fused) {
  using TI = typename P::in;
  using TO = typename P::out;
  using Mem = typename Exec::memory_space;
  const index_t n = volume(ext);
  Kokkos::View<TI*, Mem> a("a", n);
  Kokkos::View<TO*, Mem> b("b", n);
  auto ha = Kokkos::create_mirror_view(a);
  auto hb = Kokkos::create_mirror_view(b);
  for (index_t k = 0; k < n; ++k) {
    ha(k) = value_at<TI>(k);
    if (s.beta != 0) hb(k) = value_at<TO>(3 * k + 13);
    else if constexpr (std::is_integral_v<TO>) hb(k) = poison<TO>();
    else hb(k) = from_double<TO>(std::numeric_limits<double>::quiet_NaN(),
                                 std::numeric_limits<double>::quiet_NaN());
  }
  Kokkos::deep_copy(a, ha);
  Kokkos::deep_copy(b, hb);
  const std::vector<TO> before(hb.data(), hb.data() + n);
  if (left) execute<Exec, P, R, Kokkos::LayoutLeft>(a.data(), b.data(), ext, perm, s, v);
  else execute<Exec, P, R, Kokkos::LayoutRight>(a.data(), b.data(), ext, perm, s, v);
  Kokkos::deep_copy(hb, b);
  // Reference in double: walk the input's logical indices.
  constexpr bool conj = P::conj && is_complex_v<TI>;
  const double e_out = eps_of<TO>();
  const double e_s = eps_of<tilekit::permute_scalar_t<TI, TO>>();
  Extents oext(R), i(R, 0), j(R);
  for (int k = 0; k < R; ++k) oext[k] = ext[perm[k]];
  long wrong = 0;
  for (index_t c = 0; c < n; ++c) {
    for (int k = 0; k < R; ++k) j[k] = i[perm[k]];
    const index_t o = offset_of(j, oext, left);
    cd x = to_cd(ha(offset_of(i, ext, left)));
    if (conj) x = std::conj(x);
    if constexpr (!is_complex_v<TO>) x = x.real();  // (only real inputs reach here)
    const cd ax = s.alpha * x;
    const cd by = s.beta != 0 ? s.beta * to_cd(before[o]) : cd(0);
    cd want = ax + by;
    if constexpr (std::is_integral_v<TO>) want = std::trunc(want.real());  // C++ conversion
    const cd got = to_cd(hb(o));
    const double tol = 2 * e_out * std::abs(want) + 4 * e_s * (std::abs(ax) + std::abs(by));
    const bool ok = std::abs(got.real() - want.real()) <= tol &&
                    std::abs(got.imag() - want.imag()) <= tol;
    // alpha == 1, beta == 0: the conversion of exact values is exact.
    const bool exact = s.alpha != 1 || s.beta != 0 || got == want;
    wrong += !(ok && exact);
    for (int d = R - 1; d >= 0 && ++i[d] == ext[d]; --d) i[d] = 0;
  }
  return wrong;
}

std::string describe(const Extents& e, const Perm& p, bool left, Scalars s, PermuteVariant v) {
  return "extents (" + tilekit::impl::join(e, e.size()) + ") perm [" +
         tilekit::impl::join(p, p.size()) + "] " + (left ? "LayoutLeft" : "LayoutRight") +
         " alpha " + std::to_string(s.alpha) + " beta " + std::to_string(s.beta) + " " +
         std::string(tilekit::to_string(v));
}

/// (1, 0) over a NaN-poisoned output, a scale, and two alpha/beta pairs.
const Scalars kScalars[] = {{1, 0}, {-1.5, 0}, {0.5, 2}, {-2, -0.5}};

/// Every permutation of rank R of each shape, each alpha/beta.
template <class Exec, class P, int R>
void every_permutation(const std::vector<Extents>& shapes, bool left) {
  for (const auto& ext : shapes) {
    Perm p(R);
    std::iota(p.begin(), p.end(), 0);
    do {
      for (Scalars s : kScalars)
        EXPECT_EQ((run_one<Exec, P, R>(ext, p, left, s)), 0) << describe(ext, p, left, s, PermuteVariant::fused);
    } while (std::next_permutation(p.begin(), p.end()));
  }
}

template <class C>
class PermuteConvert : public ::testing::Test {};
using PairTypes = PairCases<AllPairs>::type;
TYPED_TEST_SUITE(PermuteConvert, PairTypes, PairNames);

TYPED_TEST(PermuteConvert, Rank2) {
  // 1 x N, N x 1, primes, more than one tile each way.
  every_permutation<typename TypeParam::exec, typename TypeParam::value, 2>(
      {{1, 1}, {1, 131}, {131, 1}, {37, 61}, {130, 67}}, false);
}

TYPED_TEST(PermuteConvert, Rank3BothLayouts) {
  // The copy, rows and tiled methods; a long innermost run and short ones.
  using E = typename TypeParam::exec;
  using P = typename TypeParam::value;
  every_permutation<E, P, 3>({{5, 7, 9}, {3, 65, 70}, {1, 33, 2}, {29, 2, 131}}, false);
  every_permutation<E, P, 3>({{5, 7, 9}, {3, 65, 70}}, true);
}

TYPED_TEST(PermuteConvert, Rank4) {
  using E = typename TypeParam::exec;
  using P = typename TypeParam::value;
  for (const Perm& p : {Perm{0, 1, 2, 3}, Perm{3, 2, 1, 0}, Perm{0, 2, 1, 3}, Perm{1, 3, 0, 2},
                        Perm{2, 0, 3, 1}})
    for (Scalars s : kScalars)
      for (bool left : {false, true})
        EXPECT_EQ((run_one<E, P, 4>({7, 5, 11, 9}, p, left, s)), 0)
            << describe({7, 5, 11, 9}, p, left, s, PermuteVariant::fused);
}

TYPED_TEST(PermuteConvert, NaiveVariant) {
  using E = typename TypeParam::exec;
  using P = typename TypeParam::value;
  for (Scalars s : kScalars)
    EXPECT_EQ((run_one<E, P, 3>({3, 65, 70}, {2, 0, 1}, false, s, PermuteVariant::naive)), 0)
        << describe({3, 65, 70}, {2, 0, 1}, false, s, PermuteVariant::naive);
}

// ------------------------------------------------------ plan and transpose

using Host = Kokkos::DefaultHostExecutionSpace;
template <class T> using H2 = Kokkos::View<T**, Kokkos::LayoutRight, Host::memory_space>;
template <class T> using H3 = Kokkos::View<T***, Kokkos::LayoutRight, Host::memory_space>;

/// A converting plan takes the kernels a plain one of its larger type does
/// (the tile is the larger element's): the same method and tiled box.
TEST(PermuteConvertPlan, SameMethodsAsThePlainPermute) {
  Host exec;
  H3<float> a("a", 40, 50, 60);
  H3<double> ad("ad", 40, 50, 60);
  H3<double> d012("d", 40, 50, 60), d102("d", 50, 40, 60), d120("d", 50, 60, 40);
  using M = tilekit::PermuteMethod;
  const tilekit::PermutePlan c012(exec, a, d012, {0, 1, 2});
  const tilekit::PermutePlan p012(exec, ad, d012, {0, 1, 2});
  const tilekit::PermutePlan c102(exec, a, d102, {1, 0, 2});
  const tilekit::PermutePlan p102(exec, ad, d102, {1, 0, 2});
  const tilekit::PermutePlan c120(exec, a, d120, {1, 2, 0});
  const tilekit::PermutePlan p120(exec, ad, d120, {1, 2, 0});
  static_assert(std::is_same_v<decltype(c012), const tilekit::PermutePlan<Host, float, double>>);
  static_assert(std::is_same_v<decltype(p012), const tilekit::PermutePlan<Host, double, double>>);
  static_assert(std::is_same_v<decltype(c012)::scalar_type, double>);
  EXPECT_EQ(c012.method(), M::copy);
  EXPECT_EQ(p012.method(), M::copy);
  EXPECT_EQ(c102.method(), p102.method());
  EXPECT_EQ(c120.method(), M::tiled);
  EXPECT_EQ(p120.method(), M::tiled);
  EXPECT_EQ(c120.config().tile, p120.config().tile);
  EXPECT_EQ(c120.tiled_layout().kind, p120.tiled_layout().kind);
  EXPECT_EQ(c120.tiled_layout().ntiles, p120.tiled_layout().ntiles);
}

/// The types alpha * x + beta * y is computed in.
TEST(PermuteConvertPlan, ScalarTypes) {
  static_assert(std::is_same_v<tilekit::permute_scalar_t<float, double>, double>);
  static_assert(std::is_same_v<tilekit::permute_scalar_t<double, float>, double>);
  static_assert(std::is_same_v<tilekit::permute_scalar_t<std::int32_t, float>, float>);
  static_assert(std::is_same_v<tilekit::permute_scalar_t<std::int32_t, std::int32_t>, std::int32_t>);
  static_assert(std::is_same_v<tilekit::permute_scalar_t<half, half>, float>);
  static_assert(std::is_same_v<tilekit::permute_scalar_t<float, half>, float>);
  static_assert(std::is_same_v<tilekit::permute_scalar_t<bhalf, float>, float>);
  static_assert(std::is_same_v<tilekit::permute_scalar_t<half, double>, double>);
  static_assert(std::is_same_v<tilekit::permute_scalar_t<cfloat, cdouble>, cdouble>);
  static_assert(std::is_same_v<tilekit::permute_scalar_t<float, cfloat>, cfloat>);
  SUCCEED();
}

/// The seed's rank-3 variants move one type unconjugated: anything else
/// throws before anything is written.
TEST(PermuteConvertPlan, SeedVariantsRejectConversionAndConjugation) {
  Host exec;
  H3<float> a("a", 4, 5, 6);
  H3<double> d("d", 5, 6, 4);
  H3<cfloat> c("c", 4, 5, 6), ct("ct", 5, 6, 4);
  Kokkos::deep_copy(d, poison<double>());
  for (auto v : {PermuteVariant::simple, PermuteVariant::simple_templated, PermuteVariant::shared,
                 PermuteVariant::shared_templated, PermuteVariant::shared_bank_free}) {
    EXPECT_THROW(tilekit::PermutePlan(exec, a, d, {1, 2, 0}, v), tilekit::invalid_argument);
    EXPECT_THROW(tilekit::PermutePlan(exec, c, ct, {1, 2, 0}, tilekit::conjugate, v),
                 tilekit::invalid_argument);
    // A conjugating plan of a real type is a plain one: every variant.
    H3<float> f("f", 5, 6, 4);
    EXPECT_NO_THROW(tilekit::PermutePlan(exec, a, f, {1, 2, 0}, tilekit::conjugate, v));
  }
  EXPECT_TRUE(still_poisoned(d));
}

/// The 2-D transpose with another output type, alpha/beta or conjugation is
/// the permute {1, 0}.
TEST(PermuteConvertPlan, TransposeConvertsScalesAndConjugates) {
  Host exec;
  const int m = 37, n = 131;
  H2<float> a("a", m, n);
  H2<double> at("at", n, m);
  H2<cfloat> c("c", m, n), ch("ch", n, m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      a(i, j) = static_cast<float>(real_value(i * n + j, false));
      c(i, j) = cfloat(a(i, j), static_cast<float>(real_value(i * n + j + 5, false)));
    }
  Kokkos::deep_copy(at, std::numeric_limits<double>::quiet_NaN());
  tilekit::transpose(exec, a, at);
  exec.fence();
  long wrong = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) wrong += at(j, i) != static_cast<double>(a(i, j));
  EXPECT_EQ(wrong, 0);
  tilekit::transpose(exec, a, at, 2.0, -1.0);  // at = 2 a^T - at = a^T
  exec.fence();
  wrong = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) wrong += at(j, i) != static_cast<double>(a(i, j));
  EXPECT_EQ(wrong, 0);
  tilekit::transpose(exec, c, ch, tilekit::conjugate);
  exec.fence();
  wrong = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) wrong += ch(j, i) != Kokkos::conj(c(i, j));
  EXPECT_EQ(wrong, 0);
}

}  // namespace
