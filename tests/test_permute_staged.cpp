// The permute's staged kernels launched directly on host teams (the path every
// GPU team takes): the tiled kernel for each kind of box, the rows kernel, and
// skewed tiles; every element against the host reference (permute_reference.hpp).
// A kernel-level test: compiled with the build type's flags (tests/CMakeLists.txt).
#include <tilekit/permute.hpp>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "permute_reference.hpp"
#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;
using tilekit::PermuteVariant;

// On a GPU the tiled and rows kernels stage each step in registers across a
// flat team and prefetch the next tile; host teams stream instead. Run the
// staged path on host teams too (64 staging registers, one or two threads).
TILEKIT_TYPED_TEST_SUITE(PermuteStaged, tilekit::support::List<float, Kokkos::complex<double>>);

/// The staged kernels with kStage registers a work item: the tiled one for
/// each kind of box, the rows one.
constexpr int kStage = 64;
template <class E, class T, tilekit::impl::BoxKind K>
using Staged = tilekit::impl::PermuteTiled<E, T, 1, kStage, tilekit::impl::StoreMove<T>, K>;
template <class E>
constexpr bool host_memory_v =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename E::memory_space>::accessible;

TYPED_TEST(PermuteStaged, StagedMovesMatchTheReference) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (!host_memory_v<E>) {
    GTEST_SKIP() << "device teams always take the staged path";
  } else {
    using namespace tilekit::impl;
    constexpr int N = kStage;
    using Affine = Staged<E, T, BoxKind::affine>;
    using LoadTable = Staged<E, T, BoxKind::load_table>;
    using Tabled = Staged<E, T, BoxKind::tables>;
    using Rows = PermuteRows<E, T, N, StoreMove<T>>;
    const int team = std::min(2, E().concurrency());
    const std::vector<std::pair<Extents, Perm>> cases = {
        {{6, 7, 10, 9}, {3, 2, 1, 0}}, {{29, 31, 5}, {1, 0, 2}}, {{33, 17, 45}, {2, 0, 1}},
        {{5, 7, 101}, {1, 0, 2}},      {{3, 2, 5, 4, 3}, {4, 0, 3, 1, 2}}, {{700}, {0}},
        {{3, 10, 6}, {2, 1, 0}},       {{4, 6, 3, 5}, {2, 0, 3, 1}}, {{4, 3, 5, 9}, {3, 0, 2, 1}},
        // Rows of an outer dimension beside a store run of two (choose_box).
        {{2, 3, 5, 4, 20}, {2, 0, 1, 4, 3}}};
    int kinds[3] = {};  // tiled cases per BoxKind
    // Scratch in input order, and transposed (the plan's layout on hosts);
    // rows numbered in the output's order, then the input's (hosts).
    for (const bool transposed : {false, true})
    for (const auto& [ext, perm] : cases) {
      const index_t n = volume(ext);
      std::vector<T> hin(n), hout(n, make_poison<T>());
      for (index_t k = 0; k < n; ++k) hin[k] = make_value<T>(k);
      Kokkos::View<T*, typename E::memory_space> a("a", n), b("b", n);
      Kokkos::deep_copy(a, Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(hin.data(), n));
      Kokkos::deep_copy(b, make_poison<T>());
      const PermuteShape f = fuse(row_major_shape(ext, perm, false));
      E exec;
      if (f.rank <= 1 || f.p[f.rank - 1] == f.rank - 1) {
        const RowsLayout L = make_rows_layout(f, 64, /*input_order=*/transposed);
        Kokkos::TeamPolicy<E> policy(exec, 3, team, 1);
        policy.set_scratch_size(0, Kokkos::PerTeam(Rows::scratch_bytes(L.unit)));
        Kokkos::parallel_for("test_rows", policy, Rows{a.data(), b.data(), L, {}});
      } else {
        const Tiling tiling =
            make_tiling(f, choose_box(f, tiled_run_target(f, 8), 64, 0, true), 1, 0, transposed);
        const TiledLayout& L = tiling.layout;
        ++kinds[static_cast<int>(L.kind)];
        Kokkos::View<index_t*, typename E::memory_space> tables("tables", L.table_size());
        Kokkos::parallel_for("test_tables",
                             Kokkos::RangePolicy<E, Kokkos::IndexType<index_t>>(exec, 0, L.table_size()),
                             PermuteTables{tables.data(), tiling.maps});
        ASSERT_LE(static_cast<index_t>(L.box[load_rows]) * L.box[load_cols], N);
        Kokkos::TeamPolicy<E> policy(exec, 3, team, 1);
        policy.set_scratch_size(tile_scratch_level<E>(), Kokkos::PerTeam(Tabled::scratch_bytes(L)));
        if (L.kind == BoxKind::affine)
          Kokkos::parallel_for("test_tiled", policy, Affine{a.data(), b.data(), nullptr, L, {}});
        else if (L.kind == BoxKind::load_table)
          Kokkos::parallel_for("test_tiled", policy, LoadTable{a.data(), b.data(), tables.data(), L, {}});
        else
          Kokkos::parallel_for("test_tiled", policy, Tabled{a.data(), b.data(), tables.data(), L, {}});
      }
      exec.fence();
      std::vector<T> got(n);
      Kokkos::deep_copy(Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(got.data(), n), b);
      const auto want = reference(ext, perm, false, hin, hout, T(1), T(0), true);
      long wrong = 0;
      for (index_t k = 0; k < n; ++k) wrong += !(got[k] == want[k]);
      EXPECT_EQ(wrong, 0) << describe(ext, perm, PermuteVariant::fused, false) << " team " << team
                          << (transposed ? ", transposed scratch" : "");
    }
    for (int k : kinds) EXPECT_GE(k, 1);
  }
}

/// Skewed tiles (make_tiling with S > 1, PermuteTiled) on host teams too:
/// transactions of 2 and 4 elements whatever the type, so that 8-element
/// chunks use them; 2-D and batched transpositions (the batch outside, and
/// between the moving dimensions), extents below, at and past a chunk and
/// primes, every output origin mod S; boxes that are not transpositions get
/// rectangular tiles. Every element is checked, and the output's gap before
/// its origin keeps its poison.
TYPED_TEST(PermuteStaged, SkewedTiles) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (!host_memory_v<E>) {
    GTEST_SKIP() << "device teams: the plan's test (AlignedStores)";
  } else {
    using namespace tilekit::impl;
    constexpr int N = kStage;
    using Affine = Staged<E, T, BoxKind::affine>;
    const std::vector<std::tuple<Extents, Perm, bool>> cases = {
        {{17, 31}, {1, 0}, true},      {{31, 17}, {1, 0}, true},      {{9, 13}, {1, 0}, true},
        {{8, 8}, {1, 0}, true},        {{33, 65}, {1, 0}, true},      {{7, 9, 13}, {0, 2, 1}, true},
        {{9, 5, 11}, {2, 1, 0}, true}, {{10, 3, 12}, {1, 2, 0}, true}, {{11, 9, 3}, {2, 1, 0}, false},
        {{4, 6, 3, 5}, {2, 0, 3, 1}, false}};
    const int team = std::min(2, E().concurrency());
    E exec;
    for (const auto& [ext, perm, skews] : cases)
      for (int S : {2, 4})
        for (int origin = 0; origin < S; ++origin) {
          const index_t n = volume(ext);
          std::vector<T> hin(n);
          for (index_t k = 0; k < n; ++k) hin[k] = make_value<T>(k);
          Kokkos::View<T*, typename E::memory_space> a("a", n), b("b", origin + n);
          Kokkos::deep_copy(a, Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(hin.data(), n));
          Kokkos::deep_copy(b, make_poison<T>());
          const PermuteShape f = fuse(row_major_shape(ext, perm, false));
          const Tiling tiling = make_tiling(f, choose_box(f, tiled_run_target(f, 8), 64), 1, S);
          TiledLayout L = tiling.layout;
          ASSERT_EQ(L.skew, skews ? S : 0) << describe(ext, perm, PermuteVariant::fused, false);
          if (!skews) continue;
          ASSERT_EQ(L.kind, BoxKind::affine);
          ASSERT_LE(static_cast<index_t>(L.box[load_rows]) * L.box[load_cols], N);
          T* o = b.data() + origin;
          L.phase = static_cast<std::int16_t>(reinterpret_cast<std::uintptr_t>(o) / sizeof(T) % S);
          Kokkos::TeamPolicy<E> policy(exec, 3, team, 1);
          policy.set_scratch_size(tile_scratch_level<E>(), Kokkos::PerTeam(Affine::scratch_bytes(L)));
          Kokkos::parallel_for("test_skewed", policy, Affine{a.data(), o, nullptr, L, {}});
          exec.fence();
          std::vector<T> got(origin + n);
          Kokkos::deep_copy(
              Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(got.data(), origin + n), b);
          const auto want = reference(ext, perm, false, hin, std::vector<T>(n, make_poison<T>()),
                                      T(1), T(0), true);
          long wrong = 0;
          for (int k = 0; k < origin; ++k) wrong += !(got[k] == make_poison<T>());
          for (index_t k = 0; k < n; ++k) wrong += !(got[origin + k] == want[k]);
          EXPECT_EQ(wrong, 0) << describe(ext, perm, PermuteVariant::fused, false) << " S " << S
                              << " origin " << origin << " team " << team;
        }
  }
}

}  // namespace
