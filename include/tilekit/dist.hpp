#pragma once
// Umbrella header of the distributed family (needs MPI: TILEKIT_ENABLE_MPI and
// the tilekit::dist target). See docs/distributed.md.
#include <tilekit/dist/decomposition.hpp>
#include <tilekit/dist/permute.hpp>
