#pragma once
// The engine of a plan, chosen as data when the plan is made: `automatic` is
// NCCL for a CUDA space when tilekit was built with TILEKIT_ENABLE_NCCL, MPI
// otherwise. Asking for NCCL without it (or on a host space) throws.
#include <tilekit/config.hpp>  // TILEKIT_ENABLE_NCCL, as the installed tilekit was built
#include <tilekit/dist/engine_mpi.hpp>
#include <tilekit/dist/pipeline_model.hpp>
#include <tilekit/errors.hpp>
#if defined(TILEKIT_ENABLE_NCCL)
#include <tilekit/dist/engine_nccl.hpp>
#endif

#include <memory>
#include <string>
#include <type_traits>

namespace tilekit::dist {

template <class ExecSpace>
constexpr bool nccl_available() {
#if defined(TILEKIT_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
  return std::is_same_v<ExecSpace, Kokkos::Cuda>;
#else
  return false;
#endif
}

/// What a plan's exchange runs on, and with which settings.
struct EngineOptions {
  Engine engine = Engine::automatic;
  Staging staging = Staging::automatic;  ///< MPI engine, device memory
  /// Chunks of the pipelined exchange (every rank must give the same): 0
  /// lets the plan choose from its cost model (pipeline_model.hpp), 1 runs
  /// pack, exchange and unpack one after the other.
  int chunks = 0;
  /// What the cost model assumes about the link and the device (0: defaults
  /// of the link the plan sees).
  LinkModel link{};
#if defined(TILEKIT_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
  std::shared_ptr<NcclComm> nccl;  ///< an NCCL communicator to use (default: nccl_comm(comm), shared by the plans over comm)
#endif
};

template <class ExecSpace>
Engine resolve_engine(Engine e) {
  if (e == Engine::automatic) return nccl_available<ExecSpace>() ? Engine::nccl : Engine::mpi;
  return e;
}

/// Checks that the engine can run on ExecSpace; "" when it can.
template <class ExecSpace>
std::string engine_problem(Engine e) {
  if (resolve_engine<ExecSpace>(e) == Engine::nccl && !nccl_available<ExecSpace>())
    return std::string("engine nccl needs a CUDA execution space and tilekit built with "
                       "TILEKIT_ENABLE_NCCL (space: ") +
           ExecSpace::name() + ")";
  return "";
}

/// Makes the engine (collective over comm for NCCL).
template <class ExecSpace>
std::unique_ptr<Exchanger<ExecSpace>> make_exchanger(MPI_Comm comm, const EngineOptions& o) {
#if defined(TILEKIT_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
  if constexpr (nccl_available<ExecSpace>()) {
    if (resolve_engine<ExecSpace>(o.engine) == Engine::nccl)
      return std::make_unique<NcclExchanger<Kokkos::Cuda>>(o.nccl ? o.nccl
                                                                  : nccl_comm(comm));
  }
#endif
  return std::make_unique<MpiExchanger<ExecSpace>>(comm, o.staging);
}

}  // namespace tilekit::dist
