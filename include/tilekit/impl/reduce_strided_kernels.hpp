#pragma once
// The production reduction of a strided view (a LayoutStride window with gaps;
// docs/strided.md). The view's elements, in memory order, are runs of `len`
// elements `step` apart (the fastest dimension, fused with every dimension
// whose stride continues it); run r starts at runs.offset(r) (the other
// dimensions as mixed-radix digits, fastest first). Element i of that order
// is data[runs.offset(i / len) + (i % len) * step], and i is the index MinLoc
// and MaxLoc report: for a dense view, the offset from the first element.
//
// The split over teams and work items is the contiguous kernel's with one
// element per lane (rows of `threads` elements: work item tid takes element
// tid of each row of its team's share, so a warp reads consecutive elements
// of a run), K loads in flight and K accumulators per work item (accumulator
// k takes rows r0 + k, r0 + k + K, ...; accumulator 0 also the last share % K
// rows); team 0 takes the tail (fewer than `threads` elements). A work item
// walks its elements `threads` apart, carrying into the next run without a
// division per element (one where it crosses a run's end). The team join, the partials and the
// last-team join are ReduceKernel's (finish()), so results have the same
// form, fixed order and error bound.
#include <tilekit/impl/digits.hpp>
#include <tilekit/impl/reduce_kernels.hpp>

namespace tilekit::impl {

/// Where a strided view's elements are (see above).
struct ReduceRuns {
  Digits runs;       ///< run index -> offset of its first element
  index_t len = 1;   ///< elements per run
  index_t step = 1;  ///< stride of the elements within a run
};

template <class Exec, class T, class Op, int Loads>
struct ReduceStridedKernel : ReduceKernel<Exec, T, Op, int(sizeof(T)), Loads> {
  using Base = ReduceKernel<Exec, T, Op, int(sizeof(T)), Loads>;
  using typename Base::acc_type;
  using typename Base::member_type;
  using typename Base::traits;
  static constexpr int K = Base::K;
  static_assert(Base::W == 1, "tilekit::reduce: the strided kernel reads one element per lane");

  ReduceRuns where;

  /// Rows of `threads` elements (the tail, n - rows * threads, goes to team 0).
  static index_t rows_of(index_t n, int threads) { return n / threads; }

  KOKKOS_INLINE_FUNCTION T at(index_t run, index_t j) const {
    return this->data[where.runs.offset(run) + j * where.step];
  }

  /// Element tid of rows [r0, r1), plus the tail element of tid if `rest`.
  KOKKOS_INLINE_FUNCTION void work_item(index_t r0, index_t r1, int tid, bool rest,
                                        acc_type& out) const {
    acc_type acc[K];
TILEKIT_UNROLL
    for (int k = 0; k < K; ++k) acc[k] = traits::identity();
    const index_t threads = this->threads, len = where.len, step = where.step;
    const T* data = this->data;
    index_t e = r0 * threads + tid;  // the element's index in memory order
    index_t run = div_nonneg(e, len);
    index_t j = e - run * len;
    index_t base = where.runs.offset(run);
    // The next element of this work item: threads further in memory order.
    auto next = [&] {
      e += threads;
      j += threads;
      if (j >= len) {
        const index_t c = div_nonneg(j, len);
        run += c;
        j -= c * len;
        base = where.runs.offset(run);
      }
    };
    index_t r = r0;
    for (; r + K <= r1; r += K) {  // K loads in flight, then K independent adds
      T v[K];
      index_t at_e[K];
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k) {
        v[k] = data[base + j * step];
        at_e[k] = e;
        next();
      }
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k) traits::add(acc[k], v[k], at_e[k]);
    }
    for (; r < r1; ++r) {  // fewer than K rows left
      traits::add(acc[0], data[base + j * step], e);
      next();
    }
    if (rest) {
      const index_t tail = this->rows * threads + tid;
      if (tail < this->n) {
        const index_t q = div_nonneg(tail, len);
        traits::add(acc[0], at(q, tail - q * len), tail);
      }
    }
    Base::tree(acc);
    traits::join(out, acc[0]);
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    const index_t t = team.league_rank();
    const index_t share = this->share, extra = this->extra;
    const index_t r0 = t * share + (t < extra ? t : extra);
    const index_t r1 = r0 + share + (t < extra ? 1 : 0);
    acc_type* s = static_cast<acc_type*>(
        team.team_shmem().get_shmem(Base::scratch_bytes(this->threads, this->groups)));
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, this->threads), [&](const int tid) {
      acc_type a = traits::identity();
      work_item(r0, r1, tid, t == 0, a);
      s[tid] = a;
    });
    this->finish(team, s);
  }
};

}  // namespace tilekit::impl
