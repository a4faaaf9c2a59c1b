// The cache study's host-only driver (`tilekit study cache`, seed 000): the
// naive and the blocked in-place square transpose as plain C++ loops, built
// once per optimisation level (-O0 ... -O3, targets tilekit_cache_O<level>)
// so that Cachegrind counts the instructions and cache misses of exactly
// these loops at each level; Kokkos would add its own code to every count.
//
//   tilekit_cache_O2 <naive|blocked|none> <int32|float> <n> <reps>
//
// fills an n x n matrix with a pattern, transposes it in place reps times
// (none: not at all, the baseline whose counts the study subtracts), checks
// the first transpose when reps > 1 and prints one JSON line:
//   {"variant": ..., "dtype": ..., "n": ..., "reps": ..., "ms": <median>, "verified": ...}
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace {

constexpr long kBlock = 16;  // seed 000: 16 int32 or float32 in a 64-byte line

template <class T>
void naive(T* a, long n) {
  for (long i = 0; i < n; ++i)
    for (long j = i + 1; j < n; ++j) std::swap(a[i * n + j], a[j * n + i]);
}

/// Diagonal blocks first, then each pair of blocks symmetric about the diagonal.
template <class T>
void blocked(T* a, long n) {
  for (long ib = 0; ib < n; ib += kBlock) {
    const long ie = std::min(ib + kBlock, n);
    for (long i = ib; i < ie; ++i)
      for (long j = i + 1; j < ie; ++j) std::swap(a[i * n + j], a[j * n + i]);
  }
  for (long ib = 0; ib < n; ib += kBlock) {
    const long ie = std::min(ib + kBlock, n);
    for (long jb = ib + kBlock; jb < n; jb += kBlock) {
      const long je = std::min(jb + kBlock, n);
      for (long i = ib; i < ie; ++i)
        for (long j = jb; j < je; ++j) std::swap(a[i * n + j], a[j * n + i]);
    }
  }
}

long pattern(long k) { return static_cast<long>((static_cast<unsigned long>(k) * 2654435761UL) % 1048573UL); }

template <class T>
int run(const char* variant, long n, int reps) {
  std::vector<T> a(static_cast<std::size_t>(n * n));
  for (long k = 0; k < n * n; ++k) a[k] = static_cast<T>(pattern(k));
  void (*fn)(T*, long) = nullptr;
  if (!std::strcmp(variant, "naive")) fn = naive<T>;
  else if (!std::strcmp(variant, "blocked")) fn = blocked<T>;
  else if (std::strcmp(variant, "none")) return 2;
  std::vector<double> ms;
  bool verified = false;
  for (int r = 0; fn && r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    fn(a.data(), n);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (r == 0 && reps > 1) {
      verified = true;
      for (long i = 0; i < n && verified; ++i)
        for (long j = 0; j < n; ++j)
          if (a[i * n + j] != static_cast<T>(pattern(j * n + i))) verified = false;
    }
  }
  double sum = 0;  // keeps the transposes observable
  for (long k = 0; k < n * n; k += 97) sum += static_cast<double>(a[k]);
  std::sort(ms.begin(), ms.end());
  const double median = ms.empty() ? 0 : ms[ms.size() / 2];
  std::printf("{\"variant\": \"%s\", \"n\": %ld, \"reps\": %d, \"ms\": %.6f, \"verified\": %s, "
              "\"checksum\": %.0f}\n",
              variant, n, reps, median, verified ? "true" : "false", sum);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s <naive|blocked|none> <int32|float> <n> <reps>\n", argv[0]);
    return 2;
  }
  const long n = std::atol(argv[3]);
  const int reps = std::atoi(argv[4]);
  if (n < 1 || reps < 0) return 2;
  if (!std::strcmp(argv[2], "int32")) return run<std::int32_t>(argv[1], n, reps);
  if (!std::strcmp(argv[2], "float")) return run<float>(argv[1], n, reps);
  return 2;
}
