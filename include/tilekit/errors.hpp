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

namespace tilekit {

/// Thrown for invalid arguments (extents, permutations, aliasing, layouts).
class invalid_argument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

namespace detail {

template <class View>
std::string extents_string(const View& v) {
  std::ostringstream s;
  s << '(';
  for (unsigned r = 0; r < View::rank(); ++r) s << (r ? ", " : "") << v.extent(r);
  s << ')';
  return s.str();
}

[[noreturn]] inline void fail(const std::string& where, const std::string& what) {
  throw invalid_argument(where + ": " + what);
}

template <class View>
constexpr bool is_right_or_left_v =
    std::is_same_v<typename View::array_layout, Kokkos::LayoutRight> ||
    std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>;

/// The view must be contiguous in memory (LayoutRight or LayoutLeft, no
/// padding, no stride): tilekit's kernels address it as one flat span.
template <class View>
void require_contiguous(const std::string& where, const char* name, const View& v) {
  static_assert(is_right_or_left_v<View>,
                "tilekit: views must be Kokkos::LayoutRight or Kokkos::LayoutLeft");
  if (v.size() > 0 && !v.span_is_contiguous())
    fail(where, std::string(name) + " with extents " + extents_string(v) +
                    " is not contiguous (padded allocation or subview)");
}

/// True when the memory of a and b overlaps.
template <class A, class B>
bool overlaps(const A& a, const B& b) {
  if (a.size() == 0 || b.size() == 0) return false;
  auto a0 = reinterpret_cast<std::uintptr_t>(a.data());
  auto b0 = reinterpret_cast<std::uintptr_t>(b.data());
  auto a1 = a0 + a.span() * sizeof(typename A::value_type);
  auto b1 = b0 + b.span() * sizeof(typename B::value_type);
  return a0 < b1 && b0 < a1;
}

template <class A, class B>
void require_disjoint(const std::string& where, const A& in, const B& out) {
  if (overlaps(in, out))
    fail(where, "input " + extents_string(in) + " and output " + extents_string(out) +
                    " share memory; use the in-place call or separate views");
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

/// An out-of-place pair (transpose, permute): the output holds T, the input T
/// (const or not), both in one layout, both accessible from Exec.
template <class Exec, class T, class InView, class OutView>
constexpr void require_in_out_pair() {
  static_assert(std::is_same_v<typename OutView::value_type, T> &&
                    std::is_same_v<typename InView::non_const_value_type, T>,
                "tilekit: input and output value types differ from the plan's");
  static_assert(std::is_same_v<typename InView::array_layout, typename OutView::array_layout>,
                "tilekit: input and output must have the same layout");
  require_accessible<Exec, InView>();
  require_accessible<Exec, OutView>();
}

}  // namespace detail
}  // namespace tilekit
