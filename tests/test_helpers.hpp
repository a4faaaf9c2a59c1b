#pragma once
// Typed-test machinery: every enabled execution space x data type, plus
// poisoning and host-side checks.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
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

using i64 = std::int64_t;
using index_t = std::int64_t;
using Extents = std::vector<std::int64_t>;
using Perm = std::vector<int>;

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

/// Inside a TYPED_TEST: E, the case's execution space, and T, its value type.
#define TILEKIT_CASE_TYPES(E, T)            \
  using E = typename TypeParam::exec;       \
  using T = typename TypeParam::value

/// A typed test suite over every enabled space and the types of a
/// support::List: TILEKIT_TYPED_TEST_SUITE(Transpose, support::MoveTypes).
#define TILEKIT_TYPED_TEST_SUITE(Suite, ...)                    \
  template <class C>                                            \
  class Suite : public ::testing::Test {};                      \
  using Suite##Cases = ::tilekit::test::CasesOf<__VA_ARGS__>;   \
  TYPED_TEST_SUITE(Suite, Suite##Cases, ::tilekit::test::CaseNames)

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

/// Launch options (TransposeOptions, PermuteOptions) of one-work-item teams
/// with the given tile, padding and tiles per team: shapes every backend
/// accepts.
template <class Options>
Options one_item_teams(int tile, int pad, int tiles_per_team) {
  Options o;
  o.tile = tile;
  o.pad = pad;
  o.tiles_per_team = tiles_per_team;
  o.team_rows = 1;
  o.vector = 1;
  return o;
}

/// Whether a and b hold the same bits (NaN payloads, signed zeros).
template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// Fills the rows x cols matrix `in` with value_of(i * 7919 + j) at (i, j);
/// returns a host copy (a copy also for host memory: the reference).
template <class View>
auto fill_matrix(const View& in) {
  auto h = Kokkos::create_mirror(in);
  for (std::size_t i = 0; i < in.extent(0); ++i)
    for (std::size_t j = 0; j < in.extent(1); ++j)
      h(i, j) = static_cast<typename View::non_const_value_type>(
          value_of(static_cast<std::int64_t>(i) * 7919 + static_cast<std::int64_t>(j)));
  Kokkos::deep_copy(in, h);
  return h;
}

/// Output elements (any rank up to 8) whose bits differ from in's at the
/// place perm sends them: out(j) with j[k] = i[perm[k]].
template <class In, class Out>
std::int64_t wrong_permuted(const In& in, const Out& out, const std::vector<int>& perm) {
  auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), in);
  auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  constexpr int R = In::rank();
  const auto n = static_cast<std::int64_t>(hi.size());
  std::int64_t wrong = 0;
  std::int64_t i[8] = {};
  for (std::int64_t c = 0; c < n; ++c) {
    std::int64_t j[8] = {};
    for (int k = 0; k < R; ++k) j[k] = i[perm[k]];
    wrong += !same_bits(hi.access(i[0], i[1], i[2], i[3], i[4], i[5], i[6], i[7]),
                        ho.access(j[0], j[1], j[2], j[3], j[4], j[5], j[6], j[7]));
    for (int d = R - 1; d >= 0; --d) {
      if (++i[d] < static_cast<std::int64_t>(hi.extent(d))) break;
      i[d] = 0;
    }
  }
  return wrong;
}

// ------------------------------------------------ N-D views over raw buffers

/// Row-major matrices of T in Exec's memory, and their unmanaged views.
template <class Exec, class T>
using Matrix = Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::memory_space>;
template <class Exec, class T>
using UMatrix = Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::memory_space,
                             Kokkos::MemoryUnmanaged>;

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
