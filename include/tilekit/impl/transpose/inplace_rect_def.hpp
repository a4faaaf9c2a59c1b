#pragma once
// The definitions of the in-place rectangular transpose's members that plan
// and launch its steps (impl::RectInplaceTranspose, declared in
// inplace_rect.hpp): the library's compiled instances (cmake/TilekitETI.cmake) and programs
// using another (space, type) include them (impl/common/eti.hpp).
#include <tilekit/impl/transpose/inplace_rect.hpp>

namespace tilekit::impl {

template <class ExecSpace, class T>
RectInplaceTranspose<ExecSpace, T>::RectInplaceTranspose(const ExecSpace& exec, index_t rows,
                                                         index_t cols, std::string label,
                                                         Overrides o)
    : exec_(exec), label_(std::move(label)), rows_(rows), cols_(cols) {
  const index_t count = detail::checked_mul(label_, rows, cols);
  if (count >= max_elements)
    detail::fail(label_, "in-place transpose of " + std::to_string(count) +
                             " elements: at most 2^52 are supported");
  // Nothing moves for a single row or column.
  if (rows <= 1 || cols <= 1) return;
  // The grid's columns are the shorter side: M = min, N = max. A rows x
  // cols matrix with rows <= cols is transposed by the forward steps on its
  // own grid; otherwise the inverse steps, in reverse order, transpose the
  // cols x rows grid the memory also is.
  const bool forward = rows <= cols;
  grid_.M = forward ? rows : cols;
  grid_.N = forward ? cols : rows;
  const index_t c = std::gcd(grid_.M, grid_.N);
  grid_.by_M = Divisor(grid_.M);
  grid_.by_N = Divisor(grid_.N);
  grid_.by_b = Divisor(grid_.N / c);

  cfg_ = backends::Traits<ExecSpace>::inplace_rect(exec_);
  if (o.line_scratch >= 0) cfg_.scratch_bytes = static_cast<std::size_t>(o.line_scratch);
  if (o.slots < 0 || o.width < 0 || o.threads < 0)
    detail::fail(label_,
                 "slots, tile (block width) and team_rows must not be negative"
                 " (0: the backend's choice)");
  slots_ = o.slots;
  if (o.threads > 0) cfg_.team_threads = o.threads;
  if (o.width > 0) cfg_.line_bytes = o.width * static_cast<int>(sizeof(T));
  if (cfg_.team_threads < 1 || cfg_.line_bytes < 1 || cfg_.slots < 1)
    detail::fail(label_, "backend data: team_threads, line_bytes and slots must be positive");
  width_ = std::max<int>(1, cfg_.line_bytes / static_cast<int>(sizeof(T)));
  // Work items side by side along a block's rows: a power of two dividing
  // the team, at most the block's width.
  int lanes = 1;
  while (lanes * 2 <= width_ && cfg_.team_threads % (lanes * 2) == 0) lanes *= 2;
  width_ = std::min(width_, lanes * columns_per_item);
  walk_ = RectWalk::make(grid_, cfg_.team_threads, lanes);

  if (forward) {
    if (c > 1) add(RectMap::rotate, false, false);
    add(RectMap::rows, true, false);
    add(RectMap::columns, false, false);
  } else {
    add(RectMap::columns, true, false);
    add(RectMap::rows, false, false);
    if (c > 1) add(RectMap::rotate, false, true);
  }
  if (workspace_elements_ > 0)
    workspace_ = Kokkos::View<T*, typename ExecSpace::memory_space>(
        Kokkos::view_alloc(exec_, Kokkos::WithoutInitializing, label_ + "_workspace"),
        workspace_elements_);
  // Validate every launch shape now, not on first execution.
  for (int s = 0; s < nsteps_; ++s) launch(steps_[s], nullptr, true);
}

template <class ExecSpace, class T>
void RectInplaceTranspose<ExecSpace, T>::add(RectMap map, bool scatter, bool up) {
  Step s{map, scatter, up, false, 1, 0};
  const index_t lines = map == RectMap::rows ? grid_.M : (grid_.N + width_ - 1) / width_;
  s.buffer = map == RectMap::rows ? grid_.N : grid_.M * width_;
  const std::size_t bytes = static_cast<std::size_t>(s.buffer) * sizeof(T);
  const std::size_t smax = static_cast<std::size_t>(
      Kokkos::TeamPolicy<ExecSpace>(exec_, 1, 1, 1).scratch_size_max(0));
  s.in_scratch = bytes <= cfg_.scratch_bytes && bytes <= smax;
  if (s.in_scratch) {
    s.league = league_for(lines, backends::Traits<ExecSpace>::max_league);
  } else {
    // Slots: the caller's, or the backend's count within a quarter of the
    // matrix (one at least).
    const index_t quarter = grid_.M * grid_.N / 4 / s.buffer;
    const index_t slots =
        slots_ > 0 ? slots_ : std::max<index_t>(1, std::min<index_t>(cfg_.slots, quarter));
    s.league = static_cast<int>(std::min(lines, slots));
    workspace_elements_ =
        std::max<std::size_t>(workspace_elements_, static_cast<std::size_t>(s.league * s.buffer));
  }
  steps_[nsteps_++] = s;
}

template <class ExecSpace, class T>
template <RectMap Map>
void RectInplaceTranspose<ExecSpace, T>::launch_as(const Step& s, T* a, bool dry_run) const {
  using F = RectInplaceStep<ExecSpace, T, Map, columns_per_item,
                            backends::Traits<ExecSpace>::inplace_rect_loads_in_flight>;
  F f{a, workspace_.data(), grid_, walk_, s.buffer, width_, s.scatter, s.up, s.in_scratch};
  const bool rows = Map == RectMap::rows;
  backends::TileConfig c;
  c.team_rows = cfg_.team_threads;
  c.vector = 1;
  const std::size_t scratch =
      s.in_scratch ? ScratchArray<T, ExecSpace>::shmem_size(s.buffer) : 0;
  auto policy = team_policy(label_, exec_, f, s.league, c, scratch, /*flat=*/true);
  if (!dry_run) {
    const char* name = rows ? "_rows" : Map == RectMap::columns ? "_columns" : "_rotate";
    Kokkos::parallel_for(label_ + name, policy, f);
  }
}

template <class ExecSpace, class T>
void RectInplaceTranspose<ExecSpace, T>::launch(const Step& s, T* a, bool dry_run) const {
  switch (s.map) {
    case RectMap::rotate: launch_as<RectMap::rotate>(s, a, dry_run); break;
    case RectMap::rows: launch_as<RectMap::rows>(s, a, dry_run); break;
    case RectMap::columns: launch_as<RectMap::columns>(s, a, dry_run); break;
  }
}

}  // namespace tilekit::impl
