#pragma once
// In-place transpose of a rectangular row-major matrix by the decomposition of
// Catanzaro, Keller and Garland ("A decomposition for in-place matrix
// transposition", PPoPP 2014): three steps, each of which permutes elements
// only within the columns or only within the rows of one M x N grid
// (docs/transpose_inplace.md derives the index maps used here).
//
// Each step moves every line (a row, or a block of adjacent columns) through
// a buffer: the team reads the line into the buffer, synchronises, and writes
// it back permuted. One side of each move runs along memory (coalesced); the
// other is permuted within the buffer, which is team scratch when the line
// fits and a workspace slot (reused by one team in turn) otherwise.
#include <tilekit/impl/common/tile_copy.hpp>  // index_t, ScratchArray

#include <Kokkos_Core.hpp>

namespace tilekit::impl {

/// Division by a fixed positive divisor without an integer divide: a
/// double-precision estimate of the quotient, corrected by one step. Exact for
/// 0 <= x < 2^52 (the estimate is then off by at most one; the plan rejects
/// matrices of 2^52 elements or more).
struct Divisor {
  index_t d = 1;
  double inv = 1.0;
  Divisor() = default;
  explicit Divisor(index_t d_) : d(d_), inv(1.0 / static_cast<double>(d_)) {}
  KOKKOS_INLINE_FUNCTION index_t quot(index_t x) const {
    index_t q = static_cast<index_t>(static_cast<double>(x) * inv);
    index_t r = x - q * d;
    if (r < 0) --q;
    else if (r >= d) ++q;
    return q;
  }
  KOKKOS_INLINE_FUNCTION void divmod(index_t x, index_t& q, index_t& r) const {
    q = static_cast<index_t>(static_cast<double>(x) * inv);
    r = x - q * d;
    if (r < 0) { --q; r += d; }
    else if (r >= d) { ++q; r -= d; }
  }
};

/// The grid of the decomposition: M x N row-major (M <= N in the plan), with
/// c = gcd(M, N) and b = N / c. Column j is rotated by j / b (< c <= M).
struct RectGrid {
  index_t M = 0, N = 0;
  Divisor by_M, by_N, by_b;

  KOKKOS_INLINE_FUNCTION index_t shift(index_t j) const { return by_b.quot(j); }
  /// Row step: in row r, the column that column j's element moves to,
  /// (j M + (r + j / b) mod M) mod N.
  KOKKOS_INLINE_FUNCTION index_t row_map(index_t r, index_t j) const {
    index_t i = r + shift(j);
    if (i >= M) i -= M;
    index_t q, k;
    by_N.divmod(j * M + i, q, k);
    return k;
  }
  /// Column step: in column k, the row whose element row r receives:
  /// with p = r N + k, (p mod M - (p / M) / b) mod M.
  KOKKOS_INLINE_FUNCTION index_t column_map(index_t r, index_t k) const {
    index_t j, i;
    by_M.divmod(r * N + k, j, i);
    i -= shift(j);
    return i < 0 ? i + M : i;
  }
  /// Column rotation: row r of column j takes row (r + s) mod M (down) or
  /// (r - s) mod M (up), s = j / b.
  KOKKOS_INLINE_FUNCTION index_t rotate(index_t r, index_t j, bool up) const {
    const index_t s = shift(j);
    index_t i = up ? r - s : r + s;
    if (i < 0) i += M;
    if (i >= M) i -= M;
    return i;
  }
};

/// Which index map a step applies.
enum class RectMap { rotate, rows, columns };

/// Increments of the index walks for a team of `threads` work items, of
/// which `lanes` share a row of a column block (host-side, once per plan).
struct RectWalk {
  int threads = 1, lanes = 1;
  index_t rstep = 1;       ///< rows between a work item's rows: threads / lanes
  /// Row step: threads = row_q b + row_t; row_x = threads M mod N.
  index_t row_q = 0, row_t = 0, row_x = 0;
  /// Column step: rstep N = J M + col_i, J = col_q b + col_r.
  index_t col_i = 0, col_q = 0, col_r = 0;

  static RectWalk make(const RectGrid& g, int threads, int lanes) {
    RectWalk w;
    w.threads = threads;
    w.lanes = lanes;
    w.rstep = threads / lanes;
    const index_t b = g.by_b.d;
    w.row_q = threads / b;
    w.row_t = threads % b;
    // threads M < 2^36 and rstep N < 2^62 (N < 2^52): no overflow.
    w.row_x = threads * g.M % g.N;
    const index_t step = w.rstep * g.N;
    const index_t J = step / g.M;
    w.col_i = step % g.M;
    w.col_q = J / b;
    w.col_r = J % b;
    return w;
  }
};

/// One step of the decomposition on the M x N grid at `a`. Lines: the M rows
/// (Map == rows), or the blocks of `width` adjacent columns. `scatter`: the
/// map gives each element's destination (else its source); `up`: the rotation
/// direction. A line's buffer is team scratch when `in_scratch`, else slot
/// league_rank of the workspace (`slot` elements each).
///
/// Teams are flat (vector length 1): in a column block, work item t takes
/// columns t mod lanes (+ lanes, ...) and rows t / lanes (+ rstep, ...), so
/// consecutive work items touch consecutive addresses. Each work item walks
/// its indices with additions (RectWalk); it divides only where a walk starts.
/// A line's two passes through its buffer, each followed by a team barrier
/// (pass(true): into the buffer, pass(false): back): a scatter moves the line
/// in by the permuted pass and out by the straight one, a gather the other
/// way round.
template <class Member, class Permuted, class Straight>
KOKKOS_INLINE_FUNCTION void two_passes(const Member& team, bool scatter, const Permuted& permuted,
                                       const Straight& straight) {
  if (scatter) permuted(true);
  else straight(true);
  team.team_barrier();
  if (scatter) straight(false);
  else permuted(false);
  team.team_barrier();
}

template <class Exec, class T, RectMap Map, int C, int U>
struct RectInplaceStep {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  /// Columns of a block one work item walks at most (width / lanes; their
  /// walks live in registers on a GPU, C = 1 there). U: elements (rows of a
  /// block) a work item loads before it stores, so that U loads are in flight.
  static constexpr int max_columns = C;

  T* a;
  T* workspace;
  RectGrid g;
  RectWalk walk;
  index_t slot;
  int width;
  bool scatter, up, in_scratch;

  KOKKOS_INLINE_FUNCTION index_t lines() const {
    return Map == RectMap::rows ? g.M : (g.N + width - 1) / width;
  }
  /// Elements of one line's buffer.
  KOKKOS_INLINE_FUNCTION index_t buffer_elements() const {
    return Map == RectMap::rows ? g.N : g.M * width;
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    T* buf;
    if (in_scratch) {
      ScratchArray<T, Exec> s(team.team_scratch(0), buffer_elements());
      buf = s.data();
    } else {
      buf = workspace + static_cast<index_t>(team.league_rank()) * slot;
    }
    const index_t nl = lines();
    for (index_t line = team.league_rank(); line < nl; line += team.league_size()) {
      if constexpr (Map == RectMap::rows) move_row(team, buf, line);
      else move_columns(team, buf, line);
    }
  }

  /// Row r: element j moves to column K(j) = (j M + (r + j / b) mod M) mod N.
  /// Work item t walks j = t, t + threads, ... keeping j = q b + t' and
  /// X = j M mod N, so that K = (X + (r + q) mod M) mod N. U elements are
  /// loaded before the first of them is stored.
  KOKKOS_INLINE_FUNCTION void move_row(const member_type& team, T* buf, index_t r) const {
    T* row = a + r * g.N;
    const index_t n = g.N, m = g.M, b = g.by_b.d, th = walk.threads;
    const index_t tid = team.team_rank();
    auto permuted = [&](bool to_buffer) {
      index_t q, t, x, unused;
      g.by_b.divmod(tid, q, t);
      g.by_N.divmod(tid * m, unused, x);
      for (index_t j0 = tid; j0 < n; j0 += U * th) {
        T v[U];
        index_t kk[U];
TILEKIT_UNROLL
        for (int u = 0; u < U; ++u) {
          const index_t j = j0 + u * th;
          if (j >= n) break;
          index_t i = r + q;
          if (i >= m) i -= m;
          index_t k = x + i;
          if (k >= n) k -= n;
          kk[u] = k;
          v[u] = to_buffer ? row[j] : buf[k];
          t += walk.row_t;
          q += walk.row_q;
          if (t >= b) { t -= b; ++q; }
          x += walk.row_x;
          if (x >= n) x -= n;
        }
TILEKIT_UNROLL
        for (int u = 0; u < U; ++u) {
          const index_t j = j0 + u * th;
          if (j >= n) break;
          if (to_buffer) buf[kk[u]] = v[u];
          else row[j] = v[u];
        }
      }
    };
    auto straight = [&](bool to_buffer) {
      for (index_t j0 = tid; j0 < n; j0 += U * th) {
        T v[U];
TILEKIT_UNROLL
        for (int u = 0; u < U; ++u) {
          const index_t j = j0 + u * th;
          if (j < n) v[u] = to_buffer ? row[j] : buf[j];
        }
TILEKIT_UNROLL
        for (int u = 0; u < U; ++u) {
          const index_t j = j0 + u * th;
          if (j >= n) break;
          if (to_buffer) buf[j] = v[u];
          else row[j] = v[u];
        }
      }
    };
    two_passes(team, scatter, permuted, straight);
  }

  /// Block of columns j0 .. j0 + w: work item t takes columns
  /// c = t mod lanes (+ lanes ...) and rows t / lanes (+ rstep ...), U rows
  /// loaded before the first of them is stored.
  KOKKOS_INLINE_FUNCTION void move_columns(const member_type& team, T* buf,
                                           index_t line) const {
    const index_t j0 = line * width;
    const int w = static_cast<int>(Kokkos::min<index_t>(width, g.N - j0));
    const index_t n = g.N, m = g.M, ld = width, rs = walk.rstep;
    T* col = a + j0;
    const int tid = team.team_rank();
    const int c0 = tid % walk.lanes;
    const index_t r0 = tid / walk.lanes;
    const int nc = c0 < w ? (w - 1 - c0) / walk.lanes + 1 : 0;
    // Moves U rows of the work item's columns: buffer row `at(u, l)` of
    // matrix row r0 + u rs (at returns the buffer row and advances walk l).
    auto move = [&](bool to_buffer, auto&& at) {
      for (index_t rb = r0; rb < m; rb += U * rs) {
        T v[U][C];
        index_t bi[U][C];
TILEKIT_UNROLL
        for (int u = 0; u < U; ++u) {
          const index_t r = rb + u * rs;
          if (r >= m) break;
          for (int l = 0; l < nc; ++l) {
            const index_t c = c0 + l * walk.lanes;
            const index_t i = at(r, l);
            bi[u][l] = i;
            v[u][l] = to_buffer ? col[r * n + c] : buf[i * ld + c];
          }
        }
TILEKIT_UNROLL
        for (int u = 0; u < U; ++u) {
          const index_t r = rb + u * rs;
          if (r >= m) break;
          for (int l = 0; l < nc; ++l) {
            const index_t c = c0 + l * walk.lanes;
            if (to_buffer) buf[bi[u][l] * ld + c] = v[u][l];
            else col[r * n + c] = v[u][l];
          }
        }
      }
    };
    auto straight = [&](bool to_buffer) {
      move(to_buffer, [](index_t r, int) { return r; });
    };
    // The permuted side: the row of the buffer that matrix row r of column c
    // comes from (gather) or goes to (scatter).
    auto permuted = [&](bool to_buffer) {
      if constexpr (Map == RectMap::rotate) {
        // (r + s) mod M (down) or (r - s) mod M (up), s = (j0 + c) / b < M.
        index_t s[C];
        for (int l = 0; l < nc; ++l) {
          const index_t sh = g.shift(j0 + c0 + l * walk.lanes);
          s[l] = up ? (sh == 0 ? 0 : m - sh) : sh;
        }
        move(to_buffer, [&](index_t r, int l) {
          index_t i = r + s[l];
          return i >= m ? i - m : i;
        });
      } else {
        // With p = r N + k = J M + i and J = q b + t: row (i - q) mod M; each
        // call advances p by rs N.
        index_t iv[C], qv[C], tv[C];
        const index_t b = g.by_b.d;
        for (int l = 0; l < nc; ++l) {
          index_t J;
          g.by_M.divmod(r0 * n + j0 + c0 + l * walk.lanes, J, iv[l]);
          g.by_b.divmod(J, qv[l], tv[l]);
        }
        move(to_buffer, [&](index_t, int l) {
          index_t i = iv[l] - qv[l];
          if (i < 0) i += m;
          index_t ii = iv[l] + walk.col_i, carry = 0;
          if (ii >= m) { ii -= m; carry = 1; }
          iv[l] = ii;
          index_t tt = tv[l] + walk.col_r + carry;
          qv[l] += walk.col_q;
          if (tt >= b) { tt -= b; ++qv[l]; }
          tv[l] = tt;
          return i;
        });
      }
    };
    two_passes(team, scatter, permuted, straight);
  }
};

}  // namespace tilekit::impl
