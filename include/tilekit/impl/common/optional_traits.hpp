#pragma once
// The backends' optional data, as the plans and kernels read it: each
// impl::name<Exec>() below is Traits<Exec>::name where the backend gives it,
// else a fallback that keeps the plain path (a backend may leave out every
// one of them: the primary Traits template does), and the few rules derived
// from them that several families share (tile rows, tiles per thread, skew).
#include <tilekit/backends/traits.hpp>
#include <tilekit/impl/common/tile_copy.hpp>  // index_t

#include <cstddef>
#include <cstdint>

namespace tilekit::impl {

/// Defines impl::name<Exec>(): the backend's optional datum
/// Traits<Exec>::name where the backend gives it, else `fallback`.
#define TILEKIT_OPTIONAL_TRAIT(type, name, fallback)            \
  template <class Exec>                                         \
  KOKKOS_INLINE_FUNCTION constexpr type name() {                \
    if constexpr (requires { backends::Traits<Exec>::name; })   \
      return static_cast<type>(backends::Traits<Exec>::name);   \
    else                                                        \
      return fallback;                                          \
  }

/// The host path's micro-block edge (0: the scratch path, as on GPUs).
TILEKIT_OPTIONAL_TRAIT(int, transpose_micro_edge, 0)
/// Bytes of the host's vector registers with which the transposes move
/// blocks in registers (backends/vector_block.hpp; 0: the scalar micro-kernel).
TILEKIT_OPTIONAL_TRAIT(int, transpose_vector_bytes, 0)
/// Out-of-place tiles go into scratch in line blocks transposed in the
/// registers of the CPU running them (vectors chosen at run time) where those
/// have at least this many bytes (0: never).
TILEKIT_OPTIONAL_TRAIT(int, transpose_runtime_min_bytes, 0)
/// Those vectors hold at most this many elements (0: no bound).
TILEKIT_OPTIONAL_TRAIT(int, transpose_runtime_max_lanes, 0)
/// Outputs of at least this many bytes are streamed (0: never).
TILEKIT_OPTIONAL_TRAIT(double, stream_min_bytes, 0)
/// In place: row strides, in bytes, of a multiple of which the pair swap's
/// large matrices take its aliased-rows path (0: never).
TILEKIT_OPTIONAL_TRAIT(int, inplace_alias_bytes, 0)
/// The rows, in bytes, of the pair tiles in that path by default (0: the
/// backend's in-place tile).
TILEKIT_OPTIONAL_TRAIT(int, inplace_alias_tile_bytes, 0)
/// The widest thin side, in bytes, below which an out-of-place transpose
/// takes the thin kernel instead of tiles (TransposeThin; 0: always tiles).
TILEKIT_OPTIONAL_TRAIT(int, transpose_thin_bytes, 0)
/// Long-side elements per team step of the staged thin kernel
/// (TransposeThinStaged; 0: the thin kernel without scratch for every thin
/// matrix).
TILEKIT_OPTIONAL_TRAIT(int, transpose_thin_chunk, 0)
/// The thinnest output row, in bytes, that takes the staged thin kernel.
TILEKIT_OPTIONAL_TRAIT(int, transpose_thin_stage_bytes, 0)
/// Bytes of its thin side a work item of the thin kernel (TransposeThin) loads
/// before it stores them (0: one element at a time).
TILEKIT_OPTIONAL_TRAIT(int, transpose_thin_batch_bytes, 0)
/// Work items per team of the staged thin kernel (0: the plan's team).
TILEKIT_OPTIONAL_TRAIT(int, transpose_thin_team, 0)
/// Bytes of the units in which the staged thin kernel writes a dense output
/// run that starts on one (0 or an element's size: element by element).
TILEKIT_OPTIONAL_TRAIT(int, transpose_thin_store_bytes, 0)
/// Bytes of the memory transaction (a GPU's 32-byte sector) that the tiled
/// kernels align their stores to where the output's rows do not start on one
/// (skewed tiles; 0: rectangular tiles for every shape).
TILEKIT_OPTIONAL_TRAIT(int, transpose_store_sector, 0)
/// The most elements per transaction the default skews (0: no limit).
TILEKIT_OPTIONAL_TRAIT(int, transpose_skew_max, 0)
/// Bytes of the units in which the permute's staged kernels move elements
/// smaller than that, where the rows allow (pure moves; 0: element by element).
TILEKIT_OPTIONAL_TRAIT(int, permute_pack_bytes, 0)
/// The most load rows (elements of the tiny dimensions) of a box whose store
/// run interleaves them with a long dimension (an image's channels) that the
/// permute's staged teams hold in the store's order (interleaved_tiling; 0:
/// never, such boxes read their store run's positions from tables).
TILEKIT_OPTIONAL_TRAIT(int, permute_interleave_rows, 0)
/// Bytes of the vectors a work item of the permute's interleaving kernel
/// loads from each row (impl::PermuteInterleave: batches of matrices with a
/// side of 2 to 4 elements, transposed in registers; 0: the tiled boxes).
TILEKIT_OPTIONAL_TRAIT(int, permute_interleave_vector_bytes, 0)
/// Elements of T per vector of the interleaving kernel on Exec: pure moves of
/// elements of at most 4 bytes (wider ones fill a GPU's transactions through
/// the tiled boxes), 0: none.
template <class Exec, class T>
constexpr int permute_interleave_width(bool plain) {
  constexpr int b = permute_interleave_vector_bytes<Exec>(), e = static_cast<int>(sizeof(T));
  return plain && e <= 4 && b >= 2 * e && b % e == 0 ? b / e : 0;
}
/// Elements of T per unit of those moves on Exec (1: none).
template <class Exec, class T>
constexpr int permute_pack_width() {
  constexpr int b = permute_pack_bytes<Exec>(), e = static_cast<int>(sizeof(T));
  return b > e && b % e == 0 ? b / e : 1;
}
/// Whether teams walk the tiles of a transpose down the columns of tiles, so
/// that consecutive tiles continue the same destination rows (a CPU thread's
/// writes stay sequential from tile to tile), rather than along the rows of
/// tiles (GPUs).
TILEKIT_OPTIONAL_TRAIT(bool, tiles_down_columns, false)
/// The team scratch level of the tiled kernels' tiles: the out-of-place
/// transpose's tile, the in-place pair and the permute's tile (a CPU's level
/// 1 holds tiles past the 32 KiB of level 0: rows long enough for the
/// prefetchers and the write streams).
TILEKIT_OPTIONAL_TRAIT(int, tile_scratch_level, 0)
/// Input rows of an out-of-place transpose's tile on the host path (micro
/// blocks, one-thread teams): tiles of rows x edge, the edge along the input's
/// rows, so that a tile reads long runs of memory (0: square tiles).
TILEKIT_OPTIONAL_TRAIT(int, transpose_tile_rows, 0)
/// Micro-block rows ahead whose lines the transposes' micro-kernel prefetches
/// on the host path while it reads a row of micro-blocks (0: none;
/// micro_store_transposed_rows; the permute's boxes pass none).
TILEKIT_OPTIONAL_TRAIT(int, transpose_prefetch_blocks, 0)
/// Whether the permute's rows method walks the rows in the input's order
/// (reads one after another, the output's rows scattered) rather than the
/// output's (make_rows_layout).
TILEKIT_OPTIONAL_TRAIT(bool, permute_rows_input_order, false)
/// Whether the permute's pure moves (one type, alpha 1, beta 0, not
/// conjugated) whose fused problem is a 2-D transposition run the
/// 2-D engine of the out-of-place transpose (impl::MatrixTranspose: its tiles,
/// walk and prefetching) rather than the permute's tiled boxes.
TILEKIT_OPTIONAL_TRAIT(bool, permute_2d_by_transpose, false)
/// Tiles a thread should get before a plan halves its default tile edge (the
/// transposes' and the permute's; hosts, whose tiles are large; 0: never).
TILEKIT_OPTIONAL_TRAIT(int, tiles_per_thread, 0)
#undef TILEKIT_OPTIONAL_TRAIT

/// Input rows of a tile `edge` elements wide whose backend asks for tiles of
/// `rows` rows (transpose_tile_rows on the host path; 0: square tiles): the
/// transposes' tiles and the permute's host boxes.
constexpr int tile_rows(int rows, int edge) { return rows > 0 && rows < edge ? rows : edge; }

/// Tiles below which a plan on `threads` threads halves its default tile
/// edge: tiles_per_thread a thread (0: never).
template <class Exec>
index_t tiles_wanted(int threads) {
  return static_cast<index_t>(tiles_per_thread<Exec>()) * (threads > 1 ? threads : 1);
}

/// Micro-block edge in elements on Exec: transpose_micro_edge (at least 2,
/// and, for kernels whose micro-blocks move vector blocks (Vectors), at least
/// the lanes of a vector block of T, which then tile it), or 0 where the
/// backend keeps the scratch path.
template <class Exec, class T, bool Vectors = true>
constexpr int micro_edge() {
  constexpr int edge = transpose_micro_edge<Exec>();
  constexpr int lanes = Vectors ? backends::block_lanes<transpose_vector_bytes<Exec>(), T>() : 0;
  return edge <= 0 ? 0 : edge < lanes ? lanes : edge < 2 ? 2 : edge;
}

/// The backend's transpose_tile_rows where tiles of T in teams of the launch
/// shape `c` take the host path (micro blocks, one-thread teams); 0: square
/// tiles. The transposes' plan and the permute's host boxes ask alike.
template <class Exec, class T>
constexpr int host_tile_rows(const backends::TileConfig& c) {
  return micro_edge<Exec, T>() > 0 && c.team_rows * c.vector == 1 ? transpose_tile_rows<Exec>()
                                                                   : 0;
}

/// Whether a thin matrix takes the staged thin kernel: the backend has one,
/// and the thin side is the output's rows (rows thin: without scratch each
/// work item writes its own output row) of at least
/// transpose_thin_stage_bytes.
template <class Exec>
constexpr bool transpose_thin_staged(bool rows_thin, std::size_t thin_bytes) {
  return transpose_thin_chunk<Exec>() > 0 && rows_thin &&
         thin_bytes >= static_cast<std::size_t>(transpose_thin_stage_bytes<Exec>());
}

/// Elements S of one store transaction for the skewed tiles of the transpose
/// and the permute (TransposeOptions / PermuteOptions::align: bytes, -1 for
/// the backend's transpose_store_sector) with elements of `bytes`; 0 where
/// there is none (S < 2, or align not a multiple of the element). The
/// backend's default skews only up to Traits<Exec>::transpose_skew_max
/// elements per transaction, where given; an align the caller sets is taken
/// as it is.
template <class Exec>
constexpr int skew_elements(int align, std::size_t bytes) {
  const int a = align >= 0 ? align : transpose_store_sector<Exec>();
  const int S = a % static_cast<int>(bytes) == 0 ? a / static_cast<int>(bytes) : 0;
  constexpr int most = transpose_skew_max<Exec>();
  if (align < 0 && most > 0 && S > most) return 0;
  return S > 1 ? S : 0;
}

}  // namespace tilekit::impl
