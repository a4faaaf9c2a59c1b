#pragma once
// The 2-D transposition engine: one out-of-place matrix transpose (or a batch
// of them in one launch) at a resolved launch shape, on the kernels of
// matrix_kernels.hpp. A transposition is the permute {1, 0}: the permute's
// plan runs its fused 2-D problems through this engine where the backend
// says so (Traits::permute_2d_by_transpose), and the transpose family's
// TransposePlan (impl/transpose/plan.hpp) is this engine behind the checks of
// its public call. It checks no views: its callers do.
#include <tilekit/backends/traits.hpp>
#include <tilekit/errors.hpp>
#include <tilekit/impl/common/launch.hpp>
#include <tilekit/impl/permute/matrix_kernels.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

namespace tilekit::impl {

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
  return left.si1 == 1 ? left : right;  // element by element: keep the reads unit-stride if any
}

template <class InView, class OutView>
TransposeGeom transpose_geom(const InView& in, const OutView& out) {
  auto st = [](const auto& v, int r) { return static_cast<index_t>(v.stride(r)); };
  return transpose_geom(static_cast<index_t>(in.extent(0)), static_cast<index_t>(in.extent(1)),
                        st(in, 0), st(in, 1), st(out, 0), st(out, 1));
}

/// A batch of matrices transposed by one launch (the permute's batched 2-D
/// transpositions): `count` matrices, matrix b at in + b si and out + b so
/// (element strides); one matrix: count 1.
struct TransposeBatch {
  index_t count = 1, si = 0, so = 0;
};

/// One planned 2-D transposition of T on ExecSpace: the launch shape resolved
/// from the backend traits and the caller's overrides, checked against the
/// space's limits once; launch() runs the kernel its geometry takes: the
/// tiled kernel (unit inner strides), the thin kernels (a side of at most the
/// backend's transpose_thin_bytes) or, for other strides, element by element.
template <class ExecSpace, class T>
class MatrixTranspose {
 public:
  MatrixTranspose() = default;

  /// `padded`: the scratch rows take the backend's (or the caller's) padding;
  /// in and out: the planned addresses (the skew of the tiles depends on the
  /// output's). Throws for a launch shape the space cannot run.
  MatrixTranspose(const ExecSpace& exec, const TransposeGeom& g, TransposeBatch batch,
                  bool padded, const LaunchOptions& opts, std::string label, const T* in,
                  T* out)
      : exec_(exec), label_(std::move(label)), align_(opts.align), batch_(batch), geom_(g) {
    if (batch_.count != 1 && !geom_.tiled)
      detail::fail(label_, "a batch of matrices takes the tiled kernels: unit inner strides");
    config_ = resolve_tile(label_, opts, backends::Traits<ExecSpace>::transpose_tile(sizeof(T)),
                           padded, /*max_edge=*/8192);
    if (opts.tile <= 0)
      config_.tile = fit_tile<ExecSpace>(config_.tile, geom_.m, geom_.n, exec_.concurrency(),
                                         host_transpose_rows(), batch_.count);
    detail::require_align(label_, align_);
    skew_ = launch(geom_, in, out, /*dry_run=*/true);  // the launch shape, checked now
  }

  /// The planned geometry's kernel on other addresses.
  void execute(const T* in, T* out) const { launch(geom_, in, out, false); }
  /// The kernel for g (views of the planned extents, other strides).
  void execute(const TransposeGeom& g, const T* in, T* out) const { launch(g, in, out, false); }

  const TransposeGeom& geom() const { return geom_; }
  bool tiled() const { return geom_.tiled; }
  /// A side of at most the backend's transpose_thin_bytes: the thin kernel
  /// (a batch takes the tiled kernel whatever its matrices' sides).
  bool thin() const { return thin(geom_); }
  const backends::TileConfig& config() const { return config_; }
  /// Elements per store transaction of the skewed tiles of the planned
  /// geometry (LaunchOptions::align), or 0: rectangular tiles (or no tiles).
  int skew() const { return skew_; }
  /// Input rows of the tiled kernel's tiles (the tile edge where they are
  /// square): TransposeTiled's ti without a skew.
  int tile_rows() const { return impl::tile_rows(host_transpose_rows(), config_.tile); }

 private:
  /// The backend's tile rows where its tiles take the host path
  /// (impl::host_transpose_rows); 0: square tiles.
  int host_transpose_rows() const { return impl::host_transpose_rows<ExecSpace, T>(config_); }

  bool thin(const TransposeGeom& g) const {
    constexpr int bytes = transpose_thin_bytes<ExecSpace>();
    const auto side = static_cast<std::size_t>(std::min(g.m, g.n));
    return bytes > 0 && g.tiled && batch_.count == 1 &&
           side * sizeof(T) <= static_cast<std::size_t>(bytes);
  }

  /// The thin kernel through team scratch (TransposeThinStaged): the input is
  /// the wide array (m rows of n), the output the narrow one (n rows of m).
  void launch_thin_staged(const TransposeGeom& g, const T* in, T* out, bool dry_run) const {
    using Traits = backends::Traits<ExecSpace>;
    using F = TransposeThinStaged<ExecSpace, T, Traits::loads_in_flight,
                                  transpose_thin_store_bytes<ExecSpace>()>;
    constexpr index_t chunk = transpose_thin_chunk<ExecSpace>();
    constexpr int team = transpose_thin_team<ExecSpace>();
    const index_t chunks = (g.n + chunk - 1) / chunk;
    const std::size_t scratch = F::scratch_bytes(static_cast<int>(g.m), chunk);
    F f{in, out, g.n, g.si0, g.so0, static_cast<int>(g.m), chunk, chunks, 1};
    // The backend's team (else the plan's), or as many work items as the
    // space launches with this kernel's registers.
    backends::TileConfig c = config_;
    c.team_rows = std::min(team > 0 ? team : config_.team_rows * config_.vector,
                           team_rows_max(exec_, f, 1, scratch));
    c.vector = 1;
    f.threads = c.team_rows;
    auto policy = team_policy<ExecSpace>(label_, exec_, f, league_for(chunks, Traits::max_league),
                                         c, scratch, /*flat=*/true);
    if (!dry_run) Kokkos::parallel_for(label_ + "_thin", policy, f);
  }

  /// Elements per store transaction S where the tiled kernel skews its tiles
  /// (TransposeTiled): a transaction of align bytes holds S > 1 elements,
  /// tiles are staged in registers (N > 1, the whole tile within N per work
  /// item) and hold more than S - 1 rows besides their pieces, and the
  /// output's rows do not all start on a transaction (`at`: the output's
  /// address in elements; a batch's matrices: their strides too); else 0.
  template <int N>
  int skew_for(const TransposeGeom& g, index_t at) const {
    const int S = skew_elements<ExecSpace>(align_, sizeof(T));
    const int tile = config_.tile, nt = config_.team_rows * config_.vector;
    if (N <= 1 || S <= 1 || !stage_fits(N, tile, tile, nt) || tile - S + 1 < S) return 0;
    return g.so0 % S != 0 || at % S != 0 || batch_.so % S != 0 ? S : 0;
  }

  /// Launches the kernel for g (dry_run: checks its launch shape only);
  /// returns the skew of its tiles (skew_for), 0 for other kernels.
  int launch(const TransposeGeom& g, const T* in, T* out, bool dry_run) const {
    const index_t m = g.m, n = g.n;
    if (!dry_run && m * n == 0) return 0;
    if (!g.tiled) {
      if (dry_run) return 0;
      using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<index_t>>;
      Kokkos::parallel_for(label_ + "_strided", Policy(exec_, {0, 0}, {m, n}),
                           TransposeNaive<T>{in, out, g.si0, g.si1, g.so0, g.so1});
      return 0;
    }
    if (thin(g)) {
      // One side of at most transpose_thin_bytes: the long side is the work
      // items, the thin side each one's loop (TransposeThin), or chunks of
      // the long side through team scratch (TransposeThinStaged).
      const bool rows_thin = m <= n;
      const index_t q = rows_thin ? n : m;
      const std::size_t thin_bytes = static_cast<std::size_t>(rows_thin ? m : n) * sizeof(T);
      if (transpose_thin_staged<ExecSpace>(rows_thin, thin_bytes)) {
        if constexpr (transpose_thin_chunk<ExecSpace>() > 0) launch_thin_staged(g, in, out, dry_run);
        return 0;
      }
      if (dry_run) return 0;
      // rows thin: (i, j) = (r, q); columns thin: (i, j) = (q, r). Element
      // (i, j) is in[i * si0 + j] and out[j * so0 + i]. A work item loads
      // batches of R elements (the backend's transpose_thin_batch_bytes), or
      // of a quarter of that where the side is that short: R registers would
      // cost the sides that keep only a few loads in flight their occupancy.
      constexpr int R = std::max(1, transpose_thin_batch_bytes<ExecSpace>() / int(sizeof(T)));
      auto run = [&](auto batch) {
        using F = TransposeThin<T, decltype(batch)::value>;
        F f = rows_thin ? F{in, out, 1, g.si0, g.so0, 1, static_cast<int>(m)}
                        : F{in, out, g.si0, 1, 1, g.so0, static_cast<int>(n)};
        Kokkos::parallel_for(
            label_ + "_thin",
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
    with_stage<ExecSpace>(config_, [&](auto K, auto N) {
      using F = TransposeTiled<ExecSpace, T, decltype(K)::value, decltype(N)::value>;
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
      auto policy = team_policy<ExecSpace, StageBounds<ExecSpace, decltype(N)::value>>(
          label_, exec_, f, league_for(teams, backends::Traits<ExecSpace>::max_league), config_,
          F::scratch_bytes(tile, ld), /*flat=*/true, tile_scratch_level<ExecSpace>());
      if (!dry_run) Kokkos::parallel_for(label_ + "_tiled", policy, f);
    });
    return skewed;
  }

  ExecSpace exec_;
  std::string label_;
  int align_ = -1;
  TransposeBatch batch_{};
  TransposeGeom geom_{};
  backends::TileConfig config_{};
  int skew_ = 0;
};

}  // namespace tilekit::impl
