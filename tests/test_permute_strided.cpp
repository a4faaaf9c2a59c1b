// Strided (LayoutStride) views in the permute: windows of a larger
// LayoutRight/LayoutLeft tensor with every kind of gap (a block, every other
// element of the fastest or of a slow dimension), ranks 2 to 4, odd and prime
// extents and extents of 1; the parent elements outside the output window
// must keep their poison; the fused variant's method on such windows, the
// conversion and axpby store, and the rejections (aliasing windows,
// overlapping strides, other strides at execute, the seed variants).
#include <tilekit/permute.hpp>
#include <tilekit/study/permute3d.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "strided_windows.hpp"
#include "permutations.hpp"
#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;
using tilekit::PermuteMethod;
using tilekit::PermuteVariant;
using Ext = Extents;

TILEKIT_TYPED_TEST_SUITE(PermuteStrided, tilekit::support::MoveTypes);

Ext permuted(const Ext& e, const std::vector<int>& perm) {
  Ext o(e.size());
  for (std::size_t k = 0; k < e.size(); ++k) o[k] = e[perm[k]];
  return o;
}

/// in (window wi of its parent) -> out (window wo of its parent), permuted by
/// perm, out = alpha * in + beta * out; every output element and every parent
/// element outside the output window checked. Returns the plan's method.
template <class Exec, class T, int R, class TOut = T>
PermuteMethod check(const Ext& e, const std::vector<int>& perm, const Win& wi, const Win& wo,
                    PermuteVariant v = PermuteVariant::fused, double alpha = 1, double beta = 0) {
  std::string what = wi.name() + " -> " + wo.name() + " perm";
  for (int k = 0; k < R; ++k) what += " " + std::to_string(perm[k]);
  what += " extents";
  for (int k = 0; k < R; ++k) what += " " + std::to_string(e[k]);
  Parent<Exec, T, R> pin(wi, e);
  Parent<Exec, TOut, R> pout(wo, permuted(e, perm));
  auto hin = Kokkos::create_mirror_view(pin.data);
  for (index_t k = 0; k < volume(pin.P); ++k) hin(k) = static_cast<T>(value_of(k));
  Kokkos::deep_copy(pin.data, hin);
  auto hold = Kokkos::create_mirror(pout.data);  // a copy even on the host: the reference
  for (index_t k = 0; k < volume(pout.P); ++k) hold(k) = static_cast<TOut>(value_of(k + 7) % 1000);
  Kokkos::deep_copy(pout.data, hold);
  Exec exec;
  tilekit::PermutePlan<Exec, T, TOut> plan(exec, pin.window(), pout.window(), perm, v);
  EXPECT_TRUE(plan.strided());
  plan.execute(pin.window(), pout.window(), alpha, beta);
  exec.fence();
  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pout.data);
  std::vector<char> inside(volume(pout.P), 0);
  index_t bad = 0;
  for_each_index(e, [&](const Ext& i) {
    Ext j(R);
    for (int k = 0; k < R; ++k) j[k] = i[perm[k]];
    const index_t o = pout.at(j);
    inside[o] = 1;
    const TOut want = static_cast<TOut>(alpha * static_cast<double>(hin(pin.at(i))) +
                                        beta * static_cast<double>(hold(o)));
    if (hout(o) != want && bad++ < 5)
      ADD_FAILURE() << what << ": wrong element at parent " << o << ": " << hout(o) << ", want " << want;
  });
  for (index_t k = 0; k < volume(pout.P); ++k)
    if (!inside[k] && hout(k) != hold(k) && bad++ < 5)
      ADD_FAILURE() << what << ": parent element " << k << " outside the window written";
  EXPECT_EQ(bad, 0) << what;
  return plan.method();
}

TYPED_TEST(PermuteStrided, EveryRank3PermutationOfWindows) {
  TILEKIT_CASE_TYPES(E, T);
  for (const Ext& e :
       {Ext{13, 7, 33}, Ext{1, 17, 5}, Ext{40, 1, 3}, Ext{64, 33, 65}, Ext{3, 97, 1}, Ext{5, 70, 66}})
    for (const auto& p : all_perms(3)) {
      check<E, T, 3>(e, p, block(3), block(3));
      check<E, T, 3>(e, p, block(3, true), dense(3));
      check<E, T, 3>(e, p, dense(3), every_other(3, 0));
      check<E, T, 3>(e, p, every_other(3, 2), block(3, true));
      check<E, T, 3>(e, p, block(3), every_other(3, 2));
    }
}

TYPED_TEST(PermuteStrided, Rank2AndRank4Windows) {
  TILEKIT_CASE_TYPES(E, T);
  for (const Ext& e : {Ext{1, 257}, Ext{257, 1}, Ext{31, 67}, Ext{130, 129}})
    for (const auto& p : all_perms(2)) {
      check<E, T, 2>(e, p, block(2), block(2, true));
      check<E, T, 2>(e, p, every_other(2, 0), block(2));
    }
  // A window of a 4-D tensor: batched transposes and full reversals.
  for (const Ext& e : {Ext{3, 17, 19, 5}, Ext{2, 64, 3, 33}})
    for (const std::vector<int>& p :
         {std::vector<int>{0, 2, 1, 3}, {0, 1, 3, 2}, {3, 2, 1, 0}, {1, 0, 3, 2}, {2, 3, 0, 1}}) {
      check<E, T, 4>(e, p, block(4), block(4));
      check<E, T, 4>(e, p, every_other(4, 1), dense(4, true));
      check<E, T, 4>(e, p, block(4, true), every_other(4, 3, true));
    }
}

TYPED_TEST(PermuteStrided, TheFusedVariantTilesWindowsWithUnitInnerStrides) {
  TILEKIT_CASE_TYPES(E, T);
  const Ext e{40, 36, 70};
  // A block of a larger tensor keeps runs along the fastest dimensions.
  EXPECT_EQ((check<E, T, 3>(e, {2, 1, 0}, block(3), block(3))), PermuteMethod::tiled);
  EXPECT_EQ((check<E, T, 3>(e, {1, 0, 2}, block(3), block(3))), PermuteMethod::rows);
  EXPECT_EQ((check<E, T, 3>(e, {0, 1, 2}, block(3), dense(3))), PermuteMethod::rows);
  // Every other element of the fastest dimension: no runs, element by element.
  EXPECT_EQ((check<E, T, 3>(e, {2, 1, 0}, every_other(3, 2), block(3))), PermuteMethod::naive);
  // A dense LayoutStride view is a contiguous one: one run, a copy.
  EXPECT_EQ((check<E, T, 3>(e, {0, 1, 2}, dense(3), dense(3))), PermuteMethod::copy);
  // A block of a matrix transposed into a block of another: the transpose's
  // plan (leading dimensions as its strides) where the backend runs it so.
  EXPECT_EQ((check<E, T, 2>(Ext{40, 70}, {1, 0}, block(2), block(2))),
            tilekit::impl::permute_2d_by_transpose<E>() ? PermuteMethod::transpose
                                                        : PermuteMethod::tiled);
  // Every other row of a 3-D tensor still tiles.
  EXPECT_EQ((check<E, T, 3>(e, {0, 2, 1}, every_other(3, 1), dense(3))), PermuteMethod::tiled);
  // Batches of 2-D transpositions whose matrices hold the transpose's tile
  // rows both ways: the transpose's plan, one launch for the batch (the batch
  // dimension's strides those of the windows), where the backend runs it so.
  constexpr int rows = tilekit::impl::transpose_tile_rows<E>();
  const PermuteMethod batched = tilekit::impl::permute_2d_by_transpose<E>() ? PermuteMethod::transpose
                                                                           : PermuteMethod::tiled;
  EXPECT_EQ((check<E, T, 3>(Ext{rows + 6, 5, rows + 2}, {2, 1, 0}, block(3), every_other(3, 0))),
            batched);
  EXPECT_EQ((check<E, T, 3>(Ext{5, rows + 6, rows + 2}, {0, 2, 1}, every_other(3, 0), block(3))),
            batched);
}

TYPED_TEST(PermuteStrided, NaiveVariantAndScaledConvertingStores) {
  TILEKIT_CASE_TYPES(E, T);
  const Ext e{11, 23, 6};
  for (const auto& p : all_perms(3)) {
    check<E, T, 3>(e, p, block(3), every_other(3, 1), PermuteVariant::naive);
    check<E, T, 3, double>(e, p, block(3, true), block(3), PermuteVariant::fused, 2.0, 1.0);
    check<E, T, 3, double>(e, p, every_other(3, 2), block(3), PermuteVariant::fused, -1.0, 0.5);
  }
}

TYPED_TEST(PermuteStrided, ContiguousWithStrided) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  const Ext e{9, 31, 17};
  const std::vector<int> perm{2, 0, 1};
  // Contiguous LayoutRight input -> a window; a window -> contiguous output.
  Kokkos::View<T***, Kokkos::LayoutRight, Mem> a("a", 9, 31, 17), b("b", 9, 31, 17);
  auto ha = Kokkos::create_mirror_view(a);
  for (std::size_t k = 0; k < ha.span(); ++k) ha.data()[k] = static_cast<T>(value_of(k));
  Kokkos::deep_copy(a, ha);
  Parent<E, T, 3> pout(block(3, true), permuted(e, perm));
  Kokkos::deep_copy(pout.data, poison<T>());
  E exec;
  tilekit::permute(exec, a, pout.window(), perm);
  tilekit::permute(exec, pout.window(), b, {1, 2, 0});  // back to a's shape, permuted again
  exec.fence();
  auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pout.data);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  index_t bad = 0;
  for_each_index(e, [&](const Ext& i) {
    const T want = ha(i[0], i[1], i[2]);
    if (hp(pout.at({i[2], i[0], i[1]})) != want) ++bad;
    // b(j0, j1, j2) = out(j2, j0, j1) = a(j0, j1, j2): the two permutations undo each other.
    if (hb(i[0], i[1], i[2]) != want) ++bad;
  });
  EXPECT_EQ(bad, 0);
}

TYPED_TEST(PermuteStrided, Rejected) {
  TILEKIT_CASE_TYPES(E, T);
  const Ext e{6, 8, 10};
  E exec;
  // Even rows in, odd rows out of one parent: distinct elements, interleaved
  // address ranges.
  Parent<E, T, 3> p(every_other(3, 1), e);
  Kokkos::deep_copy(p.data, poison<T>());
  const auto in = p.window();
  using W = typename Parent<E, T, 3>::Window;
  Kokkos::LayoutStride l;
  for (int d = 0; d < 3; ++d) l.dimension[d] = in.extent(d), l.stride[d] = in.stride(d);
  const W odd_rows(in.data() + p.pstride(1), l);  // the rows between in's
  EXPECT_THROW(tilekit::permute(exec, in, odd_rows, {0, 1, 2}), tilekit::invalid_argument);
  EXPECT_TRUE(still_poisoned(p.data));
  // Overlapping strides: extents (6, 8, 10), strides (1, 1, 1).
  Kokkos::LayoutStride bad_l(6, 1, 8, 1, 10, 1);
  const W bad(p.data.data(), bad_l);
  Parent<E, T, 3> r(block(3), Ext{10, 8, 6});
  Kokkos::deep_copy(r.data, poison<T>());
  EXPECT_THROW(tilekit::permute(exec, bad, r.window(), {2, 1, 0}), tilekit::invalid_argument);
  EXPECT_TRUE(still_poisoned(r.data));
  // A plan made for one window, executed on a window of other strides.
  Parent<E, T, 3> s(block(3), e), s2(every_other(3, 0), e);
  tilekit::PermutePlan plan(exec, s.window(), r.window(), {2, 1, 0});
  EXPECT_THROW(plan.execute(s2.window(), r.window()), tilekit::invalid_argument);
  EXPECT_TRUE(still_poisoned(r.data));
  // The seed's rank-3 kernels need contiguous views.
  EXPECT_THROW(tilekit::study::Permute3Plan(exec, s.window(), r.window(), {2, 1, 0},
                                            tilekit::study::Permute3Variant::shared),
               tilekit::invalid_argument);
}

// ------------------------------------------------- host-side shape of strided views

using tilekit::impl::fuse;
using tilekit::impl::row_major_shape;
using tilekit::impl::strided_shape;

TEST(PermuteStridedShape, ContiguousStridesGiveTheRowMajorShape) {
  // LayoutRight (4, 5, 6): strides (30, 6, 1); the output (6, 4, 5) of perm {2, 0, 1}: (20, 5, 1).
  EXPECT_EQ(strided_shape({4, 5, 6}, {2, 0, 1}, {30, 6, 1}, {20, 5, 1}),
            row_major_shape({4, 5, 6}, {2, 0, 1}, false));
  // LayoutLeft (4, 5, 6): strides (1, 4, 20); output (6, 4, 5): (1, 6, 24).
  EXPECT_EQ(strided_shape({4, 5, 6}, {2, 0, 1}, {1, 4, 20}, {1, 6, 24}),
            row_major_shape({4, 5, 6}, {2, 0, 1}, true));
}

TEST(PermuteStridedShape, GapsStopFusion) {
  // A (4, 5, 6) block of a (4, 7, 6) tensor copied to a contiguous one: the
  // two fast dimensions still chain (6 = 1 x 6), the slow one does not (42 != 5 x 6).
  const auto f = fuse(strided_shape({4, 5, 6}, {0, 1, 2}, {42, 6, 1}, {30, 6, 1}));
  EXPECT_EQ(f.rank, 2);
  EXPECT_EQ(f.n[0], 4);
  EXPECT_EQ(f.n[1], 30);
  EXPECT_EQ(f.si[0], 42);
  EXPECT_EQ(f.so[0], 30);
  EXPECT_TRUE(f.unit_inner());
  // Every other element of the fastest dimension: fused, but not unit_inner.
  const auto g = fuse(strided_shape({4, 5}, {0, 1}, {11, 2}, {5, 1}));
  EXPECT_EQ(g.rank, 2);
  EXPECT_FALSE(g.unit_inner());
}

TEST(PermuteStridedShape, RunsStopAtAGap) {
  // (64, 3, 4) reversed, the input a block with a gap after each row of 4:
  // the load run may not span dimensions 2 and 1 (stride 5 != 4).
  const auto f = fuse(strided_shape({64, 3, 4}, {2, 1, 0}, {15, 5, 1}, {192, 64, 1}));
  const auto b = tilekit::impl::choose_box(f, 32, 1024);
  ASSERT_FALSE(b.load_run.empty());
  EXPECT_EQ(b.load_run[0], 2);
  EXPECT_TRUE(b.load_run.size() == 1 || b.load_run[1] != 1);
}

}  // namespace
