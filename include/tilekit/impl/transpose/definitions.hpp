#pragma once
// The transpose family's launching code (impl/common/eti.hpp): the
// out-of-line members of the 2-D engine (impl::MatrixTranspose) and of the
// in-place plans' engines, and TILEKIT_ETI_INSTANTIATE_TRANSPOSE, which the
// library's units (cmake/TilekitETI.cmake) expand to compile them.
#include <tilekit/impl/permute/matrix_def.hpp>
#include <tilekit/impl/transpose/inplace_blocks_def.hpp>
#include <tilekit/impl/transpose/inplace_rect_def.hpp>

/// The explicit instantiations of the transpose family's engines for the
/// space E and the element T they move (impl::move_t: the library compiles
/// one per element size, cmake/TilekitETI.cmake). The blocked rectangular
/// plan (RectBlockedTranspose), host code per type around the permute's
/// plans, is compiled with those (permute/definitions.hpp).
#define TILEKIT_ETI_INSTANTIATE_TRANSPOSE(E, T)                                         \
  static_assert(std::is_same_v<T, tilekit::impl::move_t<T>>,                            \
                "TILEKIT_ETI_PAIRS_TRANSPOSE lists an element that is not its own "     \
                "move_t (cmake/TilekitETI.cmake, tilekit_eti_move_word)");              \
  template class tilekit::impl::MatrixTranspose<E, T>;                                  \
  template class tilekit::impl::RectInplaceTranspose<E, T>;                             \
  template void tilekit::impl::launch_inplace_blocked<E, T>(                            \
      const std::string&, const E&, const tilekit::backends::TileConfig&, T*,           \
      tilekit::impl::index_t, tilekit::impl::index_t, tilekit::impl::index_t,           \
      tilekit::impl::index_t, bool);
