#pragma once
// The definitions of the checkered matrix multiplication plan's launching
// members (tilekit::CmmPlan, declared in dispatch.hpp): the library's compiled
// instances (cmake/TilekitETI.cmake) and programs using a plan the library does not hold
// include them (impl/common/eti.hpp).
#include <tilekit/impl/cmm/dispatch.hpp>

namespace tilekit {

template <class ExecSpace, class T>
void CmmPlan<ExecSpace, T>::launch(const T* a, const T* b, T* c, impl::Strides sa,
                                  impl::Strides sb, impl::Strides sc, bool dry_run) const {
  using impl::index_t;
  const index_t n = static_cast<index_t>(n_), half = n / 2;
  if (variant_ == CmmVariant::naive) {
    using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>;
    if (!dry_run)
      Kokkos::parallel_for(opts_.label + "_naive", Policy(exec_, 0, n * half),
                           impl::CmmNaive<T>{a, b, c, n, half, sa, sb, sc});
    return;
  }
  if (variant_ == CmmVariant::tiled) {
    constexpr backends::CmmShape s = backends::Traits<ExecSpace>::cmm_shape(sizeof(T), false);
    launch_tiled<1, 1, s>("_tiled", a, b, c, sa, sb, sc, dry_run);
  } else {
    constexpr backends::CmmShape s = backends::Traits<ExecSpace>::cmm_shape(sizeof(T), true);
    launch_tiled<s.reg_rows, s.reg_cols, s>("_blocked", a, b, c, sa, sb, sc, dry_run);
  }
}

template <class ExecSpace, class T>
template <int RI, int RJ, backends::CmmShape Def>
void CmmPlan<ExecSpace, T>::launch_tiled(const char* suffix, const T* a, const T* b, T* c,
                                        impl::Strides sa, impl::Strides sb, impl::Strides sc,
                                        bool dry_run) const {
  using impl::index_t;
  constexpr bool shared = Def.threads > 0;
  constexpr int max_threads = Def.min_teams <= 0 ? 0 : Def.team_rows * Def.team_cols;
  // Elements of A and B each thread stages per k step in the default shape,
  // held in registers up to the backend's staging budget (more: staged directly).
  constexpr int def_threads = shared ? Def.threads : Def.team_rows * Def.team_cols;
  constexpr int regs = backends::Traits<ExecSpace>::stage_registers;
  constexpr int PA = impl::stage_count(RI * Def.team_rows * Def.k_step, def_threads, regs);
  constexpr int PB = impl::stage_count(2 * RJ * Def.team_cols * Def.k_step, def_threads, regs);
  // One thread per work item (GPU): the default shape's scratch strides and
  // k step as compile-time constants of the k loop (used when the launch has them).
  constexpr auto def_lay = impl::CmmScratchLayout::make<T>(
      RI * Def.team_rows, RJ * Def.team_cols, Def.k_step, Def.pad, 0);
  using F = impl::CmmTiled<ExecSpace, T, RI, RJ, PA, PB, shared, Def.scratch_level,
                           shared ? 0 : def_lay.lda, shared ? 0 : def_lay.ldb,
                           shared ? 0 : Def.team_cols, shared ? 0 : Def.k_step>;
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<max_threads, Def.min_teams>>;
  const backends::CmmShape& s = shape_;
  const index_t n = static_cast<index_t>(n_), half = n / 2;
  const int tile_rows = RI * s.team_rows, tile_sets = RJ * s.team_cols;
  const int items = s.team_rows * s.team_cols, team = s.threads;
  if (!shared && team != items)
    detail::fail(where, "a team of " + std::to_string(team) + " threads for " +
                            std::to_string(s.team_rows) + " x " + std::to_string(s.team_cols) +
                            " work items: " + ExecSpace::name() +
                            " runs one work item per thread");
  const int sums = shared ? items * RI * RJ : 0;  // shared: every item's sums in scratch
  const auto lay = impl::CmmScratchLayout::make<T>(tile_rows, tile_sets, s.k_step, s.pad, sums);
  const index_t row_tiles = (n + tile_rows - 1) / tile_rows;
  const index_t set_tiles = (half + tile_sets - 1) / tile_sets;
  F f{a, b, c, n, half, sa, sb, sc, sa.row == 1 && n > 1, sb.row == 1 && n > 1,
      s.team_rows, s.team_cols, s.k_step, s.group, lay, row_tiles, set_tiles,
      row_tiles * set_tiles};
  const std::size_t scratch = lay.template bytes<T>();
  const std::string shape_str = std::to_string(s.team_rows) + " x " +
                                std::to_string(s.team_cols) + " work items on " +
                                std::to_string(team) + " threads";
  if (dry_run) {
    const std::size_t smax =
        static_cast<std::size_t>(Policy(exec_, 1, 1, 1).scratch_size_max(Def.scratch_level));
    if (scratch > smax)
      detail::fail(where, "scratch tiles of " + std::to_string(scratch) +
                              " bytes (team " + shape_str + ", k_step " +
                              std::to_string(s.k_step) + ") exceed the " + std::to_string(smax) +
                              " available per team on " + ExecSpace::name());
    const int tmax = Policy(exec_, 1, 1, 1)
                         .set_scratch_size(Def.scratch_level, Kokkos::PerTeam(scratch))
                         .team_size_max(f, Kokkos::ParallelForTag());
    if (team > tmax)
      detail::fail(where, "a team of " + shape_str + " exceeds the " + std::to_string(tmax) +
                              " threads allowed on " + ExecSpace::name());
    return;
  }
  const int league =
      impl::league_for(row_tiles * set_tiles, backends::Traits<ExecSpace>::max_league);
  Policy p(exec_, league, team, 1);
  p.set_scratch_size(Def.scratch_level, Kokkos::PerTeam(scratch));
  Kokkos::parallel_for(opts_.label + suffix, p, f);
}

}  // namespace tilekit
