// A user's program against the installed tilekit (tilekit::tilekit): one
// transpose of a float matrix and one of the seeds' rank-3 permutes
// (tilekit::study, compiled into the library too), checked; the installed
// config.hpp is the one the library was built with. Exit status 0 when right.
#include <tilekit/config.hpp>
#include <tilekit/study.hpp>
#include <tilekit/transpose.hpp>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  // The installed header records the Kokkos the library was built against;
  // find_package(tilekit) refused any other, so this one must be it.
  if (std::strcmp(TILEKIT_KOKKOS_VERSION_STRING, "") == 0) {
    std::printf("config.hpp records no Kokkos version\n");
    return 1;
  }
  using Exec = Kokkos::DefaultExecutionSpace;
  Exec exec;
  const int m = 37, n = 53;  // not multiples of any tile
  Kokkos::View<float**, Exec> in("in", m, n), out("out", n, m);
  Kokkos::parallel_for("fill", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2>>(exec, {0, 0}, {m, n}),
                       KOKKOS_LAMBDA(int i, int j) { in(i, j) = float(i * 1000 + j); });
  tilekit::transpose(exec, in, out);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  int wrong = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) wrong += h(j, i) != float(i * 1000 + j);
  std::printf("tilekit %s (Kokkos %s, %s): transpose %dx%d on %s: %s\n", tilekit::version_string,
              TILEKIT_KOKKOS_VERSION_STRING, TILEKIT_KOKKOS_DEVICES_STRING, m, n, Exec::name(),
              wrong ? "WRONG" : "ok");
  // out3(k, i, j) = in3(i, j, k) by seed 003's shared-memory kernel.
  const int a = 5, b = 9, c = 17;
  Kokkos::View<float***, Exec> in3("in3", a, b, c), out3("out3", c, a, b);
  Kokkos::parallel_for("fill3",
                       Kokkos::MDRangePolicy<Exec, Kokkos::Rank<3>>(exec, {0, 0, 0}, {a, b, c}),
                       KOKKOS_LAMBDA(int i, int j, int k) {
                         in3(i, j, k) = float(i * 10000 + j * 100 + k);
                       });
  tilekit::study::Permute3Plan seed(exec, in3, out3, {2, 0, 1},
                                    tilekit::study::Permute3Variant::shared_templated);
  seed.execute(in3, out3);
  auto h3 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out3);
  int wrong3 = 0;
  for (int i = 0; i < a; ++i)
    for (int j = 0; j < b; ++j)
      for (int k = 0; k < c; ++k) wrong3 += h3(k, i, j) != float(i * 10000 + j * 100 + k);
  std::printf("study permute %dx%dx%d {2,0,1} on %s: %s\n", a, b, c, Exec::name(),
              wrong3 ? "WRONG" : "ok");
  return wrong || wrong3 ? 1 : 0;
}
