#pragma once
// The value side of the permute kernels: what a kernel writes for a value it
// moved. The kernels move elements of the input type T through registers and
// team scratch unchanged; at the final global store a Store functor writes
//
//   *p = convert<U>(alpha * op(v) + beta * *p)
//
// with op the complex conjugate or the identity, U the output type, and the
// arithmetic in S = scalar_of<T, U> (float for the 2-byte floats, the wider
// type of a mixed pair; common/value_types.hpp). The store is a template
// parameter of the kernel, chosen on the host for the scalars of the call: a
// move (alpha == 1, beta == 0) only converts, and of one type to itself is
// `*p = v`, every bit kept (the kernels' fast paths key on StoreMove<T>);
// any other call takes a scaled store, where beta == 0 never reads out (a
// NaN there is overwritten, as BLAS does): on a backend that says so one
// kernel testing beta (impl::permute_one_scaled_store), else one each.
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
/// What a scaled store reads of the output: never (beta == 0), always, or
/// where beta != 0, tested for each element (one kernel for both scalings).
enum class ScaledRead { never, always, if_beta };

/// out = alpha * op(v) + beta * out, computed in S; beta == 0 never reads out.
template <class T, class U = T, bool Conj = false, ScaledRead Read = ScaledRead::if_beta>
struct StoreScaled {
  using out_type = U;
  using S = permute_scalar_t<T, U>;
  S alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(U* p, const T& v) const {
    const S x = alpha * convert<S>(conj_if<Conj>(v));
    if constexpr (Read == ScaledRead::never)
      *p = convert<U>(x);
    else if constexpr (Read == ScaledRead::always)
      *p = convert<U>(x + beta * convert<S>(*p));
    else
      *p = convert<U>(beta != S(0) ? x + beta * convert<S>(*p) : x);
  }
};

/// Calls fn(store) with the store of T into U for alpha and beta: the move
/// where alpha == 1 and beta == 0; else, where OneScaled (the backend's
/// permute_one_scaled_store), the scaled store that tests beta, else the one
/// of the case (Conj applies to complex T only: a real T compiles the plain
/// stores).
template <class T, class U, bool Conj, bool OneScaled, class Fn>
void with_store(const permute_scalar_t<T, U>& alpha, const permute_scalar_t<T, U>& beta, Fn&& fn) {
  using S = permute_scalar_t<T, U>;
  constexpr bool C = Conj && is_complex_v<T>;
  if (alpha == S(1) && beta == S(0)) fn(StoreMove<T, U, C>{});
  else if constexpr (OneScaled) fn(StoreScaled<T, U, C, ScaledRead::if_beta>{alpha, beta});
  else if (beta != S(0)) fn(StoreScaled<T, U, C, ScaledRead::always>{alpha, beta});
  else fn(StoreScaled<T, U, C, ScaledRead::never>{alpha, beta});
}

/// The scaled store a plan of T into U on a backend (OneScaled) sizes its
/// launches with: the one that reads the output, where there are two.
template <class T, class U, bool Conj, bool OneScaled>
using widest_store_t =
    StoreScaled<T, U, Conj && is_complex_v<T>, OneScaled ? ScaledRead::if_beta : ScaledRead::always>;

}  // namespace impl
}  // namespace tilekit
