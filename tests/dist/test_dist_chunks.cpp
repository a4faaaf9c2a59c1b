// The chunked pipeline (EngineOptions::chunks) on 1 to 4 ranks: every chunk
// count gives the unchunked result, on slab, pencil and redistribution
// exchanges with uneven splits and empty blocks, with more chunks than any
// box has rows, through execute and execute_timed, and reused. Results are
// gathered on rank 0 and compared with a single-rank reference; outputs start
// poisoned.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "dist_helpers.hpp"

namespace {

using namespace tilekit::test;
using namespace tilekit::test::dist;
using tilekit::dist::EngineOptions;

EngineOptions chunked(int chunks) {
  EngineOptions o = test_engine();
  o.chunks = chunks;
  return o;
}

/// One chunked permutation, checked against the reference.
template <class E, class T, int R>
void expect_chunked(const Decomposition& din, const Decomposition& dout,
                    const std::vector<int>& perm, int chunks) {
  EXPECT_EQ((run_case<E, T, R>(din, dout, perm, chunked(chunks))), 0)
      << what(din, dout, perm) << ", " << chunks << " chunks";
}

template <class C>
class DistChunks : public ::testing::Test {};
using DistCases = Cases<double, std::int32_t>;
TYPED_TEST_SUITE(DistChunks, DistCases, CaseNames);

/// 1, 2 and 3 chunks, and 50: more than any box has rows (empty pieces).
const int kChunks[] = {1, 2, 3, 50};

TYPED_TEST(DistChunks, SlabTransposeUneven) {
  using E = typename TypeParam::exec;
  using T = typename TypeParam::value;
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(E);
  const int P = comm_size();
  for (int c : kChunks) {
    const auto din = Decomposition::slab({7, 5, 9}, P, 0);
    const auto dout = Decomposition::slab({9, 5, 7}, P, 0);
    expect_chunked<E, T, 3>(din, dout, {2, 1, 0}, c);
    const auto d2 = Decomposition::slab({7, 9, 5}, P, 0);  // keeps the fastest dimension
    expect_chunked<E, T, 3>(din, d2, {0, 2, 1}, c);
  }
}

TYPED_TEST(DistChunks, PencilUneven) {
  using E = typename TypeParam::exec;
  using T = typename TypeParam::value;
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(E);
  const int P = comm_size();
  const int p0 = P % 2 ? 1 : 2;
  for (int c : kChunks) {
    const auto din = Decomposition::pencil({6, 7, 5}, p0, P / p0, 0, 1);
    const auto dout = Decomposition::pencil({6, 5, 7}, p0, P / p0, 0, 1);
    expect_chunked<E, T, 3>(din, dout, {0, 2, 1}, c);
    const auto drev = Decomposition::pencil({5, 7, 6}, p0, P / p0, 0, 1);
    expect_chunked<E, T, 3>(din, drev, {2, 1, 0}, c);
  }
}

TYPED_TEST(DistChunks, RedistributionAndEmptyBlocks) {
  using E = typename TypeParam::exec;
  using T = typename TypeParam::value;
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(E);
  const int P = comm_size();
  const std::vector<index_t> e = {9, 4, 11};
  const auto slab = Decomposition::slab(e, P, 0), zslab = Decomposition::slab(e, P, 2);
  const auto pencil = Decomposition(e, {P % 2 ? 1 : 2, P % 2 ? P : P / 2}, {1, 2});
  for (int c : kChunks) {
    expect_chunked<E, T, 3>(slab, zslab, {0, 1, 2}, c);
    expect_chunked<E, T, 3>(zslab, pencil, {0, 1, 2}, c);
    // 1 x N and 2 x N: most ranks hold nothing on one side.
    const auto a = Decomposition::slab({2, 6}, P, 0), b = Decomposition::slab({6, 2}, P, 0);
    expect_chunked<E, T, 2>(a, b, {1, 0}, c);
    const auto one = Decomposition::slab({1, 5}, P, 0), five = Decomposition::slab({5, 1}, P, 0);
    expect_chunked<E, T, 2>(one, five, {1, 0}, c);
  }
}

/// Random rank-4 and rank-5 cases, random grids and chunk counts (the same
/// seed on every rank).
TYPED_TEST(DistChunks, RandomRank4And5) {
  using E = typename TypeParam::exec;
  using T = typename TypeParam::value;
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(E);
  std::mt19937 rng(4321);
  const int P = comm_size();
  for (int i = 0; i < 8; ++i) {
    const int R = i % 2 ? 5 : 4;
    std::vector<index_t> e(R);
    for (auto& x : e) x = 1 + static_cast<index_t>(rng() % 6);
    std::vector<int> perm(R), dims(R);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    std::iota(dims.begin(), dims.end(), 0);
    std::shuffle(dims.begin(), dims.end(), rng);
    const auto din = Decomposition::slab(e, P, dims[0]);
    const auto dout = P % 2 == 0 ? Decomposition(permuted(e, perm), {2, P / 2}, {dims[1], dims[2]})
                                 : Decomposition::slab(permuted(e, perm), P, dims[1]);
    const int c = 1 + static_cast<int>(rng() % 6);
    const index_t bad = R == 4 ? run_case<E, T, 4>(din, dout, perm, chunked(c))
                               : run_case<E, T, 5>(din, dout, perm, chunked(c));
    EXPECT_EQ(bad, 0) << what(din, dout, perm) << ", " << c << " chunks";
  }
}

/// execute_timed (the phases one after the other) and execute (pipelined)
/// give the same result, a plan reused, its chunk count as asked; with no
/// count a host space takes one chunk (nothing overlaps on the host).
TYPED_TEST(DistChunks, TimedPipelinedReusedAndChosen) {
  using E = typename TypeParam::exec;
  using T = typename TypeParam::value;
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(E);
  const int P = comm_size();
  const auto din = Decomposition::slab({8, 6, 7}, P, 0);
  const auto dout = Decomposition::slab({7, 6, 8}, P, 0);
  auto in = allocate<E, T, 3>("in", din);
  auto out = allocate<E, T, 3>("out", dout);
  fill_global_pattern(in, din);
  tilekit::dist::PermutePlan<E, T> plan(E(), MPI_COMM_WORLD, din, dout, {2, 1, 0}, chunked(3));
  EXPECT_EQ(plan.chunks(), 3);
  for (int rep = 0; rep < 2; ++rep) {
    Kokkos::deep_copy(out, poison<T>());
    plan.execute_timed(in, out);
    E().fence();
    EXPECT_EQ(mismatches(in, din, out, dout, {2, 1, 0}), 0) << "execute_timed #" << rep;
    Kokkos::deep_copy(out, poison<T>());
    plan.execute(in, out);
    E().fence();
    EXPECT_EQ(mismatches(in, din, out, dout, {2, 1, 0}), 0) << "execute #" << rep;
  }
  tilekit::dist::PermutePlan<E, T> chosen(E(), MPI_COMM_WORLD, din, dout, {2, 1, 0}, test_engine());
  EXPECT_GE(chosen.chunks(), 1);
  EXPECT_EQ(chosen.chunks(), chosen.model_chunks());
  if (tilekit::dist::PermutePlan<E, T>::host_space) {
    EXPECT_EQ(chosen.chunks(), 1);
    EXPECT_EQ(chosen.link().link, tilekit::dist::Link::host);
  }
}

}  // namespace
