// Driver of the distributed tests: MPI, then Kokkos, then GoogleTest. Every
// rank runs every test (the tests are collective); only rank 0 prints the
// progress, every rank prints its failures, and the exit code is nonzero on
// any rank that failed, so mpiexec (and ctest) fail.
//
// Where the engine of the tests is NCCL on the default space and a node has
// more ranks than visible devices (NCCL takes one device per rank), every
// rank exits with 77, which ctest counts as skipped (SKIP_RETURN_CODE): the
// dist_nccl_* tests run only where the GPUs they need are there.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>
#include <mpi.h>

#include "dist_helpers.hpp"

#include <cstdio>

namespace {

/// "" when the NCCL engine can run here (or is not the test engine), else why not.
std::string nccl_devices_missing() {
  using Exec = Kokkos::DefaultExecutionSpace;
  const auto engine = tilekit::test::dist::test_engine().engine;
  if (!tilekit::dist::nccl_available<Exec>() ||
      tilekit::dist::resolve_engine<Exec>(engine) != tilekit::dist::Engine::nccl)
    return "";
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 1;
  MPI_Comm_size(node, &local);
  MPI_Comm_free(&node);
  const int devices = Kokkos::num_devices();
  int ok = devices >= local ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (ok) return "";
  return "the NCCL engine needs a device per rank: " + std::to_string(local) +
         " ranks on a node, " + std::to_string(devices) + " devices visible";
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rc = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    const std::string missing = nccl_devices_missing();
    if (!missing.empty()) {
      if (rank == 0) std::printf("test_dist skipped: %s\n", missing.c_str());
      rc = 77;
    } else {
      ::testing::InitGoogleTest(&argc, argv);
      if (rank != 0) {
        auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
        delete listeners.Release(listeners.default_result_printer());
      }
      rc = RUN_ALL_TESTS();
    }
  }
  MPI_Finalize();
  return rc;
}
