#pragma once
// Out-of-place 2-D transpose kernels on row-major (LayoutRight) data:
// out (cols x rows) = in (rows x cols)^T. The dispatch maps LayoutLeft onto
// these by swapping extents. The row strides (leading dimensions) ld_in and
// ld_out are data: cols and rows for contiguous views, larger for a window of
// a larger allocation (docs/strided.md).
#include <tilekit/impl/common/micro_transpose.hpp>
#include <tilekit/impl/common/tile_copy.hpp>

namespace tilekit::impl {

/// Naive: one element per work item; reads coalesced, writes strided.
/// Element strides: in(i, j) = in[i * si0 + j * si1], out(j, i) =
/// out[j * so0 + i * so1] (contiguous: si = (cols, 1), so = (rows, 1)).
template <class T>
struct TransposeNaive {
  const T* in;
  T* out;
  index_t si0, si1, so0, so1;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i, const index_t j) const {
    out[j * so0 + i * so1] = in[i * si0 + j * si1];
  }
};

/// Tiled through team scratch: a tile is read row by row, then written back
/// transposed row by row, so both global accesses are coalesced. `ld` > tile
/// pads the scratch rows so the transposed read avoids bank conflicts.
///
/// A team takes tiles t = league_rank, + league_size, ... When a tile fits the
/// team's N staging registers per work item (GPUs: many work items per team),
/// the next tile's loads are issued before the current tile is stored, so
/// loads stay in flight across the barriers. Otherwise (CPUs: a team is one
/// thread), where the backend gives a micro-block edge, the tile is read into
/// scratch already transposed and written out as whole destination rows
/// (streamed when the output is large), the teams walking the tiles down
/// their columns so a thread's writes continue the same rows
/// (common/micro_transpose.hpp): in line blocks transposed in registers
/// where the CPU running it has vectors wide enough for the backend
/// (runtime_vector_bytes: transpose_runtime_min_bytes,
/// transpose_runtime_max_lanes; transpose_line_blocks), else micro-block by
/// micro-block; else it is read and written in row strips of K rows.
///
/// Skewed tiles (skew = S > 1, staged tiles only): where the output's rows do
/// not start on a memory transaction of S elements (an odd number of rows),
/// a rectangular tile writes each output row's piece across two partial
/// transactions at both ends. Instead tile (a, b) writes, of output row j in
/// column block b, the `ti` elements (a multiple of S) from a ti - s_j, where
/// s_j is how far row j's element a ti lies past a transaction's start: every
/// piece starts on one. The tile reads the input rows [a ti - S + 1, a ti +
/// ti) (at most `tile` rows: ti = the largest multiple of S up to tile - S +
/// 1), so neighbouring tiles read S - 1 rows twice (from the cache, as they
/// run close together) and every element is written once.
///
/// Batches (the permute's batched 2-D transpositions, as [2, 1, 0] and
/// [0, 2, 1] of a 3-D tensor): where mtiles > 0, the ntiles tiles are
/// ntiles / mtiles matrices of mtiles tiles each, matrix b read from in + b bi
/// and written to out + b bo; a tile finds its matrix with one division. The
/// skewed tiles' phase of matrix b is that of out + b bo.
template <class Exec, class T, int K, int N>
struct TransposeTiled {
  // The scratch path's micro-blocks: plain loops (no vector blocks).
  static constexpr int B = micro_edge<Exec, T, false>();
  static constexpr int PF = transpose_prefetch_blocks<Exec>();
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Tile = ScratchTile<T, Exec>;

  const T* in;
  T* out;
  index_t rows, cols;
  index_t ld_in, ld_out;  ///< row strides of in (>= cols) and out (>= rows)
  int tile, ld;
  index_t tiles_per_row, ntiles;
  int skew = 0;      ///< S: output pieces start on transactions of S elements (0: off)
  int ti = 0;        ///< input rows a tile writes (tile; skewed: skew_rows(tile, S))
  index_t phase = 0;  ///< skewed: out's address in elements, mod S
  index_t mtiles = 0;  ///< tiles of one matrix of a batch (0: one matrix, ntiles)
  index_t bi = 0, bo = 0;  ///< batches: element strides between matrices of in and out

  static std::size_t scratch_bytes(int tile, int ld) { return Tile::shmem_size(tile, ld); }
  /// Rows a skewed tile writes: the largest multiple of S up to tile - S + 1
  /// (0: tiles too small for S).
  static constexpr int skew_rows(int tile, int S) { return (tile - S + 1) / S * S; }
  /// Tiles of an m x n transpose (rows of ti input rows, columns of tile).
  static index_t tiles(index_t m, index_t n, int tile, int ti, int S) {
    const index_t down = S > 1 ? (m + S - 2) / ti + 1 : (m + ti - 1) / ti;
    return down * ((n + tile - 1) / tile);
  }

  /// Tile t: output pieces from input row i0, input rows [r0, r0 + nr) read,
  /// columns [j0, j0 + nc), of the matrix at in + io, out + oo.
  struct Geom {
    index_t i0, r0, j0;
    int nr, nc;
    index_t io, oo;
  };
  KOKKOS_INLINE_FUNCTION Geom geom(index_t t) const {
    Geom g;
    const index_t per = mtiles > 0 ? mtiles : ntiles;  // tiles of one matrix
    index_t b = 0;
    if (t >= per) {
      b = t / per;
      t -= b * per;
    }
    g.io = b * bi;
    g.oo = b * bo;
    if constexpr (tiles_down_columns<Exec>()) {
      const index_t tiles_per_column = per / tiles_per_row;
      g.i0 = (t % tiles_per_column) * ti;
      g.j0 = (t / tiles_per_column) * tile;
    } else {
      g.i0 = (t / tiles_per_row) * ti;
      g.j0 = (t % tiles_per_row) * tile;
    }
    g.r0 = skew > 1 ? Kokkos::max<index_t>(0, g.i0 - skew + 1) : g.i0;
    g.nr = static_cast<int>(Kokkos::min<index_t>(g.i0 + ti, rows) - g.r0);
    g.nc = static_cast<int>(Kokkos::min<index_t>(tile, cols - g.j0));
    return g;
  }
  /// The tile's first input element read, and its output row j0's element i0.
  KOKKOS_INLINE_FUNCTION const T* src(const Geom& g) const {
    return in + g.io + g.r0 * ld_in + g.j0;
  }
  KOKKOS_INLINE_FUNCTION T* dst(const Geom& g) const { return out + g.oo + g.j0 * ld_out + g.i0; }
  /// Matrices of the launch (one unless batched).
  KOKKOS_INLINE_FUNCTION index_t matrices() const { return mtiles > 0 ? ntiles / mtiles : 1; }

  /// Skewed store: output row j = j0 + c gets elements i0 - s_j + q, q < ti,
  /// from scratch row i - r0; a flat team, consecutive work items along a
  /// piece (no division past the first element). Per element the arithmetic
  /// is 32-bit but for the row's offset: d = i - i0, bounds and scratch row
  /// are small, and s_j = (phase + j ld_out) mod S keeps its low bits in
  /// unsigned 32-bit wrap-around (S divides 2^32).
  KOKKOS_INLINE_FUNCTION void store_skewed(const Tile& s, const Geom& g, int tid, int nt) const {
    const int dc = nt / ti, dq = nt % ti;
    int c = tid / ti, q = tid % ti;
    T* const base = dst(g);
    const std::uint32_t mask = static_cast<std::uint32_t>(skew - 1);
    const std::uint32_t ph0 = static_cast<std::uint32_t>(phase + g.oo + g.j0 * ld_out);
    const std::uint32_t ldu = static_cast<std::uint32_t>(ld_out);
    // d = i - i0 in [lo, hi): i >= 0 and i < rows (d > -S and d < ti always).
    const int lo = -static_cast<int>(Kokkos::min<index_t>(g.i0, skew));
    const int hi = static_cast<int>(Kokkos::min<index_t>(rows - g.i0, ti));
    const int off = static_cast<int>(g.i0 - g.r0);  // scratch row of i0
    while (c < g.nc) {
      const int d = q - static_cast<int>((ph0 + static_cast<std::uint32_t>(c) * ldu) & mask);
      if (d >= lo && d < hi) base[c * ld_out + d] = s(off + d, c);
      c += dc;
      q += dq;
      if (q >= ti) {
        q -= ti;
        ++c;
      }
    }
  }

  /// The input rows below tile g that the host path prefetches while it reads
  /// the tile's last rows: the next tile down the same columns, which a
  /// thread takes next where tiles go down the columns (a host's teams take
  /// consecutive tiles); none otherwise.
  KOKKOS_INLINE_FUNCTION RowsAhead rows_below(const Geom& g) const {
    if constexpr (!tiles_down_columns<Exec>() || PF == 0) return {};
    const index_t below = rows - (g.r0 + g.nr);
    return {static_cast<int>(Kokkos::min<index_t>(below, PF * B)), g.nc};
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    Tile s(team.team_scratch(tile_scratch_level<Exec>()), tile, ld);
    const int tid = team.team_rank(), nt = team.team_size();
    T v[N];
    const bool stream =
        B > 0 && stream_output<Exec>(static_cast<double>(rows) * cols * sizeof(T) * matrices());
    index_t t = team.league_rank();
    if (t < ntiles) {
      const Geom g = geom(t);
      if (stage_fits(N, g.nr, g.nc, nt))
        stage_fetch(v, src(g), ld_in, g.nr, g.nc, tid, nt);
    }
    for (; t < ntiles; t += team.league_size()) {
      const Geom g = geom(t);
      const bool staged = stage_fits(N, g.nr, g.nc, nt);
      bool lines = false;  // moved whole already (line blocks, one-thread teams)
      if (staged)
        stage_commit(v, s, g.nr, g.nc, tid, nt);
      else if constexpr (B > 0) {  // transposed on the way in: s(c, r) = in(r, c)
        if (nt == 1)
          lines = in_line_blocks<Exec, T>([&](auto vb) {
            constexpr int VB = decltype(vb)::value;
            const auto lds = static_cast<index_t>(s.stride(0));
            transpose_line_blocks<VB>(src(g), ld_in, s.data(), lds, g.nr, g.nc);
            backends::put_rows_vectors<VB>(dst(g), ld_out, s.data(), lds, g.nc, g.nr, stream);
          });
        if (!lines)
          micro_store_transposed<B, PF>(src(g), ld_in, s.data(),
                                        static_cast<index_t>(s.stride(0)), g.nr, g.nc, tid, nt,
                                        rows_below(g));
      } else
        flat_tile_load<K>(s, src(g), ld_in, g.nr, g.nc, tid, nt);
      team.team_barrier();
      const index_t tn = t + team.league_size();
      if (tn < ntiles) {
        const Geom h = geom(tn);
        if (stage_fits(N, h.nr, h.nc, nt))
          stage_fetch(v, src(h), ld_in, h.nr, h.nc, tid, nt);
      }
      if (staged && skew > 1)
        store_skewed(s, g, tid, nt);
      else if (staged)
        stage_store_transposed(s, dst(g), ld_out, g.nr, g.nc, tid, nt);
      else if (!lines) {  // (line blocks wrote their tile already)
        if constexpr (B > 0)  // whole destination rows, one contiguous run each
          store_tile_rows(s, dst(g), ld_out, g.nc, g.nr, tid, nt, stream);
        else
          flat_store_transposed<K>(s, dst(g), ld_out, g.nr, g.nc, tid, nt);
      }
      team.team_barrier();
    }
    stream_fence(stream);
  }
};

/// dst[r * ds] = src[r * ss] for the B elements r < B: all loaded before
/// any is stored.
template <int B, class T>
KOKKOS_INLINE_FUNCTION void move_batch(const T* src, index_t ss, T* dst, index_t ds) {
  T v[B];
TILEKIT_UNROLL
  for (int k = 0; k < B; ++k) v[k] = src[k * ss];
TILEKIT_UNROLL
  for (int k = 0; k < B; ++k) dst[k * ds] = v[k];
}

/// The same for the `count` < 2 B elements of a tail: a batch of B if they
/// are that many, then batches of B / 2, B / 4, ..., 1 (thin = 9 with B = 8:
/// 8 + 1).
template <int B, class T>
KOKKOS_INLINE_FUNCTION void move_tail(const T* src, index_t ss, T* dst, index_t ds, int count) {
  if (count >= B) {
    move_batch<B>(src, ss, dst, ds);
    src += B * ss;
    dst += B * ds;
    count -= B;
  }
  if constexpr (B > 1) move_tail<B / 2>(src, ss, dst, ds, count);
}

/// dst[r * ds] = src[r * ss] for r < count, in batches of B elements loaded
/// before any is stored, and the rest by move_tail: every load is one of
/// the count (guarded loads of whole batches, or whole batches re-reading
/// an element in bounds, ran slower).
template <int B, class T>
KOKKOS_INLINE_FUNCTION void move_batched(const T* src, index_t ss, T* dst, index_t ds, int count) {
  int r = 0;
  for (; r + B <= count; r += B) move_batch<B>(src + r * ss, ss, dst + r * ds, ds);
  if constexpr (B > 1) move_tail<B / 2>(src + r * ss, ss, dst + r * ds, ds, count - r);
}

/// Thin matrices (one side of a few elements: 2 x N, N x 2): a tile would be
/// a sliver (2 x 64 elements), so instead each work item q of the long side
/// moves the few elements r of the thin side, element (q, r) read from
/// in[q * a + r * b] and written to out[q * c + r * d]. The dispatch orders
/// the strides so that consecutive work items step through unit strides: the
/// array whose rows are the thin side is walked row by row (one contiguous
/// run), the other as a few contiguous streams, one per thin index. A work
/// item loads its elements in batches of up to R before it stores them
/// (move_batched; R from the backend's transpose_thin_batch_bytes: on a GPU
/// the whole side, so that it is in flight at once; on a host 1, the plain
/// loop).
template <class T, int R>
struct TransposeThin {
  const T* in;
  T* out;
  index_t a, b, c, d;
  int thin;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t q) const {
    move_batched<R>(in + q * a, b, out + q * c, d, thin);
  }
};

/// Thin matrices through team scratch (backends whose Traits set
/// transpose_thin_chunk: GPUs, where a work item writing its own row of
/// `thin` elements leaves every store instruction of a warp a scatter of
/// partial sectors). The input is the wide array (`thin` rows of `len`
/// elements, row stride ws), the output the narrow one (`len` rows of `thin`
/// elements, row stride ns). A team takes chunks of `chunk` consecutive
/// long-side indices q (c = league_rank, + league_size, ...). Work item tid
/// reads the columns q = tid, tid + threads, ... of the chunk, K rows at a
/// time (neighbouring work items read neighbouring addresses of each row),
/// into scratch in the output's order, s[q * thin + r]. After a barrier the
/// team writes the chunk: where the narrow rows are dense (ns == thin) the
/// chunk is one contiguous run of the output, copied from scratch in units of
/// VecBytes where the run starts on one (else element by element), with no
/// index arithmetic; otherwise element e goes to row e / thin. (Padded
/// scratch rows with both passes element by element were bound by their
/// integer instructions.)
template <class Exec, class T, int K, int VecBytes>
struct TransposeThinStaged {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  static constexpr int W =
      VecBytes > int(sizeof(T)) && VecBytes % int(sizeof(T)) == 0 ? VecBytes / int(sizeof(T)) : 1;
  using Vec = Pack<T, W>;
  const T* in;
  T* out;
  index_t len, ws, ns;
  int thin;
  index_t chunk, chunks;
  int threads;  ///< work items per team

  /// The chunk's elements, and room to align them to a Vec.
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int thin, index_t chunk) {
    return sizeof(T) * static_cast<std::size_t>(chunk) * static_cast<std::size_t>(thin) +
           alignof(Vec);
  }

  KOKKOS_INLINE_FUNCTION void fetch(const member_type& team, T* s, index_t q0, index_t nq) const {
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, threads), [&](const int tid) {
      for (index_t q = tid; q < nq; q += threads) {
        move_batched<K>(in + q0 + q, ws, s + q * thin, 1, thin);
      }
    });
  }

  KOKKOS_INLINE_FUNCTION void store(const member_type& team, const T* s, index_t q0,
                                    index_t nq) const {
    const index_t count = nq * thin;
    T* dst = out + q0 * ns;
    const bool dense = ns == thin;
    const bool aligned = W > 1 && reinterpret_cast<std::uintptr_t>(dst) % sizeof(Vec) == 0;
    const index_t units = dense && aligned ? count / W : 0;  // whole Vecs, then elements
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, threads), [&](const int tid) {
      const Vec* sv = reinterpret_cast<const Vec*>(s);
      Vec* dv = reinterpret_cast<Vec*>(dst);
      for (index_t u = tid; u < units; u += threads) dv[u] = sv[u];
      if (dense) {
        for (index_t e = units * W + tid; e < count; e += threads) dst[e] = s[e];
      } else {
        for (index_t e = tid; e < count; e += threads) {
          const index_t q = div_nonneg(e, thin);
          dst[q * ns + (e - q * thin)] = s[e];
        }
      }
    });
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    T* s = static_cast<T*>(team.team_shmem().get_shmem_aligned(
        sizeof(T) * static_cast<std::size_t>(chunk) * static_cast<std::size_t>(thin),
        alignof(Vec)));
    for (index_t c = team.league_rank(); c < chunks; c += team.league_size()) {
      const index_t q0 = c * chunk, nq = len - q0 < chunk ? len - q0 : chunk;
      fetch(team, s, q0, nq);
      team.team_barrier();
      store(team, s, q0, nq);
      team.team_barrier();
    }
  }
};

/// A plain copy, one element per work item: the "Kokkos copy kernel" row of
/// the benchmarks (Kokkos::deep_copy is the baseline that counts).
template <class T>
struct CopyKernel {
  const T* src;
  T* dst;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i) const { dst[i] = src[i]; }
};

}  // namespace tilekit::impl
