#pragma once
// The out-of-place 2-D transpose's plan: resolves the launch shape from the
// backend traits (or the caller's overrides), checks it against the space's
// limits, and launches the chosen kernel on the caller's execution space.
// Also the transposes' variants and options, which the in-place plans
// (dispatch.hpp) share. The permute's plan runs its pure-move 2-D
// transpositions through this one where the backend says so.
#include <tilekit/backends/traits.hpp>
#include <tilekit/errors.hpp>
#include <tilekit/impl/common/launch.hpp>
#include <tilekit/impl/permute/matrix_kernels.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace tilekit {

/// Out-of-place variants (seed 002 / 004): see docs and README.
enum class TransposeVariant { naive, tiled, tiled_padded };
/// In-place variants (docs/transpose_inplace.md): naive and blocked for square
/// matrices (seed 000); blocked also for a matrix that is not square whose
/// extents share a divisor of 16 or more (square blocks, then a shuffle of
/// their rows through a workspace); decomposed for any shape. Any other
/// matrix that is not square takes decomposed.
enum class InplaceVariant { naive, blocked, decomposed };

/// Launch-shape overrides; 0 (or -1 for pad) keeps the backend default.
struct TransposeOptions {
  int tile = 0;       ///< tile edge in elements
  int team_rows = 0;  ///< team size
  int vector = 0;     ///< vector length
  int pad = -1;       ///< scratch row padding of the padded/in-place variants
  int tiles_per_team = 0;  ///< tiles each team takes in turn
  /// Tiled kernel, on spaces that stage tiles in registers (GPUs): bytes of
  /// the store transaction that skewed tiles start every piece of an output
  /// row on, where the output's rows do not start on one (a power of two; 0:
  /// rectangular tiles always; -1: the backend's, Traits::transpose_store_sector).
  int align = -1;
  /// In-place decomposed: largest line buffer (bytes) kept in team scratch,
  /// longer lines go through the workspace; 0 sends every line there; -1 keeps
  /// the backend's (backends::RectInplaceTraits).
  long line_scratch = -1;
  /// In-place decomposed: workspace slots (teams in flight on workspace
  /// lines); 0 keeps the backend's. There `tile` is the width of a column
  /// block (elements) and `team_rows` the work items of a (flat) team.
  int slots = 0;
  /// In-place blocked on a matrix that is not square: bound on the shuffle's
  /// workspace in bytes (whole batch columns, one at least); -1 keeps the
  /// backend's (backends::RectInplaceConfig::batch_bytes, within a quarter of
  /// the matrix). There `tile`, `team_rows`, `pad` and `tiles_per_team` shape
  /// the square pass as they do for a square matrix.
  long workspace = -1;
  std::string label = "tilekit::transpose";  ///< prefix of the kernel labels
};

constexpr std::string_view to_string(TransposeVariant v) {
  switch (v) {
    case TransposeVariant::naive: return "naive";
    case TransposeVariant::tiled: return "tiled";
    case TransposeVariant::tiled_padded: return "tiled_padded";
  }
  return "?";
}
constexpr std::string_view to_string(InplaceVariant v) {
  switch (v) {
    case InplaceVariant::naive: return "inplace_naive";
    case InplaceVariant::blocked: return "inplace_blocked";
    case InplaceVariant::decomposed: return "inplace_decomposed";
  }
  return "?";
}

namespace impl {

/// Resolved launch shape for one execution space and element size.
template <class Exec>
backends::TileConfig resolve_tile(const std::string& where, const TransposeOptions& o,
                                  backends::TileConfig c, bool padded, int max_edge = 1024) {
  if (o.tile > 0) c.tile = o.tile;
  if (o.team_rows > 0) c.team_rows = o.team_rows;
  if (o.vector > 0) c.vector = o.vector;
  if (o.pad >= 0) c.pad = o.pad;
  if (o.tiles_per_team > 0) c.tiles_per_team = o.tiles_per_team;
  if (!padded) c.pad = 0;
  if (o.tile < 0 || o.team_rows < 0 || o.vector < 0 || o.tiles_per_team < 0)
    detail::fail(where,
                 "tile, team_rows, vector and tiles_per_team must not be negative"
                 " (0: the backend's choice)");
  if (c.tile > max_edge)
    detail::fail(where,
                 "tile edge " + std::to_string(c.tile) + " exceeds " + std::to_string(max_edge));
  return c;
}

/// The backend's out-of-place tile edge for an m x n matrix on `threads`
/// threads: halved (not below 32) while the matrix would give a thread
/// fewer than Traits::tiles_per_thread tiles (tiles_wanted), where the
/// backend sets it (hosts, whose tiles are large); as it is elsewhere.
/// Tiles of `rows` rows (where 0 < rows < the edge) count as such, and a
/// batch of `batch` matrices has that many times the tiles of one.
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

/// The addressing of one out-of-place transpose (docs/strided.md), in the
/// frame the kernels use: element (i, j), i < m, j < n, is read from
/// in[i * si0 + j * si1] and written to out[j * so0 + i * so1]. `tiled` when
/// both unit strides are innermost (si1 == so1 == 1): the tiled kernels then
/// take ld_in = si0, ld_out = so0 (contiguous: n and m).
struct TransposeGeom {
  index_t m = 0, n = 0, si0 = 0, si1 = 0, so0 = 0, so1 = 0;
  bool tiled = false;
};

/// in (R x C) strides (a, b), out (C x R) strides (c, d). The row-major frame
/// is (m, n) = (R, C); the column-major one (m, n) = (C, R) with the strides
/// swapped. Strides of extent-1 dimensions do not matter and are normalised.
inline TransposeGeom transpose_geom(index_t R, index_t C, index_t a, index_t b, index_t c,
                                    index_t d) {
  auto frame = [](index_t m, index_t n, index_t si0, index_t si1, index_t so0, index_t so1) {
    if (n <= 1) si1 = 1, so0 = m;
    if (m <= 1) si0 = n, so1 = 1;
    TransposeGeom g{m, n, si0, si1, so0, so1, false};
    g.tiled = si1 == 1 && so1 == 1;
    return g;
  };
  const TransposeGeom right = frame(R, C, a, b, c, d);
  if (right.tiled) return right;
  const TransposeGeom left = frame(C, R, b, a, d, c);
  if (left.tiled) return left;
  return left.si1 == 1 ? left : right;  // naive: keep the reads unit-stride if any
}

/// A batch of matrices transposed by one launch (the permute's batched 2-D
/// transpositions): `count` matrices, matrix b at in + b si and out + b so
/// (element strides); one matrix: count 1.
struct TransposeBatch {
  index_t count = 1, si = 0, so = 0;
};

template <class InView, class OutView>
TransposeGeom transpose_geom(const InView& in, const OutView& out) {
  auto st = [](const auto& v, int r) { return static_cast<index_t>(v.stride(r)); };
  return transpose_geom(static_cast<index_t>(in.extent(0)), static_cast<index_t>(in.extent(1)),
                        st(in, 0), st(in, 1), st(out, 0), st(out, 1));
}

}  // namespace impl

template <class ExecSpace, class T, class TOut, bool Conjugate>
class PermutePlan;

/// Out-of-place transpose plan: out = in^T for 2-D views of one layout, or
/// either LayoutStride (docs/strided.md). Validates once; execute() re-checks
/// the extents and strides of the views it is given.
template <class ExecSpace, class T>
class TransposePlan {
 public:
  using value_type = T;

  template <class InView, class OutView>
  TransposePlan(const ExecSpace& exec, const InView& in, const OutView& out,
                TransposeVariant variant = TransposeVariant::tiled_padded,
                TransposeOptions opts = {})
      : TransposePlan(exec, in, out, variant, std::move(opts), impl::TransposeBatch{}) {}

  template <class InView, class OutView>
  void execute(const InView& in, const OutView& out) const {
    check(in, out);
    launch(impl::transpose_geom(in, out), in.data(), out.data(), false);
  }

  TransposeVariant variant() const { return variant_; }
  /// True when the planned views take the tiled kernels (variant tiled or
  /// tiled_padded, and both views have a unit stride in the same dimension
  /// order: contiguous, or windows with a leading dimension); otherwise the
  /// strided element kernel runs.
  bool tiled() const { return variant_ != TransposeVariant::naive && geom_.tiled; }
  /// True when the planned matrix is thin (a side of at most the backend's
  /// transpose_thin_bytes, e.g. 2 x N or N x 8 floats on every backend here):
  /// a tiled variant then runs the thin kernel (impl::TransposeThin), since a
  /// tile would be a sliver of a few rows.
  bool thin() const { return tiled() && thin(geom_); }
  const backends::TileConfig& config() const { return config_; }
  /// Elements per store transaction of the skewed tiles the planned views
  /// take (TransposeOptions::align), or 0: rectangular tiles (or no tiles).
  int skew() const { return skew_; }
  /// Input rows of the tiles of the tiled kernels (the tile edge where they
  /// are square): TransposeTiled's ti without a skew.
  int tile_rows() const { return impl::tile_rows(host_transpose_rows(), config_.tile); }

 private:
  /// The permute's transpose method runs its fused 2-D problem (or a batch
  /// of them) through a plan of its own, at the addresses of the views it
  /// checked itself.
  template <class, class, class, bool>
  friend class PermutePlan;
  /// The planned geometry's kernel on other addresses (no checks: the caller
  /// checked views of the planned extents and strides).
  void launch_planned(const T* in, T* out) const { launch(geom_, in, out, false); }

  /// A plan for a batch of matrices (impl::TransposeBatch): in and out are
  /// the first matrix's views; the tiled kernels only (the permute's
  /// batched transpositions, whose views have unit inner strides).
  template <class InView, class OutView>
  TransposePlan(const ExecSpace& exec, const InView& in, const OutView& out,
                TransposeVariant variant, TransposeOptions opts, impl::TransposeBatch batch)
      : exec_(exec), variant_(variant), opts_(std::move(opts)),
        rows_(in.extent(0)), cols_(in.extent(1)), batch_(batch) {
    check(in, out);
    geom_ = impl::transpose_geom(in, out);
    if (batch_.count != 1 && (variant_ == TransposeVariant::naive || !geom_.tiled))
      detail::fail(where(), "a batch of matrices takes the tiled kernels: unit inner strides");
    config_ = impl::resolve_tile<ExecSpace>(
        where(), opts_, backends::Traits<ExecSpace>::transpose_tile(sizeof(T)),
        variant_ == TransposeVariant::tiled_padded, /*max_edge=*/8192);
    if (opts_.tile <= 0)
      config_.tile = impl::fit_tile<ExecSpace>(config_.tile, geom_.m, geom_.n, exec_.concurrency(),
                                               host_transpose_rows(), batch_.count);
    detail::require_align(where(), opts_.align);
    if (variant_ != TransposeVariant::naive) {
      // Validate the launch shape now, not on first execution.
      skew_ = launch(geom_, in.data(), out.data(), /*dry_run=*/true);
    }
  }

  std::string where() const { return opts_.label; }
  /// The backend's tile rows where its tiles take the host path
  /// (impl::host_transpose_rows); 0: square tiles.
  int host_transpose_rows() const { return impl::host_transpose_rows<ExecSpace, T>(config_); }

  /// (A batch takes the tiled kernel whatever its matrices' sides.)
  bool thin(const impl::TransposeGeom& g) const {
    constexpr int bytes = impl::transpose_thin_bytes<ExecSpace>();
    const auto side = static_cast<std::size_t>(std::min(g.m, g.n));
    return bytes > 0 && g.tiled && batch_.count == 1 &&
           side * sizeof(T) <= static_cast<std::size_t>(bytes);
  }

  template <class InView, class OutView>
  void check(const InView& in, const OutView& out) const {
    static_assert(InView::rank() == 2 && OutView::rank() == 2,
                  "tilekit::transpose: views must be rank 2");
    detail::require_in_out_strided_pair<ExecSpace, T, InView, OutView>();
    const std::string w = where();
    if (in.extent(0) != rows_ || in.extent(1) != cols_)
      detail::fail(w, "input extents " + detail::extents_string(in) +
                          " differ from the planned (" + std::to_string(rows_) + ", " +
                          std::to_string(cols_) + ")");
    if (out.extent(0) != in.extent(1) || out.extent(1) != in.extent(0))
      detail::fail(w, "output extents " + detail::extents_string(out) +
                          " must be the transposed input extents (" +
                          std::to_string(in.extent(1)) + ", " + std::to_string(in.extent(0)) +
                          ")");
    detail::require_strided(w, "input", in);
    detail::require_strided(w, "output", out);
    detail::require_disjoint(w, in, out);
    detail::checked_mul(w, static_cast<std::int64_t>(rows_), static_cast<std::int64_t>(cols_));
  }

  /// The thin kernel through team scratch (impl::TransposeThinStaged): the
  /// input is the wide array (m rows of n), the output the narrow one (n
  /// rows of m).
  void launch_thin_staged(const impl::TransposeGeom& g, const T* in, T* out, bool dry_run) const {
    using impl::index_t;
    using Traits = backends::Traits<ExecSpace>;
    using F = impl::TransposeThinStaged<ExecSpace, T, Traits::loads_in_flight,
                                        impl::transpose_thin_store_bytes<ExecSpace>()>;
    constexpr index_t chunk = impl::transpose_thin_chunk<ExecSpace>();
    constexpr int team = impl::transpose_thin_team<ExecSpace>();
    const index_t chunks = (g.n + chunk - 1) / chunk;
    const std::size_t scratch = F::scratch_bytes(static_cast<int>(g.m), chunk);
    F f{in, out, g.n, g.si0, g.so0, static_cast<int>(g.m), chunk, chunks, 1};
    // The backend's team (else the plan's), or as many work items as the
    // space launches with this kernel's registers.
    backends::TileConfig c = config_;
    c.team_rows = std::min(team > 0 ? team : config_.team_rows * config_.vector,
                           impl::team_rows_max(exec_, f, 1, scratch));
    c.vector = 1;
    f.threads = c.team_rows;
    auto policy = impl::team_policy<ExecSpace>(
        where(), exec_, f, impl::league_for(chunks, Traits::max_league), c, scratch,
        /*flat=*/true);
    if (!dry_run) Kokkos::parallel_for(opts_.label + "_thin", policy, f);
  }

  /// Elements per store transaction S where the tiled kernel skews its tiles
  /// (TransposeTiled): a transaction of align bytes holds S > 1 elements,
  /// tiles are staged in registers (N > 1, the whole tile within N per work
  /// item) and hold more than S - 1 rows besides their pieces, and the
  /// output's rows do not all start on a transaction (`at`: the output's
  /// address in elements; a batch's matrices: their strides too); else 0.
  template <int N>
  int skew_for(const impl::TransposeGeom& g, impl::index_t at) const {
    const int S = impl::skew_elements<ExecSpace>(opts_.align, sizeof(T));
    const int tile = config_.tile, nt = config_.team_rows * config_.vector;
    if (N <= 1 || S <= 1 || !impl::stage_fits(N, tile, tile, nt) || tile - S + 1 < S) return 0;
    return g.so0 % S != 0 || at % S != 0 || batch_.so % S != 0 ? S : 0;
  }

  /// Launches the kernel for g (dry_run: checks its launch shape only);
  /// returns the skew of its tiles (skew_for), 0 for other kernels.
  int launch(const impl::TransposeGeom& g, const T* in, T* out, bool dry_run) const {
    using impl::index_t;
    const index_t m = g.m, n = g.n;
    if (!dry_run && m * n == 0) return 0;
    const std::string w = where();
    if (variant_ == TransposeVariant::naive || !g.tiled) {
      if (dry_run) return 0;
      using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<index_t>>;
      Kokkos::parallel_for(
          opts_.label + (variant_ == TransposeVariant::naive ? "_naive" : "_strided"),
          Policy(exec_, {0, 0}, {m, n}),
          impl::TransposeNaive<T>{in, out, g.si0, g.si1, g.so0, g.so1});
      return 0;
    }
    if (thin(g)) {
      // One side of at most transpose_thin_bytes: the long side is the work
      // items, the thin side each one's loop (TransposeThin), or chunks of
      // the long side through team scratch (TransposeThinStaged).
      const bool rows_thin = m <= n;
      const index_t q = rows_thin ? n : m;
      const std::size_t thin_bytes = static_cast<std::size_t>(rows_thin ? m : n) * sizeof(T);
      if (impl::transpose_thin_staged<ExecSpace>(rows_thin, thin_bytes)) {
        if constexpr (impl::transpose_thin_chunk<ExecSpace>() > 0)
          launch_thin_staged(g, in, out, dry_run);
        return 0;
      }
      if (dry_run) return 0;
      // rows thin: (i, j) = (r, q); columns thin: (i, j) = (q, r). Element
      // (i, j) is in[i * si0 + j] and out[j * so0 + i]. A work item loads
      // batches of R elements (the backend's transpose_thin_batch_bytes), or
      // of a quarter of that where the side is that short: R registers would
      // cost the sides that keep only a few loads in flight their occupancy
      // (H100, 2^25 x 2 floats: 80.1% of copy with registers for 16, 93.3%
      // with 4).
      constexpr int R =
          std::max(1, impl::transpose_thin_batch_bytes<ExecSpace>() / int(sizeof(T)));
      auto run = [&](auto batch) {
        using F = impl::TransposeThin<T, decltype(batch)::value>;
        F f = rows_thin ? F{in, out, 1, g.si0, g.so0, 1, static_cast<int>(m)}
                        : F{in, out, g.si0, 1, 1, g.so0, static_cast<int>(n)};
        Kokkos::parallel_for(
            opts_.label + "_thin",
            Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(exec_, 0, q), f);
      };
      if constexpr (R >= 4) {
        if ((rows_thin ? m : n) <= R / 4) {
          run(std::integral_constant<int, R / 4>{});
          return 0;
        }
      }
      run(std::integral_constant<int, R>{});
      return 0;
    }
    int skewed = 0;
    impl::with_stage<ExecSpace>(config_, [&](auto K, auto N) {
      using F = impl::TransposeTiled<ExecSpace, T, decltype(K)::value, decltype(N)::value>;
      const int tile = config_.tile;
      const auto at = static_cast<index_t>(reinterpret_cast<std::uintptr_t>(out) / sizeof(T));
      const int S = skewed = skew_for<decltype(N)::value>(g, at);
      const int ti = S > 1 ? F::skew_rows(tile, S) : tile_rows();
      // The host path keeps its tile transposed in scratch: `tile` rows of ti.
      const int ld = (F::B > 0 ? ti : tile) + config_.pad;
      const index_t tpr = (n + tile - 1) / tile;
      const index_t mtiles = F::tiles(m, n, tile, ti, S), ntiles = mtiles * batch_.count;
      F f{in, out, m, n, g.si0, g.so0, tile, ld, tpr, ntiles, S, ti, S > 1 ? at % S : 0,
          batch_.count != 1 ? mtiles : 0, batch_.si, batch_.so};
      const index_t teams = (ntiles + config_.tiles_per_team - 1) / config_.tiles_per_team;
      auto policy = impl::team_policy<ExecSpace, impl::StageBounds<ExecSpace, decltype(N)::value>>(
          w, exec_, f, impl::league_for(teams, backends::Traits<ExecSpace>::max_league),
          config_, F::scratch_bytes(tile, ld), /*flat=*/true,
          impl::tile_scratch_level<ExecSpace>());
      if (!dry_run) Kokkos::parallel_for(opts_.label + "_tiled", policy, f);
    });
    return skewed;
  }

  ExecSpace exec_;
  TransposeVariant variant_;
  TransposeOptions opts_;
  std::size_t rows_, cols_;
  impl::TransposeBatch batch_{};
  impl::TransposeGeom geom_{};
  backends::TileConfig config_{};
  int skew_ = 0;
};

template <class E, class I, class O>
TransposePlan(const E&, const I&, const O&) -> TransposePlan<E, typename O::non_const_value_type>;
template <class E, class I, class O>
TransposePlan(const E&, const I&, const O&, TransposeVariant)
    -> TransposePlan<E, typename O::non_const_value_type>;
template <class E, class I, class O>
TransposePlan(const E&, const I&, const O&, TransposeVariant, TransposeOptions)
    -> TransposePlan<E, typename O::non_const_value_type>;

}  // namespace tilekit
