#pragma once
// The value side of the permute kernels: what a kernel writes for a value it
// moved. The kernels move elements of the input type T through registers and
// team scratch unchanged; at the final global store a Store functor writes
//
//   *p = convert<U>(alpha * op(v) + beta * *p)
//
// with op the complex conjugate or the identity, U the output type, and the
// arithmetic in S = scalar_of<T, U> (float for the 2-byte floats, the wider
// type of a mixed pair; common/value_types.hpp). The store is a template parameter of
// the kernel, specialised on the host for the scalars of the call: beta == 0
// never reads out (a NaN there is overwritten, as BLAS does), alpha == 1
// does not multiply, and a move of one type to itself is `*p = v`, every bit
// kept (the kernels' fast paths key on StoreMove<T>).
#include <tilekit/impl/common/value_types.hpp>

#include <type_traits>

namespace tilekit {

/// Tag of the conjugating permute and transpose: tilekit::permute(exec, in,
/// out, perm, tilekit::conjugate). Conjugates complex elements; a no-op for
/// real ones (as BLAS's 'C' is 'T' for real matrices).
struct conjugate_t {
  explicit constexpr conjugate_t() = default;
};
inline constexpr conjugate_t conjugate{};

/// The type alpha and beta are applied in for a permute of TIn into TOut.
template <class TIn, class TOut>
using permute_scalar_t = typename impl::scalar_of<TIn, TOut>::type;

namespace impl {

/// out = op(v), converted.
template <class T, class U = T, bool Conj = false>
struct StoreMove {
  using out_type = U;
  KOKKOS_INLINE_FUNCTION void operator()(U* p, const T& v) const {
    *p = convert<U>(conj_if<Conj>(v));
  }
};
/// out = alpha * op(v), computed in S.
template <class T, class U = T, bool Conj = false>
struct StoreScale {
  using out_type = U;
  using S = permute_scalar_t<T, U>;
  S alpha;
  KOKKOS_INLINE_FUNCTION void operator()(U* p, const T& v) const {
    *p = convert<U>(alpha * convert<S>(conj_if<Conj>(v)));
  }
};
/// out = alpha * op(v) + beta * out, computed in S.
template <class T, class U = T, bool Conj = false>
struct StoreAxpby {
  using out_type = U;
  using S = permute_scalar_t<T, U>;
  S alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(U* p, const T& v) const {
    *p = convert<U>(alpha * convert<S>(conj_if<Conj>(v)) + beta * convert<S>(*p));
  }
};

/// Calls fn(store) with the store of T into U specialised for alpha and beta
/// (Conj applies to complex T only: a real T compiles the plain stores).
template <class T, class U = T, bool Conj = false, class Fn>
void with_store(const permute_scalar_t<T, U>& alpha, const permute_scalar_t<T, U>& beta, Fn&& fn) {
  using S = permute_scalar_t<T, U>;
  constexpr bool C = Conj && is_complex_v<T>;
  if (beta != S(0)) fn(StoreAxpby<T, U, C>{alpha, beta});
  else if (alpha != S(1)) fn(StoreScale<T, U, C>{alpha});
  else fn(StoreMove<T, U, C>{});
}

}  // namespace impl
}  // namespace tilekit
