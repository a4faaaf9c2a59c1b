#pragma once
// The cache study (seed 000): bench/cache_driver.cpp, built at -O0 ... -O3
// beside the tool, run under Valgrind's Cachegrind and natively.
#include "report.hpp"

namespace tilekit::tool::study {

/// The caches Cachegrind simulates: the same on every machine, so that the
/// counts compare between machines (the host's own caches are in the report).
inline constexpr const char* kSimulatedCaches = "--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64";
inline constexpr const char* kSimulatedCachesText =
    "D1 32 KiB 8-way, LL 8 MiB 16-way, 64-byte lines";

/// Appends one row per optimisation level, variant and type (op "cache"):
/// ms is the native run's median; extra holds Cachegrind's counts of the
/// transpose alone (a run that only fills the matrix is subtracted). Without
/// valgrind or the drivers one row with variant "skipped" says why.
bool run_cache_study(bool quick, report::Report& rep);

}  // namespace tilekit::tool::study
