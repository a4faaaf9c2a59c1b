#pragma once
// What the converting-permute tests share (test_permute_convert.cpp: real
// pairs and the plan; test_permute_convert_complex.cpp: complex and 2-byte
// pairs, split so that nvcc compiles the two halves in parallel): the host
// reference, one run checked element by element, every permutation of a shape.
// The including file defines ConvertPairs (a List of Pair) and then includes
// permute_convert_typed.inc, the typed tests over them.
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
using half = Kokkos::Experimental::half_t;
using bhalf = Kokkos::Experimental::bhalf_t;
using cfloat = Kokkos::complex<float>;
using cdouble = Kokkos::complex<double>;
using tilekit::impl::is_complex_v;
using tilekit::impl::is_half_v;

using tilekit::support::type_name;
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

}  // namespace
