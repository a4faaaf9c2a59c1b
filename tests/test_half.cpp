// Two-byte elements through transpose (out of place, in place square and
// rectangular) and permute, moved bit for bit: Kokkos::Experimental::half_t
// and bhalf_t where this Kokkos has 2-byte ones (CUDA, HIP, SYCL builds; a
// host-only Kokkos defines both as float, KOKKOS_HALF_T_IS_FLOAT), and
// int16_t everywhere, so the 2-byte paths of every kernel also run in CI.
#include <tilekit/permute.hpp>
#include <tilekit/transpose.hpp>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <utility>
#include <vector>

#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;

#if KOKKOS_HALF_T_IS_FLOAT || KOKKOS_BHALF_T_IS_FLOAT
using TwoByteTypes = Cases<std::int16_t>;
#else
using TwoByteTypes =
    Cases<std::int16_t, Kokkos::Experimental::half_t, Kokkos::Experimental::bhalf_t>;
#endif

template <class C>
class TwoByte : public ::testing::Test {};
TYPED_TEST_SUITE(TwoByte, TwoByteTypes, CaseNames);

/// Element k: 16 scattered bits (NaN, infinity and subnormal patterns
/// included: they must move unchanged).
template <class T>
T bits_of(std::int64_t k) {
  static_assert(sizeof(T) == 2);
  const auto u = static_cast<std::uint16_t>((static_cast<std::uint64_t>(k) * 40503u + 7u) & 0xFFFFu);
  T x;
  std::memcpy(&x, &u, sizeof(T));
  return x;
}
template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class View>
auto filled_host(const View& v) {
  auto h = Kokkos::create_mirror(v);
  using T = typename View::value_type;
  for (std::size_t k = 0; k < h.span(); ++k) h.data()[k] = bits_of<T>(static_cast<std::int64_t>(k));
  return h;
}

template <class Exec, class T>
using Matrix = Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::memory_space>;

const std::vector<std::pair<int, int>> kShapes = {{1, 1},  {1, 37},   {37, 1},  {31, 67},
                                                  {64, 64}, {129, 65}, {200, 3}};

TYPED_TEST(TwoByte, Transpose) {
  using Exec = typename TypeParam::exec;
  using T = typename TypeParam::value;
  Exec exec;
  for (auto v : {tilekit::TransposeVariant::naive, tilekit::TransposeVariant::tiled,
                 tilekit::TransposeVariant::tiled_padded})
    for (auto [m, n] : kShapes) {
      Matrix<Exec, T> in("in", m, n), out("out", n, m);
      auto h = filled_host(in);
      Kokkos::deep_copy(in, h);
      tilekit::transpose(exec, in, out, v);
      exec.fence();
      auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      long wrong = 0;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) wrong += !same_bits(r(j, i), h(i, j));
      EXPECT_EQ(wrong, 0) << m << "x" << n << " " << tilekit::to_string(v);
    }
}

TYPED_TEST(TwoByte, TransposeInplace) {
  using Exec = typename TypeParam::exec;
  using T = typename TypeParam::value;
  Exec exec;
  for (auto [m, n] : kShapes)
    for (auto v : {tilekit::InplaceVariant::blocked, tilekit::InplaceVariant::decomposed}) {
      Matrix<Exec, T> a("a", m, n);
      auto h = filled_host(a);
      Kokkos::deep_copy(a, h);
      tilekit::transpose_inplace(exec, a, v);
      exec.fence();
      auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                   tilekit::transposed_view(a));
      long wrong = 0;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) wrong += !same_bits(r(j, i), h(i, j));
      EXPECT_EQ(wrong, 0) << m << "x" << n << " " << tilekit::to_string(v);
    }
}

/// Every permutation of a rank-3 tensor (the fused plan's copy, rows and tiled
/// methods) and the naive kernel, against a host permutation.
TYPED_TEST(TwoByte, Permute3) {
  using Exec = typename TypeParam::exec;
  using T = typename TypeParam::value;
  using View = Kokkos::View<T***, Kokkos::LayoutRight, typename Exec::memory_space>;
  Exec exec;
  for (auto ext : {std::array<int, 3>{5, 7, 9}, {3, 65, 70}, {1, 33, 2}}) {
    std::vector<int> p = {0, 1, 2};
    do {
      for (auto v : {tilekit::PermuteVariant::fused, tilekit::PermuteVariant::naive}) {
        View in("in", ext[0], ext[1], ext[2]);
        View out("out", ext[p[0]], ext[p[1]], ext[p[2]]);
        Kokkos::deep_copy(out, bits_of<T>(12345));
        auto h = filled_host(in);
        Kokkos::deep_copy(in, h);
        tilekit::permute(exec, in, out, p, T(1), T(0), v);
        exec.fence();
        auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
        long wrong = 0;
        std::array<int, 3> i{};
        for (i[0] = 0; i[0] < ext[0]; ++i[0])
          for (i[1] = 0; i[1] < ext[1]; ++i[1])
            for (i[2] = 0; i[2] < ext[2]; ++i[2])
              wrong += !same_bits(r(i[p[0]], i[p[1]], i[p[2]]), h(i[0], i[1], i[2]));
        EXPECT_EQ(wrong, 0) << ext[0] << "x" << ext[1] << "x" << ext[2] << " [" << p[0] << p[1]
                            << p[2] << "] " << tilekit::to_string(v);
      }
    } while (std::next_permutation(p.begin(), p.end()));
  }
}

}  // namespace
