#pragma once
// The definitions of the 2-D transposition engine's members that launch
// kernels (impl::MatrixTranspose, declared in matrix.hpp): included by the
// library's compiled instances (cmake/TilekitETI.cmake) and, through the public headers, by
// programs that use a (space, type) the library does not hold. A compiled
// pair is declared `extern template` in matrix.hpp, so these bodies are not
// instantiated again where they are included (docs/building.md: ETI).
#include <tilekit/impl/permute/matrix.hpp>
#include <tilekit/impl/permute/matrix_kernels.hpp>

namespace tilekit::impl {

template <class ExecSpace, class T>
MatrixTranspose<ExecSpace, T>::MatrixTranspose(const ExecSpace& exec, const TransposeGeom& g,
                                               TransposeBatch batch, bool padded,
                                               const LaunchOptions& opts, std::string label,
                                               const T* in, T* out)
    : exec_(exec), label_(std::move(label)), align_(opts.align), batch_(batch), geom_(g) {
  if (batch_.count != 1 && !geom_.tiled)
    detail::fail(label_, "a batch of matrices takes the tiled kernels: unit inner strides");
  config_ = resolve_tile(label_, opts, backends::Traits<ExecSpace>::transpose_tile(sizeof(T)),
                         padded, /*max_edge=*/8192);
  if (opts.tile <= 0)
    config_.tile = fit_tile<ExecSpace>(config_.tile, geom_.m, geom_.n, exec_.concurrency(),
                                       host_rows(), batch_.count);
  detail::require_align(label_, align_);
  skew_ = launch(geom_, in, out, /*dry_run=*/true);  // the launch shape, checked now
}

/// The thin kernel through team scratch (TransposeThinStaged): the input is
/// the wide array (m rows of n), the output the narrow one (n rows of m).
template <class ExecSpace, class T>
void MatrixTranspose<ExecSpace, T>::launch_thin_staged(const TransposeGeom& g, const T* in, T* out,
                                                      bool dry_run) const {
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
template <class ExecSpace, class T>
template <int N>
int MatrixTranspose<ExecSpace, T>::skew_for(const TransposeGeom& g, index_t at) const {
  const int S = skew_elements<ExecSpace>(align_, sizeof(T));
  const int tile = config_.tile, nt = config_.team_rows * config_.vector;
  if (N <= 1 || S <= 1 || !stage_fits(N, tile, tile, nt) || tile - S + 1 < S) return 0;
  return g.so0 % S != 0 || at % S != 0 || batch_.so % S != 0 ? S : 0;
}

/// Launches the kernel for g (dry_run: checks its launch shape only);
/// returns the skew of its tiles (skew_for), 0 for other kernels.
template <class ExecSpace, class T>
int MatrixTranspose<ExecSpace, T>::launch(const TransposeGeom& g, const T* in, T* out,
                                          bool dry_run) const {
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

}  // namespace tilekit::impl
