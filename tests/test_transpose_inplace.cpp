// In-place square transpose: the blocked pair swap and seed 000's naive swap
// (tilekit::study), on edges that are and are not multiples of the tile.
#include <tilekit/transpose.hpp>

#include <tuple>
#include <utility>
#include <vector>

#include "inplace_aliased.hpp"
#include "test_helpers.hpp"
#include "variants.hpp"

namespace {
using namespace tilekit::test;

TILEKIT_TYPED_TEST_SUITE(TransposeInplace, tilekit::support::MoveTypes);

template <class Exec, class T, class Layout>
void check_inplace(int n, const InplaceRun& v, const tilekit::TransposeOptions& o = {}) {
  using View = Kokkos::View<T**, Layout, typename Exec::memory_space>;
  View a("a", n, n);
  const auto h = fill_matrix(a);  // a separate copy: the reference
  Exec exec;
  transpose_inplace_with(v, exec, a, o);
  exec.fence();
  EXPECT_EQ(wrong_permuted(h, a, {1, 0}), 0) << n << "x" << n << " " << name_of(v);
}

// Around the tile edges (host: the default edge halved to 32 to 128 for
// these sizes by the plan; Cuda: 32 x 32) and their halves, and primes past
// them.
const std::vector<int> kEdges = {1, 2, 3, 8, 15, 16, 17, 31, 32, 33, 48, 64, 65, 97, 128, 130, 200, 257};

TYPED_TEST(TransposeInplace, NaiveSwap) {
  for (int n : kEdges)
    check_inplace<typename TypeParam::exec, typename TypeParam::value, Kokkos::LayoutRight>(
        n, NaiveInplace{});
}

TYPED_TEST(TransposeInplace, BlockedPairSwap) {
  for (int n : kEdges)
    check_inplace<typename TypeParam::exec, typename TypeParam::value, Kokkos::LayoutRight>(
        n, tilekit::InplaceVariant::blocked);
}

TYPED_TEST(TransposeInplace, LayoutLeft) {
  for (const auto& v : kSquareInplaceRuns)
    for (int n : {1, 33, 130})
      check_inplace<typename TypeParam::exec, typename TypeParam::value, Kokkos::LayoutLeft>(n,
                                                                                            v);
}

TYPED_TEST(TransposeInplace, SmallOddTiles) {
  for (auto [tile, pad, per_team] : {std::tuple{1, 0, 1}, {3, 0, 4}, {7, 2, 1}, {16, 1, 3}}) {
    const auto o = one_item_teams<tilekit::TransposeOptions>(tile, pad, per_team);
    for (int n : {1, 2, 20, 49})
      check_inplace<typename TypeParam::exec, typename TypeParam::value, Kokkos::LayoutRight>(
          n, tilekit::InplaceVariant::blocked, o);
  }
}

// The host path (tiles read into scratch transposed in micro-blocks, written
// back as whole rows) with its own large tiles: pairs clipped at every side,
// edges that are and are not multiples of the 8 x 8 micro-block.
TYPED_TEST(TransposeInplace, HostPathLargeTiles) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (tilekit::impl::micro_edge<E, T>() == 0) {
    GTEST_SKIP() << "the backend has no host path";
  } else {
    for (int tile : {60, 256}) {
      tilekit::TransposeOptions o;
      o.tile = tile;
      for (int n : {255, 256, 257, 600})
        check_inplace<E, T, Kokkos::LayoutRight>(n, tilekit::InplaceVariant::blocked, o);
    }
  }
}

// Large matrices whose rows lie a multiple of the backend's
// inplace_alias_bytes apart take the host path's aliased-rows order (the
// lower tile read in strips and written back at once, the upper streamed):
// the default tile, tile 60 (pairs clipped, a last strip of 4 rows, shorter
// than a micro-block), and teams of two work items where the space launches
// them (the strips are for one-thread teams; larger ones keep the former order).
TYPED_TEST(TransposeInplace, AliasedRowStrides) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (!has_aliased_order<E, T>()) {
    GTEST_SKIP() << "the backend has no aliased-rows order";
  } else {
    const int n = sizeof(T) >= 8 ? 2048 : 3072;  // rows of 16 KiB, 12 KiB; 32 MiB, 36 MiB
    ASSERT_TRUE((takes_aliased_order<E, T>(n, std::int64_t{n} * n)));
    for (auto [tile, team] : {std::pair{0, 1}, {60, 1}, {64, 2}}) {
      if (team > largest_team<E>()) continue;
      tilekit::TransposeOptions o;
      o.tile = tile;
      o.team_rows = team;
      o.vector = 1;
      check_inplace<E, T, Kokkos::LayoutRight>(n, tilekit::InplaceVariant::blocked, o);
    }
  }
}

}  // namespace
