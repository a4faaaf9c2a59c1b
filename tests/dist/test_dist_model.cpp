// The chunking rule (pipeline_model.hpp): plain host arithmetic, every rank alike.
#include <gtest/gtest.h>

#include <tilekit/dist/pipeline_model.hpp>

namespace {

using namespace tilekit::dist;

/// A 3-D slab transpose of 8 GiB of floats on two ranks: each rank packs,
/// sends, unpacks and keeps 2 GiB.
PipelineWork two_rank_slab() {
  const double half = 2.0 * (1u << 30);
  return {half, half, half, half, 1};
}

TEST(DistModel, HostSpacesTakeOneChunk) {
  const auto m = link_defaults({}, Link::host);
  EXPECT_EQ(choose_chunks(two_rank_slab(), m, 32), 1);
  // Without overlap every chunk adds its latencies and launches.
  EXPECT_GT(estimate(two_rank_slab(), m, 4).total_ms, estimate(two_rank_slab(), m, 1).total_ms);
}

TEST(DistModel, NvlinkTakesAFewChunks) {
  const auto m = link_defaults({}, Link::node);
  const auto w = two_rank_slab();
  const int c = choose_chunks(w, m, 32);
  // The per-chunk cost keeps the count low; the overlap still pays.
  EXPECT_GE(c, 2);
  EXPECT_LE(c, 6);
  const auto one = estimate(w, m, 1), best = estimate(w, m, c);
  // One chunk: pack, then the exchange beside the own piece, then unpack.
  EXPECT_NEAR(one.total_ms, one.pack_ms + one.exchange_ms + one.unpack_ms, 1e-9);
  EXPECT_LT(best.total_ms, 0.9 * one.total_ms);
  EXPECT_GT(best.total_ms, best.exchange_ms);
  // The limit of the box geometry holds.
  EXPECT_EQ(choose_chunks(w, m, 2), 2);
}

TEST(DistModel, TheChunkCostBoundsTheCount) {
  const auto w = two_rank_slab();
  LinkModel cheap, dear;
  cheap.chunk_us = 1e-3;
  dear.chunk_us = 5000;
  const int many = choose_chunks(w, link_defaults(cheap, Link::node), 32);
  const int few = choose_chunks(w, link_defaults(dear, Link::node), 32);
  // Without the cost the pipeline alone asks for many chunks (within 10% of
  // the exchange); a dear chunk leaves one.
  EXPECT_GT(many, 8);
  const auto e = estimate(w, link_defaults(cheap, Link::node), many);
  EXPECT_LT(e.total_ms, 1.1 * e.exchange_ms);
  EXPECT_EQ(few, 1);
  EXPECT_LT(few, choose_chunks(w, link_defaults({}, Link::node), 32));
}

TEST(DistModel, OneRankRunsItsOwnPassAtTheLocalRate) {
  // One rank: the whole tensor is its own box, nothing is sent, nothing slows it.
  const double all = 4.0 * (1u << 30);
  const auto m = link_defaults({}, Link::node);
  const PipelineWork w{0, 0, all, 0, 0};
  EXPECT_EQ(choose_chunks(w, m, 32), 1);
  EXPECT_NEAR(estimate(w, m, 1).total_ms, 2 * all / (m.local_eff * m.copy_gbps * 1e9) * 1e3 + 1e-3 * m.launch_us, 1e-9);
}

TEST(DistModel, SmallMessagesTakeOneChunk) {
  const auto m = link_defaults({}, Link::node);
  EXPECT_EQ(choose_chunks({1e4, 1e4, 1e4, 1e4, 3}, m, 32), 1);
}

TEST(DistModel, GivenFiguresAreKept) {
  LinkModel given;
  given.beta_gbps = 50;
  given.copy_gbps = 3000;
  const auto m = link_defaults(given, Link::network);
  EXPECT_EQ(m.link, Link::network);
  EXPECT_EQ(m.beta_gbps, 50);
  EXPECT_EQ(m.copy_gbps, 3000);
  EXPECT_GT(m.alpha_us, 0);
  // A slow network: the exchange dominates, the local passes hide even in few chunks.
  const auto w = two_rank_slab();
  const auto e = estimate(w, m, choose_chunks(w, m, 32));
  EXPECT_LT(e.total_ms, 1.05 * e.exchange_ms);
}

}  // namespace
