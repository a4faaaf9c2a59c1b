#pragma once
// Shared by the operation files: the row-major form of a permutation between
// two contiguous arrays of any orders (C or F), its strided form (views,
// windows, reversed axes), and the conversion of the Python scalars alpha
// and beta.
#include "bridge.hpp"
#include "spaces.hpp"

#include <array>
#include <complex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace tilekit::python {

/// A permutation of row-major memory, padded to rank 8 with leading extents
/// of 1 (which the plan fuses away): one view type per value type, whatever
/// the array's rank.
struct RowMajorProblem {
  std::array<std::size_t, max_rank> in{};   ///< input extents in memory order
  std::array<std::size_t, max_rank> out{};  ///< output extents in memory order
  std::vector<int> perm;                    ///< out memory dim m = in memory dim perm[m]
  int rank = 0;                             ///< before padding
  /// The unpadded permutation, e.g. {1, 0} for a transpose of C arrays.
  std::vector<int> core() const {
    std::vector<int> p;
    for (int m = max_rank - rank; m < max_rank; ++m) p.push_back(perm[m] - (max_rank - rank));
    return p;
  }
};

/// An F-ordered array is, in memory, the C-ordered array of the reversed
/// extents; so output memory dimension m is output axis Lout(m), which is
/// input axis axes[Lout(m)], which is input memory dimension Lin^-1 of that.
inline RowMajorProblem row_major(const Array& in, const Array& out, const std::vector<int>& axes) {
  const int r = in.ndim, pad = max_rank - r;
  auto mem_dim = [r](bool f, int axis) { return f ? r - 1 - axis : axis; };  // self-inverse
  RowMajorProblem p;
  p.rank = r;
  p.perm.resize(max_rank);
  for (int d = 0; d < max_rank; ++d) {
    p.in[d] = p.out[d] = 1;
    p.perm[d] = d;
  }
  for (int d = 0; d < r; ++d) p.in[pad + d] = static_cast<std::size_t>(in.shape[mem_dim(in.fortran, d)]);
  for (int m = 0; m < r; ++m) {
    const int src = mem_dim(in.fortran, axes[mem_dim(out.fortran, m)]);
    p.perm[pad + m] = pad + src;
    p.out[pad + m] = p.in[pad + src];
  }
  return p;
}

/// A permutation of strided arrays (either one strided): rank-8 LayoutStride
/// views, padded with leading extents of 1, every stride non-negative. The
/// kernels step forward through both arrays, so an input axis with a
/// negative stride (a reversed view, x[::-1]) is taken where the output axis
/// it goes to is reversed too: both flipped, the views start at the other
/// end (in_shift, out_shift elements from the arrays' data pointers).
struct StridedProblem {
  std::array<std::size_t, max_rank> in_n{}, in_s{}, out_n{}, out_s{};
  std::vector<int> perm;
  std::int64_t in_shift = 0, out_shift = 0;
};

inline StridedProblem strided_problem(const Array& in, const Array& out,
                                      const std::vector<int>& axes, const char* where) {
  const int r = in.ndim, pad = max_rank - r;
  StridedProblem p;
  p.perm.resize(max_rank);
  for (int d = 0; d < max_rank; ++d) {
    p.in_n[d] = p.out_n[d] = 1;
    p.in_s[d] = p.out_s[d] = 1;
    p.perm[d] = d;
  }
  for (int k = 0; k < r; ++k) {
    const int i = axes[k];  // out axis k is in axis i
    const std::int64_t n = in.shape[i];
    std::int64_t si = in.strides[i], so = out.strides[k];
    if (n > 1 && (si < 0) != (so < 0)) {
      const bool input_reversed = si < 0;
      throw std::invalid_argument(
          std::string("tilekit: ") + where + ": " + (input_reversed ? "the input" : "out") +
          " has a negative stride on axis " + std::to_string(input_reversed ? i : k) +
          " (a reversed view such as x[::-1]) and " + (input_reversed ? "out" : "the input") +
          " has a positive one on the axis it pairs with (" + std::to_string(input_reversed ? k : i) +
          "); tilekit's kernels step forward through both arrays, so they take a reversed axis "
          "only where both are reversed: pass a copy (numpy.ascontiguousarray(x), "
          "x.contiguous()) or reverse both");
    }
    if (n > 1 && si < 0) {
      p.in_shift += (n - 1) * si;
      p.out_shift += (n - 1) * so;
      si = -si;
      so = -so;
    }
    p.in_n[pad + i] = static_cast<std::size_t>(n);
    p.in_s[pad + i] = static_cast<std::size_t>(n > 1 ? si : 1);
    p.out_n[pad + k] = static_cast<std::size_t>(n);
    p.out_s[pad + k] = static_cast<std::size_t>(n > 1 ? so : 1);
    p.perm[pad + k] = pad + i;
  }
  return p;
}

/// alpha or beta as T (module.cpp has checked that it is representable).
template <class T>
T scalar_as(std::complex<double> z) {
  if constexpr (std::is_same_v<T, Kokkos::complex<float>> ||
                std::is_same_v<T, Kokkos::complex<double>>) {
    using R = typename T::value_type;
    return T(static_cast<R>(z.real()), static_cast<R>(z.imag()));
  } else {
    return static_cast<T>(z.real());
  }
}

/// Views of the module: unmanaged, row-major.
template <class T, class Exec, class Data = T>
using Unmanaged = Kokkos::View<Data, Kokkos::LayoutRight, typename Exec::memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// Permute plan over rank-8 row-major views (defined in permute.cpp).
std::unique_ptr<MovePlan> plan_row_major_permute(const Array& in, const Array& out,
                                                 const RowMajorProblem& p, bool scaled,
                                                 Stream stream);

}  // namespace tilekit::python
