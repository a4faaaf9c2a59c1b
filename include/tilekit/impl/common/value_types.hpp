#pragma once
// The value types the kernels move and what they compute in: Kokkos' 2-byte
// floats (half_t, bhalf_t), complex numbers, the type arithmetic on them is
// done in (float for the 2-byte floats), and the conversion of one value type
// into another. Shared by the permute's stores (permute/store.hpp) and the
// reductions (reduce/ops.hpp).
//
// In a host-only Kokkos half_t and bhalf_t are typedefs of float
// (KOKKOS_HALF_T_IS_FLOAT): is_half_v is then false for them (they are float),
// and everything below is float's.
#include <Kokkos_Core.hpp>

#include <type_traits>

namespace tilekit::impl {

template <class T> struct is_complex : std::false_type {};
template <class R> struct is_complex<Kokkos::complex<R>> : std::true_type {};
template <class T> inline constexpr bool is_complex_v = is_complex<T>::value;

/// True for Kokkos' 2-byte floats where they are types of their own.
template <class T>
inline constexpr bool is_half_v =
    !std::is_same_v<T, float> && (std::is_same_v<T, Kokkos::Experimental::half_t> ||
                                  std::is_same_v<T, Kokkos::Experimental::bhalf_t>);

/// The type arithmetic on T is done in: float for the 2-byte floats, T otherwise.
template <class T> using compute_t = std::conditional_t<is_half_v<T>, float, T>;

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<Kokkos::complex<R>> { using type = R; };

/// The type in which out = alpha * in + beta * out is computed for an input of
/// TIn and an output of TOut: one type's compute_t when they are the same,
/// else the wider of the two compute_t (the usual arithmetic conversions:
/// int32 and float give float, float and double double), complex when either
/// is complex.
template <class TIn, class TOut>
struct scalar_of {
  using A = compute_t<TIn>;
  using B = compute_t<TOut>;
  using real = std::common_type_t<typename real_of<A>::type, typename real_of<B>::type>;
  using type = std::conditional_t<
      std::is_same_v<TIn, TOut>, A,
      std::conditional_t<is_complex_v<A> || is_complex_v<B>, Kokkos::complex<real>, real>>;
};

/// x as a U: the identity for U == T; a 2-byte float goes through float to
/// the other 2-byte float; a real value becomes a complex one with imaginary
/// part 0. A complex value does not become a real one (it would drop the
/// imaginary part): that does not compile.
template <class U, class T>
KOKKOS_INLINE_FUNCTION U convert(const T& x) {
  if constexpr (std::is_same_v<U, T>) {
    return x;
  } else if constexpr (is_complex_v<U>) {
    using R = typename U::value_type;
    if constexpr (is_complex_v<T>) return U(convert<R>(x.real()), convert<R>(x.imag()));
    else return U(convert<R>(x), R(0));
  } else {
    static_assert(!is_complex_v<T>,
                  "tilekit: a complex value does not convert to a real type "
                  "(use a complex output)");
    if constexpr (is_half_v<T> && is_half_v<U>) return U(static_cast<float>(x));
    else return static_cast<U>(x);
  }
}

/// The complex conjugate of x when Conj, else x (real types: always x).
template <bool Conj, class T>
KOKKOS_INLINE_FUNCTION T conj_if(const T& x) {
  if constexpr (Conj && is_complex_v<T>) return Kokkos::conj(x);
  else return x;
}

}  // namespace tilekit::impl
