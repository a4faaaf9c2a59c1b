// Batched 2-D transposes: a stack of B matrices, rank 3, permutation (0, 2, 1).
// Fusion keeps the batch apart (it is neither adjacent to nor merged with the
// matrix dimensions), and the fused plan takes its fast path: the tiled method
// with an affine box (load and store offsets computed in the kernel, no
// tables). A LayoutLeft stack has the batch fastest in memory (B interleaved
// matrices): its row-major problem keeps the batch in place, and only the
// result is checked. A batch of 1 fuses to a plain 2-D transpose. Where the
// backend runs the permute's 2-D transpositions through the transpose's plan
// (hosts), batches of matrices of at least its tile rows both ways take it,
// one launch for the batch (impl::TransposeBatch).
#include <tilekit/permute.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>

#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;

TILEKIT_TYPED_TEST_SUITE(PermuteBatched, tilekit::support::List<float, double>);

template <class Exec, class T, class Layout>
void check_batched(int b, int m, int n) {
  using View = Kokkos::View<T***, Layout, typename Exec::memory_space>;
  View in("in", b, m, n), out("out", b, n, m);
  Kokkos::deep_copy(out, poison<T>());
  auto h = Kokkos::create_mirror(in);
  for (int k = 0; k < b; ++k)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) h(k, i, j) = static_cast<T>(value_of((k * 131L + i) * 7919 + j));
  Kokkos::deep_copy(in, h);
  Exec exec;
  tilekit::PermutePlan plan(exec, in, out, {0, 2, 1});
  const auto& f = plan.fused_shape();
  constexpr bool right = std::is_same_v<Layout, Kokkos::LayoutRight>;
  if (b > 1 && m > 1 && n > 1) {
    EXPECT_EQ(f.rank, 3);  // the batch stays a dimension of its own
  }
  // Where the backend runs them so, matrices that hold the transpose's tile
  // rows both ways take the transpose's plan (one launch for the batch).
  const int least = std::max(1, tilekit::impl::transpose_tile_rows<Exec>());
  const bool by_transpose = tilekit::impl::permute_2d_by_transpose<Exec>() && m >= least && n >= least;
  if (right && b > 1 && m > 1 && n > 1 && by_transpose) {
    EXPECT_EQ(plan.method(), tilekit::PermuteMethod::transpose) << b << "x" << m << "x" << n;
  } else if (right && b > 1 && m > 1 && n > 1) {
    // The tiled kernel, never the naive one; without offset tables when both
    // matrix edges reach the tile (smaller matrices pack the batch into a
    // tile's runs and read their offsets from tables).
    EXPECT_EQ(plan.method(), tilekit::PermuteMethod::tiled);
    const int tile = plan.config().tile;
    if (m >= tile && n >= tile) {
      EXPECT_EQ(plan.tiled_layout().kind, tilekit::impl::BoxKind::affine)
          << b << "x" << m << "x" << n << " tile " << tile;
    }
  } else if (b == 1 && m > 1 && n > 1) {
    EXPECT_EQ(f.rank, 2);  // a 2-D transpose
  }
  plan.execute(in, out);
  exec.fence();
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  long wrong = 0;
  for (int k = 0; k < b; ++k)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) wrong += !(r(k, j, i) == h(k, i, j));
  EXPECT_EQ(wrong, 0) << b << "x" << m << "x" << n;
}

const std::array<std::array<int, 3>, 11> kStacks = {{{1, 64, 48},
                                                    {2, 3, 5},
                                                    {3, 64, 64},
                                                    {5, 17, 129},
                                                    {7, 100, 31},
                                                    {16, 65, 67},
                                                    {3, 130, 200},
                                                    {4, 257, 1030},
                                                    {64, 8, 8},
                                                    {1000, 4, 3},
                                                    {2, 1, 9}}};

TYPED_TEST(PermuteBatched, LayoutRight) {
  for (auto [b, m, n] : kStacks)
    check_batched<typename TypeParam::exec, typename TypeParam::value, Kokkos::LayoutRight>(b, m,
                                                                                           n);
}

TYPED_TEST(PermuteBatched, LayoutLeft) {
  for (auto [b, m, n] : kStacks)
    check_batched<typename TypeParam::exec, typename TypeParam::value, Kokkos::LayoutLeft>(b, m, n);
}

}  // namespace
