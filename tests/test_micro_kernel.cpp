// The host path's micro-kernels on host memory: the in-register block
// transposes of backends/vector_block.hpp at every vector width (16, 32 and
// 64 bytes: the compiler lowers the widths the host lacks, so each width's
// index logic runs on any host) and at the host's own, for elements of 1, 2,
// 4, 8 and 16 bytes; shapes that reach whole blocks, whole line blocks and
// the ragged edges; outputs poisoned, their padding checked untouched.
#include <tilekit/impl/common/micro_transpose.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace {
namespace backends = tilekit::backends;
using tilekit::impl::index_t;

template <class T> T value_of(index_t k) {
  if constexpr (sizeof(T) == 16) return T(static_cast<double>(k % 100003), -static_cast<double>(k));
  else return static_cast<T>(k % 251 + 1);  // distinct neighbours, never the poison
}
template <class T> T poison_of() {
  if constexpr (sizeof(T) == 16) return T(-7.0, -7.0);
  else return static_cast<T>(0);
}

/// n elements of T on a 64-byte boundary.
template <class T>
struct Buffer {
  struct Free {
    void operator()(T* p) const { ::operator delete(p, std::align_val_t(64)); }
  };
  std::unique_ptr<T, Free> p;
  explicit Buffer(std::size_t n)
      : p(static_cast<T*>(::operator new(n * sizeof(T) + 64, std::align_val_t(64)))) {}
  T* get() const { return p.get(); }
};

template <class T>
class MicroKernel : public ::testing::Test {};
using ElementSizes =
    ::testing::Types<std::uint8_t, std::uint16_t, float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(MicroKernel, ElementSizes);

/// src: nr x nc, rows lds apart; dst: nc x ldd, ldd >= nr (the rest poison).
template <class T>
struct Case {
  int nr, nc;
  index_t lds, ldd;
  Buffer<T> src, dst;
  Case(int r, int c, index_t lds_, index_t ldd_)
      : nr(r), nc(c), lds(lds_), ldd(ldd_), src(static_cast<std::size_t>(r) * lds_ + 1),
        dst(static_cast<std::size_t>(c) * ldd_ + 1) {
    for (index_t k = 0; k < static_cast<index_t>(r) * lds; ++k) src.get()[k] = value_of<T>(k);
    for (index_t k = 0; k < static_cast<index_t>(c) * ldd; ++k) dst.get()[k] = poison_of<T>();
  }
  /// Elements wrong: dst(c, r) != src(r, c), or padding past nr written.
  long wrong() const {
    long bad = 0;
    for (int c = 0; c < nc; ++c)
      for (index_t r = 0; r < ldd; ++r) {
        const T want = r < nr ? src.get()[r * lds + c] : poison_of<T>();
        bad += !(dst.get()[c * ldd + r] == want);
      }
    return bad;
  }
};

/// Row counts around the line blocks of L rows and column counts around the
/// blocks of W columns (W, L of T at VB bytes; 8 where T has no vectors).
template <int VB, class T>
std::vector<std::pair<int, int>> shapes() {
  constexpr int W = backends::block_lanes<VB, T>() > 0 ? backends::block_lanes<VB, T>() : 8;
  constexpr int L = backends::block_line_rows<VB, T>() > 0 ? backends::block_line_rows<VB, T>() : 8;
  std::vector<std::pair<int, int>> s;
  for (int r : {1, L - 1, L, L + 1, 2 * L, 3 * L + 5})
    for (int c : {1, W - 1, W, W + 1, 4 * W, 4 * W + 3})
      if (r > 0 && c > 0) s.push_back({r, c});
  return s;
}

/// transpose_line_blocks at VB bytes: any row strides (a scratch tile's
/// padded rows, and rows on 64-byte lines).
template <int VB, class T>
void check_line_blocks() {
  if constexpr (backends::block_lanes<VB, T>() > 0) {
    for (auto [nr, nc] : shapes<VB, T>()) {
      for (bool aligned : {false, true}) {
        const index_t line = 64 / static_cast<index_t>(sizeof(T));
        const index_t ldd = aligned ? (nr + line - 1) / line * line + line : nr + 3;
        Case<T> k(nr, nc, nc + 5, ldd);
        tilekit::impl::transpose_line_blocks<VB>(k.src.get(), k.lds, k.dst.get(), k.ldd, nr, nc);
        EXPECT_EQ(k.wrong(), 0) << nr << "x" << nc << " VB " << VB << " ldd " << ldd;
      }
    }
  }
}

/// micro_store_transposed_rows (the scratch path: the in-place pairs, the
/// permute's boxes) with W x W vector blocks inside its B x B micro-blocks,
/// and the scalar micro-blocks (VB 0), B the edge the host's tiles use.
template <int VB, class T>
void check_scratch() {
  constexpr int B = 8 > backends::block_lanes<VB, T>() ? 8 : backends::block_lanes<VB, T>();
  for (auto [nr, nc] : shapes<VB, T>()) {
    Case<T> k(nr, nc, nc + 2, nr + 1);
    const T* src = k.src.get();
    const index_t lds = k.lds;
    tilekit::impl::micro_store_transposed_rows<B, 0, VB>(
        [&](const int r) { return src + r * lds; }, k.dst.get(), k.ldd, nr, nc, 0, 1);
    EXPECT_EQ(k.wrong(), 0) << nr << "x" << nc << " VB " << VB << " B " << B;
  }
}

TYPED_TEST(MicroKernel, LanesOfEachElementSize) {
  using T = TypeParam;
  constexpr int e = static_cast<int>(sizeof(T));
  // 16-byte elements (complex double) keep the scalar micro-kernel.
  EXPECT_EQ((backends::block_lanes<16, T>()), e <= 8 ? 16 / e : 0);
  EXPECT_EQ((backends::block_lanes<64, T>()), e <= 8 ? 64 / e : 0);
  EXPECT_EQ((backends::block_lanes<0, T>()), 0);
  if constexpr (e <= 8) {
    // 8 rows a line block, one W x W block where a vector holds more.
    EXPECT_EQ((backends::block_line_rows<16, T>()), 16 / e > 8 ? 16 / e : 8);
    EXPECT_EQ((backends::block_line_rows<64, T>()), 64 / e > 8 ? 64 / e : 8);
  }
}

TYPED_TEST(MicroKernel, LineBlocksEveryWidth) {
  using T = TypeParam;
  if constexpr (backends::vector_bytes() == 0) {
    GTEST_SKIP() << "no vector blocks on this compiler or host";
  } else {
    check_line_blocks<16, T>();
    check_line_blocks<32, T>();
    check_line_blocks<64, T>();
  }
}

/// transpose_line_blocks through backends::with_vector_bytes at each width
/// the CPU running the test gives (AVX2 and AVX-512 routines on x86-64, the
/// build's own width), as the out-of-place kernel calls it.
TYPED_TEST(MicroKernel, LineBlocksDispatched) {
  using T = TypeParam;
  const int host = backends::host_vector_bytes();
  if (host == 0) GTEST_SKIP() << "no vector blocks on this compiler or host";
  int ran = 0;
  for (int vb : {16, 32, 64}) {
    if (vb > host) continue;
    for (auto [nr, nc] : shapes<64, T>()) {
      Case<T> k(nr, nc, nc + 5, nr + 3);
      bool called = false;
      backends::with_vector_bytes<16>(vb, [&](auto w) {
        if constexpr (backends::block_lanes<decltype(w)::value, T>() > 0) {
          called = decltype(w)::value == vb;
          tilekit::impl::transpose_line_blocks<decltype(w)::value>(k.src.get(), k.lds, k.dst.get(),
                                                                   k.ldd, nr, nc);
        }
      });
      if (backends::block_lanes<64, T>() == 0) continue;  // 16-byte elements: none
      // The build's own width, AVX2 and AVX-512 on x86-64; elsewhere only the build's.
      if (!called) continue;
      ++ran;
      EXPECT_EQ(k.wrong(), 0) << nr << "x" << nc << " VB " << vb;
    }
  }
  if (backends::block_lanes<64, T>() > 0) {
    EXPECT_GT(ran, 0);
  }
}

/// put_rows_vectors at each width the CPU gives: rows that are whole lines
/// (its loop without ends), rows starting inside a line, ragged lengths,
/// streamed and plain; every element around the rows left as it was.
TYPED_TEST(MicroKernel, RowsWrittenOut) {
  using T = TypeParam;
  const int host = backends::host_vector_bytes();
  if (host == 0) GTEST_SKIP() << "no vector blocks on this compiler or host";
  if constexpr (backends::block_lanes<64, T>() > 0) {
    const int line = 64 / static_cast<int>(sizeof(T));
    int ran = 0;
    for (int vb : {16, 32, 64}) {
      if (vb > host) continue;
      for (int offset : {0, 1, line - 1})
        for (int n : {line, 3 * line, 1, line - 1, line + 1, 3 * line + 5})
          for (bool stream : {false, true}) {
            const int rows = 5;
            const index_t lds = n + 2, ldd = (n + line - 1) / line * line + (offset ? 3 : line);
            Buffer<T> src(static_cast<std::size_t>(rows * lds)),
                dst(static_cast<std::size_t>(rows * ldd + offset + 1));
            for (index_t k = 0; k < rows * lds; ++k) src.get()[k] = value_of<T>(k);
            for (index_t k = 0; k < rows * ldd + offset + 1; ++k) dst.get()[k] = poison_of<T>();
            bool called = false;
            backends::with_vector_bytes<16>(vb, [&](auto w) {
              if constexpr (backends::block_lanes<decltype(w)::value, T>() > 0) {
                called = decltype(w)::value == vb;
                backends::put_rows_vectors<decltype(w)::value>(dst.get() + offset, ldd, src.get(),
                                                               lds, rows, n, stream);
              }
            });
            backends::stream_store_fence();
            if (!called) continue;
            ++ran;
            long bad = 0;
            for (index_t k = 0; k < rows * ldd + offset + 1; ++k) {
              const index_t e = k - offset, r = e / ldd, c = e % ldd;
              const bool in_row = e >= 0 && r < rows && c < n;
              bad += !(dst.get()[k] == (in_row ? src.get()[r * lds + c] : poison_of<T>()));
            }
            EXPECT_EQ(bad, 0) << "VB " << vb << " offset " << offset << " n " << n
                              << (stream ? " streamed" : "");
          }
    }
    EXPECT_GT(ran, 0);
  }
}

/// The host's run-time vector width (HostTraits: at least 32 bytes, at most
/// 8 elements, no more than the CPU gives): 0 or such a width, and 0 for
/// 16-byte elements and for 1- and 2-byte ones (8 of them fill no 32 bytes).
TYPED_TEST(MicroKernel, RuntimeWidthRule) {
  using T = TypeParam;
  using Exec = Kokkos::DefaultHostExecutionSpace;
  const int vb = tilekit::impl::runtime_vector_bytes<Exec, T>();
  const int host = backends::host_vector_bytes();
  const int cap = 8 * static_cast<int>(sizeof(T));
  if (sizeof(T) < 4 || sizeof(T) > 8 || host < 32) {
    EXPECT_EQ(vb, 0);
  } else {
    EXPECT_EQ(vb, host < cap ? host : cap);
    EXPECT_GE(vb, 32);
  }
}

TYPED_TEST(MicroKernel, ScratchMicroBlocksEveryWidth) {
  using T = TypeParam;
  check_scratch<0, T>();
  if constexpr (backends::vector_bytes() > 0) {
    check_scratch<16, T>();
    check_scratch<32, T>();
    check_scratch<64, T>();
  }
}

}  // namespace
