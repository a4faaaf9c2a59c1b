#pragma once
// The exchange engines' common interface. A plan packs its messages, hands
// the engine the send and receive buffers with the byte counts and
// displacements per peer, and unpacks once the engine is done. Engines:
//
//   mpi   non-blocking point-to-point (MPI_Irecv / MPI_Isend in pairwise order,
//         messages cut at 1 GiB so counts are 64-bit safe), on host memory, on
//         device memory through a CUDA-aware MPI, or staged through pinned host
//         buffers when the MPI is not CUDA-aware (engine_mpi.hpp);
//   nccl  grouped ncclSend / ncclRecv on the execution space instance's CUDA
//         stream, for device memory (engine_nccl.hpp, TILEKIT_ENABLE_NCCL).
//
// Which engine a plan uses is data chosen when the plan is made (engines.hpp).
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tilekit::dist {

enum class Engine { automatic, mpi, nccl };

/// Device buffers and a non-CUDA-aware MPI: copy through pinned host memory?
/// automatic: when the memory is not host-accessible and MPI does not report
/// CUDA support (MPIX_Query_cuda_support); never: trust the MPI with device
/// pointers; always: stage even when it is CUDA-aware (to measure the cost).
enum class Staging { automatic, never, always };

constexpr std::string_view to_string(Engine e) {
  switch (e) {
    case Engine::automatic: return "automatic";
    case Engine::mpi: return "mpi";
    case Engine::nccl: return "nccl";
  }
  return "?";
}

/// Bytes and byte displacements per peer (index = rank in the communicator),
/// and the extent of each buffer that the displacements address.
struct Transfers {
  std::vector<std::size_t> send_bytes, send_displ, recv_bytes, recv_displ;
  std::size_t send_span = 0, recv_span = 0;
};

template <class ExecSpace>
class Exchanger {
 public:
  virtual ~Exchanger() = default;
  virtual Engine engine() const = 0;
  /// "mpi (host memory)", "mpi (CUDA-aware)", "mpi (staged through pinned host memory)", "nccl 2.28.3"
  virtual std::string describe() const = 0;
  /// Moves the messages. The pack may still be running on exec: the engine
  /// orders itself after it (a fence, or the same stream). On return the
  /// received data is ready on exec (an engine on the stream leaves it
  /// enqueued there).
  virtual void exchange(const ExecSpace& exec, const char* send, char* recv,
                        const Transfers& t) = 0;
  /// The engine's own all-to-all of `bytes` to and from every rank, from
  /// `send` (nranks x bytes) to `recv` (same): the ceiling a plan is measured
  /// against (the library collective where the engine has one).
  virtual void alltoall(const ExecSpace& exec, const char* send, char* recv,
                        std::size_t bytes) = 0;
};

}  // namespace tilekit::dist
