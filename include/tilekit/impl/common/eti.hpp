#pragma once
// Explicit template instantiation (ETI, as kokkos-kernels'): the compiled
// library holds every family's kernels for the (execution space, element
// type) pairs it was built with (CMake: TILEKIT_ETI, TILEKIT_ETI_TYPES,
// TILEKIT_ETI_CONVERSIONS; the spaces of TILEKIT_SPACES), listed in the
// installed config.hpp (TILEKIT_ETI_PAIRS_*). Each class or function template
// that launches kernels keeps its class in a light header and defines its
// launching members out of line in a *_def.hpp beside it; the light header
// ends with its `extern template` declarations over the lists below, so a
// program's call of a compiled pair instantiates none of them and links the
// library's. Any other pair instantiates from the *_def.hpp headers, which the
// public headers include (docs/building.md: "Compiled kernels").
//
// The extern declarations must not cover inline members: GCC instantiates
// an inline member of an `extern template` class where it inlines it, so a
// launching member is never defined in its class's body.
#include <tilekit/config.hpp>

#include <Kokkos_Core.hpp>

// A host-only Kokkos makes half_t and bhalf_t typedefs of float
// (KOKKOS_HALF_T_IS_FLOAT): their pairs are float's and are left out of the
// list (one explicit instantiation per specialization).
#if defined(KOKKOS_HALF_T_IS_FLOAT) && !KOKKOS_HALF_T_IS_FLOAT
#define TILEKIT_ETI_IF_HALF(...) __VA_ARGS__
#else
#define TILEKIT_ETI_IF_HALF(...)
#endif
#if defined(KOKKOS_BHALF_T_IS_FLOAT) && !KOKKOS_BHALF_T_IS_FLOAT
#define TILEKIT_ETI_IF_BHALF(...) __VA_ARGS__
#else
#define TILEKIT_ETI_IF_BHALF(...)
#endif

/// X(Space, Type) for every pair the library holds (nothing without ETI),
/// all of them or those of one category of types (config.hpp), or those of a
/// family that takes fewer types (CMM: float and double; the seeds' reduce
/// ladder, tilekit::study: STUDY_REDUCE): the `extern
/// template` declarations of each family's headers.
/// TILEKIT_ETI_FOR_EACH_CONVERSION: X(Space, TIn, TOut), the converting permutes.
/// TILEKIT_ETI_FOR_EACH_TRANSPOSE_PAIR: X(Space, Move), the transposes' engines,
/// one per element size (impl::move_t: the bits of 1, 2, 4 or 8 bytes).
#ifdef TILEKIT_ETI
#define TILEKIT_ETI_FOR_EACH_INTEGER_PAIR(X) TILEKIT_ETI_PAIRS_INTEGER(X)
#define TILEKIT_ETI_FOR_EACH_FLOATING_PAIR(X) TILEKIT_ETI_PAIRS_FLOATING(X)
#define TILEKIT_ETI_FOR_EACH_COMPLEX_PAIR(X) TILEKIT_ETI_PAIRS_COMPLEX(X)
#define TILEKIT_ETI_FOR_EACH_MOVE_PAIR(X) TILEKIT_ETI_PAIRS_MOVE(X)
#define TILEKIT_ETI_FOR_EACH_CMM_PAIR(X) TILEKIT_ETI_PAIRS_CMM(X)
#define TILEKIT_ETI_FOR_EACH_STUDY_REDUCE_PAIR(X) TILEKIT_ETI_PAIRS_STUDY_REDUCE(X)
#define TILEKIT_ETI_FOR_EACH_CONVERSION(X) TILEKIT_ETI_PAIRS_CONVERT(X)
#define TILEKIT_ETI_FOR_EACH_TRANSPOSE_PAIR(X) TILEKIT_ETI_PAIRS_TRANSPOSE(X)
#else
#define TILEKIT_ETI_FOR_EACH_INTEGER_PAIR(X)
#define TILEKIT_ETI_FOR_EACH_FLOATING_PAIR(X)
#define TILEKIT_ETI_FOR_EACH_COMPLEX_PAIR(X)
#define TILEKIT_ETI_FOR_EACH_MOVE_PAIR(X)
#define TILEKIT_ETI_FOR_EACH_CMM_PAIR(X)
#define TILEKIT_ETI_FOR_EACH_STUDY_REDUCE_PAIR(X)
#define TILEKIT_ETI_FOR_EACH_CONVERSION(X)
#define TILEKIT_ETI_FOR_EACH_TRANSPOSE_PAIR(X)
#endif
/// REAL: the reductions' types (integer and floating). PAIR: every pair, the
/// moves' (transposes, permutes), the move-only types (MOVE) among them.
#define TILEKIT_ETI_FOR_EACH_REAL_PAIR(X) \
  TILEKIT_ETI_FOR_EACH_INTEGER_PAIR(X) TILEKIT_ETI_FOR_EACH_FLOATING_PAIR(X)
#define TILEKIT_ETI_FOR_EACH_PAIR(X)                                          \
  TILEKIT_ETI_FOR_EACH_REAL_PAIR(X) TILEKIT_ETI_FOR_EACH_COMPLEX_PAIR(X) \
  TILEKIT_ETI_FOR_EACH_MOVE_PAIR(X)
