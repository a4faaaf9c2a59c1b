#pragma once
// The permute family's launching code (impl/common/eti.hpp): the out-of-line
// members of its plan and of the 2-D engine it shares with the transposes, and
// TILEKIT_ETI_INSTANTIATE_PERMUTE_*, which the library's units
// (cmake/TilekitETI.cmake) expand to compile them.
#include <tilekit/impl/permute/dispatch_def.hpp>
#include <tilekit/impl/permute/matrix_def.hpp>
#include <tilekit/impl/transpose/inplace_blocks_def.hpp>

/// The permute plans of the pair (E, T): its pure moves (any alpha, beta),
/// and for complex T the conjugating plans too (tilekit::conjugate); with
/// them the blocked in-place transpose of T, whose shuffle they are.
#define TILEKIT_ETI_INSTANTIATE_PERMUTE_PLAIN(E, T)   \
  template class tilekit::PermutePlan<E, T, T, false>; \
  template class tilekit::impl::RectBlockedTranspose<E, T>;
#define TILEKIT_ETI_INSTANTIATE_PERMUTE_INTEGER(E, T) TILEKIT_ETI_INSTANTIATE_PERMUTE_PLAIN(E, T)
#define TILEKIT_ETI_INSTANTIATE_PERMUTE_FLOATING(E, T) TILEKIT_ETI_INSTANTIATE_PERMUTE_PLAIN(E, T)
/// The move-only types (MOVE: 1- and 2-byte integers, unsigned ones, bool):
/// their plans take alpha and beta too (a plan's stores are chosen at run
/// time), but programs move them (alpha = 1, beta = 0).
#define TILEKIT_ETI_INSTANTIATE_PERMUTE_MOVE(E, T) TILEKIT_ETI_INSTANTIATE_PERMUTE_PLAIN(E, T)
#define TILEKIT_ETI_INSTANTIATE_PERMUTE_COMPLEX(E, T) \
  TILEKIT_ETI_INSTANTIATE_PERMUTE_PLAIN(E, T)         \
  template class tilekit::PermutePlan<E, T, T, true>;
/// The converting plan of TIn into TOut (TILEKIT_ETI_CONVERSIONS).
#define TILEKIT_ETI_INSTANTIATE_PERMUTE_CONVERT(E, TIn, TOut) \
  template class tilekit::PermutePlan<E, TIn, TOut, false>;
