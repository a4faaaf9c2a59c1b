#pragma once
// Checkered matrix multiplication kernels (seed 001). For N x N matrices A, B
// and the (N/2) x N matrix C, with s = i & 1 the parity of row i of A and j a
// column set (columns 2j, 2j + 1 of B):
//
//   C[i / 2][j + s N/2] = sum_p A[i][2p] B[2p+1][2j+1-s] + A[i][2p+1] B[2p][2j+s]
//
// i.e. C[i/2][j + s N/2] = sum_k A[i][k] B[k ^ 1][2j + ((k ^ s ^ 1) & 1)].
// Matrices are addressed through strides, so row- and column-major views use
// the same kernels.
#include <tilekit/impl/common/tile_copy.hpp>

namespace tilekit::impl {

/// Element (r, c) of a contiguous matrix lies at r * row + c * col.
struct Strides {
  index_t row = 0, col = 1;
};

/// Naive (seed section 5.1): one work item per output element, reading A and
/// B from global memory. Work item w is row i = w / (N/2) of A and column set
/// j = w % (N/2), so consecutive work items write consecutive elements of C.
template <class T>
struct CmmNaive {
  const T* a;
  const T* b;
  T* c;
  index_t n, half;
  Strides sa, sb, sc;

  KOKKOS_INLINE_FUNCTION void operator()(const index_t w) const {
    const index_t i = w / half, j = w - i * half, s = i & 1;
    const T* ar = a + i * sa.row;
    const T* b_for_even_k = b + sb.row + (2 * j + 1 - s) * sb.col;  // B[k + 1][2j + 1 - s]
    const T* b_for_odd_k = b + (2 * j + s) * sb.col;                 // B[k - 1][2j + s]
    T acc = T(0);
    for (index_t k = 0; k < n; k += 2)
      acc += ar[k * sa.col] * b_for_even_k[k * sb.row] +
             ar[(k + 1) * sa.col] * b_for_odd_k[k * sb.row];
    c[(i >> 1) * sc.row + (j + s * half) * sc.col] = acc;
  }
};

/// Scratch layout of CmmTiled: two buffers (double-buffered k steps), each
///   a: two planes p x k_step rows x lda, a_p(kk, rr) = A[i0 + 2 rr + p][k0 + kk]
///   b: two planes q x k_step rows x ldb, b_q(kk, jj) = B[k0 + kk][2 (j0 + jj) + q]
/// (A transposed and split by row parity, B split into even and odd columns),
/// then, when a thread runs several work items, their sums. Planes start half a
/// bank cycle (64 bytes) apart, so the splitting stores do not conflict; every
/// offset is a multiple of the 16-byte read width.
struct CmmScratchLayout {
  int lda = 0, ldb = 0, plane_a = 0, plane_b = 0, buffer = 0, sums = 0;  // in elements

  template <class T>
  static constexpr CmmScratchLayout make(int tile_rows, int tile_sets, int k_step, int pad,
                                         int sums) {
    constexpr int w = sizeof(T) >= 16 ? 1 : static_cast<int>(16 / sizeof(T));
    const int e = static_cast<int>(sizeof(T));
    auto up = [](int x, int m) { return (x + m - 1) / m * m; };
    // A plane of `rows` rows of `ld` elements, rounded to end 64 bytes past a 128-byte line.
    auto plane = [&](int rows, int ld) {
      const int bytes = rows * ld * e;
      return rows * ld + up(((64 - bytes % 128) % 128 + 128) % 128 / e, w);
    };
    CmmScratchLayout l;
    l.lda = up(tile_rows / 2 + pad, w);
    l.ldb = up(tile_sets + pad, w);
    l.plane_a = plane(k_step, l.lda);
    l.plane_b = plane(k_step, l.ldb);
    l.buffer = 2 * l.plane_a + 2 * l.plane_b;
    l.sums = sums;
    return l;
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION std::size_t bytes() const {  // + slack to align the base to 64 bytes
    return (2 * static_cast<std::size_t>(buffer) + static_cast<std::size_t>(sums)) * sizeof(T) + 64;
  }
};

/// Elements per thread of a block of `elements` staged by `threads`, capped
/// at the `regs` registers a backend gives staging (at least 1).
constexpr int stage_count(int elements, int threads, int regs) {
  const int per = (elements + threads - 1) / threads;
  return per < 1 ? 1 : (per < regs ? per : regs);
}

/// Tiled through team scratch, register-blocked. A tile is tile_rows = RI TR
/// consecutive rows of A (both parities) by tile_sets = RJ TC column sets,
/// computed by TR x TC work items. Item v has one parity p: items of parity 0
/// come first, then those of parity 1 (so that, on a GPU, a warp reads one
/// plane of B at a time); item (p, rg, tc) owns rows 2 (RI rg + ii) + p of the
/// tile (ii < RI) and column sets g TC VJ + tc VJ + x (groups g of VJ
/// consecutive sets, so neighbouring items read neighbouring scratch words):
/// RI x RJ outputs, an ordinary register-blocked product of its rows of A with
/// one column of each set, the column's parity flipping with k. Each k step
/// stages the tile's rows of A (transposed, split by parity) and the k_step x
/// 2 tile_sets block of B (split into even and odd columns); every staged
/// element is used, because both parities are in the tile. The team's threads
/// (vector length 1) stage with consecutive threads on consecutive addresses;
/// two buffers alternate: right after a step's barrier each thread loads its
/// first PA (PB) elements of A's (B's) next step into registers, computes the current
/// step while they arrive, and stores them into the other buffer before the
/// next barrier - one barrier per step. With Shared = false (GPU) a team
/// has one thread per work item, whose sums stay in registers; with Shared =
/// true (CPU) a thread runs several items in turn (a one-thread team: every
/// item of the tile), their sums live in scratch and are updated in place,
/// which the compiler vectorises along the column sets. RI = RJ = 1 is the
/// "tiled" variant: one output per work item. FLDA, FLDB, FTC and FKS, where
/// positive, are the default shape's lay.lda, lay.ldb, tc_count and k_step:
/// when the launch has them, a whole k step is one fully unrolled block that
/// reads scratch at compile-time offsets (no address arithmetic and no loop
/// control between its shared-memory reads and multiply-adds).
template <class Exec, class T, int RI, int RJ, int PA, int PB, bool Shared, int Level,
          int FLDA = 0, int FLDB = 0, int FTC = 0, int FKS = 0>
struct CmmTiled {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  static constexpr int W = sizeof(T) >= 16 ? 1 : static_cast<int>(16 / sizeof(T));
  static constexpr int WA = RI < W ? RI : W;  // A elements per scratch read
  static constexpr int VJ = RJ < W ? RJ : W;  // column sets per group
  static constexpr int GJ = RJ / VJ;          // groups
  static constexpr int NACC = RI * RJ;        // sums per work item
  static_assert(RI >= 1 && RJ >= 1 && RI % WA == 0 && RJ % VJ == 0 && (WA & (WA - 1)) == 0 &&
                    (VJ & (VJ - 1)) == 0,
                "tilekit::cmm: the register block must be made of power-of-two groups");

  const T* a;
  const T* b;
  T* c;
  index_t n, half;
  Strides sa, sb, sc;
  bool a_col_major, b_col_major;  // which tile index runs along memory
  int tr_count, tc_count;         // work items of a tile (tr_count even)
  int k_step, group;
  CmmScratchLayout lay;
  index_t row_tiles, set_tiles, ntiles;

  KOKKOS_INLINE_FUNCTION int tile_rows() const { return RI * tr_count; }
  KOKKOS_INLINE_FUNCTION int tile_sets() const { return RJ * tc_count; }

  // Tile t -> (row tile, set tile): groups of `group` row tiles, row tile
  // fastest inside a group, so neighbouring tiles share their B columns.
  KOKKOS_INLINE_FUNCTION void tile_of(index_t t, index_t& rt, index_t& st) const {
    const index_t per_group = group * set_tiles;
    const index_t g = t / per_group, rem = t - g * per_group;
    const index_t rows_here = Kokkos::min<index_t>(group, row_tiles - g * group);
    st = rem / rows_here;
    rt = g * group + (rem - st * rows_here);
  }

  // Work item v -> (parity, row group, column-set position).
  struct Item {
    int p, rg, tc;
    KOKKOS_INLINE_FUNCTION Item(const CmmTiled& f, int v) {
      const int per_parity = (f.tr_count / 2) * f.tc_count;
      p = v >= per_parity;
      const int rem = v - p * per_parity;
      rg = rem / f.tc_count;
      tc = rem - rg * f.tc_count;
    }
  };

  // One staged block (the tile's rows of A, or its columns of B, for one k
  // step) in memory order: line o, position x along the line, at
  // origin[o * ls + x * as]; lines >= line_limit or positions >= along_limit lie
  // outside the matrix and are staged as zeros.
  struct Block {
    const T* origin;
    index_t ls, as;
    int line_limit, along_limit;
  };
  // A: lines are tile rows (row-major A) or k (column-major A).
  KOKKOS_INLINE_FUNCTION int a_lines() const { return a_col_major ? k_step : tile_rows(); }
  KOKKOS_INLINE_FUNCTION int a_along() const { return a_col_major ? tile_rows() : k_step; }
  KOKKOS_INLINE_FUNCTION Block a_block(index_t i0, index_t k0) const {
    const int rows = static_cast<int>(Kokkos::min<index_t>(tile_rows(), n - i0));
    const int ks = static_cast<int>(Kokkos::min<index_t>(k_step, n - k0));
    const T* o = a + i0 * sa.row + k0 * sa.col;
    return a_col_major ? Block{o, sa.col, sa.row, ks, rows} : Block{o, sa.row, sa.col, rows, ks};
  }
  KOKKOS_INLINE_FUNCTION int a_slot(int o, int x) const {
    const int r = a_col_major ? x : o, kk = a_col_major ? o : x;
    return (r & 1) * lay.plane_a + kk * lay.lda + (r >> 1);
  }
  // B: lines are k (row-major B) or columns of the tile (column-major B).
  KOKKOS_INLINE_FUNCTION int b_lines() const { return b_col_major ? 2 * tile_sets() : k_step; }
  KOKKOS_INLINE_FUNCTION int b_along() const { return b_col_major ? k_step : 2 * tile_sets(); }
  KOKKOS_INLINE_FUNCTION Block b_block(index_t j0, index_t k0) const {
    const int cols = static_cast<int>(Kokkos::min<index_t>(2 * tile_sets(), n - 2 * j0));
    const int ks = static_cast<int>(Kokkos::min<index_t>(k_step, n - k0));
    const T* o = b + k0 * sb.row + 2 * j0 * sb.col;
    return b_col_major ? Block{o, sb.col, sb.row, cols, ks} : Block{o, sb.row, sb.col, ks, cols};
  }
  KOKKOS_INLINE_FUNCTION int b_slot(int o, int x) const {
    const int kk = b_col_major ? x : o, col = b_col_major ? o : x;
    return 2 * lay.plane_a + (col & 1) * lay.plane_b + kk * lay.ldb + (col >> 1);
  }

  // A thread's share of a block of lines x along elements: lanes of
  // consecutive threads along memory, groups of lanes on lines og, og + step, ...
  struct Share {
    int lines, along, lane, og, step, lanes;
    KOKKOS_INLINE_FUNCTION Share(int lines_, int along_, int tid, int nt)
        : lines(lines_), along(along_) {
      lanes = nt < along ? nt : (along > 0 ? along : 1);
      step = nt / lanes;
      lane = tid % lanes;
      og = tid / lanes;  // og >= step: this thread stages nothing
    }
    KOKKOS_INLINE_FUNCTION bool active() const { return og < step && lane < along; }
  };

  // The fast form of a share, worked out once per kernel: when every thread
  // has one position per line (lanes >= along), element e of a whole block
  // lies at origin[off + e * doff] and goes to scratch slot + e * dslot (e <
  // count), so staging a step costs an add per element. `linear` is false
  // where the slots do not advance evenly (an odd step over the lines that
  // carry the row or column parity); such shares take the general path.
  struct Lane {
    index_t off = 0, doff = 0;
    int slot = 0, dslot = 0, count = 0;
    bool linear = false;
  };
  template <class Slot>
  KOKKOS_INLINE_FUNCTION static Lane lane_of(const Share& sh, index_t ls, index_t as,
                                             const Slot& slot) {
    Lane l;
    if (sh.lanes < sh.along) return l;
    l.count = sh.active() ? (sh.lines - sh.og + sh.step - 1) / sh.step : 0;
    l.off = sh.og * ls + sh.lane * as;
    l.doff = sh.step * ls;
    l.slot = slot(sh.og, sh.lane);
    l.dslot = l.count > 1 ? slot(sh.og + sh.step, sh.lane) - l.slot : 0;
    l.linear = true;
    for (int e = 2; e < l.count; ++e)
      if (slot(sh.og + e * sh.step, sh.lane) != l.slot + e * l.dslot) l.linear = false;
    return l;
  }
  // Fast staging of a whole block, for a lane of a linear share that holds
  // exactly P elements (every default GPU shape): the P elements from global
  // memory (block origin o) into registers, then into buffer s. No bound and
  // no count is tested, so staging is a load, a store and an address add per
  // element; shares of any other size take the general path.
  template <int P>
  KOKKOS_FORCEINLINE_FUNCTION static void fetch_whole(const T* o, const Lane& l, T (&v)[P]) {
    const T* p = o + l.off;
TILEKIT_UNROLL
    for (int q = 0; q < P; ++q) v[q] = p[q * l.doff];
  }
  template <int P>
  KOKKOS_FORCEINLINE_FUNCTION static void put_whole(const Lane& l, const T (&v)[P], T* s) {
    T* const d = s + l.slot;
TILEKIT_UNROLL
    for (int q = 0; q < P; ++q) d[q * l.dslot] = v[q];
  }

  // General staging (partial k steps, matrices narrower than a tile, shares
  // that are not linear or not of P elements: every host team): loads this
  // thread's first P elements of a block into registers, zero outside the matrix.
  template <int P>
  KOKKOS_INLINE_FUNCTION static void fetch(const Block& blk, const Share& sh, T (&v)[P]) {
    const T* p = blk.origin + sh.og * blk.ls + sh.lane * blk.as;
    const index_t dq = sh.step * blk.ls;
    const bool lane_in = sh.active() && sh.lane < blk.along_limit;
TILEKIT_UNROLL
    for (int q = 0; q < P; ++q)
      v[q] = (lane_in && sh.og + q * sh.step < blk.line_limit) ? p[q * dq] : T(0);
  }
  // Stores the fetched elements into buffer s, then stages the rest directly.
  template <int P, class Slot>
  KOKKOS_INLINE_FUNCTION static void put(const Block& blk, const Share& sh, const T (&v)[P], T* s,
                                         const Slot& slot) {
    if (!sh.active()) return;
TILEKIT_UNROLL
    for (int q = 0; q < P; ++q) {
      const int o = sh.og + q * sh.step;
      if (o < sh.lines) s[slot(o, sh.lane)] = v[q];
    }
    int q = 0;
    for (int o = sh.og; o < sh.lines; o += sh.step, ++q)
      for (int x = sh.lane + (q < P ? sh.lanes : 0); x < sh.along; x += sh.lanes)
        s[slot(o, x)] = (o < blk.line_limit && x < blk.along_limit)
                            ? blk.origin[o * blk.ls + x * blk.as]
                            : T(0);
  }

  // One k: the item's RI elements of column k of A (at a_k) times RJ elements
  // of one plane of row k ^ 1 of B (at b_k, groups gs = tc_count VJ apart).
  template <class Sums>
  KOKKOS_FORCEINLINE_FUNCTION static void fma_k(const T* a_k, const T* b_k, int gs, Sums& acc) {
    T av[RI], bv[RJ];
TILEKIT_UNROLL
    for (int q = 0; q < RI / WA; ++q) {
      const Pack<T, WA> pk = reinterpret_cast<const Pack<T, WA>*>(a_k)[q];
TILEKIT_UNROLL
      for (int x = 0; x < WA; ++x) av[q * WA + x] = pk.v[x];
    }
TILEKIT_UNROLL
    for (int g = 0; g < GJ; ++g) {
      const Pack<T, VJ> pk = *reinterpret_cast<const Pack<T, VJ>*>(b_k + g * gs);
TILEKIT_UNROLL
      for (int x = 0; x < VJ; ++x) bv[g * VJ + x] = pk.v[x];
    }
TILEKIT_UNROLL
    for (int ii = 0; ii < RI; ++ii)
TILEKIT_UNROLL
      for (int jj = 0; jj < RJ; ++jj) acc[ii][jj] += av[ii] * bv[jj];
  }

  // k = 0 .. kk_end - 1 of buffer s for item `it` (sums in registers or
  // scratch). Its rows of A (parity p) meet row k ^ 1 of B through the odd
  // columns of the sets when k and p have the same parity, else the even ones:
  // an even k takes row k + 1 of plane p ^ 1, an odd k row k - 1 of plane p.
  // Fixed: the launch has the default shape (FLDA, FLDB, FTC) and kk_end = FKS.
  template <bool Fixed, class Sums>
  KOKKOS_FORCEINLINE_FUNCTION void steps(const T* s, int kk_end, const Item& it, Sums& acc) const {
    const int lda = Fixed ? FLDA : lay.lda, ldb = Fixed ? FLDB : lay.ldb;
    const int gs = (Fixed ? FTC : tc_count) * VJ;
    const T* pa = s + it.p * lay.plane_a + RI * it.rg;
    const T* pb = s + 2 * lay.plane_a + it.tc * VJ;
    const T* pb_even_k = pb + (it.p ^ 1) * lay.plane_b + ldb;
    const T* pb_odd_k = pb + it.p * lay.plane_b;
    if constexpr (Fixed) {
TILEKIT_UNROLL
      for (int kk = 0; kk < FKS; kk += 2) {
        fma_k(pa + kk * lda, pb_even_k + kk * ldb, gs, acc);
        fma_k(pa + (kk + 1) * lda, pb_odd_k + kk * ldb, gs, acc);
      }
    } else {
TILEKIT_UNROLL_4
      for (int kk = 0; kk < kk_end; kk += 2) {
        fma_k(pa, pb_even_k, gs, acc);
        fma_k(pa + lda, pb_odd_k, gs, acc);
        pa += 2 * lda;
        pb_even_k += 2 * ldb;
        pb_odd_k += 2 * ldb;
      }
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION static void zero(T (&acc)[RI][RJ]) {
TILEKIT_UNROLL
    for (int ii = 0; ii < RI; ++ii)
TILEKIT_UNROLL
      for (int jj = 0; jj < RJ; ++jj) acc[ii][jj] = T(0);
  }
  KOKKOS_FORCEINLINE_FUNCTION static void copy(const T (&from)[RI][RJ], T (&to)[RI][RJ]) {
TILEKIT_UNROLL
    for (int ii = 0; ii < RI; ++ii)
TILEKIT_UNROLL
      for (int jj = 0; jj < RJ; ++jj) to[ii][jj] = from[ii][jj];
  }
  // The sums of work item v when a thread runs several: in scratch.
  KOKKOS_FORCEINLINE_FUNCTION static T (&sums_of(T* sums, int v))[RI][RJ] {
    return *reinterpret_cast<T(*)[RI][RJ]>(sums + v * NACC);
  }

  // Writes item `it`'s outputs of the tile at (i0, j0) into C: those of rows
  // of C from r_from and column sets from j_from on (a shifted tile leaves
  // the ones it shares with its neighbour to the neighbour).
  KOKKOS_FORCEINLINE_FUNCTION void store(index_t i0, index_t j0, index_t r_from, index_t j_from,
                                         const Item& it, const T (&acc)[RI][RJ]) const {
    const index_t r0 = i0 / 2 + RI * it.rg, c0 = j0 + it.tc * VJ;
TILEKIT_UNROLL
    for (int ii = 0; ii < RI; ++ii) {
      const index_t r = r0 + ii;
      if (r < r_from || r >= half) continue;
TILEKIT_UNROLL
      for (int g = 0; g < GJ; ++g)
TILEKIT_UNROLL
        for (int x = 0; x < VJ; ++x) {
          const index_t j = c0 + g * tc_count * VJ + x;
          if (j >= j_from && j < half)
            c[r * sc.row + (j + it.p * half) * sc.col] = acc[ii][g * VJ + x];
        }
    }
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    // Level is compile-time: a GPU compiler then knows level-0 scratch is
    // shared memory and reads it with shared-memory loads, not generic ones.
    T* const scratch = static_cast<T*>(team.team_scratch(Level).get_shmem_aligned(
        lay.template bytes<T>() - 64, 64));
    const int tid = team.team_rank(), nt = team.team_size();
    const index_t nsteps = (n + k_step - 1) / k_step;
    const Share a_share(a_lines(), a_along(), tid, nt), b_share(b_lines(), b_along(), tid, nt);
    auto a_at = [this](int o, int x) { return a_slot(o, x); };
    auto b_at = [this](int o, int x) { return b_slot(o, x); };
    const Lane a_lane = a_col_major ? lane_of(a_share, sa.col, sa.row, a_at)
                                    : lane_of(a_share, sa.row, sa.col, a_at);
    const Lane b_lane = b_col_major ? lane_of(b_share, sb.col, sb.row, b_at)
                                    : lane_of(b_share, sb.row, sb.col, b_at);
    const Item mine(*this, tid);  // this thread's work item when it runs one
    const bool fixed =
        FLDA > 0 && lay.lda == FLDA && lay.ldb == FLDB && tc_count == FTC && k_step == FKS;
    for (index_t t = team.league_rank(); t < ntiles; t += team.league_size()) {
      index_t rt, st;
      tile_of(t, rt, st);
      // The last tile of a row or column of tiles, where it would pass the
      // matrix's edge, shifts back to end on it (when the matrix holds a whole
      // tile; tile_rows is even, so rows keep their parity): every tile but
      // those of a partial last k step then stages through the fast path, and
      // an even N that is not a multiple of the tile costs no slow path.
      const index_t r_from = rt * tile_rows() / 2, j_from = st * tile_sets();
      const index_t i0 = rt * tile_rows() + tile_rows() > n && n >= tile_rows()
                             ? n - tile_rows()
                             : rt * tile_rows();
      const index_t j0 = j_from + tile_sets() > half && half >= tile_sets() ? half - tile_sets()
                                                                            : j_from;
      [[maybe_unused]] T acc[RI][RJ];
      if constexpr (!Shared) zero(acc);
      // Block origins at k0 = 0; whole tiles with a whole k step stage through
      // the fast path.
      const T* const a0 = a + i0 * sa.row;
      const T* const b0 = b + 2 * j0 * sb.col;
      const bool a_fast = a_lane.linear && a_lane.count == PA && i0 + tile_rows() <= n;
      const bool b_fast = b_lane.linear && b_lane.count == PB && 2 * (j0 + tile_sets()) <= n;
      T va[PA], vb[PB];
      auto fetch_step = [&](index_t k0) {
        const bool whole_k = k0 + k_step <= n;
        if (a_fast && whole_k) fetch_whole(a0 + k0 * sa.col, a_lane, va);
        else fetch(a_block(i0, k0), a_share, va);
        if (b_fast && whole_k) fetch_whole(b0 + k0 * sb.row, b_lane, vb);
        else fetch(b_block(j0, k0), b_share, vb);
      };
      fetch_step(0);
      // Step si: store the fetched step into buffer si & 1 (last read by step
      // si - 2, which every thread finished before the previous barrier),
      // barrier, fetch step si + 1 into registers, compute step si.
      for (index_t si = 0; si < nsteps; ++si) {
        T* cur = scratch + (si & 1) * lay.buffer;
        const index_t k0 = si * k_step;
        const bool whole_k = k0 + k_step <= n;
        if (a_fast && whole_k) put_whole(a_lane, va, cur);
        else put(a_block(i0, k0), a_share, va, cur, a_at);
        if (b_fast && whole_k) put_whole(b_lane, vb, cur);
        else put(b_block(j0, k0), b_share, vb, cur, b_at);
        team.team_barrier();
        if (si + 1 < nsteps) fetch_step(k0 + k_step);
        const int kk_end = static_cast<int>(Kokkos::min<index_t>(k_step, n - k0));
        if constexpr (Shared) {
          T* const sums = scratch + 2 * lay.buffer;
          for (int v = tid; v < tr_count * tc_count; v += nt) {
            auto& sum = sums_of(sums, v);
            if (si == 0) zero(sum);
            if constexpr (RJ >= W) {
              steps<false>(cur, kk_end, Item(*this, v), sum);  // in place, vectorised along RJ
            } else {  // too narrow to vectorise: in registers for the step
              T held[RI][RJ];
              copy(sum, held);
              steps<false>(cur, kk_end, Item(*this, v), held);
              copy(held, sum);
            }
          }
        } else if (fixed && kk_end == FKS) {
          steps<true>(cur, kk_end, mine, acc);
        } else {
          steps<false>(cur, kk_end, mine, acc);
        }
      }
      if constexpr (Shared) {
        T* const sums = scratch + 2 * lay.buffer;
        for (int v = tid; v < tr_count * tc_count; v += nt)
          store(i0, j0, r_from, j_from, Item(*this, v), sums_of(sums, v));
      } else {
        store(i0, j0, r_from, j_from, mine, acc);
      }
      team.team_barrier();  // the next tile's first store reuses buffer 0
    }
  }
};

}  // namespace tilekit::impl
