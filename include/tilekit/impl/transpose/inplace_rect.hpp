#pragma once
// Dispatch of the in-place rectangular transpose: picks the grid and the
// steps of the decomposition, the line buffers (team scratch or workspace)
// and the team shapes from backends::Traits::inplace_rect, checks them once, and
// owns the workspace. InplaceTransposePlan (dispatch.hpp) hands it
// every matrix that is not square.
#include <tilekit/backends/traits.hpp>
#include <tilekit/errors.hpp>
#include <tilekit/impl/common/launch.hpp>
#include <tilekit/impl/common/eti.hpp>
#include <tilekit/impl/transpose/inplace_rect_kernels.hpp>  // the grid and its walk

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <numeric>
#include <string>

namespace tilekit::impl {

/// Transposes a rows x cols row-major matrix in place (giving cols x rows).
/// Workspace: none when every line fits in team scratch; otherwise one slot
/// per team in flight, at most max(slot, rows * cols / 4) elements, where a
/// slot is max(rows, cols) elements (a row of the grid) or min(rows, cols)
/// columns of `width` elements (a column block).
template <class ExecSpace, class T>
class RectInplaceTranspose {
 public:
  /// Matrices of 2^52 elements or more are rejected: the index maps divide in
  /// double precision (Divisor).
  static constexpr index_t max_elements = index_t(1) << 52;

  /// Overrides of the backend's data: line_scratch >= 0 its largest line
  /// buffer in team scratch (bytes; 0: every line in the workspace); slots,
  /// width (columns of a block) and threads (work items of a team) when > 0.
  struct Overrides {
    long line_scratch = -1;
    int slots = 0, width = 0, threads = 0;
  };

  RectInplaceTranspose(const ExecSpace& exec, index_t rows, index_t cols, std::string label,
                       Overrides o = {});

  void execute(T* a) const {
    for (int s = 0; s < nsteps_; ++s) launch(steps_[s], a, false);
  }

  std::size_t workspace_bytes() const { return workspace_elements_ * sizeof(T); }
  /// Steps launched per execution (0 for a single row or column).
  int steps() const { return nsteps_; }

 private:
  struct Step {
    RectMap map;
    bool scatter, up, in_scratch;
    int league;
    index_t buffer;  ///< elements of one line's buffer
  };

  /// Appends a step of `map` (its buffers: team scratch or workspace slots).
  void add(RectMap map, bool scatter, bool up);
  template <RectMap Map>
  void launch_as(const Step& s, T* a, bool dry_run) const;
  void launch(const Step& s, T* a, bool dry_run) const;

  ExecSpace exec_;
  std::string label_;
  index_t rows_, cols_;
  RectGrid grid_{};
  backends::RectInplaceConfig cfg_{};
  static constexpr int columns_per_item =
      backends::Traits<ExecSpace>::inplace_rect_columns_per_item;
  int width_ = 1, slots_ = 0;
  RectWalk walk_{};
  std::array<Step, 3> steps_{};
  int nsteps_ = 0;
  std::size_t workspace_elements_ = 0;
  Kokkos::View<T*, typename ExecSpace::memory_space> workspace_;
};

}  // namespace tilekit::impl

// The library's compiled pairs (impl/common/eti.hpp; cmake/TilekitETI.cmake).
#define TILEKIT_ETI_RECT_INPLACE(E, T) \
  extern template class tilekit::impl::RectInplaceTranspose<E, T>;
TILEKIT_ETI_FOR_EACH_TRANSPOSE_PAIR(TILEKIT_ETI_RECT_INPLACE)
#undef TILEKIT_ETI_RECT_INPLACE
