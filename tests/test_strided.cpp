// Strided (LayoutStride) views in the out-of-place transpose: windows of a
// larger LayoutRight/LayoutLeft allocation with every kind of gap, both base
// layouts, 1xN, Nx1 and primes; the elements of the parent allocation outside
// the output window must keep their poison; aliasing and overlapping strides
// are rejected before anything is written (docs/strided.md).
#include <tilekit/transpose.hpp>

#include <string>
#include <vector>

#include "test_helpers.hpp"
#include "variants.hpp"

namespace {
using namespace tilekit::test;

TILEKIT_TYPED_TEST_SUITE(Strided, tilekit::support::MoveTypes);

/// A window of a P0 x P1 parent (row- or column-major): element (i, j) of the
/// window is parent element (off0 + i * step0, off1 + j * step1).
struct Window {
  bool left;
  long off0, off1, step0, step1;
  long pad0, pad1;  ///< parent extents beyond what the window needs
  std::string name() const {
    return std::string(left ? "left" : "right") + " off(" + std::to_string(off0) + "," +
           std::to_string(off1) + ") step(" + std::to_string(step0) + "," +
           std::to_string(step1) + ")";
  }
};

template <class Exec, class T>
struct Parent {
  using Flat = Kokkos::View<T*, typename Exec::memory_space>;
  using Strided = Kokkos::View<T**, Kokkos::LayoutStride, typename Exec::memory_space,
                               Kokkos::MemoryUnmanaged>;
  Window w;
  long P0, P1;
  Flat data;
  Parent(const Window& win, long e0, long e1) : w(win) {
    P0 = w.off0 + (e0 > 0 ? (e0 - 1) * w.step0 + 1 : 0) + w.pad0;
    P1 = w.off1 + (e1 > 0 ? (e1 - 1) * w.step1 + 1 : 0) + w.pad1;
    data = Flat("parent", P0 * P1);
    window_ = make_window(e0, e1);
  }
  long ps0() const { return w.left ? 1 : P1; }
  long ps1() const { return w.left ? P0 : 1; }
  /// Flat index in the parent of window element (i, j).
  long at(long i, long j) const { return (w.off0 + i * w.step0) * ps0() + (w.off1 + j * w.step1) * ps1(); }
  Strided make_window(long e0, long e1) const {
    Kokkos::LayoutStride l(e0, w.step0 * ps0(), e1, w.step1 * ps1());
    return Strided(data.data() + w.off0 * ps0() + w.off1 * ps1(), l);
  }
  const Strided& window() const { return window_; }

 private:
  Strided window_;
};

/// in (R x C window of its parent) -> out (C x R window of its parent); every
/// output element and every parent element outside the output window checked.
template <class Exec, class T>
void check_strided(long R, long C, const Window& wi, const Window& wo,
                   const TransposeRun& v, int expect_tiled = -1) {
  Parent<Exec, T> pin(wi, R, C), pout(wo, C, R);
  auto hin = Kokkos::create_mirror_view(pin.data);
  for (long k = 0; k < pin.P0 * pin.P1; ++k) hin(k) = static_cast<T>(value_of(k));
  Kokkos::deep_copy(pin.data, hin);
  Kokkos::deep_copy(pout.data, poison<T>());
  Exec exec;
  if (const auto* lib = std::get_if<tilekit::TransposeVariant>(&v)) {
    tilekit::TransposePlan plan(exec, pin.window(), pout.window(), *lib);
    if (expect_tiled >= 0) {
      EXPECT_EQ(plan.tiled(), expect_tiled == 1) << wi.name() << " -> " << wo.name();
    }
    plan.execute(pin.window(), pout.window());
  } else {
    transpose_with(v, exec, pin.window(), pout.window());
  }
  exec.fence();
  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pout.data);
  std::vector<char> inside(pout.P0 * pout.P1, 0);
  long wrong = 0, touched = 0;
  for (long j = 0; j < C; ++j)
    for (long i = 0; i < R; ++i) {
      const long o = pout.at(j, i);
      inside[o] = 1;
      wrong += hout(o) != hin(pin.at(i, j));
    }
  for (long k = 0; k < pout.P0 * pout.P1; ++k) touched += !inside[k] && hout(k) != poison<T>();
  EXPECT_EQ(wrong, 0) << R << "x" << C << " " << wi.name() << " -> " << wo.name() << " "
                      << name_of(v);
  EXPECT_EQ(touched, 0) << "elements outside the output window written: " << R << "x" << C
                        << " " << wi.name() << " -> " << wo.name();
}

const std::vector<std::pair<long, long>> kShapes = {{1, 1}, {1, 97}, {89, 1}, {97, 101}, {33, 65}, {130, 67}};

// Windows of one base layout: contiguous (a whole parent), a column block
// (innermost stride 1, larger leading dimension), every other row, every other
// column, and gaps in both dimensions.
std::vector<Window> windows(bool left) {
  return {{left, 0, 0, 1, 1, 0, 0},   // whole parent: contiguous
          {left, 3, 5, 1, 1, 2, 7},   // block: unit inner stride, larger ld
          {left, 1, 0, 2, 1, 1, 0},   // every other row
          {left, 0, 2, 1, 2, 3, 1},   // every other column
          {left, 2, 1, 3, 2, 0, 1}};  // gaps in both dimensions
}

TYPED_TEST(Strided, WindowsOfOneLayout) {
  TILEKIT_CASE_TYPES(E, T);
  for (bool left : {false, true}) {
    const auto ws = windows(left);
    for (auto [r, c] : kShapes)
      for (std::size_t a = 0; a < ws.size(); ++a) {
        // Input and output windows of every kind, paired so every kind meets
        // every other once over the shapes (and the contiguous output).
        const std::size_t b = (a + static_cast<std::size_t>(r + c)) % ws.size();
        check_strided<E, T>(r, c, ws[a], ws[b], tilekit::TransposeVariant::tiled_padded);
        check_strided<E, T>(r, c, ws[a], ws[0], tilekit::TransposeVariant::tiled);
      }
  }
}

TYPED_TEST(Strided, ColumnBlockTakesTheTiledKernel) {
  TILEKIT_CASE_TYPES(E, T);
  for (bool left : {false, true}) {
    const Window whole{left, 0, 0, 1, 1, 0, 0}, block{left, 4, 9, 1, 1, 3, 40};
    for (auto v : {tilekit::TransposeVariant::tiled, tilekit::TransposeVariant::tiled_padded}) {
      check_strided<E, T>(131, 257, block, whole, v, 1);
      check_strided<E, T>(131, 257, whole, block, v, 1);
      check_strided<E, T>(131, 257, block, block, v, 1);
    }
    // A gap in the innermost dimension takes the strided element kernel.
    const Window inner_gap = left ? Window{left, 0, 0, 2, 1, 0, 0} : Window{left, 0, 0, 1, 2, 0, 0};
    check_strided<E, T>(67, 45, inner_gap, whole,
                        tilekit::TransposeVariant::tiled_padded, 0);
    check_strided<E, T>(67, 45, block, block, NaiveTranspose{});
  }
}

TYPED_TEST(Strided, MixedLayouts) {
  TILEKIT_CASE_TYPES(E, T);
  // A row-major window into a column-major one (and back): the unit strides
  // sit in different dimensions, so no frame is tiled.
  const Window r{false, 1, 2, 1, 1, 1, 3}, l{true, 2, 1, 1, 1, 2, 2};
  for (auto [rr, cc] : kShapes) {
    check_strided<E, T>(rr, cc, r, l, tilekit::TransposeVariant::tiled_padded, rr > 1 && cc > 1 ? 0 : -1);
    check_strided<E, T>(rr, cc, l, r, tilekit::TransposeVariant::tiled_padded);
  }
}

TYPED_TEST(Strided, SliceOfA4DTensor) {
  TILEKIT_CASE_TYPES(E, T);
  using M = typename E::memory_space;
  // t(a, b, c, d) of 3 x 37 x 4 x 29; in = t(1, 2..35, 2, 3..26): a 33 x 23
  // matrix with gaps in both dimensions; out = u(0..22, 1, 0..32, 2) of a
  // LayoutLeft 4-D tensor. Elements of u outside the slice stay poisoned.
  Kokkos::View<T****, Kokkos::LayoutRight, M> t("t", 3, 37, 4, 29);
  Kokkos::View<T****, Kokkos::LayoutLeft, M> u("u", 25, 2, 35, 3);
  auto ht = Kokkos::create_mirror_view(t);
  for (std::size_t k = 0; k < ht.span(); ++k) ht.data()[k] = static_cast<T>(value_of(static_cast<long>(k)));
  Kokkos::deep_copy(t, ht);
  Kokkos::deep_copy(u, poison<T>());
  using SV = Kokkos::View<const T**, Kokkos::LayoutStride, M>;
  using OV = Kokkos::View<T**, Kokkos::LayoutStride, M>;
  SV in = Kokkos::subview(t, 1, Kokkos::pair<int, int>(2, 35), 2, Kokkos::pair<int, int>(3, 26));
  OV out = Kokkos::subview(u, Kokkos::pair<int, int>(0, 23), 1, Kokkos::pair<int, int>(0, 33), 2);
  E exec;
  tilekit::transpose(exec, in, out);
  exec.fence();
  auto hu = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
  long wrong = 0, touched = 0;
  for (int a = 0; a < 25; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 35; ++c)
        for (int d = 0; d < 3; ++d) {
          const bool inside = a < 23 && b == 1 && c < 33 && d == 2;
          if (inside) wrong += hu(a, b, c, d) != ht(1, 2 + c, 2, 3 + a);
          else touched += hu(a, b, c, d) != poison<T>();
        }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(touched, 0);
}

TYPED_TEST(Strided, Rejected) {
  TILEKIT_CASE_TYPES(E, T);
  using M = typename E::memory_space;
  using SV = Kokkos::View<T**, Kokkos::LayoutStride, M, Kokkos::MemoryUnmanaged>;
  E exec;
  Kokkos::View<T**, Kokkos::LayoutRight, M> p("p", 40, 30), q("q", 30, 20);
  Kokkos::deep_copy(p, poison<T>());
  Kokkos::deep_copy(q, poison<T>());
  // Even rows into odd rows of one allocation: the address ranges overlap.
  SV even(p.data(), Kokkos::LayoutStride(20, 60, 15, 1));
  SV odd(p.data() + 30, Kokkos::LayoutStride(15, 60, 20, 1));
  EXPECT_THROW(tilekit::transpose(exec, even, odd), tilekit::invalid_argument);
  // A column block in and a block of the same rows further right.
  SV b1(p.data(), Kokkos::LayoutStride(10, 30, 10, 1)), b2(p.data() + 12, Kokkos::LayoutStride(10, 30, 10, 1));
  EXPECT_THROW(tilekit::transpose(exec, b1, b2), tilekit::invalid_argument);
  // Zero stride, and strides whose elements overlap, on either side.
  SV zero(p.data(), Kokkos::LayoutStride(10, 0, 20, 1));
  SV overlap(p.data(), Kokkos::LayoutStride(10, 5, 20, 1));
  SV good_out(q.data(), Kokkos::LayoutStride(20, 20, 10, 1));
  SV good_in(q.data(), Kokkos::LayoutStride(10, 20, 20, 1));
  SV zero_out(p.data(), Kokkos::LayoutStride(20, 30, 10, 0));
  EXPECT_THROW(tilekit::transpose(exec, zero, good_out), tilekit::invalid_argument);
  EXPECT_THROW(tilekit::transpose(exec, overlap, good_out), tilekit::invalid_argument);
  EXPECT_THROW(tilekit::transpose(exec, good_in, zero_out), tilekit::invalid_argument);
  exec.fence();
  EXPECT_TRUE(still_poisoned(p));
  EXPECT_TRUE(still_poisoned(q));
  // In place: a strided window is rejected; a contiguous LayoutStride is not.
  Kokkos::View<T**, Kokkos::LayoutRight, M> sq("sq", 8, 8);
  SV win(sq.data(), Kokkos::LayoutStride(4, 8, 4, 1));
  EXPECT_THROW(tilekit::transpose_inplace(exec, win), tilekit::invalid_argument);
  SV whole(sq.data(), Kokkos::LayoutStride(8, 8, 8, 1));
  EXPECT_NO_THROW(tilekit::transpose_inplace(exec, whole));
  exec.fence();
}

TYPED_TEST(Strided, ContiguousLayoutStrideInPlaceRectangular) {
  TILEKIT_CASE_TYPES(E, T);
  using M = typename E::memory_space;
  // A whole LayoutLeft 5 x 3 matrix seen as LayoutStride: transposing in place
  // leaves the LayoutLeft 3 x 5 transpose in its memory.
  Kokkos::View<T**, Kokkos::LayoutLeft, M> a("a", 5, 3);
  auto ha = Kokkos::create_mirror(a);  // a copy, also on the host
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j) ha(i, j) = static_cast<T>(value_of(i * 3 + j));
  Kokkos::deep_copy(a, ha);
  Kokkos::View<T**, Kokkos::LayoutStride, M> s = a;
  E exec;
  tilekit::transpose_inplace(exec, s);
  exec.fence();
  auto at = tilekit::transposed_view(a);
  auto hat = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), at);
  long wrong = 0;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j) wrong += hat(j, i) != ha(i, j);
  EXPECT_EQ(wrong, 0);
}

}  // namespace
