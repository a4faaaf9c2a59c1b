// The converting permute over complex pairs (conjugated) and, where Kokkos has
// them (GPU builds), the 2-byte floats: the typed tests of
// permute_convert_cases.hpp (test_permute_convert.cpp has the real pairs).
#include "permute_convert_cases.hpp"

namespace {
using ComplexPairs = List<Pair<cfloat, cfloat, true>, Pair<cdouble, cdouble, true>,
                          Pair<cfloat, cdouble, true>>;
#if KOKKOS_HALF_T_IS_FLOAT || KOKKOS_BHALF_T_IS_FLOAT
using ConvertPairs = ComplexPairs;
#else
using ConvertPairs = Cat<ComplexPairs, List<Pair<float, half>, Pair<half, float>,
                                            Pair<float, bhalf>, Pair<bhalf, float>>>;
#endif
}  // namespace

#include "permute_convert_typed.inc"
