// Permute family, float (and uint8 images): the deep_copy baseline of the
// same bytes first, then
//  * the six permutations of 512 x 512 x 1024 (1 GiB) through every variant,
//    and the seed's copy kernels (copy_simple, copy_shared);
//  * rank 4, 5 and 6 tensors of 1 GiB: full reversal, swap of the two
//    innermost, innermost moved outward, a random permutation (fixed: 3021,
//    10432, 251304), through fused and naive;
//  * images, 64 x 3 x 1024 x 1024 NCHW <-> NHWC fused ((64, 3, 2^20) and
//    (64, 2^20, 3), [0, 2, 1]), of uint8 and of float;
//  * the same permutations of small tensors (2048 elements, 8 KiB).
// Names: <variant>/<shape>/<perm>/<space>/<dtype>. A filter must keep the
// copy row of the shape, e.g. --benchmark_filter='^(copy|fused)/512x512x1024/'.
//   bench_permute --benchmark_out=permute.json --benchmark_out_format=json
#include <tilekit/permute.hpp>
#include <tilekit/study/permute3d.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <type_traits>
#include <variant>

#include "bench_common.hpp"
#include "support/views.hpp"

namespace {
using namespace tilekit;
using index_t = std::int64_t;

template <class Exec, class T>
struct Buffers {
  Kokkos::View<T*, typename Exec::memory_space> a, b;
  explicit Buffers(index_t n) : a("a", n), b("b", n) { Kokkos::deep_copy(a, T(1)); }
};

using support::make_view;

std::string join(const std::vector<index_t>& v, const char* sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += sep;
    s += std::to_string(v[i]);
  }
  return s;
}

/// The library's variants, or a seed-003 kernel (tilekit::study).
using Variant = std::variant<PermuteVariant, study::Permute3Variant>;

/// Registers the copy baseline and, for every permutation, the library's
/// variants, and with `seeds` (rank 3) the seed's kernels.
template <class Exec, class T, int R>
void register_shape(const char* dtype, const std::vector<index_t>& ext,
                    const std::vector<std::vector<int>>& perms, bool seeds) {
  using V = support::UView<T, R, Kokkos::LayoutRight, typename Exec::memory_space>;
  index_t n = 1;
  for (auto e : ext) n *= e;
  const double bytes = 2.0 * static_cast<double>(n) * sizeof(T);
  const std::string shape = join(ext, "x");
  const std::string tail = std::string("/") + Exec::name() + "/" + dtype;
  auto buf = bench::buffer_slot<Buffers<Exec, T>>();
  auto get = [buf, n]() -> Buffers<Exec, T>& {
    if (!*buf) *buf = std::make_unique<Buffers<Exec, T>>(n);
    return **buf;
  };
  auto views = [ext](Buffers<Exec, T>& B, const std::vector<int>& p) {
    std::vector<index_t> oext(R);
    for (int k = 0; k < R; ++k) oext[k] = ext[p[k]];
    return std::pair{make_view<V>(B.a.data(), ext, std::make_index_sequence<R>{}),
                     make_view<V>(B.b.data(), oext, std::make_index_sequence<R>{})};
  };
  bench::add("copy/" + shape + "/-" + tail, [=](benchmark::State& s) {
    auto& B = get();
    Exec exec;
    bench::timed(s, exec, bytes, dtype, true, [&] { Kokkos::deep_copy(exec, B.b, B.a); });
  });
  auto add_plan = [&](const std::string& name, const std::vector<int>& p, Variant v) {
    bench::add(name + "/" + shape + "/" + bench::perm_name(p) + tail, [=](benchmark::State& s) {
      auto& B = get();
      auto [in, out] = views(B, p);
      Exec exec;
      // The seed's kernels are measured on float only (instantiated for it alone).
      if constexpr (std::is_same_v<T, float>) {
        if (const auto* seed = std::get_if<study::Permute3Variant>(&v)) {
          study::Permute3Plan plan(exec, in, out, p, *seed);
          s.SetLabel(std::string(plan.method()));
          bench::timed(s, exec, bytes, dtype, false, [&] { plan.execute(in, out); });
          return;
        }
      }
      PermutePlan plan(exec, in, out, p, std::get<PermuteVariant>(v));
      s.SetLabel(std::string(to_string(plan.method())));
      bench::timed(s, exec, bytes, dtype, false, [&] { plan.execute(in, out); });
    });
  };
  std::vector<Variant> variants(std::begin(permute_variants), std::end(permute_variants));
  if (R == 3 && seeds && std::is_same_v<T, float>) {
    add_plan("copy_simple", {0, 1, 2}, study::Permute3Variant::simple_templated);
    add_plan("copy_shared", {0, 1, 2}, study::Permute3Variant::shared_templated);
    for (auto v : study::permute3_variants) variants.push_back(v);
  }
  for (const auto& p : perms)
    for (const auto& v : variants)
      add_plan(std::visit([](auto x) { return std::string(to_string(x)); }, v), p, v);
  bench::add_release("release/" + shape + "/-" + tail, buf);
}

/// Full reversal, swap of the two innermost, innermost moved outward, and a
/// random permutation drawn once (fixed here, so the tool can repeat it).
std::vector<std::vector<int>> cases(int r) {
  std::vector<int> id(r), rev(r), swap(r), out(r);
  std::iota(id.begin(), id.end(), 0);
  std::reverse_copy(id.begin(), id.end(), rev.begin());
  swap = id;
  std::swap(swap[r - 1], swap[r - 2]);
  out[0] = r - 1;
  std::iota(out.begin() + 1, out.end(), 0);
  const std::vector<int> rnd = r == 4   ? std::vector<int>{3, 0, 2, 1}
                               : r == 5 ? std::vector<int>{1, 0, 4, 3, 2}
                                        : std::vector<int>{2, 5, 1, 3, 0, 4};
  return {rev, swap, out, rnd};
}

template <class Exec>
void register_space(const Exec&) {
  const bool all = true, general = false;  // with the seed's kernels, or without
  std::vector<std::vector<int>> six;
  std::vector<int> p = {0, 1, 2};
  do six.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  // 1 GiB of float.
  register_shape<Exec, float, 3>("float", {512, 512, 1024}, six, all);
  register_shape<Exec, float, 4>("float", {64, 256, 128, 128}, cases(4), general);
  register_shape<Exec, float, 5>("float", {32, 64, 32, 64, 64}, cases(5), general);
  register_shape<Exec, float, 6>("float", {16, 32, 16, 32, 16, 64}, cases(6), general);
  // Images: 64 x 3 x 1024 x 1024 NCHW <-> NHWC, fused, of uint8 (192 MiB)
  // and float: a tiny extent beside a long one (the interleaved boxes).
  const std::vector<std::vector<int>> swap_inner = {{0, 2, 1}};
  register_shape<Exec, std::uint8_t, 3>("uint8", {64, 3, 1 << 20}, swap_inner, general);
  register_shape<Exec, std::uint8_t, 3>("uint8", {64, 1 << 20, 3}, swap_inner, general);
  register_shape<Exec, float, 3>("float", {64, 3, 1 << 20}, swap_inner, general);
  register_shape<Exec, float, 3>("float", {64, 1 << 20, 3}, swap_inner, general);
  // 8 KiB of float.
  register_shape<Exec, float, 3>("float", {8, 16, 16}, six, all);
  register_shape<Exec, float, 4>("float", {8, 8, 8, 4}, cases(4), general);
  register_shape<Exec, float, 5>("float", {4, 8, 4, 4, 4}, cases(5), general);
  register_shape<Exec, float, 6>("float", {4, 4, 4, 4, 4, 2}, cases(6), general);
}

}  // namespace

int main(int argc, char** argv) {
  return tilekit::bench::run(argc, argv, [] {
    tilekit::bench::for_bench_spaces([](auto exec) { register_space(exec); });
  });
}
