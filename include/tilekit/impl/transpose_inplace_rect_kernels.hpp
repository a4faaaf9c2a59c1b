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
#include <tilekit/impl/tile_copy.hpp>  // index_t, ScratchArray

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

/// One step of the decomposition on the M x N grid at `a`. Lines: the M rows
/// (Map == rows), or the blocks of `width` adjacent columns. `scatter`: the
/// map gives each element's destination (else its source); `up`: the rotation
/// direction. A line's buffer is team scratch when `in_scratch`, else slot
/// league_rank of the workspace (`slot` elements each).
template <class Exec, class T, RectMap Map>
struct RectInplaceStep {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;

  T* a;
  T* workspace;
  RectGrid g;
  index_t slot;
  int width;
  bool scatter, up, in_scratch;

  KOKKOS_INLINE_FUNCTION index_t lines() const { return Map == RectMap::rows ? g.M : (g.N + width - 1) / width; }
  /// Elements of one line's buffer.
  KOKKOS_INLINE_FUNCTION index_t buffer_elements() const { return Map == RectMap::rows ? g.N : g.M * width; }

  KOKKOS_INLINE_FUNCTION index_t map(index_t r, index_t j) const {
    if constexpr (Map == RectMap::rows) return g.row_map(r, j);
    else if constexpr (Map == RectMap::columns) return g.column_map(r, j);
    else return g.rotate(r, j, up);
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

  KOKKOS_INLINE_FUNCTION void move_row(const member_type& team, T* buf, index_t r) const {
    T* row = a + r * g.N;
    const index_t n = g.N;
    if (scatter) {
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n),
                           [&](const index_t j) { buf[map(r, j)] = row[j]; });
    } else {
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n),
                           [&](const index_t j) { buf[j] = row[j]; });
    }
    team.team_barrier();
    if (scatter) {
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n),
                           [&](const index_t j) { row[j] = buf[j]; });
    } else {
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n),
                           [&](const index_t j) { row[j] = buf[map(r, j)]; });
    }
    team.team_barrier();
  }

  KOKKOS_INLINE_FUNCTION void move_columns(const member_type& team, T* buf,
                                           index_t line) const {
    const index_t j0 = line * width;
    const int w = static_cast<int>(Kokkos::min<index_t>(width, g.N - j0));
    const index_t n = g.N, ld = width;
    T* col = a + j0;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, g.M), [&](const index_t r) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, w), [&](const int c) {
        const index_t to = scatter ? map(r, j0 + c) : r;
        buf[to * ld + c] = col[r * n + c];
      });
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, g.M), [&](const index_t r) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, w), [&](const int c) {
        const index_t from = scatter ? r : map(r, j0 + c);
        col[r * n + c] = buf[from * ld + c];
      });
    });
    team.team_barrier();
  }
};

}  // namespace tilekit::impl
