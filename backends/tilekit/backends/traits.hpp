#pragma once
// Per-execution-space tuning data. Kernels are written once; everything that
// differs between backends (tile edge, team shape, vector length, padding,
// loads in flight per work item) is read from Traits<ExecSpace>.
//
// The primary template holds conservative host-like defaults, so tilekit also
// runs (untuned) on Kokkos backends without a specialisation below.
#include <Kokkos_Core.hpp>
#include <tilekit/hardware_info.hpp>

#include <cstddef>
#include <vector>

namespace tilekit::backends {

/// Tile and launch shape of a 2-D tiled kernel.
struct TileConfig {
  int tile = 16;      ///< tile edge in elements (tiles are tile x tile)
  int team_rows = 1;  ///< team size: rows of a tile processed at once
  int vector = 1;     ///< vector length: columns of a tile processed at once
  int pad = 1;        ///< extra elements per scratch row in the padded variant
  int tiles_per_team = 1;  ///< tiles a team takes in turn (transpose: the league is ntiles / this)
};

/// Wider boxes for the permute's tiled kernel (Traits::permute_wide_box,
/// optional; PermutePlan): where the output's fastest fused dimension holds
/// fewer than `below` elements and the default box's offsets come from tables
/// (small dimensions joined into its runs), the plan asks for store runs of
/// `store_edges` tile edges and load runs of 1 / `load_div` edge, in a box of
/// up to `area_tiles` x tile^2 elements, moved by teams of `team` times the
/// rows (so that a work item still stages the box in its registers). A box
/// that does not fit the scratch or the staging keeps the default.
struct PermuteWideBox {
  int below = 0;  ///< 0: never
  int store_edges = 1, load_div = 1, area_tiles = 1, team = 1;
};

/// Launch shape of the checkered matrix multiplication kernels (cmm): a tile
/// is computed by team_rows (even) x team_cols work items, each owning reg_rows
/// rows of A of one parity x reg_cols column sets, from scratch tiles that stage
/// k_step columns of A and rows of B at a time; tiles are visited in groups of
/// `group` tile rows. A team has `threads` threads (vector length 1; 0 = one per
/// work item); with fewer, each thread runs several work items and keeps their
/// sums in scratch between k steps. reg_rows, reg_cols and min_teams (teams
/// resident per compute unit, a launch bound; 0 = none) are compile-time.
struct CmmShape {
  int team_rows = 1, team_cols = 1;
  int reg_rows = 1, reg_cols = 1;
  int k_step = 16;
  int pad = 0;  ///< extra elements per scratch row
  int group = 1;
  int threads = 0;
  int scratch_level = 0;  ///< Kokkos scratch level of the tiles
  int min_teams = 0;
};

/// Generic host description shared by host backends (defined in backends/src).
HardwareInfo host_hardware(const char* space_name, int concurrency);

/// Launch shape of the reduce family (docs/reduce.md). load_bytes and loads are
/// compile-time in the production kernel; the rest may be overridden per call.
struct ReduceConfig {
  int team_rows = 1;       ///< team size (team threads = team_rows x vector)
  int vector = 1;          ///< vector length
  int load_bytes = 32;     ///< production: bytes of one load of a work item
  int loads = 4;           ///< production: independent loads in flight per work item
  /// production: league cap in % of concurrency / team threads (the teams that
  /// are resident at once at full thread occupancy; 100 = one such wave)
  int league_pct = 100;
  /// production: also cap the league at the teams of this kernel that a
  /// compute unit holds at once (Kokkos' team_size_max for the kernel, which
  /// counts its registers), so that register-heavy operations (the compensated
  /// sum, min/max with the index) still run in one resident wave; a space
  /// that sets it provides Traits::compute_units(exec)
  bool fit_league = false;
  /// production, strided views (ReduceStridedKernel): bytes of consecutive
  /// elements of a run that a work item takes from each row (0: one element,
  /// lanes of a team on consecutive elements, as a GPU warp wants; a one-thread
  /// CPU team takes a vector's worth, so that it walks runs in contiguous
  /// blocks the compiler vectorises). Compile-time.
  int strided_bytes = 0;
  /// production MinLoc/MaxLoc, contiguous views: 0 folds value and index of
  /// every element (GPUs: the index costs registers, not bandwidth); R > 0
  /// takes R rows of a work item at a time, first their min/max per
  /// accumulator with the plain Min/Max fold (which a CPU vectorises: no
  /// index per element), then the index only in the accumulators whose value
  /// that improves, by a second look at those rows (in cache). A multiple of
  /// `loads`; compile-time.
  int locate_rows = 0;
  /// production, contiguous views (the default of ReduceOptions::split): team
  /// t of L takes the rounds of `loads` rows t, t + L, t + 2L, ... (the league
  /// reads one window of the input that moves through it) instead of one
  /// contiguous share of rows. MinLoc/MaxLoc take contiguous shares unless the
  /// caller asks (and always where locate_rows > 0).
  bool interleave = false;
  /// production, interleaved contiguous views of kernels that load a round
  /// ahead (ReduceKernel::Ahead), default league only: whole waves of the
  /// cap's teams, one for every cap x `team_rounds` rounds, up to
  /// `league_waves` of them (0: the cap alone). With more teams than run at
  /// once, the resident ones read rounds a league apart.
  int team_rounds = 0;
  int league_waves = 1;
};

template <class ExecSpace>
struct Traits {
  /// reduce: a one-thread team loads 32 bytes at a time, four loads in flight.
  static constexpr ReduceConfig reduce_config() { return {}; }
  /// Independent loads each work item issues before its first store (compile-time,
  /// so the values stay in registers).
  static constexpr int loads_in_flight = 1;
  /// Upper bound of the league size; teams loop over further tiles.
  static constexpr long max_league = 1L << 30;
  /// Registers per work item that stage a tile between global and scratch
  /// memory (compile-time; 1 = no staging: one-thread teams stream rows).
  static constexpr int stage_registers = 1;
  static TileConfig transpose_tile(std::size_t /*elem_bytes*/) { return {16, 1, 1, 1}; }
  static TileConfig transpose_inplace_tile(std::size_t /*elem_bytes*/) { return {16, 1, 1, 1}; }
  /// permute: edge of the tiled kernel's tile (and width of the rows kernel's
  /// pieces), team shape and scratch padding for elements of elem_bytes.
  static TileConfig permute_tile(std::size_t /*elem_bytes*/) { return {16, 1, 1, 1}; }
  /// cmm launch shape of the tiled (register_blocked = false) or blocked variant.
  static constexpr CmmShape cmm_shape(std::size_t /*elem_bytes*/, bool register_blocked) {
    return register_blocked ? CmmShape{8, 8, 4, 4, 64, 0, 4, 1, 1, 0}
                            : CmmShape{16, 16, 1, 1, 64, 0, 4, 1, 1, 0};
  }
  /// Launch shapes tune_transpose / tune_permute try (tune.hpp): the defaults only.
  static std::vector<TileConfig> transpose_candidates(std::size_t e) { return {transpose_tile(e)}; }
  static std::vector<TileConfig> permute_candidates(std::size_t e) { return {permute_tile(e)}; }
  static HardwareInfo hardware(const ExecSpace& exec) {
    return host_hardware(ExecSpace::name(), exec.concurrency());
  }
};

}  // namespace tilekit::backends

#include <tilekit/backends/serial.hpp>
#include <tilekit/backends/openmp.hpp>
#include <tilekit/backends/cuda.hpp>
