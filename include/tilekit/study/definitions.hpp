#pragma once
// The seeds' plans compiled into the library (impl/common/eti.hpp;
// cmake/TilekitETI.cmake's study and study_reduce families): the tool, the
// fuzz runner, the tests and the benchmarks measure the library against
// them, and link these rather than compile them again. Their launching
// members are defined out of line in the study headers themselves (the
// plans are small); this header gives the instantiations of a pair.
#include <tilekit/study.hpp>

/// study: the rank-3 permutes and the naive transposes of (E, T), every pair
/// (each category the family takes gives the same).
#define TILEKIT_ETI_INSTANTIATE_STUDY_ALL(E, T)             \
  template class tilekit::study::Permute3Plan<E, T>;       \
  template class tilekit::study::NaiveTransposePlan<E, T>; \
  template class tilekit::study::NaiveInplaceTransposePlan<E, T>;
#define TILEKIT_ETI_INSTANTIATE_STUDY_INTEGER(E, T) TILEKIT_ETI_INSTANTIATE_STUDY_ALL(E, T)
#define TILEKIT_ETI_INSTANTIATE_STUDY_FLOATING(E, T) TILEKIT_ETI_INSTANTIATE_STUDY_ALL(E, T)
#define TILEKIT_ETI_INSTANTIATE_STUDY_COMPLEX(E, T) TILEKIT_ETI_INSTANTIATE_STUDY_ALL(E, T)
#define TILEKIT_ETI_INSTANTIATE_STUDY_MOVE(E, T) TILEKIT_ETI_INSTANTIATE_STUDY_ALL(E, T)

/// study_reduce: the reduce ladder summing T (TILEKIT_ETI_PAIRS_STUDY_REDUCE).
#define TILEKIT_ETI_INSTANTIATE_STUDY_REDUCE_INTEGER(E, T) \
  template class tilekit::study::ReduceStepPlan<E, T>;
#define TILEKIT_ETI_INSTANTIATE_STUDY_REDUCE_FLOATING(E, T) \
  template class tilekit::study::ReduceStepPlan<E, T>;
