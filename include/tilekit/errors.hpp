#pragma once
// Argument checks shared by every algorithm family. Each throws before any
// kernel is launched, with a message naming the call and the extents.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace tilekit {

/// Thrown for invalid arguments (extents, permutations, aliasing, layouts).
class invalid_argument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

namespace detail {

template <class View>
constexpr bool is_right_or_left_v =
    std::is_same_v<typename View::array_layout, Kokkos::LayoutRight> ||
    std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>;

template <class View>
constexpr bool is_stride_v = std::is_same_v<typename View::array_layout, Kokkos::LayoutStride>;

/// What the run-time checks read of a view, whatever its type (shape_of).
/// The plans check shapes in code that is not a template of the view types,
/// so that a program making plans on views of many ranks and layouts
/// compiles the checks once, not once per view type.
struct ViewShape {
  static constexpr int max_rank = 8;  ///< Kokkos' largest
  enum class Layout { right, left, stride };
  int rank = 0;
  Layout layout = Layout::right;
  std::int64_t extent[max_rank] = {};
  std::int64_t stride[max_rank] = {};
  std::size_t size = 0;         ///< elements
  std::size_t span = 0;         ///< Kokkos' span() (contiguous layouts: the elements' range)
  bool contiguous = true;       ///< span_is_contiguous()
  std::uintptr_t address = 0;   ///< data()
  std::size_t element_bytes = 0;
};

template <class View>
ViewShape shape_of(const View& v) {
  static_assert(View::rank() <= ViewShape::max_rank, "tilekit: views have rank 8 or less");
  ViewShape s;
  s.rank = static_cast<int>(View::rank());
  s.layout = is_stride_v<View> ? ViewShape::Layout::stride
             : std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>
                 ? ViewShape::Layout::left
                 : ViewShape::Layout::right;
  for (int r = 0; r < s.rank; ++r) {
    s.extent[r] = static_cast<std::int64_t>(v.extent(r));
    s.stride[r] = static_cast<std::int64_t>(v.stride(r));
  }
  s.size = v.size();
  s.span = v.span();
  s.contiguous = v.span_is_contiguous();
  s.address = reinterpret_cast<std::uintptr_t>(v.data());
  s.element_bytes = sizeof(typename View::value_type);
  return s;
}

inline std::string extents_string(const ViewShape& v) {
  std::ostringstream s;
  s << '(';
  for (int r = 0; r < v.rank; ++r) s << (r ? ", " : "") << v.extent[r];
  s << ')';
  return s.str();
}

template <class View>
std::string extents_string(const View& v) {
  return extents_string(shape_of(v));
}

[[noreturn]] inline void fail(const std::string& where, const std::string& what) {
  throw invalid_argument(where + ": " + what);
}

/// The skewed tiles' transaction (TransposeOptions / PermuteOptions::align):
/// 0 (off), -1 (the backend's) or a power of two, in bytes.
inline void require_align(const std::string& where, int align) {
  if (align < -1 || (align > 0 && (align & (align - 1)) != 0))
    fail(where, "align " + std::to_string(align) + " must be 0, -1 or a power of two (bytes)");
}

/// The view must be contiguous in memory (LayoutRight or LayoutLeft, no
/// padding, no stride): tilekit's kernels address it as one flat span.
inline void require_contiguous(const std::string& where, const char* name, const ViewShape& v) {
  if (v.size > 0 && !v.contiguous)
    fail(where, std::string(name) + " with extents " + extents_string(v) +
                    " is not contiguous (padded allocation or subview)");
}

template <class View>
void require_contiguous(const std::string& where, const char* name, const View& v) {
  static_assert(is_right_or_left_v<View>,
                "tilekit: views must be Kokkos::LayoutRight or Kokkos::LayoutLeft");
  require_contiguous(where, name, shape_of(v));
}

/// A LayoutRight, LayoutLeft or LayoutStride view (docs/strided.md) whose
/// elements are distinct: every stride of an extent > 1 is positive, and,
/// sorted by stride, each dimension steps over the whole of the one before it
/// (what any subview of a LayoutRight/LayoutLeft view satisfies). Zero,
/// negative-free but overlapping strides throw.
inline void require_strided(const std::string& where, const char* name, const ViewShape& v) {
  if (v.layout != ViewShape::Layout::stride || v.size == 0) return;
  std::int64_t e[ViewShape::max_rank], st[ViewShape::max_rank];
  int k = 0;
  for (int r = 0; r < v.rank; ++r)
    if (v.extent[r] > 1) {
      e[k] = v.extent[r];
      st[k] = v.stride[r];
      ++k;
    }
  for (int a = 1; a < k; ++a)  // insertion sort by stride (rank <= 8)
    for (int b = a; b > 0 && st[b] < st[b - 1]; --b) {
      std::swap(st[b], st[b - 1]);
      std::swap(e[b], e[b - 1]);
    }
  std::int64_t span = 1;  // of the dimensions of smaller stride
  for (int a = 0; a < k; ++a) {
    std::ostringstream s;
    for (int r = 0; r < v.rank; ++r) s << (r ? ", " : "(") << v.stride[r];
    s << ')';
    if (st[a] <= 0)
      fail(where, std::string(name) + " with extents " + extents_string(v) + " has strides " +
                      s.str() + ": a dimension of extent > 1 needs a positive stride");
    if (a > 0 && st[a] < span)
      fail(where, std::string(name) + " with extents " + extents_string(v) + " has strides " +
                      s.str() + " whose elements overlap; tilekit needs distinct elements");
    span += (e[a] - 1) * st[a];
  }
}

template <class View>
void require_strided(const std::string& where, const char* name, const View& v) {
  static_assert(is_right_or_left_v<View> || is_stride_v<View>,
                "tilekit: views must be Kokkos::LayoutRight, LayoutLeft or LayoutStride");
  require_strided(where, name, shape_of(v));
}

/// Elements from the first to one past the last of a non-empty view: span()
/// for contiguous layouts; for LayoutStride 1 + sum (extent - 1) * stride
/// (Kokkos' span() there may reach past the last element).
inline std::size_t address_span(const ViewShape& v) {
  if (v.layout != ViewShape::Layout::stride) return v.span;
  std::size_t s = 1;
  for (int r = 0; r < v.rank; ++r)
    s += static_cast<std::size_t>(v.extent[r] - 1) * static_cast<std::size_t>(v.stride[r]);
  return s;
}

/// True when the address ranges of a and b overlap (for strided views, the
/// ranges from the first to the last element: interleaved windows count).
inline bool overlaps(const ViewShape& a, const ViewShape& b) {
  if (a.size == 0 || b.size == 0) return false;
  const std::uintptr_t a1 = a.address + address_span(a) * a.element_bytes;
  const std::uintptr_t b1 = b.address + address_span(b) * b.element_bytes;
  return a.address < b1 && b.address < a1;
}

template <class A, class B>
bool overlaps(const A& a, const B& b) {
  return overlaps(shape_of(a), shape_of(b));
}

inline void require_disjoint(const std::string& where, const ViewShape& in, const ViewShape& out) {
  if (overlaps(in, out))
    fail(where, "input " + extents_string(in) + " and output " + extents_string(out) +
                    " share memory; use the in-place call or separate views");
}

template <class A, class B>
void require_disjoint(const std::string& where, const A& in, const B& out) {
  require_disjoint(where, shape_of(in), shape_of(out));
}

/// a * b, throwing when the product does not fit in int64.
inline std::int64_t checked_mul(const std::string& where, std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) fail(where, "extent product overflows 64 bits");
  return r;
}

template <class Exec, class View>
constexpr void require_accessible() {
  static_assert(Kokkos::SpaceAccessibility<Exec, typename View::memory_space>::accessible,
                "tilekit: the view's memory space is not accessible from the execution space");
}

/// An out-of-place pair (transpose, permute): the output holds TOut (a
/// converting permute's) or T, the input T (const or not), both in one layout,
/// both accessible from Exec.
template <class Exec, class T, class InView, class OutView, class TOut = T>
constexpr void require_in_out_pair() {
  static_assert(std::is_same_v<typename OutView::value_type, TOut> &&
                    std::is_same_v<typename InView::non_const_value_type, T>,
                "tilekit: input and output value types differ from the plan's");
  static_assert(std::is_same_v<typename InView::array_layout, typename OutView::array_layout>,
                "tilekit: input and output must have the same layout");
  require_accessible<Exec, InView>();
  require_accessible<Exec, OutView>();
}

/// As require_in_out_pair, for the families that read strides (transpose):
/// the layouts may differ when either view is LayoutStride.
template <class Exec, class T, class InView, class OutView, class TOut = T>
constexpr void require_in_out_strided_pair() {
  static_assert(std::is_same_v<typename OutView::value_type, TOut> &&
                    std::is_same_v<typename InView::non_const_value_type, T>,
                "tilekit: input and output value types differ from the plan's");
  static_assert(std::is_same_v<typename InView::array_layout, typename OutView::array_layout> ||
                    is_stride_v<InView> || is_stride_v<OutView>,
                "tilekit: input and output must have the same layout (or either LayoutStride)");
  require_accessible<Exec, InView>();
  require_accessible<Exec, OutView>();
}

}  // namespace detail
}  // namespace tilekit
