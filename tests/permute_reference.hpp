#pragma once
// The permute tests' values and host reference (test_permute.cpp,
// test_permute_staged.cpp): exact small values, a poison the kernels must
// overwrite, the expected output on logical indices, a case's description.
#include <tilekit/permute.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "test_helpers.hpp"
#include "variants.hpp"

namespace tilekit::test {

template <class T> struct is_complex : std::false_type {};
template <class R> struct is_complex<Kokkos::complex<R>> : std::true_type {};

/// Exact small values; complex ones differ in both parts.
template <class T>
T make_value(std::int64_t k) {
  if constexpr (is_complex<T>::value)
    return T(static_cast<typename T::value_type>(value_of(k)),
             static_cast<typename T::value_type>(value_of(k + 7)));
  else
    return static_cast<T>(value_of(k));
}
template <class T>
T make_poison() {
  if constexpr (is_complex<T>::value) return T(-12345, 777);
  else return poison<T>();
}

// Views over raw buffers, volume and offset_of: test_helpers.hpp.

/// expected = alpha * permute(in) + beta * out0 (or alpha * permute(in) when
/// beta_zero), on logical indices: out(j) with j[k] = i[perm[k]].
template <class T>
std::vector<T> reference(const Extents& ext, const Perm& perm, bool left, const std::vector<T>& in,
                         const std::vector<T>& out0, T alpha, T beta, bool beta_zero) {
  const int r = static_cast<int>(ext.size());
  Extents oext(r), i(r, 0), j(r);
  for (int k = 0; k < r; ++k) oext[k] = ext[perm[k]];
  std::vector<T> out = out0;
  const index_t n = volume(ext);
  for (index_t c = 0; c < n; ++c) {
    for (int k = 0; k < r; ++k) j[k] = i[perm[k]];
    const index_t o = offset_of(j, oext, left);
    const T v = in[offset_of(i, ext, left)];
    out[o] = beta_zero ? (alpha == T(1) ? v : alpha * v) : alpha * v + beta * out0[o];
    for (int d = r - 1; d >= 0 && ++i[d] == ext[d]; --d) i[d] = 0;
  }
  return out;
}

inline std::string describe(const Extents& e, const Perm& p, const PermuteRun& v, bool left) {
  return "extents (" + tilekit::impl::join(e, e.size()) + ") perm [" +
         tilekit::impl::join(p, p.size()) + "] variant " + name_of(v) +
         (left ? " LayoutLeft" : " LayoutRight");
}

}  // namespace tilekit::test
