// A tiny dimension interleaved with a long one (an image's channels: NCHW <->
// NHWC, (B, c, HW) <-> (B, HW, c)), on either side, for 1-, 2- and 4-byte
// elements: the plan on every space (on a GPU its staged teams' interleaved
// boxes, impl::interleaved_tiling, and their packed moves), and those boxes'
// staged kernels on host teams too, element by element and packed, so that
// the host suites check every element of them.
#include <tilekit/impl/permute/kernels.hpp>
#include <tilekit/permute.hpp>

#include <algorithm>
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
