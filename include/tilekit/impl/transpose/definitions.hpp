#pragma once
// The transpose family's launching code (impl/common/eti.hpp): the
// out-of-line members of the 2-D engine (impl::MatrixTranspose) and of the
// in-place plans' engines, and TILEKIT_ETI_INSTANTIATE_TRANSPOSE_*, which the
// library's units (cmake/TilekitETI.cmake) expand to compile them.
#include <tilekit/impl/permute/definitions.hpp>  // the in-place shuffle's plans
#include <tilekit/impl/transpose/inplace_blocks_def.hpp>
#include <tilekit/impl/transpose/inplace_rect_def.hpp>

/// The explicit instantiations of the transpose family for the pair (E, T):
/// the same for every category of types (cmake/TilekitETI.cmake).
#define TILEKIT_ETI_INSTANTIATE_TRANSPOSE_INTEGER(E, T) TILEKIT_ETI_INSTANTIATE_TRANSPOSE(E, T)
#define TILEKIT_ETI_INSTANTIATE_TRANSPOSE_FLOATING(E, T) TILEKIT_ETI_INSTANTIATE_TRANSPOSE(E, T)
#define TILEKIT_ETI_INSTANTIATE_TRANSPOSE_COMPLEX(E, T) TILEKIT_ETI_INSTANTIATE_TRANSPOSE(E, T)
#define TILEKIT_ETI_INSTANTIATE_TRANSPOSE_MOVE(E, T) TILEKIT_ETI_INSTANTIATE_TRANSPOSE(E, T)
#define TILEKIT_ETI_INSTANTIATE_TRANSPOSE(E, T)                                         \
  template class tilekit::impl::MatrixTranspose<E, T>;                                  \
  template class tilekit::impl::RectInplaceTranspose<E, T>;                             \
  template void tilekit::impl::launch_inplace_blocked<E, T>(                            \
      const std::string&, const E&, const tilekit::backends::TileConfig&, T*,           \
      tilekit::impl::index_t, tilekit::impl::index_t, tilekit::impl::index_t,           \
      tilekit::impl::index_t, bool);                                                    \
  template class tilekit::impl::RectBlockedTranspose<E, T>;
