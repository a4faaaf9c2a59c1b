#pragma once
// The fuzz cases' data and their plain host reference: a loop over logical
// indices, no tiling, no fusion, nothing shared with the kernels.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "fuzz_case.hpp"
#include "support/types.hpp"
#include "support/views.hpp"  // contiguous_strides

namespace tilekit::fuzz {

template <class T> struct is_complex : std::false_type {};
template <class R> struct is_complex<Kokkos::complex<R>> : std::true_type {};

/// Calls fn(T{}) for the case's element type (Type follows support::ElementTypes).
template <class Fn>
auto with_type(Type t, Fn&& fn) {
  return support::with_type_at(support::ElementTypes{}, static_cast<int>(t), std::forward<Fn>(fn));
}

/// Element k of a buffer drawn from `seed`. Every value, and every alpha x +
/// beta y of them with the generator's alpha and beta, is exact in every type,
/// so results compare bit for bit whatever the evaluation order or FMA use.
/// `narrow` (reductions) keeps float sums of 2^17 elements exact too.
template <class T>
T datum(std::uint64_t seed, std::int64_t k, bool narrow = false) {
  const std::uint64_t h = mix(seed ^ mix(static_cast<std::uint64_t>(k)));
  auto real = [&](std::uint64_t x) -> double {
    if (narrow) return (static_cast<double>(x % 129) - 64) / 4;
    return (static_cast<double>(x % 2049) - 1024) / 8;
  };
  if constexpr (is_complex<T>::value) {
    using R = typename T::value_type;
    return T(static_cast<R>(real(h)), static_cast<R>(real(mix(h))));
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<std::int64_t>(h % 2001) - 1000);
  } else {
    return static_cast<T>(real(h));
  }
}

/// What an output that must be overwritten starts as: a NaN with a payload
/// (floats), or a value no case produces (integers).
template <class T>
T poison() {
  if constexpr (is_complex<T>::value) {
    using R = typename T::value_type;
    return T(poison<R>(), poison<R>());
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(-123457);
  } else {
    return std::numeric_limits<T>::quiet_NaN();
  }
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
std::string show(const T& x) {
  std::ostringstream s;
  s.precision(std::is_same_v<T, float> ? 9 : 17);
  if constexpr (std::is_integral_v<T>)
    s << static_cast<std::int64_t>(x);  // 1-byte integers are not characters
  else if constexpr (is_complex<T>::value)
    s << '(' << x.real() << ',' << x.imag() << ')';
  else
    s << x;
  return s.str();
}

/// out = alpha * permute(in, perm) + beta * out on logical indices
/// (out(j) = in(i), j_k = i_perm[k]), with the library's conventions: beta == 0
/// never reads out, and alpha == 1 with beta == 0 is a plain move.
template <class T>
void reference_permute(const std::vector<std::int64_t>& e, const std::vector<int>& perm, bool left,
                       const T* in, T* out, T alpha, T beta) {
  const int r = static_cast<int>(e.size());
  std::int64_t n = 1;
  for (auto x : e) n *= x;
  if (n == 0) return;
  std::vector<std::int64_t> oe(r), ostride_in(r), i(r, 0);
  for (int k = 0; k < r; ++k) oe[k] = e[perm[k]];
  const auto is = support::contiguous_strides(e, left),
             os = support::contiguous_strides(oe, left);
  for (int k = 0; k < r; ++k) ostride_in[perm[k]] = os[k];
  const bool beta0 = beta == T(0), move = beta0 && alpha == T(1);
  for (std::int64_t c = 0; c < n; ++c) {
    std::int64_t a = 0, b = 0;
    for (int d = 0; d < r; ++d) {
      a += i[d] * is[d];
      b += i[d] * ostride_in[d];
    }
    const T x = in[a];
    out[b] = move ? x : beta0 ? T(alpha * x) : T(alpha * x + beta * out[b]);
    for (int d = r - 1; d >= 0; --d) {  // odometer over the logical index
      if (++i[d] < e[d]) break;
      i[d] = 0;
    }
  }
}

/// The first element where got and want differ in their bits, as text; empty
/// when every element matches.
template <class T>
std::string first_mismatch(const T* got, const T* want, std::int64_t n, std::int64_t* count) {
  std::string first;
  *count = 0;
  for (std::int64_t k = 0; k < n; ++k)
    if (!same_bits(got[k], want[k])) {
      if (first.empty())
        first = "element " + std::to_string(k) + " (memory order): got " + show(got[k]) +
                ", want " + show(want[k]);
      ++*count;
    }
  return first;
}

}  // namespace tilekit::fuzz
