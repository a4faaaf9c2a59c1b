// In-place rectangular transpose (the decomposition of
// docs/transpose_inplace.md): 1 x n, n x 1, primes, coprime and non-coprime
// extents (m | n, n | m, common factors), both layouts, plan reuse, line
// buffers in team scratch and in the workspace, and the checks made before
// anything is written.
#include <tilekit/transpose.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;

template <class C>
class TransposeInplaceRect : public ::testing::Test {};
using RectTypes = Cases<std::int32_t, float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(TransposeInplaceRect, RectTypes, CaseNames);

template <class T>
T element(std::int64_t k) {
  return static_cast<T>(value_of(k));
}

/// Transposes an m x n matrix in place and checks every element of the n x m
/// result against the host copy of the input.
template <class Exec, class T, class Layout = Kokkos::LayoutRight>
void check_rect(std::int64_t m, std::int64_t n,
                tilekit::InplaceVariant v = tilekit::InplaceVariant::blocked,
                const tilekit::TransposeOptions& o = {}) {
  using View = Kokkos::View<T**, Layout, typename Exec::memory_space>;
  View a("a", m, n);
  auto h = Kokkos::create_mirror(a);  // a separate copy: the reference
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) h(i, j) = element<T>(i * 7919 + j);
  Kokkos::deep_copy(a, h);
  Exec exec;
  tilekit::InplaceTransposePlan plan(exec, a, v, o);
  if (m != n) {
    EXPECT_EQ(plan.variant(), tilekit::InplaceVariant::decomposed);
  }
  plan.execute(a);
  exec.fence();
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                               tilekit::transposed_view(a));
  std::int64_t wrong = 0;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) wrong += !(r(j, i) == h(i, j));
  EXPECT_EQ(wrong, 0) << m << "x" << n << " " << tilekit::to_string(plan.variant())
                      << " workspace " << plan.workspace_bytes() << " B";
}

// {m, n}: 1 x n and n x 1, primes, coprime, m | n and n | m, common factors
// (gcd 2, 6, 12, 64), a square through the decomposition below.
const std::vector<std::pair<std::int64_t, std::int64_t>> kShapes = {
    {1, 1},   {1, 2},   {2, 1},   {1, 97},  {97, 1},  {2, 3},   {3, 2},   {7, 13},
    {13, 7},  {31, 17}, {8, 9},   {9, 8},   {4, 12},  {12, 4},  {5, 125}, {125, 5},
    {6, 10},  {10, 6},  {12, 18}, {18, 12}, {64, 96}, {96, 64}, {127, 256}, {256, 127},
    {192, 320}, {33, 1000}, {1000, 33}, {0, 5}, {5, 0}};

TYPED_TEST(TransposeInplaceRect, Shapes) {
  for (auto [m, n] : kShapes)
    check_rect<typename TypeParam::exec, typename TypeParam::value>(m, n);
}

// Every line through the workspace (a slot per team, teams loop over lines).
TYPED_TEST(TransposeInplaceRect, Workspace) {
  tilekit::TransposeOptions o;
  o.line_scratch = 0;
  for (auto [m, n] : kShapes)
    check_rect<typename TypeParam::exec, typename TypeParam::value>(
        m, n, tilekit::InplaceVariant::blocked, o);
}

// Teams of several work items and narrow column blocks: the index walks step
// by many rows and columns at once (as on a GPU). Shapes a space cannot launch
// (a host team has at most its thread count; run with OMP_NUM_THREADS=4, as
// CTest's test_transpose_inplace_rect_teams does) are skipped.
const std::vector<std::pair<std::int64_t, std::int64_t>> kTeamShapes = {
    {1, 5}, {2, 3}, {7, 13}, {13, 7}, {4, 12}, {12, 4}, {12, 18}, {18, 12}, {64, 96}, {97, 40}};

template <class Exec>
struct NoWork {
  KOKKOS_INLINE_FUNCTION void operator()(
      const typename Kokkos::TeamPolicy<Exec>::member_type&) const {}
};

TYPED_TEST(TransposeInplaceRect, TeamShapes) {
  using Exec = typename TypeParam::exec;
  const int most =
      Kokkos::TeamPolicy<Exec>(Exec(), 1, 1).team_size_max(NoWork<Exec>{}, Kokkos::ParallelForTag());
  int ran = 0;
  for (auto [threads, width] :
       {std::pair{2, 1}, {2, 2}, {4, 1}, {4, 2}, {4, 3}, {8, 8}, {16, 4}, {16, 1}, {16, 3}}) {
    if (threads > most) continue;
    tilekit::TransposeOptions o;
    o.team_rows = threads;
    o.tile = width;
    for (long scratch : {-1L, 0L}) {
      o.line_scratch = scratch;
      for (auto [m, n] : kTeamShapes)
        check_rect<Exec, typename TypeParam::value>(m, n, tilekit::InplaceVariant::blocked, o);
    }
    ++ran;
  }
  if (ran == 0) GTEST_SKIP() << Exec::name() << " teams have one thread";
}

TYPED_TEST(TransposeInplaceRect, LayoutLeft) {
  for (auto [m, n] : {std::pair<std::int64_t, std::int64_t>{1, 5}, {7, 13}, {12, 18}, {96, 64}})
    check_rect<typename TypeParam::exec, typename TypeParam::value, Kokkos::LayoutLeft>(m, n);
}

TYPED_TEST(TransposeInplaceRect, SquareThroughDecomposition) {
  for (std::int64_t n : {1, 2, 17, 64, 100})
    check_rect<typename TypeParam::exec, typename TypeParam::value>(
        n, n, tilekit::InplaceVariant::decomposed);
}

// Millions of elements; rows longer than a team's scratch (the workspace path:
// 3 x 600001 doubles are 4.8 MB rows) and both orientations.
TYPED_TEST(TransposeInplaceRect, Large) {
  using T = typename TypeParam::value;
  if constexpr (sizeof(T) <= 8) {
    for (auto [m, n] : {std::pair<std::int64_t, std::int64_t>{1536, 2048}, {2047, 1021},
                        {3, 600001}, {600001, 3}})
      check_rect<typename TypeParam::exec, T>(m, n);
  }
}

// A plan runs many times: m x n to n x m with one plan, back with another.
TYPED_TEST(TransposeInplaceRect, PlanReuse) {
  using Exec = typename TypeParam::exec;
  using T = typename TypeParam::value;
  using View = Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::memory_space>;
  const std::int64_t m = 45, n = 75;
  View a("a", m, n), b("b", m, n);
  auto h = Kokkos::create_mirror(a);
  for (std::int64_t k = 0; k < m * n; ++k) h.data()[k] = element<T>(k);
  Kokkos::deep_copy(a, h);
  Kokkos::deep_copy(b, h);
  Exec exec;
  tilekit::InplaceTransposePlan there(exec, a);
  tilekit::InplaceTransposePlan back(exec, tilekit::transposed_view(a));
  there.execute(a);
  there.execute(b);
  back.execute(tilekit::transposed_view(a));
  exec.fence();
  auto ra = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto rb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      wrong += !(ra(i, j) == h(i, j)) + !(rb.data()[j * m + i] == h(i, j));
  EXPECT_EQ(wrong, 0);
}

// Rejected before anything is written: extents other than the planned ones,
// and matrices beyond the 2^52 elements the index maps divide exactly.
TYPED_TEST(TransposeInplaceRect, Rejected) {
  using Exec = typename TypeParam::exec;
  using T = typename TypeParam::value;
  using View = Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::memory_space>;
  using Unmanaged = Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::memory_space,
                                 Kokkos::MemoryUnmanaged>;
  Exec exec;
  View a("a", 6, 10);
  Kokkos::deep_copy(a, poison<T>());
  tilekit::InplaceTransposePlan plan(exec, a);
  EXPECT_THROW(plan.execute(Unmanaged(a.data(), 10, 6)), tilekit::invalid_argument);
  EXPECT_THROW(plan.execute(Unmanaged(a.data(), 5, 12)), tilekit::invalid_argument);
  const std::size_t huge = std::size_t(1) << 26;
  EXPECT_THROW(tilekit::transpose_inplace(exec, Unmanaged(a.data(), huge, huge + 1)),
               tilekit::invalid_argument);
  exec.fence();
  EXPECT_TRUE(still_poisoned(a));
}

}  // namespace
