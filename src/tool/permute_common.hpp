#pragma once
// What `tilekit permute`'s two measurements share (cmd_permute.cpp: one type
// in and out, every variant; permute_convert.cpp: an output of another type or
// conjugated, the fused variant): the views of a shape over raw buffers, the
// permutations asked for, and the host check of a result.
#include <tilekit/permute.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "permute_args.hpp"
#include "support/views.hpp"
#include "timing.hpp"

namespace tilekit::tool {

using support::make_view;
/// The unmanaged rank-R view of T.
template <class T, int R, class Layout, class Mem>
using ViewOf = support::UView<T, R, Layout, Mem>;

inline std::vector<std::vector<int>> permutations(const PermuteArgs& o, int rank) {
  std::vector<std::vector<int>> out;
  for (const auto& spec : o.perms) {
    if (spec == "all") {
      std::vector<int> p(rank);
      std::iota(p.begin(), p.end(), 0);
      do out.push_back(p);
      while (std::next_permutation(p.begin(), p.end()));
      continue;
    }
    std::vector<int> p;
    for (const auto& s : split_list(spec)) p.push_back(std::stoi(s));
    out.push_back(p);
  }
  return out;
}

/// One row of `tilekit permute`: the fields every row has, finished against
/// the run's copy baseline (report::finish_row), with its perm and layout.
inline report::Row permute_row(const char* space, const std::vector<std::int64_t>& ext,
                               const std::string& variant, const std::string& dtype,
                               const std::vector<int>& perm, bool left, const report::Timing& t,
                               double bytes, bool verified, double copy_gbps, double peak) {
  report::Row row;
  row.op = "permute";
  row.variant = variant;
  row.space = space;
  row.shape = ext;
  row.dtype = dtype;
  row.ms = t.median_ms;
  row.bytes = bytes;
  row.verified = verified;
  report::finish_row(row, copy_gbps, peak);
  row.extra["perm"] = perm;
  row.extra["layout"] = left ? "left" : "right";
  return row;
}

/// True when ok(out[o], i) holds for every element: i is the input's memory
/// offset, o the output offset the permutation sends it to (out: a host copy).
template <class T, class Ok>
bool check_permuted(const T* out, const std::vector<std::int64_t>& ext,
                    const std::vector<int>& perm, bool left, const Ok& ok) {
  using index_t = std::int64_t;
  const int r = static_cast<int>(ext.size());
  std::vector<index_t> oext(r), ostride(r), istride(r), in_dim_ostride(r);
  for (int k = 0; k < r; ++k) oext[k] = ext[perm[k]];
  auto strides = [&](const std::vector<index_t>& e, std::vector<index_t>& s) {
    index_t acc = 1;
    for (int q = 0; q < r; ++q) {
      const int d = left ? q : r - 1 - q;
      s[d] = acc;
      acc *= e[d];
    }
  };
  strides(ext, istride);
  strides(oext, ostride);
  for (int k = 0; k < r; ++k) in_dim_ostride[perm[k]] = ostride[k];
  std::vector<index_t> idx(r, 0);
  index_t o = 0, n = 1;
  for (auto e : ext) n *= e;
  for (index_t i = 0; i < n; ++i) {
    if (!ok(out[o], i)) return false;
    for (int q = 0; q < r; ++q) {  // memory-order odometer
      const int d = left ? q : r - 1 - q;
      o += in_dim_ostride[d];
      if (++idx[d] < ext[d]) break;
      o -= in_dim_ostride[d] * ext[d];
      idx[d] = 0;
    }
  }
  return true;
}

/// Input element k of the tool's data: pattern(k), with imaginary part
/// pattern(k + 1) for complex types (so that conjugation shows).
template <class T>
KOKKOS_INLINE_FUNCTION T input_value(std::int64_t k) {
  if constexpr (impl::is_complex_v<T>)
    return T(static_cast<typename T::value_type>(pattern(k)),
             static_cast<typename T::value_type>(pattern(k + 1)));
  else
    return static_cast<T>(pattern(k));
}

/// What a permute of TIn into TOut stores for input x over y0, computed as the
/// kernels' stores compute it (impl/permute/store.hpp).
template <class TIn, class TOut, bool Conj>
TOut expected_store(const TIn& x, const TOut& y0, double alpha, double beta) {
  using S = permute_scalar_t<TIn, TOut>;
  const TIn v = impl::conj_if<Conj>(x);
  if (beta != 0)
    return impl::convert<TOut>(static_cast<S>(alpha) * impl::convert<S>(v) +
                               static_cast<S>(beta) * impl::convert<S>(y0));
  if (static_cast<S>(alpha) != S(1))
    return impl::convert<TOut>(static_cast<S>(alpha) * impl::convert<S>(v));
  return impl::convert<TOut>(v);
}

/// got == want; special values as themselves (NaN matches any NaN, an
/// infinity only itself: the definition's result of a NaN or infinite alpha,
/// beta or element); otherwise (floating types) within 4 units of the type's
/// precision of want: a device may fuse the multiply-add that the host rounds
/// twice.
template <class T>
bool close_to(const T& got, const T& want) {
  if (got == want) return true;
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    using R = typename impl::real_of<T>::type;
    const double eps = impl::is_half_v<R>
                           ? (std::is_same_v<R, Kokkos::Experimental::half_t> ? 0x1p-10 : 0x1p-7)
                           : static_cast<double>(std::numeric_limits<impl::compute_t<R>>::epsilon());
    auto d = [](const auto& x) { return static_cast<double>(static_cast<impl::compute_t<R>>(x)); };
    // A finite pair within tol; otherwise both NaN, or equal (an infinity).
    auto part = [](double g, double w, double tol) {
      return std::isfinite(g) && std::isfinite(w) ? std::abs(g - w) <= tol
                                                  : (std::isnan(g) && std::isnan(w)) || g == w;
    };
    auto mag = [](double x) { return std::isfinite(x) ? std::abs(x) : 0.0; };
    if constexpr (impl::is_complex_v<T>) {
      const double gr = d(got.real()), gi = d(got.imag()), wr = d(want.real()), wi = d(want.imag());
      const double tol = 4 * eps * (mag(wr) + mag(wi));
      return part(gr, wr, tol) && part(gi, wi, tol);
    } else {
      const double g = d(got), w = d(want);
      return part(g, w, 4 * eps * mag(w));
    }
  }
}

}  // namespace tilekit::tool
