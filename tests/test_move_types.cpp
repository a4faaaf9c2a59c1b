// The move-only element types (#57): 1- and 2-byte integers, unsigned ones,
// bool. The kernels move bits, so every element must arrive bit for bit
// through the permute (rank 3 every permutation, NCHW <-> NHWC images,
// windows, starts off the packed units' alignment), the transpose and the
// in-place transposes. uint8 and uint16 are the library's compiled kernels
// of their sizes (TILEKIT_ETI_TYPES' default); bool, a type the library does
// not hold, is the one case of the header-only permute plan: int8, int16,
// uint32 and uint64 instantiate the same templates from the headers as bool
// does, and the matrix of them all compiled those kernels five times over for
// one path. (Their transposes, and bool's, run the library's engines of their
// size: impl::move_t.)
#include <tilekit/permute.hpp>
#include <tilekit/transpose.hpp>

#include <cstdint>
#include <numeric>
#include <vector>

#include "permutations.hpp"
#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;

// The element each type's moves run on (impl::move_t): the unsigned integer
// of its size where the type is aligned to its size, else the type itself.
struct FloatPair {  // 8 bytes aligned to 4: a uint64_t load could be misaligned
  float a, b;
};
static_assert(std::is_same_v<tilekit::impl::move_t<float>, std::uint32_t>);
static_assert(std::is_same_v<tilekit::impl::move_t<std::int64_t>, std::uint64_t>);
static_assert(std::is_same_v<tilekit::impl::move_t<Kokkos::complex<float>>, std::uint64_t>);
static_assert(std::is_same_v<tilekit::impl::move_t<bool>, std::uint8_t>);
static_assert(std::is_same_v<tilekit::impl::move_t<Kokkos::complex<double>>,
                             Kokkos::complex<double>>);
static_assert(std::is_same_v<tilekit::impl::move_t<FloatPair>, FloatPair>);

using MoveOnlyTypes = tilekit::support::List<std::uint8_t, std::uint16_t, bool>;
TILEKIT_TYPED_TEST_SUITE(MoveTypes, MoveOnlyTypes);

/// Bits of element k: every bit pattern of T occurs (bool: 0 and 1).
template <class T>
T bits_of(std::int64_t k) {
  if constexpr (std::is_same_v<T, bool>) {
    return (value_of(k) & 1) != 0;
  } else {
    const auto v = static_cast<std::uint64_t>(value_of(k)) * 0x9E3779B97F4A7C15ULL;
    return static_cast<T>(v >> (64 - 8 * sizeof(T)));
  }
}

template <class T, class Mem>
Kokkos::View<T*, Mem> filled(std::int64_t n, std::int64_t seed) {
  Kokkos::View<T*, Mem> v("move types", n);
  auto h = Kokkos::create_mirror_view(v);
  for (std::int64_t k = 0; k < n; ++k) h(k) = bits_of<T>(k + seed);
  Kokkos::deep_copy(v, h);
  return v;
}

/// in (rank R, row-major, starting `shift` elements into its buffer) ->
/// out (starting `shift` in), permuted by perm: wrong elements.
template <class E, class T, int R>
std::int64_t run_permute(const Extents& e, const std::vector<int>& perm, int shift) {
  using Mem = typename E::memory_space;
  const std::int64_t n = volume(e);
  auto bin = filled<T, Mem>(n + shift, 3);
  auto bout = filled<T, Mem>(n + shift, 11);
  Extents eo(R);
  for (int k = 0; k < R; ++k) eo[k] = e[perm[k]];
  auto in = tilekit::support::view_of<R, Kokkos::LayoutRight, Mem>(bin.data() + shift, e);
  auto out = tilekit::support::view_of<R, Kokkos::LayoutRight, Mem>(bout.data() + shift, eo);
  E exec;
  tilekit::permute(exec, in, out, perm);
  exec.fence();
  return wrong_permuted(in, out, perm);
}

TYPED_TEST(MoveTypes, PermuteRank3EveryPermutation) {
  TILEKIT_CASE_TYPES(E, T);
  for (const Extents& e : {Extents{5, 37, 19}, Extents{64, 96, 130}, Extents{1, 33, 64}})
    for (const auto& p : all_perms(3))
      for (int shift : {0, 1})  // 1: off the packed units' alignment
        EXPECT_EQ((run_permute<E, T, 3>(e, p, shift)), 0)
            << e[0] << "x" << e[1] << "x" << e[2] << " perm " << p[0] << p[1] << p[2] << " shift "
            << shift;
}

TYPED_TEST(MoveTypes, ImagesNchwNhwc) {
  TILEKIT_CASE_TYPES(E, T);
  EXPECT_EQ((run_permute<E, T, 4>({3, 3, 40, 36}, {0, 2, 3, 1}, 0)), 0);  // NCHW -> NHWC
  EXPECT_EQ((run_permute<E, T, 4>({3, 40, 36, 3}, {0, 3, 1, 2}, 0)), 0);  // NHWC -> NCHW
  EXPECT_EQ((run_permute<E, T, 4>({2, 17, 23, 4}, {0, 3, 1, 2}, 1)), 0);
}

TYPED_TEST(MoveTypes, StridedWindows) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  // A window of a 12 x 20 x 33 parent: every other row of the middle
  // dimension, an offset in the fastest one; out: a window of a 34 x 13 x 10.
  auto pin = filled<T, Mem>(12 * 20 * 33, 5);
  auto pout = filled<T, Mem>(34 * 13 * 10, 7);
  auto hold = Kokkos::create_mirror(pout);  // a copy even on the host: the reference
  Kokkos::deep_copy(hold, pout);
  Kokkos::LayoutStride li(12, 20 * 33, 10, 2 * 33, 31, 1);
  Kokkos::LayoutStride lo(31, 13 * 10, 12, 10, 10, 1);
  using V = Kokkos::View<T***, Kokkos::LayoutStride, Mem, Kokkos::MemoryUnmanaged>;
  V in(pin.data() + 2, li), out(pout.data() + 1 * 130, lo);
  E exec;
  tilekit::permute(exec, in, out, {2, 0, 1});
  exec.fence();
  // Checked on host copies of the parents: out(k, i, j) = in(i, j, k), and
  // nothing outside the output window.
  auto hin = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pin);
  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pout);
  std::int64_t wrong = 0, outside = 0;
  for (std::int64_t i = 0; i < 12; ++i)
    for (std::int64_t j = 0; j < 10; ++j)
      for (std::int64_t k = 0; k < 31; ++k)
        wrong += !same_bits(hout(130 + k * 130 + i * 10 + j), hin(2 + i * 660 + j * 66 + k));
  EXPECT_EQ(wrong, 0);
  for (std::int64_t k = 0; k < 34 * 13 * 10; ++k) {
    const std::int64_t a = k / 130 - 1, b = k / 10 % 13, c = k % 10;
    const bool inside = a >= 0 && a < 31 && b < 12 && c < 10;
    outside += !inside && !same_bits(hout(k), hold(k));
  }
  EXPECT_EQ(outside, 0);
}

TYPED_TEST(MoveTypes, TransposeAndInplace) {
  TILEKIT_CASE_TYPES(E, T);
  using Mem = typename E::memory_space;
  E exec;
  for (const Extents& e : {Extents{67, 130}, Extents{256, 64}}) {
    auto in = filled<T, Mem>(e[0] * e[1], 1);
    auto out = filled<T, Mem>(e[0] * e[1], 2);
    auto vin = tilekit::support::view_of<2, Kokkos::LayoutRight, Mem>(in.data(), e);
    auto vout = tilekit::support::view_of<2, Kokkos::LayoutRight, Mem>(out.data(), {e[1], e[0]});
    tilekit::transpose(exec, vin, vout);
    exec.fence();
    EXPECT_EQ(wrong_permuted(vin, vout, {1, 0}), 0) << e[0] << "x" << e[1];
  }
  for (const Extents& e : {Extents{96, 96}, Extents{24, 56}}) {
    auto a = filled<T, Mem>(e[0] * e[1], 4);
    auto before = Kokkos::create_mirror(a);  // a copy, also on the host
    Kokkos::deep_copy(before, a);
    auto va = tilekit::support::view_of<2, Kokkos::LayoutRight, Mem>(a.data(), e);
    tilekit::transpose_inplace(exec, va);
    exec.fence();
    auto after = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < e[0]; ++i)
      for (std::int64_t j = 0; j < e[1]; ++j)
        wrong += !same_bits(after(j * e[0] + i), before(i * e[1] + j));
    EXPECT_EQ(wrong, 0) << "in place " << e[0] << "x" << e[1];
  }
}

}  // namespace
