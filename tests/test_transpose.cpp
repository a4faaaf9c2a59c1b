// Out-of-place 2-D transpose: every variant, odd and degenerate shapes, both
// layouts, launch-shape overrides, and every error case.
#include <tilekit/transpose.hpp>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "error_message.hpp"
#include "test_helpers.hpp"
#include "variants.hpp"

namespace {
using namespace tilekit::test;

TILEKIT_TYPED_TEST_SUITE(Transpose, tilekit::support::MoveTypes);

const std::vector<std::pair<int, int>> kShapes = {
    {1, 1},   {1, 257}, {257, 1}, {17, 31}, {31, 17}, {97, 101}, {33, 65},
    {100, 37}, {64, 64}, {128, 256}, {3, 1000}, {1000, 3}, {130, 67},
    // thin (a side of at most transpose_thin_bytes: the thin kernel) and just past it
    {2, 4099}, {4099, 2}, {8, 1031}, {1031, 8}, {9, 1031}, {1031, 5}, {16, 2053}, {2053, 13}, {4, 1031}, {1031, 16}, {12, 1031},
    {17, 1031}, {1031, 17}};

/// Runs one transpose of a rows x cols matrix of the given layout and checks
/// every output element against the host reference out(j, i) = in(i, j).
template <class Exec, class T, class Layout>
void check_transpose(int rows, int cols, const TransposeRun& v,
                     const tilekit::TransposeOptions& opts = {}) {
  using View = Kokkos::View<T**, Layout, typename Exec::memory_space>;
  View in("in", rows, cols), out("out", cols, rows);
  const auto hin = fill_matrix(in);
  Kokkos::deep_copy(out, poison<T>());
  Exec exec;
  transpose_with(v, exec, in, out, opts);
  exec.fence();
  EXPECT_EQ(wrong_permuted(hin, out, {1, 0}), 0)
      << rows << "x" << cols << " variant " << name_of(v);
}

TYPED_TEST(Transpose, EveryVariantEveryShapeLayoutRight) {
  TILEKIT_CASE_TYPES(E, T);
  for (const auto& v : kTransposeRuns)
    for (auto [r, c] : kShapes) check_transpose<E, T, Kokkos::LayoutRight>(r, c, v);
}

TYPED_TEST(Transpose, EveryVariantLayoutLeft) {
  TILEKIT_CASE_TYPES(E, T);
  for (const auto& v : kTransposeRuns)
    for (auto [r, c] : {std::pair{1, 1}, {1, 40}, {37, 1}, {33, 65}, {130, 67}, {3, 1000}})
      check_transpose<E, T, Kokkos::LayoutLeft>(r, c, v);
}

/// A side of at most the backend's transpose_thin_bytes takes the thin
/// kernel (tiled variants), also for windows of larger matrices: a 3-row
/// window with a leading dimension read, written into a 3-column window.
TYPED_TEST(Transpose, ThinMatricesAndWindows) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  constexpr int bytes = tilekit::impl::transpose_thin_bytes<E>();
  E exec;
  {
    Kokkos::View<T**, Mem> a("a", 2, 777), b("b", 777, 2), c("c", 64, 64), d("d", 64, 64);
    tilekit::TransposePlan thin(exec, a, b), square(exec, c, d);
    EXPECT_EQ(thin.thin(), bytes >= 2 * static_cast<int>(sizeof(T)));
    EXPECT_FALSE(square.thin());
  }
  const int n = 1001;
  Kokkos::View<T**, Kokkos::LayoutRight, Mem> pin("pin", 5, n + 4), pout("pout", n, 7);
  const auto hp = fill_matrix(pin);
  Kokkos::deep_copy(pout, poison<T>());
  auto in = Kokkos::subview(pin, std::pair{1, 4}, std::pair{2, n + 2});  // 3 x n, ld n + 4
  auto out = Kokkos::subview(pout, Kokkos::ALL, std::pair{3, 6});       // n x 3, ld 7
  tilekit::TransposePlan plan(exec, in, out);
  EXPECT_EQ(plan.thin(), bytes >= 3 * static_cast<int>(sizeof(T)));
  plan.execute(in, out);
  exec.fence();
  auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pout);
  long wrong = 0;
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < 7; ++k) {
      const bool inside = k >= 3 && k < 6;
      wrong += inside ? ho(j, k) != hp(1 + (k - 3), 2 + j) : ho(j, k) != poison<T>();
    }
  EXPECT_EQ(wrong, 0);
}

/// The thin kernel (impl::TransposeThin) launched directly with batches of 4
/// elements, whatever the backend's batch: sides of 1 to 13 elements (whole
/// batches, the tails of 2 and 1 after them, and sides shorter than a
/// batch), rows and columns thin, row strides larger than the extents.
TYPED_TEST(Transpose, ThinKernelBatches) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  using F = tilekit::impl::TransposeThin<T, 4>;
  E exec;
  const int len = 301;
  for (int thin : {1, 2, 3, 4, 5, 7, 8, 13})
    for (bool rows_thin : {true, false}) {
      // in: m x n with row stride n + 2, out: n x m with row stride m + 1
      const int m = rows_thin ? thin : len, n = rows_thin ? len : thin;
      const int si = n + 2, so = m + 1;
      Kokkos::View<T*, Mem> in("in", m * si), out("out", n * so);
      auto hin = Kokkos::create_mirror_view(in);
      for (int i = 0; i < m * si; ++i) hin(i) = static_cast<T>(value_of(i));
      Kokkos::deep_copy(in, hin);
      Kokkos::deep_copy(out, poison<T>());
      const F f = rows_thin ? F{in.data(), out.data(), 1, si, so, 1, thin}
                            : F{in.data(), out.data(), si, 1, 1, so, thin};
      Kokkos::parallel_for("thin", Kokkos::RangePolicy<E>(exec, 0, len), f);
      exec.fence();
      auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      long wrong = 0;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < so; ++i)
          wrong += hout(j * so + i) != (i < m ? hin(i * si + j) : poison<T>());
      EXPECT_EQ(wrong, 0) << "thin " << thin << " rows_thin " << rows_thin;
    }
}

/// The staged thin kernel (impl::TransposeThinStaged: what backends with a
/// transpose_thin_chunk run for thin matrices) launched directly on every
/// space, with 16-byte store units and element by element: a wide input with
/// a row stride larger than its rows (a window), narrow outputs with dense
/// rows (one contiguous run per chunk, written in units where it starts on
/// one: the output at offset 0, and at offset 1, where it never does) and
/// with gaps between rows (row stride thin + 2); chunks that do not divide
/// the long side, fewer teams than chunks, teams of one work item and of
/// several. Every element is checked, and every gap and the space before the
/// output keep their poison.
template <class E, class T, int VecBytes>
void check_staged_thin() {
  using Mem = typename E::memory_space;
  using F = tilekit::impl::TransposeThinStaged<E, T, 4, VecBytes>;
  E exec;
  for (int thin : {1, 3, 4, 8, 9, 16})
    for (int len : {1, 50, 1031})
      for (int gap : {0, 2})
        for (int at : {0, 1})
          for (int chunk : {7, 64}) {
            const int wld = len + 3, nld = thin + gap;  // row strides: wide, narrow
            Kokkos::View<T*, Mem> wide("wide", thin * wld), narrow("narrow", at + len * nld);
            auto hw = Kokkos::create_mirror_view(wide);
            Kokkos::deep_copy(hw, poison<T>());
            for (int r = 0; r < thin; ++r)
              for (int q = 0; q < len; ++q) hw(r * wld + q) = static_cast<T>(value_of(r * 7919L + q));
            Kokkos::deep_copy(wide, hw);
            const int chunks = (len + chunk - 1) / chunk;
            const std::size_t scratch = F::scratch_bytes(thin, chunk);
            Kokkos::TeamPolicy<E> probe(exec, 1, 1);
            probe.set_scratch_size(0, Kokkos::PerTeam(scratch));
            F f{wide.data(), narrow.data() + at, len, wld, nld, thin, chunk, chunks, 1};
            const int most = std::min(128, probe.team_size_max(f, Kokkos::ParallelForTag()));
            for (int threads : {1, std::min(3, most), most}) {
              Kokkos::deep_copy(narrow, poison<T>());
              f.threads = threads;
              Kokkos::TeamPolicy<E> p(exec, std::min(chunks, 5), threads);
              p.set_scratch_size(0, Kokkos::PerTeam(scratch));
              Kokkos::parallel_for("staged_thin", p, f);
              exec.fence();
              auto on = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), narrow);
              long wrong = 0;
              for (int i = 0; i < static_cast<int>(on.extent(0)); ++i) {
                const int q = (i - at) / nld, r = (i - at) % nld;
                const bool element = i >= at && r < thin;
                wrong += on(i) != (element ? static_cast<T>(value_of(r * 7919L + q)) : poison<T>());
              }
              EXPECT_EQ(wrong, 0) << "thin " << thin << " len " << len << " gap " << gap << " at "
                                  << at << " chunk " << chunk << " threads " << threads
                                  << " units " << VecBytes;
            }
          }
}

TYPED_TEST(Transpose, StagedThinKernel) {
  TILEKIT_CASE_TYPES(E, T);
  check_staged_thin<E, T, 16>();
  check_staged_thin<E, T, 0>();
}

/// The tiled kernel's skewed tiles (impl::TransposeTiled with skew S: what a
/// backend with transpose_store_sector runs where the output's rows do not
/// start on a store transaction) launched directly on every space, with
/// transactions of 2 and 4 elements whatever the type, so that small tiles
/// exercise them: output row strides and output origins of every phase mod S,
/// shapes with a side of 1, primes, tiles past the last row, several tiles
/// per team. Every element is checked, and every gap of the output (between
/// rows, before its origin) keeps its poison.
TYPED_TEST(Transpose, SkewedTileKernel) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  using F = tilekit::impl::TransposeTiled<E, T, 4, 32>;
  constexpr int level = tilekit::impl::tile_scratch_level<E>();
  E exec;
  for (auto [S, tile] : {std::pair{2, 4}, {2, 8}, {4, 8}})
    for (auto [m, n] : {std::pair{1, 1}, {1, 13}, {13, 1}, {7, 9}, {17, 31}, {33, 65}, {29, 8}})
      for (int extra : {0, 1, 3})
        for (int origin = 0; origin < S; ++origin) {
          const int ti = F::skew_rows(tile, S), ld_in = n + 2, ld_out = m + extra;
          Kokkos::View<T*, Mem> in("in", m * ld_in), out("out", origin + n * ld_out);
          auto hin = Kokkos::create_mirror_view(in);
          for (int i = 0; i < m; ++i)
            for (int j = 0; j < ld_in; ++j)
              hin(i * ld_in + j) = static_cast<T>(value_of(i * 7919L + j));
          Kokkos::deep_copy(in, hin);
          T* o = out.data() + origin;
          const auto at = static_cast<tilekit::impl::index_t>(
              reinterpret_cast<std::uintptr_t>(o) / sizeof(T));
          const tilekit::impl::index_t tpr = (n + tile - 1) / tile,
                                       ntiles = F::tiles(m, n, tile, ti, S);
          F f{in.data(), o, m, n, ld_in, ld_out, tile, tile + 1, tpr, ntiles, S, ti, at % S};
          Kokkos::TeamPolicy<E> probe(exec, 1, 1);
          probe.set_scratch_size(level, Kokkos::PerTeam(F::scratch_bytes(tile, tile + 1)));
          const int most = std::min(8, probe.team_size_max(f, Kokkos::ParallelForTag()));
          for (int nt : {std::min(2, most), most}) {
            if (tile * tile > 32 * nt) continue;  // staged tiles only (a one-thread team: 4 x 4)
            Kokkos::deep_copy(out, poison<T>());
            Kokkos::TeamPolicy<E> p(exec, static_cast<int>(std::min<long>(ntiles, 3)), nt);
            p.set_scratch_size(level, Kokkos::PerTeam(F::scratch_bytes(tile, tile + 1)));
            Kokkos::parallel_for("skewed", p, f);
            exec.fence();
            auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
            long wrong = 0;
            for (int k = origin; k < origin + n * ld_out; ++k) {
              const int j = (k - origin) / ld_out, i = (k - origin) % ld_out;
              wrong += i < m ? ho(k) != hin(i * ld_in + j) : ho(k) != poison<T>();
            }
            for (int k = 0; k < origin; ++k) wrong += ho(k) != poison<T>();
            EXPECT_EQ(wrong, 0) << m << "x" << n << " S " << S << " tile " << tile << " ld_out "
                                << ld_out << " origin " << origin << " threads " << nt;
          }
        }
}

/// Batches in one launch (impl::TransposeTiled with mtiles: the permute's
/// batched 2-D transpositions), launched directly on every space: three
/// matrices at strides that are not multiples of a tile or of a transaction,
/// so each matrix's output rows start at another phase; skewed tiles (S = 2,
/// 4: staged) and rectangular ones, staged (small tiles) and not (the host
/// path's micro-blocks, or the flat kernel); tiles past the last row and
/// column, a side of 1, several tiles per team across matrix boundaries.
/// Every element is checked, and every gap of the output keeps its poison.
TYPED_TEST(Transpose, BatchedTileKernel) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  using F = tilekit::impl::TransposeTiled<E, T, 4, 32>;
  using index_t = tilekit::impl::index_t;
  constexpr int level = tilekit::impl::tile_scratch_level<E>();
  constexpr int count = 3;
  E exec;
  for (auto [S, tile] : {std::pair{0, 4}, {2, 8}, {4, 8}, {0, 16}})
    for (auto [m, n] : {std::pair{1, 13}, {13, 1}, {17, 31}, {33, 65}})
      for (int origin : {0, 1}) {
        const int ti = S > 1 ? F::skew_rows(tile, S) : tile, ld_in = n + 2, ld_out = m + 1;
        const index_t bi = index_t(m) * ld_in + 3, bo = index_t(n) * ld_out + 1;
        Kokkos::View<T*, Mem> in("in", count * bi), out("out", origin + count * bo);
        auto hin = Kokkos::create_mirror_view(in);
        for (index_t k = 0; k < count * bi; ++k) hin(k) = static_cast<T>(value_of(k * 7 + 1));
        Kokkos::deep_copy(in, hin);
        T* o = out.data() + origin;
        const auto at = static_cast<index_t>(reinterpret_cast<std::uintptr_t>(o) / sizeof(T));
        const index_t tpr = (n + tile - 1) / tile, mtiles = F::tiles(m, n, tile, ti, S);
        F f{in.data(), o, m, n, ld_in, ld_out, tile, tile + 1, tpr, count * mtiles, S, ti,
            S > 1 ? at % S : 0, mtiles, bi, bo};
        Kokkos::TeamPolicy<E> probe(exec, 1, 1);
        probe.set_scratch_size(level, Kokkos::PerTeam(F::scratch_bytes(tile, tile + 1)));
        const int most = std::min(8, probe.team_size_max(f, Kokkos::ParallelForTag()));
        for (int nt : {std::min(2, most), most}) {
          if (S > 1 && tile * tile > 32 * nt) continue;  // skewed tiles are staged ones
          Kokkos::deep_copy(out, poison<T>());
          Kokkos::TeamPolicy<E> p(exec, static_cast<int>(std::min<index_t>(count * mtiles, 4)), nt);
          p.set_scratch_size(level, Kokkos::PerTeam(F::scratch_bytes(tile, tile + 1)));
          Kokkos::parallel_for("batched", p, f);
          exec.fence();
          auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
          long wrong = 0;
          for (index_t k = 0; k < origin + count * bo; ++k) {
            const index_t e = k - origin, b = e / bo, r = e % bo, j = r / ld_out, i = r % ld_out;
            const bool inside = e >= 0 && j < n && i < m;
            wrong += inside ? ho(k) != hin(b * bi + i * ld_in + j) : ho(k) != poison<T>();
          }
          EXPECT_EQ(wrong, 0) << count << " x " << m << "x" << n << " S " << S << " tile " << tile
                              << " origin " << origin << " threads " << nt;
        }
      }
}

/// TransposeOptions::align through the plan: skewed tiles where the space
/// stages tiles in registers and the output's rows do not start on a
/// transaction (none for rows on transactions, or with align 0, or on spaces
/// without staging), every element checked; other values rejected.
TYPED_TEST(Transpose, AlignedStores) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  constexpr bool staged = tilekit::backends::Traits<E>::stage_registers > 1;
  E exec;
  for (int align : {0, 32, 64}) {
    tilekit::TransposeOptions o;
    o.align = align;
    for (auto [r, c] : {std::pair{17, 31}, {97, 101}, {130, 67}, {1, 77}, {77, 1}, {64, 64}})
      check_transpose<E, T, Kokkos::LayoutRight>(r, c, tilekit::TransposeVariant::tiled_padded,
                                                 o);
    Kokkos::View<T**, Mem> odd_in("in", 129, 97), odd_out("out", 97, 129), sq("sq", 64, 64),
        sq_out("sq_out", 64, 64);
    tilekit::TransposePlan odd(exec, odd_in, odd_out, tilekit::TransposeVariant::tiled_padded, o);
    tilekit::TransposePlan square(exec, sq, sq_out, tilekit::TransposeVariant::tiled_padded, o);
    const int S = align / static_cast<int>(sizeof(T));
    EXPECT_EQ(odd.skew(), staged && S > 1 ? S : 0) << "align " << align;
    EXPECT_EQ(square.skew(), 0) << "align " << align;  // rows of 64 elements start on one
  }
  Kokkos::View<T**, Mem> a("a", 5, 7), b("b", 7, 5);
  for (int bad : {-2, 3, 24}) {
    tilekit::TransposeOptions o;
    o.align = bad;
    EXPECT_THROW(tilekit::TransposePlan(exec, a, b, tilekit::TransposeVariant::tiled_padded, o),
                 tilekit::invalid_argument)
        << bad;
  }
}

TYPED_TEST(Transpose, LaunchShapeOverrides) {
  TILEKIT_CASE_TYPES(E, T);
  // Shapes every backend accepts: tiny tiles (staged in registers even by a
  // one-thread team), odd tiles, large padding, several tiles per team.
  for (auto [tile, pad, per_team] : {std::tuple{1, 0, 1}, {5, 3, 2}, {8, 1, 3}, {24, 2, 1000}}) {
    const auto o = one_item_teams<tilekit::TransposeOptions>(tile, pad, per_team);
    for (auto [r, c] : {std::pair{17, 31}, {64, 64}, {3, 100}})
      check_transpose<E, T, Kokkos::LayoutRight>(r, c, tilekit::TransposeVariant::tiled_padded,
                                                 o);
  }
}

/// The default tile edge fits the matrix to the threads where the backend
/// asks for it (hosts: Traits::tiles_per_thread): halved, down to
/// 32, while a thread would get fewer tiles; a caller's tile is kept.
TEST(TransposeTile, HostEdgeHalvedForSmallMatrices) {
  using E = Kokkos::DefaultHostExecutionSpace;
  using tilekit::impl::fit_tile;
  if constexpr (tilekit::impl::tiles_per_thread<E>() > 0) {
    constexpr int per = tilekit::impl::tiles_per_thread<E>();
    EXPECT_EQ(fit_tile<E>(512, 8192, 8192, 2), 512);
    EXPECT_EQ(fit_tile<E>(512, 2048, 2048, 16), 256);  // 16 tiles of 512 < 4 x 16
    EXPECT_EQ(fit_tile<E>(512, 100, 100, 2), 32);      // never below 32
    EXPECT_EQ(fit_tile<E>(512, 1, 1 << 20, 1), 512);   // 2048 tiles in one row
    for (int threads : {1, 2, 3, 16, 64})
      for (auto [m, n] : {std::pair{1000L, 1000L}, {4096L, 300L}, {17L, 100003L}}) {
        const int t = fit_tile<E>(512, m, n, threads);
        const auto tiles = [&](long e) { return ((m + e - 1) / e) * ((n + e - 1) / e); };
        EXPECT_TRUE(t == 32 || tiles(t) >= per * threads) << m << "x" << n << " " << threads;
        if (t < 512) {
          EXPECT_LT(tiles(2 * t), per * threads) << m << "x" << n << " " << threads;
        }
      }
    Kokkos::View<float**, Kokkos::LayoutRight, E> a("a", 100, 100), b("b", 100, 100);
    const E exec;
    const auto c4 = tilekit::backends::Traits<E>::transpose_tile(4);
    EXPECT_EQ(tilekit::TransposePlan(exec, a, b).config().tile,
              fit_tile<E>(c4.tile, 100, 100, exec.concurrency(),
                          tilekit::impl::host_tile_rows<E, float>(c4)));
    // Tiles of 64 rows count as such: 2048^2 on 16 threads keeps 64 x 1024.
    EXPECT_EQ(fit_tile<E>(1024, 2048, 2048, 16, 64), 1024);
    EXPECT_EQ(fit_tile<E>(1024, 2048, 2048, 16), 256);
    tilekit::TransposeOptions o;
    o.tile = 128;
    EXPECT_EQ(tilekit::TransposePlan(exec, a, b, tilekit::TransposeVariant::tiled_padded, o)
                  .config()
                  .tile,
              128);
  } else {
    GTEST_SKIP() << "the host backend keeps its tile edge";
  }
}

/// Hosts' out-of-place tiles are 64 input rows by the edge
/// (Traits::transpose_tile_rows): edges past that give rectangular tiles,
/// whose scratch holds the tile transposed (edge rows of 64); ragged in both
/// directions, both layouts, every element checked; rows far apart keep them.
TYPED_TEST(Transpose, RectangularHostTiles) {
  TILEKIT_CASE_TYPES(E, T);
  constexpr int rows = tilekit::impl::host_tile_rows<E, T>({1024, 1, 1, 1});
  if constexpr (rows > 0 && tilekit::impl::micro_edge<E, T>() > 0) {
    EXPECT_EQ(rows, tilekit::impl::transpose_tile_rows<E>());
    {
      // Rows 2^19 elements apart (2 MiB of floats).
      const long far = 1L << 19;
      Kokkos::View<T**, Kokkos::LayoutRight, typename E::memory_space> a("a", 9, far),
          b("b", far, 9);
      EXPECT_EQ(tilekit::TransposePlan(E(), a, b).tile_rows(), rows);
    }
    for (int tile : {32, 128, 256}) {
      tilekit::TransposeOptions o;
      o.tile = tile;
      Kokkos::View<T**, Kokkos::LayoutRight, typename E::memory_space> a("a", 200, 300),
          b("b", 300, 200);
      const tilekit::TransposePlan plan(E(), a, b, tilekit::TransposeVariant::tiled_padded, o);
      EXPECT_EQ(plan.tile_rows(), tile > rows ? rows : tile);
      for (auto v : {tilekit::TransposeVariant::tiled, tilekit::TransposeVariant::tiled_padded})
        for (auto [r, c] : {std::pair{200, 300}, {130, 1000}, {1000, 130}, {64, 257}, {65, 256},
                            {191, 129}, {257, 129}})
          check_transpose<E, T, Kokkos::LayoutRight>(r, c, v, o);
      check_transpose<E, T, Kokkos::LayoutLeft>(191, 257, tilekit::TransposeVariant::tiled_padded,
                                                o);
    }
  } else {
    GTEST_SKIP() << "square tiles on this space";
  }
}

TYPED_TEST(Transpose, LargestTeamsTheSpaceLaunches) {
  TILEKIT_CASE_TYPES(E, T);
  // Seed 002's 1024-thread blocks (32 x 32 work items): more than the
  // register-staged kernel can launch, so they take the unstaged one
  // (impl/common/launch.hpp, with_stage). GPU spaces only: a host team is one thread.
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename E::memory_space>::accessible)
    GTEST_SKIP() << "host teams are one thread";
  for (int tile : {32, 64}) {
    tilekit::TransposeOptions o;
    o.tile = tile;
    o.team_rows = 32;
    o.vector = 32;
    o.tiles_per_team = 1;
    for (auto v : {tilekit::TransposeVariant::tiled, tilekit::TransposeVariant::tiled_padded})
      for (auto [r, c] : {std::pair{97, 101}, {64, 64}, {1, 300}})
        check_transpose<E, T, Kokkos::LayoutRight>(r, c, v, o);
  }
}

TYPED_TEST(Transpose, UnstagedTeamsOfManyWorkItems) {
  TILEKIT_CASE_TYPES(E, T);
  // Teams whose tiles take the kernel without staging registers (with_stage):
  // a few elements per work item (tile 8, 16 and 32 with 64 to 256 work
  // items), and more elements per work item than the staging registers hold
  // (tile 64 with 64 work items). The flat team's loads and stores walk the
  // tile in row-major order (flat_move). GPU spaces only: a host team is one
  // thread (TileCopy.FlatMove covers teams of many work items on every build).
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename E::memory_space>::accessible)
    GTEST_SKIP() << "host teams are one thread";
  for (auto [tile, rows] : {std::pair{8, 2}, {16, 4}, {32, 8}, {64, 2}, {33, 3}}) {
    tilekit::TransposeOptions o;
    o.tile = tile;
    o.team_rows = rows;
    o.vector = 32;
    for (int per_team : {1, 3}) {
      o.tiles_per_team = per_team;
      for (auto [r, c] : {std::pair{97, 101}, {64, 64}, {1, 300}, {300, 1}})
        check_transpose<E, T, Kokkos::LayoutRight>(r, c, tilekit::TransposeVariant::tiled_padded,
                                                   o);
    }
  }
}

/// flat_move, run for every work item of a simulated team in turn: each
/// element of the block is moved exactly once, to its place, for teams of
/// one, fewer, as many and more work items than the block has columns, and
/// batches of 1 and 8 loads.
/// flat_move's element source and sink for TileCopy.FlatMove: function
/// objects callable where flat_move is (host and device), not host lambdas.
struct FlatMoveSource {
  KOKKOS_INLINE_FUNCTION long operator()(int r, int c) const { return 1000L * r + c; }
};
struct FlatMoveSink {
  int* moved;
  long* got;
  int nc;
  KOKKOS_INLINE_FUNCTION void operator()(int r, int c, long v) const {
    ++moved[r * nc + c];
    got[r * nc + c] = v;
  }
};

TEST(TileCopy, FlatMove) {
  for (int nt : {1, 2, 3, 7, 32, 64, 100})
    for (auto [nr, nc] : {std::pair{1, 1}, {3, 5}, {17, 31}, {64, 64}, {1, 100}, {100, 1}}) {
      auto check = [&](auto K) {
        std::vector<int> moved(static_cast<std::size_t>(nr) * nc, 0);
        std::vector<long> got(moved.size(), -1);
        for (int tid = 0; tid < nt; ++tid)
          tilekit::impl::flat_move<decltype(K)::value>(nr, nc, tid, nt, FlatMoveSource{},
                                                       FlatMoveSink{moved.data(), got.data(), nc});
        for (int r = 0; r < nr; ++r)
          for (int c = 0; c < nc; ++c) {
            const auto q = static_cast<std::size_t>(r) * nc + c;
            ASSERT_EQ(moved[q], 1) << nt << " work items, " << nr << " x " << nc << " at " << r
                                   << ", " << c;
            ASSERT_EQ(got[q], 1000L * r + c);
          }
      };
      check(std::integral_constant<int, 1>{});
      check(std::integral_constant<int, 8>{});
    }
}

/// Outputs past the backends' stream_min_bytes take the host path's streaming
/// stores (where compiled in): the whole 64-byte lines of each run are
/// streamed, partial lines stored plainly. Three cases mix both: output rows
/// of whole lines at an aligned address (every line streamed), rows 16 bytes
/// past whole lines (each row's first or last line partial), and an odd row
/// length starting one element past an aligned allocation.
TYPED_TEST(Transpose, StreamedLargeOutputs) {
  TILEKIT_CASE_TYPES(E, T);
  using View = Kokkos::View<T**, Kokkos::LayoutRight, typename E::memory_space>;
  using Unmanaged = Kokkos::View<T**, Kokkos::LayoutRight, typename E::memory_space,
                                 Kokkos::MemoryUnmanaged>;
  const long elements = (33L << 20) / static_cast<long>(sizeof(T));  // 33 MiB of output
  constexpr int line_and_16 = 2048 + static_cast<int>(16 / sizeof(T));
  for (auto [rows, offset, v] : {std::tuple{2048, 0, tilekit::TransposeVariant::tiled},
                                 {line_and_16, 0, tilekit::TransposeVariant::tiled},
                                 {2049, 1, tilekit::TransposeVariant::tiled_padded}}) {
    const int cols = static_cast<int>(elements / rows) + 1;
    const double bytes = static_cast<double>(rows) * cols * sizeof(T);
    if constexpr (tilekit::impl::micro_edge<E, T>() > 0) {
      ASSERT_TRUE(tilekit::impl::stream_output<E>(bytes)) << "the case no longer streams";
    }
    View in("in", rows, cols), buf("buf", offset + static_cast<long>(rows) * cols, 1);
    Unmanaged out(buf.data() + offset, cols, rows);
    const auto hin = fill_matrix(in);
    Kokkos::deep_copy(buf, poison<T>());
    E exec;
    tilekit::transpose(exec, in, out, v);
    exec.fence();
    auto hbuf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), buf);
    const T* h = hbuf.data() + offset;
    long wrong = offset > 0 && hbuf.data()[0] != poison<T>();
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) wrong += h[static_cast<long>(j) * rows + i] != hin(i, j);
    EXPECT_EQ(wrong, 0) << rows << "x" << cols << " " << tilekit::to_string(v)
                        << " into an output offset by " << offset << " element(s)";
  }
}

TYPED_TEST(Transpose, PlanReusedAcrossViews) {
  TILEKIT_CASE_TYPES(E, T);
  using View = Kokkos::View<T**, Kokkos::LayoutRight, typename E::memory_space>;
  View in1("in1", 45, 70), out1("out1", 70, 45), in2("in2", 45, 70), out2("out2", 70, 45);
  Kokkos::deep_copy(in1, T(3));
  Kokkos::deep_copy(in2, T(5));
  E exec;
  tilekit::TransposePlan plan(exec, in1, out1, tilekit::TransposeVariant::tiled);
  plan.execute(in1, out1);
  plan.execute(in2, out2);
  exec.fence();
  auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out1);
  auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out2);
  for (int j = 0; j < 70; ++j)
    for (int i = 0; i < 45; ++i) {
      ASSERT_EQ(h1(j, i), T(3));
      ASSERT_EQ(h2(j, i), T(5));
    }
  View wrong("wrong", 46, 70), wrong_out("wrong_out", 70, 46);
  EXPECT_THROW(plan.execute(wrong, wrong_out), tilekit::invalid_argument);
}

TILEKIT_TYPED_TEST_SUITE(TransposeErrors, tilekit::support::List<float>);

TYPED_TEST(TransposeErrors, RejectedBeforeAnythingIsWritten) {
  using E = typename TypeParam::exec;
  using View = Matrix<E, float>;
  using Unmanaged = UMatrix<E, float>;
  E exec;
  View in("in", 20, 30), out("out", 30, 21), square("square", 20, 20);
  Kokkos::deep_copy(out, poison<float>());
  // Output extents that are not the transposed input extents.
  EXPECT_THROW(tilekit::transpose(exec, in, out), tilekit::invalid_argument);
  View same_shape("same", 20, 30);
  Kokkos::deep_copy(same_shape, poison<float>());
  EXPECT_THROW(tilekit::transpose(exec, in, same_shape), tilekit::invalid_argument);
  EXPECT_TRUE(still_poisoned(out));
  EXPECT_TRUE(still_poisoned(same_shape));
  // The same view as input and output.
  EXPECT_THROW(tilekit::transpose(exec, square, square), tilekit::invalid_argument);
  // Overlapping memory.
  View big("big", 40, 40);
  Unmanaged a(big.data(), 20, 30), b(big.data() + 100, 30, 20);
  EXPECT_THROW(tilekit::transpose(exec, a, b), tilekit::invalid_argument);
  // In place beyond the 2^52 elements of the rectangular decomposition (any
  // other shape is transposed: tests/test_transpose_inplace_rect.cpp).
  Kokkos::deep_copy(in, poison<float>());
  EXPECT_THROW(tilekit::transpose_inplace(exec, Unmanaged(in.data(), std::size_t(1) << 26,
                                                          (std::size_t(1) << 26) + 1)),
               tilekit::invalid_argument);
  EXPECT_TRUE(still_poisoned(in));
  // A team shape the backend cannot launch, and a tile beyond the limit.
  tilekit::TransposeOptions huge_team;
  huge_team.team_rows = 1 << 20;
  EXPECT_THROW(tilekit::transpose(exec, square, View("o", 20, 20),
                                  tilekit::TransposeVariant::tiled, huge_team),
               tilekit::invalid_argument);
  tilekit::TransposeOptions huge_tile;
  huge_tile.tile = 4096;
  EXPECT_THROW(tilekit::transpose_inplace(exec, square, tilekit::InplaceVariant::blocked,
                                          huge_tile),
               tilekit::invalid_argument);
  // A negative option: the message says 0 is allowed (the backend's choice).
  tilekit::TransposeOptions negative;
  negative.tile = -1;
  const std::string said = message_of<tilekit::invalid_argument>([&] {
    tilekit::transpose(exec, square, View("o", 20, 20), tilekit::TransposeVariant::tiled,
                       negative);
  });
  EXPECT_NE(said.find("must not be negative (0: the backend's choice)"), std::string::npos)
      << said;
  // The message names the call and the extents.
  const std::string what =
      message_of<tilekit::invalid_argument>([&] { tilekit::transpose(exec, in, out); });
  EXPECT_NE(what.find("tilekit::transpose"), std::string::npos) << what;
  EXPECT_NE(what.find("(30, 21)"), std::string::npos) << what;
}

TYPED_TEST(TransposeErrors, EmptyMatricesAreNoOps) {
  using E = typename TypeParam::exec;
  using View = Kokkos::View<float**, Kokkos::LayoutRight, typename E::memory_space>;
  E exec;
  View in("in", 0, 5), out("out", 5, 0), sq("sq", 0, 0);
  EXPECT_NO_THROW(tilekit::transpose(exec, in, out));
  EXPECT_NO_THROW(tilekit::transpose_inplace(exec, sq));
  exec.fence();
}

}  // namespace
