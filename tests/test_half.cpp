// Two-byte elements through transpose (out of place, in place square and
// rectangular) and permute, moved bit for bit: Kokkos::Experimental::half_t
// and bhalf_t where this Kokkos has 2-byte ones (CUDA, HIP, SYCL builds; a
// host-only Kokkos defines both as float, KOKKOS_HALF_T_IS_FLOAT), and
// int16_t everywhere, so the 2-byte paths of every kernel also run in CI.
#include <tilekit/permute.hpp>
#include <tilekit/transpose.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "test_helpers.hpp"
#include "variants.hpp"

namespace {
using namespace tilekit::test;

#if KOKKOS_HALF_T_IS_FLOAT || KOKKOS_BHALF_T_IS_FLOAT
using TwoByteTypes = tilekit::support::List<std::int16_t>;
#else
using TwoByteTypes =
    tilekit::support::List<std::int16_t, Kokkos::Experimental::half_t,
                           Kokkos::Experimental::bhalf_t>;
#endif

TILEKIT_TYPED_TEST_SUITE(TwoByte, TwoByteTypes);

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

template <class View>
auto filled_host(const View& v) {
  auto h = Kokkos::create_mirror(v);
  using T = typename View::value_type;
  for (std::size_t k = 0; k < h.span(); ++k) h.data()[k] = bits_of<T>(static_cast<std::int64_t>(k));
  return h;
}


// {96, 160} and {36, 84}: extents sharing 32 (in place: square blocks and a
// shuffle, its batches' rows of pairs on GPUs) and 12 (the decomposition).
const std::vector<std::pair<int, int>> kShapes = {{1, 1},   {1, 37},   {37, 1},  {31, 67},
                                                  {64, 64}, {129, 65}, {200, 3}, {96, 160},
                                                  {36, 84}};

TYPED_TEST(TwoByte, Transpose) {
  TILEKIT_CASE_TYPES(Exec, T);
  Exec exec;
  for (const auto& v : kTransposeRuns)
    for (auto [m, n] : kShapes) {
      Matrix<Exec, T> in("in", m, n), out("out", n, m);
      auto h = filled_host(in);
      Kokkos::deep_copy(in, h);
      transpose_with(v, exec, in, out);
      exec.fence();
      auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      long wrong = 0;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) wrong += !same_bits(r(j, i), h(i, j));
      EXPECT_EQ(wrong, 0) << m << "x" << n << " " << name_of(v);
    }
}

TYPED_TEST(TwoByte, TransposeInplace) {
  TILEKIT_CASE_TYPES(Exec, T);
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
  TILEKIT_CASE_TYPES(Exec, T);
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

/// Runs plan on in and out (poisoned first) and counts the elements of out
/// that differ from the host's input h permuted by p.
template <class Plan, class In, class Out, class Host>
long permute_wrong(const Plan& plan, const In& in, const Out& out, const Host& h,
                   const std::vector<int>& p) {
  using T = typename In::non_const_value_type;
  typename In::execution_space exec;
  Kokkos::deep_copy(out, bits_of<T>(12345));
  Kokkos::deep_copy(in, h);
  plan.execute(in, out);
  exec.fence();
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  const int rank = static_cast<int>(p.size());
  std::vector<std::size_t> i(rank, 0);
  long wrong = 0;
  for (std::size_t k = 0; k < in.size(); ++k) {
    std::size_t q = k, ri = 0;
    for (int d = rank - 1; d >= 0; --d) i[d] = q % in.extent(d), q /= in.extent(d);
    for (int d = 0; d < rank; ++d) ri = ri * in.extent(p[d]) + i[p[d]];
    wrong += !same_bits(r.data()[ri], h.data()[k]);
  }
  return wrong;
}

/// Every permutation p of a rank-R tensor of extents ext (rank 5: every
/// 7th), planned on views at the start of their allocations and run on
/// those and on views one element further (off a pair: the unpacked
/// kernels). Where the backend packs T and every extent is even, the plan
/// must pack; where every extent is odd, it must not.
template <int R, class Exec, class T>
void check_packed(const std::vector<int>& ext) {
  using Mem = typename Exec::memory_space;
  using V = UView<T, R, Kokkos::LayoutRight, Mem>;
  using H = Kokkos::View<typename tilekit::support::Stars<T, R>::type, Kokkos::LayoutRight, Kokkos::HostSpace>;
  constexpr int pairs = tilekit::impl::permute_pack_width<Exec, T>();
  std::size_t n = 1;
  bool even = true, odd = true;
  for (int e : ext) {
    n *= static_cast<std::size_t>(e);
    even = even && e % 2 == 0;
    odd = odd && e % 2 == 1;
  }
  Kokkos::View<T*, Mem> a("a", n + 1), b("b", n + 1);
  Kokkos::LayoutRight li;
  for (int d = 0; d < R; ++d) li.dimension[d] = static_cast<std::size_t>(ext[d]);
  H h("h", li);
  for (std::size_t k = 0; k < n; ++k) h.data()[k] = bits_of<T>(static_cast<std::int64_t>(k));
  std::vector<int> p(R);
  std::iota(p.begin(), p.end(), 0);
  int count = 0;
  do {
    if (R > 4 && count++ % 7 != 0) continue;
    Kokkos::LayoutRight lo;
    for (int d = 0; d < R; ++d) lo.dimension[d] = static_cast<std::size_t>(ext[p[d]]);
    std::ostringstream os;
    os << "[";
    for (int d : p) os << d;
    os << "] of";
    for (int e : ext) os << ' ' << e;
    const V in(a.data(), li), out(b.data(), lo);
    const tilekit::PermutePlan<Exec, T> plan(Exec(), in, out, p);
    os << " (" << tilekit::to_string(plan.method()) << ")";
    const std::string what = os.str();
    if (pairs > 1 && even) {
      EXPECT_EQ(plan.pack_width(), pairs) << what;
    }
    if (odd) {
      EXPECT_EQ(plan.pack_width(), 1) << what;
    }
    EXPECT_EQ(permute_wrong(plan, in, out, h, p), 0) << what;
    EXPECT_EQ(permute_wrong(plan, V(a.data() + 1, li), V(b.data() + 1, lo), h, p), 0)
        << what << ", views one element off";
  } while (std::next_permutation(p.begin(), p.end()));
}

/// The packed moves (PermutePlan::pack_width: two 2-byte elements per access
/// where the backend gives Traits::permute_pack_bytes = 4, GPUs): the copy,
/// rows and tiled methods with clipped tiles (66 and 130: tiles of 64 end in
/// 2), fused small dimensions (rank 5: table boxes), odd extents (no packs)
/// and rows that hold whole pairs in some dimensions only (65 x 70).
TYPED_TEST(TwoByte, PermutePacked) {
  TILEKIT_CASE_TYPES(Exec, T);
  for (const auto& ext : {std::vector<int>{4, 66, 130}, {2, 130, 6}, {5, 7, 9}, {3, 65, 70}})
    check_packed<3, Exec, T>(ext);
  check_packed<5, Exec, T>({6, 2, 4, 10, 2});
  check_packed<5, Exec, T>({3, 2, 5, 4, 8});
}

}  // namespace
