#pragma once
// The reduce family's launching code (impl/common/eti.hpp): the out-of-line
// members of the production plan, and TILEKIT_ETI_INSTANTIATE_REDUCE_*, which
// the library's units (cmake/TilekitETI.cmake) expand.
#include <tilekit/impl/reduce/dispatch_def.hpp>

#define TILEKIT_ETI_INSTANTIATE_REDUCE_PLAN(E, T, Op) \
  template class tilekit::ReducePlan<E, T, tilekit::Op>;
/// The production operations of an integer pair (exact sums, extrema, their
/// indices) ...
#define TILEKIT_ETI_INSTANTIATE_REDUCE_INTEGER(E, T)      \
  TILEKIT_ETI_INSTANTIATE_REDUCE_PLAN(E, T, Sum)          \
  TILEKIT_ETI_INSTANTIATE_REDUCE_PLAN(E, T, Min)          \
  TILEKIT_ETI_INSTANTIATE_REDUCE_PLAN(E, T, Max)          \
  TILEKIT_ETI_INSTANTIATE_REDUCE_PLAN(E, T, MinLoc)       \
  TILEKIT_ETI_INSTANTIATE_REDUCE_PLAN(E, T, MaxLoc)
/// ... and of a floating-point one, with the compensated sum.
#define TILEKIT_ETI_INSTANTIATE_REDUCE_FLOATING(E, T) \
  TILEKIT_ETI_INSTANTIATE_REDUCE_INTEGER(E, T)        \
  TILEKIT_ETI_INSTANTIATE_REDUCE_PLAN(E, T, CompensatedSum)
