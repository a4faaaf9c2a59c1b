#pragma once
// In-register transposes of small blocks for the host backends, written with
// the GNU vector extensions (GCC 12 on, clang): a row of a block is one
// vector of W elements, and log2(W) rounds of zips (__builtin_shufflevector)
// transpose W rows; the compiler lowers each zip to the target's shuffles
// (SSE2 unpcklps/unpckhps, AVX2 and AVX-512 unpacks and lane permutes, NEON
// zip1/zip2; docs/performance.md, "CPU path", shows the code). The same
// loops written element by element are not turned into shuffles (GCC builds
// each transposed vector from scalar loads), hence the vector types. Device
// passes, nvcc's front end and other compilers have none: vector_bytes() is
// 0 there, and a backend that gives it as its transpose_vector_bytes keeps
// the scalar micro-kernel. The one place with the ISA test, so the kernels
// that use it (impl/common/micro_transpose.hpp) have none.
#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && \
    !defined(__SYCL_DEVICE_ONLY__) && !defined(__NVCC__) &&        \
    ((defined(__GNUC__) && __GNUC__ >= 12) || defined(__clang__))
#if defined(__AVX512F__)
#define TILEKIT_VECTOR_BYTES 64
#elif defined(__AVX2__)
#define TILEKIT_VECTOR_BYTES 32
#elif defined(__SSE2__) || defined(__ARM_NEON)
#define TILEKIT_VECTOR_BYTES 16
#endif
#endif
#if defined(TILEKIT_VECTOR_BYTES) && defined(__SSE2__)
#include <immintrin.h>
#define TILEKIT_VECTOR_STREAM 1
#endif
// x86-64 with GCC or clang: routines compiled for AVX2 and AVX-512 (target
// attributes) beside the build's own width, one chosen at run time from the
// CPU's features (with_vector_bytes), so a default build uses the vectors of
// the CPU it runs on.
#if defined(TILEKIT_VECTOR_BYTES) && defined(__x86_64__) && TILEKIT_VECTOR_BYTES < 64
#define TILEKIT_VECTOR_DISPATCH 1
#endif

namespace tilekit::backends {

/// Bytes of the host's vector registers that the block transposes use (0:
/// none compiled in: device passes, other compilers, hosts without SIMD).
constexpr int vector_bytes() {
#if defined(TILEKIT_VECTOR_BYTES)
  return TILEKIT_VECTOR_BYTES;
#else
  return 0;
#endif
}

/// Elements of T in one vector of VB bytes, the edge W of a block (0: T is
/// not moved in vectors: sizes other than 1, 2, 4, 8 bytes, fewer than two
/// per vector, or no vectors).
template <int VB, class T>
constexpr int block_lanes() {
  constexpr int e = static_cast<int>(sizeof(T));
  if constexpr (VB <= 0 || !std::is_trivially_copyable_v<T> || (e != 1 && e != 2 && e != 4 && e != 8))
    return 0;
  else
    return VB / e >= 2 ? VB / e : 0;
}

/// Input rows of a line block of T: 8 (at least one block of W), so a tile
/// is read as 8 streams along its rows. 16 streams (a 64-byte line of
/// floats per scratch row) read slower on a 2-core laptop-class machine with
/// one thread and with two, faster only on a server core alone
/// (docs/performance.md).
template <int VB, class T>
constexpr int block_line_rows() {
  constexpr int W = block_lanes<VB, T>(), L = 8;
  return W == 0 ? 0 : L > W ? L : W;
}

#if defined(TILEKIT_VECTOR_BYTES)
namespace vector_detail {
template <int E> struct uint_of;
template <> struct uint_of<1> { using type = std::uint8_t; };
template <> struct uint_of<2> { using type = std::uint16_t; };
template <> struct uint_of<4> { using type = std::uint32_t; };
template <> struct uint_of<8> { using type = std::uint64_t; };
template <class U, int W>
struct vec_of {
  typedef U type __attribute__((vector_size(W * sizeof(U))));
};
/// W elements of T's bits: a move, whatever T holds.
template <class T, int W>
using vec_t = typename vec_of<typename uint_of<sizeof(T)>::type, W>::type;

/// a0 b0 a1 b1 ... of the first halves of a and b; zip_hi: of the second.
template <class V, std::size_t... I>
inline V zip_lo(V a, V b, std::index_sequence<I...>) {
  return __builtin_shufflevector(a, b, ((I % 2) ? sizeof...(I) + I / 2 : I / 2)...);
}
template <class V, std::size_t... I>
inline V zip_hi(V a, V b, std::index_sequence<I...>) {
  constexpr std::size_t W = sizeof...(I);
  return __builtin_shufflevector(a, b, ((I % 2) ? W + W / 2 + I / 2 : W / 2 + I / 2)...);
}

/// x[r] = column r of the W x W block whose rows were x[0..W): log2(W)
/// rounds of zipping row i with row i + W/2 (after them, row r holds
/// element r of every row, in order).
template <int W, class V>
[[gnu::always_inline]] inline void transpose_rows(V (&x)[W]) {
  V y[W];
#pragma GCC unroll 8
  for (int s = 1; s < W; s *= 2) {
#pragma GCC unroll 64
    for (int i = 0; i < W / 2; ++i) {
      y[2 * i] = zip_lo(x[i], x[i + W / 2], std::make_index_sequence<W>{});
      y[2 * i + 1] = zip_hi(x[i], x[i + W / 2], std::make_index_sequence<W>{});
    }
#pragma GCC unroll 64
    for (int i = 0; i < W; ++i) x[i] = y[i];
  }
}

template <class V>
[[gnu::always_inline]] inline V load(const void* p) {
  V v;
  std::memcpy(&v, p, sizeof(V));
  return v;
}

/// Stores v at p (any alignment).
template <class V>
[[gnu::always_inline]] inline void store(void* p, const V& v) {
  std::memcpy(p, &v, sizeof(V));
}

#if defined(TILEKIT_VECTOR_STREAM)
/// Streamed (non-temporal) store of v at p, aligned to V: 16 bytes with the
/// build's SSE2; 32 and 64 in routines compiled for them (not always_inline:
/// a caller of the build's own target cannot take them; the routines of
/// with_vector_bytes inline every call, gnu::flatten).
template <class V>
[[gnu::always_inline]] inline void stream_128(void* p, const V& v) {
  _mm_stream_si128(static_cast<__m128i*>(p), reinterpret_cast<const __m128i&>(v));
}
template <class V>
[[gnu::target("avx")]] inline void stream_256(void* p, const V& v) {
  _mm256_stream_si256(static_cast<__m256i*>(p), reinterpret_cast<const __m256i&>(v));
}
template <class V>
[[gnu::target("avx512f")]] inline void stream_512(void* p, const V& v) {
  _mm512_stream_si512(static_cast<__m512i*>(p), reinterpret_cast<const __m512i&>(v));
}
#endif
}  // namespace vector_detail
#endif

/// A line block: dst[c * ldd + r] = row(r)[c] for r < L, c < W (L =
/// block_line_rows, W = block_lanes; row(r): a pointer to the block's part
/// of input row r, rows anywhere): L input rows of W elements become W runs
/// of L elements, transposed as L / W blocks of W x W in registers, each run
/// stored as L / W vectors.
template <int VB, class T, class Row>
KOKKOS_INLINE_FUNCTION void transpose_line_block(const Row& row, T* dst, std::ptrdiff_t ldd) {
#if defined(TILEKIT_VECTOR_BYTES)
  constexpr int W = block_lanes<VB, T>();
  static_assert(W >= 2, "transpose_line_block: T is not moved in vectors");
  constexpr int G = block_line_rows<VB, T>() / W;
  using V = vector_detail::vec_t<T, W>;
  V x[G][W];
#pragma GCC unroll 64
  for (int g = 0; g < G; ++g) {
#pragma GCC unroll 64
    for (int r = 0; r < W; ++r) x[g][r] = vector_detail::load<V>(row(g * W + r));
    vector_detail::transpose_rows<W>(x[g]);
  }
#pragma GCC unroll 64
  for (int c = 0; c < W; ++c)
#pragma GCC unroll 64
    for (int g = 0; g < G; ++g) vector_detail::store(dst + c * ldd + g * W, x[g][c]);
#else
  (void)row, (void)dst, (void)ldd;
#endif
}

#if defined(TILEKIT_VECTOR_STREAM)
namespace vector_detail {
/// The 64-byte line at d = the one at q, streamed as vectors of VB bytes.
template <int VB, class T>
[[gnu::always_inline]] inline void stream_line(T* d, const T* q) {
  constexpr int per_vec = VB / static_cast<int>(sizeof(T));
  using V = vec_t<T, per_vec>;
#pragma GCC unroll 4
  for (int k = 0; k < 64 / static_cast<int>(sizeof(T)); k += per_vec) {
    const V v = load<V>(q + k);
    if constexpr (VB == 16) stream_128(d + k, v);
    else if constexpr (VB == 32) stream_256(d + k, v);
    else stream_512(d + k, v);
  }
}
}  // namespace vector_detail
#endif

/// dst[r * ldd + k] = src[r * lds + k] for r < rows, k < n (a scratch tile's
/// rows written out): where `stream` (and the host has streaming stores),
/// dst's whole 64-byte lines streamed as vectors of VB bytes (the caller is
/// compiled for them: with_vector_bytes), the partial lines at the ends of a
/// row stored plainly (a streamed part of a line costs the memory a
/// read-modify-write of it); else plain stores. Rows that are whole lines
/// take a loop without the ends (checked once: the ends' tests slowed the
/// common case).
template <int VB, class T>
KOKKOS_INLINE_FUNCTION void put_rows_vectors(T* dst, std::ptrdiff_t ldd, const T* src,
                                             std::ptrdiff_t lds, int rows, int n, bool stream) {
#if defined(TILEKIT_VECTOR_STREAM)
  constexpr int E = static_cast<int>(sizeof(T)), per_line = 64 / E;
  static_assert(VB == 16 || VB == 32 || VB == 64, "put_rows_vectors: 16, 32 or 64 bytes");
  const auto addr = reinterpret_cast<std::uintptr_t>(dst);
  if (stream && 64 % E == 0 && addr % E == 0) {
    if (addr % 64 == 0 && (ldd * E) % 64 == 0 && n % per_line == 0) {
      for (int r = 0; r < rows; ++r)
        for (int k = 0; k < n; k += per_line)
          vector_detail::stream_line<VB>(dst + r * ldd + k, src + r * lds + k);
      return;
    }
    for (int r = 0; r < rows; ++r) {
      T* const d = dst + r * ldd;
      const T* const q = src + r * lds;
      const auto at = reinterpret_cast<std::uintptr_t>(d);
      const int head = static_cast<int>((64 - at % 64) % 64) / E;
      const int body = n > head ? (n - head) / per_line * per_line : 0;
      for (int k = 0; k < (head < n ? head : n); ++k) d[k] = q[k];
      for (int k = head; k < head + body; k += per_line) vector_detail::stream_line<VB>(d + k, q + k);
      for (int k = head + body; k < n; ++k) d[k] = q[k];
    }
    return;
  }
#endif
  (void)stream;
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < n; ++k) dst[r * ldd + k] = src[r * lds + k];
}

/// dst[c * ldd + r] = row(r)[c] for r, c < W: a W x W block whose rows lie
/// anywhere (row(r): a pointer to row r), transposed in registers, stored
/// plainly (a scratch tile).
template <int VB, class T, class Row>
KOKKOS_INLINE_FUNCTION void transpose_block(const Row& row, T* dst, std::ptrdiff_t ldd) {
#if defined(TILEKIT_VECTOR_BYTES)
  constexpr int W = block_lanes<VB, T>();
  static_assert(W >= 2, "transpose_block: T is not moved in vectors");
  using V = vector_detail::vec_t<T, W>;
  V x[W];
#pragma GCC unroll 64
  for (int r = 0; r < W; ++r) x[r] = vector_detail::load<V>(row(r));
  vector_detail::transpose_rows<W>(x);
#pragma GCC unroll 64
  for (int c = 0; c < W; ++c) vector_detail::store(dst + c * ldd, x[c]);
#else
  (void)row, (void)dst, (void)ldd;
#endif
}

/// The W x W blocks at a and b (rows ld elements apart) each replaced by the
/// other's transpose (a == b: the block transposed in place): both read
/// before either is written.
template <int VB, class T>
KOKKOS_INLINE_FUNCTION void swap_blocks_transposed(T* a, T* b, std::ptrdiff_t ld) {
#if defined(TILEKIT_VECTOR_BYTES)
  constexpr int W = block_lanes<VB, T>();
  static_assert(W >= 2, "swap_blocks_transposed: T is not moved in vectors");
  using V = vector_detail::vec_t<T, W>;
  V x[W], y[W];
#pragma GCC unroll 64
  for (int r = 0; r < W; ++r) {
    x[r] = vector_detail::load<V>(a + r * ld);
    y[r] = vector_detail::load<V>(b + r * ld);
  }
  vector_detail::transpose_rows<W>(x);
  vector_detail::transpose_rows<W>(y);
#pragma GCC unroll 64
  for (int r = 0; r < W; ++r) {
    vector_detail::store(b + r * ld, x[r]);
    vector_detail::store(a + r * ld, y[r]);
  }
#else
  (void)a, (void)b, (void)ld;
#endif
}

/// Bytes of the widest vectors the CPU running this process gives the
/// routines of with_vector_bytes: on x86-64 with GCC or clang 64 where it has
/// AVX-512 (F and BW), 32 where it has AVX2 (run-time checks, once), never
/// less than the build's own width; elsewhere the build's width (0: none).
/// The environment's TILEKIT_HOST_VECTOR_BYTES (0, 16, 32 or 64), read once,
/// lowers it (as MKL_ENABLE_INSTRUCTIONS does): to compare the paths on one
/// CPU, or to keep wide vectors off a CPU that slows its clock for them.
KOKKOS_INLINE_FUNCTION int host_vector_bytes() {
#if defined(TILEKIT_VECTOR_BYTES)
  static const int bytes = [] {
    int b = vector_bytes();
#if defined(TILEKIT_VECTOR_DISPATCH)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) b = 64;
    else if (__builtin_cpu_supports("avx2") && b < 32) b = 32;
#endif
    if (const char* cap = std::getenv("TILEKIT_HOST_VECTOR_BYTES")) {
      const int c = std::atoi(cap);
      if ((c == 0 || c == 16 || c == 32 || c == 64) && c < b) b = c;
    }
    return b;
  }();
  return bytes;
#else
  return 0;
#endif
}

#if defined(TILEKIT_VECTOR_DISPATCH)
namespace vector_detail {
// f compiled for the ISA: every call inside inlined (flatten), so the
// kernel's vector code is generated for it; a call per tile.
template <class F>
[[gnu::target("avx2"), gnu::flatten, gnu::noinline]] void run_avx2(const F& f) {
  f(std::integral_constant<int, 32>{});
}
template <class F>
[[gnu::target("avx512f,avx512bw,avx512vl,avx512dq"), gnu::flatten, gnu::noinline]] void run_avx512(
    const F& f) {
  f(std::integral_constant<int, 64>{});
}
}  // namespace vector_detail
#endif

/// f(std::integral_constant<int, VB>{}) in a routine compiled for vectors of
/// VB = vb bytes (vb from host_vector_bytes: the build's own width, or on
/// x86-64 an AVX2 or AVX-512 routine), where Min <= vb <= Max; nothing
/// otherwise (device passes, nvcc: no vectors). Only the routines of widths
/// in [Min, Max] are compiled: give Max as the widest vb the caller passes.
template <int Min, int Max = 64, class F>
KOKKOS_INLINE_FUNCTION void with_vector_bytes(int vb, const F& f) {
#if defined(TILEKIT_VECTOR_DISPATCH)
  if constexpr (TILEKIT_VECTOR_BYTES < 64 && Min <= 64 && Max >= 64) {
    if (vb == 64) return vector_detail::run_avx512(f);
  }
  if constexpr (TILEKIT_VECTOR_BYTES < 32 && Min <= 32 && Max >= 32) {
    if (vb == 32) return vector_detail::run_avx2(f);
  }
#endif
  if constexpr (vector_bytes() > 0 && vector_bytes() >= Min && vector_bytes() <= Max) {
    if (vb == vector_bytes()) f(std::integral_constant<int, vector_bytes()>{});
  }
  (void)vb, (void)f;
}

}  // namespace tilekit::backends
