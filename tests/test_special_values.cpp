// Special values: NaNs with distinct payloads (quiet and signalling), +-inf,
// -0.0 and denormals are moved bit for bit by every transpose and permute
// variant with alpha = 1, beta = 0 (compared with memcmp, not ==); the
// reductions follow IEEE 754-2019 for NaN, infinities, signed zeros and
// denormals (docs/reduce.md).
#include <tilekit/permute.hpp>
#include <tilekit/reduce.hpp>
#include <tilekit/transpose.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "reduce_checks.hpp"
#include "test_helpers.hpp"
#include "variants.hpp"

namespace {
using namespace tilekit::test;

template <class T> struct Bits;
template <> struct Bits<float> {
  using U = std::uint32_t;
  static std::vector<U> specials() {
    return {0x7fc00000u, 0x7fc00001u, 0xffc12345u, 0x7fffffffu,  // quiet NaNs, payloads
            0x7f800001u, 0x7fa00000u, 0xff800123u, 0x7fbfffffu,  // signalling NaNs
            0x7f800000u, 0xff800000u,                            // +inf, -inf
            0x80000000u, 0x00000000u,                            // -0, +0
            0x00000001u, 0x807fffffu, 0x00400000u, 0x80000003u,  // denormals
            0x3f800000u, 0xc2f6e979u, 0x7f7fffffu, 0x00800000u}; // 1, -123.456, max, min normal
  }
};
template <> struct Bits<double> {
  using U = std::uint64_t;
  static std::vector<U> specials() {
    return {0x7ff8000000000000ull, 0x7ff8000000000001ull, 0xfff80000deadbeefull,
            0x7fffffffffffffffull, 0x7ff0000000000001ull, 0x7ff4000000000000ull,
            0xfff0000000000123ull, 0x7ff7ffffffffffffull, 0x7ff0000000000000ull,
            0xfff0000000000000ull, 0x8000000000000000ull, 0x0000000000000000ull,
            0x0000000000000001ull, 0x800fffffffffffffull, 0x0008000000000000ull,
            0x8000000000000003ull, 0x3ff0000000000000ull, 0xc05edd2f1a9fbe77ull,
            0x7fefffffffffffffull, 0x0010000000000000ull};
  }
};

/// Element k of the test data: the specials in a pattern that does not repeat
/// along rows of the tested shapes.
template <class T>
T special(i64 k) {
  static const auto s = Bits<T>::specials();
  return std::bit_cast<T>(s[static_cast<std::size_t>((k * 7 + k / 13) % static_cast<i64>(s.size()))]);
}

template <class T> T flag() { return std::bit_cast<T>(typename Bits<T>::U(0x12345)); }

TILEKIT_TYPED_TEST_SUITE(SpecialValues, tilekit::support::List<float, double>);

/// A rank-R view of the layout over `data`, filled from the specials, and an
/// output view poisoned with a flag value.
template <class Exec, class T, class Layout, class View>
void fill(const View& v) {
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t k = 0; k < h.span(); ++k) h.data()[k] = special<T>(static_cast<i64>(k));
  Kokkos::deep_copy(v, h);
}

template <class E, class T, class Layout>
void transposes_keep_bits() {
  using V = Kokkos::View<T**, Layout, typename E::memory_space>;
  E exec;
  for (auto [r, c] : {std::pair{37, 53}, {64, 64}, {1, 100}, {130, 67}}) {
    V in("in", r, c), out("out", c, r);
    fill<E, T, Layout>(in);
    for (const auto& v : kTransposeRuns) {
      Kokkos::deep_copy(out, flag<T>());
      transpose_with(v, exec, in, out);
      exec.fence();
      EXPECT_EQ(wrong_permuted(in, out, {1, 0}), 0) << r << "x" << c << " " << name_of(v);
    }
  }
  for (int n : {33, 64, 100}) {
    V a("a", n, n), ref("ref", n, n);
    fill<E, T, Layout>(ref);
    for (const auto& v : kSquareInplaceRuns) {
      Kokkos::deep_copy(a, ref);
      transpose_inplace_with(v, exec, a);
      exec.fence();
      EXPECT_EQ(wrong_permuted(ref, a, {1, 0}), 0) << n << " " << name_of(v);
    }
  }
}

TYPED_TEST(SpecialValues, TransposesMoveEveryBit) {
  transposes_keep_bits<typename TypeParam::exec, typename TypeParam::value, Kokkos::LayoutRight>();
  transposes_keep_bits<typename TypeParam::exec, typename TypeParam::value, Kokkos::LayoutLeft>();
}

template <class E, class T, class Layout, class V>
void permute_keeps_bits(const V& in, const V& out, const std::vector<int>& perm,
                        const PermuteRun& variant, T beta) {
  E exec;
  Kokkos::deep_copy(out, flag<T>());
  permute_with(variant, exec, in, out, perm, T(1), beta);
  exec.fence();
  std::string p;
  for (int x : perm) p += std::to_string(x) + " ";
  EXPECT_EQ(wrong_permuted(in, out, perm), 0)
      << "perm " << p << name_of(variant) << " beta " << beta;
}

template <class E, class T, class Layout>
void permutes_keep_bits() {
  using Mem = typename E::memory_space;
  using V3 = Kokkos::View<T***, Layout, Mem>;
  const std::vector<std::vector<int>> perms3 = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                               {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (auto [a, b, c] : {std::tuple{13, 17, 19}, {64, 3, 70}}) {
    V3 in("in", a, b, c);
    fill<E, T, Layout>(in);
    for (const auto& p : perms3) {
      const int e[3] = {a, b, c};
      V3 out("out", e[p[0]], e[p[1]], e[p[2]]);
      for (const auto& v : kPermuteRuns)
        permute_keeps_bits<E, T, Layout>(in, out, p, v, T(0));
      permute_keeps_bits<E, T, Layout>(in, out, p, tilekit::PermuteVariant::fused, T(-0.0));
    }
  }
  using V5 = Kokkos::View<T*****, Layout, Mem>;
  V5 in("in5", 3, 5, 7, 2, 11);
  fill<E, T, Layout>(in);
  for (std::vector<int> p : {std::vector<int>{4, 3, 2, 1, 0}, {0, 1, 2, 3, 4}, {1, 0, 3, 2, 4},
                             {2, 4, 0, 1, 3}, {0, 3, 1, 2, 4}}) {
    const int e[5] = {3, 5, 7, 2, 11};
    V5 out("out5", e[p[0]], e[p[1]], e[p[2]], e[p[3]], e[p[4]]);
    permute_keeps_bits<E, T, Layout>(in, out, p, tilekit::PermuteVariant::fused, T(0));
    permute_keeps_bits<E, T, Layout>(in, out, p, tilekit::PermuteVariant::naive, T(0));
  }
}

TYPED_TEST(SpecialValues, PermutesMoveEveryBit) {
  permutes_keep_bits<typename TypeParam::exec, typename TypeParam::value, Kokkos::LayoutRight>();
  permutes_keep_bits<typename TypeParam::exec, typename TypeParam::value, Kokkos::LayoutLeft>();
}

template <class E, class T>
Kokkos::View<T*, typename E::memory_space> device_of(const std::vector<T>& h) {
  Kokkos::View<T*, typename E::memory_space> v("v", h.size());
  Kokkos::deep_copy(v, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                           h.data(), h.size()));
  return v;
}

TYPED_TEST(SpecialValues, ReductionsOfNanPayloadsAreNan) {
  TILEKIT_CASE_TYPES(E, T);
  E exec;
  const auto s = Bits<T>::specials();
  for (std::size_t which = 0; which < 8; ++which) {  // each quiet and signalling payload
    for (i64 n : {1, 5, 1000, 40000}) {
      std::vector<T> h(n, T(1.5));
      const i64 at = (n * 2) / 3;
      h[at] = std::bit_cast<T>(s[which]);
      auto v = device_of<E>(h);
      const std::string ctx = "payload " + std::to_string(which) + ", n " + std::to_string(n);
      expect_nan_everywhere(exec, v, at, ctx);
    }
  }
}

/// IEEE 754-2019 minimum/maximum order -0 before +0: the min of zeros of both
/// signs is -0 and the max +0, whatever the order of evaluation.
TYPED_TEST(SpecialValues, SignedZerosInMinAndMax) {
  TILEKIT_CASE_TYPES(E, T);
  E exec;
  for (i64 n : {2, 3, 1000, 40001}) {
    for (i64 at : {i64(0), n / 2, n - 1}) {
      std::vector<T> pos(n, T(0)), neg(n, T(-0.0));
      pos[at] = T(-0.0);  // one -0 among +0
      neg[at] = T(0);     // one +0 among -0
      auto p = device_of<E>(pos), m = device_of<E>(neg);
      const std::string ctx = "n " + std::to_string(n) + ", at " + std::to_string(at);
      EXPECT_TRUE(same_bits(tilekit::reduce(exec, p, tilekit::Min{}), T(-0.0))) << ctx;
      EXPECT_TRUE(same_bits(tilekit::reduce(exec, p, tilekit::Max{}), T(0))) << ctx;
      EXPECT_TRUE(same_bits(tilekit::reduce(exec, m, tilekit::Min{}), T(-0.0))) << ctx;
      EXPECT_TRUE(same_bits(tilekit::reduce(exec, m, tilekit::Max{}), T(0))) << ctx;
      const auto lo = tilekit::reduce(exec, p, tilekit::MinLoc{});
      EXPECT_TRUE(same_bits(lo.value, T(-0.0)) && lo.index == at) << ctx << " " << lo.index;
      const auto hi = tilekit::reduce(exec, m, tilekit::MaxLoc{});
      EXPECT_TRUE(same_bits(hi.value, T(0)) && hi.index == at) << ctx << " " << hi.index;
      // Ties of one sign: the smallest index.
      EXPECT_EQ(tilekit::reduce(exec, m, tilekit::MinLoc{}).index, at == 0 ? 1 : 0) << ctx;
      EXPECT_EQ(tilekit::reduce(exec, p, tilekit::MaxLoc{}).index, at == 0 ? 1 : 0) << ctx;
    }
  }
}

/// Denormals are summed exactly (nothing flushes them to zero) and compared
/// as numbers by min and max; infinities of one sign are kept.
TYPED_TEST(SpecialValues, DenormalsAndInfinities) {
  TILEKIT_CASE_TYPES(E, T);
  E exec;
  const T tiny = std::numeric_limits<T>::denorm_min(), inf = std::numeric_limits<T>::infinity();
  for (i64 n : {1, 7, 1000, 40000}) {
    std::vector<T> h(n, tiny);
    h[n / 2] = T(2) * tiny;
    auto v = device_of<E>(h);
    const std::string ctx = "n " + std::to_string(n);
    EXPECT_TRUE(same_bits(tilekit::reduce(exec, v, tilekit::Sum{}), T(n + 1) * tiny)) << ctx;
    EXPECT_TRUE(same_bits(tilekit::reduce(exec, v, tilekit::CompensatedSum{}), T(n + 1) * tiny))
        << ctx;
    EXPECT_TRUE(same_bits(tilekit::reduce(exec, v, tilekit::Min{}), n > 1 ? tiny : T(2) * tiny))
        << ctx;
    const auto hi = tilekit::reduce(exec, v, tilekit::MaxLoc{});
    EXPECT_TRUE(same_bits(hi.value, T(2) * tiny) && hi.index == n / 2) << ctx;
    std::vector<T> m(n, -inf);
    auto w = device_of<E>(m);
    EXPECT_EQ(tilekit::reduce(exec, w, tilekit::Sum{}), -inf) << ctx;
    EXPECT_EQ(tilekit::reduce(exec, w, tilekit::CompensatedSum{}), -inf) << ctx;
    EXPECT_EQ(tilekit::reduce(exec, w, tilekit::Max{}), -inf) << ctx;
    EXPECT_EQ(tilekit::reduce(exec, w, tilekit::MinLoc{}).index, 0) << ctx;
  }
}

}  // namespace
