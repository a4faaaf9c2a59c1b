#pragma once
// The six refinement steps of a parallel sum (seed 004, after M. Harris'
// "Optimizing parallel reduction in CUDA"), each a team kernel with its block
// of partial sums in team scratch, plus Kokkos' own parallel_reduce.
//
// A team is one block of `block` work items (tid = 0 .. block-1; on the GPU a
// thread each, on the CPU the iterations of a loop). Each pass reduces a block
// of the input to one partial per team; the dispatch runs passes over the
// partials until one value is left, as seed 004 does (reduce_ladder.hpp).
#include <tilekit/impl/common/tile_copy.hpp>  // index_t, ScratchArray

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <type_traits>

namespace tilekit::study {

using impl::index_t;
using impl::ScratchArray;

/// The ladder, in seed 004's order; `kokkos` is Kokkos::parallel_reduce.
enum class ReduceStep {
  naive,        ///< 1: interleaved addressing, divergent branch (tid % 2s)
  strided,      ///< 2: interleaved addressing, strided index, contiguous active items
  sequential,   ///< 3: sequential addressing (halving stride, no bank conflicts)
  first_add,    ///< 4: a team covers 2 blocks; the first add during the load
  unroll_last,  ///< 5: the last level (2 x warp values) on one team rank's vector lanes
  multiple,     ///< 6: several elements per work item (algorithm cascading)
  kokkos        ///< Kokkos::parallel_reduce over a RangePolicy (the baseline)
};

template <class Exec, class In, class S, ReduceStep Step>
struct ReduceStepKernel {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Scratch = ScratchArray<S, Exec>;
  static constexpr bool two_per_item = Step >= ReduceStep::first_add;
  static constexpr bool warp_last = Step >= ReduceStep::unroll_last;

  const In* in;
  S* out;  ///< one partial per team
  index_t n;
  int block;  ///< work items per team, a power of two
  int warp;   ///< width of the unrolled last level (steps 5 and 6)

  static std::size_t scratch_bytes(int block) { return Scratch::shmem_size(block); }

  /// in[i] as S; with Guard, 0 past the end (blocks wholly inside skip the test).
  template <bool Guard>
  KOKKOS_INLINE_FUNCTION S at(index_t i) const {
    if constexpr (Guard) return i < n ? static_cast<S>(in[i]) : S(0);
    else return static_cast<S>(in[i]);
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    const int B = block;
    const index_t t = team.league_rank();
    Scratch s(team.team_scratch(0), B);
    auto items = [&](auto&& body) { Kokkos::parallel_for(Kokkos::TeamVectorRange(team, B), body); };
    // One element per work item, or two a block apart (the first add).
    auto load = [&](index_t base, auto guard, bool accumulate) {
      constexpr bool G = decltype(guard)::value;
      items([&](const int tid) {
        const S x = two_per_item ? S(at<G>(base + tid) + at<G>(base + tid + B)) : at<G>(base + tid);
        s(tid) = accumulate ? S(s(tid) + x) : x;
      });
    };
    const index_t per_team = (two_per_item ? 2 : 1) * static_cast<index_t>(B);

    if constexpr (Step == ReduceStep::multiple) {
      // Grid-strided rounds; as in seed 004 the running sum lives in s(tid). A
      // work item keeps its tid in every round, so rounds need no barrier.
      items([&](const int tid) { s(tid) = S(0); });
      const index_t grid = per_team * team.league_size();
      index_t base = per_team * t;
      for (; base + per_team <= n; base += grid) load(base, std::false_type{}, true);
      for (; base < n; base += grid) load(base, std::true_type{}, true);
    } else {
      const index_t base = per_team * t;
      if (base + per_team <= n) load(base, std::false_type{}, false);
      else load(base, std::true_type{}, false);
    }
    team.team_barrier();

    // Tree in scratch.
    if constexpr (Step == ReduceStep::naive) {
      for (int st = 1; st < B; st *= 2) {
        items([&](const int tid) {
          if (tid % (2 * st) == 0) s(tid) += s(tid + st);
        });
        team.team_barrier();
      }
    } else if constexpr (Step == ReduceStep::strided) {
      for (int st = 1; st < B; st *= 2) {
        items([&](const int tid) {
          const int i = 2 * st * tid;
          if (i < B) s(i) += s(i + st);
        });
        team.team_barrier();
      }
    } else {
      const int stop = warp_last ? warp : 0;
      for (int st = B / 2; st > stop; st >>= 1) {
        items([&](const int tid) {
          if (tid < st) s(tid) += s(tid + st);
        });
        team.team_barrier();
      }
    }

    if constexpr (warp_last) {
      // The last 2 x warp values: one team rank's vector lanes (one warp on the
      // GPU), no team barrier.
      if (team.team_rank() == 0) {
        S r = S(0);
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(team, warp),
            [&](const int l, S& a) { a += s(l) + s(l + warp); }, r);
        Kokkos::single(Kokkos::PerThread(team), [&] { out[t] = r; });
      }
    } else {
      Kokkos::single(Kokkos::PerTeam(team), [&] { out[t] = s(0); });
    }
  }
};

/// The baseline: Kokkos::parallel_reduce of In into S.
template <class In, class S>
struct ReduceKokkosSum {
  const In* in;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i, S& a) const {
    a += static_cast<S>(in[i]);
  }
};

}  // namespace tilekit::study
