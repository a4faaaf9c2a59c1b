// Permute of strided windows (docs/strided.md), float, 512 x 512 x 1024 (1 GiB):
// the deep_copy baseline of the same bytes first, then the fused permute of
//  * contig: contiguous input and output (LayoutRight), the reference;
//  * contig_stride: the same memory through LayoutStride views;
//  * in_block: the input is a window of a parent whose innermost extent is
//    1024 + 64 (rows padded, a Fortran-style leading dimension);
//  * in_rows2: the input is every other index of the middle dimension of a
//    parent twice as long there (inner runs stay contiguous, rows skip);
//  * out_block: the output is the padded window, the input contiguous;
// for the identity (a strided copy), and the permutations 021, 120, 210.
// Bytes count the window's elements read and written, not the parent's.
// Names: <kind>/<perm>/<space>/float, copy/-/<space>/float.
//   bench_permute_strided --benchmark_out=strided.json --benchmark_out_format=json
#include <tilekit/permute.hpp>

#include <algorithm>
#include <array>
#include <memory>

#include "bench_common.hpp"

namespace {
using namespace tilekit;
using index_t = std::int64_t;

constexpr std::array<index_t, 3> kExt = {512, 512, 1024};
constexpr index_t kPad = 64;

template <class Mem>
using Right = Kokkos::View<float***, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged>;
template <class Mem>
using Strided = Kokkos::View<float***, Kokkos::LayoutStride, Mem, Kokkos::MemoryUnmanaged>;

/// A window of extents e with strides s over p.
template <class Mem>
Strided<Mem> window(float* p, const std::array<index_t, 3>& e, const std::array<index_t, 3>& s) {
  Kokkos::LayoutStride l;
  for (int d = 0; d < 3; ++d) {
    l.dimension[d] = static_cast<std::size_t>(e[d]);
    l.stride[d] = static_cast<std::size_t>(s[d]);
  }
  return Strided<Mem>(p, l);
}

/// Row-major strides of e with the innermost parent extent e[2] + pad and the
/// middle index stepping by `step`.
std::array<index_t, 3> strides(const std::array<index_t, 3>& e, index_t pad, index_t step) {
  const index_t row = e[2] + pad;
  return {row * e[1] * step, row * step, 1};
}

/// Elements of the padded output's parent: the largest over the permutations
/// (the padding follows the output's innermost extent).
index_t out_parent() {
  index_t m = 0;
  for (index_t e : kExt) m = std::max(m, kExt[0] * kExt[1] * kExt[2] / e * (e + kPad));
  return m;
}

template <class Exec>
struct Buffers {
  using Mem = typename Exec::memory_space;
  // The input parent holds the largest window (rows2: twice the elements);
  // the output parent the padded one.
  Kokkos::View<float*, Mem> in, out;
  Buffers()
      : in("in", static_cast<std::size_t>(2 * kExt[0] * kExt[1] * kExt[2])),
        out("out", static_cast<std::size_t>(out_parent())) {
    Kokkos::deep_copy(in, 1.0f);
  }
};


template <class Exec>
void register_space(const Exec&) {
  using Mem = typename Exec::memory_space;
  const index_t n = kExt[0] * kExt[1] * kExt[2];
  const double bytes = 2.0 * static_cast<double>(n) * sizeof(float);
  const std::string tail = std::string("/") + Exec::name() + "/float";
  auto buf = bench::buffer_slot<Buffers<Exec>>();
  auto get = [buf]() -> Buffers<Exec>& {
    if (!*buf) *buf = std::make_unique<Buffers<Exec>>();
    return **buf;
  };
  bench::add("copy/-" + tail, [=](benchmark::State& s) {
    auto& B = get();
    Exec exec;
    auto a = Kokkos::subview(B.in, std::pair<index_t, index_t>(0, n));
    auto b = Kokkos::subview(B.out, std::pair<index_t, index_t>(0, n));
    bench::timed(s, exec, bytes, "float", true, [&] { Kokkos::deep_copy(exec, b, a); });
  });
  struct Kind {
    const char* name;
    index_t in_pad, in_step, out_pad;
  };
  auto add_plan = [&](const std::string& name, const std::vector<int>& p, auto make) {
    bench::add(name + "/" + bench::perm_name(p) + tail, [=](benchmark::State& s) {
      const auto views = make(get(), p);
      const auto& in = views.first;
      const auto& out = views.second;
      Exec exec;
      PermutePlan plan(exec, in, out, p, PermuteVariant::fused);
      s.SetLabel(std::string(to_string(plan.method())));
      bench::timed(s, exec, bytes, "float", false, [&] { plan.execute(in, out); });
    });
  };
  const Kind kinds[] = {{"contig_stride", 0, 1, 0}, {"in_block", kPad, 1, 0},
                        {"in_rows2", 0, 2, 0}, {"out_block", 0, 1, kPad}};
  const std::vector<std::vector<int>> perms = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {2, 1, 0}};
  for (const auto& p : perms) {
    add_plan("contig", p, [](Buffers<Exec>& B, const std::vector<int>& q) {
      return std::pair{Right<Mem>(B.in.data(), kExt[0], kExt[1], kExt[2]),
                       Right<Mem>(B.out.data(), kExt[q[0]], kExt[q[1]], kExt[q[2]])};
    });
    for (const Kind& k : kinds)
      add_plan(k.name, p, [k](Buffers<Exec>& B, const std::vector<int>& q) {
        std::array<index_t, 3> oext;
        for (int d = 0; d < 3; ++d) oext[d] = kExt[q[d]];
        return std::pair{window<Mem>(B.in.data(), kExt, strides(kExt, k.in_pad, k.in_step)),
                         window<Mem>(B.out.data(), oext, strides(oext, k.out_pad, 1))};
      });
  }
  bench::add_release("release/-" + tail, buf);
}

}  // namespace

int main(int argc, char** argv) {
  return tilekit::bench::run(argc, argv, [] {
    tilekit::bench::for_bench_spaces([](auto exec) { register_space(exec); });
  });
}
