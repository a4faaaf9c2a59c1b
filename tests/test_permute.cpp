// N-D permutation: every permutation of ranks 2-4 with odd extents, random
// shapes and permutations of ranks 5-8, every variant, both layouts,
// alpha/beta, launch-shape overrides, plan reuse, every error case; and the
// host-side fusion, tiling and bank-padding logic on its own. Every output
// element is checked against a host reference on logical indices. The staged
// kernels launched directly on host teams: test_permute_staged.cpp.
#include <tilekit/permute.hpp>

#include <algorithm>
#include <array>
#include <iostream>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "error_message.hpp"
#include "permutations.hpp"
#include "permute_reference.hpp"
#include "test_helpers.hpp"
#include "variants.hpp"

namespace {
using namespace tilekit::test;
using tilekit::PermuteVariant;


struct Scalars {
  double alpha = 1, beta = 0;
};

/// Builds the views of the shape's rank and layout over a and b, runs a plan once.
template <class Exec, class T>
void execute_plan(T* a, T* b, const Extents& ext, const Perm& perm, bool left, const PermuteRun& v,
                  T alpha, T beta, const tilekit::PermuteOptions& opts) {
  using Mem = typename Exec::memory_space;
  Extents oext(ext.size());
  for (std::size_t k = 0; k < ext.size(); ++k) oext[k] = ext[perm[k]];
  tilekit::support::with_layout(left, [&](auto layout) {
    using L = decltype(layout);
    tilekit::support::with_rank(static_cast<int>(ext.size()), [&](auto rank) {
      constexpr int R = decltype(rank)::value;
      Exec exec;
      permute_with(v, exec, tilekit::support::view_of<R, L, Mem>(a, ext),
                   tilekit::support::view_of<R, L, Mem>(b, oext), perm, alpha, beta, opts);
      exec.fence();
    });
  });
}

/// Runs one permutation through a plan and checks every output element.
/// Returns the number of wrong elements.
template <class Exec, class T>
long run_one(const Extents& ext, const Perm& perm, const PermuteRun& v, bool left, Scalars s = {},
             const tilekit::PermuteOptions& opts = {}, bool nan_output = false) {
  using Mem = typename Exec::memory_space;
  using Host = Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  const index_t n = volume(ext);
  Kokkos::View<T*, Mem> a("a", n), b("b", n);
  std::vector<T> hin(n), hout0(n);
  for (index_t k = 0; k < n; ++k) {
    hin[k] = make_value<T>(k * 31 + 5);
    if (nan_output) {
      if constexpr (!std::is_integral_v<T>) hout0[k] = T(std::numeric_limits<double>::quiet_NaN());
    } else {
      hout0[k] = s.beta != 0 ? make_value<T>(k + 13) : make_poison<T>();
    }
  }
  Kokkos::deep_copy(a, Host(hin.data(), n));
  Kokkos::deep_copy(b, Host(hout0.data(), n));
  const T alpha = T(s.alpha), beta = T(s.beta);
  execute_plan<Exec, T>(a.data(), b.data(), ext, perm, left, v, alpha, beta, opts);
  std::vector<T> got(n);
  Kokkos::deep_copy(Host(got.data(), n), b);
  const auto want = reference(ext, perm, left, hin, hout0, alpha, beta, s.beta == 0);
  long wrong = 0;
  for (index_t k = 0; k < n; ++k) wrong += !(got[k] == want[k]);
  return wrong;
}


/// The fused variant on (ext, perm): plain, scaled (alpha 2, beta -1) unless
/// `plain_only`, and with the caller's launch options `given` (`what`).
template <class Exec, class T>
void check_fused(const Extents& ext, const Perm& perm, bool left,
                 const tilekit::PermuteOptions& given, const std::string& what,
                 bool plain_only = false) {
  const std::string d = describe(ext, perm, PermuteVariant::fused, left);
  EXPECT_EQ((run_one<Exec, T>(ext, perm, PermuteVariant::fused, left)), 0) << d;
  if (plain_only) return;
  EXPECT_EQ((run_one<Exec, T>(ext, perm, PermuteVariant::fused, left, Scalars{2, -1})), 0)
      << d << ", alpha 2, beta -1";
  EXPECT_EQ((run_one<Exec, T>(ext, perm, PermuteVariant::fused, left, {}, given)), 0)
      << d << ", " << what;
}

/// Every permutation of rank R for each shape, every applicable variant, both layouts.
template <class Exec, class T, int R>
void every_permutation(const std::vector<Extents>& shapes) {
  for (const auto& ext : shapes) {
    Perm p(R);
    std::iota(p.begin(), p.end(), 0);
    do {
      for (const auto& v : kPermuteRuns) {
        if (is_seed(v) && R != 3) continue;
        EXPECT_EQ((run_one<Exec, T>(ext, p, v, false)), 0)
            << describe(ext, p, v, false);
        EXPECT_EQ((run_one<Exec, T>(ext, p, v, true)), 0)
            << describe(ext, p, v, true);
      }
    } while (std::next_permutation(p.begin(), p.end()));
  }
}

TILEKIT_TYPED_TEST_SUITE(Permute, tilekit::support::PermuteTypes);

TYPED_TEST(Permute, EveryPermutationRank2) {
  every_permutation<typename TypeParam::exec, typename TypeParam::value, 2>(
      {{37, 61}, {1, 53}, {53, 1}, {1, 1}, {130, 67}, {3, 1001}});
}

TYPED_TEST(Permute, EveryPermutationRank3EveryVariant) {
  // Non-multiples of every tile and cube edge, a long innermost run (rows
  // method), a short one (tiled with the fastest dimension in place), 1 x N,
  // small extents around a long one (a dimension that ends both runs).
  every_permutation<typename TypeParam::exec, typename TypeParam::value, 3>(
      {{33, 17, 45}, {5, 7, 101}, {29, 31, 5}, {1, 13, 1}, {9, 1, 70}, {3, 2, 1}, {3, 1001, 5}});
}

TYPED_TEST(Permute, EveryPermutationRank4) {
  every_permutation<typename TypeParam::exec, typename TypeParam::value, 4>(
      {{7, 5, 11, 9}, {3, 1, 40, 33}, {2, 67, 3, 5}});
}

/// Random shapes (extents 1..max_extent) and permutations, fixed seeds.
template <class Exec, class T, int R>
void random_cases(int max_extent, int cases, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> extent(1, max_extent);
  for (int c = 0; c < cases; ++c) {
    Extents ext(R);
    for (auto& e : ext) e = extent(gen);
    Perm p(R);
    std::iota(p.begin(), p.end(), 0);
    std::shuffle(p.begin(), p.end(), gen);
    for (auto v : {PermuteVariant::fused, PermuteVariant::naive}) {
      EXPECT_EQ((run_one<Exec, T>(ext, p, v, false)), 0) << describe(ext, p, v, false);
      EXPECT_EQ((run_one<Exec, T>(ext, p, v, true)), 0) << describe(ext, p, v, true);
    }
  }
}

TYPED_TEST(Permute, RandomRank5To8) {
  TILEKIT_CASE_TYPES(E, T);
  random_cases<E, T, 5>(9, 6, 501);
  random_cases<E, T, 6>(6, 6, 601);
  random_cases<E, T, 7>(5, 5, 701);
  random_cases<E, T, 8>(4, 5, 801);
}

/// The host path reads transposition tiles into scratch transposed in
/// micro-blocks, writes whole rows and streams outputs past the backends'
/// stream_min_bytes (common/micro_transpose.hpp).
/// A large float case (33 MiB of output) takes it: an odd innermost extent (so
/// some micro-block rows start unaligned and are stored plainly), both
/// layouts (float only: the host reference takes about a second a case).
TYPED_TEST(Permute, StreamedLargeOutputs) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (std::is_same_v<T, float>) {
    const Extents ext = {257, 3, 10885};  // 8.39 M elements
    const Perm perm = {2, 1, 0};
    Kokkos::View<T***, Kokkos::LayoutRight, typename E::memory_space> a("a", 257, 3, 10885),
        b("b", 10885, 3, 257);
    tilekit::PermutePlan plan(E(), a, b, perm);
    const auto& L = plan.tiled_layout();
    if constexpr (tilekit::impl::micro_edge<E, T>() > 0) {
      // A batch of three 257 x 10885 transpositions: the transpose's plan
      // where the backend runs it so (one launch, streamed as a whole); its
      // scaled stores, and other backends, these boxes.
      ASSERT_EQ(plan.method(), tilekit::impl::permute_2d_by_transpose<E>()
                                   ? tilekit::PermuteMethod::transpose
                                   : tilekit::PermuteMethod::tiled);
      ASSERT_TRUE(L.transposition())
          << "the case no longer takes the host path";
      ASSERT_TRUE(tilekit::impl::stream_output<E>(257.0 * 3 * 10885 * sizeof(T)));
    }
    for (bool left : {false, true})
      EXPECT_EQ((run_one<E, T>(ext, perm, PermuteVariant::fused, left)), 0)
          << describe(ext, perm, PermuteVariant::fused, left);
    // The boxes' pure moves too: a launch option given (the backend's pad)
    // keeps the tiled method.
    tilekit::PermuteOptions boxes;
    boxes.pad = plan.config().pad;
    tilekit::PermutePlan tiled(E(), a, b, perm, PermuteVariant::fused, boxes);
    ASSERT_EQ(tiled.method(), tilekit::PermuteMethod::tiled);
    EXPECT_EQ((run_one<E, T>(ext, perm, PermuteVariant::fused, false, {}, boxes)), 0)
        << describe(ext, perm, PermuteVariant::fused, false) << ", pad given";
  }
}

/// The rows method (the fastest dimension stays) and the copy method on the
/// host path: rows numbered in the input's order, outputs past
/// stream_min_bytes streamed (33-40 MB of floats): rows of 860 elements (every
/// row streamed), 857 (none: their bytes are not a multiple of 16), a rank-4
/// case whose row dimensions are reversed, a copy; both layouts, and alpha and
/// beta (stored element by element).
TYPED_TEST(Permute, RowsStreamedInInputOrder) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (std::is_same_v<T, float>) {
    const std::vector<std::pair<Extents, Perm>> cases = {{{97, 101, 860}, {1, 0, 2}},
                                                         {{97, 101, 857}, {1, 0, 2}},
                                                         {{31, 33, 37, 260}, {2, 1, 0, 3}},
                                                         {{8400000}, {0}}};
    constexpr bool host_path = tilekit::impl::micro_edge<E, T>() > 0;
    for (const auto& [ext, perm] : cases) {
      const double bytes = static_cast<double>(volume(ext)) * sizeof(T);
      ASSERT_TRUE(!host_path || tilekit::impl::stream_output<E>(bytes)) << "the case no longer streams";
      for (bool left : {false, true})
        EXPECT_EQ((run_one<E, T>(ext, perm, PermuteVariant::fused, left)), 0)
            << describe(ext, perm, PermuteVariant::fused, left);
      EXPECT_EQ((run_one<E, T>(ext, perm, PermuteVariant::fused, false, Scalars{2, -1})), 0)
          << describe(ext, perm, PermuteVariant::fused, false) << ", alpha 2, beta -1";
    }
  }
}

/// Boxes that are not 2-D transpositions on the host path, streamed (34-35 MB
/// of output), and with alpha and beta (stored element by element): a rank-4
/// reversal of odd extents (runs of two dimensions, offsets from tables;
/// scratch transposed, every store row one run of it) and batched 17 x 63
/// matrices transposed (both runs over the same dimensions; scratch in input
/// order, each store row gathered from one scratch row into a buffer).
TYPED_TEST(Permute, HostPathTableBoxesStreamed) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (std::is_same_v<T, float>) {
    using Mem = typename E::memory_space;
    using tilekit::impl::BoxKind;
    auto check = [&](const Extents& ext, const Perm& perm, const auto& in, const auto& out,
                     bool transposed) {
      tilekit::PermutePlan plan(E(), in, out, perm);
      const auto& L = plan.tiled_layout();
      if constexpr (tilekit::impl::micro_edge<E, T>() > 0) {
        ASSERT_EQ(plan.method(), tilekit::PermuteMethod::tiled);
        EXPECT_EQ(L.kind, BoxKind::tables);
        EXPECT_EQ(L.transposed, transposed);
        EXPECT_EQ(L.rows_in_scratch, transposed);  // else: gathered
        EXPECT_TRUE(tilekit::impl::stream_output<E>(static_cast<double>(volume(ext)) * sizeof(T)));
      }
      EXPECT_EQ((run_one<E, T>(ext, perm, PermuteVariant::fused, false)), 0)
          << describe(ext, perm, PermuteVariant::fused, false);
      EXPECT_EQ((run_one<E, T>(ext, perm, PermuteVariant::fused, false, Scalars{2, -1})), 0)
          << describe(ext, perm, PermuteVariant::fused, false) << ", alpha 2, beta -1";
    };
    check({17, 31, 129, 127}, {3, 2, 1, 0},
          Kokkos::View<T****, Kokkos::LayoutRight, Mem>("a", 17, 31, 129, 127),
          Kokkos::View<T****, Kokkos::LayoutRight, Mem>("b", 127, 129, 31, 17), true);
    check({8200, 17, 63}, {0, 2, 1}, Kokkos::View<T***, Kokkos::LayoutRight, Mem>("a", 8200, 17, 63),
          Kokkos::View<T***, Kokkos::LayoutRight, Mem>("b", 8200, 63, 17), false);
  }
}

/// Scaled stores of load_table boxes (load offsets from tables, store
/// offsets computed): each rank-4 permutation of odd shapes whose plan has
/// such a box, both layouts, with alpha alone and with alpha and beta, every
/// element checked; at least one such box on every space.
TYPED_TEST(Permute, ScaledStoresOfLoadTableBoxes) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  int found = 0;
  for (const Extents& ext : {Extents{5, 7, 33, 65}, Extents{3, 65, 9, 31}, Extents{66, 3, 5, 67}}) {
    const index_t n = volume(ext);
    Kokkos::View<T*, Mem> a("a", n), b("b", n);
    for (const Perm& perm : all_perms(4))
      for (bool left : {false, true}) {
        Extents oext(4);
        for (int k = 0; k < 4; ++k) oext[k] = ext[perm[k]];
        bool load_table = false;
        tilekit::support::with_layout(left, [&](auto layout) {
          using L = decltype(layout);
          const tilekit::PermutePlan plan(E(), tilekit::support::view_of<4, L, Mem>(a.data(), ext),
                                          tilekit::support::view_of<4, L, Mem>(b.data(), oext),
                                          perm);
          load_table = plan.method() == tilekit::PermuteMethod::tiled &&
                       plan.tiled_layout().kind == tilekit::impl::BoxKind::load_table;
        });
        if (!load_table) continue;
        ++found;
        const std::string d = describe(ext, perm, PermuteVariant::fused, left);
        EXPECT_EQ((run_one<E, T>(ext, perm, PermuteVariant::fused, left, Scalars{2, 0})), 0)
            << d << ", alpha 2";
        EXPECT_EQ((run_one<E, T>(ext, perm, PermuteVariant::fused, left, Scalars{2, -1})), 0)
            << d << ", alpha 2, beta -1";
      }
  }
  std::cout << E::name() << ": " << found << " load_table boxes\n";
  EXPECT_GT(found, 0) << "no case has a load_table box: choose other shapes";
}

/// On hosts the default tile is halved, down to the rows method's edge, until
/// every store row of the box is one run of scratch (L.rows_in_scratch: the
/// host path writes it out whole; 2-D transpositions, and reversals whose
/// runs keep their order): runs longer than the innermost extents would join
/// dimensions into boxes whose store rows are gathered. Where no edge gives
/// one, the largest fitting tile is kept.
TYPED_TEST(Permute, HostTilesPreferRowsInScratch) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (tilekit::impl::micro_edge<E, T>() == 0) {
    GTEST_SKIP() << "the host path's tiles";
  } else {
    using Mem = typename E::memory_space;
    for (const auto& [ext, perm] :
         {std::pair{Extents{4, 8, 128, 128}, Perm{0, 1, 3, 2}}, {{1024, 24, 64}, {2, 0, 1}},
          {{64, 40, 512}, {2, 1, 0}}}) {
      const auto n = [&](int d) { return static_cast<std::size_t>(ext[d]); };
      auto check = [&](const auto& in, const auto& out) {
        tilekit::PermutePlan plan(E(), in, out, perm);
        // (A 2-D transposition's pure moves take the transpose; its scaled
        // stores these tiles.)
        ASSERT_TRUE(plan.method() == tilekit::PermuteMethod::tiled ||
                    plan.method() == tilekit::PermuteMethod::transpose);
        const auto& L = plan.tiled_layout();
        EXPECT_TRUE(L.rows_in_scratch) << describe(ext, perm, PermuteVariant::fused, false);
      };
      if (ext.size() == 4)
        check(Kokkos::View<T****, Kokkos::LayoutRight, Mem>("a", n(0), n(1), n(2), n(3)),
              Kokkos::View<T****, Kokkos::LayoutRight, Mem>("b", n(perm[0]), n(perm[1]),
                                                            n(perm[2]), n(perm[3])));
      else
        check(Kokkos::View<T***, Kokkos::LayoutRight, Mem>("a", n(0), n(1), n(2)),
              Kokkos::View<T***, Kokkos::LayoutRight, Mem>("b", n(perm[0]), n(perm[1]), n(perm[2])));
      EXPECT_EQ((run_one<E, T>(ext, perm, PermuteVariant::fused, false)), 0)
          << describe(ext, perm, PermuteVariant::fused, false);
    }
  }
}

TYPED_TEST(Permute, AlphaBetaEveryVariant) {
  TILEKIT_CASE_TYPES(E, T);
  const Extents e3 = {19, 23, 37};
  for (Scalars s : {Scalars{2, 0}, Scalars{2, 3}, Scalars{1, -1}, Scalars{-1, 1}})
    for (const auto& v : kPermuteRuns)
      for (const Perm& p : {Perm{2, 0, 1}, Perm{1, 0, 2}, Perm{0, 1, 2}}) {
        EXPECT_EQ((run_one<E, T>(e3, p, v, false, s)), 0)
            << describe(e3, p, v, false) << " alpha " << s.alpha << " beta " << s.beta;
        EXPECT_EQ((run_one<E, T>(e3, p, v, true, s)), 0)
            << describe(e3, p, v, true) << " alpha " << s.alpha << " beta " << s.beta;
      }
  const Extents e5 = {3, 5, 7, 4, 9};
  for (Scalars s : {Scalars{2, 3}, Scalars{3, 0}})
    EXPECT_EQ((run_one<E, T>(e5, {4, 2, 0, 3, 1}, PermuteVariant::fused, false, s)), 0);
}

TYPED_TEST(Permute, BetaZeroNeverReadsTheOutput) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (std::is_integral_v<T>) {
    GTEST_SKIP() << "no NaN in an integer type";
  } else {
    // A NaN in the output survives only if some kernel reads it.
    for (const auto& v : kPermuteRuns)
      for (Scalars s : {Scalars{1, 0}, Scalars{2, 0}})
        EXPECT_EQ((run_one<E, T>({13, 21, 34}, {2, 1, 0}, v, false, s, {}, true)), 0)
            << name_of(v);
  }
}

TYPED_TEST(Permute, LaunchShapeOverrides) {
  TILEKIT_CASE_TYPES(E, T);
  // Shapes every backend accepts; tiny and odd tiles give multi-dimension
  // runs, partial chunks and extra box dimensions.
  // Teams take 1 to 3 steps in turn (tiles_per_team).
  int steps = 0;
  for (auto [tile, pad] : {std::pair{1, 0}, {3, 1}, {5, 0}, {8, 3}, {24, 1}}) {
    const auto o = one_item_teams<tilekit::PermuteOptions>(tile, pad, steps++ % 3 + 1);
    for (const Perm& p : {Perm{3, 2, 1, 0}, Perm{0, 1, 3, 2}, Perm{2, 0, 3, 1}, Perm{1, 0, 2, 3}})
      EXPECT_EQ((run_one<E, T>({6, 7, 10, 9}, p, PermuteVariant::fused, false, {}, o)), 0)
          << "tile " << tile << " pad " << pad << " " << describe({6, 7, 10, 9}, p, PermuteVariant::fused, false);
    for (const auto& v : kPermuteRuns)
      EXPECT_EQ((run_one<E, T>({11, 4, 17}, {1, 2, 0}, v, true, {}, o)), 0)
          << "tile " << tile << " " << name_of(v);
  }
}

/// Hosts' boxes past transpose_tile_rows: load runs of edge^2 / rows
/// elements, store runs of rows (choose_box's two targets). Edges of 128 and
/// 256 on shapes with ragged chunks, both layouts, every 3-D permutation and
/// rank-4 ones whose runs join dimensions; every element checked.
TYPED_TEST(Permute, HostBoxesWithLongLoadRuns) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (tilekit::impl::transpose_tile_rows<E>() > 0 &&
                tilekit::impl::micro_edge<E, T>() > 0) {
    for (int tile : {128, 256}) {
      tilekit::PermuteOptions o;
      o.tile = tile;
      for (bool left : {false, true}) {
        Perm p = {0, 1, 2};
        do {
          EXPECT_EQ((run_one<E, T>({33, 70, 300}, p, PermuteVariant::fused, left, {}, o)), 0)
              << "tile " << tile << " " << describe({33, 70, 300}, p, PermuteVariant::fused, left);
        } while (std::next_permutation(p.begin(), p.end()));
        const Extents e4 = {5, 20, 9, 140};
        for (const Perm& q :
             {Perm{3, 2, 1, 0}, Perm{0, 1, 3, 2}, Perm{3, 0, 1, 2}, Perm{2, 0, 3, 1}})
          EXPECT_EQ((run_one<E, T>(e4, q, PermuteVariant::fused, left, {}, o)), 0)
              << "tile " << tile << " " << describe(e4, q, PermuteVariant::fused, left);
      }
    }
  } else {
    GTEST_SKIP() << "square boxes on this space";
  }
}

/// The backend's wide boxes (Traits::permute_wide_box; Cuda): a box whose
/// output side starts with a dimension shorter than `below` and whose offsets
/// come from tables takes longer store runs in a larger box, moved by `team`
/// times the rows, where its scratch and staging fit (on Cuda every 4-byte
/// element); a caller's launch option keeps the default box. Odd extents
/// (7 x 33 x 2 x 3 x 31 x 29 reversed: store runs of 7 x 33, load runs of 29;
/// 16 x 9 x 7 x 64 reversed), both layouts, alpha and beta, the default box
/// too; every element checked.
TYPED_TEST(Permute, WideBoxesOfShortOutputDimensions) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  using namespace tilekit::impl;
  using X = tilekit::backends::Traits<E>;
  const tilekit::backends::PermuteWideBox wb = [] {
    if constexpr (requires { X::permute_wide_box; }) return X::permute_wide_box;
    else return tilekit::backends::PermuteWideBox{};
  }();
  const Extents e6 = {7, 33, 2, 3, 31, 29}, e4 = {16, 9, 7, 64};
  const Perm r6 = {5, 4, 3, 2, 1, 0}, r4 = {3, 2, 1, 0};
  Kokkos::View<T******, Kokkos::LayoutRight, Mem> a("a", 7, 33, 2, 3, 31, 29),
      b("b", 29, 31, 3, 2, 33, 7);
  const tilekit::PermutePlan plan(E(), a, b, r6);
  tilekit::PermuteOptions given;
  given.tile = plan.config().tile;
  const tilekit::PermutePlan fixed(E(), a, b, r6, PermuteVariant::fused, given);
  ASSERT_EQ(plan.method(), tilekit::PermuteMethod::tiled);
  ASSERT_EQ(fixed.method(), tilekit::PermuteMethod::tiled);
  const int team = plan.config().team_rows * plan.config().vector;
  EXPECT_EQ(fixed.tiled_team_size(), team);
  const TiledLayout &L = plan.tiled_layout(), &D = fixed.tiled_layout();
  if (plan.tiled_team_size() != team) {  // the wide box
    EXPECT_GT(wb.below, 7);
    EXPECT_EQ(plan.tiled_team_size(), team * wb.team);
    EXPECT_NE(D.kind, BoxKind::affine);
    EXPECT_GT(L.box[store_cols], D.box[store_cols]);
    EXPECT_GT(static_cast<index_t>(L.box[load_rows]) * L.box[load_cols],
              static_cast<index_t>(D.box[load_rows]) * D.box[load_cols]);
    if (plan.config().tile == 64) {  // runs of 256 and 32 elements asked
      EXPECT_EQ(L.box[store_cols], 7 * 33);
      EXPECT_EQ(L.box[load_cols], 29);
    }
  }
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<E, Kokkos::Cuda> && sizeof(T) == 4)
    EXPECT_EQ(plan.tiled_team_size(), team * wb.team) << "the wide box is no longer taken";
#endif
  for (bool left : {false, true})
    for (const auto& [ext, perm] : {std::pair{e6, r6}, std::pair{e4, r4}})
      check_fused<E, T>(ext, perm, left, given, "tile given");
}

TYPED_TEST(Permute, MethodFollowsTheFusedPermutation) {
  TILEKIT_CASE_TYPES(E, T);
  using V3 = Kokkos::View<T***, Kokkos::LayoutRight, typename E::memory_space>;
  using M = tilekit::PermuteMethod;
  E exec;
  V3 a("a", 40, 30, 200), same("s", 40, 30, 200), swap01("s01", 30, 40, 200),
      rot("rot", 30, 200, 40), swap12("s12", 40, 200, 30);
  EXPECT_EQ(tilekit::PermutePlan(exec, a, same, {0, 1, 2}).method(), M::copy);
  EXPECT_EQ(tilekit::PermutePlan(exec, a, swap01, {1, 0, 2}).method(), M::rows);
  tilekit::PermutePlan p120(exec, a, rot, {1, 2, 0});
  // A 2-D transposition: the transpose's plan where the backend runs it so.
  EXPECT_EQ(p120.method(), tilekit::impl::permute_2d_by_transpose<E>() ? M::transpose : M::tiled);
  EXPECT_EQ(p120.fused_shape().rank, 2);  // (40, 6000) transposed
  EXPECT_EQ(tilekit::PermutePlan(exec, a, swap12, {0, 2, 1}).method(), M::tiled);
  // With both moving extents beyond the tile edge, a 2-D transpose and a
  // batched one have affine boxes (offsets computed, no tables).
  V3 b120("b120", 70, 3, 80), b021("b021", 3, 70, 80), bout("bout", 3, 80, 70);
  using tilekit::impl::BoxKind;
  EXPECT_EQ(tilekit::PermutePlan(exec, b120, bout, {1, 2, 0}).tiled_layout().kind, BoxKind::affine);
  EXPECT_EQ(tilekit::PermutePlan(exec, b021, bout, {0, 2, 1}).tiled_layout().kind, BoxKind::affine);
  EXPECT_EQ(tilekit::PermutePlan(exec, a, same, {0, 1, 2}, PermuteVariant::naive).method(), M::naive);
  EXPECT_EQ(tilekit::study::Permute3Plan(exec, a, rot, {1, 2, 0},
                                        tilekit::study::Permute3Variant::shared_bank_free)
                .method(),
            "shared");
}

/// Pure moves (one type, alpha 1, beta 0) whose fused problem is a 2-D
/// transposition run the out-of-place transpose's plan where the backend says
/// so (Traits::permute_2d_by_transpose: hosts), else the tiled boxes; scaled
/// stores of the same plan and a caller's launch shape take the tiled boxes.
/// Prime and odd extents, thin matrices, ranks 2 to 5 (the innermost
/// dimension moved outward, rotations), both layouts, alpha and beta, a
/// caller's tile; on
/// floats one past stream_min_bytes (streamed rows, odd ones unaligned).
/// Every element checked.
TYPED_TEST(Permute, TwoDTranspositionsRunTheTranspose) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  using M = tilekit::PermuteMethod;
  const M want = tilekit::impl::permute_2d_by_transpose<E>() ? M::transpose : M::tiled;
  E exec;
  Kokkos::View<T***, Kokkos::LayoutRight, Mem> a3("a3", 7, 11, 13), b3("b3", 11, 13, 7);
  EXPECT_EQ(tilekit::PermutePlan(exec, a3, b3, {1, 2, 0}).method(), want);
  tilekit::PermuteOptions tile;
  tile.tile = 32;
  EXPECT_EQ(tilekit::PermutePlan(exec, a3, b3, {1, 2, 0}, PermuteVariant::fused, tile).method(),
            M::tiled);
  Kokkos::View<T***, Kokkos::LayoutLeft, Mem> l3("l3", 7, 11, 13), m3("m3", 13, 7, 11);
  EXPECT_EQ(tilekit::PermutePlan(exec, l3, m3, {2, 0, 1}).method(), want);
  Kokkos::View<T****, Kokkos::LayoutRight, Mem> a4("a4", 3, 5, 7, 129), b4("b4", 129, 3, 5, 7);
  EXPECT_EQ(tilekit::PermutePlan(exec, a4, b4, {3, 0, 1, 2}).method(), want);
  std::vector<std::pair<Extents, Perm>> cases = {
      {{37, 1031}, {1, 0}},         {{1031, 37}, {1, 0}},           {{2, 3}, {1, 0}},
      {{3, 4099}, {1, 0}},          {{4099, 5}, {1, 0}},  // thin: the transpose's thin kernels
      {{7, 11, 13}, {1, 2, 0}},     {{131, 3, 257}, {2, 0, 1}},     {{3, 5, 7, 129}, {3, 0, 1, 2}},
      {{2, 3, 5, 7, 11}, {2, 3, 4, 0, 1}}};
  if constexpr (std::is_same_v<T, float>) cases.push_back({{3, 1031, 2741}, {2, 0, 1}});  // 34 MB
  for (const auto& [ext, perm] : cases)
    for (bool left : {false, true})
      check_fused<E, T>(ext, perm, left, tile, "tile 32", volume(ext) > (1 << 20));
}

/// PermuteOptions::align through the plan: skewed tiles where the space
/// stages tiles in registers and a tiled 2-D transposition's output rows do
/// not start on a transaction (none for rows on transactions, with align 0,
/// or on spaces without staging), every element checked; outputs of every
/// origin mod the transaction through one plan; other values rejected.
TYPED_TEST(Permute, AlignedStores) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  constexpr bool staged = tilekit::backends::Traits<E>::stage_registers > 1;
  E exec;
  for (int align : {0, 32, 64}) {
    tilekit::PermuteOptions o;
    o.align = align;
    for (const auto& [ext, perm] : std::vector<std::pair<Extents, Perm>>{
             {{97, 101}, {1, 0}}, {{130, 67}, {1, 0}}, {{5, 67, 129}, {0, 2, 1}},
             {{67, 3, 129}, {2, 1, 0}}, {{67, 5, 31}, {1, 2, 0}}, {{64, 64}, {1, 0}}})
      for (bool left : {false, true})
        EXPECT_EQ((run_one<E, T>(ext, perm, PermuteVariant::fused, left, {}, o)), 0)
            << "align " << align << " " << describe(ext, perm, PermuteVariant::fused, left);
    const int S = align % static_cast<int>(sizeof(T)) == 0 ? align / static_cast<int>(sizeof(T)) : 0;
    // Row-major unmanaged 2-D views over 1-D buffers: a 2-D allocation may
    // be padded (and a Cuda View's default layout is LayoutLeft).
    using U = Kokkos::View<T**, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged>;
    Kokkos::View<T*, Mem> odd_buf("odd", 131 * 67), out_buf("out", 68 * 131), sq_buf("sq", 128 * 128),
        sq_out_buf("sq_out", 128 * 128);
    const U odd(odd_buf.data(), 131, 67), sq(sq_buf.data(), 128, 128),
        sq_out(sq_out_buf.data(), 128, 128);
    tilekit::PermutePlan square(exec, sq, sq_out, {1, 0}, PermuteVariant::fused, o);
    EXPECT_EQ(square.skew(), 0) << "align " << align;  // rows of 128 elements start on one
    // One plan, outputs starting at every element of a transaction.
    tilekit::PermutePlan plan(exec, odd, U(out_buf.data(), 67, 131), {1, 0}, PermuteVariant::fused, o);
    const int want = staged && S > 1 && 64 - S + 1 >= S ? S : 0;
    EXPECT_EQ(plan.skew(), want) << "align " << align;
    auto h = Kokkos::create_mirror_view(odd_buf);
    for (int k = 0; k < 131 * 67; ++k) h(k) = make_value<T>(k);
    Kokkos::deep_copy(odd_buf, h);
    for (int origin = 0; origin < std::max(S, 1); ++origin) {
      Kokkos::deep_copy(out_buf, make_poison<T>());
      const U out(out_buf.data() + origin, 67, 131);
      plan.execute(odd, out);
      exec.fence();
      auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out_buf);
      const T* flat = ho.data();
      long wrong = 0;
      for (int k = 0; k < 68 * 131; ++k) {
        const int e = k - origin, j = e / 131, i = e % 131;
        wrong += e >= 0 && e < 67 * 131 ? !(flat[k] == h(i * 67 + j)) : !(flat[k] == make_poison<T>());
      }
      EXPECT_EQ(wrong, 0) << "align " << align << " origin " << origin;
    }
  }
  Kokkos::View<T*, Mem> buf("buf", 2 * 35);
  const Kokkos::View<T**, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged> a(buf.data(), 5, 7),
      b(buf.data() + 35, 7, 5);
  for (int bad : {-2, 3, 24}) {
    tilekit::PermuteOptions o;
    o.align = bad;
    EXPECT_THROW(tilekit::PermutePlan(exec, a, b, {1, 0}, PermuteVariant::fused, o),
                 tilekit::invalid_argument)
        << bad;
  }
}

TYPED_TEST(Permute, PlanReusedAcrossViewsAndScalars) {
  TILEKIT_CASE_TYPES(E, T);
  using V = Kokkos::View<T***, Kokkos::LayoutRight, typename E::memory_space>;
  E exec;
  V in1("in1", 9, 40, 33), in2("in2", 9, 40, 33), out1("out1", 33, 9, 40), out2("out2", 33, 9, 40);
  Kokkos::deep_copy(in1, T(3));
  Kokkos::deep_copy(in2, T(5));
  tilekit::PermutePlan plan(exec, in1, out1, {2, 0, 1});
  plan.execute(in1, out1);
  plan.execute(in2, out2, T(2));
  plan.execute(in2, out1, T(1), T(10));
  exec.fence();
  auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out1);
  auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out2);
  long wrong = 0;
  for (int i = 0; i < 33; ++i)
    for (int j = 0; j < 9; ++j)
      for (int k = 0; k < 40; ++k) wrong += !(h1(i, j, k) == T(35)) + !(h2(i, j, k) == T(10));
  EXPECT_EQ(wrong, 0);
  V wrong_in("w", 9, 40, 34), wrong_out("wo", 34, 9, 40);
  EXPECT_THROW(plan.execute(wrong_in, wrong_out), tilekit::invalid_argument);
  Kokkos::View<T***, Kokkos::LayoutLeft, typename E::memory_space> lin("l", 9, 40, 33),
      lout("lo", 33, 9, 40);
  EXPECT_THROW(plan.execute(lin, lout), tilekit::invalid_argument);
}


// ------------------------------------------------------------- errors

TILEKIT_TYPED_TEST_SUITE(PermuteErrors, tilekit::support::List<float>);

TYPED_TEST(PermuteErrors, RejectedBeforeAnythingIsWritten) {
  using E = typename TypeParam::exec;
  using Mem = typename E::memory_space;
  using V3 = Kokkos::View<float***, Kokkos::LayoutRight, Mem>;
  using V2 = Kokkos::View<float**, Kokkos::LayoutRight, Mem>;
  E exec;
  V3 in("in", 4, 5, 6), out("out", 6, 4, 5), bad("bad", 6, 5, 4);
  Kokkos::deep_copy(in, 1.0f);
  Kokkos::deep_copy(out, poison<float>());
  Kokkos::deep_copy(bad, poison<float>());
  using tilekit::invalid_argument;
  // Not a permutation of 0..2: wrong length, repeated, out of range.
  EXPECT_THROW(tilekit::permute(exec, in, out, {2, 0}), invalid_argument);
  EXPECT_THROW(tilekit::permute(exec, in, out, {2, 0, 1, 3}), invalid_argument);
  EXPECT_THROW(tilekit::permute(exec, in, out, {2, 0, 0}), invalid_argument);
  EXPECT_THROW(tilekit::permute(exec, in, out, {3, 0, 1}), invalid_argument);
  EXPECT_THROW(tilekit::permute(exec, in, out, {-1, 0, 1}), invalid_argument);
  // Output extents that are not the permuted input extents.
  EXPECT_THROW(tilekit::permute(exec, in, bad, {2, 0, 1}), invalid_argument);
  EXPECT_THROW(tilekit::permute(exec, in, out, {0, 1, 2}), invalid_argument);
  // Seed variants need rank 3.
  V2 m("m", 3, 4), mt("mt", 4, 3);
  EXPECT_THROW(tilekit::study::Permute3Plan(exec, m, mt, {1, 0},
                                            tilekit::study::Permute3Variant::shared),
               invalid_argument);
  EXPECT_TRUE(still_poisoned(out));
  EXPECT_TRUE(still_poisoned(bad));
  // The same view, and overlapping memory.
  V3 cube("cube", 5, 5, 5);
  EXPECT_THROW(tilekit::permute(exec, cube, cube, {1, 0, 2}), invalid_argument);
  Kokkos::View<float*, Mem> big("big", 400);
  Kokkos::View<float***, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged> a(big.data(), 4, 5, 6),
      b(big.data() + 100, 6, 4, 5);
  EXPECT_THROW(tilekit::permute(exec, a, b, {2, 0, 1}), invalid_argument);
  // A team shape the backend cannot launch, a tile beyond the limit.
  tilekit::PermuteOptions huge_team;
  huge_team.team_rows = 1 << 20;
  EXPECT_THROW(tilekit::permute(exec, in, out, {2, 0, 1}, 1.0f, 0.0f, PermuteVariant::fused,
                                huge_team),
               invalid_argument);
  tilekit::PermuteOptions huge_tile;
  huge_tile.tile = 4096;
  EXPECT_THROW(tilekit::permute(exec, in, out, {2, 0, 1}, 1.0f, 0.0f, PermuteVariant::fused,
                                huge_tile),
               invalid_argument);
  tilekit::PermuteOptions no_steps;
  no_steps.tiles_per_team = -1;
  const std::string negative = message_of<invalid_argument>([&] {
    tilekit::permute(exec, in, out, {2, 0, 1}, 1.0f, 0.0f, PermuteVariant::fused, no_steps);
  });  // says what it checks: 0 is allowed, the backend's choice
  EXPECT_NE(negative.find("tiles_per_team must not be negative (0: the backend's choice)"),
            std::string::npos)
      << negative;
  EXPECT_TRUE(still_poisoned(out));
  // The message names the call, the extents and the permutation.
  const std::string what =
      message_of<invalid_argument>([&] { tilekit::permute(exec, in, bad, {2, 0, 1}); });
  EXPECT_NE(what.find("tilekit::permute"), std::string::npos) << what;
  EXPECT_NE(what.find("(6, 5, 4)"), std::string::npos) << what;
  EXPECT_NE(what.find("(6, 4, 5)"), std::string::npos) << what;
  const std::string repeated =
      message_of<invalid_argument>([&] { tilekit::permute(exec, in, out, {2, 2, 1}); });
  EXPECT_NE(repeated.find("[2, 2, 1]"), std::string::npos) << repeated;
}

TYPED_TEST(PermuteErrors, NonContiguousViewsAreRejected) {
  using E = typename TypeParam::exec;
  using Mem = typename E::memory_space;
  E exec;
  Kokkos::View<float***, Kokkos::LayoutRight, Mem> out("out", 7, 4, 5);
  Kokkos::deep_copy(out, poison<float>());
  // A padded allocation: rows of 7 floats on aligned strides.
  Kokkos::View<float***, Kokkos::LayoutRight, Mem> in(Kokkos::view_alloc("in", Kokkos::AllowPadding),
                                                      4, 5, 7);
  if (in.span_is_contiguous()) GTEST_SKIP() << "this backend does not pad rows of 7 floats";
  EXPECT_THROW(tilekit::permute(exec, in, out, {2, 0, 1}), tilekit::invalid_argument);
  EXPECT_TRUE(still_poisoned(out));
}

TYPED_TEST(PermuteErrors, EmptyTensorsAreNoOps) {
  using E = typename TypeParam::exec;
  using V = Kokkos::View<float***, Kokkos::LayoutRight, typename E::memory_space>;
  E exec;
  V in("in", 0, 5, 3), out("out", 3, 0, 5);
  for (const auto& v : kPermuteRuns)
    EXPECT_NO_THROW(permute_with(v, exec, in, out, {2, 0, 1}, 1.0f, 0.0f));
  exec.fence();
}

// ------------------------------------------------- host-side logic alone

using tilekit::impl::PermuteShape;

PermuteShape shape(std::vector<index_t> n, std::vector<int> p) {
  return tilekit::impl::row_major_shape(n, p, false);
}

TEST(PermuteFusion, MergesDimensionsThatStayAdjacent) {
  using tilekit::impl::fuse;
  EXPECT_EQ(fuse(shape({4, 5, 6}, {0, 1, 2})), shape({120}, {0}));
  EXPECT_EQ(fuse(shape({4, 5, 6}, {1, 2, 0})), shape({4, 30}, {1, 0}));
  EXPECT_EQ(fuse(shape({4, 5, 6}, {2, 0, 1})), shape({20, 6}, {1, 0}));
  EXPECT_EQ(fuse(shape({4, 5, 6}, {2, 1, 0})), shape({4, 5, 6}, {2, 1, 0}));
  EXPECT_EQ(fuse(shape({2, 3, 4, 5}, {0, 1, 3, 2})), shape({6, 4, 5}, {0, 2, 1}));
  EXPECT_EQ(fuse(shape({2, 3, 4, 5}, {2, 3, 0, 1})), shape({6, 20}, {1, 0}));
  // Extents of 1 drop out first, which can make more dimensions adjacent.
  EXPECT_EQ(fuse(shape({4, 1, 6}, {2, 1, 0})), shape({4, 6}, {1, 0}));
  EXPECT_EQ(fuse(shape({3, 1, 5}, {1, 0, 2})), shape({15}, {0}));
  EXPECT_EQ(fuse(shape({1, 1, 1}, {2, 0, 1})).rank, 0);
  // An empty tensor is left alone.
  EXPECT_EQ(fuse(shape({4, 0, 6}, {2, 0, 1})), shape({4, 0, 6}, {2, 0, 1}));
}

TEST(PermuteFusion, LayoutLeftIsTheReversedRowMajorProblem) {
  // Logical (a, b, c) -> (b, c, a) in LayoutLeft is, in memory, row-major
  // (c, b, a) with output memory order (a, c, b) = input memory dims (2, 0, 1).
  EXPECT_EQ(tilekit::impl::row_major_shape({4, 5, 6}, {1, 2, 0}, true), shape({6, 5, 4}, {2, 0, 1}));
  EXPECT_EQ(tilekit::impl::row_major_shape({4, 5}, {1, 0}, true), shape({5, 4}, {1, 0}));
}

TEST(PermuteFusion, StridesAndSizesAre64Bit) {
  const auto s = shape({3, index_t{1} << 20, index_t{1} << 12}, {2, 0, 1});
  const auto f = tilekit::impl::fuse(s);
  EXPECT_EQ(f, shape({3 * (index_t{1} << 20), index_t{1} << 12}, {1, 0}));
  EXPECT_EQ(f.size(), 3 * (index_t{1} << 32));
  EXPECT_EQ(f.output_strides()[1], 3 * (index_t{1} << 20));
  const auto box = tilekit::impl::choose_box(f, 64, 64 * 64);
  const auto T = tilekit::impl::make_tiling(f, box, 1);
  const auto& L = T.layout;
  EXPECT_EQ(L.ntiles, (3 * (index_t{1} << 20) / 64) * ((index_t{1} << 12) / 64));
  EXPECT_EQ(L.box[tilekit::impl::load_cols], 64);
  EXPECT_EQ(L.box[tilekit::impl::store_cols], 64);
  EXPECT_EQ(T.maps.entry(63), 63 * (index_t{1} << 12));
  EXPECT_EQ(T.maps.entry(64 + 63), 63 * 3 * (index_t{1} << 20));
  // A 2-D transpose: affine, with the same 64-bit strides.
  EXPECT_EQ(L.kind, tilekit::impl::BoxKind::affine);
  EXPECT_EQ(L.in_row, index_t{1} << 12);
  EXPECT_EQ(L.out_row, 3 * (index_t{1} << 20));
}

TEST(PermuteTiling, SkewElementsOfTheDefaultAndOfACallersAlign) {
  using tilekit::impl::skew_elements;
  // A caller's align is taken as it is, for any element size.
  EXPECT_EQ(skew_elements<Kokkos::DefaultHostExecutionSpace>(32, 4), 8);
  EXPECT_EQ(skew_elements<Kokkos::DefaultHostExecutionSpace>(32, 2), 16);
  EXPECT_EQ(skew_elements<Kokkos::DefaultHostExecutionSpace>(32, 32), 0);
  EXPECT_EQ(skew_elements<Kokkos::DefaultHostExecutionSpace>(0, 4), 0);
  // Hosts: no skew by default (their tiles are not staged in registers).
  EXPECT_EQ(skew_elements<Kokkos::DefaultHostExecutionSpace>(-1, 4), 0);
#if defined(KOKKOS_ENABLE_CUDA)
  // Cuda: 32-byte sectors, skewed for 4-, 8- and 16-byte elements, not for
  // 2-byte ones (16 per sector: slower skewed, backends/cuda.hpp).
  EXPECT_EQ(skew_elements<Kokkos::Cuda>(-1, 2), 0);
  EXPECT_EQ(skew_elements<Kokkos::Cuda>(-1, 4), 8);
  EXPECT_EQ(skew_elements<Kokkos::Cuda>(-1, 8), 4);
  EXPECT_EQ(skew_elements<Kokkos::Cuda>(-1, 16), 2);
  EXPECT_EQ(skew_elements<Kokkos::Cuda>(32, 2), 16);
#endif
}

/// The tiled launch's tiles per team: the backend's
/// permute_tiled_tiles_per_team for tiles that are not skewed (Cuda: one),
/// the config's for skewed ones and where the backend sets none; a caller's
/// is taken as given.
TEST(PermuteTiling, TilesPerTeamOfTheTiledLaunch) {
  using E = Kokkos::DefaultExecutionSpace;
  using Mem = E::memory_space;
  // (Matrices of 48 rows: fewer than the host transpose's tile rows, so no
  // host runs them through the transpose's plan.)
  Kokkos::View<float***, Kokkos::LayoutRight, Mem> a("a", 64, 48, 128), b("b", 64, 128, 48);
  const tilekit::PermutePlan plan(E(), a, b, {0, 2, 1});
  ASSERT_EQ(plan.method(), tilekit::PermuteMethod::tiled);
  ASSERT_EQ(plan.skew(), 0);
  const int backend = [](auto space) {  // (generic: the trait may be absent)
    using X = tilekit::backends::Traits<decltype(space)>;
    if constexpr (requires { X::permute_tiled_tiles_per_team; })
      return static_cast<int>(X::permute_tiled_tiles_per_team);
    else
      return 0;
  }(E());
  EXPECT_EQ(plan.tiles_per_team(), backend > 0 ? backend : plan.config().tiles_per_team);
  // Output rows of 131 floats: skewed tiles where the backend has them.
  Kokkos::View<float**, Kokkos::LayoutRight, Mem> c("c", 131, 67), d("d", 67, 131);
  const tilekit::PermutePlan skewed(E(), c, d, {1, 0});
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<E, Kokkos::Cuda>) ASSERT_GT(skewed.skew(), 1);
#endif
  if (skewed.skew() > 1) {
    EXPECT_EQ(skewed.tiles_per_team(), skewed.config().tiles_per_team);
  }
  tilekit::PermuteOptions o;
  o.tiles_per_team = 3;
  EXPECT_EQ(tilekit::PermutePlan(E(), a, b, {0, 2, 1}, PermuteVariant::fused, o).tiles_per_team(), 3);
}

TEST(PermuteTiling, KernelArgumentIsSmall) {
  using namespace tilekit::impl;
  // CUDA: Kokkos passes a kernel's functor plus about 150 bytes of its own as
  // kernel parameters below 512 bytes, else through constant memory (a copy
  // and a wait per launch). The float and double tiled kernels stay below.
  using C = Kokkos::complex<double>;
  EXPECT_LE(sizeof(TiledLayout), 288u);
  using E = Kokkos::DefaultExecutionSpace;
  EXPECT_LE((sizeof(PermuteTiled<E, double, 8, 32, StoreAxpby<double>, BoxKind::tables>)), 344u);
  EXPECT_LE((sizeof(PermuteTiled<E, C, 8, 16, StoreScale<C>, BoxKind::affine>)), 344u);
}

TEST(PermuteTiling, RunsSpanSmallDimensionsAndStayContiguous) {
  using namespace tilekit::impl;
  // Rank-6 reversal of small extents: both runs take two dimensions.
  const auto f = fuse(shape({16, 32, 16, 32, 16, 32}, {5, 4, 3, 2, 1, 0}));
  const auto box = choose_box(f, 64, 64 * 64);
  EXPECT_EQ(box.load_run, (std::vector<int>{5, 4}));
  EXPECT_EQ(box.store_run, (std::vector<int>{0, 1}));
  const auto L = make_tiling(f, box, 1).layout;
  // Each run's two dimensions are in the other run's rows, in the opposite
  // order: neither side is affine, every offset comes from a table.
  EXPECT_EQ(L.kind, BoxKind::tables);
  EXPECT_EQ(L.box[load_cols], 64);
  EXPECT_EQ(L.box[store_cols], 64);
  EXPECT_EQ(L.box[load_rows], 64);
  EXPECT_EQ(L.box[store_rows], 64);
  // Swap of the two innermost of small extents: the whole 16 x 32 matrix is
  // one box, and extra batch rows give the team work.
  const auto g = fuse(shape({64, 64, 16, 32}, {0, 1, 3, 2}));
  EXPECT_EQ(g, shape({4096, 16, 32}, {0, 2, 1}));
  const auto gb = choose_box(g, 64, 64 * 64);
  EXPECT_EQ(gb.chunk[1], 16);
  EXPECT_EQ(gb.chunk[2], 32);
  EXPECT_EQ(gb.extra, (std::vector<int>{0}));
  const auto GL = make_tiling(g, gb, 1).layout;
  EXPECT_EQ(GL.box[load_cols], 512);
  EXPECT_EQ(GL.box[store_cols], 512);
  EXPECT_GE(static_cast<index_t>(GL.box[load_rows]) * GL.box[load_cols], 2048);
}

TEST(PermuteTiling, ThePartialExtraDimensionTilesEvenly) {
  using namespace tilekit::impl;
  // Runs of 31 x 29 (in both), room for 4 more rows: 64 in 16 full tiles,
  // not the next output dimension, 5, in a tile of 4 and one of 1.
  const auto f = fuse(shape({7, 33, 5, 64, 31, 29}, {1, 0, 3, 2, 5, 4}));
  const auto box = choose_box(f, 64, 64 * 64);
  EXPECT_EQ(box.extra, (std::vector<int>{3}));
  EXPECT_EQ(box.chunk[3], 4);
  EXPECT_EQ(box.chunk[2], 0);
  // The chunk balanced over its tiles: 100 rows in room for 64 go as two
  // tiles of 50, not 64 and 36.
  const auto g = fuse(shape({100, 16, 32}, {0, 2, 1}));
  const auto gb = choose_box(g, 64, 512 * 64);
  EXPECT_EQ(gb.extra, (std::vector<int>{0}));
  EXPECT_EQ(gb.chunk[0], 50);
}

TEST(PermuteTiling, ADimensionEndingBothRunsGrowsTheBox) {
  using namespace tilekit::impl;
  // Small extents around a long one, reversed: the long dimension ends both
  // runs, which come out shorter than their targets (5 x 6 and 3 x 6 against
  // 32), and grows until the box holds about a tile (not 5 x 6 x 3).
  const auto f = fuse(shape({3, index_t{1} << 24, 5}, {2, 1, 0}));
  const auto box = choose_box(f, 32, 32 * 32);
  EXPECT_EQ(box.load_run, (std::vector<int>{2, 1}));
  EXPECT_EQ(box.store_run, (std::vector<int>{0, 1}));
  EXPECT_EQ(box.chunk[1], 1024 / 15);
  const auto L = make_tiling(f, box, 1).layout;
  EXPECT_EQ(L.box[load_cols], 5 * (1024 / 15));
  EXPECT_EQ(L.box[store_cols], 3 * (1024 / 15));
  EXPECT_EQ(L.box[load_rows], 3);
  EXPECT_EQ(L.box[store_rows], 5);
  // Cuda's targets (runs of 64, tiles of 64 x 64, teams that copy the
  // tables): 5 x 12 against 64, grown to 4096 / 15.
  EXPECT_EQ(choose_box(f, tiled_run_target(f, 64), 64 * 64, 0, true).chunk[1], 4096 / 15);
  // The same around 1001: grown as far, and not past the dimension's extent.
  const auto m = fuse(shape({3, 1001, 5}, {2, 1, 0}));
  EXPECT_EQ(choose_box(m, 32, 32 * 32).chunk[1], 1024 / 15);
  EXPECT_EQ(choose_box(m, 64, 64 * 64, 0, true).chunk[1], 4096 / 15);
  const auto g = fuse(shape({3, 40, 5}, {2, 1, 0}));
  EXPECT_EQ(choose_box(g, 32, 32 * 32).chunk[1], 40);
  // Runs that reached their targets, no dimension outside them: a 2-D
  // transposition with a short side grows too (3 x 64 would be the box).
  const auto t = fuse(shape({3, index_t{1} << 20}, {1, 0}));
  const auto tb = choose_box(t, 64, 64 * 64, 0, true);
  EXPECT_EQ(tb.store_run, (std::vector<int>{0, 1}));
  EXPECT_EQ(tb.chunk[1], 4096 / 3);
  EXPECT_TRUE(tb.extra.empty());
  // The store run of one dimension (batched 5 x 4096 transpositions): its
  // scratch positions are computed, the dimension grows (5 x 819), the batch
  // stays outside the box.
  const auto s = fuse(shape({3, 4096, 4096, 5}, {0, 1, 3, 2}));
  ASSERT_EQ(s, shape({12288, 4096, 5}, {0, 2, 1}));
  const auto sb = choose_box(s, 64, 64 * 64, 0, true);
  EXPECT_EQ(sb.load_run, (std::vector<int>{2, 1}));
  EXPECT_EQ(sb.store_run, (std::vector<int>{1}));
  EXPECT_EQ(sb.chunk[1], 4096 / 5);
  EXPECT_TRUE(sb.extra.empty());
  EXPECT_EQ(make_tiling(s, sb, 1).layout.kind, BoxKind::affine);
}

TEST(PermuteTiling, RowsOfAnOuterDimensionRatherThanALongerStoreRun) {
  using namespace tilekit::impl;
  // (32, 32, 32, 32, 256) [2, 0, 1, 4, 3] (issue #59's 5-D case): fused
  // (1024, 32, 32, 256) [1, 0, 3, 2]. With Cuda's targets the load run is 64
  // of the last dimension, the store run 32 x 64 over the last two: both
  // reached 64, the store run spans two dimensions, and where teams copy the
  // tables the first dimension fills the rest of the box as two rows, not a
  // longer run of 32 x 128.
  const auto f = fuse(shape({32, 32, 32, 32, 256}, {2, 0, 1, 4, 3}));
  ASSERT_EQ(f, shape({1024, 32, 32, 256}, {1, 0, 3, 2}));
  const auto box = choose_box(f, tiled_run_target(f, 64), 64 * 64, 0, true);
  EXPECT_EQ(box.load_run, (std::vector<int>{3}));
  EXPECT_EQ(box.store_run, (std::vector<int>{2, 3}));
  EXPECT_EQ(box.extra, (std::vector<int>{0}));
  EXPECT_EQ(box.chunk, (std::array<index_t, permute_max_rank>{2, 0, 32, 64}));
  const auto L = make_tiling(f, box, 1).layout;
  EXPECT_EQ(L.kind, BoxKind::tables);
  EXPECT_EQ(L.box[load_cols], 64);
  EXPECT_EQ(L.box[load_rows], 32 * 2);
  EXPECT_EQ(L.box[store_cols], 32 * 64);
  EXPECT_EQ(L.box[store_rows], 2);
  // Tables of 64 load rows, 2 x 2 store rows and 2048 store columns: half an
  // entry per element of the 4096 (one store row of 32 x 128 would take
  // 32 + 2 + 4096).
  EXPECT_EQ(L.table_size(), 64 + 2 * 2 + 2048);
  EXPECT_EQ(L.ntiles, index_t{1024 / 2} * 32 * (256 / 64));
  // The wide box's targets (Cuda's permute_wide_box: load runs of 32, store
  // runs of 256, 8192 elements): the same choice, eight rows.
  const auto w = choose_box(f, 32, 2 * 64 * 64, 4 * 64, true);
  EXPECT_EQ(w.chunk, (std::array<index_t, permute_max_rank>{8, 0, 32, 32}));
  // One-thread teams (hosts) read the tables where they are: the run grows.
  const auto one = choose_box(f, tiled_run_target(f, 64), 64 * 64);
  EXPECT_EQ(one.chunk, (std::array<index_t, permute_max_rank>{0, 0, 32, 128}));
  EXPECT_TRUE(one.extra.empty());
  // A growth that leaves room for two rows or more is taken (here the whole
  // 100, then ten rows of the first dimension).
  const auto h = fuse(shape({1000, 4, 100}, {0, 2, 1}));
  ASSERT_EQ(h, shape({1000, 4, 100}, {0, 2, 1}));
  EXPECT_EQ(choose_box(h, 64, 64 * 64, 0, true).chunk,
            (std::array<index_t, permute_max_rank>{10, 4, 100}));
  // Little room left (2752 of 4096: not two rows of the first dimension):
  // the run grows (43 x 95).
  const auto q = fuse(shape({960, 43, 285}, {0, 2, 1}));
  EXPECT_EQ(choose_box(q, 64, 64 * 64, 0, true).chunk[2], 4096 / 43);
}

TEST(PermuteBanks, PaddingRemovesTheConflictsOfThePermutedWrite) {
  using namespace tilekit::study;
  // Seed 003's table for 4-byte elements, where our model agrees with it.
  auto dims = [](std::array<int, 3> p) { auto d = bank_free_dims(p, 4); return std::pair{d.dy, d.dx}; };
  EXPECT_EQ(dims({0, 2, 1}), (std::pair{8, 12}));
  EXPECT_EQ(dims({1, 0, 2}), (std::pair{9, 8}));
  EXPECT_EQ(dims({2, 1, 0}), (std::pair{12, 9}));
  EXPECT_EQ(dims({0, 1, 2}), (std::pair{8, 8}));
  std::array<int, 3> p = {0, 1, 2};
  do {
    for (std::size_t bytes : {4, 8, 16}) {
      const auto d = bank_free_dims(p, bytes);
      const int before = cube_bank_conflicts(p, 8, 8, bytes, true) + cube_bank_conflicts(p, 8, 8, bytes, false);
      EXPECT_EQ(cube_bank_conflicts(p, d.dy, d.dx, bytes, true), 0) << bytes;
      EXPECT_LE(cube_bank_conflicts(p, d.dy, d.dx, bytes, true) +
                    cube_bank_conflicts(p, d.dy, d.dx, bytes, false),
                before);
    }
  } while (std::next_permutation(p.begin(), p.end()));
  // The unpadded (2, 1, 0) write hits one bank 4 times per warp: 112 extra
  // wavefronts over the cube's 16 warps.
  EXPECT_EQ(cube_bank_conflicts({2, 1, 0}, 8, 8, 4, true), 112);
}

}  // namespace
