// A tiny dimension interleaved with a long one (an image's channels: NCHW <->
// NHWC, (B, c, HW) <-> (B, HW, c)), on either side, for 1-, 2- and 4-byte
// elements: the plan on every space (on a GPU its staged teams' interleaved
// boxes, impl::interleaved_tiling, and their packed moves), and those boxes'
// staged kernels on host teams too, element by element and packed, so that
// the host suites check every element of them.
#include <tilekit/impl/permute/interleave.hpp>
#include <tilekit/impl/permute/kernels.hpp>
#include <tilekit/permute.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;

using InterleavedTypes = tilekit::support::List<std::uint8_t, std::uint16_t, float>;

/// Value k of an input: every bit pattern of a 1- or 2-byte T occurs.
template <class T>
T value_at(std::int64_t k) {
  const auto v = static_cast<std::uint64_t>(value_of(k)) * 0x9E3779B97F4A7C15ULL;
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(value_of(k));
  else return static_cast<T>(v >> (64 - 8 * sizeof(T)));
}

std::string shape_of(const Extents& e, const Perm& p) {
  std::string s;
  for (std::size_t k = 0; k < e.size(); ++k) s += (k ? "x" : "") + std::to_string(e[k]);
  s += " perm";
  for (int d : p) s += " " + std::to_string(d);
  return s;
}

/// out(j) = in(i), j[k] = i[perm[k]], of the row-major input `in`.
template <class T>
std::vector<T> reference(const Extents& e, const Perm& perm, const std::vector<T>& in) {
  const int r = static_cast<int>(e.size());
  Extents eo(r);
  for (int k = 0; k < r; ++k) eo[k] = e[perm[k]];
  std::vector<T> out(in.size());
  std::vector<std::int64_t> i(r, 0);
  for (std::size_t q = 0; q < in.size(); ++q) {
    std::int64_t o = 0;
    for (int k = 0; k < r; ++k) o = o * eo[k] + i[perm[k]];
    out[o] = in[q];
    for (int d = r - 1; d >= 0; --d) {
      if (++i[d] < e[d]) break;
      i[d] = 0;
    }
  }
  return out;
}

/// Permutes the row-major `e` starting `shift` elements into the input's
/// buffer into an output `shift` elements into a poisoned buffer with `gap`
/// more elements: wrong elements, the poison before and after included.
template <class E, class T, int R>
std::int64_t run_plan(const Extents& e, const Perm& perm, int shift) {
  using Mem = typename E::memory_space;
  const std::int64_t n = volume(e), gap = 5;
  std::vector<T> hin(n + shift);
  for (std::int64_t k = 0; k < n + shift; ++k) hin[k] = value_at<T>(k + 3);
  Kokkos::View<T*, Mem> a("a", n + shift), b("b", n + shift + gap);
  Kokkos::deep_copy(a, Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(hin.data(), hin.size()));
  Kokkos::deep_copy(b, poison<T>());
  Extents eo(R);
  for (int k = 0; k < R; ++k) eo[k] = e[perm[k]];
  auto in = tilekit::support::view_of<R, Kokkos::LayoutRight, Mem>(a.data() + shift, e);
  auto out = tilekit::support::view_of<R, Kokkos::LayoutRight, Mem>(b.data() + shift, eo);
  E exec;
  tilekit::permute(exec, in, out, perm);
  exec.fence();
  std::vector<T> got(n + shift + gap);
  Kokkos::deep_copy(Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(got.data(), got.size()), b);
  const auto want = reference(e, perm, std::vector<T>(hin.begin() + shift, hin.end()));
  std::int64_t wrong = 0;
  for (int k = 0; k < shift; ++k) wrong += !same_bits(got[k], poison<T>());
  for (std::int64_t k = 0; k < n; ++k) wrong += !same_bits(got[shift + k], want[k]);
  for (std::int64_t k = 0; k < gap; ++k) wrong += !same_bits(got[shift + n + k], poison<T>());
  return wrong;
}

TILEKIT_TYPED_TEST_SUITE(PermuteInterleaved, InterleavedTypes);

/// Tiny extents 1 to 16 on either side of a long one, prime (no packed
/// units fit its rows) or a multiple of every unit, several boxes long on a
/// GPU; the views at and off the units' alignment.
TYPED_TEST(PermuteInterleaved, TinyExtentsEitherSide) {
  TILEKIT_CASE_TYPES(E, T);
  for (std::int64_t c = 1; c <= 16; ++c)
    for (std::int64_t L : {3001, 4096})
      for (int shift : {0, 1}) {
        EXPECT_EQ((run_plan<E, T, 3>({2, c, L}, {0, 2, 1}, shift)), 0)
            << shape_of({2, c, L}, {0, 2, 1}) << " shift " << shift;
        EXPECT_EQ((run_plan<E, T, 3>({2, L, c}, {0, 2, 1}, shift)), 0)
            << shape_of({2, L, c}, {0, 2, 1}) << " shift " << shift;
      }
}

/// Images, NCHW -> NHWC and back, rank 4 (fused to the rank-3 cases).
TYPED_TEST(PermuteInterleaved, Images) {
  TILEKIT_CASE_TYPES(E, T);
  for (int shift : {0, 1}) {
    EXPECT_EQ((run_plan<E, T, 4>({3, 3, 64, 96}, {0, 2, 3, 1}, shift)), 0) << shift;
    EXPECT_EQ((run_plan<E, T, 4>({3, 64, 96, 3}, {0, 3, 1, 2}, shift)), 0) << shift;
    EXPECT_EQ((run_plan<E, T, 4>({2, 4, 33, 37}, {0, 2, 3, 1}, shift)), 0) << shift;
    EXPECT_EQ((run_plan<E, T, 4>({2, 33, 37, 4}, {0, 3, 1, 2}, shift)), 0) << shift;
  }
}

// ---------------------------------------- the interleaving kernel (registers)

/// The plan takes the interleaving kernel (PermuteMethod::interleave) for a
/// side of 2 to 4 elements beside a long side that is a multiple of its
/// vectors, where the backend gives vectors (GPUs), else the tiled boxes; off
/// the vectors' alignment, and with scaled stores, the same plan runs the
/// tiled boxes. Every element is checked (run_plan), the poison around it.
TYPED_TEST(PermuteInterleaved, PlanInterleavesInRegisters) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  constexpr int V = tilekit::impl::permute_interleave_width<E, T>(true);
  const std::int64_t L = 16 * 37;  // a multiple of every vector, 37 of the widest
  for (std::int64_t c = 2; c <= 5; ++c)
    for (const Extents& e : {Extents{3, c, L}, Extents{3, L, c}, Extents{c, L}, Extents{L, c}}) {
      const int r = static_cast<int>(e.size());
      const Perm perm = r == 3 ? Perm{0, 2, 1} : Perm{1, 0};
      Extents eo(r);
      for (int k = 0; k < r; ++k) eo[k] = e[perm[k]];
      Kokkos::View<T*, Mem> a("a", volume(e)), b("b", volume(e));
      auto in = tilekit::support::view_of<3, Kokkos::LayoutRight, Mem>(
          a.data(), r == 3 ? e : Extents{1, e[0], e[1]});
      auto out = tilekit::support::view_of<3, Kokkos::LayoutRight, Mem>(
          b.data(), r == 3 ? eo : Extents{1, eo[0], eo[1]});
      const tilekit::PermutePlan plan(E(), in, out, {0, 2, 1});
      const bool want = V > 0 && c <= tilekit::impl::interleave_max;
      EXPECT_EQ(plan.method() == tilekit::PermuteMethod::interleave, want)
          << shape_of(e, perm) << " method " << to_string(plan.method());
      for (int shift : {0, 1})
        if (r == 3) {
          EXPECT_EQ((run_plan<E, T, 3>(e, perm, shift)), 0) << shape_of(e, perm) << " shift " << shift;
        } else {
          EXPECT_EQ((run_plan<E, T, 2>(e, perm, shift)), 0) << shape_of(e, perm) << " shift " << shift;
        }
    }
  // A long side that is not a multiple of the vectors: the tiled boxes.
  Kokkos::View<T***, Kokkos::LayoutRight, Mem> a("a", 2, 3, 16 * 37 + 1), b("b", 2, 16 * 37 + 1, 3);
  EXPECT_EQ(tilekit::PermutePlan(E(), a, b, {0, 2, 1}).method(), tilekit::PermuteMethod::tiled);
  // A launch shape given: the tiled boxes.
  Kokkos::View<T***, Kokkos::LayoutRight, Mem> a2("a2", 2, 3, L), b2("b2", 2, L, 3);
  tilekit::PermuteOptions given;
  given.tile = 32;
  EXPECT_EQ(tilekit::PermutePlan(E(), a2, b2, {0, 2, 1}, tilekit::PermuteVariant::fused, given).method(),
            tilekit::PermuteMethod::tiled);
}

/// Scaled stores of an interleaving plan take the tiled boxes: out = 2 in + out.
TYPED_TEST(PermuteInterleaved, ScaledStoresOfAnInterleavingPlan) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (!std::is_same_v<T, float>) {
    GTEST_SKIP() << "alpha and beta: arithmetic types (float here)";
  } else {
    using Mem = typename E::memory_space;
    const std::int64_t B = 2, c = 3, L = 16 * 5, n = B * c * L;
    Kokkos::View<T***, Kokkos::LayoutRight, Mem> a("a", B, c, L), b("b", B, L, c);
    auto ha = Kokkos::create_mirror_view(a);
    auto hb = Kokkos::create_mirror_view(b);
    for (std::int64_t i = 0; i < B; ++i)
      for (std::int64_t j = 0; j < c; ++j)
        for (std::int64_t k = 0; k < L; ++k) ha(i, j, k) = static_cast<T>((i * c + j) * L + k);
    for (std::int64_t i = 0; i < B; ++i)
      for (std::int64_t k = 0; k < L; ++k)
        for (std::int64_t j = 0; j < c; ++j) hb(i, k, j) = static_cast<T>(j + 1);
    Kokkos::deep_copy(a, ha);
    Kokkos::deep_copy(b, hb);
    const tilekit::PermutePlan plan(E(), a, b, {0, 2, 1});
    plan.execute(a, b, 2.0f, 1.0f);
    Kokkos::fence();
    Kokkos::deep_copy(hb, b);
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < B; ++i)
      for (std::int64_t k = 0; k < L; ++k)
        for (std::int64_t j = 0; j < c; ++j)
          wrong += hb(i, k, j) != static_cast<T>(2 * ((i * c + j) * L + k) + j + 1);
    EXPECT_EQ(wrong, 0) << "of " << n;
  }
}

/// The kernel itself on every space (hosts too, whose plans do not take it):
/// t = 2 to 4 both ways, vectors of 8 and 16 bytes, one matrix and batches whose
/// strides leave gaps (which stay poisoned), every element checked.
TYPED_TEST(PermuteInterleaved, RegisterKernelOnEverySpace) {
  TILEKIT_CASE_TYPES(E, T);
  using namespace tilekit::impl;
  using Mem = typename E::memory_space;
  using U = bits_t<sizeof(T)>;
  auto check = [&](auto tc, auto vc, bool to_narrow, index_t L, index_t count, index_t gap) {
    constexpr int t = decltype(tc)::value, V = decltype(vc)::value;
    InterleaveGeom g;
    g.t = t;
    g.to_narrow = to_narrow;
    g.L = L;
    g.count = count;
    const index_t wide = L + gap;  // the wide matrix's row stride
    g.wide = wide;
    const index_t wide_size = t * wide, narrow_size = t * L + gap;
    g.si = to_narrow ? wide_size : narrow_size;
    g.so = to_narrow ? narrow_size : wide_size;
    const index_t nin = count * g.si, nout = count * g.so;
    std::vector<U> hin(nin);
    for (index_t k = 0; k < nin; ++k) hin[k] = std::bit_cast<U>(value_at<T>(k + 5));
    Kokkos::View<U*, Mem> a("a", nin), b("b", nout);
    Kokkos::deep_copy(a, Kokkos::View<U*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(hin.data(), nin));
    const U pz = std::bit_cast<U>(poison<T>());
    Kokkos::deep_copy(b, pz);
    const index_t chunks = L / V;
    Kokkos::parallel_for("test_interleave",
                         Kokkos::RangePolicy<E, Kokkos::IndexType<index_t>>(E(), 0, count * chunks),
                         PermuteInterleave<U, t, V>{a.data(), b.data(), g, chunks});
    E().fence();
    std::vector<U> want(nout, pz), got(nout);
    for (index_t m = 0; m < count; ++m)
      for (index_t r = 0; r < t; ++r)
        for (index_t j = 0; j < L; ++j) {
          if (to_narrow) want[m * g.so + j * t + r] = hin[m * g.si + r * wide + j];
          else want[m * g.so + r * wide + j] = hin[m * g.si + j * t + r];
        }
    Kokkos::deep_copy(Kokkos::View<U*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(got.data(), nout), b);
    index_t wrong = 0;
    for (index_t k = 0; k < nout; ++k) wrong += got[k] != want[k];
    EXPECT_EQ(wrong, 0) << "t " << t << " V " << V << (to_narrow ? " to narrow" : " to wide")
                        << " L " << L << " count " << count << " gap " << gap;
  };
  auto widths = [&](auto vc) {
    constexpr index_t V = decltype(vc)::value;
    for (bool to_narrow : {true, false})
      for (index_t L : {V, V * 7, V * 64})
        for (auto [count, gap] : {std::pair<index_t, index_t>{1, 0}, {3, 0}, {3, V}}) {
          check(std::integral_constant<int, 2>{}, vc, to_narrow, L, count, gap);
          check(std::integral_constant<int, 3>{}, vc, to_narrow, L, count, gap);
          check(std::integral_constant<int, 4>{}, vc, to_narrow, L, count, gap);
        }
  };
  widths(std::integral_constant<int, 8 / sizeof(T)>{});
  widths(std::integral_constant<int, 16 / sizeof(T)>{});
}

/// What interleave_geom takes and refuses (fused shapes; vectors of 16).
TEST(PermuteInterleaveGeom, TakesTinySidesOfWholeVectors) {
  using namespace tilekit::impl;
  auto geom = [](const Extents& e, const Perm& p) { return interleave_geom(fuse(row_major_shape(e, p, false)), 16); };
  const InterleaveGeom nchw = geom({8, 3, 64, 64}, {0, 2, 3, 1});
  EXPECT_EQ(nchw.t, 3);
  EXPECT_TRUE(nchw.to_narrow);
  EXPECT_EQ(nchw.L, 64 * 64);
  EXPECT_EQ(nchw.count, 8);
  const InterleaveGeom nhwc = geom({8, 64, 64, 4}, {0, 3, 1, 2});
  EXPECT_EQ(nhwc.t, 4);
  EXPECT_FALSE(nhwc.to_narrow);
  EXPECT_EQ(nhwc.wide, 64 * 64);
  EXPECT_EQ(geom({2, 48}, {1, 0}).t, 2);
  EXPECT_EQ(geom({5, 64}, {1, 0}).t, 0);        // more than interleave_max
  EXPECT_EQ(geom({3, 40}, {1, 0}).t, 0);        // 40: not whole vectors
  EXPECT_EQ(geom({3, 8}, {1, 0}).t, 0);         // shorter than one vector
  EXPECT_EQ(geom({4, 3, 64}, {1, 2, 0}).t, 4);   // (4, 192) -> (192, 4)
  EXPECT_EQ(geom({64, 3, 32}, {2, 1, 0}).t, 0);  // not the last two swapped
  EXPECT_EQ(geom({2, 3, 2, 64}, {1, 0, 3, 2}).t, 0);  // rank 4 after fusion
}

// ---------------------------------------- the staged kernels on host teams

constexpr int kStage = 64;     ///< staging registers a work item
constexpr int kPackBytes = 4;  ///< bytes of a packed unit (as Cuda's permute_pack_bytes)

template <class E>
constexpr bool host_memory_v =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename E::memory_space>::accessible;

/// Runs tiling L's affine tiles of `in` into `out` with the staged kernel of
/// V elements in units of W (T's bits where W > 1).
template <class E, class V, int W, class T>
void run_staged(const tilekit::impl::TiledLayout& L, const T* in, T* out, int team) {
  using namespace tilekit::impl;
  using K = PermuteTiled<E, V, 1, kStage, StoreMove<V>, BoxKind::affine, W>;
  E exec;
  Kokkos::TeamPolicy<E> policy(exec, 3, team, 1);
  policy.set_scratch_size(tile_scratch_level<E>(), Kokkos::PerTeam(K::scratch_bytes(L)));
  Kokkos::parallel_for("test_interleaved", policy,
                       K{reinterpret_cast<const V*>(in), reinterpret_cast<V*>(out), nullptr, L, {}});
  exec.fence();
}

/// The boxes a staged plan takes for these shapes (the default box, its
/// chunk a multiple of the units; where that box reads tables, the
/// interleaved one), in boxes of kStage elements (the element kernel stages
/// them) and of kStage units (the packed kernel stages them, the element
/// kernel goes unstaged); the element kernel on every one, the packed kernel
/// where the plan would take it (pack_tiles, views on a unit). Every element
/// is checked, and the poison before and after the output.
TYPED_TEST(PermuteInterleaved, StagedBoxesOnHostTeams) {
  TILEKIT_CASE_TYPES(E, T);
  if constexpr (!host_memory_v<E>) {
    GTEST_SKIP() << "device teams: the plan's tests (TinyExtentsEitherSide)";
  } else {
    using namespace tilekit::impl;
    constexpr int PW = kPackBytes > static_cast<int>(sizeof(T)) ? kPackBytes / sizeof(T) : 1;
    using Bits = bits_t<sizeof(T)>;
    const int team = std::min(2, E().concurrency());
    std::vector<std::pair<Extents, Perm>> shapes;
    for (std::int64_t c = 1; c <= 16; ++c)
      for (std::int64_t L : {37, 61, 64, 97, 130})
        for (std::int64_t B : {1, 3}) {
          shapes.push_back({{B, c, L}, {0, 2, 1}});
          shapes.push_back({{B, L, c}, {0, 2, 1}});
        }
    shapes.push_back({{2, 3, 7, 12}, {0, 2, 3, 1}});
    shapes.push_back({{2, 7, 12, 3}, {0, 3, 1, 2}});
    int interleaved = 0, packed = 0;
    for (const index_t area : {index_t(kStage), index_t(kStage) * PW})
      for (const auto& [ext, perm] : shapes)
        for (int shift : {0, 1}) {
          const PermuteShape f = fuse(row_major_shape(ext, perm, false));
          if (f.rank < 2) continue;  // c = 1: a copy
          const index_t run = tiled_run_target(f, 8);
          Tiling tiling = make_tiling(f, choose_box(f, run, area, 0, true, PW), 1);
          bool inter = false;
          if (tiling.layout.kind != BoxKind::affine) {
            const auto t = interleaved_tiling(f, run, area, PW, 16);
            if (!t) continue;  // (the plan keeps the tabled box)
            tiling = t->first;
            inter = true;
            const TiledLayout& L = tiling.layout;
            EXPECT_TRUE(L.transposed && L.rows_in_scratch && L.ld == L.box[load_rows])
                << shape_of(ext, perm);
          }
          const TiledLayout& L = tiling.layout;
          const index_t n = volume(ext), gap = 5;
          std::vector<T> hin(n + shift);
          for (index_t k = 0; k < n + shift; ++k) hin[k] = value_at<T>(k + 11);
          Kokkos::View<T*, typename E::memory_space> a("a", n + shift), b("b", n + shift + gap);
          Kokkos::deep_copy(
              a, Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(hin.data(), hin.size()));
          const auto want = reference(ext, perm, std::vector<T>(hin.begin() + shift, hin.end()));
          auto check = [&](const char* how) {
            std::vector<T> got(n + shift + gap);
            Kokkos::deep_copy(
                Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(got.data(), got.size()), b);
            index_t wrong = 0;
            for (int k = 0; k < shift; ++k) wrong += !same_bits(got[k], poison<T>());
            for (index_t k = 0; k < n; ++k) wrong += !same_bits(got[shift + k], want[k]);
            for (index_t k = 0; k < gap; ++k) wrong += !same_bits(got[shift + n + k], poison<T>());
            EXPECT_EQ(wrong, 0) << how << " " << shape_of(ext, perm) << " area " << area << " shift "
                                << shift << (inter ? " interleaved" : "") << " team " << team;
          };
          interleaved += inter;
          Kokkos::deep_copy(b, poison<T>());
          run_staged<E, T, 1>(L, a.data() + shift, b.data() + shift, team);
          check("elements");
          if constexpr (PW > 1) {
            if (pack_tiles(tiling, PW) && shift % PW == 0) {
              ++packed;
              Kokkos::deep_copy(b, poison<T>());
              run_staged<E, Bits, PW>(L, a.data() + shift, b.data() + shift, team);
              check("packed");
            }
          }
        }
    EXPECT_GT(interleaved, 0);
    if (PW > 1) {
      EXPECT_GT(packed, 0);
    }
  }
}

}  // namespace
