#pragma once
// General permute kernels on row-major data (any rank up to 8, after fusion):
// a naive reference, the rows kernel (copy, or the fastest dimension stays)
// and the tiled kernel (the fastest dimension moves), plus the set-up kernel
// that fills the tiled kernel's tables. The plan (dispatch.hpp) maps
// LayoutLeft onto these and picks one. What a kernel writes for a value it
// moved (conversion, alpha/beta, conjugation) is its Store (permute/store.hpp).
#include <tilekit/impl/common/micro_transpose.hpp>
#include <tilekit/impl/permute/store.hpp>
#include <tilekit/impl/permute/tiling.hpp>
#include <tilekit/impl/common/tile_copy.hpp>

#include <type_traits>

namespace tilekit::impl {

// ------------------------------------------------------------------ naive

/// One element per work item, in input order: reads coalesced, writes
/// scattered; the output offset is decomposed from the input index, and so is
/// the input offset of a strided input (in_offset.count > 0; a contiguous
/// input has none: element i is in[i]). Also the path of strided views whose
/// fastest dimensions have no unit stride (docs/strided.md).
template <class T, class Store>
struct PermuteNaive {
  const T* in;
  typename Store::out_type* out;  // the store's type (permute/store.hpp)
  Digits out_offset;  ///< input dims (fastest first) -> output strides
  Store store;
  Digits in_offset;  ///< input dims (fastest first) -> input strides; none: contiguous
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i) const {
    store(out + out_offset.offset(i), in[in_offset.count > 0 ? in_offset.offset(i) : i]);
  }
};

/// Whether a permute kernel moving T through Store on Exec copies whole runs
/// and may stream them (the rows kernel's runs, the tiled kernel's rows from
/// scratch): the host path (common/micro_transpose.hpp) and a pure move, which
/// neither converts nor scales on the way.
template <class Exec, class T, class Store>
inline constexpr bool host_run_copy =
    micro_edge<Exec, T>() > 0 && std::is_same_v<Store, StoreMove<T>>;

// ------------------------------------------------------------------- rows

/// Copies output rows that are contiguous input rows: each team step takes
/// `unit` pieces of up to `width` elements and works out their offsets once
/// into scratch. A flat team of many work items (GPU) stages its share of the
/// step in N registers per work item, all loads in flight before the first
/// store; a one-thread team (CPU) copies piece by piece in vectorisable loops,
/// a pure move of a large output with streaming stores (as the transposes).
template <class Exec, class T, int N, class Store>
struct PermuteRows {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  static constexpr bool can_stream = host_run_copy<Exec, T, Store>;
  using Offsets = ScratchArray<index_t, Exec>;
  using Lengths = ScratchArray<int, Exec>;
  const T* in;
  typename Store::out_type* out;
  RowsLayout L;
  Store store;

  static std::size_t scratch_bytes(int unit) {
    return 2 * Offsets::shmem_size(unit) + Lengths::shmem_size(unit);
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    Offsets src(team.team_scratch(0), L.unit), dst(team.team_scratch(0), L.unit);
    Lengths len(team.team_scratch(0), L.unit);
    const int tid = team.team_rank(), nt = team.team_size();
    const double bytes = static_cast<double>(L.rows) * L.len * sizeof(T);
    const bool stream = can_stream && stream_output<Exec>(bytes);
    for (index_t u = team.league_rank(); u < L.units; u += team.league_size()) {
      const index_t p0 = u * L.unit;
      const int np = static_cast<int>(Kokkos::min<index_t>(L.unit, L.pieces - p0));
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, np), [&](const int i) {
        const index_t row = div_nonneg(p0 + i, L.pieces_per_row);
        const index_t c0 = (p0 + i - row * L.pieces_per_row) * L.width;
        src(i) = L.in_row.offset(row) + c0;
        dst(i) = L.out_row.offset(row) + c0;
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
          auto* to = out + dst(i);
          if constexpr (can_stream)
            if (stream) return put_run(to, from, len(i), true);
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, len(i)),
                               [&](const int c) { store(to + c, from[c]); });
        });
      }
      team.team_barrier();
    }
    stream_fence(stream);
  }
};

// ------------------------------------------------------------------ tiled

/// Fills the tiled kernel's tables (BoxMaps' order) once per plan.
struct PermuteTables {
  index_t* t;
  BoxMaps maps;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i) const { t[i] = maps.entry(i); }
};

/// Offsets within an affine box: every one is index x stride (scratch
/// positions in 32 bits).
struct AffineBox {
  index_t in_stride, out_stride;
  int s_row_stride, s_col_stride;
  KOKKOS_INLINE_FUNCTION index_t in_row(int r) const { return r * in_stride; }
  KOKKOS_INLINE_FUNCTION index_t out_row(int a) const { return a * out_stride; }
  KOKKOS_INLINE_FUNCTION int s_row(int a) const { return a * s_row_stride; }
  KOKKOS_INLINE_FUNCTION int s_col(int j) const { return j * s_col_stride; }
};

/// The load rows' offsets from their table, the store side's computed.
struct LoadTableBox : AffineBox {
  const index_t* in_rows;
  KOKKOS_INLINE_FUNCTION index_t in_row(int r) const { return in_rows[r]; }
};

/// Offsets within any box, read from the tables (TiledLayout's order). The
/// 64-bit entries are used as they are (narrowing the scratch positions to
/// int made the one-thread CPU path about 15% slower).
struct TableBox {
  const index_t *in_rows, *out_rows, *s_rows, *s_cols;
  KOKKOS_INLINE_FUNCTION TableBox(const index_t* t, const TiledLayout& L)
      : in_rows(t), out_rows(t + L.box[load_rows]), s_rows(out_rows + L.box[store_rows]),
        s_cols(s_rows + L.box[store_rows]) {}
  KOKKOS_INLINE_FUNCTION index_t in_row(int r) const { return in_rows[r]; }
  KOKKOS_INLINE_FUNCTION index_t out_row(int a) const { return out_rows[a]; }
  KOKKOS_INLINE_FUNCTION index_t s_row(int a) const { return s_rows[a]; }
  KOKKOS_INLINE_FUNCTION index_t s_col(int j) const { return s_cols[j]; }
};

/// Tiles through team scratch: the load run of a tile is read row by row
/// (coalesced along the input), the store run written row by row (coalesced
/// along the output); `ld` pads the scratch rows against bank conflicts. A
/// flat team of many work items (GPU) stages a tile in N registers per work
/// item and issues the next tile's loads before it stores the current one; a
/// one-thread team (CPU) streams the tile in rows, K at a time.
///
/// Kind is the layout's BoxKind. An affine box's offsets are computed, an add
/// or a multiply-add per element and no memory access besides the data
/// (AffineBox); others read the load rows' offsets (LoadTableBox) or all
/// (TableBox) from the tables, which a flat team first copies into team
/// scratch, once per team (a one-thread team reads them where they are, in
/// cache). Every kind runs the same body, move(); they are separate kernels
/// so that the affine one keeps the transpose kernel's register count (and
/// occupancy).
///
/// The host path (one-thread teams of a backend with a micro-block edge, B >
/// 0), every kind of box: where the plan lays the scratch out transposed
/// (L.transposed, for the boxes transposed_scratch picks), the tile's load
/// rows are read into it already transposed, micro-block by micro-block
/// (common/micro_transpose.hpp), so that a store row takes its elements from a few
/// short scratch rows in L1 rather than one from each scratch row; other
/// boxes are read row by row. A pure move (Store = StoreMove) whose store
/// rows are contiguous in scratch (L.rows_in_scratch: every 2-D
/// transposition box, reversals) writes them out whole; other pure moves of
/// a large output gather each store row into a small buffer first; both are
/// streamed when the output is large. Scaled stores write element by element.
///
/// Skewed tiles (L.skew = S > 1: affine 2-D transposition boxes, staged
/// tiles; make_tiling): where the output's store rows do not start on a
/// transaction of S elements, a rectangular tile writes each row's piece
/// across partial transactions at both ends. As in TransposeTiled, a skewed
/// tile instead writes, in store row a, the ti elements of the store run's
/// dimension D from i0 - s_a, where s_a is how far the row's element i0 lies
/// past a transaction's start, and reads D's rows from i0 - S + 1: every
/// piece starts on a transaction, S - 1 rows are read twice (from the
/// cache) and every element is written once.
///
/// Interleaved boxes (staged teams; impl::interleaved_tiling): a store run
/// that interleaves a tiny dimension's load rows with a long dimension (an
/// image's channels) is held in the store's order (L.transposed, unpadded):
/// the loads write scratch a row count apart, the stores read it in order,
/// every offset computed.
///
/// Packs (W > 1; pure moves of small elements, rectangular tiles; T is then
/// the elements' bits, an unsigned integer): a staged tile is read and
/// written in units of W consecutive elements of a load row or a store row,
/// one access and one register each (the unsigned integer of W elements: a
/// struct of W 2-byte values took two registers, and the kernel 124-128
/// registers instead of 80); scratch stays element by element. The plan takes
/// it only where every load and store row of every tile starts on a multiple
/// of W elements and holds a multiple of W (pack_tiles) and both views are
/// aligned to a unit.
template <class Exec, class T, int K, int N, class Store, BoxKind Kind, int W = 1>
struct PermuteTiled {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  /// Micro-block edge of the host path (plain loops, no vector blocks); 0:
  /// none (GPUs).
  static constexpr int B = micro_edge<Exec, T, false>();
  /// One-thread teams read transposed boxes in line blocks of the CPU's
  /// vectors, as the transposes' tiles (0: micro-blocks only).
  static constexpr int VMIN = transpose_runtime_min_bytes<Exec>();
  static constexpr int VMAX = runtime_max_vector_bytes<Exec, T>();
  /// The host path and a pure move: whole rows may be copied (and streamed).
  static constexpr bool runs = host_run_copy<Exec, T, Store>;
  using Scratch = ScratchArray<T, Exec>;
  using Tables = ScratchArray<index_t, Exec>;
  /// Teams of many work items (staged) read the tables from team scratch.
  static constexpr bool scratch_tables = N > 1;
  static_assert(W == 1 || (std::is_unsigned_v<T> && std::is_same_v<Store, StoreMove<T>>),
                "tilekit: packed tiles move bits unchanged");
  /// A staged unit: an element, or the bits of W of them.
  using Unit = std::conditional_t<W == 1, T, bits_t<(W > 1 ? W * sizeof(T) : 1)>>;

  const T* in;
  typename Store::out_type* out;
  const index_t* tables;  ///< unused (may be null) for an affine box
  TiledLayout L;
  Store store;

  static std::size_t scratch_bytes(const TiledLayout& L) {
    const std::size_t tables =
        scratch_tables && L.table_used() > 0 ? Tables::shmem_size(L.table_used()) : 0;
    return Scratch::shmem_size(L.scratch_elements()) + tables;
  }

  /// Skewed tiles: affine boxes only (the others compile without them).
  static constexpr bool can_skew = Kind == BoxKind::affine;

  /// A tile's corner in the input and the output, and its clipped counts.
  /// Skewed: `out` is at D's element i0 (the tile's first), `in` at its first
  /// row read, i0 - lead; count[store_cols] is D's elements from i0 that
  /// exist, up to ti (negative past the end: the last tile writes only what
  /// phases put before it), count[load_rows] the rows read.
  struct Geom {
    index_t in, out;
    int count[4];
    int lead;
  };
  KOKKOS_INLINE_FUNCTION Geom geom(index_t t) const {
    Geom g{0, 0, {L.box[0], L.box[1], L.box[2], L.box[3]}, 0};
TILEKIT_UNROLL
    for (int i = 0; i < permute_max_rank; ++i) {
      if (i >= L.digits) break;
      const index_t q = div_nonneg(t, L.ntile[i]);
      const index_t tc = t - q * L.ntile[i];
      t = q;
      g.in += tc * L.step_in[i];
      g.out += tc * L.step_out[i];
      if (tc == L.ntile[i] - 1)
        for (int k = 0; k < 4; ++k)
          if (L.clip[k] == i) g.count[k] = L.tail[k];
      if constexpr (can_skew)
        if (L.skew > 1 && i == L.clip[store_cols]) {
          // D's elements from i0: ti but in the last tiles (the tail is
          // what remains from the last one's i0).
          const int ti = L.box[store_cols];
          const index_t left = L.tail[store_cols] + (L.ntile[i] - 1 - tc) * ti;
          g.count[store_cols] = static_cast<int>(left < ti ? left : ti);
          if (tc > 0) g.lead = L.skew - 1;
        }
    }
    if constexpr (can_skew)
      if (L.skew > 1) {
        g.in -= g.lead * L.in_row;
        g.count[load_rows] = g.lead + g.count[store_cols];  // >= 1: count > -lead
      }
    return g;
  }

  /// Skewed store of a staged tile: store row a gets D's elements i0 - s_a +
  /// q, q < ti, that exist, from scratch row i - i0 + lead; a flat team,
  /// consecutive work items along a piece (no division past the first).
  template <class Box>
  KOKKOS_INLINE_FUNCTION void store_skewed(typename Store::out_type* dst, const Scratch& s,
                                           const Geom& g, const Box& box, int tid, int nt) const {
    if constexpr (can_skew) {  // (affine boxes; the others never call it)
      const int ti = L.box[store_cols], end = g.count[store_cols];
      // The phase in unsigned 32-bit wrap-around (S divides 2^32; an affine
      // box: store row a at a x out_stride).
      const std::uint32_t mask = static_cast<std::uint32_t>(L.skew - 1);
      const std::uint32_t ph0 = static_cast<std::uint32_t>(L.phase + g.out);
      const std::uint32_t stride = static_cast<std::uint32_t>(box.out_stride);
      const int da = nt / ti, dq = nt % ti;
      int a = tid / ti, q = tid % ti;
      while (a < g.count[store_rows]) {
        // i: from i0
        const int i = q - static_cast<int>((ph0 + static_cast<std::uint32_t>(a) * stride) & mask);
        if (i + g.lead >= 0 && i < end)
          store(dst + box.out_row(a) + i, s(box.s_row(a) + box.s_col(i + g.lead)));
        a += da;
        q += dq;
        if (q >= ti) {
          q -= ti;
          ++a;
        }
      }
    }
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    const Scratch s(team.team_scratch(tile_scratch_level<Exec>()), L.scratch_elements());
    const AffineBox affine{L.in_row, L.out_row, L.s_row, L.s_col};
    if constexpr (Kind == BoxKind::affine) {
      move(team, s, affine);
    } else {
      const index_t* t = tables;
      if constexpr (scratch_tables) {
        const Tables copy(team.team_scratch(tile_scratch_level<Exec>()), L.table_used());
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, L.table_used()),
                             [&](const int i) { copy(i) = tables[i]; });
        team.team_barrier();
        t = copy.data();
      }
      if constexpr (Kind == BoxKind::load_table) move(team, s, LoadTableBox{affine, t});
      else move(team, s, TableBox(t, L));
    }
  }

  /// Box rows of the input at src into scratch s transposed, in line blocks
  /// of the CPU's vectors (transpose_line_blocks_rows); false where it has
  /// none for T. Its arguments are copies: the dispatch's lambda takes their
  /// addresses, which the caller's own variables then keep out of registers
  /// (GCC no longer vectorised the tile loop's other loops). Its own
  /// dispatch, not the transposes' impl::in_line_blocks: through that one's
  /// second lambda GCC compiles move() to other code, and on an AMD EPYC the
  /// boxes that never take line blocks ran slower with it.
  template <class Box>
  KOKKOS_INLINE_FUNCTION bool load_in_lines(const T* src, const Box box, T* s, int ld, int nr,
                                            int nc) const {
    bool done = false;
    // The CPU's vectors are read here, not kept in the functor: a GPU's
    // kernel argument stays as small as before (KernelArgumentIsSmall).
    if constexpr (VMAX > 0)
      backends::with_vector_bytes<VMIN, VMAX>(runtime_vector_bytes<Exec, T>(), [&](auto vb) {
        constexpr int VB = decltype(vb)::value;
        if constexpr (backends::block_lanes<VB, T>() > 0) {
          transpose_line_blocks_rows<VB>([&](const int r) { return src + box.in_row(r); }, s, ld,
                                         nr, nc);
          done = true;
        }
      });
    return done;
  }

  /// The team's tiles t = league_rank, + league_size, ...
  template <class Box>
  KOKKOS_INLINE_FUNCTION void move(const member_type& team, const Scratch& s, const Box box) const {
    const int ld = L.ld, tid = team.team_rank(), nt = team.team_size();
    // Scratch holds load element (r, c) at c x ld + r where the plan lays it
    // out transposed (the host path's boxes, staged teams' interleaved ones).
    const bool tr = L.transposed;
    auto spos = [&](const int r, const int c) { return tr ? c * ld + r : r * ld + c; };
    // Store rows contiguous in scratch (from s_row(a) on): copied whole.
    const bool whole_rows = runs && L.rows_in_scratch;
    // The output's size, near enough (clipped tiles counted whole).
    const double out_bytes =
        static_cast<double>(L.ntiles) * L.box[load_rows] * L.box[load_cols] * sizeof(T);
    const bool stream = runs && stream_output<Exec>(out_bytes);
    // Staged: W elements of a row per unit (the rows hold whole units).
    Unit v[N] = {};
    auto staged = [&](const Geom& g) {
      return stage_fits(N, g.count[load_rows], g.count[load_cols] / W, nt);
    };
    auto fetch = [&](const Geom& g) {
      const T* src = in + g.in;
      stage_walk<N>(g.count[load_rows], g.count[load_cols] / W, tid, nt,
                    [&](const int e, const int r, const int u) {
                      v[e] = reinterpret_cast<const Unit*>(src + box.in_row(r))[u];
                    });
    };
    index_t t = team.league_rank();
    if (t >= L.ntiles) return;
    Geom g = geom(t);
    if (staged(g)) fetch(g);
    for (;;) {
      const bool st = staged(g);
      const T* src = in + g.in;
      auto* dst = out + g.out;
      if (st)
        stage_walk<N>(g.count[load_rows], g.count[load_cols] / W, tid, nt,
                      [&](const int e, const int r, const int u) {
                        if constexpr (W == 1) {
                          s(spos(r, u)) = v[e];
                        } else {
                          const auto x = Kokkos::bit_cast<Pack<T, W>>(v[e]);
TILEKIT_UNROLL
                          for (int k = 0; k < W; ++k) s(spos(r, u * W + k)) = x.v[k];
                        }
                      });
      else if (B > 0 && tr) {
        if constexpr (B > 0)  // s(c ld + r) = in(r, c)
          if (nt > 1 ||
              !load_in_lines(src, box, s.data(), ld, g.count[load_rows], g.count[load_cols]))
            micro_store_transposed_rows<B>([&](const int r) { return src + box.in_row(r); },
                                           s.data(), ld, g.count[load_rows], g.count[load_cols],
                                           tid, nt);
      } else
        flat_move<K>(
            g.count[load_rows], g.count[load_cols], tid, nt,
            [&](const int r, const int c) { return src[box.in_row(r) + c]; },
            [&](const int r, const int c, const T& x) { s(spos(r, c)) = x; });
      team.team_barrier();
      // The next tile's loads go out before this tile's stores.
      t += team.league_size();
      const bool more = t < L.ntiles;
      Geom h{};
      if (more) {
        h = geom(t);
        if (staged(h)) fetch(h);
      }
      // A staged tile has at most N elements per work item on the store side
      // too (the same elements): the walk is unrolled like the load's.
      bool skewed = false;
      if constexpr (can_skew) skewed = st && L.skew > 1;
      if (skewed)
        store_skewed(dst, s, g, box, tid, nt);
      else if (st)
        stage_walk<N>(g.count[store_rows], g.count[store_cols] / W, tid, nt,
                      [&](const int, const int a, const int u) {
                        if constexpr (W == 1) {
                          store(dst + box.out_row(a) + u, s(box.s_row(a) + box.s_col(u)));
                        } else {
                          Pack<T, W> x;
                          const index_t r = box.s_row(a);
TILEKIT_UNROLL
                          for (int k = 0; k < W; ++k) x.v[k] = s(r + box.s_col(u * W + k));
                          Unit* const row = reinterpret_cast<Unit*>(dst + box.out_row(a));
                          row[u] = Kokkos::bit_cast<Unit>(x);
                        }
                      });
      else if (whole_rows) {
        if constexpr (runs)  // one contiguous run each
          for (int a = tid; a < g.count[store_rows]; a += nt)
            put_run(dst + box.out_row(a), s.data() + box.s_row(a), g.count[store_cols], stream);
      } else if (stream) {
        if constexpr (runs)  // gathered from scratch into a buffer, then streamed
          for (int a = tid; a < g.count[store_rows]; a += nt)
            put_gathered(dst + box.out_row(a), s.data() + box.s_row(a),
                         [&](const int j) { return box.s_col(j); }, g.count[store_cols], true);
      } else
        flat_move<K>(
            g.count[store_rows], g.count[store_cols], tid, nt,
            [&](const int a, const int j) { return s(box.s_row(a) + box.s_col(j)); },
            [&](const int a, const int j, const T& x) { store(dst + box.out_row(a) + j, x); });
      if (!more) {
        stream_fence(stream);
        return;
      }
      team.team_barrier();
      g = h;
    }
  }
};

}  // namespace tilekit::impl
