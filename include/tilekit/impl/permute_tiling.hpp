#pragma once
// Host-side layout of the two general permute kernels, worked out once per
// plan from the fused shape and the backend's tile edge:
//
// * rows  — the fastest dimension stays (or the permutation is a copy): the
//   output is rows of L contiguous elements, each a contiguous input row; the
//   rows are cut into pieces of `width` and teams copy pieces.
// * tiled — otherwise: a tile is a box of the tensor whose input-contiguous
//   part (the "load run": the fastest input dimensions, all whole but the
//   last) is read row by row into scratch, and whose output-contiguous part
//   (the "store run", the fastest output dimensions) is written row by row
//   from scratch. A run may span several small dimensions, so short extents
//   still give long coalesced rows (cuTT's "packed" idea); further dimensions
//   may join the box to give a team enough work.
//
// Tables (input offset of a load row, output offset of a store row, scratch
// position of a store element) depend only on the box, not on the tile, so
// the plan computes them once on the device.
#include <tilekit/impl/permute_fusion.hpp>
#include <tilekit/impl/tile_copy.hpp>  // index_t, TILEKIT_UNROLL

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tilekit::impl {

/// a / b for non-negative a, b, with a 32-bit division when both fit (GPUs
/// divide 64-bit integers in software).
KOKKOS_INLINE_FUNCTION index_t div_nonneg(index_t a, index_t b) {
  if (((a | b) >> 32) == 0)
    return static_cast<index_t>(static_cast<std::uint32_t>(a) / static_cast<std::uint32_t>(b));
  return a / b;
}

/// A flat index read as mixed-radix digits (digit 0 fastest) and mapped to an
/// offset: sum of digit[i] * stride[i].
struct Digits {
  int count = 0;
  index_t extent[permute_max_rank] = {};
  index_t stride[permute_max_rank] = {};

  void push(index_t e, index_t s) {
    extent[count] = e;
    stride[count] = s;
    ++count;
  }
  index_t volume() const {
    index_t v = 1;
    for (int i = 0; i < count; ++i) v *= extent[i];
    return v;
  }
  KOKKOS_INLINE_FUNCTION index_t offset(index_t flat) const {
    index_t off = 0;
    // Unrolled over the largest rank, so the digits are read at fixed offsets
    // (no local-memory copy of a kernel argument on GPUs).
TILEKIT_UNROLL
    for (int i = 0; i < permute_max_rank; ++i) {
      if (i >= count) break;
      const index_t q = div_nonneg(flat, extent[i]);
      off += (flat - q * extent[i]) * stride[i];
      flat = q;
    }
    return off;
  }
};

// ------------------------------------------------------------------- rows

/// Output rows of `len` elements, each contiguous in the input too; pieces of
/// `width` elements (a row's last may be shorter), `unit` pieces per team step.
struct RowsLayout {
  index_t rows = 0, len = 0;
  index_t pieces_per_row = 0, pieces = 0;
  int width = 1, unit = 1;
  index_t units = 0;
  Digits in_row;  ///< output row index -> input offset of the row
};

/// For a fused shape that is a copy (rank <= 1) or whose fastest dimension
/// stays in place: a team step moves about `step` elements, as whole rows when
/// they are shorter, else as pieces of `step`.
inline RowsLayout make_rows_layout(const PermuteShape& f, index_t step) {
  RowsLayout L;
  L.len = f.rank == 0 ? 1 : f.n[f.rank - 1];
  L.width = static_cast<int>(std::min(L.len, step));
  L.rows = f.rank <= 1 ? 1 : f.size() / L.len;
  const auto si = f.input_strides();
  for (int k = f.rank - 2; k >= 0; --k) L.in_row.push(f.n[f.p[k]], si[f.p[k]]);
  L.pieces_per_row = (L.len + L.width - 1) / L.width;
  L.pieces = L.rows * L.pieces_per_row;
  L.unit = static_cast<int>(std::clamp<index_t>(step / L.width, 1, L.pieces));
  L.units = (L.pieces + L.unit - 1) / L.unit;
  return L;
}

// ------------------------------------------------------------------ tiled

/// The box of a tile: chunk[d] elements of input dimension d (0: outside).
struct TileBox {
  std::vector<int> load_run;   ///< input dims, fastest first: whole but the last
  std::vector<int> store_run;  ///< input dims in output order, fastest first
  std::vector<int> extra;      ///< in the box, in neither run
  std::array<index_t, permute_max_rank> chunk{};
  index_t volume() const {
    index_t v = 1;
    for (index_t c : chunk) v *= c > 0 ? c : 1;
    return v;
  }
};

/// Grows the load and store runs in turns up to `run` elements each (a
/// dimension joined partially ends a run: it must be the run's last), then
/// adds whole dimensions, or one partial one when the row sets allow it,
/// until the box holds about `tile` elements.
inline TileBox choose_box(const PermuteShape& f, index_t run, index_t tile) {
  TileBox b;
  const int r = f.rank;
  index_t vol_l = 1, vol_s = 1;
  int il = r - 1, ks = r - 1;
  bool open_l = true, open_s = true;
  auto take = [&](int d, index_t vol, std::vector<int>& list, bool& open) -> index_t {
    if (b.chunk[d] == 0) b.chunk[d] = std::min(f.n[d], std::max<index_t>(1, run / vol));
    list.push_back(d);
    if (b.chunk[d] < f.n[d]) open = false;
    return vol * b.chunk[d];
  };
  while (open_l || open_s) {
    // Each run holds at least one dimension, however small `run` is.
    if (open_l && (il < 0 || (!b.load_run.empty() && vol_l >= run))) open_l = false;
    if (open_l) vol_l = take(il--, vol_l, b.load_run, open_l);
    if (open_s && (ks < 0 || (!b.store_run.empty() && vol_s >= run))) open_s = false;
    if (open_s) vol_s = take(f.p[ks--], vol_s, b.store_run, open_s);
  }
  auto in = [](const std::vector<int>& v, int d) { return std::find(v.begin(), v.end(), d) != v.end(); };
  auto partial = [&](int d) { return b.chunk[d] < f.n[d]; };
  bool rows_partial = (partial(b.store_run.back()) && !in(b.load_run, b.store_run.back())) ||
                      (partial(b.load_run.back()) && !in(b.store_run, b.load_run.back()));
  for (int k = r - 1; k >= 0; --k) {
    const int d = f.p[k];
    if (b.chunk[d] != 0) continue;
    const index_t room = tile / b.volume();
    if (room < 2) break;
    if (f.n[d] <= room) {
      b.chunk[d] = f.n[d];
    } else {
      if (rows_partial) break;
      b.chunk[d] = room;
      rows_partial = true;
    }
    b.extra.push_back(d);
  }
  return b;
}

/// Roles of the four per-tile counts.
enum TileSet { load_rows = 0, load_cols = 1, store_rows = 2, store_cols = 3 };

/// Everything the tiled kernel needs; trivially copyable into the kernel.
struct TiledLayout {
  // The tile grid: digits of the tile index (digit 0 fastest), those
  // dimensions with more than one tile.
  int digits = 0;
  index_t ntile[permute_max_rank] = {}, step_in[permute_max_rank] = {},
          step_out[permute_max_rank] = {}, extent[permute_max_rank] = {},
          chunk[permute_max_rank] = {};
  index_t ntiles = 1;
  // Per set (TileSet order): elements of a whole tile, the product over the
  // set's dimensions other than its partial one, and the digit of its partial
  // dimension (-1: none). A clipped tile's count is whole * clipped extent.
  int box[4] = {1, 1, 1, 1};
  int whole[4] = {1, 1, 1, 1};
  int clip[4] = {-1, -1, -1, -1};
  int ld = 1;  ///< scratch row pitch: box[load_cols] + pad
  // Tables, computed once into the plan's workspace (in this order).
  Digits in_rows;       ///< load row -> input offset
  Digits out_rows;      ///< store row -> output offset
  Digits scratch_rows;  ///< store row -> scratch position
  Digits scratch_cols;  ///< store column -> scratch position
  KOKKOS_INLINE_FUNCTION index_t table_size() const {
    return box[load_rows] + 2 * box[store_rows] + box[store_cols];
  }
  KOKKOS_INLINE_FUNCTION std::size_t scratch_elements() const {
    return static_cast<std::size_t>(box[load_rows]) * ld;
  }
};

inline TiledLayout make_tiled_layout(const PermuteShape& f, const TileBox& b, int pad) {
  TiledLayout L;
  const auto si = f.input_strides();
  const auto so = f.output_strides();
  auto in = [](const std::vector<int>& v, int d) { return std::find(v.begin(), v.end(), d) != v.end(); };
  auto partial = [&](int d) { return b.chunk[d] < f.n[d]; };
  // Member lists of the four sets; a partial member goes last (slowest digit),
  // so a clipped tile is a prefix of each set's enumeration.
  std::vector<int> set[4];
  set[load_cols] = b.load_run;
  set[store_cols] = b.store_run;
  for (int d : b.store_run)
    if (!in(b.load_run, d)) set[load_rows].push_back(d);
  for (int d : b.load_run)
    if (!in(b.store_run, d)) set[store_rows].push_back(d);
  for (int d : b.extra) set[load_rows].push_back(d), set[store_rows].push_back(d);
  for (auto& s : set)
    std::stable_partition(s.begin(), s.end(), [&](int d) { return !partial(d); });
  // Scratch holds the box in input order: row (load row) x ld + column.
  std::array<index_t, permute_max_rank> cstride{}, rstride{};
  index_t acc = 1;
  for (int d : set[load_cols]) cstride[d] = acc, acc *= b.chunk[d];
  acc = 1;
  for (int d : set[load_rows]) rstride[d] = acc, acc *= b.chunk[d];
  for (int s = 0; s < 4; ++s) {
    index_t v = 1, w = 1;
    for (int d : set[s]) {
      v *= b.chunk[d];
      if (!partial(d)) w *= b.chunk[d];
    }
    L.box[s] = static_cast<int>(v);
    L.whole[s] = static_cast<int>(w);
  }
  L.ld = L.box[load_cols] + pad;
  auto spos = [&](int d) { return in(b.load_run, d) ? cstride[d] : L.ld * rstride[d]; };
  for (int d : set[load_rows]) L.in_rows.push(b.chunk[d], si[d]);
  for (int d : set[store_rows]) {
    L.out_rows.push(b.chunk[d], so[d]);
    L.scratch_rows.push(b.chunk[d], spos(d));
  }
  for (int d : set[store_cols]) L.scratch_cols.push(b.chunk[d], spos(d));
  // The tile grid, digits in output order from the fastest.
  for (int k = f.rank - 1; k >= 0; --k) {
    const int d = f.p[k];
    const index_t c = b.chunk[d] > 0 ? b.chunk[d] : 1;
    const index_t nt = (f.n[d] + c - 1) / c;
    if (nt <= 1) continue;
    const int i = L.digits++;
    L.ntile[i] = nt;
    L.step_in[i] = c * si[d];
    L.step_out[i] = c * so[d];
    L.extent[i] = f.n[d];
    L.chunk[i] = c;
    L.ntiles *= nt;
    for (int s = 0; s < 4; ++s)
      if (b.chunk[d] > 0 && partial(d) && in(set[s], d)) L.clip[s] = i;
  }
  return L;
}

/// Run target of the tiled kernel: `tile` elements, times about sqrt(L) when
/// the fastest dimension (L elements) is in both runs, so the box still holds
/// about tile^2 elements.
inline index_t tiled_run_target(const PermuteShape& f, int tile) {
  index_t run = tile;
  if (f.rank >= 1 && f.p[f.rank - 1] == f.rank - 1) {
    index_t s = 1;
    while ((s + 1) * (s + 1) <= f.n[f.rank - 1]) ++s;
    run *= s;
  }
  return run;
}

}  // namespace tilekit::impl
