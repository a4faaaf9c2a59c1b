#pragma once
// The seeds' teaching kernels, tilekit::study: the baselines the tool and the
// study measure the library against, apart from the production headers
// (<tilekit/tilekit.hpp> reaches none of them).
//
//   study::NaiveTransposePlan, study::NaiveInplaceTransposePlan  (seeds 002, 000)
//   study::Permute3Plan: seed 003's seven rank-3 kernels          (permute3d.hpp)
//   study::ReduceStepPlan: seed 004's ladder of six sums           (reduce_ladder.hpp)
#include <tilekit/study/permute3d.hpp>
#include <tilekit/study/reduce_ladder.hpp>
#include <tilekit/study/transpose_naive.hpp>
