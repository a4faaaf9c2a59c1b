// The host-side parts of the distributed family, on every rank alike:
// uneven block splits, the exchange layout's choices of passes, its chunks
// (every block covered once, sender and receiver agreeing on every piece),
// and the engine's own all-to-all (the ceiling the tool measures against).
#include <gtest/gtest.h>

#include "dist_helpers.hpp"

#include <algorithm>

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

TEST(DistLayout, SlabPermutationPacksAndUnpacksRows) {
  // (8, 6, 5) x-slabs -> (6, 8, 5) slabs of the permutation (1, 0, 2) over 4 ranks.
  const auto din = Decomposition::slab({8, 6, 5}, 4, 0);
  const auto dout = Decomposition::slab({6, 8, 5}, 4, 0);
  const auto L = di::make_layout(din, dout, {1, 0, 2}, 1, 1);
  EXPECT_EQ(L.q, (std::vector<int>{0, 1, 2}));
  ASSERT_EQ(L.chunks.size(), 1u);
  const auto& c = L.chunks[0];
  // Output rows 6 over 4 ranks: 2, 2, 1, 1; two input rows each. The own
  // piece (2 x 2 x 5) goes straight to the output; the three others are
  // packed and unpacked. The fastest dimension stays: every pass moves rows.
  ASSERT_EQ(c.own.size(), 1u);
  EXPECT_EQ(c.own[0].src.size(), 20);
  ASSERT_EQ(c.pack.size(), 3u);
  ASSERT_EQ(c.unpack.size(), 3u);
  // Pairwise order: to 2, 3, 0; from 0, 3, 2.
  ASSERT_EQ(c.sends.size(), 3u);
  EXPECT_EQ(c.sends[0].peer, 2);
  EXPECT_EQ(c.sends[0].count, 10);
  EXPECT_EQ(c.sends[2].peer, 0);
  EXPECT_EQ(c.sends[2].count, 20);
  EXPECT_EQ(c.recvs[0].peer, 0);
  EXPECT_EQ(L.packed, 40);
  EXPECT_EQ(L.sent, 40);
  EXPECT_EQ(L.own, 20);
  EXPECT_EQ(L.send_elems, 40);
  EXPECT_EQ(L.passes(), "copy, exchange, copy, own: copy");
}

TEST(DistLayout, SlabTransposePermutesInThePackOnly) {
  // (8, 6, 5) x-slabs -> (5, 6, 8) z-slabs of the transpose over 2 ranks:
  // the pack and the own pass transpose, the unpack copies rows of 4 x-indices.
  const auto din = Decomposition::slab({8, 6, 5}, 2, 0);
  const auto dout = Decomposition::slab({5, 6, 8}, 2, 0);
  const auto L = di::make_layout(din, dout, {2, 1, 0}, 0, 1);
  const auto& c = L.chunks[0];
  ASSERT_EQ(c.pack.size(), 1u);
  ASSERT_EQ(c.unpack.size(), 1u);
  EXPECT_FALSE(c.pack[0].is_copy());
  EXPECT_FALSE(c.own[0].is_copy());
  EXPECT_TRUE(c.unpack[0].is_copy());
  EXPECT_EQ(c.unpack[0].dst.extent, (std::vector<index_t>{3, 6, 4}));  // z 0..3 of rank 1's x 4..8
  EXPECT_EQ(L.passes(), "permute, exchange, copy, own: permute");
}

TEST(DistLayout, SameSlabsIsOneLocalCopy) {
  const auto d = Decomposition::slab({9, 4}, 3, 0);
  const auto L = di::make_layout(d, d, {0, 1}, 2, 1);
  EXPECT_EQ(L.own, 12);
  EXPECT_EQ(L.sent + L.received + L.send_elems + L.recv_elems, 0);
  EXPECT_EQ(L.passes(), "-, -, -, own: copy");
}

TEST(DistLayout, RedistributionGathersAndReceivesInPlace) {
  // x-slabs -> z-slabs, no permutation: the pieces sent are not ranges of
  // the input (gathered: a copy), the pieces received are ranges of the output.
  const auto din = Decomposition::slab({4, 6, 8}, 2, 0), dout = Decomposition::slab({4, 6, 8}, 2, 2);
  const auto L = di::make_layout(din, dout, {0, 1, 2}, 0, 1);
  EXPECT_EQ(L.passes(), "copy, exchange, -, own: copy");
  ASSERT_EQ(L.chunks[0].recvs.size(), 1u);
  EXPECT_TRUE(L.chunks[0].recvs[0].in_place);
  EXPECT_EQ(L.chunks[0].recvs[0].offset, 2 * 6 * 4);  // x = 2 of the (4, 6, 4) output block
  EXPECT_EQ(L.recv_elems, 0);
}

TEST(DistLayout, PencilExchangeGathers) {
  // x-pencils (split 0, 1) -> pencils split (0, 2): the fastest dim is cut,
  // so the message order is the output order and the pack gathers.
  const Decomposition din({4, 6, 8}, {2, 2}, {0, 1}), dout({4, 6, 8}, {2, 2}, {0, 2});
  const auto L = di::make_layout(din, dout, {0, 1, 2}, 0, 1);
  EXPECT_EQ(L.q, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(L.own, 2 * 3 * 4);
  EXPECT_EQ(L.sent, 2 * 3 * 4);  // to rank 1 only: ranks 2, 3 hold other rows
  EXPECT_EQ(L.send_peers, 1);
  EXPECT_EQ(L.kind(&di::Chunk::pack, L.chunks), "copy");
}

TEST(DistLayout, StridedRangesAreContiguous) {
  di::Strided s{5, {1, 3, 4}, {100, 4, 1}};
  EXPECT_TRUE(s.contiguous());  // the unit extent's stride does not matter
  s.extent = {2, 3, 4};
  EXPECT_FALSE(s.contiguous());
  s.stride = {12, 4, 1};
  EXPECT_TRUE(s.contiguous());
  EXPECT_EQ(s.size(), 24);
}

TEST(DistLayout, PiecesAreBalanced) {
  EXPECT_EQ(di::piece(10, 3, 0).count, 4);
  EXPECT_EQ(di::piece(10, 3, 1).first, 4);
  EXPECT_EQ(di::piece(10, 3, 2).first, 7);
  EXPECT_EQ(di::piece(10, 3, 2).count, 3);
  EXPECT_EQ(di::piece(2, 5, 1).count, 1);
  EXPECT_EQ(di::piece(2, 5, 4).count, 0);  // more chunks than rows: empty pieces
  // Granules: whole tiles but the last piece, where every piece gets one.
  index_t at = 0;
  for (int k = 0; k < 14; ++k) {
    const auto p = di::piece(1024, 14, k, 64);
    EXPECT_EQ(p.first, at);
    EXPECT_EQ(p.count, k < 2 ? 128 : 64);
    at += p.count;
  }
  EXPECT_EQ(di::piece(200, 3, 2, 64).count, 8);
  EXPECT_EQ(di::piece(100, 3, 0, 64).count, 34);  // fewer than 3 granules: indices
  EXPECT_EQ(di::chunk_dim({1, 1, 7, 3}), 2);
  EXPECT_EQ(di::chunk_dim({1, 1}), 0);
}

/// Every element of `block` is covered once by the boxes of `parts`.
bool covered_once(const std::vector<index_t>& block, const std::vector<di::Strided>& parts) {
  index_t n = 1;
  for (auto e : block) n *= e;
  std::vector<int> hits(n, 0);
  for (const auto& s : parts) {
    const int R = static_cast<int>(s.extent.size());
    std::vector<index_t> i(R, 0);
    for (index_t e = 0; e < s.size(); ++e) {
      index_t at = s.offset;
      for (int j = 0; j < R; ++j) at += i[j] * s.stride[j];
      if (at < 0 || at >= n) return false;
      ++hits[at];
      for (int j = R - 1; j >= 0; --j) {
        if (++i[j] < s.extent[j]) break;
        i[j] = 0;
      }
    }
  }
  return std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; });
}

/// For every rank of a layout set (computed on one process): its sends and
/// own pieces cover its input block once, its receives and own pieces its
/// output block once, and piece k from r to s has the size of piece k that s
/// receives from r.
void check_chunked(const Decomposition& din, const Decomposition& dout, const std::vector<int>& perm,
                   int chunks, index_t granule) {
  const int P = din.nranks();
  std::vector<di::ExchangeLayout> L(P);
  for (int r = 0; r < P; ++r) L[r] = di::make_layout(din, dout, perm, r, chunks, granule);
  const std::string what = din.to_string() + " -> " + dout.to_string() + ", " +
                           std::to_string(chunks) + " chunks of granules of " +
                           std::to_string(granule);
  for (int r = 0; r < P; ++r) {
    ASSERT_EQ(static_cast<int>(L[r].chunks.size()), chunks) << what;
    std::vector<di::Strided> in_parts, out_parts;
    // Sent pieces in place are ranges of the input; packed ones are the pack passes' sources.
    for (const auto& c : L[r].chunks) {
      for (const auto& p : c.own) in_parts.push_back(p.src), out_parts.push_back(p.dst);
      for (const auto& p : c.pack) in_parts.push_back(p.src);
      for (const auto& p : c.unpack) out_parts.push_back(p.dst);
      for (const auto& m : c.sends)
        if (m.in_place) in_parts.push_back({m.offset, {m.count}, {1}});
      for (const auto& m : c.recvs)
        if (m.in_place) out_parts.push_back({m.offset, {m.count}, {1}});
    }
    EXPECT_TRUE(covered_once(L[r].in_extents, in_parts)) << what << ", rank " << r << " input";
    EXPECT_TRUE(covered_once(L[r].out_extents, out_parts)) << what << ", rank " << r << " output";
    for (int k = 0; k < chunks; ++k)
      for (const auto& m : L[r].chunks[k].sends) {
        index_t got = -1;
        for (const auto& n : L[m.peer].chunks[k].recvs)
          if (n.peer == r) got = n.count;
        EXPECT_EQ(got, m.count) << what << ": chunk " << k << " from " << r << " to " << m.peer;
      }
  }
}

TEST(DistLayout, ChunksCoverEveryBlockOnce) {
  for (int chunks : {1, 2, 3, 7, 40})
  for (index_t g : {1, 2}) {
    // Slab transpose, uneven.
    check_chunked(Decomposition::slab({7, 5, 9}, 3, 0), Decomposition::slab({9, 5, 7}, 3, 0),
                  {2, 1, 0}, chunks, g);
    // Pencil permutation, uneven, 2 x 2.
    check_chunked(Decomposition::pencil({7, 6, 5}, 2, 2, 0, 1),
                  Decomposition::pencil({7, 5, 6}, 2, 2, 0, 1), {0, 2, 1}, chunks, g);
    // Slab -> pencil redistribution, 4 ranks, and empty blocks (2 rows over 4 ranks).
    check_chunked(Decomposition::slab({5, 4, 6}, 4, 0), Decomposition::pencil({5, 4, 6}, 2, 2, 1, 2),
                  {0, 1, 2}, chunks, g);
    check_chunked(Decomposition::slab({2, 9}, 4, 0), Decomposition::slab({9, 2}, 4, 0), {1, 0},
                  chunks, g);
    // Rank 4, slabs along the last dimension.
    check_chunked(Decomposition::slab({3, 4, 2, 5}, 2, 3), Decomposition::slab({5, 2, 3, 4}, 2, 0),
                  {3, 2, 0, 1}, chunks, g);
  }
}

TEST(DistLayout, ChunkRowsIsTheLongestChunkDimension) {
  // Slab transpose: boxes (z_s, y, x_r) in output order: z over 2 ranks of 9 -> 5.
  EXPECT_EQ(di::chunk_rows(Decomposition::slab({4, 3, 9}, 2, 0), Decomposition::slab({9, 3, 4}, 2, 0),
                           {2, 1, 0}),
            5);
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
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(Exec);
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
