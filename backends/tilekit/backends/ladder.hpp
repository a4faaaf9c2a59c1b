#pragma once
// Launch data of seed 004's reduce ladder (tilekit::study::ReduceStepPlan),
// kept apart from the library's Traits: the ladder is a teaching kernel, and
// the production reduce carries none of its fields. Its team shape is the
// production reduce's (Traits::reduce_config: team_rows x vector).
#include <Kokkos_Core.hpp>

namespace tilekit::backends {

struct LadderConfig {
  int block = 256;         ///< work items per team (a power of two; a loop on a one-thread team)
  int warp = 32;           ///< width of the last level steps 5 and 6 unroll (a power of two)
  int teams_per_unit = 1;  ///< step 6: league cap = teams_per_unit x concurrency / team threads
};

/// Hosts: one team per thread in step 6.
template <class Exec>
struct LadderTraits {
  static constexpr LadderConfig config() { return {}; }
};

#if defined(KOKKOS_ENABLE_CUDA)
/// CUDA: a block is one team of 256 threads, its unrolled last level one warp;
/// step 6 caps its league at two blocks per 256 resident threads.
template <>
struct LadderTraits<Kokkos::Cuda> {
  static constexpr LadderConfig config() { return {256, 32, 2}; }
};
#endif

}  // namespace tilekit::backends
