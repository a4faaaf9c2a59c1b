#pragma once
// Launch helpers shared by every family's dispatch: the caller's launch-shape
// overrides and their resolution against the backend's, the checked team
// policy, the league size, the backend's compile-time staging counts and the
// layout test that maps LayoutLeft views onto the row-major kernels.
#include <tilekit/backends/traits.hpp>
#include <tilekit/errors.hpp>
#include <tilekit/impl/common/optional_traits.hpp>  // tiles_wanted, tile_rows
#include <tilekit/impl/common/tile_copy.hpp>        // index_t

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace tilekit {

/// Launch-shape overrides of the tiled families (transpose, permute); 0 (or
/// -1 for pad and align) keeps the backend's choice.
struct LaunchOptions {
  int tile = 0;       ///< tile edge in elements (the permute: run length of its tiles)
  int team_rows = 0;  ///< team size
  int vector = 0;     ///< vector length
  int pad = -1;       ///< scratch row padding
  int tiles_per_team = 0;  ///< tiles (team steps) each team takes in turn
  /// Staged tiles (GPUs): bytes of the store transaction that skewed tiles
  /// start every piece of an output row on, where the output's rows do not
  /// start on one (a power of two; 0: rectangular tiles always; -1: the
  /// backend's, Traits::transpose_store_sector).
  int align = -1;
};

}  // namespace tilekit

namespace tilekit::impl {

/// The backend's launch shape c with the caller's overrides o; `padded`
/// false drops the scratch padding. Throws for negative overrides or a tile
/// edge above max_edge.
inline backends::TileConfig resolve_tile(const std::string& where, const LaunchOptions& o,
                                         backends::TileConfig c, bool padded, int max_edge) {
  if (o.tile < 0 || o.team_rows < 0 || o.vector < 0 || o.tiles_per_team < 0)
    detail::fail(where,
                 "tile, team_rows, vector and tiles_per_team must not be negative"
                 " (0: the backend's choice)");
  if (o.tile > 0) c.tile = o.tile;
  if (o.team_rows > 0) c.team_rows = o.team_rows;
  if (o.vector > 0) c.vector = o.vector;
  if (o.pad >= 0) c.pad = o.pad;
  if (o.tiles_per_team > 0) c.tiles_per_team = o.tiles_per_team;
  if (!padded) c.pad = 0;
  if (c.tile > max_edge)
    detail::fail(where,
                 "tile edge " + std::to_string(c.tile) + " exceeds " + std::to_string(max_edge));
  return c;
}

/// Whether the caller gave any part of the launch shape (the backend's own
/// further choices apply only where none is given).
inline bool launch_given(const LaunchOptions& o) {
  return o.tile > 0 || o.team_rows > 0 || o.vector > 0 || o.pad >= 0 || o.tiles_per_team > 0;
}

/// The backend's tile edge for an m x n matrix on `threads` threads: halved
/// (not below 32) while the matrix would give a thread fewer than
/// Traits::tiles_per_thread tiles (tiles_wanted), where the backend sets it
/// (hosts, whose tiles are large); as it is elsewhere. Tiles of `rows` rows
/// (where 0 < rows < the edge) count as such, and a batch of `batch`
/// matrices has that many times the tiles of one.
template <class Exec>
int fit_tile(int tile, index_t m, index_t n, int threads, int rows = 0, index_t batch = 1) {
  const index_t want = tiles_wanted<Exec>(threads);
  auto tiles = [&](int t) {
    const index_t r = tile_rows(rows, t);
    return ((m + r - 1) / r) * ((n + t - 1) / t) * batch;
  };
  while (tile > 32 && tiles(tile) < want) tile /= 2;
  return tile;
}

/// League size for `work` independent items: capped, teams loop over the rest.
inline int league_for(index_t work, long max_league) {
  const index_t cap = max_league < 1 ? 1 : max_league;
  return static_cast<int>(work < 1 ? 1 : (work < cap ? work : cap));
}

/// The most team rows (of `vector` work items each) a team running f may have
/// with `scratch` bytes of level-0 scratch on exec (Kokkos' team_size_max: it
/// counts f's registers on a GPU).
template <class Exec, class... Props, class Functor>
int team_rows_max(const Exec& exec, const Functor& f, int vector, std::size_t scratch,
                  int level = 0) {
  return Kokkos::TeamPolicy<Exec, Props...>(exec, 1, 1, vector)
      .set_scratch_size(level, Kokkos::PerTeam(scratch))
      .team_size_max(f, Kokkos::ParallelForTag());
}

/// Team policy of team_rows x vector work items and `scratch` bytes of
/// scratch at `level` (0: the fast, small level; a kernel reads the level it
/// was launched with); `flat` launches them as one flat team (vector length
/// 1, consecutive ranks are consecutive GPU lanes) for the register-staged
/// moves. Props are further policy properties (launch bounds). Throws when
/// the space cannot launch it.
template <class Exec, class... Props, class Functor>
Kokkos::TeamPolicy<Exec, Props...> team_policy(const std::string& where, const Exec& exec,
                                               const Functor& f, int league,
                                               const backends::TileConfig& c,
                                               std::size_t scratch, bool flat = false,
                                               int level = 0) {
  using Policy = Kokkos::TeamPolicy<Exec, Props...>;
  const int team = flat ? c.team_rows * c.vector : c.team_rows;
  const int vector = flat ? 1 : c.vector;
  const int vmax = Policy::vector_length_max();
  if (vector > vmax)
    detail::fail(where, "vector length " + std::to_string(vector) + " exceeds " +
                            std::to_string(vmax) + " on " + Exec::name());
  Policy probe(exec, 1, 1, vector);
  const std::size_t smax = static_cast<std::size_t>(probe.scratch_size_max(level));
  if (scratch > smax)
    detail::fail(where, "scratch tile of " + std::to_string(scratch) + " bytes exceeds the " +
                            std::to_string(smax) + " available per team on " + Exec::name() +
                            "; use a smaller tile");
  const int tmax = team_rows_max<Exec, Props...>(exec, f, vector, scratch, level);
  if (team > tmax)
    detail::fail(where, "team of " + std::to_string(c.team_rows) + " x " +
                            std::to_string(c.vector) + " work items exceeds the " +
                            std::to_string(tmax * vector) + " that " + Exec::name() +
                            " can launch with this tile");
  Policy p(exec, league, team, vector);
  p.set_scratch_size(level, Kokkos::PerTeam(scratch));
  return p;
}

/// Calls fn(K, N): the backend's loads in flight and staging registers, for
/// the launch c (a flat team of team_rows x vector work items, each moving
/// its share of a tile x tile tile).
/// The kernel without staging registers (N = 1: tiles move through scratch
/// with K loads in flight) takes the teams staging cannot help or cannot
/// launch: a work item of fewer than K elements (the unstaged kernel has them
/// all in flight at once, and its fewer registers let more teams share a
/// compute unit; exactly K, as the default 32 x 32 tiles of 16-byte elements
/// with 128 work items have, stays staged: not measured unstaged), and teams
/// of more than Traits::staged_team_max work items (more than the staged
/// kernel's registers let a compute unit launch).
template <class Exec, class Fn>
void with_stage(const backends::TileConfig& c, Fn&& fn) {
  using Tr = backends::Traits<Exec>;
  using K = std::integral_constant<int, Tr::loads_in_flight>;
  if constexpr (Tr::stage_registers > 1) {
    const int team = c.team_rows * c.vector;
    const long per_item = (static_cast<long>(c.tile) * c.tile + team - 1) / team;
    if (team > Tr::staged_team_max || per_item < K::value) {
      fn(K{}, std::integral_constant<int, 1>{});
      return;
    }
  }
  fn(K{}, std::integral_constant<int, Tr::stage_registers>{});
}

/// Launch bounds of the kernel with_stage chose with N staging registers: the
/// fallback without staging (N = 1 where the backend stages) is compiled for
/// the backend's largest team, Traits::team_launch_max, so that its registers
/// let that team launch (its more numerous index registers otherwise cap a
/// Cuda block at 896 threads); none elsewhere.
template <class Exec, int N>
constexpr int stage_launch_max() {
  using Tr = backends::Traits<Exec>;
  if constexpr (Tr::stage_registers > 1 && N == 1) {
    if constexpr (requires { Tr::team_launch_max; }) return Tr::team_launch_max;
    else return 0;
  } else {
    return 0;
  }
}
template <class Exec, int N>
using StageBounds =
    Kokkos::LaunchBounds<stage_launch_max<Exec, N>(), (stage_launch_max<Exec, N>() > 0 ? 1 : 0)>;

/// Whether a view is column-major (the dispatches swap its extents).
template <class View>
constexpr bool is_left_v = std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>;

}  // namespace tilekit::impl
