#pragma once
// The NCCL engine (TILEKIT_ENABLE_NCCL, CUDA builds): one NCCL communicator per
// MPI communicator, bootstrapped by broadcasting rank 0's ncclUniqueId over
// MPI; each chunk of an exchange is one group of ncclSend / ncclRecv on the
// engine's own stream, which waits (a CUDA event) for the chunk's packs on
// the pack lane; the unpack lane waits for the chunk's arrival the same way.
// Nothing blocks the host, and the caller's instance is ordered after the
// whole exchange when execute returns. One GPU per rank (NCCL refuses two
// ranks of a communicator on one device).
// Backend-specific code (cudaStream_t, NCCL) lives here and nowhere else.
#include <tilekit/dist/engine.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <nccl.h>

#include <memory>
#include <vector>
#include <stdexcept>
#include <string>

namespace tilekit::dist {

namespace impl {
inline void nccl_check(ncclResult_t rc, const char* call) {
  if (rc != ncclSuccess)
    throw std::runtime_error(std::string("tilekit::dist: ") + call + " failed: " +
                             ncclGetErrorString(rc));
}
inline void cuda_check(cudaError_t rc, const char* call) {
  if (rc != cudaSuccess)
    throw std::runtime_error(std::string("tilekit::dist: ") + call + " failed: " +
                             cudaGetErrorString(rc));
}
}  // namespace impl

/// An NCCL communicator over the ranks of an MPI communicator (collective).
/// Plans share one through a shared_ptr; it is destroyed with the last.
class NcclComm {
 public:
  explicit NcclComm(MPI_Comm comm) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    ncclUniqueId id;
    if (rank == 0) impl::nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm);
    impl::nccl_check(ncclCommInitRank(&comm_, size, id, rank), "ncclCommInitRank");
    size_ = size;
  }
  ~NcclComm() {
    if (comm_) ncclCommDestroy(comm_);
  }
  NcclComm(const NcclComm&) = delete;
  NcclComm& operator=(const NcclComm&) = delete;
  ncclComm_t get() const { return comm_; }
  int size() const { return size_; }

 private:
  ncclComm_t comm_ = nullptr;
  int size_ = 1;
};

namespace impl {
/// MPI attribute key under which an MPI communicator keeps its NCCL one.
inline int nccl_comm_keyval() {
  static const int key = [] {
    int k = MPI_KEYVAL_INVALID;
    // Freeing the MPI communicator (MPI_Comm_free) drops its reference.
    auto drop = [](MPI_Comm, int, void* value, void*) -> int {
      delete static_cast<std::shared_ptr<NcclComm>*>(value);
      return MPI_SUCCESS;
    };
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, drop, &k, nullptr);
    return k;
  }();
  return key;
}
}  // namespace impl

/// The NCCL communicator over `comm`'s ranks (collective the first time):
/// made once per MPI communicator and kept as an attribute of it, so every
/// plan over `comm` shares it (creating one costs hundreds of milliseconds).
/// It lives until `comm` is freed (MPI_COMM_WORLD: until the process ends)
/// and no plan holds it any more.
inline std::shared_ptr<NcclComm> nccl_comm(MPI_Comm comm) {
  const int key = impl::nccl_comm_keyval();
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, key, &value, &found);
  if (found) return *static_cast<std::shared_ptr<NcclComm>*>(value);
  auto* held = new std::shared_ptr<NcclComm>(std::make_shared<NcclComm>(comm));
  MPI_Comm_set_attr(comm, key, held);
  return *held;
}

template <class ExecSpace>
class NcclExchanger;

template <>
class NcclExchanger<Kokkos::Cuda> final : public Exchanger<Kokkos::Cuda> {
 public:
  /// The exchange gets its own stream, of the device's highest priority, so
  /// that the blocks of its NCCL kernels are scheduled ahead of the pack's
  /// and unpack's, which run beside them.
  explicit NcclExchanger(std::shared_ptr<NcclComm> comm) : comm_(std::move(comm)) {
    int least = 0, greatest = 0;
    impl::cuda_check(cudaDeviceGetStreamPriorityRange(&least, &greatest),
                     "cudaDeviceGetStreamPriorityRange");
    impl::cuda_check(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, greatest),
                     "cudaStreamCreateWithPriority");
  }
  ~NcclExchanger() override {
    for (auto e : events_) cudaEventDestroy(e);
    if (stream_) cudaStreamDestroy(stream_);
  }
  NcclExchanger(const NcclExchanger&) = delete;
  NcclExchanger& operator=(const NcclExchanger&) = delete;

  Engine engine() const override { return Engine::nccl; }
  std::string describe() const override {
    int v = 0;
    ncclGetVersion(&v);
    return "nccl " + std::to_string(v);
  }

  void begin(const Lanes<Kokkos::Cuda>& lanes, int chunks, std::size_t, std::size_t,
             bool) override {
    pack_ = lanes.pack.cuda_stream();
    unpack_ = lanes.unpack.cuda_stream();
    // Events: begin, end of unpack, end of exchange, and per chunk packed / arrived.
    const std::size_t need = 3 + 2 * static_cast<std::size_t>(chunks < 1 ? 1 : chunks);
    while (events_.size() < need) {
      cudaEvent_t e;
      impl::cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
      events_.push_back(e);
    }
    // The unpacks, and the receives in place, after the caller's earlier work.
    record(events_[0], pack_);
    if (unpack_ != pack_) wait_for(unpack_, events_[0]);
    wait_for(stream_, events_[0]);
  }
  void packed(int k) override { record(events_[3 + 2 * k], pack_); }
  void send(int k, const std::vector<SendMessage>& sends,
            const std::vector<RecvMessage>& recvs) override {
    wait_for(stream_, events_[3 + 2 * k]);
    if (!sends.empty() || !recvs.empty()) {
      const ncclComm_t c = comm_->get();
      impl::nccl_check(ncclGroupStart(), "ncclGroupStart");
      for (const auto& m : sends)
        impl::nccl_check(ncclSend(m.data, m.bytes, ncclChar, m.peer, c, stream_), "ncclSend");
      for (const auto& m : recvs)
        impl::nccl_check(ncclRecv(m.data, m.bytes, ncclChar, m.peer, c, stream_), "ncclRecv");
      impl::nccl_check(ncclGroupEnd(), "ncclGroupEnd");
    }
    record(events_[4 + 2 * k], stream_);
  }
  void wait(int k) override { wait_for(unpack_, events_[4 + 2 * k]); }
  void end() override {
    follow(pack_, unpack_, events_[1]);
    follow(pack_, stream_, events_[2]);
  }

  /// NCCL's all-to-all: one group of equal ncclSend / ncclRecv (as nccl-tests'
  /// alltoall_perf), on the stream.
  void alltoall(const Kokkos::Cuda& exec, const char* send, char* recv,
                std::size_t bytes) override {
    const cudaStream_t stream = exec.cuda_stream();
    impl::nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (int peer = 0; peer < comm_->size(); ++peer) {
      const std::size_t at = bytes * static_cast<std::size_t>(peer);
      impl::nccl_check(ncclSend(send + at, bytes, ncclChar, peer, comm_->get(), stream), "ncclSend");
      impl::nccl_check(ncclRecv(recv + at, bytes, ncclChar, peer, comm_->get(), stream), "ncclRecv");
    }
    impl::nccl_check(ncclGroupEnd(), "ncclGroupEnd");
  }

 private:
  static void record(cudaEvent_t e, cudaStream_t s) {
    impl::cuda_check(cudaEventRecord(e, s), "cudaEventRecord");
  }
  static void wait_for(cudaStream_t s, cudaEvent_t e) {
    impl::cuda_check(cudaStreamWaitEvent(s, e, 0), "cudaStreamWaitEvent");
  }
  /// Work on `later` from now on waits for the work on `first` so far.
  static void follow(cudaStream_t later, cudaStream_t first, cudaEvent_t e) {
    if (later == first) return;
    record(e, first);
    wait_for(later, e);
  }

  std::shared_ptr<NcclComm> comm_;
  cudaStream_t stream_ = nullptr, pack_ = nullptr, unpack_ = nullptr;
  std::vector<cudaEvent_t> events_;
};

}  // namespace tilekit::dist
#endif
