#pragma once
// The production reduction: one kernel launch, any operation of ops.hpp.
//
// The input is read as aligned vectors of LoadBytes (one 16-byte load on the
// GPU, through backends::load_stream) starting at `head`, the first element
// whose address is so aligned. The vectors are cut into rows of `threads`
// vectors (one per work item of a team), and the rows into rounds of Loads
// rows. A team's rows (Rounds): with rows = q L + e, team t of L reduces the
// q + (t < e) contiguous rows from t q + min(t, e) (shares differ by at most
// one row; q and e come from the host, so no team divides); or, where the
// split is interleaved (ReduceSplit), the rounds t, t + L, t + 2L,
// ..., so that the league reads one window of the input that moves through it
// (teams differ by at most one round). Either way every team, and every work
// item, has the same work, and the order of accumulation is fixed by n, the
// alignment and the launch shape. Work item `tid` reads vector tid of each
// row of its team's rounds (lanes on consecutive addresses), all Loads loads
// of a round issued together (and, where Ahead, before the previous round is
// folded), and keeps one accumulator per load and lane: accumulator k takes
// row k of every round of the team. Team 0 also takes the elements outside whole rows (the
// head before the first aligned vector, and the tail). A work item joins its
// accumulators in a pairwise tree. A team joins its work items in team scratch
// in two levels (join_team: G = groups work items each join every G-th value,
// then one joins those G), each level eight values at a time in a pairwise
// tree: two barriers and short dependency chains, since what follows the last
// load is the latency every call pays. The team writes one partial and takes a
// ticket (an acquire-release atomic: the partial is visible before the ticket,
// and the last ticket sees every partial); the last team joins the partials the
// same way and writes the result: no second launch, no fence. In that join work
// item tid takes partials tid, tid + threads, ... Loads of them loaded at once
// (a pairwise tree of each Loads).
#include <tilekit/backends/stream_load.hpp>
#include <tilekit/backends/unroll.hpp>
#include <tilekit/impl/reduce/ops.hpp>
#include <tilekit/impl/common/tile_copy.hpp>

#include <cstddef>
#include <cstdint>

TILEKIT_HOST_PRAGMAS_BEGIN

namespace tilekit::impl {

/// A team's rows: rounds of K rows starting at rows first, first + step, ...
/// below end (a last round may be partial).
struct ReduceRounds {
  index_t first, end, step;
};

template <class Exec, class T, class Op, int LoadBytes, int Loads, int LocateRows = 0>
struct ReduceKernel {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using traits = OpTraits<Op, T>;
  using acc_type = typename traits::acc_type;
  using result_type = typename traits::result_type;

  /// Elements per vector load.
  static constexpr int W = LoadBytes > int(sizeof(T)) ? LoadBytes / int(sizeof(T)) : 1;
  static constexpr int K = Loads;
  /// MinLoc/MaxLoc: the fold carries an index.
  static constexpr bool indexed = requires { traits::improves; };
  /// MinLoc/MaxLoc: groups of K rows whose values are folded before their
  /// indices are looked for (locate(); 0: value and index per element).
  static constexpr int Locate = indexed ? LocateRows / Loads : 0;
  /// Whether a work item issues the next round's loads before it folds the
  /// current one (two rounds in flight): where an accumulator is no wider than
  /// an element (sums of floats and of 64-bit integers, min and max), so the
  /// extra round of registers keeps the kernel near the registers of its
  /// loads; wider ones (int32 sums into int64, compensated sums, MinLoc and
  /// MaxLoc, 2-byte floats into float) already hold more registers per
  /// element than they load, and would lose teams per SM.
  static constexpr bool Ahead = sizeof(acc_type) <= sizeof(T);
  using Vec = Pack<T, W>;
  static_assert(sizeof(Vec) == W * sizeof(T), "tilekit::reduce: load_bytes must be a power of two");

  const T* data;
  index_t n;
  index_t head;  ///< elements before the first aligned vector
  index_t rows;   ///< whole rows of `threads` vectors after head
  index_t share;  ///< rows / league: every team's rows ...
  index_t extra;  ///< ... and one more for the first rows % league teams
  int threads;    ///< work items per team
  int groups;     ///< G of join_team (groups_for(threads))
  bool interleave = false;  ///< rounds dealt to the teams in turn (not with Locate)
  acc_type* partial;
  unsigned* counter;  ///< zero between launches; the last team resets it
  result_type* result;

  static index_t head_of(const T* p, index_t n) {
    constexpr std::uintptr_t vb = sizeof(Vec);
    const std::uintptr_t mis = reinterpret_cast<std::uintptr_t>(p) % vb;
    const index_t h = mis ? static_cast<index_t>((vb - mis) / sizeof(T)) : 0;
    return h < n ? h : n;
  }
  static index_t rows_of(index_t n, index_t head, int threads) {
    return (n - head) / W / threads;
  }
  /// G of join_team: the least power of two whose square reaches `threads`.
  static int groups_for(int threads) {
    int g = 1;
    while (g * g < threads) g *= 2;
    return g;
  }
  /// Team scratch of join_team: one accumulator per work item and per group.
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int threads, int groups) {
    return sizeof(acc_type) * static_cast<std::size_t>(threads + groups);
  }

  /// Work item tid's share: vector tid of the rows of `rd`, plus the loose
  /// elements if `rest`. One accumulator per load and lane (K x W chains).
  KOKKOS_INLINE_FUNCTION void work_item(const ReduceRounds& rd, int tid, bool rest,
                                        acc_type& out) const {
    acc_type acc[K * W];
TILEKIT_UNROLL
    for (int k = 0; k < K * W; ++k) acc[k] = traits::identity();
    const Vec* vec = reinterpret_cast<const Vec*>(data + head);
    const index_t stride = threads;
    auto fold = [&](int k, const Vec& v, index_t at) {
      const index_t e0 = head + at * W;
TILEKIT_LANES
      for (int j = 0; j < W; ++j) traits::add(acc[k * W + j], v.v[j], e0 + j);
    };
    auto load_round = [&](index_t r0, Vec(&v)[K]) {
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k) v[k] = backends::load_stream(vec + (r0 + k) * stride + tid);
    };
    const index_t r1 = rd.end;
    index_t r = rd.first;
    if constexpr (Locate > 0) locate(r, r1, vec, tid, acc);  // contiguous: step == K
    // Whole rounds; with Ahead the next round's loads are issued before this
    // one is folded.
    if constexpr (Ahead) {
      if (r + K <= r1) {
        Vec v[K];
        load_round(r, v);
        for (;;) {
          const index_t next = r + rd.step;
          const bool more = next + K <= r1;
          Vec w[K];
          if (more) load_round(next, w);
          const index_t v0 = r * stride + tid;
TILEKIT_UNROLL
          for (int k = 0; k < K; ++k) fold(k, v[k], v0 + k * stride);
          r = next;
          if (!more) break;
TILEKIT_UNROLL
          for (int k = 0; k < K; ++k) v[k] = w[k];
        }
      }
    } else if (indexed && rd.step == K) {  // MinLoc/MaxLoc, a contiguous share:
      // a constant step, plain loads (faster for them than the run-time step;
      // other operations ran faster with the run-time step alone, in fewer
      // registers).
      for (; r + K <= r1; r += K) {
        const index_t v0 = r * stride + tid;
        Vec v[K];
TILEKIT_UNROLL
        for (int k = 0; k < K; ++k) v[k] = vec[v0 + k * stride];
TILEKIT_UNROLL
        for (int k = 0; k < K; ++k) fold(k, v[k], v0 + k * stride);
      }
    } else {
      for (; r + K <= r1; r += rd.step) {
        Vec v[K];
        load_round(r, v);
        const index_t v0 = r * stride + tid;
TILEKIT_UNROLL
        for (int k = 0; k < K; ++k) fold(k, v[k], v0 + k * stride);
      }
    }
    if (r < r1) {  // fewer than K rows left: loads past r1 re-read row r (in bounds)
      const index_t v0 = r * stride + tid;
      Vec v[K];
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k)
        v[k] = backends::load_stream(vec + v0 + (r + k < r1 ? k : 0) * stride);
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k)
        if (r + k < r1) fold(k, v[k], v0 + k * stride);
    }
    if (rest) {
      for (index_t i = tid; i < head; i += stride) traits::add(acc[0], data[i], i);
      for (index_t i = head + rows * stride * W + tid; i < n; i += stride)
        traits::add(acc[0], data[i], i);
    }
    tree(acc);
    traits::join(out, acc[0]);
  }

  /// MinLoc/MaxLoc with Locate > 0: rows [r, r1) of work item tid, Locate x
  /// K rows at a time (whole groups of K; r is left past them): the values of
  /// each accumulator's elements folded alone (vectorised on a CPU), then,
  /// in the accumulators whose value that improves, the first element of
  /// that rank, found by reading those rows again. The accumulators end as
  /// the fold of value and index would leave them.
  KOKKOS_INLINE_FUNCTION void locate(index_t& r, index_t r1, const Vec* vec, int tid,
                                     acc_type (&acc)[K * W]) const {
    using VT = typename traits::value_traits;
    using V = typename VT::acc_type;
    const index_t stride = threads;
    while (r + K <= r1) {
      const index_t groups = Kokkos::min<index_t>((r1 - r) / K, Locate);
      V m[K * W];
TILEKIT_UNROLL
      for (int q = 0; q < K * W; ++q) m[q] = VT::identity();
      for (index_t g = 0; g < groups; ++g) {
        const index_t v0 = (r + g * K) * stride + tid;
        Vec v[K];
TILEKIT_UNROLL
        for (int k = 0; k < K; ++k) v[k] = vec[v0 + k * stride];
TILEKIT_UNROLL
        for (int k = 0; k < K; ++k)
TILEKIT_LANES
          for (int j = 0; j < W; ++j) VT::add(m[k * W + j], v[k].v[j], 0);
      }
      settle(acc, m, groups, [&](index_t g, int q) {
        const index_t at = (r + g * K + q / W) * stride + tid;
        return Kokkos::pair<T, index_t>(vec[at].v[q % W], head + at * W + q % W);
      });
      r += groups * K;
    }
  }

  /// The second half of locate() (and of the strided kernel's locate_rows()):
  /// in each accumulator q whose value that improves, the extremum m[q] of
  /// its next `groups` elements and the index of the first of them of that
  /// rank; at(g, q) is accumulator q's element of group g and its index.
  template <int N, class V, class At>
  KOKKOS_INLINE_FUNCTION static void settle(acc_type (&acc)[N], const V (&m)[N], index_t groups,
                                            const At& at) {
    for (int q = 0; q < N; ++q) {
      if (!traits::improves(acc[q], m[q])) continue;
      for (index_t g = 0; g < groups; ++g) {
        const auto xi = at(g, q);
        if (traits::ranks_as(xi.first, m[q])) {
          acc[q] = {m[q], xi.second};
          break;
        }
      }
    }
  }

  /// Joins a[0 .. N) pairwise into a[0]: a[i] takes a[i + 1], a[i + 2], a[i + 4],
  /// ... (a tree ceil(log2 N) joins deep).
  template <int N>
  KOKKOS_INLINE_FUNCTION static void tree(acc_type (&a)[N]) {
TILEKIT_UNROLL
    for (int step = 1; step < N; step *= 2)
TILEKIT_UNROLL
      for (int i = 0; i + step < N; i += 2 * step) traits::join(a[i], a[i + step]);
  }

  /// The join of at(first), at(first + stride), ... below `end`: C values
  /// loaded at once (identities past end), joined in a tree, the trees in
  /// turn. Team scratch is joined Chunk at a time; the last team's partials
  /// (loaded past non-coherent caches) K at a time.
  static constexpr int Chunk = 8;
  template <int C, class I, class At>
  KOKKOS_INLINE_FUNCTION static acc_type join_strided(const At& at, I first, I end, I stride) {
    acc_type a = traits::identity();
    for (I i = first; i < end; i += C * stride) {
      acc_type x[C];
TILEKIT_UNROLL
      for (int u = 0; u < C; ++u)
        x[u] = i + u * stride < end ? at(i + u * stride) : traits::identity();
      tree(x);
      traits::join(a, x[0]);
    }
    return a;
  }
  KOKKOS_INLINE_FUNCTION static acc_type join_scratch(const acc_type* s, int first, int end,
                                                      int stride) {
    return join_strided<Chunk>([s](int i) { return s[i]; }, first, end, stride);
  }

  /// The last team's share of the L partials: tid, tid + threads, ..., K at a
  /// time (the loads are independent, so they are in flight together).
  KOKKOS_INLINE_FUNCTION acc_type join_partials(index_t L, int tid) const {
    const acc_type* p = partial;
    return join_strided<K>([p](index_t i) { return traits::load(p + i); }, index_t(tid), L,
                           index_t(threads));
  }

  /// Joins s[0 .. threads) of every work item in two levels: work item i < G
  /// joins s[i], s[i + G], ... into s[threads + i]; the caller's PerTeam
  /// single then takes last_level(s) (s[threads .. threads + G)).
  KOKKOS_INLINE_FUNCTION void join_team(const member_type& team, acc_type* s) const {
    team.team_barrier();
    const int G = groups;
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, G), [&](const int i) {
      s[threads + i] = join_scratch(s, i, threads, G);
    });
    team.team_barrier();
  }
  KOKKOS_INLINE_FUNCTION acc_type last_level(const acc_type* s) const {
    return join_scratch(s, threads, threads + groups, 1);
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const { run_team(*this, team); }

  /// A team's work: its rounds (a contiguous share, or every L-th round where
  /// self.interleave), each work item's value into team scratch through
  /// self.work_item, then finish() (shared with ReduceStridedKernel, whose
  /// work_item reads runs).
  template <class Self>
  KOKKOS_INLINE_FUNCTION static void run_team(const Self& self, const member_type& team) {
    const index_t t = team.league_rank();
    ReduceRounds rd;
    if (self.interleave) {
      rd = {t * K, self.rows, K * index_t(team.league_size())};
    } else {
      rd.first = t * self.share + (t < self.extra ? t : self.extra);
      rd.end = rd.first + self.share + (t < self.extra ? 1 : 0);
      rd.step = K;
    }
    acc_type* s = static_cast<acc_type*>(
        team.team_shmem().get_shmem(scratch_bytes(self.threads, self.groups)));
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, self.threads), [&](const int tid) {
      acc_type a = traits::identity();
      self.work_item(rd, tid, t == 0, a);
      s[tid] = a;
    });
    self.finish(team, s);
  }

  /// After every work item of the team left its value in s[0 .. threads):
  /// the team's join, its partial and ticket, and the last team's join of
  /// the partials into the result (shared with ReduceStridedKernel).
  KOKKOS_INLINE_FUNCTION void finish(const member_type& team, acc_type* s) const {
    const index_t t = team.league_rank();
    const index_t L = team.league_size();
    join_team(team, s);
    if (L == 1) {
      Kokkos::single(Kokkos::PerTeam(team), [&] { *result = traits::result(last_level(s)); });
      return;
    }
    int last = 0;
    Kokkos::single(
        Kokkos::PerTeam(team),
        [&](int& is_last) {
          partial[t] = last_level(s);
          // Release: the partial is visible before the ticket. Acquire: the last
          // ticket sees every partial, and the single's barrier orders the
          // team's loads below after it. (desul is Kokkos' atomics library;
          // Kokkos::atomic_* are relaxed.)
          is_last = desul::atomic_fetch_add(counter, 1u, desul::MemoryOrderAcqRel(),
                                            desul::MemoryScopeDevice()) ==
                    static_cast<unsigned>(L - 1);
        },
        last);
    if (!last) return;
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, threads), [&](const int tid) {
      s[tid] = join_partials(L, tid);
    });
    join_team(team, s);
    Kokkos::single(Kokkos::PerTeam(team), [&] {
      *result = traits::result(last_level(s));
      Kokkos::atomic_store(counter, 0u);
    });
  }
};

}  // namespace tilekit::impl

TILEKIT_HOST_PRAGMAS_END
