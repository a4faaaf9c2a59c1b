#pragma once
// The definitions of the blocked in-place transposes' launching code
// (launch_inplace_blocked, impl::RectBlockedTranspose; declared in
// inplace_blocks.hpp): the library's compiled instances (cmake/TilekitETI.cmake) and programs
// using another (space, type) include them (impl/common/eti.hpp).
#include <tilekit/impl/transpose/inplace_blocks.hpp>
#include <tilekit/impl/transpose/inplace_kernels.hpp>

namespace tilekit::impl {

template <class ExecSpace, class T>
void launch_inplace_blocked(const std::string& label, const ExecSpace& exec,
                            const backends::TileConfig& config, T* a, index_t n, index_t stride,
                            index_t blocks_p, index_t blocks_q, bool dry_run) {
  if (!dry_run && n == 0) return;
  with_stage<ExecSpace>(config, [&](auto K, auto N) {
    // Two tiles in flight: each gets half of the staging registers.
    constexpr int half = decltype(N)::value > 1 ? decltype(N)::value / 2 : 1;
    using F = TransposeInplaceBlocked<ExecSpace, T, decltype(K)::value, half>;
    const int tile = config.tile, ld = tile + config.pad;
    const index_t nb = (n + tile - 1) / tile;
    const index_t npairs = nb * (nb + 1) / 2;
    const bool aliased = inplace_rows_aliased<ExecSpace, T>(
        stride, static_cast<double>(n) * n * blocks_p * blocks_q * sizeof(T));
    F f{a, n, tile, ld, nb, npairs, stride, blocks_q, blocks_p * blocks_q, aliased};
    const index_t teams =
        (npairs * blocks_p * blocks_q + config.tiles_per_team - 1) / config.tiles_per_team;
    auto policy = team_policy(label, exec, f,
                              league_for(teams, backends::Traits<ExecSpace>::max_league), config,
                              F::scratch_bytes(tile, ld), /*flat=*/true,
                              tile_scratch_level<ExecSpace>());
    if (!dry_run) Kokkos::parallel_for(label + "_blocked", policy, f);
  });
}

template <class ExecSpace, class T>
RectBlockedTranspose<ExecSpace, T>::RectBlockedTranspose(const ExecSpace& exec, T* a, index_t rows,
                                                         index_t cols,
                                                         const backends::TileConfig& square,
                                                         long workspace_bytes, std::string label)
    : exec_(exec), label_(std::move(label)), square_(square), rows_(rows), cols_(cols) {
  if (!applies(rows, cols))
    detail::fail(label_, "the blocked in-place transpose needs a matrix that is not square "
                         "with a common divisor of its extents of 16 or more");
  g_ = std::gcd(rows, cols);
  const index_t chunks = rows / g_ * cols;  // rows of g elements
  const std::size_t row_bytes = static_cast<std::size_t>(chunks) * sizeof(T);
  const auto cfg = backends::Traits<ExecSpace>::inplace_rect(exec_);
  index_t w;
  if (workspace_bytes >= 0) {
    w = std::clamp<index_t>(static_cast<index_t>(workspace_bytes / row_bytes), 1, g_);
  } else {
    w = std::clamp<index_t>(static_cast<index_t>(cfg.batch_bytes / row_bytes), 1, g_ / 4);
    // Whole 128-byte lines per batch where the batch is that wide, and
    // batches of nearly equal width.
    const index_t line = std::max<index_t>(1, 128 / static_cast<index_t>(sizeof(T)));
    const index_t nb = (g_ + w - 1) / w;
    w = (g_ + nb - 1) / nb;
    if (w > line) w = w / line * line;
  }
  width_ = w;
  workspace_ = Kokkos::View<T*, Mem>(
      Kokkos::view_alloc(exec_, Kokkos::WithoutInitializing, label_ + "_workspace"),
      static_cast<std::size_t>(chunks * width_));
  PermuteOptions po;
  po.label = label_ + "_shuffle";
  po.tiles_per_team = cfg.shuffle_tiles_per_team;
  full_.emplace(make_pass(a, width_, po));
  if (const index_t rest = g_ % width_; rest > 0) rest_.emplace(make_pass(a, rest, po));
  launch_inplace_blocked<ExecSpace, move_t<T>>(label_, exec_, square_,
                                               as_moves(a), g_, cols_,
                                               rows_ / g_, cols_ / g_, true);
}

template <class ExecSpace, class T>
void RectBlockedTranspose<ExecSpace, T>::execute(T* a) const {
  launch_inplace_blocked<ExecSpace, move_t<T>>(label_, exec_, square_,
                                               as_moves(a), g_, cols_,
                                               rows_ / g_, cols_ / g_, false);
  for (index_t a0 = 0; a0 < g_; a0 += width_) {
    const Pass& p = a0 + width_ <= g_ ? *full_ : *rest_;
    p.gather.execute(source(a + a0, p.width), buffer(p.width));
    p.scatter.execute(buffer(p.width), destination(a + a0, p.width));
  }
}

template <class ExecSpace, class T>
auto RectBlockedTranspose<ExecSpace, T>::make_pass(T* a, index_t w,
                                                 const PermuteOptions& po) const -> Pass {
  return Pass{w, Plan(exec_, source(a, w), buffer(w), {2, 1, 0, 3}, PermuteVariant::fused, po),
              Plan(exec_, buffer(w), destination(a, w), {0, 1, 2, 3}, PermuteVariant::fused,
                   po)};
}

}  // namespace tilekit::impl
