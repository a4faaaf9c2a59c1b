#pragma once
// move_typed of the fuzz runner (fuzz_move_case.hpp): one case of the out-of-place
// transpose, in-place transpose or permute, of one element type on one space,
// checked against the host reference. Included by the case units only
// (cmake/TilekitToolCases.cmake): it includes the moves' headers and the
// seeds' move kernels, not the reductions'.
#include <tilekit/permute.hpp>
#include <tilekit/study/permute3d.hpp>
#include <tilekit/study/transpose_naive.hpp>
#include <tilekit/transpose.hpp>

#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "fuzz_move_case.hpp"
#include "fuzz_reference.hpp"
#include "support/views.hpp"

namespace tilekit::fuzz {

using support::view_of;
using support::with_layout;
using support::with_rank;

/// fn(v) with the variant of this name: the library's (TransposeVariant,
/// PermuteVariant) or the seeds' (study::Permute3Variant; nullptr: the naive
/// transpose).
template <class Fn>
void with_transpose_variant(const std::string& v, Fn&& fn) {
  if (v == "naive") return fn(nullptr);
  for (auto x : {TransposeVariant::tiled, TransposeVariant::tiled_padded})
    if (to_string(x) == v) return fn(x);
  throw std::invalid_argument("fuzz: no transpose variant " + v);
}

template <class Fn>
void with_permute_variant(const std::string& v, Fn&& fn) {
  for (auto x : permute_variants)
    if (to_string(x) == v) return fn(x);
  for (auto x : study::permute3_variants)
    if (to_string(x) == v) return fn(x);
  throw std::invalid_argument("fuzz: no permute variant " + v);
}

inline std::string box_name(impl::BoxKind k) {
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
        with_transpose_variant(c.variant, [&](auto v) {
          if constexpr (std::is_same_v<decltype(v), std::nullptr_t>)
            study::NaiveTransposePlan(exec, vin, vout).execute(vin, vout);
          else
            TransposePlan(exec, vin, vout, v).execute(vin, vout);
        });
        o.method = c.variant;
      } else if (inplace) {
        auto a = view_of<2, L, Mem>(din.data(), c.shape);
        // The naive swap takes square matrices; any other takes the
        // decomposition (InplaceTransposePlan's choice for all but blocked).
        if (c.variant != "inplace_naive")
          InplaceTransposePlan(exec, a, InplaceVariant::blocked).execute(a);
        else if (c.shape[0] == c.shape[1])
          study::NaiveInplaceTransposePlan(exec, a).execute(a);
        else
          InplaceTransposePlan(exec, a, InplaceVariant::decomposed).execute(a);
        o.method = c.variant;
      } else {
        std::vector<std::int64_t> oshape(r);
        for (int k = 0; k < r && perm.size() == c.shape.size(); ++k)
          oshape[k] = perm[k] >= 0 && perm[k] < r ? c.shape[perm[k]] : 0;
        with_rank(r, [&](auto R) {
          auto vin = view_of<decltype(R)::value, L, Mem>(din.data(), c.shape);
          auto vout = view_of<decltype(R)::value, L, Mem>(dout.data(), oshape);
          with_permute_variant(c.variant, [&](auto v) {
            if constexpr (std::is_same_v<decltype(v), study::Permute3Variant>) {
              // The seeds' kernels take the arithmetic types (parse() refuses
              // move-only cases of them).
              if constexpr (std::is_integral_v<T> && sizeof(T) < 4) {
                throw std::invalid_argument("fuzz: the seeds' variants take no " +
                                            std::string(support::type_name<T>()));
              } else {
                study::Permute3Plan plan(exec, vin, vout, perm, v);
                plan.execute(vin, vout, alpha, beta);
                o.method = std::string(plan.method());
              }
            } else {
              PermutePlan plan(exec, vin, vout, perm, v);
              plan.execute(vin, vout, alpha, beta);
              o.method = std::string(to_string(plan.method()));
              if (plan.method() == PermuteMethod::tiled)
                o.method += "/" + box_name(plan.tiled_layout().kind);
            }
          });
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

}  // namespace tilekit::fuzz
