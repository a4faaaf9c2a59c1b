// Permute (and transpose) with an output of another value type, alpha/beta
// and conjugation, out = alpha * convert(op(permute(in))) + beta * out: each
// conversion pair on every enabled space, ranks 2-4 (every permutation of
// ranks 2 and 3, LayoutRight and LayoutLeft), odd and prime extents, 1 x N and
// N x 1; beta == 0 over a NaN-poisoned output (never read), beta != 0; every
// element against a host reference computed in double (complex<double>).
//
// This file: the real pairs (int16_t stands in for a 2-byte input and output
// where a host-only Kokkos makes half_t and bhalf_t floats) and the plan;
// test_permute_convert_complex.cpp: complex pairs and the 2-byte floats.
#include "permute_convert_cases.hpp"

namespace {
/// Real pairs of every build (int16_t: a 2-byte input and output in CI, where
/// Kokkos makes half_t a float); the complex and half pairs are in
/// test_permute_convert_complex.cpp.
using ConvertPairs = List<Pair<float, double>, Pair<double, float>, Pair<std::int32_t, float>,
                          Pair<std::int16_t, float>, Pair<float, std::int16_t>,
                          Pair<float, double, true>>;
}  // namespace

#include "permute_convert_typed.inc"

namespace {
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
  // (One type, a pure move: the transpose's plan where the backend runs it so.)
  EXPECT_EQ(p120.method(), tilekit::impl::permute_2d_by_transpose<Host>() ? M::transpose : M::tiled);
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
