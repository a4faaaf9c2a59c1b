#pragma once
// The MPI engine, driven by the host. A chunk's messages go as non-blocking
// point-to-point in pairwise order (at step k rank r receives from r - k and
// sends to r + k; the plan lists them so), which is what an MPI_Alltoallv does
// inside, but with 64-bit counts (MPI_Alltoallv's are int; messages are cut at
// 1 GiB), skipping the empty messages of a pencil exchange (only a row of the
// grid talks); the rank's own data never goes through MPI (the plan moves it).
// send(k) fences the pack lane and posts chunk k; wait(k) completes it, while
// the device (if any) packs chunk k + 1. Device memory goes to MPI directly
// when it is CUDA-aware (MPIX_Query_cuda_support of Open MPI's mpi-ext.h),
// else through pinned host buffers: download, exchange, upload (the `staged`
// steps; the upload runs on the unpack lane, ahead of the chunk's unpacks).
#include <tilekit/dist/engine.hpp>
#include <tilekit/errors.hpp>

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace tilekit::dist {

/// True when MPI reports, at run time, that it takes CUDA device pointers.
inline bool mpi_cuda_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

namespace impl {
/// A failed MPI call: an exception naming it (MPI_ERRORS_RETURN must be set
/// for a call to return; with the default handler MPI aborts first).
inline void mpi_check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  throw std::runtime_error(std::string("tilekit::dist: ") + call + " failed: " +
                           std::string(msg, len));
}

#if defined(KOKKOS_HAS_SHARED_HOST_PINNED_SPACE)
using StagingSpace = Kokkos::SharedHostPinnedSpace;
#else
using StagingSpace = Kokkos::HostSpace;
#endif
}  // namespace impl

template <class ExecSpace>
class MpiExchanger final : public Exchanger<ExecSpace> {
  using Mem = typename ExecSpace::memory_space;
  using Bytes = Kokkos::View<char*, Mem, Kokkos::MemoryUnmanaged>;

 public:
  static constexpr bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  static constexpr std::size_t max_message = std::size_t(1) << 30;

  MpiExchanger(MPI_Comm comm, Staging staging) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    cuda_aware_ = mpi_cuda_aware();
    stage_ = !host_memory && (staging == Staging::always ||
                              (staging == Staging::automatic && !cuda_aware_));
  }
  Engine engine() const override { return Engine::mpi; }
  bool staged() const { return stage_; }
  std::string describe() const override {
    if (host_memory) return "mpi (host memory)";
    if (stage_) return "mpi (staged through pinned host memory)";
    return cuda_aware_ ? "mpi (CUDA-aware)" : "mpi (device pointers, CUDA-awareness not reported)";
  }

  void begin(const Lanes<ExecSpace>& lanes, int chunks, std::size_t send_bytes,
             std::size_t recv_bytes, bool timed) override {
    lanes_.emplace(lanes);
    timed_ = timed;
    reqs_.assign(static_cast<std::size_t>(std::max(chunks, 1)), {});
    uploads_.assign(reqs_.size(), {});
    stage_times_ = {};
    host_sent_ = host_received_ = 0;
    if (stage_) {
      grow(host_send_, send_bytes, "tilekit::dist::staging_send");
      grow(host_recv_, recv_bytes, "tilekit::dist::staging_recv");
    }
  }
  void packed(int) override {}

  void send(int k, const std::vector<SendMessage>& sends,
            const std::vector<RecvMessage>& recvs) override {
    const ExecSpace& pack = lanes_->pack;
    Kokkos::Timer timer;
    pack.fence();  // the chunk's packs (and the caller's earlier work) are done
    auto& reqs = reqs_[k];
    const int tag = k % 32768;  // MPI_TAG_UB is at least 32767
    if (!stage_) {
      for (const auto& m : recvs) post(reqs, false, m.peer, tag, m.data, m.bytes);
      for (const auto& m : sends) post(reqs, true, m.peer, tag, const_cast<char*>(m.data), m.bytes);
      return;
    }
    // Staged: download the chunk's messages into this execute's regions of
    // the pinned host buffers, then exchange between those.
    std::vector<char*> at;
    for (const auto& m : sends) {
      at.push_back(host_send_.data() + host_sent_);
      Kokkos::deep_copy(pack, HostBytes(at.back(), m.bytes),
                        Bytes(const_cast<char*>(m.data), m.bytes));
      host_sent_ += m.bytes;
    }
    pack.fence();
    stage_times_.download += timer.seconds() * 1e3;
    timer.reset();
    for (const auto& m : recvs) {
      uploads_[k].push_back({m, host_recv_.data() + host_received_});
      post(reqs, false, m.peer, tag, uploads_[k].back().from, m.bytes);
      host_received_ += m.bytes;
    }
    for (std::size_t i = 0; i < sends.size(); ++i)
      post(reqs, true, sends[i].peer, tag, at[i], sends[i].bytes);
    stage_times_.transfer += timer.seconds() * 1e3;
  }

  void wait(int k) override {
    Kokkos::Timer timer;
    auto& reqs = reqs_[k];
    if (!reqs.empty())
      impl::mpi_check(MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE),
                      "MPI_Waitall");
    reqs.clear();
    if (!stage_) return;
    stage_times_.transfer += timer.seconds() * 1e3;
    timer.reset();
    // Upload on the unpack lane, ahead of the chunk's unpacks.
    const ExecSpace& unpack = lanes_->unpack;
    for (const auto& u : uploads_[k])
      Kokkos::deep_copy(unpack, Bytes(u.to.data, u.to.bytes), HostBytes(u.from, u.to.bytes));
    if (timed_) {
      unpack.fence();
      stage_times_.upload += timer.seconds() * 1e3;
    }
  }

  void end() override {
    lanes_->unpack.fence();  // the unpacks are done before the caller goes on
    lanes_->pack.fence();
  }

  /// The last execute's staged steps, summed over its chunks, milliseconds
  /// (zeros when not staged; the upload only when timed).
  struct StageTimes {
    double download = 0, transfer = 0, upload = 0;
  };
  const StageTimes& stage_times() const { return stage_times_; }

  void alltoall(const ExecSpace& exec, const char* send, char* recv, std::size_t bytes) override {
    // One MPI datatype of u bytes, u the largest power of two up to 1 MiB
    // dividing `bytes`, keeps the count an int.
    std::size_t u = 1;
    while (u < (std::size_t(1) << 20) && bytes % (2 * u) == 0) u *= 2;
    MPI_Datatype unit;
    MPI_Type_contiguous(static_cast<int>(u), MPI_BYTE, &unit);
    MPI_Type_commit(&unit);
    const std::size_t span = bytes * static_cast<std::size_t>(size_);
    exec.fence();
    if (!stage_) {
      impl::mpi_check(MPI_Alltoall(send, static_cast<int>(bytes / u), unit, recv,
                                   static_cast<int>(bytes / u), unit, comm_),
                      "MPI_Alltoall");
    } else {
      grow(host_send_, span, "tilekit::dist::staging_send");
      grow(host_recv_, span, "tilekit::dist::staging_recv");
      Kokkos::deep_copy(exec, HostBytes(host_send_.data(), span), Bytes(const_cast<char*>(send), span));
      exec.fence();
      impl::mpi_check(MPI_Alltoall(host_send_.data(), static_cast<int>(bytes / u), unit,
                                   host_recv_.data(), static_cast<int>(bytes / u), unit, comm_),
                      "MPI_Alltoall");
      Kokkos::deep_copy(exec, Bytes(recv, span), HostBytes(host_recv_.data(), span));
      exec.fence();
    }
    MPI_Type_free(&unit);
  }

 private:
  using HostBytes = Kokkos::View<char*, impl::StagingSpace, Kokkos::MemoryUnmanaged>;

  static void grow(Kokkos::View<char*, impl::StagingSpace>& v, std::size_t n, const char* label) {
    if (v.extent(0) < n) {
      v = {};
      v = Kokkos::View<char*, impl::StagingSpace>(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
    }
  }

  /// Posts one message, cut at max_message (in order: MPI keeps the order of
  /// messages between two ranks with one tag).
  void post(std::vector<MPI_Request>& reqs, bool is_send, int peer, int tag, char* data,
            std::size_t bytes) {
    for (std::size_t at = 0; at < bytes; at += max_message) {
      const int n = static_cast<int>(std::min(max_message, bytes - at));
      reqs.emplace_back();
      MPI_Request* r = &reqs.back();
      if (is_send)
        impl::mpi_check(MPI_Isend(data + at, n, MPI_BYTE, peer, tag, comm_, r), "MPI_Isend");
      else
        impl::mpi_check(MPI_Irecv(data + at, n, MPI_BYTE, peer, tag, comm_, r), "MPI_Irecv");
    }
  }

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  bool cuda_aware_ = false, stage_ = false;
  bool timed_ = false;
  StageTimes stage_times_{};
  std::optional<Lanes<ExecSpace>> lanes_;
  std::vector<std::vector<MPI_Request>> reqs_;  ///< per chunk
  /// Staged: per chunk, the device messages and the host regions they are
  /// received into; the bytes of the host buffers this execute used so far.
  struct Upload {
    RecvMessage to;
    char* from = nullptr;
  };
  std::vector<std::vector<Upload>> uploads_;
  std::size_t host_sent_ = 0, host_received_ = 0;
  Kokkos::View<char*, impl::StagingSpace> host_send_, host_recv_;
};

}  // namespace tilekit::dist
