#pragma once
// Views of any rank over raw buffers, with the rank and the layout chosen at
// run time: what tilekit's own programs build around the library's plans.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tilekit::support {

/// Kokkos' data type of rank R: T, T*, T**, ...
template <class T, int R> struct Stars { using type = typename Stars<T, R - 1>::type*; };
template <class T> struct Stars<T, 0> { using type = T; };

/// The unmanaged rank-R view of T.
template <class T, int R, class Layout, class Mem>
using UView = Kokkos::View<typename Stars<T, R>::type, Layout, Mem, Kokkos::MemoryUnmanaged>;

/// An unmanaged view V of extents e over p.
template <class V, std::size_t... I>
V make_view(typename V::pointer_type p, const std::vector<std::int64_t>& e,
            std::index_sequence<I...>) {
  return V(p, static_cast<std::size_t>(e[I])...);
}

/// The unmanaged rank-R view of the layout over p, extents e.
template <int R, class Layout, class Mem, class T>
auto view_of(T* p, const std::vector<std::int64_t>& e) {
  return make_view<UView<T, R, Layout, Mem>>(p, e, std::make_index_sequence<R>{});
}

/// The strides of the contiguous tensor of extents e: LayoutLeft's (left: the
/// first dimension fastest) or LayoutRight's.
inline std::vector<std::int64_t> contiguous_strides(const std::vector<std::int64_t>& e,
                                                    bool left) {
  const int r = static_cast<int>(e.size());
  std::vector<std::int64_t> s(e.size());
  std::int64_t acc = 1;
  for (int q = 0; q < r; ++q) {
    const int d = left ? q : r - 1 - q;
    s[d] = acc;
    acc *= e[d];
  }
  return s;
}

/// The unmanaged rank-R LayoutStride view over p, extents e, strides s.
template <int R, class Mem, class T>
UView<T, R, Kokkos::LayoutStride, Mem> strided_view_of(T* p, const std::vector<std::int64_t>& e,
                                                       const std::vector<std::int64_t>& s) {
  Kokkos::LayoutStride l;
  for (int d = 0; d < R; ++d) {
    l.dimension[d] = static_cast<std::size_t>(e[d]);
    l.stride[d] = static_cast<std::size_t>(s[d]);
  }
  return UView<T, R, Kokkos::LayoutStride, Mem>(p, l);
}

/// fn(std::integral_constant<int, R>) for the run-time rank r (1 to 8).
template <class Fn>
decltype(auto) with_rank(int r, Fn&& fn) {
  switch (r) {
    case 1: return fn(std::integral_constant<int, 1>{});
    case 2: return fn(std::integral_constant<int, 2>{});
    case 3: return fn(std::integral_constant<int, 3>{});
    case 4: return fn(std::integral_constant<int, 4>{});
    case 5: return fn(std::integral_constant<int, 5>{});
    case 6: return fn(std::integral_constant<int, 6>{});
    case 7: return fn(std::integral_constant<int, 7>{});
    case 8: return fn(std::integral_constant<int, 8>{});
  }
  throw std::invalid_argument("rank " + std::to_string(r) + " is not 1 to 8");
}

/// fn(Kokkos::LayoutLeft{}) or fn(Kokkos::LayoutRight{}).
template <class Fn>
decltype(auto) with_layout(bool left, Fn&& fn) {
  if (left) return fn(Kokkos::LayoutLeft{});
  return fn(Kokkos::LayoutRight{});
}

/// Elements of extents e.
inline std::int64_t volume(const std::vector<std::int64_t>& e) {
  std::int64_t v = 1;
  for (auto x : e) v *= x;
  return v;
}

}  // namespace tilekit::support
