// The host-side parts of the distributed family, on every rank alike:
// uneven block splits, the exchange layout's choices of passes, the box copy's
// dimension fusion, and the engine's own all-to-all (the ceiling the tool
// measures against).
#include <gtest/gtest.h>

#include "dist_helpers.hpp"

namespace {

using namespace tilekit::test;
using namespace tilekit::test::dist;
namespace di = tilekit::dist::impl;

TEST(DistLayout, UnevenBlocksTileTheTensor) {
  const Decomposition d({10, 7, 3}, {3, 2}, {0, 1});
  EXPECT_EQ(d.nranks(), 6);
  index_t total = 0;
  for (int r = 0; r < d.nranks(); ++r) total += d.block(r).size();
  EXPECT_EQ(total, d.size());
  // 10 over 3: 4, 3, 3; 7 over 2: 4, 3; rank = 2 * c0 + c1.
  EXPECT_EQ(d.local_extents(0), (std::vector<index_t>{4, 4, 3}));
  EXPECT_EQ(d.local_extents(5), (std::vector<index_t>{3, 3, 3}));
  EXPECT_EQ(d.block(3).lo[0], 4);
  EXPECT_EQ(d.block(3).lo[1], 4);
  // More ranks than indices: empty blocks.
  const auto s = Decomposition::slab({2, 5}, 4, 0);
  EXPECT_EQ(s.block(3).size(), 0);
}

TEST(DistLayout, SlabTransposeSendsFromThePackAndScattersRows) {
  // (8, 6, 5) x-slabs -> (6, 8, 5) slabs of the transpose over 4 ranks.
  const auto din = Decomposition::slab({8, 6, 5}, 4, 0);
  const auto dout = Decomposition::slab({6, 8, 5}, 4, 0);
  const auto L = di::make_layout(din, dout, {1, 0, 2}, 1);
  EXPECT_EQ(L.q, (std::vector<int>{0, 1, 2}));
  EXPECT_FALSE(L.pack_is_copy);
  EXPECT_TRUE(L.send_from_tmp);
  EXPECT_FALSE(L.recv_into_out);
  ASSERT_EQ(L.unpack.size(), 4u);
  for (const auto& c : L.unpack) EXPECT_EQ(c.len, 2 * 5);  // rows of 2 x 5 fused
  // Output rows 6 over 4 ranks: 2, 2, 1, 1; two input rows each.
  EXPECT_EQ(L.send_count, (std::vector<index_t>{20, 20, 10, 10}));
}

TEST(DistLayout, SameSlabsIsACopyInPlace) {
  const auto d = Decomposition::slab({9, 4}, 3, 0);
  const auto L = di::make_layout(d, d, {0, 1}, 2);
  EXPECT_TRUE(L.pack_is_copy);
  EXPECT_TRUE(L.send_from_tmp);
  EXPECT_TRUE(L.recv_into_out);
  EXPECT_EQ(L.send_count, (std::vector<index_t>{0, 0, 12}));
}

TEST(DistLayout, PencilExchangeGathers) {
  // x-pencils (split 0, 1) -> pencils split (0, 2): the fastest dim is cut,
  // so the message order is the output order and the pack gathers.
  const Decomposition din({4, 6, 8}, {2, 2}, {0, 1}), dout({4, 6, 8}, {2, 2}, {0, 2});
  const auto L = di::make_layout(din, dout, {0, 1, 2}, 0);
  EXPECT_TRUE(L.pack_is_copy);
  EXPECT_FALSE(L.send_from_tmp);
  EXPECT_EQ(L.send_count, (std::vector<index_t>{2 * 3 * 4, 2 * 3 * 4, 0, 0}));
}

TEST(DistLayout, BoxCopyFusesContinuingDimensions) {
  // A (2, 3, 4) box of a (5, 3, 4) tensor: the last two dims fuse into rows of 12.
  const auto c = di::make_box_copy({2, 3, 4}, {12, 4, 1}, {12, 4, 1}, 24, 0);
  EXPECT_EQ(c.len, 24);  // and the first too: both sides continue
  EXPECT_EQ(c.rows, 1);
  EXPECT_TRUE(c.contiguous_src());
  const auto d = di::make_box_copy({2, 3, 4}, {20, 4, 1}, {12, 4, 1}, 0, 0);
  EXPECT_EQ(d.len, 12);
  EXPECT_EQ(d.rows, 2);
  EXPECT_FALSE(d.contiguous_src());
  EXPECT_TRUE(di::make_box_copy({0, 3}, {3, 1}, {3, 1}, 0, 0).rows == 0);
}

/// send(i) = me * 10^6 + i (a free function: CUDA's extended lambdas may not
/// live in a gtest TestBody, which is private).
template <class Exec, class View>
void fill_rank_pattern(const View& send, int me) {
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Exec>(0, static_cast<int>(send.extent(0))),
      KOKKOS_LAMBDA(const int i) { send(i) = me * 1000000 + i; });
}

/// The engine's all-to-all moves block p of rank r to block r of rank p.
TEST(DistEngine, AllToAllMovesEveryBlock) {
  using Exec = Kokkos::DefaultExecutionSpace;
  const int P = comm_size(), me = comm_rank();
  const std::size_t n = 1000;  // ints per peer
  Kokkos::View<int*, Exec::memory_space> send("send", n * P), recv("recv", n * P);
  fill_rank_pattern<Exec>(send, me);
  auto engine = tilekit::dist::make_exchanger<Exec>(MPI_COMM_WORLD, test_engine());
  engine->alltoall(Exec(), reinterpret_cast<const char*>(send.data()),
                   reinterpret_cast<char*>(recv.data()), n * sizeof(int));
  Exec().fence();
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), recv);
  index_t bad = 0;
  for (int p = 0; p < P; ++p)
    for (std::size_t i = 0; i < n; ++i)
      if (h(p * n + i) != p * 1000000 + static_cast<int>(me * n + i)) ++bad;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(bad, 0) << engine->describe();
}

}  // namespace
