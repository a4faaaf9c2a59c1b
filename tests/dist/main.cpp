// Driver of the distributed tests: MPI, then Kokkos, then GoogleTest. Every
// rank runs every test (the tests are collective); only rank 0 prints the
// progress, every rank prints its failures, and the exit code is nonzero on
// any rank that failed, so mpiexec (and ctest) fail.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rc = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    if (rank != 0) {
      auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
    }
    rc = RUN_ALL_TESTS();
  }
  MPI_Finalize();
  return rc;
}
