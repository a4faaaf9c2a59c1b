#pragma once
// The MPI engine. Messages go as non-blocking point-to-point in pairwise order
// (at step k rank r receives from r - k and sends to r + k), which is what an
// MPI_Alltoallv does inside, but with 64-bit counts (MPI_Alltoallv's are int;
// messages are cut at 1 GiB), skipping the empty messages of a pencil
// exchange (only a row of the grid talks), and the rank's message to itself
// copied on the execution space. Device memory goes to MPI directly when it is
// CUDA-aware (MPIX_Query_cuda_support of Open MPI's mpi-ext.h), else through
// pinned host buffers: download, exchange, upload (the `staged` phases).
#include <tilekit/dist/engine.hpp>
#include <tilekit/errors.hpp>

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <algorithm>
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

  void exchange(const ExecSpace& exec, const char* send, char* recv, const Transfers& t) override {
    const int me = rank_;
    const auto self = [&] {
      if (t.send_bytes[me] == 0) return;
      Kokkos::deep_copy(exec, Bytes(recv + t.recv_displ[me], t.recv_bytes[me]),
                        Bytes(const_cast<char*>(send) + t.send_displ[me], t.send_bytes[me]));
    };
    if (!stage_) {
      exec.fence();  // the pack is complete before MPI reads it
      point_to_point(send, recv, t);
      self();
      exec.fence();
      return;
    }
    // Staged: download the send span but the rank's own message, exchange
    // between host buffers, upload the receive span around the own message,
    // which moves device to device. Each step is fenced anyway, so its time is
    // recorded (stage_times()).
    grow(host_send_, t.send_span, "tilekit::dist::staging_send");
    grow(host_recv_, t.recv_span, "tilekit::dist::staging_recv");
    Kokkos::Timer timer;
    around(t.send_span, t.send_displ[me], t.send_bytes[me], [&](std::size_t at, std::size_t n) {
      Kokkos::deep_copy(exec, HostBytes(host_send_.data() + at, n), Bytes(const_cast<char*>(send) + at, n));
    });
    exec.fence();
    stage_times_.download = timer.seconds() * 1e3;
    timer.reset();
    Transfers others = t;
    others.send_bytes[me] = others.recv_bytes[me] = 0;
    point_to_point(host_send_.data(), host_recv_.data(), others);
    stage_times_.transfer = timer.seconds() * 1e3;
    timer.reset();
    around(t.recv_span, t.recv_displ[me], t.recv_bytes[me], [&](std::size_t at, std::size_t n) {
      Kokkos::deep_copy(exec, Bytes(recv + at, n), HostBytes(host_recv_.data() + at, n));
    });
    self();
    exec.fence();
    stage_times_.upload = timer.seconds() * 1e3;
  }

  /// The last staged exchange's steps, milliseconds (zeros when not staged).
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

  /// Calls copy(at, n) for the bytes of [0, span) before and after [skip, skip + len).
  template <class Copy>
  static void around(std::size_t span, std::size_t skip, std::size_t len, Copy&& copy) {
    if (len == 0) skip = span;
    if (skip > 0) copy(std::size_t(0), skip);
    if (skip + len < span) copy(skip + len, span - skip - len);
  }

  /// Every message but the rank's own, pairwise order, cut at max_message.
  void point_to_point(const char* send, char* recv, const Transfers& t) {
    reqs_.clear();
    auto post = [&](bool is_send, int peer, std::size_t displ, std::size_t bytes) {
      for (std::size_t at = 0, tag = 0; at < bytes; at += max_message, ++tag) {
        const int n = static_cast<int>(std::min(max_message, bytes - at));
        reqs_.emplace_back();
        if (is_send)
          impl::mpi_check(MPI_Isend(send + displ + at, n, MPI_BYTE, peer, static_cast<int>(tag),
                                    comm_, &reqs_.back()),
                          "MPI_Isend");
        else
          impl::mpi_check(MPI_Irecv(recv + displ + at, n, MPI_BYTE, peer, static_cast<int>(tag),
                                    comm_, &reqs_.back()),
                          "MPI_Irecv");
      }
    };
    for (int k = 1; k < size_; ++k) {
      const int from = (rank_ - k + size_) % size_;
      post(false, from, t.recv_displ[from], t.recv_bytes[from]);
    }
    for (int k = 1; k < size_; ++k) {
      const int to = (rank_ + k) % size_;
      post(true, to, t.send_displ[to], t.send_bytes[to]);
    }
    if (!reqs_.empty())
      impl::mpi_check(MPI_Waitall(static_cast<int>(reqs_.size()), reqs_.data(), MPI_STATUSES_IGNORE),
                      "MPI_Waitall");
  }

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  bool cuda_aware_ = false, stage_ = false;
  StageTimes stage_times_{};
  std::vector<MPI_Request> reqs_;
  Kokkos::View<char*, impl::StagingSpace> host_send_, host_recv_;
};

}  // namespace tilekit::dist
