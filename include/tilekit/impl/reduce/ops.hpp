#pragma once
// The operations of the reduce family: what an accumulator starts from, how an
// element is folded into it, how two partial results join, and what the caller
// gets back. Every join is associative and commutative, so min/max/loc results
// and integer sums do not depend on the order of accumulation. Kokkos' 2-byte
// floats (half_t, bhalf_t) are widened to float as they are read (exactly):
// sums accumulate and return float, min and max compare in float and return
// the element (common/value_types.hpp's compute_t).
#include <Kokkos_Core.hpp>
#include <tilekit/impl/common/tile_copy.hpp>
#include <tilekit/impl/common/value_types.hpp>

#include <cstdint>
#include <string_view>
#include <type_traits>

namespace tilekit {

/// Operations: pass an instance, tilekit::reduce(exec, v, tilekit::Sum{}).
struct Sum {};             ///< integers exact (see sum_t); floats in their own precision
struct CompensatedSum {};  ///< floats: error terms of every addition carried along (TwoSum)
struct Min {};             ///< smallest element; NaN when any element is NaN
struct Max {};             ///< largest element; NaN when any element is NaN
struct MinLoc {};          ///< smallest element and the smallest index holding it
struct MaxLoc {};          ///< largest element and the smallest index holding it

/// Result of MinLoc and MaxLoc. `index` counts elements from view.data(), in
/// memory order (for a LayoutRight view: the row-major linear index); -1 for an
/// empty view. A NaN ranks before every number, so the first NaN is reported.
template <class T>
struct ValueIndex {
  T value;
  std::int64_t index;
};

/// Accumulator and result of Sum: int64 for integers (an int32 sum is exact for
/// any size below 2^32 elements; int64 sums wrap modulo 2^64, exact whenever the
/// true sum fits), the element type for floats, float for half_t and bhalf_t.
template <class T>
using sum_t = std::conditional_t<std::is_integral_v<T>, std::int64_t, impl::compute_t<T>>;

template <class Op> constexpr std::string_view op_name();
template <> constexpr std::string_view op_name<Sum>() { return "sum"; }
template <> constexpr std::string_view op_name<CompensatedSum>() { return "sum_compensated"; }
template <> constexpr std::string_view op_name<Min>() { return "min"; }
template <> constexpr std::string_view op_name<Max>() { return "max"; }
template <> constexpr std::string_view op_name<MinLoc>() { return "minloc"; }
template <> constexpr std::string_view op_name<MaxLoc>() { return "maxloc"; }

namespace impl {

template <class T>
KOKKOS_INLINE_FUNCTION bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) return x != x;
  else return false;
}

/// a + b; integers wrap modulo 2^64 rather than overflow.
template <class S>
KOKKOS_INLINE_FUNCTION S plus(S a, S b) {
  if constexpr (std::is_integral_v<S>)
    return static_cast<S>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
  else
    return a + b;
}

template <class Op, class T> struct OpTraits;

template <class T>
struct OpTraits<Sum, T> {
  using acc_type = sum_t<T>;
  using result_type = sum_t<T>;
  KOKKOS_INLINE_FUNCTION static acc_type identity() { return acc_type(0); }
  KOKKOS_INLINE_FUNCTION static void add(acc_type& a, T x, index_t) {
    a = plus(a, static_cast<acc_type>(x));
  }
  KOKKOS_INLINE_FUNCTION static void join(acc_type& a, const acc_type& b) { a = plus(a, b); }
  /// Reads a partial written by another team (bypassing non-coherent caches).
  KOKKOS_INLINE_FUNCTION static acc_type load(const acc_type* p) {
    return *static_cast<const volatile acc_type*>(p);
  }
  KOKKOS_INLINE_FUNCTION static result_type result(const acc_type& a) { return a; }
};

/// Running sum and the exact rounding errors of its additions (TwoSum).
template <class T>
struct Compensated {
  T sum;
  T err;
};

template <class E>
struct OpTraits<CompensatedSum, E> {
  using T = compute_t<E>;  ///< the arithmetic's type (float for 2-byte floats)
  static_assert(std::is_floating_point_v<T>,
                "tilekit::CompensatedSum is for floating-point views (integer sums are exact)");
  using acc_type = Compensated<T>;
  using result_type = T;
  /// s + e == a + b exactly, s = fl(a + b) (Knuth's TwoSum, no branch).
  KOKKOS_INLINE_FUNCTION static void two_sum(T a, T b, T& s, T& e) {
    s = a + b;
    const T z = s - a;
    e = (a - (s - z)) + (b - z);
  }
  KOKKOS_INLINE_FUNCTION static acc_type identity() { return {T(0), T(0)}; }
  KOKKOS_INLINE_FUNCTION static void add(acc_type& a, E x, index_t) {
    T s, e;
    two_sum(a.sum, convert<T>(x), s, e);
    a.sum = s;
    a.err += e;
  }
  KOKKOS_INLINE_FUNCTION static void join(acc_type& a, const acc_type& b) {
    T s, e;
    two_sum(a.sum, b.sum, s, e);
    a.sum = s;
    a.err = (a.err + b.err) + e;
  }
  KOKKOS_INLINE_FUNCTION static acc_type load(const acc_type* p) {
    const volatile acc_type* v = p;
    return {v->sum, v->err};
  }
  /// An infinite or NaN sum is the IEEE result of the plain sum; its error
  /// terms (inf - inf) mean nothing then.
  KOKKOS_INLINE_FUNCTION static result_type result(const acc_type& a) {
    return Kokkos::isfinite(a.sum) ? a.sum + a.err : a.sum;
  }
};

/// The sign of a float as +-1 of its type (0 for integers), to compare signs
/// as floats: a float compare vectorises where a compare of the sign bits
/// does not (doubles: SSE2 has no 64-bit integer compare, so GCC left the
/// double Min/Max fold scalar with Kokkos::signbit).
template <class T>
KOKKOS_INLINE_FUNCTION T sign_of(T x) {
  if constexpr (std::is_floating_point_v<T>) return Kokkos::copysign(T(1), x);
  else return T(0);
}

/// x ranks strictly before a: smaller (IsMax: larger), NaN before numbers, and
/// -0 before +0 (IsMax: +0 before -0), as IEEE 754-2019 minimum/maximum order
/// them, so that the sign of a zero result does not depend on the order of
/// evaluation. The terms are joined with & and |, not && and ||: no branch,
/// so a CPU compiler vectorises the folds of a lane loop (compare and blend).
template <bool IsMax, class T>
KOKKOS_INLINE_FUNCTION bool ranks_before(T x, T a) {
  const bool nan_first = is_nan(x) & !is_nan(a);
  if constexpr (IsMax) return (x > a) | nan_first | ((x == a) & (sign_of(x) > sign_of(a)));
  else return (x < a) | nan_first | ((x == a) & (sign_of(x) < sign_of(a)));
}
template <class T>
KOKKOS_INLINE_FUNCTION bool same_rank(T x, T a) {
  return ((x == a) & (sign_of(x) == sign_of(a))) | (is_nan(x) & is_nan(a));
}

/// Min/Max of elements of E, compared in F = compute_t<E> (float for 2-byte
/// floats: exact), the result an E again (exact: it is an element, or the
/// identity).
template <bool IsMax, class E>
struct ExtremumTraits {
  using T = compute_t<E>;
  using acc_type = T;
  using result_type = E;
  KOKKOS_INLINE_FUNCTION static acc_type identity() {
    if constexpr (std::is_floating_point_v<T>)
      return IsMax ? -Kokkos::Experimental::infinity_v<T> : Kokkos::Experimental::infinity_v<T>;
    else
      return IsMax ? Kokkos::Experimental::finite_min_v<T> : Kokkos::Experimental::finite_max_v<T>;
  }
  KOKKOS_INLINE_FUNCTION static void fold(acc_type& a, T x) {
    a = ranks_before<IsMax>(x, a) ? x : a;
  }
  KOKKOS_INLINE_FUNCTION static void add(acc_type& a, E x, index_t) { fold(a, convert<T>(x)); }
  KOKKOS_INLINE_FUNCTION static void join(acc_type& a, const acc_type& b) { fold(a, b); }
  KOKKOS_INLINE_FUNCTION static acc_type load(const acc_type* p) {
    return *static_cast<const volatile acc_type*>(p);
  }
  KOKKOS_INLINE_FUNCTION static result_type result(const acc_type& a) { return convert<E>(a); }
};

template <bool IsMax, class E>
struct ExtremumLocTraits {
  using T = compute_t<E>;
  using acc_type = ValueIndex<T>;
  using result_type = ValueIndex<E>;
  /// Index of the identity: loses every tie, so any element replaces it.
  static constexpr index_t none = Kokkos::Experimental::finite_max_v<index_t>;
  /// The fold of the values alone (ReduceKernel's locate(): values first).
  using value_traits = ExtremumTraits<IsMax, E>;
  /// Whether the extremum v of some later elements replaces a's: it ranks
  /// before a's value, or ties the identity.
  KOKKOS_INLINE_FUNCTION static bool improves(const acc_type& a, T v) {
    return ranks_before<IsMax>(v, a.value) | (same_rank(v, a.value) & (a.index == none));
  }
  KOKKOS_INLINE_FUNCTION static bool ranks_as(E x, T v) { return same_rank(convert<T>(x), v); }
  KOKKOS_INLINE_FUNCTION static acc_type identity() {
    return {ExtremumTraits<IsMax, E>::identity(), none};
  }
  KOKKOS_INLINE_FUNCTION static void fold(acc_type& a, T x, index_t i) {
    const bool take = ranks_before<IsMax>(x, a.value) | (same_rank(x, a.value) & (i < a.index));
    a.value = take ? x : a.value;
    a.index = take ? i : a.index;
  }
  KOKKOS_INLINE_FUNCTION static void add(acc_type& a, E x, index_t i) {
    fold(a, convert<T>(x), i);
  }
  KOKKOS_INLINE_FUNCTION static void join(acc_type& a, const acc_type& b) {
    fold(a, b.value, b.index);
  }
  KOKKOS_INLINE_FUNCTION static acc_type load(const acc_type* p) {
    const volatile acc_type* v = p;
    return {v->value, v->index};
  }
  KOKKOS_INLINE_FUNCTION static result_type result(const acc_type& a) {
    return {convert<E>(a.value), a.index == none ? index_t(-1) : a.index};
  }
};

template <class T> struct OpTraits<Min, T> : ExtremumTraits<false, T> {};
template <class T> struct OpTraits<Max, T> : ExtremumTraits<true, T> {};
template <class T> struct OpTraits<MinLoc, T> : ExtremumLocTraits<false, T> {};
template <class T> struct OpTraits<MaxLoc, T> : ExtremumLocTraits<true, T> {};

}  // namespace impl
}  // namespace tilekit
