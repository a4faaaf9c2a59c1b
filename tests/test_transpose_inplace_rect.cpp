// In-place rectangular transpose (docs/transpose_inplace.md): by square
// blocks (blocked, extents sharing a divisor of 16 or more) and by the
// decomposition (any shape): 1 x n, n x 1, primes, coprime and non-coprime
// extents (m | n, n | m, common factors), both layouts, plan reuse, line
// buffers in team scratch and in the workspace, shuffle batches of every
// width, and the checks made before anything is written.
#include <tilekit/transpose.hpp>

#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "error_message.hpp"
#include "inplace_aliased.hpp"
#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;

TILEKIT_TYPED_TEST_SUITE(TransposeInplaceRect,
                         tilekit::support::List<std::int32_t, float, double, Kokkos::complex<double>>);

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
    const bool blocks = v == tilekit::InplaceVariant::blocked && m > 0 && n > 0 &&
                        std::gcd(m, n) >= 16;
    EXPECT_EQ(plan.variant(), blocks ? tilekit::InplaceVariant::blocked
                                     : tilekit::InplaceVariant::decomposed);
    EXPECT_EQ(plan.block_edge(), blocks ? std::gcd(m, n) : 0);
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

// The default (blocked where gcd(m, n) >= 16) and the decomposition on all.
TYPED_TEST(TransposeInplaceRect, Shapes) {
  for (auto [m, n] : kShapes) {
    check_rect<typename TypeParam::exec, typename TypeParam::value>(m, n);
    check_rect<typename TypeParam::exec, typename TypeParam::value>(
        m, n, tilekit::InplaceVariant::decomposed);
  }
}

// Decomposition: every line through the workspace (a slot per team, teams
// loop over lines).
TYPED_TEST(TransposeInplaceRect, Workspace) {
  tilekit::TransposeOptions o;
  o.line_scratch = 0;
  for (auto [m, n] : kShapes)
    check_rect<typename TypeParam::exec, typename TypeParam::value>(
        m, n, tilekit::InplaceVariant::decomposed, o);
}

// By square blocks: grids of P x Q blocks of g x g (P or Q of 1, coprime P
// and Q, g prime, g a multiple of the tile and not), the blocks' tiles
// clipped (tile 8 on g = 17, 33, 50), and shuffle batches of one column, of
// widths that leave a narrower last batch, and of every column at once.
const std::vector<std::pair<std::int64_t, std::int64_t>> kBlockShapes = {
    {16, 32},  {32, 16},  {32, 48},   {48, 32},   {80, 112}, {112, 80}, {144, 240},
    {240, 144}, {99, 165}, {165, 99}, {250, 100}, {100, 250}, {34, 51}, {64, 448}};

TYPED_TEST(TransposeInplaceRect, Blocks) {
  using T = typename TypeParam::value;
  for (auto [m, n] : kBlockShapes) {
    const std::int64_t g = std::gcd(m, n), row_bytes = m / g * n * std::int64_t(sizeof(T));
    for (long columns : {-1L, 0L, 1L, 3L, 5L, 1L << 20}) {
      tilekit::TransposeOptions o;
      o.workspace = columns < 0 ? -1 : columns * row_bytes;
      check_rect<typename TypeParam::exec, T>(m, n, tilekit::InplaceVariant::blocked, o);
    }
    tilekit::TransposeOptions o;
    o.tile = 8;
    o.workspace = 3 * row_bytes;
    check_rect<typename TypeParam::exec, T>(m, n, tilekit::InplaceVariant::blocked, o);
  }
}

// A grid of g x g blocks (1 x 3) whose rows lie a multiple of the backend's
// inplace_alias_bytes apart, past its stream_min_bytes: the blocks' pair
// swap takes the aliased-rows order (test_transpose_inplace.cpp).
TYPED_TEST(TransposeInplaceRect, BlocksAliasedRows) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (!has_aliased_order<E, T>()) {
    GTEST_SKIP() << "the backend has no aliased-rows order";
  } else {
    // 48, 54 and 48 MiB; rows of 24, 36 and 48 KiB.
    const std::int64_t g = sizeof(T) >= 16 ? 1024 : sizeof(T) >= 8 ? 1536 : 2048, n = 3 * g;
    ASSERT_TRUE((takes_aliased_order<E, T>(n, g * n)));
    check_rect<E, T>(g, n);
  }
}

// The batch width a workspace bound gives: whole columns, one at least, at
// most g; the default within a quarter of the matrix.
TYPED_TEST(TransposeInplaceRect, BlocksWorkspace) {
  TILEKIT_CASE_TYPES(Exec, T);
  Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::memory_space> a("a", 80, 48);
  const std::int64_t g = 16, row_bytes = 80 / g * 48 * std::int64_t(sizeof(T));
  tilekit::TransposeOptions o;
  for (auto [bytes, width] : {std::pair<long, std::int64_t>{0, 1}, {row_bytes - 1, 1},
                              {5 * row_bytes + 3, 5}, {100 * row_bytes, g}}) {
    o.workspace = bytes;
    tilekit::InplaceTransposePlan plan(Exec(), a, tilekit::InplaceVariant::blocked, o);
    EXPECT_EQ(plan.block_edge(), g);
    EXPECT_EQ(plan.batch_width(), width) << bytes;
    EXPECT_EQ(plan.workspace_bytes(), std::size_t(width * row_bytes));
  }
  tilekit::InplaceTransposePlan plan(Exec(), a);
  EXPECT_LE(plan.workspace_bytes(), a.size() * sizeof(T) / 4);
  EXPECT_GE(plan.batch_width(), 1);
}

// Teams of several work items and narrow column blocks: the index walks step
// by many rows and columns at once (as on a GPU). Shapes a space cannot launch
// (a host team has at most its thread count; run with OMP_NUM_THREADS=4, as
// CTest's test_transpose_inplace_rect_teams does) are skipped.
const std::vector<std::pair<std::int64_t, std::int64_t>> kTeamShapes = {
    {1, 5}, {2, 3}, {7, 13}, {13, 7}, {4, 12}, {12, 4}, {12, 18}, {18, 12}, {64, 96}, {97, 40}};

TYPED_TEST(TransposeInplaceRect, TeamShapes) {
  using Exec = typename TypeParam::exec;
  const int most = largest_team<Exec>();
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
        check_rect<Exec, typename TypeParam::value>(m, n, tilekit::InplaceVariant::decomposed, o);
    }
    ++ran;
  }
  if (ran == 0) GTEST_SKIP() << Exec::name() << " teams have one thread";
}

TYPED_TEST(TransposeInplaceRect, LayoutLeft) {
  for (auto [m, n] : {std::pair<std::int64_t, std::int64_t>{1, 5}, {7, 13}, {12, 18}, {96, 64}}) {
    check_rect<typename TypeParam::exec, typename TypeParam::value, Kokkos::LayoutLeft>(m, n);
    check_rect<typename TypeParam::exec, typename TypeParam::value, Kokkos::LayoutLeft>(
        m, n, tilekit::InplaceVariant::decomposed);
  }
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
                        {3, 600001}, {600001, 3}, {3000, 2000}, {1008, 4032}})
      check_rect<typename TypeParam::exec, T>(m, n);
  }
}

// A plan runs many times: m x n to n x m with one plan, back with another.
TYPED_TEST(TransposeInplaceRect, PlanReuse) {
  TILEKIT_CASE_TYPES(Exec, T);
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
  TILEKIT_CASE_TYPES(Exec, T);
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
  tilekit::TransposeOptions o;
  o.workspace = -2;
  EXPECT_THROW(tilekit::InplaceTransposePlan(exec, a, tilekit::InplaceVariant::blocked, o),
               tilekit::invalid_argument);
  tilekit::TransposeOptions negative;
  negative.slots = -1;
  const std::string said = message_of<tilekit::invalid_argument>(
      [&] { tilekit::InplaceTransposePlan(exec, a, tilekit::InplaceVariant::blocked, negative); });
  EXPECT_NE(said.find("slots, tile (block width) and team_rows must not be negative (0: the "
                      "backend's choice)"),
            std::string::npos)
      << said;
  exec.fence();
  EXPECT_TRUE(still_poisoned(a));
}

}  // namespace
