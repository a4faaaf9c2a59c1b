#pragma once
// The NCCL engine (TILEKIT_ENABLE_NCCL, CUDA builds): one NCCL communicator per
// MPI communicator, bootstrapped by broadcasting rank 0's ncclUniqueId over
// MPI; each exchange is one group of ncclSend / ncclRecv (the rank's message
// to itself included) enqueued on the execution space instance's CUDA stream,
// so it is ordered after the pack and before the unpack without a fence. One
// GPU per rank (NCCL refuses two ranks of a communicator on one device).
// Backend-specific code (cudaStream_t, NCCL) lives here and nowhere else.
#include <tilekit/dist/engine.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <nccl.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace tilekit::dist {

namespace impl {
inline void nccl_check(ncclResult_t rc, const char* call) {
  if (rc != ncclSuccess)
    throw std::runtime_error(std::string("tilekit::dist: ") + call + " failed: " +
                             ncclGetErrorString(rc));
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
  explicit NcclExchanger(std::shared_ptr<NcclComm> comm) : comm_(std::move(comm)) {}
  Engine engine() const override { return Engine::nccl; }
  std::string describe() const override {
    int v = 0;
    ncclGetVersion(&v);
    return "nccl " + std::to_string(v);
  }

  void exchange(const Kokkos::Cuda& exec, const char* send, char* recv,
                const Transfers& t) override {
    const cudaStream_t stream = exec.cuda_stream();
    impl::nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (int peer = 0; peer < comm_->size(); ++peer) {
      if (t.send_bytes[peer] > 0)
        impl::nccl_check(ncclSend(send + t.send_displ[peer], t.send_bytes[peer], ncclChar, peer,
                                  comm_->get(), stream),
                         "ncclSend");
      if (t.recv_bytes[peer] > 0)
        impl::nccl_check(ncclRecv(recv + t.recv_displ[peer], t.recv_bytes[peer], ncclChar, peer,
                                  comm_->get(), stream),
                         "ncclRecv");
    }
    impl::nccl_check(ncclGroupEnd(), "ncclGroupEnd");
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
  std::shared_ptr<NcclComm> comm_;
};

}  // namespace tilekit::dist
#endif
