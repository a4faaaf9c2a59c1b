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

#include "support/spaces.hpp"
#include "support/types.hpp"
#include "support/views.hpp"

namespace tilekit::test {

using support::Cat;
using support::List;
using support::make_view;
using support::Spaces;
using support::UView;
using support::volume;

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
  template <class R, class... Rs> static auto join(R, Rs... rs) { return support::cat(R{}, join(rs...)); }
  using type = decltype(join(Row<Es>{}...));
};

template <class L> struct ToGtest;
template <class... Ts> struct ToGtest<List<Ts...>> { using type = ::testing::Types<Ts...>; };

/// gtest Types<Case<Space, T>...> over every enabled space and the types of
/// the list L (support::MoveTypes, ReduceTypes, ...).
template <class L>
using CasesOf = typename ToGtest<typename Product<Spaces, L>::type>::type;
/// The same for the given types.
template <class... Ts>
using Cases = CasesOf<List<Ts...>>;

/// Names typed tests "Serial_float", "Cuda_int32".
struct CaseNames {
  template <class C>
  static std::string GetName(int) {
    return std::string(C::exec::name()) + "_" + support::type_name<typename C::value>();
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
