#pragma once
// The definitions of the permute plan's members that plan and launch its
// kernels (tilekit::PermutePlan, declared in dispatch.hpp): included by the
// library's compiled instances (cmake/TilekitETI.cmake) and, through the public headers, by
// programs that use a plan the library does not hold (impl/common/eti.hpp).
#include <tilekit/impl/permute/dispatch.hpp>
#include <tilekit/impl/permute/matrix_def.hpp>

namespace tilekit {

template <class ExecSpace, class T, class TOut, bool Conjugate>
void PermutePlan<ExecSpace, T, TOut, Conjugate>::resolve_config() {
  // The tile of the larger element (scratch holds T: the stores convert).
  config_ = impl::resolve_tile(
      where(), opts_, backends::Traits<ExecSpace>::permute_tile(std::max(sizeof(T), sizeof(TOut))),
      /*padded=*/true, /*max_edge=*/1024);
  detail::require_align(where(), opts_.align);
}

template <class ExecSpace, class T, class TOut, bool Conjugate>
void PermutePlan<ExecSpace, T, TOut, Conjugate>::widen(impl::Tiling& tiling, impl::TileBox& box,
                                                      std::size_t smax) {
  if constexpr (requires { backends::Traits<ExecSpace>::permute_wide_box; }) {
    constexpr backends::PermuteWideBox wb = backends::Traits<ExecSpace>::permute_wide_box;
    const int r = fused_.rank;
    if (wb.below <= 0 || launch_given() || tiling.layout.kind == impl::BoxKind::affine ||
        fused_.n[fused_.p[r - 1]] >= wb.below)
      return;
    const index_t t = config_.tile;
    const impl::TileBox b = impl::choose_box(fused_, std::max<index_t>(1, t / wb.load_div),
                                             wb.area_tiles * t * t, wb.store_edges * t, N > 1, PW);
    const impl::Tiling wt = impl::make_tiling(fused_, b, config_.pad);
    const auto& L = wt.layout;
    using F = impl::PermuteTiled<ExecSpace, T, K, N, impl::StoreMove<T>, impl::BoxKind::tables>;
    if (L.box[impl::store_cols] <= tiling.layout.box[impl::store_cols] ||
        F::scratch_bytes(L) > smax ||
        !impl::stage_fits(N, L.box[impl::load_rows], L.box[impl::load_cols],
                          config_.team_rows * wb.team * config_.vector))
      return;
    tiling = wt;
    box = b;
    wide_team_ = wb.team;
  }
}

template <class ExecSpace, class T, class TOut, bool Conjugate>
void PermutePlan<ExecSpace, T, TOut, Conjugate>::prepare() {
  const std::string& w = where();
  if (shape_.size() == 0) {
    method_ = PermuteMethod::none;
    return;
  }
  // The launch shapes are computed with the scaled store with beta, which
  // launch() runs too. Not const: team_size_max instantiates the kernel of
  // the functor's exact type on a GPU, and a const store's functor would be
  // compiled as one more kernel that launch() never runs.
  impl::StoreAxpby<T, TOut, conjugates> st{S(1), S(1)};
  if (variant_ == PermuteVariant::naive) return prepare_naive(shape_);
  // Strided views whose fastest dimensions do not have unit stride on both
  // sides (every other column, say) have no runs to tile: element by element.
  if (!fused_.unit_inner()) return prepare_naive(fused_);
  const int r = fused_.rank;
  const bool stays = r >= 1 && fused_.p[r - 1] == r - 1;
  const index_t edge = rows_edge();
  if (r <= 1 || (stays && fused_.n[r - 1] >= edge)) {
    method_ = r <= 1 ? PermuteMethod::copy : PermuteMethod::rows;
    kernel_ = opts_.label + (r <= 1 ? "_copy" : "_rows");
    constexpr bool by_input = impl::permute_rows_input_order<ExecSpace>();
    rows_ = impl::make_rows_layout(fused_, edge * edge, by_input);
    impl::PermuteRows<ExecSpace, T, N, decltype(st)> f{nullptr, nullptr, rows_, st};
    policy_ = impl::team_policy(w, exec_, f, league(rows_.units, config_), config_,
                                decltype(f)::scratch_bytes(rows_.unit), /*flat=*/true);
    // The same rows in units of PW elements (a step of as many units).
    if constexpr (PW > 1) {
      impl::PermuteShape f1 = fused_;
      if (impl::pack_rows_shape(f1, PW)) {
        rows_pack_ = impl::make_rows_layout(f1, edge * edge, by_input);
        const PackRows g{nullptr, nullptr, rows_pack_, {}};
        policy_pack_ = impl::team_policy(w, exec_, g, league(rows_pack_.units, config_), config_,
                                         PackRows::scratch_bytes(rows_pack_.unit), true);
        packed_ = true;
      }
    }
    return;
  }
  method_ = PermuteMethod::tiled;
  kernel_ = opts_.label + "_tiled";
  // The backend's tile, halved while its scratch exceeds what a team may
  // have; on hosts (the backend sets tiles_per_thread) also, down to 32,
  // while the tensor would give a thread fewer tiles than that, and, down
  // to the rows method's edge, until every store row is one run of scratch
  // (rows_in_scratch: the host path writes it whole, while a tile's runs
  // longer than the innermost extents join dimensions into boxes whose store
  // rows are gathered, at about half the speed): where no edge down to it
  // gives one, the largest. A caller's tile is taken as given (too large
  // throws).
  constexpr int level = impl::tile_scratch_level<ExecSpace>();
  const std::size_t smax = static_cast<std::size_t>(
      Kokkos::TeamPolicy<ExecSpace>(exec_, 1, 1).scratch_size_max(level));
  // (Its scratch depends on the layout only, whichever kernel runs it.)
  using F = impl::PermuteTiled<ExecSpace, T, K, N, decltype(st), impl::BoxKind::tables>;
  impl::Tiling tiling;
  impl::TileBox box;
  std::optional<std::pair<impl::Tiling, impl::TileBox>> largest;
  for (int tile = config_.tile;; tile /= 2) {
    // Hosts: where the edge passes transpose_tile_rows, load runs of edge^2 /
    // rows elements and store runs of rows, as the transpose's tiles (long
    // reads for the prefetchers). One-thread teams only, as the transpose's.
    const int rows = impl::tile_rows(impl::host_tile_rows<ExecSpace, T>(config_), tile);
    const index_t area = static_cast<index_t>(tile) * tile;
    box = rows < tile ? impl::choose_box(fused_, area / rows, area, rows)
                      : impl::choose_box(fused_, impl::tiled_run_target(fused_, tile), area,
                                         0, F::scratch_tables, PW);
    tiling = impl::make_tiling(fused_, box, config_.pad, 0,
                               host_path && impl::transposed_scratch(box));
    if (opts_.tile > 0 || tile == 1) break;
    if (F::scratch_bytes(tiling.layout) > smax) continue;
    const auto& L = tiling.layout;
    if (tile > 32 && L.ntiles < want_tiles()) continue;
    if (want_tiles() > 0 && !L.rows_in_scratch) {
      if (!largest) largest.emplace(tiling, box);
      if (tile / 2 >= rows_edge()) continue;
      std::tie(tiling, box) = *largest;  // none has them: the largest
    }
    break;
  }
  // Staged teams: a store run that interleaves tiny dimensions with a long
  // one (an image's channels) holds its tile in the store's order, with no
  // tables (impl::interleaved_tiling), where the box above reads them.
  if (N > 1 && tiling.layout.kind != impl::BoxKind::affine) {
    const index_t area = static_cast<index_t>(config_.tile) * config_.tile;
    if (auto t = impl::interleaved_tiling(fused_, impl::tiled_run_target(fused_, config_.tile),
                                          area, PW, impl::permute_interleave_rows<ExecSpace>());
        t && F::scratch_bytes(t->first.layout) <= smax)
      std::tie(tiling, box) = *t;
  }
  widen(tiling, box, smax);
  // Skewed tiles where the box takes them (make_tiling), every tile still
  // staged (a skewed tile reads S - 1 more rows, within the chunk's: the
  // scratch does not grow).
  if (const int S = skew_for(tiling.layout); S > 1) {
    const impl::Tiling skewed =
        impl::make_tiling(fused_, box, config_.pad, S, tiling.layout.transposed);
    const auto& L = skewed.layout;
    if (L.skew > 1 &&
        impl::stage_fits(N, L.box[impl::load_rows], L.box[impl::load_cols],
                         config_.team_rows * wide_team_ * config_.vector))
      tiling = skewed;
  }
  tiled_ = tiling.layout;
  packed_ = PW > 1 && impl::pack_tiles(tiling, PW);
  with_tiled<decltype(st)>([&](auto f) {
    policy_ = impl::team_policy(w, exec_, f, league(tiled_.ntiles, tiled_config()),
                                tiled_config(), decltype(f)::scratch_bytes(tiled_),
                                /*flat=*/true, level);
  });
  // Packed tiles hold 1 / PW the units: a team of 1 / PW the work items (a
  // caller's team is taken as given) stages as many registers each, so each
  // keeps as many loads in flight as the element kernel's.
  if constexpr (PW > 1) {
    if (packed_) {
      auto c = tiled_config();
      if (opts_.team_rows == 0) c.team_rows = std::max(1, c.team_rows / PW);
      with_tiled<impl::StoreMove<Bits>, PW, Bits>([&](auto f) {
        policy_pack_ = impl::team_policy(w, exec_, f, league(tiled_.ntiles, c), c,
                                         decltype(f)::scratch_bytes(tiled_), /*flat=*/true,
                                         level);
      });
    }
  }
  if (tiled_.kind == impl::BoxKind::affine) return;  // the kernel computes its offsets
  tables_ = Kokkos::View<index_t*, Mem>(
      Kokkos::view_alloc(exec_, Kokkos::WithoutInitializing, "tilekit::permute_tables"),
      tiled_.table_size());
  Kokkos::parallel_for(
      opts_.label + "_tables",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(exec_, 0, tiled_.table_size()),
      impl::PermuteTables{tables_.data(), tiling.maps});
}

template <class ExecSpace, class T, class TOut, bool Conjugate>
void PermutePlan<ExecSpace, T, TOut, Conjugate>::plan_transpose(const T* in, const TOut* out) {
  if constexpr (by_transpose) {
    const TransposeDims d = transpose_dims();
    if (method_ != PermuteMethod::tiled || launch_given() || d.a < 0) return;
    impl::TransposeBatch batch;
    if (d.c >= 0) batch = {fused_.n[d.c], fused_.si[d.c], fused_.so[d.c]};
    const impl::TransposeGeom g =
        impl::transpose_geom(fused_.n[d.b], fused_.n[d.a], fused_.si[d.b], 1, fused_.so[d.a], 1);
    transpose_.emplace(exec_, g, batch, /*padded=*/true, opts_, opts_.label + "_transpose",
                       impl::as_moves(in), impl::as_moves(const_cast<TOut*>(out)));
    method_ = PermuteMethod::transpose;
  }
}

template <class ExecSpace, class T, class TOut, bool Conjugate>
void PermutePlan<ExecSpace, T, TOut, Conjugate>::plan_interleave() {
  if constexpr (IV > 0) {
    if (method_ != PermuteMethod::tiled || launch_given()) return;
    interleave_ = impl::interleave_geom(fused_, IV);
    if (interleave_.t > 0) {
      method_ = PermuteMethod::interleave;
      interleave_kernel_ = opts_.label + "_interleave";
    }
  }
}

template <class ExecSpace, class T, class TOut, bool Conjugate>
void PermutePlan<ExecSpace, T, TOut, Conjugate>::prepare_naive(const impl::PermuteShape& f) {
  method_ = PermuteMethod::naive;
  kernel_ = opts_.label + "_naive";
  naive_out_ = {};
  naive_in_ = {};
  for (int d = f.rank - 1; d >= 0; --d) naive_out_.push(f.n[d], f.so[d]);
  index_t unit = 0;
  for (int d = f.rank - 1; d >= 0; --d) naive_in_.push(f.n[d], f.si[d]);
  if (naive_in_.affine(unit) && unit == 1) naive_in_ = {};  // contiguous: in[i]
}

template <class ExecSpace, class T, class TOut, bool Conjugate>
void PermutePlan<ExecSpace, T, TOut, Conjugate>::launch(const T* in, TOut* out, const S& alpha,
                                                       const S& beta) const {
  switch (method_) {
    case PermuteMethod::none: return;
    case PermuteMethod::copy:
    case PermuteMethod::rows:
      impl::with_store<T, TOut, conjugates>(alpha, beta, [&](auto st) {
        if constexpr (PW > 1 && std::is_same_v<decltype(st), impl::StoreMove<T>>) {
          if (packs(in, out)) {
            Kokkos::parallel_for(kernel_, policy_pack_,
                                 PackRows{reinterpret_cast<const Unit*>(in),
                                          reinterpret_cast<Unit*>(out), rows_pack_, {}});
            return;
          }
        }
        // (on T: its moves ran slower as bits on a GPU, docs/building.md)
        using F = impl::PermuteRows<ExecSpace, T, N, decltype(st)>;
        Kokkos::parallel_for(kernel_, policy_, F{in, out, rows_, st});
      });
      return;
    case PermuteMethod::transpose:
      if constexpr (by_transpose) {
        if (alpha == S(1) && beta == S(0)) {
          // (the views were checked by execute())
          transpose_->execute(impl::as_moves(in), impl::as_moves(out));
          return;
        }
      }
      [[fallthrough]];  // scaled stores: the tiled boxes
    case PermuteMethod::interleave:
      if constexpr (IV > 0) {
        if (method_ == PermuteMethod::interleave && alpha == S(1) && beta == S(0) &&
            interleaves(in, out)) {
          using U = impl::bits_t<sizeof(T)>;
          const index_t chunks = interleave_.L / IV;
          const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>> range(
              exec_, 0, interleave_.count * chunks);
          auto run = [&](auto t) {
            Kokkos::parallel_for(interleave_kernel_, range,
                                 impl::PermuteInterleave<U, decltype(t)::value, IV>{
                                     reinterpret_cast<const U*>(in), reinterpret_cast<U*>(out),
                                     interleave_, chunks});
          };
          static_assert(impl::interleave_max == 4);
          switch (interleave_.t) {
            case 2: return run(std::integral_constant<int, 2>{});
            case 3: return run(std::integral_constant<int, 3>{});
            default: return run(std::integral_constant<int, 4>{});
          }
        }
      }
      [[fallthrough]];  // scaled stores, unaligned views: the tiled boxes
    case PermuteMethod::tiled:
      impl::with_store<T, TOut, conjugates>(alpha, beta, [&](auto st) {
        if constexpr (PW > 1 && std::is_same_v<decltype(st), impl::StoreMove<T>>) {
          if (packs(in, out))
            return with_tiled<impl::StoreMove<Bits>, PW, Bits>([&](auto f) {
              f.in = reinterpret_cast<const Bits*>(in);
              f.out = reinterpret_cast<Bits*>(out);
              Kokkos::parallel_for(kernel_, policy_pack_, f);
            });
        }
        moving(in, out, st, [&](auto i, auto o, auto s) {
          using V = std::remove_cv_t<std::remove_pointer_t<decltype(i)>>;
          with_tiled<decltype(s), 1, V>([&](auto f) {
            f.in = i;
            f.out = o;
            f.store = s;
            if (tiled_.skew > 1)
              f.L.phase = static_cast<std::int16_t>(
                  reinterpret_cast<std::uintptr_t>(out) / sizeof(TOut) % tiled_.skew);
            Kokkos::parallel_for(kernel_, policy_, f);
          });
        });
      });
      return;
    case PermuteMethod::naive:
      impl::with_store<T, TOut, conjugates>(alpha, beta, [&](auto st) {
        moving(in, out, st, [&](auto i, auto o, auto s) {
          using V = std::remove_cv_t<std::remove_pointer_t<decltype(i)>>;
          Kokkos::parallel_for(
              kernel_,
              Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(exec_, 0, shape_.size()),
              impl::PermuteNaive<V, decltype(s)>{i, o, naive_out_, s, naive_in_});
        });
      });
      return;
  }
}

template <class ExecSpace, class T, class TOut, bool Conjugate>
template <class Store, int W, class V, class Fn>
void PermutePlan<ExecSpace, T, TOut, Conjugate>::with_tiled(const Fn& fn) const {
  auto run = [&](auto kind) {
    fn(impl::PermuteTiled<ExecSpace, V, K, N, Store, decltype(kind)::value, W>{
        nullptr, nullptr, tables_.data(), tiled_, {}});
  };
  using impl::BoxKind;
  switch (tiled_.kind) {
    case BoxKind::affine: return run(std::integral_constant<BoxKind, BoxKind::affine>{});
    case BoxKind::load_table: return run(std::integral_constant<BoxKind, BoxKind::load_table>{});
    case BoxKind::tables: return run(std::integral_constant<BoxKind, BoxKind::tables>{});
  }
}

}  // namespace tilekit
