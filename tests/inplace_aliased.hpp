#pragma once
// The host path's aliased-rows order of the in-place pair swap
// (impl::inplace_rows_aliased, docs/performance.md "In place, rows that
// alias"): whether a space has it for a type, and whether a case takes it;
// the largest team a space launches.
#include <tilekit/transpose.hpp>

#include <gtest/gtest.h>

#include <cstdint>

namespace tilekit::test {

template <class E, class T>
constexpr bool has_aliased_order() {
  return tilekit::impl::inplace_alias_bytes<E>() > 0 && tilekit::impl::micro_edge<E, T>() > 0;
}

/// A team functor that does nothing: team_size_max asks about a kernel. At
/// namespace scope, not local to largest_team: nvcc cannot name a local class
/// in the kernel it generates for team_size_max.
template <class E>
struct NoTeamWork {
  KOKKOS_INLINE_FUNCTION void operator()(
      const typename Kokkos::TeamPolicy<E>::member_type&) const {}
};

/// The largest team E launches (a host: its thread count).
template <class E>
int largest_team() {
  return Kokkos::TeamPolicy<E>(E(), 1, 1).team_size_max(NoTeamWork<E>{},
                                                         Kokkos::ParallelForTag());
}

/// Success where rows `stride` elements apart in a matrix of `elements`
/// elements take the aliased order on E.
template <class E, class T>
::testing::AssertionResult takes_aliased_order(std::int64_t stride, std::int64_t elements) {
  const double bytes = static_cast<double>(elements) * sizeof(T);
  if (tilekit::impl::inplace_rows_aliased<E, T>(stride, bytes))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "rows " << stride << " elements apart, " << bytes
                                       << " bytes: the case no longer takes the aliased order";
}

}  // namespace tilekit::test
