#pragma once
// Strided (LayoutStride) windows of a larger LayoutRight or LayoutLeft
// allocation, for the tests of strided views (test_permute_strided.cpp,
// test_reduce_strided.cpp): a block, every other element of a dimension, the
// whole parent.
#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

#include "test_helpers.hpp"

namespace tilekit::test {

using Ext = std::vector<std::int64_t>;

/// Where a window sits in its parent: element i of the window is parent
/// element off + i * step (per dimension); the parent extends `pad` beyond.
struct Win {
  bool left = false;  ///< the parent's layout
  Ext off, step, pad;
  std::string name() const {
    auto list = [](const Ext& v) {
      std::string s;
      for (auto x : v) {
        if (!s.empty()) s += ',';
        s += std::to_string(x);
      }
      return "(" + s + ")";
    };
    return std::string(left ? "left" : "right") + " off" + list(off) + " step" + list(step) +
           " pad" + list(pad);
  }
};

/// The windows of rank r the tests use.
inline Win dense(int r, bool left = false) { return {left, Ext(r, 0), Ext(r, 1), Ext(r, 0)}; }
/// A block with gaps in every dimension (the fastest keeps unit stride).
inline Win block(int r, bool left = false) { return {left, Ext(r, 1), Ext(r, 1), Ext(r, 2)}; }
/// Every other element along dimension d, a block in the others.
inline Win every_other(int r, int d, bool left = false) {
  Win w = block(r, left);
  w.step[d] = 2;
  return w;
}

template <class Exec, class T, int R>
struct Parent {
  using Flat = Kokkos::View<T*, typename Exec::memory_space>;
  using Window = UView<T, R, Kokkos::LayoutStride, typename Exec::memory_space>;
  Win w;
  Ext P, ext;
  Flat data;
  Parent(const Win& win, const Ext& e) : w(win), P(R), ext(e) {
    for (int d = 0; d < R; ++d) P[d] = w.off[d] + (e[d] > 0 ? (e[d] - 1) * w.step[d] + 1 : 0) + w.pad[d];
    data = Flat("parent", volume(P));
  }
  std::int64_t pstride(int d) const {
    std::int64_t s = 1;
    if (w.left)
      for (int q = 0; q < d; ++q) s *= P[q];
    else
      for (int q = R - 1; q > d; --q) s *= P[q];
    return s;
  }
  /// Flat parent index of window element idx.
  std::int64_t at(const Ext& idx) const {
    std::int64_t k = 0;
    for (int d = 0; d < R; ++d) k += (w.off[d] + idx[d] * w.step[d]) * pstride(d);
    return k;
  }
  Window window() const {
    Kokkos::LayoutStride l;
    for (int d = 0; d < R; ++d) {
      l.dimension[d] = static_cast<std::size_t>(ext[d]);
      l.stride[d] = static_cast<std::size_t>(w.step[d] * pstride(d));
    }
    return Window(data.data() + at(Ext(R, 0)), l);
  }
};

/// Calls fn(idx) for every index of extents e (last fastest).
template <class Fn>
void for_each_index(const Ext& e, const Fn& fn) {
  if (volume(e) == 0) return;
  Ext idx(e.size(), 0);
  for (;;) {
    fn(idx);
    int d = static_cast<int>(e.size()) - 1;
    while (d >= 0 && ++idx[d] == e[d]) idx[d--] = 0;
    if (d < 0) return;
  }
}

}  // namespace tilekit::test
