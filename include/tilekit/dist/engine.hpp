#pragma once
// The exchange engines' common interface. A plan cuts its exchange into
// chunks and pipelines them: it packs a chunk's messages, hands the engine
// their pointers and sizes, and unpacks a chunk once the engine says it has
// arrived, while the engine moves the next (the protocol: Exchanger). Engines:
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

/// One message of a chunk: `bytes` at `data`, to or from `peer` (a rank of
/// the communicator, never the rank itself).
struct SendMessage {
  int peer = 0;
  const char* data = nullptr;
  std::size_t bytes = 0;
};
struct RecvMessage {
  int peer = 0;
  char* data = nullptr;
  std::size_t bytes = 0;
};

/// The instances a plan enqueues its local passes on: packs and the own
/// pieces on `pack` (the caller's instance), unpacks on `unpack` (a second
/// instance of a device space, so that a chunk's unpack runs beside the next
/// chunk's pack; the caller's instance on host spaces, whose kernels run on
/// the calling thread anyway).
template <class ExecSpace>
struct Lanes {
  ExecSpace pack, unpack;
};

/// An execute, as the plan drives an engine (C chunks, k = 0 .. C - 1):
///
///   begin; enqueue packs(0); packed(0); send(0);
///   for k: enqueue packs(k + 1); packed(k + 1); own pieces(k); wait(k);
///          enqueue unpacks(k); send(k + 1)
///   end
///
/// so that chunk k moves while chunk k + 1 is packed and chunk k - 1
/// unpacked. An engine on the device's streams orders itself with events and
/// never blocks the host; an engine driven by the host (MPI) fences and waits.
template <class ExecSpace>
class Exchanger {
 public:
  virtual ~Exchanger() = default;
  virtual Engine engine() const = 0;
  /// "mpi (host memory)", "mpi (CUDA-aware)", "mpi (staged through pinned host memory)", "nccl 2.28.3"
  virtual std::string describe() const = 0;
  /// An execute of `chunks` chunks begins; it sends `send_bytes` and receives
  /// `recv_bytes` in all. From here on, work on lanes.unpack is ordered after
  /// the work enqueued on lanes.pack before (the caller's). `timed`: the
  /// engine may fence its steps to time them (execute_timed).
  virtual void begin(const Lanes<ExecSpace>& lanes, int chunks, std::size_t send_bytes,
                     std::size_t recv_bytes, bool timed) = 0;
  /// Chunk k's packs are enqueued on the pack lane (nothing after them yet).
  virtual void packed(int k) = 0;
  /// Starts moving chunk k once its packs are done.
  virtual void send(int k, const std::vector<SendMessage>& sends,
                    const std::vector<RecvMessage>& recvs) = 0;
  /// Work enqueued on the unpack lane from now on sees chunk k received.
  virtual void wait(int k) = 0;
  /// The execute ends: work enqueued on the pack lane (the caller's
  /// instance) from now on is ordered after the exchange and the unpacks.
  virtual void end() = 0;
  /// The engine's own all-to-all of `bytes` to and from every rank, from
  /// `send` (nranks x bytes) to `recv` (same), on exec: the ceiling a plan is
  /// measured against (the library collective where the engine has one).
  virtual void alltoall(const ExecSpace& exec, const char* send, char* recv,
                        std::size_t bytes) = 0;
};

}  // namespace tilekit::dist
