#pragma once
// The backends' data types and the primary Traits<ExecSpace> template, whose
// conservative host-like defaults let tilekit run (untuned) on a Kokkos
// backend without a specialisation. Each backend header specialises Traits
// (host.hpp, cuda.hpp); traits.hpp gathers them. Kernels are written once:
// what differs between backends is read from Traits<ExecSpace>.
#include <Kokkos_Core.hpp>
#include <tilekit/hardware_info.hpp>

#include <cstddef>
#include <vector>

namespace tilekit::backends {

/// Launch shape of a tiled kernel.
struct TileConfig {
  int tile = 16;      ///< tile edge in elements
  int team_rows = 1;  ///< team size: rows of a tile processed at once
  int vector = 1;     ///< vector length: columns of a tile processed at once
  int pad = 1;        ///< extra elements per scratch row (padded variants)
  int tiles_per_team = 1;  ///< tiles a team takes in turn
};

/// The permute's wider boxes (Traits::permute_wide_box, optional): where the
/// output's fastest fused dimension holds fewer than `below` elements and
/// the default box takes its offsets from tables, store runs of
/// `store_edges` tile edges, load runs of 1 / `load_div` edge, up to
/// `area_tiles` x tile^2 elements, teams `team` times the rows. A box that
/// does not fit the scratch or the staging keeps the default.
struct PermuteWideBox {
  int below = 0;  ///< 0: never
  int store_edges = 1, load_div = 1, area_tiles = 1, team = 1;
};

/// cmm launch shape: a tile is computed by team_rows (even) x team_cols work
/// items, each owning reg_rows rows of A x reg_cols column sets, from scratch
/// tiles of k_step columns of A and rows of B; tiles visited in groups of
/// `group` tile rows; `threads` per team (0: one per work item); reg_rows,
/// reg_cols and min_teams (a launch bound, teams per compute unit) are
/// compile-time.
struct CmmShape {
  int team_rows = 1, team_cols = 1;
  int reg_rows = 1, reg_cols = 1;
  int k_step = 16;
  int pad = 0;
  int group = 1;
  int threads = 0;
  int scratch_level = 0;
  int min_teams = 0;
};

/// Launch shape of the production reduce (docs/reduce.md); load_bytes,
/// loads, strided_bytes and locate_rows are compile-time. The league is
/// capped at league_pct % of the teams resident at full thread occupancy
/// (and, with fit_league, at the kernel's own resident teams:
/// Traits::compute_units). Interleaved contiguous views whose kernel loads a
/// round ahead take whole waves of that cap, one per cap x team_rounds rounds,
/// up to league_waves (default league only).
struct ReduceConfig {
  int team_rows = 1;    ///< team threads = team_rows x vector
  int vector = 1;
  int load_bytes = 32;  ///< bytes of one load of a work item
  int loads = 4;        ///< independent loads in flight per work item
  int league_pct = 100;
  bool fit_league = false;
  int strided_bytes = 0;    ///< strided views: bytes of a run per work item (0: one element)
  int locate_rows = 0;      ///< MinLoc/MaxLoc: rows folded by value, then located (0: both at once)
  bool interleave = false;  ///< contiguous views: rounds dealt to the teams in turn
  int team_rounds = 0;      ///< 0: the cap alone
  int league_waves = 1;
};

/// The in-place rectangular decomposition (docs/transpose_inplace.md): each
/// step moves lines (rows, or column blocks `line_bytes` wide) through a
/// buffer, in team scratch when a line fits `scratch_bytes`, else in one of
/// `slots` workspace slots; the blocked method's shuffle batches.
struct RectInplaceConfig {
  int line_bytes = 64;            ///< width of a column block
  int team_threads = 1;           ///< work items of a team
  int slots = 1;                  ///< workspace slots: teams in flight on workspace lines
  std::size_t scratch_bytes = 0;  ///< largest line buffer kept in team scratch
  std::size_t batch_bytes = std::size_t(32) << 20;  ///< blocked: workspace of a batch
  int shuffle_tiles_per_team = 0;  ///< blocked: shuffle team steps (0: the permute's)
};

/// Generic host description shared by host backends (backends/src).
HardwareInfo host_hardware(const char* space_name, int concurrency);

template <class ExecSpace>
struct Traits {
  static constexpr ReduceConfig reduce_config() { return {}; }
  /// Independent loads a work item issues before its first store.
  static constexpr int loads_in_flight = 1;
  /// Upper bound of the league size; teams loop over further tiles.
  static constexpr long max_league = 1L << 30;
  /// Registers per work item staging a tile (1: none).
  static constexpr int stage_registers = 1;
  static TileConfig transpose_tile(std::size_t) { return {16, 1, 1, 1}; }
  static TileConfig transpose_inplace_tile(std::size_t) { return {16, 1, 1, 1}; }
  static TileConfig permute_tile(std::size_t) { return {16, 1, 1, 1}; }
  static constexpr CmmShape cmm_shape(std::size_t, bool register_blocked) {
    return register_blocked ? CmmShape{8, 8, 4, 4, 64, 0, 4, 1, 1, 0}
                            : CmmShape{16, 16, 1, 1, 64, 0, 4, 1, 1, 0};
  }
  static RectInplaceConfig inplace_rect(const ExecSpace& exec) {
    return {256, 1, exec.concurrency(), 0, std::size_t(8) << 20, 0};
  }
  static constexpr int inplace_rect_columns_per_item = 64;
  static constexpr int inplace_rect_loads_in_flight = 4;
  /// Launch shapes tune.hpp tries: the defaults only.
  static std::vector<TileConfig> transpose_candidates(std::size_t e) { return {transpose_tile(e)}; }
  static std::vector<TileConfig> permute_candidates(std::size_t e) { return {permute_tile(e)}; }
  static HardwareInfo hardware(const ExecSpace& exec) {
    return host_hardware(ExecSpace::name(), exec.concurrency());
  }
};

}  // namespace tilekit::backends
