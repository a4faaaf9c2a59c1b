// A user's program against the installed tilekit (tilekit::tilekit): one
// transpose of a float matrix, checked; the installed config.hpp is the one
// the library was built with. Exit status 0 when right.
#include <tilekit/config.hpp>
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
  return wrong ? 1 : 0;
}
