#pragma once
// Typed-test machinery: every enabled execution space x data type, plus
// poisoning and host-side checks.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tilekit::test {

template <class... Ts> struct List {};

template <class... A, class... B>
List<A..., B...> cat(List<A...>, List<B...>);
template <class A, class B> using Cat = decltype(cat(A{}, B{}));

#if defined(TILEKIT_SPACE_SERIAL)
using SerialSpaces = List<Kokkos::Serial>;
#else
using SerialSpaces = List<>;
#endif
#if defined(TILEKIT_SPACE_OPENMP)
using OpenMPSpaces = List<Kokkos::OpenMP>;
#else
using OpenMPSpaces = List<>;
#endif
#if defined(TILEKIT_SPACE_CUDA)
using CudaSpaces = List<Kokkos::Cuda>;
#else
using CudaSpaces = List<>;
#endif
using Spaces = Cat<Cat<SerialSpaces, OpenMPSpaces>, CudaSpaces>;

/// One (execution space, value type) case of a typed test.
template <class E, class T>
struct Case {
  using exec = E;
  using value = T;
};

template <class Spaces, class Types> struct Product;
template <class... Es, class... Ts>
struct Product<List<Es...>, List<Ts...>> {
  template <class E> using Row = List<Case<E, Ts>...>;
  template <class... Rows> static auto join(Rows... r);
  static List<> join();
  template <class R, class... Rs> static auto join(R, Rs... rs) { return cat(R{}, join(rs...)); }
  using type = decltype(join(Row<Es>{}...));
};

template <class L> struct ToGtest;
template <class... Ts> struct ToGtest<List<Ts...>> { using type = ::testing::Types<Ts...>; };

/// gtest Types<Case<Space, T>...> over every enabled space and the given types.
template <class... Ts>
using Cases = typename ToGtest<typename Product<Spaces, List<Ts...>>::type>::type;

/// Names typed tests "Serial_float", "Cuda_int".
struct CaseNames {
  template <class C>
  static std::string GetName(int) {
    using T = typename C::value;
    std::string t = std::is_same_v<T, float>          ? "float"
                    : std::is_same_v<T, double>       ? "double"
                    : std::is_same_v<T, std::int32_t> ? "int32"
                    : std::is_same_v<T, std::int64_t> ? "int64"
                    : std::is_same_v<T, std::int16_t> ? "int16"
                    : std::is_same_v<T, Kokkos::Experimental::half_t>  ? "half"
                    : std::is_same_v<T, Kokkos::Experimental::bhalf_t> ? "bhalf"
                    : std::is_same_v<T, Kokkos::complex<float>>  ? "cfloat"
                    : std::is_same_v<T, Kokkos::complex<double>> ? "cdouble"
                                                                 : "other";
    return std::string(C::exec::name()) + "_" + t;
  }
};

/// Deterministic, distinct-enough values exact in every tested type.
inline std::int64_t value_of(std::int64_t k) {
  return static_cast<std::int64_t>((static_cast<std::uint64_t>(k) * 2654435761ULL) % 1048573ULL);
}

template <class T> constexpr T poison() { return static_cast<T>(-12345); }

/// Every element of v (any rank, contiguous) still holds the poison value:
/// a rejected call wrote nothing.
template <class View>
bool still_poisoned(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  using T = typename View::non_const_value_type;
  for (std::size_t k = 0; k < h.span(); ++k)
    if (h.data()[k] != poison<T>()) return false;
  return true;
}

// ------------------------------------------------ N-D views over raw buffers

/// Kokkos' data type of rank R: T, T*, T**, ...
template <class T, int R> struct Stars { using type = typename Stars<T, R - 1>::type*; };
template <class T> struct Stars<T, 0> { using type = T; };

template <class T, int R, class Layout, class Mem>
using UView = Kokkos::View<typename Stars<T, R>::type, Layout, Mem, Kokkos::MemoryUnmanaged>;

/// An unmanaged view of extents e over p.
template <class V, std::size_t... I>
V make_view(typename V::pointer_type p, const std::vector<std::int64_t>& e,
            std::index_sequence<I...>) {
  return V(p, static_cast<std::size_t>(e[I])...);
}

inline std::int64_t volume(const std::vector<std::int64_t>& e) {
  std::int64_t v = 1;
  for (auto x : e) v *= x;
  return v;
}

/// Memory offset of a logical index in a contiguous view of the layout.
inline std::int64_t offset_of(const std::vector<std::int64_t>& idx,
                              const std::vector<std::int64_t>& ext, bool left) {
  std::int64_t off = 0, stride = 1;
  const int r = static_cast<int>(ext.size());
  for (int q = 0; q < r; ++q) {
    const int d = left ? q : r - 1 - q;
    off += idx[d] * stride;
    stride *= ext[d];
  }
  return off;
}

}  // namespace tilekit::test
