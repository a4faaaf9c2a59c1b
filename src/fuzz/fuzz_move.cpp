// Fuzz runner for the move families: out-of-place transpose, in-place
// transpose and permute, every element type, rank 1 to 8, both layouts.
#include <tilekit/permute.hpp>
#include <tilekit/transpose.hpp>

#include <exception>
#include <utility>
#include <vector>

#include "fuzz_reference.hpp"
#include "fuzz_run.hpp"

namespace tilekit::fuzz {

namespace {

template <class T, int R> struct Stars { using type = typename Stars<T, R - 1>::type*; };
template <class T> struct Stars<T, 0> { using type = T; };

template <class T, int R, class Layout, class Mem>
using UView = Kokkos::View<typename Stars<T, R>::type, Layout, Mem, Kokkos::MemoryUnmanaged>;

template <class V, std::size_t... I>
V make_view(typename V::pointer_type p, const std::vector<std::int64_t>& e,
            std::index_sequence<I...>) {
  return V(p, static_cast<std::size_t>(e[I])...);
}

template <int R, class Layout, class Mem, class T>
auto view_of(T* p, const std::vector<std::int64_t>& e) {
  using V = UView<T, R, Layout, Mem>;
  return make_view<V>(p, e, std::make_index_sequence<R>{});
}

/// fn(std::integral_constant<int, R>) for the run-time rank r (1 to 8).
template <class Fn>
void with_rank(int r, Fn&& fn) {
  switch (r) {
    case 1: return fn(std::integral_constant<int, 1>{});
    case 2: return fn(std::integral_constant<int, 2>{});
    case 3: return fn(std::integral_constant<int, 3>{});
    case 4: return fn(std::integral_constant<int, 4>{});
    case 5: return fn(std::integral_constant<int, 5>{});
    case 6: return fn(std::integral_constant<int, 6>{});
    case 7: return fn(std::integral_constant<int, 7>{});
    case 8: return fn(std::integral_constant<int, 8>{});
  }
  throw std::invalid_argument("fuzz: rank " + std::to_string(r) + " is not 1 to 8");
}

template <class Fn>
void with_layout(bool left, Fn&& fn) {
  if (left) fn(Kokkos::LayoutLeft{});
  else fn(Kokkos::LayoutRight{});
}

TransposeVariant transpose_variant(const std::string& v) {
  for (auto x : {TransposeVariant::naive, TransposeVariant::tiled, TransposeVariant::tiled_padded})
    if (to_string(x) == v) return x;
  throw std::invalid_argument("fuzz: no transpose variant " + v);
}

PermuteVariant permute_variant(const std::string& v) {
  for (auto x : permute_variants)
    if (to_string(x) == v) return x;
  throw std::invalid_argument("fuzz: no permute variant " + v);
}

std::string box_name(impl::BoxKind k) {
  switch (k) {
    case impl::BoxKind::affine: return "affine";
    case impl::BoxKind::load_table: return "load_table";
    case impl::BoxKind::tables: return "tables";
  }
  return "?";
}

template <class Exec, class T>
Outcome move_typed(const Exec& exec, const Case& c) {
  using Mem = typename Exec::memory_space;
  const std::int64_t n = c.elements();
  const int r = static_cast<int>(c.shape.size());
  std::vector<int> perm = c.perm;
  T alpha = T(1), beta = T(0);
  if (c.op == Op::permute) {
    alpha = static_cast<T>(c.alpha);
    beta = static_cast<T>(c.beta);
  } else {
    perm = {1, 0};
  }
  const bool inplace = c.op == Op::inplace;
  std::vector<T> in(n), want(n), got(n);
  for (std::int64_t k = 0; k < n; ++k) in[k] = datum<T>(c.seed, k);
  for (std::int64_t k = 0; k < n; ++k)
    want[k] = beta == T(0) ? poison<T>() : datum<T>(c.seed + 1, k);
  Kokkos::View<T*, Mem> din(Kokkos::view_alloc(exec, "tilekit::fuzz in"), n);
  Kokkos::View<T*, Mem> dout(Kokkos::view_alloc(exec, "tilekit::fuzz out"), inplace ? 0 : n);
  using HostU = Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  Kokkos::deep_copy(exec, din, HostU(in.data(), n));
  if (!inplace) Kokkos::deep_copy(exec, dout, HostU(want.data(), n));
  exec.fence();
  Outcome o;
  try {
    with_layout(c.left, [&](auto layout) {
      using L = decltype(layout);
      if (c.op == Op::transpose) {
        auto vin = view_of<2, L, Mem>(din.data(), c.shape);
        auto vout = view_of<2, L, Mem>(dout.data(), {c.shape[1], c.shape[0]});
        TransposePlan plan(exec, vin, vout, transpose_variant(c.variant));
        plan.execute(vin, vout);
        o.method = c.variant;
      } else if (inplace) {
        auto a = view_of<2, L, Mem>(din.data(), c.shape);
        InplaceTransposePlan plan(
            exec, a, c.variant == "inplace_naive" ? InplaceVariant::naive : InplaceVariant::blocked);
        plan.execute(a);
        o.method = c.variant;
      } else {
        std::vector<std::int64_t> oshape(r);
        for (int k = 0; k < r && perm.size() == c.shape.size(); ++k)
          oshape[k] = perm[k] >= 0 && perm[k] < r ? c.shape[perm[k]] : 0;
        with_rank(r, [&](auto R) {
          auto vin = view_of<decltype(R)::value, L, Mem>(din.data(), c.shape);
          auto vout = view_of<decltype(R)::value, L, Mem>(dout.data(), oshape);
          PermutePlan plan(exec, vin, vout, perm, permute_variant(c.variant));
          plan.execute(vin, vout, alpha, beta);
          o.method = std::string(to_string(plan.method()));
          if (plan.method() == PermuteMethod::tiled)
            o.method += "/" + box_name(plan.tiled_layout().kind);
        });
      }
    });
    exec.fence();
  } catch (const std::exception& e) {
    o.message = std::string("threw: ") + e.what();
    return o;
  }
  Kokkos::deep_copy(exec, HostU(got.data(), n), inplace ? din : dout);
  exec.fence();
  reference_permute(c.shape, perm, c.left, in.data(), want.data(), alpha, beta);
  std::int64_t wrong = 0;
  o.message = first_mismatch(got.data(), want.data(), n, &wrong);
  if (wrong > 0) o.message = std::to_string(wrong) + " wrong elements; first: " + o.message;
  o.ok = wrong == 0;
  return o;
}

}  // namespace

template <class Exec>
Outcome run_move(const Exec& exec, const Case& c) {
  return with_type(c.type, [&](auto t) { return move_typed<Exec, decltype(t)>(exec, c); });
}

#if defined(KOKKOS_ENABLE_SERIAL)
template Outcome run_move(const Kokkos::Serial&, const Case&);
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
template Outcome run_move(const Kokkos::OpenMP&, const Case&);
#endif
#if defined(KOKKOS_ENABLE_CUDA)
template Outcome run_move(const Kokkos::Cuda&, const Case&);
#endif

}  // namespace tilekit::fuzz
