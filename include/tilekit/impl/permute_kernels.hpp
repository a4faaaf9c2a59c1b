#pragma once
// General permute kernels on row-major data (any rank up to 8, after fusion):
// a naive reference, the rows kernel (copy, or the fastest dimension stays)
// and the tiled kernel (the fastest dimension moves), plus the set-up kernel
// that fills the tiled kernel's tables. The plan (permute_dispatch.hpp) maps
// LayoutLeft onto these and picks one.
#include <tilekit/impl/permute_tiling.hpp>
#include <tilekit/impl/tile_copy.hpp>

namespace tilekit::impl {

// ------------------------------------------------------------------ stores
// out = alpha * value + beta * out, specialised so that beta == 0 never reads
// out and alpha == 1 does not multiply (a pure move keeps every bit).

template <class T>
struct StoreMove {
  KOKKOS_INLINE_FUNCTION void operator()(T* p, const T& v) const { *p = v; }
};
template <class T>
struct StoreScale {
  T alpha;
  KOKKOS_INLINE_FUNCTION void operator()(T* p, const T& v) const { *p = alpha * v; }
};
template <class T>
struct StoreAxpby {
  T alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(T* p, const T& v) const { *p = alpha * v + beta * *p; }
};

/// Calls fn(store) with the store specialised for alpha and beta.
template <class T, class Fn>
void with_store(const T& alpha, const T& beta, Fn&& fn) {
  if (beta != T(0)) fn(StoreAxpby<T>{alpha, beta});
  else if (alpha != T(1)) fn(StoreScale<T>{alpha});
  else fn(StoreMove<T>{});
}

// ------------------------------------------------------------------ naive

/// One element per work item, in input order: reads coalesced, writes
/// scattered; the output offset is decomposed from the input index.
template <class T, class Store>
struct PermuteNaive {
  const T* in;
  T* out;
  Digits out_offset;  ///< input dims (fastest first) -> output strides
  Store store;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i) const {
    store(out + out_offset.offset(i), in[i]);
  }
};

// ------------------------------------------------------------------- rows

/// Copies output rows that are contiguous input rows: each team step takes
/// `unit` pieces of up to `width` elements and works out their offsets once
/// into scratch. A flat team of many work items (GPU) stages its share of the
/// step in N registers per work item, all loads in flight before the first
/// store; a one-thread team (CPU) copies piece by piece in vectorisable loops.
template <class Exec, class T, int N, class Store>
struct PermuteRows {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Offsets = Kokkos::View<index_t*, typename Exec::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Lengths = Kokkos::View<int*, typename Exec::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const T* in;
  T* out;
  RowsLayout L;
  Store store;

  static std::size_t scratch_bytes(int unit) {
    return 2 * Offsets::shmem_size(unit) + Lengths::shmem_size(unit);
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    Offsets src(team.team_scratch(0), L.unit), dst(team.team_scratch(0), L.unit);
    Lengths len(team.team_scratch(0), L.unit);
    const int tid = team.team_rank(), nt = team.team_size();
    for (index_t u = team.league_rank(); u < L.units; u += team.league_size()) {
      const index_t p0 = u * L.unit;
      const int np = static_cast<int>(Kokkos::min<index_t>(L.unit, L.pieces - p0));
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, np), [&](const int i) {
        const index_t row = div_nonneg(p0 + i, L.pieces_per_row);
        const index_t c0 = (p0 + i - row * L.pieces_per_row) * L.width;
        src(i) = L.in_row.offset(row) + c0;
        dst(i) = row * L.len + c0;
        len(i) = static_cast<int>(Kokkos::min<index_t>(L.width, L.len - c0));
      });
      team.team_barrier();
      if (stage_fits(N, np, L.width, nt)) {
        T v[N] = {};
        stage_walk<N>(np, L.width, tid, nt, [&](const int e, const int i, const int c) {
          v[e] = c < len(i) ? in[src(i) + c] : T{};
        });
        stage_walk<N>(np, L.width, tid, nt, [&](const int e, const int i, const int c) {
          if (c < len(i)) store(out + dst(i) + c, v[e]);
        });
      } else {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, np), [&](const int i) {
          const T* from = in + src(i);
          T* to = out + dst(i);
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, len(i)),
                               [&](const int c) { store(to + c, from[c]); });
        });
      }
      team.team_barrier();
    }
  }
};

// ------------------------------------------------------------------ tiled

/// Fills the tiled kernel's tables (TiledLayout's order) once per plan.
struct PermuteTables {
  index_t* t;
  TiledLayout L;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i) const {
    const index_t a = L.box[load_rows], b = L.box[store_rows];
    if (i < a) t[i] = L.in_rows.offset(i);
    else if (i < a + b) t[i] = L.out_rows.offset(i - a);
    else if (i < a + 2 * b) t[i] = L.scratch_rows.offset(i - a - b);
    else t[i] = L.scratch_cols.offset(i - a - 2 * b);
  }
};

/// Tiles through team scratch: the load run of a tile is read row by row
/// (coalesced along the input), the store run written row by row (coalesced
/// along the output); `ld` pads the scratch rows against bank conflicts. A
/// flat team of many work items (GPU) stages a tile in N registers per work
/// item and issues the next tile's loads before it stores the current one; a
/// one-thread team (CPU) streams the tile in rows, K at a time.
template <class Exec, class T, int K, int N, class Store>
struct PermuteTiled {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Scratch = Kokkos::View<T*, typename Exec::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const T* in;
  T* out;
  const index_t* tables;
  TiledLayout L;
  Store store;

  static std::size_t scratch_bytes(const TiledLayout& L) {
    return Scratch::shmem_size(L.scratch_elements());
  }

  /// A tile's corner in the input and the output, and its clipped counts.
  struct Geom {
    index_t in, out;
    int count[4];
  };
  KOKKOS_INLINE_FUNCTION Geom geom(index_t t) const {
    Geom g{0, 0, {L.whole[0], L.whole[1], L.whole[2], L.whole[3]}};
TILEKIT_UNROLL
    for (int i = 0; i < permute_max_rank; ++i) {
      if (i >= L.digits) break;
      const index_t q = div_nonneg(t, L.ntile[i]);
      const index_t tc = t - q * L.ntile[i];
      t = q;
      g.in += tc * L.step_in[i];
      g.out += tc * L.step_out[i];
      const int e = static_cast<int>(Kokkos::min(L.chunk[i], L.extent[i] - tc * L.chunk[i]));
      for (int k = 0; k < 4; ++k)
        if (L.clip[k] == i) g.count[k] *= e;
    }
    return g;
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    Scratch s(team.team_scratch(0), L.scratch_elements());
    const index_t* in_rows = tables;
    const index_t* out_rows = in_rows + L.box[load_rows];
    const index_t* s_rows = out_rows + L.box[store_rows];
    const index_t* s_cols = s_rows + L.box[store_rows];
    const int ld = L.ld, tid = team.team_rank(), nt = team.team_size();
    T v[N] = {};
    auto staged = [&](const Geom& g) {
      return stage_fits(N, g.count[load_rows], g.count[load_cols], nt);
    };
    auto fetch = [&](const Geom& g) {
      const T* src = in + g.in;
      stage_walk<N>(g.count[load_rows], g.count[load_cols], tid, nt,
                    [&](const int e, const int r, const int c) { v[e] = src[in_rows[r] + c]; });
    };
    index_t t = team.league_rank();
    if (t < L.ntiles) {
      const Geom g = geom(t);
      if (staged(g)) fetch(g);
    }
    for (; t < L.ntiles; t += team.league_size()) {
      const Geom g = geom(t);
      const bool st = staged(g);
      const T* src = in + g.in;
      T* dst = out + g.out;
      if (st)
        stage_walk<N>(g.count[load_rows], g.count[load_cols], tid, nt,
                      [&](const int e, const int r, const int c) { s(r * ld + c) = v[e]; });
      else
        team_move<K>(
            team, g.count[load_rows], g.count[load_cols],
            [&](const int r, const int c) { return src[in_rows[r] + c]; },
            [&](const int r, const int c, const T& x) { s(r * ld + c) = x; });
      team.team_barrier();
      const index_t tn = t + team.league_size();
      if (tn < L.ntiles) {
        const Geom h = geom(tn);
        if (staged(h)) fetch(h);
      }
      if (st)
        flat_walk(g.count[store_rows], g.count[store_cols], tid, nt, [&](const int a, const int j) {
          store(dst + out_rows[a] + j, s(s_rows[a] + s_cols[j]));
        });
      else
        team_move<K>(
            team, g.count[store_rows], g.count[store_cols],
            [&](const int a, const int j) { return s(s_rows[a] + s_cols[j]); },
            [&](const int a, const int j, const T& x) { store(dst + out_rows[a] + j, x); });
      team.team_barrier();
    }
  }
};

}  // namespace tilekit::impl
