#pragma once
// Seed 003's rank-3 permute kernels as a plan of their own, the baselines the
// tool and the study measure tilekit::PermutePlan against (permute3d_kernels.hpp):
//   simple, simple_templated: one element per work item, the permutation at
//     run time or compiled in;
//   shared, shared_templated, shared_bank_free: 8 x 8 x 8 cubes through team
//     scratch, the last with padded scratch extents per permutation.
// The seed's copy kernels are simple_templated and shared_templated with the
// identity permutation. Contiguous rank-3 views of one type; the views and
// the permutation are checked as the library's plan checks them.
//
//   tilekit::study::Permute3Plan plan(exec, in, out, {1, 2, 0},
//                                     tilekit::study::Permute3Variant::shared_bank_free);
//   plan.execute(in, out);               // out = alpha * permute(in) + beta * out
#include <tilekit/permute.hpp>
#include <tilekit/study/permute3d_kernels.hpp>

#include <array>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace tilekit::study {

enum class Permute3Variant { simple, simple_templated, shared, shared_templated, shared_bank_free };
inline constexpr Permute3Variant permute3_variants[] = {
    Permute3Variant::simple, Permute3Variant::simple_templated, Permute3Variant::shared,
    Permute3Variant::shared_templated, Permute3Variant::shared_bank_free};

constexpr std::string_view to_string(Permute3Variant v) {
  switch (v) {
    case Permute3Variant::simple: return "simple";
    case Permute3Variant::simple_templated: return "simple_templated";
    case Permute3Variant::shared: return "shared";
    case Permute3Variant::shared_templated: return "shared_templated";
    case Permute3Variant::shared_bank_free: return "shared_bank_free";
  }
  return "?";
}

/// out = alpha * permute(in, perm) + beta * out by a seed-003 kernel: rank-3
/// contiguous views of T (LayoutLeft maps onto the row-major kernels as in
/// the library). The launch shape of the cube kernels comes from the
/// backend's permute tile (PermuteOptions overrides it).
template <class ExecSpace, class T>
class Permute3Plan {
 public:
  using value_type = T;
  using scalar_type = permute_scalar_t<T, T>;

  template <class InView, class OutView>
  Permute3Plan(const ExecSpace& exec, const InView& in, const OutView& out,
               const std::vector<int>& perm, Permute3Variant variant, PermuteOptions opts = {})
      : checked_(exec, in, out, perm, PermuteVariant::naive, opts), exec_(exec),
        variant_(variant), label_(opts.label) {
    const std::string name(to_string(variant_));
    if (InView::rank() != 3)
      detail::fail(label_, "variant " + name + " needs rank-3 views, got extents " +
                               detail::extents_string(in));
    if (!shape().contiguous())
      detail::fail(label_, "variant " + name +
                               " needs contiguous views; strided views take tilekit::permute");
    kernel_ = label_ + "_" + name;
    if (shared()) prepare_shared(opts);
  }

  template <class InView, class OutView, class A = scalar_type, class B = scalar_type>
  void execute(const InView& in, const OutView& out, const A& alpha = A(1),
               const B& beta = B(0)) const {
    checked_.check(in, out);
    if (shape().size() == 0) return;
    const auto st = StoreRuntime<T>::make(static_cast<scalar_type>(alpha),
                                          static_cast<scalar_type>(beta));
    if (shared()) launch_shared(in.data(), out.data(), st);
    else launch_simple(in.data(), out.data(), st);
  }

  Permute3Variant variant() const { return variant_; }
  /// "simple" or "shared": the kernel family of the variant.
  std::string_view method() const { return shared() ? "shared" : "simple"; }

 private:
  /// The row-major problem (the library's plan's, before fusion).
  const impl::PermuteShape& shape() const { return checked_.shape(); }
  bool shared() const {
    return variant_ != Permute3Variant::simple && variant_ != Permute3Variant::simple_templated;
  }

  /// The permutation at run time, or compiled in.
  template <class Run>
  void with_perm(const Run& run) const {
    const std::array<int, 3> p = {shape().p[0], shape().p[1], shape().p[2]};
    if (variant_ == Permute3Variant::simple || variant_ == Permute3Variant::shared)
      run(RuntimePerm3{{p[0], p[1], p[2]}});
    else
      with_static_perm3(p, run);
  }

  /// The cube kernels' launch shape: lanes along a cube row, team ranks over
  /// the rows, within the backend's team.
  void prepare_shared(const PermuteOptions& opts);
  void launch_simple(const T* in, T* out, const StoreRuntime<T>& st) const;
  void launch_shared(const T* in, T* out, const StoreRuntime<T>& st) const;

  PermutePlan<ExecSpace, T> checked_;  ///< the views' and the permutation's checks, the shape
  ExecSpace exec_;
  Permute3Variant variant_;
  std::string label_, kernel_;
  CubeDims cube_{};
  Kokkos::TeamPolicy<ExecSpace> policy_{};
};

// The kernels' launches, out of line: the library holds them for its pairs
// (extern declarations below; cmake/TilekitETI.cmake's study family), and a
// non-inline member of an `extern template` specialization is never
// instantiated in a program's unit (impl/common/eti.hpp).
template <class ExecSpace, class T>
void Permute3Plan<ExecSpace, T>::prepare_shared(const PermuteOptions& opts) {
  const backends::TileConfig c = impl::resolve_tile(
      label_, opts, backends::Traits<ExecSpace>::permute_tile(sizeof(T)), true, 1024);
  if (variant_ == Permute3Variant::shared_bank_free)
    cube_ = bank_free_dims_cached({shape().p[0], shape().p[1], shape().p[2]}, sizeof(T));
  const int v = std::min(cube_edge, c.vector);
  const backends::TileConfig cube{
      cube_edge, std::min(cube_edge * cube_edge, std::max(1, c.team_rows * c.vector / v)), v, 0};
  index_t cubes = 1;
  for (int d = 0; d < 3; ++d) cubes *= (shape().n[d] + cube_edge - 1) / cube_edge;
  if (cubes > std::numeric_limits<int>::max())
    detail::fail(label_, "too many 8x8x8 cubes for one league");
  Permute3Shared<ExecSpace, T, RuntimePerm3, StoreRuntime<T>> f{};
  f.dims = cube_;
  policy_ = impl::team_policy(label_, exec_, f, static_cast<int>(cubes), cube,
                              decltype(f)::scratch_bytes(cube_));
}

template <class ExecSpace, class T>
void Permute3Plan<ExecSpace, T>::launch_simple(const T* in, T* out,
                                               const StoreRuntime<T>& st) const {
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Right,
                                                               Kokkos::Iterate::Right>,
                                       Kokkos::IndexType<index_t>>;
  const auto& n = shape().n;
  const Policy policy(exec_, {0, 0, 0}, {n[0], n[1], n[2]});
  with_perm([&](auto perm) {
    Kokkos::parallel_for(kernel_, policy,
                         Permute3Simple<T, decltype(perm), StoreRuntime<T>>{
                             in, out, n[0], n[1], n[2], perm, st});
  });
}

template <class ExecSpace, class T>
void Permute3Plan<ExecSpace, T>::launch_shared(const T* in, T* out,
                                               const StoreRuntime<T>& st) const {
  with_perm([&](auto perm) {
    Permute3Shared<ExecSpace, T, decltype(perm), StoreRuntime<T>> f{};
    f.in = in;
    f.out = out;
    for (int d = 0; d < 3; ++d) {
      f.n[d] = shape().n[d];
      f.cubes[d] = (shape().n[d] + cube_edge - 1) / cube_edge;
    }
    f.perm = perm;
    f.dims = cube_;
    f.store = st;
    Kokkos::parallel_for(kernel_, policy_, f);
  });
}

template <class E, class I, class O>
Permute3Plan(const E&, const I&, const O&, const std::vector<int>&, Permute3Variant)
    -> Permute3Plan<E, typename O::non_const_value_type>;
template <class E, class I, class O>
Permute3Plan(const E&, const I&, const O&, const std::vector<int>&, Permute3Variant,
             PermuteOptions) -> Permute3Plan<E, typename O::non_const_value_type>;

}  // namespace tilekit::study

// The library's compiled seed plans (impl/common/eti.hpp): every pair
// (study/definitions.hpp).
#define TILEKIT_ETI_STUDY_PERMUTE3(E, T) extern template class tilekit::study::Permute3Plan<E, T>;
TILEKIT_ETI_FOR_EACH_PAIR(TILEKIT_ETI_STUDY_PERMUTE3)
#undef TILEKIT_ETI_STUDY_PERMUTE3
