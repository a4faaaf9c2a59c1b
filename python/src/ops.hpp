#pragma once
// Shared by the operation files: the row-major form of a permutation between
// two contiguous arrays of any orders (C or F), and the conversion of the
// Python scalars alpha and beta.
#include "bridge.hpp"
#include "spaces.hpp"

#include <array>
#include <complex>
#include <stdexcept>
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
                                                 const RowMajorProblem& p, Stream stream);

}  // namespace tilekit::python
