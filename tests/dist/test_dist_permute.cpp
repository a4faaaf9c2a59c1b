// Distributed permute, transpose and redistribution on 1 to 4 ranks (ctest
// runs this binary under mpiexec -n 1, 2, 3, 4): every result is gathered on
// rank 0 and compared element by element with a single-rank reference
// permutation of the gathered input; outputs start poisoned.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "dist_helpers.hpp"

namespace {

using namespace tilekit::test;
using namespace tilekit::test::dist;
using tilekit::dist::EngineOptions;

/// Grids to try for a tensor of these extents on P ranks: slabs along the
/// first and the last dimension, and a p0 x p1 pencil (p0 the largest factor
/// of P up to its square root) over the first and the last dimension.
std::vector<Decomposition> grids(const std::vector<index_t>& e, int P) {
  const int R = static_cast<int>(e.size());
  std::vector<Decomposition> g = {Decomposition::slab(e, P, 0)};
  if (R > 1) {
    g.push_back(Decomposition::slab(e, P, R - 1));
    int p0 = 1;
    for (int f = 1; f * f <= P; ++f)
      if (P % f == 0) p0 = f;
    g.push_back(Decomposition::pencil(e, p0, P / p0, 0, R - 1));
  }
  return g;
}

/// Every permutation of extents e, between every pair of grids.
template <class Exec, class T, int R>
void every_permutation(const std::vector<index_t>& e) {
  std::vector<int> perm(R);
  std::iota(perm.begin(), perm.end(), 0);
  do {
    for (const auto& din : grids(e, comm_size()))
      for (const auto& dout : grids(permuted(e, perm), comm_size()))
        EXPECT_EQ((run_case<Exec, T, R>(din, dout, perm)), 0) << what(din, dout, perm);
  } while (std::next_permutation(perm.begin(), perm.end()));
}

template <class C>
class DistPermute : public ::testing::Test {};
using DistCases = Cases<double, std::int32_t>;
TYPED_TEST_SUITE(DistPermute, DistCases, CaseNames);

TYPED_TEST(DistPermute, EveryPermutationRank2) {
  using E = typename TypeParam::exec;
  using T = typename TypeParam::value;
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(E);
  every_permutation<E, T, 2>({7, 10});
  every_permutation<E, T, 2>({1, 5});  // 1 x N: most ranks hold nothing
}

TYPED_TEST(DistPermute, EveryPermutationRank3) {
  using E = typename TypeParam::exec;
  using T = typename TypeParam::value;
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(E);
  every_permutation<E, T, 3>({5, 6, 7});
}

/// Random rank-4 and rank-5 cases (extents 1 to 6, so some blocks are empty),
/// random permutations and grids; the same seed on every rank.
TYPED_TEST(DistPermute, RandomRank4And5) {
  using E = typename TypeParam::exec;
  using T = typename TypeParam::value;
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(E);
  std::mt19937 rng(1234);
  const int P = comm_size();
  auto random_grid = [&](const std::vector<index_t>& e) {
    const int R = static_cast<int>(e.size());
    std::vector<int> dims(R);
    std::iota(dims.begin(), dims.end(), 0);
    std::shuffle(dims.begin(), dims.end(), rng);
    if (P % 2 == 0 && rng() % 2) return Decomposition(e, {2, P / 2}, {dims[0], dims[1]});
    return Decomposition::slab(e, P, dims[0]);
  };
  for (int c = 0; c < 12; ++c) {
    const int R = c % 2 ? 5 : 4;
    std::vector<index_t> e(R);
    for (auto& x : e) x = 1 + static_cast<index_t>(rng() % 6);
    std::vector<int> perm(R);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    const auto din = random_grid(e), dout = random_grid(permuted(e, perm));
    const index_t bad = R == 4 ? run_case<E, T, 4>(din, dout, perm) : run_case<E, T, 5>(din, dout, perm);
    EXPECT_EQ(bad, 0) << what(din, dout, perm);
  }
}

/// Slab <-> pencil and slab <-> slab with no permutation (dist::redistribute).
TYPED_TEST(DistPermute, Redistribute) {
  using E = typename TypeParam::exec;
  using T = typename TypeParam::value;
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(E);
  const std::vector<index_t> e = {9, 4, 11};
  const int P = comm_size();
  const auto slab = Decomposition::slab(e, P, 0), zslab = Decomposition::slab(e, P, 2);
  const auto pencil = Decomposition(e, {P % 2 ? 1 : 2, P % 2 ? P : P / 2}, {1, 2});
  for (const auto& [a, b] : {std::pair{slab, pencil}, std::pair{pencil, slab},
                             std::pair{slab, zslab}, std::pair{zslab, pencil}}) {
    auto in = allocate<E, T, 3>("in", a);
    auto out = allocate<E, T, 3>("out", b);
    fill_global_pattern(in, a);
    Kokkos::deep_copy(out, poison<T>());
    tilekit::dist::redistribute(E(), MPI_COMM_WORLD, a, in, b, out, test_engine());
    E().fence();
    EXPECT_EQ(mismatches(in, a, out, b, {0, 1, 2}), 0) << what(a, b, {0, 1, 2});
  }
}

/// 2-D transpose of an odd matrix, row slabs to row slabs (dist::transpose),
/// and a plan run twice.
TYPED_TEST(DistPermute, TransposeAndReuse) {
  using E = typename TypeParam::exec;
  using T = typename TypeParam::value;
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(E);
  const auto din = Decomposition::slab({13, 9}, comm_size(), 0);
  const auto dout = Decomposition::slab({9, 13}, comm_size(), 0);
  auto in = allocate<E, T, 2>("in", din);
  auto out = allocate<E, T, 2>("out", dout);
  fill_global_pattern(in, din);
  Kokkos::deep_copy(out, poison<T>());
  tilekit::dist::transpose(E(), MPI_COMM_WORLD, din, in, dout, out, test_engine());
  E().fence();
  EXPECT_EQ(mismatches(in, din, out, dout, {1, 0}), 0);
  tilekit::dist::PermutePlan<E, T> plan(E(), MPI_COMM_WORLD, din, dout, {1, 0}, test_engine());
  for (int rep = 0; rep < 2; ++rep) {
    Kokkos::deep_copy(out, poison<T>());
    plan.execute(in, out);
    E().fence();
    EXPECT_EQ(mismatches(in, din, out, dout, {1, 0}), 0) << "execute #" << rep;
  }
}

/// The MPI engine with staging forced (device memory goes through pinned
/// host buffers; host memory never stages).
TYPED_TEST(DistPermute, MpiStaged) {
  using E = typename TypeParam::exec;
  using T = typename TypeParam::value;
  EngineOptions eo;
  eo.engine = tilekit::dist::Engine::mpi;
  eo.staging = tilekit::dist::Staging::always;
  const std::vector<index_t> e = {6, 5, 7};
  const auto din = Decomposition::slab(e, comm_size(), 0);
  const auto dout = Decomposition::slab({7, 5, 6}, comm_size(), 0);
  EXPECT_EQ((run_case<E, T, 3>(din, dout, {2, 1, 0}, eo)), 0);
}

}  // namespace
