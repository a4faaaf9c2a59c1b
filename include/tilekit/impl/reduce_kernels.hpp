#pragma once
// The production reduction: one kernel launch, any operation of reduce_ops.hpp.
//
// The input is read as aligned vectors of LoadBytes (one 16-byte load on the
// GPU) starting at `head`, the first element whose address is so aligned. The
// vectors are cut into tiles of `threads` x Loads vectors; team t reduces the
// contiguous range of tiles [t * ntiles / L, (t + 1) * ntiles / L) (an even
// share, so the order of accumulation is fixed by n, the alignment and the launch
// shape). Work item `tid` of a team reads vectors tid, tid + threads, ... of a
// tile (lanes on consecutive addresses), all Loads of them before the first add,
// and keeps one accumulator per load and lane. Team 0 also takes the elements
// outside whole tiles. Teams join their work items (Kokkos' team reduction),
// write one partial each, and the last team to finish (an atomic ticket) joins
// the partials and writes the result: no second launch, no fence.
#include <tilekit/impl/reduce_ops.hpp>

#include <cstdint>

// The lane loop of a load: unrolled into registers on the GPU; on the CPU left
// whole for the loop vectoriser (GCC does not vectorise it once fully unrolled).
#if defined(__CUDA_ARCH__)
#define TILEKIT_LANES _Pragma("unroll")
#elif defined(__clang__)
#define TILEKIT_LANES
#else
#define TILEKIT_LANES _Pragma("GCC unroll 1")
#endif

// nvcc's front end does not know the host compiler's unroll pragmas it passes on.
#if defined(__NVCC__)
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1675
#endif

namespace tilekit::impl {

template <class Exec, class T, class Op, int LoadBytes, int Loads>
struct ReduceKernel {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using traits = OpTraits<Op, T>;
  using acc_type = typename traits::acc_type;
  using result_type = typename traits::result_type;
  using reducer = OpReducer<Op, T>;

  /// Elements per vector load.
  static constexpr int W = LoadBytes > int(sizeof(T)) ? LoadBytes / int(sizeof(T)) : 1;
  static constexpr int K = Loads;
  struct alignas(W * sizeof(T)) Vec {
    T x[W];
  };
  static_assert(sizeof(Vec) == W * sizeof(T), "tilekit::reduce: load_bytes must be a power of two");

  const T* data;
  index_t n;
  index_t head;    ///< elements before the first aligned vector
  index_t ntiles;  ///< whole tiles of threads x K vectors after head
  int threads;     ///< work items per team
  acc_type* partial;
  unsigned* counter;  ///< zero between launches; the last team resets it
  result_type* result;

  static index_t head_of(const T* p, index_t n) {
    constexpr std::uintptr_t vb = sizeof(Vec);
    const std::uintptr_t mis = reinterpret_cast<std::uintptr_t>(p) % vb;
    const index_t h = mis ? static_cast<index_t>((vb - mis) / sizeof(T)) : 0;
    return h < n ? h : n;
  }
  static index_t tiles_of(index_t n, index_t head, int threads) {
    return (n - head) / W / (static_cast<index_t>(threads) * K);
  }

  /// Work item tid's share: tiles [t0, t1), plus the loose elements if `rest`.
  /// One accumulator per load and lane, so K x W independent chains.
  KOKKOS_INLINE_FUNCTION void work_item(index_t t0, index_t t1, int tid, bool rest,
                                        acc_type& out) const {
    acc_type acc[K][W];
TILEKIT_UNROLL
    for (int k = 0; k < K; ++k)
TILEKIT_UNROLL
      for (int j = 0; j < W; ++j) acc[k][j] = traits::identity();
    const Vec* vec = reinterpret_cast<const Vec*>(data + head);
    const index_t tile_vecs = static_cast<index_t>(threads) * K;
    for (index_t tile = t0; tile < t1; ++tile) {
      const index_t v0 = tile * tile_vecs + tid;
      Vec v[K];
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k) v[k] = vec[v0 + k * threads];
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k) {
        const index_t e0 = head + (v0 + k * threads) * W;
TILEKIT_LANES
        for (int j = 0; j < W; ++j) traits::add(acc[k][j], v[k].x[j], e0 + j);
      }
    }
    if (rest) {
      for (index_t i = tid; i < head; i += threads) traits::add(acc[0][0], data[i], i);
      for (index_t i = head + ntiles * tile_vecs * W + tid; i < n; i += threads)
        traits::add(acc[0][0], data[i], i);
    }
TILEKIT_UNROLL
    for (int k = 0; k < K; ++k)
TILEKIT_UNROLL
      for (int j = 0; j < W; ++j)
        if (k + j > 0) traits::join(acc[0][0], acc[k][j]);
    traits::join(out, acc[0][0]);
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    const index_t t = team.league_rank();
    const index_t L = team.league_size();
    const index_t t0 = ntiles * t / L, t1 = ntiles * (t + 1) / L;
    acc_type mine;
    Kokkos::parallel_reduce(
        Kokkos::TeamVectorRange(team, threads),
        [&](const int tid, acc_type& a) { work_item(t0, t1, tid, t == 0, a); }, reducer(mine));
    if (L == 1) {
      Kokkos::single(Kokkos::PerTeam(team), [&] { *result = traits::result(mine); });
      return;
    }
    int last = 0;
    Kokkos::single(
        Kokkos::PerTeam(team),
        [&](int& is_last) {
          partial[t] = mine;
          Kokkos::memory_fence();  // the partial is visible before the ticket
          is_last = Kokkos::atomic_fetch_add(counter, 1u) == static_cast<unsigned>(L - 1);
        },
        last);
    if (!last) return;
    Kokkos::memory_fence();
    acc_type all;
    Kokkos::parallel_reduce(
        Kokkos::TeamVectorRange(team, L),
        [&](const index_t i, acc_type& a) { traits::join(a, traits::load(partial + i)); },
        reducer(all));
    Kokkos::single(Kokkos::PerTeam(team), [&] {
      *result = traits::result(all);
      Kokkos::atomic_store(counter, 0u);
    });
  }
};

}  // namespace tilekit::impl

#if defined(__NVCC__)
#pragma nv_diagnostic pop
#endif
