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

TEST(DistModel, NvlinkHidesTheLocalPasses) {
  const auto m = link_defaults({}, Link::node);
  const auto w = two_rank_slab();
  const int c = choose_chunks(w, m, 32);
  EXPECT_GT(c, 4);
  const auto one = estimate(w, m, 1), best = estimate(w, m, c);
  // One chunk: pack, then the exchange beside the own piece, then unpack.
  EXPECT_NEAR(one.total_ms, one.pack_ms + one.exchange_ms + one.unpack_ms, 1e-9);
  // Chunked: within 10% of the exchange alone (the all-to-all's time).
  EXPECT_LT(best.total_ms, 1.1 * best.exchange_ms);
  EXPECT_LT(best.total_ms, 0.8 * one.total_ms);
  // The limit of the box geometry holds.
  EXPECT_EQ(choose_chunks(w, m, 3), 3);
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
