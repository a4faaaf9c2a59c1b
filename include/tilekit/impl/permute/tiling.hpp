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
// The offsets of a load row, a store row and a store element's scratch
// position depend only on the box, not on the tile. Where such a map is
// index x stride (one dimension per set, as in every batched 2-D transpose)
// the kernel computes it; otherwise the plan fills tables once on the device
// (BoxKind).
#include <tilekit/impl/common/digits.hpp>
#include <tilekit/impl/common/shape.hpp>
#include <tilekit/impl/common/tile_copy.hpp>  // index_t, TILEKIT_UNROLL

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tilekit::impl {

/// Whether dimension d is among dims (a box's runs and its other dimensions).
inline bool has_dim(const std::vector<int>& dims, int d) {
  return std::find(dims.begin(), dims.end(), d) != dims.end();
}

// ------------------------------------------------------------------- rows

/// Output rows of `len` elements, each contiguous in the input too; pieces of
/// `width` elements (a row's last may be shorter), `unit` pieces per team step.
struct RowsLayout {
  index_t rows = 0, len = 0;
  index_t pieces_per_row = 0, pieces = 0;
  int width = 1, unit = 1;
  index_t units = 0;
  Digits in_row;   ///< row index -> input offset of the row
  Digits out_row;  ///< row index -> output offset of the row
};

/// For a fused shape that is a copy (rank <= 1) or whose fastest dimension
/// stays in place, with unit stride on both sides (unit_inner): a team step
/// moves about `step` elements, as whole rows when they are shorter, else as
/// pieces of `step`. The rows are numbered in the output's order (consecutive
/// rows are written one after another), or with `input_order` in the
/// input's (read one after another; the output's rows then scattered).
inline RowsLayout make_rows_layout(const PermuteShape& f, index_t step, bool input_order = false) {
  RowsLayout L;
  L.len = f.rank == 0 ? 1 : f.n[f.rank - 1];
  L.width = static_cast<int>(std::min(L.len, step));
  L.rows = f.rank <= 1 ? 1 : f.size() / L.len;
  // The row dimensions (input dimensions), fastest digit first.
  std::vector<int> dims;
  for (int k = f.rank - 2; k >= 0; --k) dims.push_back(f.p[k]);
  if (input_order)
    std::stable_sort(dims.begin(), dims.end(), [&](int a, int b) { return f.si[a] < f.si[b]; });
  for (const int d : dims) {
    L.in_row.push(f.n[d], f.si[d]);
    L.out_row.push(f.n[d], f.so[d]);
  }
  L.pieces_per_row = (L.len + L.width - 1) / L.width;
  L.pieces = L.rows * L.pieces_per_row;
  L.unit = static_cast<int>(std::clamp<index_t>(step / L.width, 1, L.pieces));
  L.units = (L.pieces + L.unit - 1) / L.unit;
  return L;
}

/// The rows method's shape in units of W elements (the packed moves: the
/// bits of W elements in one integer): f whose fastest dimension stays, with
/// that extent and every stride divided by W. False (f unchanged) unless every
/// row starts on a multiple of W elements and holds a multiple of W.
inline bool pack_rows_shape(PermuteShape& f, int W) {
  if (W <= 1 || f.rank < 1) return false;
  const int in = f.rank - 1;
  if (f.p[in] != in || f.si[in] != 1 || f.so[in] != 1 || f.n[in] % W != 0) return false;
  for (int d = 0; d < in; ++d)
    if (f.n[d] > 1 && (f.si[d] % W != 0 || f.so[d] % W != 0)) return false;
  f.n[in] /= W;
  for (int d = 0; d < in; ++d) f.si[d] /= W, f.so[d] /= W;
  return true;
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
/// dimension joined partially ends a run: it must be the run's last), grows a
/// partial dimension that ends both runs towards `tile` (with `team_tables`,
/// unless rows of a further dimension fill the box better: below), then adds
/// whole dimensions, or one partial one (the one that tiles most evenly) when
/// the row sets allow it, until the box holds about `tile` elements. A run's elements are
/// consecutive in memory: a dimension joins a run only when its stride is the
/// extent times the stride of the run's last (whole) dimension, which views
/// with gaps (strided_shape) may break; the shape must be unit_inner.
/// `run_s` > 0 gives the store run its own target (hosts: long load runs, as
/// the out-of-place transpose's tiles of transpose_tile_rows rows).
/// `team_tables`: the kernel's teams copy a box's tables into their scratch
/// (staged teams, PermuteTiled::scratch_tables); one-thread teams read them
/// where they are. `multiple`: the dimension that ends both runs grows to a
/// multiple of it (unless it is taken whole), so that the runs of its tiles
/// start on, and hold, whole units of the packed moves (pack_tiles).
inline TileBox choose_box(const PermuteShape& f, index_t run, index_t tile, index_t run_s = 0,
                          bool team_tables = false, int multiple = 1) {
  const index_t run_l = run;
  if (run_s <= 0) run_s = run;
  TileBox b;
  const int r = f.rank;
  index_t vol_l = 1, vol_s = 1;
  int il = r - 1, ks = r - 1;
  bool open_l = true, open_s = true;
  // Input dim il continues the load run (which ends with il + 1); output
  // position ks continues the store run (which ends with p[ks + 1]).
  auto chains_l = [&](int d) { return d == r - 1 || f.si[d] == f.si[d + 1] * f.n[d + 1]; };
  auto chains_s = [&](int k) {
    return k == r - 1 || f.so[f.p[k]] == f.so[f.p[k + 1]] * f.n[f.p[k + 1]];
  };
  auto take = [&](int d, index_t vol, index_t want, std::vector<int>& list, bool& open) -> index_t {
    if (b.chunk[d] == 0) b.chunk[d] = std::min(f.n[d], std::max<index_t>(1, want / vol));
    list.push_back(d);
    if (b.chunk[d] < f.n[d]) open = false;
    return vol * b.chunk[d];
  };
  while (open_l || open_s) {
    // Each run holds at least one dimension, however small `run` is.
    if (open_l && (il < 0 || (!b.load_run.empty() && (vol_l >= run_l || !chains_l(il)))))
      open_l = false;
    if (open_l) vol_l = take(il--, vol_l, run_l, b.load_run, open_l);
    if (open_s && (ks < 0 || (!b.store_run.empty() && (vol_s >= run_s || !chains_s(ks)))))
      open_s = false;
    if (open_s) vol_s = take(f.p[ks--], vol_s, run_s, b.store_run, open_s);
  }
  const auto in = has_dim;
  auto partial = [&](int d) { return b.chunk[d] < f.n[d]; };
  // A dimension cut short in both runs ends both: growing it lengthens both
  // runs at once, up to a box of about `tile` elements. Small extents on both
  // sides of a long one give such boxes ((3, 2^24, 5) reversed: runs of 5 x 6
  // and 3 x 6 elements against 32, a box of 90, far too small to keep the
  // memory busy; grown, 5 x 68 and 3 x 68 in a box of 1020), and so do 2-D
  // transpositions with a short side ((3, n) [1, 0]: 3 x 64, grown 3 x 1365).
  // But where teams copy the tables (team_tables), both runs reached their
  // targets and the store run spans several dimensions, it does not grow into
  // the room that rows of a dimension outside the runs would fill (two rows
  // or more; below): such a store run's scratch positions come from a table,
  // an 8-byte entry per element of the run, which a staged team copies into
  // its scratch before its tiles (on Cuda, one tile a team). Grown to the
  // whole box, the run copies an entry per element it moves; rows of another
  // dimension share the entries instead ((1024, 32, 32, 256) [1, 0, 3, 2]:
  // two store rows of 32 x 64 elements, not one of 32 x 128).
  if (const int d = b.load_run.back(); partial(d) && in(b.store_run, d)) {
    const index_t others = b.volume() / b.chunk[d];
    index_t grown = std::clamp(tile / others, b.chunk[d], f.n[d]);
    if (multiple > 1 && grown < f.n[d] && grown >= multiple) grown -= grown % multiple;
    bool outside = false;  // a dimension outside the runs
    for (int e = 0; e < r; ++e) outside = outside || b.chunk[e] == 0;
    const bool takes_rows = outside && tile / b.volume() >= 2 && tile / (others * grown) < 2;
    if (!(team_tables && vol_l >= run_l && vol_s >= run_s && b.store_run.size() > 1 && takes_rows))
      b.chunk[d] = grown;
  }
  bool rows_partial = (partial(b.store_run.back()) && !in(b.load_run, b.store_run.back())) ||
                      (partial(b.load_run.back()) && !in(b.store_run, b.load_run.back()));
  for (int k = r - 1; k >= 0; --k) {
    const int d = f.p[k];
    if (b.chunk[d] != 0) continue;
    const index_t room = tile / b.volume();
    if (room < 2) break;
    if (f.n[d] <= room) {
      b.chunk[d] = f.n[d];
      b.extra.push_back(d);
      continue;
    }
    if (rows_partial) break;
    // The one partial dimension: of those left that do not fit whole, the
    // one whose tiles fill the room best, n / (ceil(n / room) x room) (the
    // first in output order among equals), its chunk balanced over its
    // tiles. (7, 33, 5, 64, 31, 29), perm 103254: runs of 31 x 29, room for
    // 4 rows: 64 in 16 full tiles rather than 5 in a tile of 4 and one of 1.
    int best = d;
    double fill = 0;
    for (int q = k; q >= 0; --q) {
      const int e = f.p[q];
      if (b.chunk[e] != 0 || f.n[e] <= room) continue;
      const index_t tiles = (f.n[e] + room - 1) / room;
      const double fe = static_cast<double>(f.n[e]) / static_cast<double>(tiles * room);
      if (fe > fill + 1e-9) best = e, fill = fe;
    }
    const index_t tiles = (f.n[best] + room - 1) / room;
    b.chunk[best] = (f.n[best] + tiles - 1) / tiles;
    b.extra.push_back(best);
    rows_partial = true;
  }
  return b;
}

/// Roles of the four per-tile counts.
enum TileSet { load_rows = 0, load_cols = 1, store_rows = 2, store_cols = 3 };

/// Which offset maps of a box the tiled kernel reads from tables: none (every
/// map is index x stride), only the load rows' (their dimensions are not
/// adjacent in the input, but the store side is affine: a typical packed
/// store run), or all.
enum class BoxKind : std::int8_t { affine, load_table, tables };

/// The tiled kernel's argument, trivially copyable. Kept under 300 bytes so
/// that the kernel's whole argument (with the launch's own data) stays under
/// the 512 bytes up to which Kokkos passes it as CUDA kernel parameters rather
/// than through constant memory.
struct TiledLayout {
  // The tile grid: digits of the tile index (digit 0 fastest), those
  // dimensions with more than one tile (and a skewed box's store run).
  int digits = 0;
  /// Skewed tiles (PermuteTiled): S, the elements of a store transaction
  /// (0: rectangular tiles), and the output's address in elements mod S
  /// (set per launch). Kept in the padding after `digits`.
  std::int16_t skew = 0, phase = 0;
  index_t ntile[permute_max_rank] = {}, step_in[permute_max_rank] = {},
          step_out[permute_max_rank] = {};
  index_t ntiles = 1;
  // Per set (TileSet order): elements of a whole tile, the digit of the set's
  // partial dimension (-1: none), and the elements of a tile that is the last
  // along that digit (clipped).
  int box[4] = {1, 1, 1, 1};
  int clip[4] = {-1, -1, -1, -1};
  int tail[4] = {1, 1, 1, 1};
  int ld = 1;  ///< scratch row pitch: box[load_cols] + pad (transposed: box[load_rows] + pad)
  // The maps that are affine (all of them, or the store side's): load row r
  // starts at r * in_row in the input, store row a at a * out_row in the
  // output, store element (a, j) is at a * s_row + j * s_col in scratch.
  BoxKind kind = BoxKind::tables;
  /// Scratch holds load element (r, c) at r * ld + c, or, transposed (the
  /// host path: tiles read in transposed micro-blocks), at c * ld + r.
  bool transposed = false;
  /// Every store row's elements are consecutive in scratch, from the row's
  /// position on (the store columns' map is j x 1, whatever the kind).
  bool rows_in_scratch = false;
  index_t in_row = 0, out_row = 0;
  int s_row = 0, s_col = 0;
  /// Table entries: load rows, store rows (output), store rows (scratch),
  /// store columns (scratch), in this order.
  KOKKOS_INLINE_FUNCTION int table_size() const {
    return box[load_rows] + 2 * box[store_rows] + box[store_cols];
  }
  /// The entries the kernel reads: none, the load rows', or all.
  KOKKOS_INLINE_FUNCTION int table_used() const {
    return kind == BoxKind::affine       ? 0
           : kind == BoxKind::load_table ? box[load_rows]
                                         : table_size();
  }
  KOKKOS_INLINE_FUNCTION std::size_t scratch_elements() const {
    return static_cast<std::size_t>(box[transposed ? load_cols : load_rows]) * ld;
  }
  /// Whether the box is a 2-D transposition: every map affine, and store
  /// element (a, j) is load element (j, a) (every batched 2-D transpose).
  KOKKOS_INLINE_FUNCTION bool transposition() const {
    return kind == BoxKind::affine &&
           (transposed ? s_row == ld && s_col == 1 : s_row == 1 && s_col == ld);
  }
};

/// The maps the tables are filled from, in table order: load row -> input
/// offset, store row -> output offset, store row -> scratch position, store
/// column -> scratch position. Only the set-up kernel reads them.
struct BoxMaps {
  Digits map[4];
  index_t start[5] = {};  ///< table position of each map's first entry; start[4]: size
  KOKKOS_INLINE_FUNCTION index_t entry(index_t i) const {
    int m = 0;
    while (m < 3 && i >= start[m + 1]) ++m;
    return map[m].offset(i - start[m]);
  }
};

/// The tiled kernel's layout and the maps its tables are filled from.
struct Tiling {
  TiledLayout layout;
  BoxMaps maps;
};

/// Input rows a skewed tile writes out of `chunk`: the largest multiple of S
/// up to chunk - S + 1, so that the S - 1 rows read before them fit too (0:
/// a chunk too small for S).
constexpr int skew_rows(index_t chunk, int S) {
  return chunk - S + 1 >= S ? static_cast<int>((chunk - S + 1) / S * S) : 0;
}

/// The tiled kernel's layout of box b. With skew = S > 1, a box that is a 2-D
/// transposition (one dimension D in the load rows and the store run, one in
/// the load run and the store rows, every map affine) is laid out for skewed
/// tiles (PermuteTiled): ti = skew_rows(chunk of D, S) rows of D per tile
/// along D, ti + S - 1 load rows in scratch, the tiles along D numbered so
/// that the last one reaches D's end from any phase, and D always a digit of
/// the grid (its clip and tail say where D ends). Other boxes, or a chunk too
/// small for S, get rectangular tiles (skew 0). `transposed`: the scratch
/// holds the box transposed (TiledLayout::transposed; never skewed).
inline Tiling make_tiling(const PermuteShape& f, const TileBox& b0, int pad, int skew = 0,
                          bool transposed = false) {
  TileBox b = b0;
  int D = -1;  // skewed: the dimension of the load rows and the store run
  if (skew > 1 && !transposed && b.load_run.size() == 1 && b.store_run.size() == 1 &&
      b.extra.empty() && b.load_run[0] != b.store_run[0]) {
    D = b.store_run[0];
    const int ti = skew_rows(b.chunk[D], skew);
    if (ti == 0) D = -1;
    else b.chunk[D] = ti;
  }
  if (D < 0) skew = 0;
  Tiling T;
  TiledLayout& L = T.layout;
  const auto& si = f.si;
  const auto& so = f.so;
  const auto in = has_dim;
  auto partial = [&](int d) { return b.chunk[d] < f.n[d] || d == D; };
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
  // Scratch holds the box in input order: row (load row) x ld + column, or
  // transposed: column x ld + row.
  std::array<index_t, permute_max_rank> cstride{}, rstride{};
  index_t acc = 1;
  for (int d : set[load_cols]) cstride[d] = acc, acc *= b.chunk[d];
  acc = 1;
  for (int d : set[load_rows]) rstride[d] = acc, acc *= b.chunk[d];
  index_t whole[4];  // per set: the product over its members but the partial one
  for (int s = 0; s < 4; ++s) {
    index_t v = 1, w = 1;
    for (int d : set[s]) {
      v *= b.chunk[d];
      if (!partial(d)) w *= b.chunk[d];
    }
    L.box[s] = L.tail[s] = static_cast<int>(v);
    whole[s] = w;
  }
  L.transposed = transposed;
  L.ld = L.box[transposed ? load_rows : load_cols] + pad;
  const index_t col_pitch = transposed ? L.ld : 1, row_pitch = transposed ? 1 : L.ld;
  auto spos = [&](int d) {
    return in(b.load_run, d) ? col_pitch * cstride[d] : row_pitch * rstride[d];
  };
  Digits* map = T.maps.map;
  for (int d : set[load_rows]) map[0].push(b.chunk[d], si[d]);
  for (int d : set[store_rows]) {
    map[1].push(b.chunk[d], so[d]);
    map[2].push(b.chunk[d], spos(d));
  }
  for (int d : set[store_cols]) map[3].push(b.chunk[d], spos(d));
  for (int m = 0; m < 4; ++m) T.maps.start[m + 1] = T.maps.start[m] + map[m].volume();
  index_t s_row = 0, s_col = 0;
  const bool load_affine = map[0].affine(L.in_row);
  const bool store_affine =
      map[1].affine(L.out_row) && map[2].affine(s_row) && map[3].affine(s_col);
  L.kind = !store_affine ? BoxKind::tables : load_affine ? BoxKind::affine : BoxKind::load_table;
  index_t col_step = 0;
  L.rows_in_scratch = map[3].affine(col_step) && col_step == 1;
  L.s_row = static_cast<int>(s_row);
  L.s_col = static_cast<int>(s_col);
  if (D >= 0 && !L.transposition()) return make_tiling(f, b0, pad, 0);
  // The tile grid, digits in output order from the fastest. Along a skewed
  // D, tile k writes D's elements [k ti - s, (k + 1) ti - s) for a phase s
  // < S: the last one must reach n - 1 with s = S - 1.
  for (int k = f.rank - 1; k >= 0; --k) {
    const int d = f.p[k];
    const index_t c = b.chunk[d] > 0 ? b.chunk[d] : 1;
    const index_t nt = d == D ? (f.n[d] + skew - 2) / c + 1 : (f.n[d] + c - 1) / c;
    if (nt <= 1 && d != D) continue;
    const int i = L.digits++;
    L.ntile[i] = nt;
    L.step_in[i] = c * si[d];
    L.step_out[i] = c * so[d];
    L.ntiles *= nt;
    for (int s = 0; s < 4; ++s)
      if (b.chunk[d] > 0 && partial(d) && in(set[s], d)) {
        L.clip[s] = i;
        L.tail[s] = static_cast<int>(whole[s] * (f.n[d] - (nt - 1) * c));
      }
  }
  if (D >= 0) {
    // D's elements from the last tile's first (<= ti - S + 1; may be
    // negative: that tile then writes only the elements of phases that
    // start before the end), and the rows a tile reads.
    L.skew = static_cast<std::int16_t>(skew);
    L.box[load_rows] = static_cast<int>(b.chunk[D]) + skew - 1;
  }
  return T;
}

/// Whether the host path lays box b's scratch out transposed (make_tiling):
/// where the output's fastest dimension in the box is one of the load rows'
/// (every 2-D transposition, reversals), a store row then takes its elements
/// from a few scratch rows (one, in order, for a transposition or a reversal
/// whose runs keep their order), not one from each; where it is in the load
/// run (both runs over the same dimensions: batched small matrices), a store
/// row's elements already lie in one scratch row as it is.
inline bool transposed_scratch(const TileBox& b) {
  return std::find(b.load_run.begin(), b.load_run.end(), b.store_run.front()) == b.load_run.end();
}

/// The box of a tiny dimension interleaved with a long one in the output (an
/// image's channels, NCHW -> NHWC: (B, 3, HW) [0, 2, 1]), for staged teams:
/// whole load rows of the tiny dimensions, a store run of them times the long
/// dimension's chunk, consecutive in memory. In the input's order the scratch
/// positions of such a store run are no product of an index and a stride: its
/// box reads them from a table, an entry per element, which a staged team
/// copies before each tile (more bytes than a 1-byte tile moves). Held in the
/// store's order instead (transposed, unpadded: load element (r, c) at c x
/// rows + r), the store run is consecutive in scratch and every offset is
/// computed. The box grows, as its tables no longer cost, to about `area`
/// elements, the long dimension's chunk a multiple of `multiple` (packed
/// moves). Returned where that box is affine with at most `rows_max` load
/// rows (the interleaved dimensions: more would write scratch a stride of as
/// many elements apart), with its box, else nothing.
inline std::optional<std::pair<Tiling, TileBox>> interleaved_tiling(const PermuteShape& f,
                                                                    index_t run, index_t area,
                                                                    int multiple, int rows_max) {
  if (rows_max <= 0 || f.rank < 2) return std::nullopt;
  TileBox b = choose_box(f, run, area, 0, /*team_tables=*/false, multiple);
  if (!b.extra.empty()) return std::nullopt;
  Tiling T = make_tiling(f, b, /*pad=*/0, 0, /*transposed=*/true);
  const TiledLayout& L = T.layout;
  if (L.kind != BoxKind::affine || !L.rows_in_scratch || L.box[load_rows] > rows_max ||
      L.box[load_rows] < 2)
    return std::nullopt;
  return std::make_pair(std::move(T), std::move(b));
}

/// Whether the tiled kernel may move tiling T's staged tiles in units of W
/// elements (PermuteTiled's packs): rectangular tiles whose every load row
/// and store row, whole or clipped, starts on a multiple of W elements of
/// the views (which the caller checks are aligned to a unit) and holds a
/// multiple of W.
inline bool pack_tiles(const Tiling& T, int W) {
  const TiledLayout& L = T.layout;
  if (W <= 1 || L.skew > 1) return false;
  for (int s : {load_cols, store_cols})
    if (L.box[s] % W != 0 || L.tail[s] % W != 0) return false;
  for (int i = 0; i < L.digits; ++i)
    if (L.step_in[i] % W != 0 || L.step_out[i] % W != 0) return false;
  for (int m : {0, 1})  // load rows in the input, store rows in the output
    for (int i = 0; i < T.maps.map[m].count; ++i)
      if (T.maps.map[m].extent[i] > 1 && T.maps.map[m].stride[i] % W != 0) return false;
  return true;
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
