// A user's program against the installed tilekit::dist (find_package(tilekit
// COMPONENTS dist)): a distributed transpose over MPI_COMM_WORLD, checked on
// every rank; dist::EngineOptions has the NCCL communicator exactly when the
// install says it was built with NCCL (config.hpp), as the build expected.
#include <tilekit/config.hpp>
#include <tilekit/dist.hpp>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <mpi.h>

#if !defined(TILEKIT_ENABLE_MPI)
#error "the installed tilekit/config.hpp does not record TILEKIT_ENABLE_MPI, yet dist was found"
#endif
#if defined(TILEKIT_ENABLE_NCCL) != (TILEKIT_CONSUMER_EXPECT_NCCL == 1)
#error "the installed tilekit/config.hpp disagrees with the build about TILEKIT_ENABLE_NCCL"
#endif

// The type's layout follows the recorded option (CUDA builds).
template <class Options>
constexpr bool has_nccl_member = requires(Options o) { o.nccl; };
#if defined(TILEKIT_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
static_assert(has_nccl_member<tilekit::dist::EngineOptions>,
              "EngineOptions lacks the NCCL communicator of an NCCL build");
#else
static_assert(!has_nccl_member<tilekit::dist::EngineOptions>,
              "EngineOptions has an NCCL member in a build without NCCL");
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1, wrong = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    Kokkos::ScopeGuard guard(argc, argv);
    using Exec = Kokkos::DefaultExecutionSpace;
    using tilekit::dist::Decomposition;
    Exec exec;
    const tilekit::dist::index_t m = 19, n = 23;
    auto din = Decomposition::slab({m, n}, size, 0);   // rows of in
    auto dout = Decomposition::slab({n, m}, size, 0);  // rows of in^T
    const auto bi = din.block(rank), bo = dout.block(rank);
    Kokkos::View<float**, Kokkos::LayoutRight, Exec> in("in", bi.extent(0), bi.extent(1)),
        out("out", bo.extent(0), bo.extent(1));
    const auto i0 = bi.lo[0];
    Kokkos::parallel_for(
        "fill", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2>>(exec, {0, 0}, {bi.extent(0), n}),
        KOKKOS_LAMBDA(tilekit::dist::index_t i, tilekit::dist::index_t j) {
          in(i, j) = float((i0 + i) * 100 + j);
        });
    exec.fence();
    tilekit::dist::transpose(exec, MPI_COMM_WORLD, din, in, dout, out);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    for (tilekit::dist::index_t j = 0; j < bo.extent(0); ++j)
      for (tilekit::dist::index_t i = 0; i < m; ++i)
        wrong += h(j, i) != float(i * 100 + (bo.lo[0] + j));
  }
  int any = 0;
  MPI_Allreduce(&wrong, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("tilekit::dist transpose on %d rank(s), NCCL %s: %s\n", size,
                TILEKIT_CONSUMER_EXPECT_NCCL ? "on" : "off", any ? "WRONG" : "ok");
  MPI_Finalize();
  return any ? 1 : 0;
}
