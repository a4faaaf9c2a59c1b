// A user's translation unit calling the library's compiled cases (test
// eti_user_instances): with TILEKIT_ETI its object must define no kernel of
// its own, only the light checks in front of the library's (check_instances.cmake).
// It launches nothing itself, so any Kokkos parallel dispatch it defines is
// one that should have come from the library.
#include <tilekit/cmm.hpp>
#include <tilekit/permute.hpp>
#include <tilekit/reduce.hpp>
#include <tilekit/transpose.hpp>

using Exec = Kokkos::DefaultExecutionSpace;

void eti_user_transpose(const Kokkos::View<float**, Exec>& in,
                        const Kokkos::View<float**, Exec>& out) {
  tilekit::transpose(Exec(), in, out);
}

void eti_user_transpose_left(const Kokkos::View<double**, Kokkos::LayoutLeft, Exec>& in,
                             const Kokkos::View<double**, Kokkos::LayoutLeft, Exec>& out) {
  tilekit::TransposePlan plan(Exec(), in, out, tilekit::TransposeVariant::tiled);
  plan.execute(in, out);
}

void eti_user_transpose_inplace(const Kokkos::View<Kokkos::complex<float>**, Exec>& a) {
  tilekit::transpose_inplace(Exec(), a);
  tilekit::transpose_inplace(Exec(), a, tilekit::InplaceVariant::decomposed);
}

void eti_user_permute(const Kokkos::View<float***, Exec>& in,
                      const Kokkos::View<float***, Exec>& out) {
  tilekit::permute(Exec(), in, out, {1, 2, 0});
  tilekit::permute(Exec(), in, out, {2, 0, 1}, 2.0f, 1.0f);
}

void eti_user_permute_strided(
    const Kokkos::View<Kokkos::complex<double>****, Kokkos::LayoutStride, Exec>& in,
    const Kokkos::View<Kokkos::complex<double>****, Kokkos::LayoutStride, Exec>& out) {
  tilekit::permute(Exec(), in, out, {3, 1, 0, 2}, tilekit::conjugate);
}

double eti_user_reduce(const Kokkos::View<double*, Exec>& v,
                       const Kokkos::View<std::int32_t**, Kokkos::LayoutStride, Exec>& w) {
  const auto at = tilekit::reduce(Exec(), w, tilekit::MaxLoc{});
  return tilekit::reduce(Exec(), v, tilekit::CompensatedSum{}) + at.value;
}

void eti_user_cmm(const Kokkos::View<double**, Exec>& a, const Kokkos::View<double**, Exec>& c) {
  tilekit::checkered_matmul(Exec(), a, a, c);
}
