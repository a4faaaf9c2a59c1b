#pragma once
// The production reduction of a strided view (a LayoutStride window with gaps;
// docs/strided.md). The view's elements, in memory order, are runs of `len`
// elements `step` apart (the fastest dimension, fused with every dimension
// whose stride continues it); run r starts at runs.offset(r) (the other
// dimensions as mixed-radix digits, fastest first). Element i of that order
// is data[runs.offset(i / len) + (i % len) * step], and i is the index MinLoc
// and MaxLoc report: for a dense view, the offset from the first element.
//
// The split over teams and work items is the contiguous kernel's, with rows of
// `threads` blocks of V consecutive elements (V = 1 on a GPU: lanes of a warp
// on consecutive elements; a vector's worth on a one-thread CPU team): work
// item tid takes block tid of each row of its team's share, K rows at a time,
// into K x V accumulators (accumulator (k, l) takes element l of the block of
// rows r0 + k, r0 + k + K, ..., and of one of the last share % K rows if k <
// share % K); team 0 takes the tail (fewer than `threads` x V elements, at most
// one per accumulator). When the K rows' elements lie in one run, a work item
// loads them with no carry check (a unit step as plain contiguous loads, which
// the compiler vectorises on the CPU); otherwise it works out their offsets
// first, element by element, carrying into the next run (a division only where
// it crosses a run's end), then issues the K x V loads together, then adds: no
// load waits for another's value. MinLoc/MaxLoc where the backend sets
// ReduceConfig::locate_rows (hosts) take up to locate_rows / K groups of K
// rows that lie in one run at a time values first (locate_rows(): the values
// alone, vectorised, then the index only where the value improves), as the
// contiguous kernel does. Every path adds each element into the same
// accumulator, so the order of accumulation depends only on the view and the
// launch shape. The team loop, the team join, the partials and the last-team
// join are ReduceKernel's (run_team(), finish()), so results have the same
// form, fixed order and error bound.
#include <tilekit/impl/common/digits.hpp>
#include <tilekit/impl/reduce/kernels.hpp>

#include <type_traits>

TILEKIT_HOST_PRAGMAS_BEGIN

namespace tilekit::impl {

/// Where a strided view's elements are (see above).
struct ReduceRuns {
  Digits runs;       ///< run index -> offset of its first element
  index_t len = 1;   ///< elements per run
  index_t step = 1;  ///< stride of the elements within a run
};

template <class Exec, class T, class Op, int Loads, int Lanes, int LocateRows = 0>
struct ReduceStridedKernel : ReduceKernel<Exec, T, Op, int(sizeof(T)), Loads, LocateRows> {
  using Base = ReduceKernel<Exec, T, Op, int(sizeof(T)), Loads, LocateRows>;
  using typename Base::acc_type;
  using typename Base::member_type;
  using typename Base::traits;
  static constexpr int K = Base::K;
  static constexpr int V = Lanes;  ///< consecutive elements per work item and row
  /// MinLoc/MaxLoc (ReduceConfig::locate_rows > 0): groups of K rows in one
  /// run whose values are folded before their indices are looked for.
  static constexpr int Locate = Base::Locate;
  static_assert(Base::W == 1 && V >= 1, "tilekit::reduce: the strided kernel reads elements");

  ReduceRuns where;

  /// Rows of `threads` x V elements (the tail, n - rows * threads * V, goes to team 0).
  static index_t rows_of(index_t n, int threads) { return n / (index_t(threads) * V); }

  KOKKOS_INLINE_FUNCTION T at(index_t run, index_t j) const {
    return this->data[where.runs.offset(run) + j * where.step];
  }

  /// Folds the K x V elements of K rows from p (all in one run, the first
  /// element's index e): element l of row k, p[(k row + l) step] (step 1
  /// when Unit), into accumulator (k, l). Its K x V loads are independent
  /// (no store between them), so they are in flight together; the lane loop
  /// is left whole for the CPU's loop vectoriser (TILEKIT_LANES).
  template <bool Unit>
  KOKKOS_INLINE_FUNCTION static void fold_rows(const T* p, index_t row, index_t step, index_t e,
                                               acc_type (&acc)[K * V]) {
TILEKIT_UNROLL
    for (int k = 0; k < K; ++k)
TILEKIT_LANES
      for (int l = 0; l < V; ++l)
        traits::add(acc[k * V + l], p[(k * row + l) * (Unit ? 1 : step)], e + k * row + l);
  }

  /// MinLoc/MaxLoc, values first: `groups` groups of K rows from p, all in
  /// one run (group g's element (k, l) at p[(g K row + k row + l) step], index
  /// e + g K row + k row + l). The values of each accumulator's elements are
  /// folded alone (the Min/Max fold, which a CPU vectorises), then, in the
  /// accumulators whose value that improves, the first element of that rank
  /// is found by reading those elements again (in cache). The accumulators
  /// end as fold_rows would leave them.
  template <bool Unit>
  KOKKOS_INLINE_FUNCTION static void locate_rows(const T* p, index_t row, index_t step,
                                                 index_t e, index_t groups,
                                                 acc_type (&acc)[K * V]) {
    using VT = typename traits::value_traits;
    typename VT::acc_type m[K * V];
TILEKIT_UNROLL
    for (int q = 0; q < K * V; ++q) m[q] = VT::identity();
    const index_t s = Unit ? 1 : step;
    for (index_t g = 0; g < groups; ++g) {
      const T* pg = p + g * K * row * s;
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k)
TILEKIT_LANES
        for (int l = 0; l < V; ++l) VT::add(m[k * V + l], pg[(k * row + l) * s], 0);
    }
    Base::settle(acc, m, groups, [&](index_t g, int q) {
      const index_t d = g * K * row + (q / V) * row + q % V;
      return Kokkos::pair<T, index_t>(p[d * s], e + d);
    });
  }

  /// Block tid of the team's rows [r0, r1) (a contiguous share: the plan
  /// never interleaves a strided view), plus the tail elements of tid if `rest`.
  KOKKOS_INLINE_FUNCTION void work_item(const ReduceRounds& rd, int tid, bool rest,
                                        acc_type& out) const {
    const index_t r0 = rd.first, r1 = rd.end;
    acc_type acc[K * V];
TILEKIT_UNROLL
    for (int k = 0; k < K * V; ++k) acc[k] = traits::identity();
    const index_t row = index_t(this->threads) * V, len = where.len, step = where.step;
    const T* data = this->data;
    index_t e = r0 * row + index_t(tid) * V;  // the element's index in memory order
    index_t run = div_nonneg(e, len);
    index_t j = e - run * len;
    index_t base = where.runs.offset(run);
    // Moves d elements further in memory order.
    auto advance = [&](index_t d) {
      e += d;
      j += d;
      if (j >= len) {
        const index_t c = div_nonneg(j, len);
        run += c;
        j -= c * len;
        base = where.runs.offset(run);
      }
    };
    // Rows [r, r + m) (m <= K) into accumulators (k, l): the offsets row by
    // row (a row of V > 1 elements in one run: its first element's; a row
    // that crosses a run's end: element by element), then every load (a
    // whole row's as V consecutive elements, Unit: contiguous), then the adds
    // (rows k >= m reload the first element and add nothing).
    auto carry_rows = [&](int m, auto unit) {
      constexpr bool Unit = decltype(unit)::value;
      index_t off[K * V];
      bool whole[K];
      const index_t e0 = e;
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k) {
        whole[k] = false;
        if (k >= m) {
          for (int l = 0; l < V; ++l) off[k * V + l] = off[0];
          continue;
        }
        if constexpr (V > 1)
          if (j + V <= len) {
            whole[k] = true;
            off[k * V] = base + j * step;
            advance(row);
            continue;
          }
        for (int l = 0; l < V; ++l) {
          off[k * V + l] = base + j * step;
          advance(l + 1 < V ? 1 : row - V + 1);
        }
      }
      T x[K * V];
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k) {
        if (whole[k]) {
          const T* q = data + off[k * V];
TILEKIT_LANES
          for (int l = 0; l < V; ++l) x[k * V + l] = q[l * (Unit ? 1 : step)];
        } else {
          for (int l = 0; l < V; ++l) x[k * V + l] = data[off[k * V + l]];
        }
      }
TILEKIT_UNROLL
      for (int k = 0; k < K; ++k)
        if (k < m)
TILEKIT_LANES
          for (int l = 0; l < V; ++l) traits::add(acc[k * V + l], x[k * V + l], e0 + k * row + l);
    };
    // Unit-stride rows of V > 1 elements load as contiguous blocks (CPUs).
    auto carry = [&](int m) {
      if constexpr (V > 1)
        if (step == 1) return carry_rows(m, std::true_type{});
      carry_rows(m, std::false_type{});
    };
    const index_t span = (K - 1) * row + V;  // elements from the first of K rows to past the last
    index_t r = r0;
    for (; r + K <= r1; r += K) {
      if (j + span > len) {  // the K rows cross a run's end
        carry(K);
        continue;
      }
      const T* p = data + base + j * step;
      if constexpr (Locate > 0) {
        // As many groups of K rows as lie in this run, up to Locate.
        const index_t groups = Kokkos::min(Kokkos::min((len - j - span) / (K * row) + 1,
                                                       (r1 - r) / K),
                                           index_t(Locate));
        if (step == 1) locate_rows<true>(p, row, step, e, groups, acc);
        else locate_rows<false>(p, row, step, e, groups, acc);
        r += (groups - 1) * K;
        advance(groups * K * row);
        continue;
      }
      if (step == 1) fold_rows<true>(p, row, step, e, acc);
      else fold_rows<false>(p, row, step, e, acc);
      advance(K * row);
    }
    if (r < r1) carry(int(r1 - r));  // fewer than K rows left: accumulators (0..m, l)
    if (rest) {
      const index_t tail = this->rows * row + index_t(tid) * V;
      for (int l = 0; l < V && tail + l < this->n; ++l) {
        const index_t q = div_nonneg(tail + l, len);
        traits::add(acc[l], at(q, tail + l - q * len), tail + l);
      }
    }
    Base::tree(acc);
    traits::join(out, acc[0]);
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const { Base::run_team(*this, team); }
};

}  // namespace tilekit::impl

TILEKIT_HOST_PRAGMAS_END
