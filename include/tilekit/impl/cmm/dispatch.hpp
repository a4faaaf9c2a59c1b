#pragma once
// Dispatch for checkered matrix multiplication (cmm): checks A, B and C,
// resolves the launch shape from the backend traits (or the caller's
// overrides), checks it against the space's limits and launches the chosen
// kernel on the caller's execution space.
#include <tilekit/backends/traits.hpp>
#include <tilekit/errors.hpp>
#include <tilekit/impl/cmm/kernels.hpp>  // the kernels' scratch layout the plan names
#include <tilekit/impl/common/eti.hpp>
#include <tilekit/impl/common/launch.hpp>

#include <string>
#include <string_view>
#include <type_traits>

namespace tilekit {

/// naive: one work item per output element (seed 001); tiled: team scratch
/// tiles, one column set of a row pair per work item; blocked: team scratch
/// tiles and a register block of outputs per work item.
enum class CmmVariant { naive, tiled, blocked };

constexpr std::string_view to_string(CmmVariant v) {
  switch (v) {
    case CmmVariant::naive: return "naive";
    case CmmVariant::tiled: return "tiled";
    case CmmVariant::blocked: return "blocked";
  }
  return "?";
}

/// Launch-shape overrides of the tiled and blocked variants; 0 (or -1 for
/// pad) keeps the backend default (backends::Traits<ExecSpace>::cmm_shape).
struct CmmOptions {
  int team_rows = 0;  ///< work items along the rows of a tile
  int team_cols = 0;  ///< work items along the column sets of a tile
  int threads = 0;    ///< threads per team, dividing team_rows x team_cols
  int k_step = 0;     ///< columns of A / rows of B staged per step (even)
  int pad = -1;       ///< extra elements per scratch row
  int group = 0;      ///< tile rows visited together (reuse of B columns)
  std::string label = "tilekit::cmm";  ///< prefix of the kernel labels
};

/// Checkered matrix multiplication plan: C = cmm(A, B) for N x N matrices A,
/// B (N even) and the (N/2) x N matrix C. Validates once; execute() re-checks
/// the views it is given.
template <class ExecSpace, class T>
class CmmPlan {
 public:
  using value_type = T;
  static constexpr const char* where = "tilekit::checkered_matmul";

  template <class AView, class BView, class CView>
  CmmPlan(const ExecSpace& exec, const AView& a, const BView& b, const CView& c,
          CmmVariant variant = CmmVariant::blocked, CmmOptions opts = {})
      : exec_(exec), variant_(variant), opts_(std::move(opts)), n_(a.extent(0)) {
    check(a, b, c);
    shape_ = resolve_shape();
    if (variant_ != CmmVariant::naive) launch(nullptr, nullptr, nullptr, {}, {}, {}, true);
  }

  template <class AView, class BView, class CView>
  void execute(const AView& a, const BView& b, const CView& c) const {
    check(a, b, c);
    launch(a.data(), b.data(), c.data(), strides(a), strides(b), strides(c), false);
  }

  CmmVariant variant() const { return variant_; }
  /// The launch shape used (reg_rows = reg_cols = 1 for tiled; unused by naive).
  const backends::CmmShape& shape() const { return shape_; }
  std::int64_t n() const { return static_cast<std::int64_t>(n_); }
  /// Floating-point operations of one product: N^2 / 2 outputs x 2N.
  double flops() const { return static_cast<double>(n_) * n_ * n_; }

 private:
  template <class View>
  static impl::Strides strides(const View& v) {
    return {static_cast<impl::index_t>(v.stride(0)), static_cast<impl::index_t>(v.stride(1))};
  }

  template <class AView, class BView, class CView>
  void check(const AView& a, const BView& b, const CView& c) const {
    static_assert(AView::rank() == 2 && BView::rank() == 2 && CView::rank() == 2,
                  "tilekit::checkered_matmul: A, B and C must be rank-2 views");
    static_assert(std::is_same_v<typename AView::non_const_value_type, T> &&
                      std::is_same_v<typename BView::non_const_value_type, T> &&
                      std::is_same_v<typename CView::value_type, T>,
                  "tilekit::checkered_matmul: A, B and C must hold the plan's type; C mutable");
    detail::require_accessible<ExecSpace, AView>();
    detail::require_accessible<ExecSpace, BView>();
    detail::require_accessible<ExecSpace, CView>();
    using detail::extents_string;
    const auto n = a.extent(0);
    const std::string ns = std::to_string(n);
    if (a.extent(1) != n)
      detail::fail(where, "A must be square (N x N), got extents " + extents_string(a));
    if (n < 2 || n % 2 != 0)
      detail::fail(where, "A has extents " + extents_string(a) +
                              ": checkered matrix multiplication needs an even N >= 2");
    if (b.extent(0) != n || b.extent(1) != n)
      detail::fail(where, "B extents " + extents_string(b) + " must be (N, N) = (" + ns + ", " +
                              ns + "), the extents of A");
    if (c.extent(0) != n / 2 || c.extent(1) != n)
      detail::fail(where, "C extents " + extents_string(c) + " must be (N/2, N) = (" +
                              std::to_string(n / 2) + ", " + ns + ") for N = " + ns);
    if (n != n_)
      detail::fail(where, "N = " + ns + " differs from the planned N = " + std::to_string(n_));
    detail::require_contiguous(where, "A", a);
    detail::require_contiguous(where, "B", b);
    detail::require_contiguous(where, "C", c);
    if (detail::overlaps(a, c))
      detail::fail(where, "C " + extents_string(c) + " shares memory with A " +
                              extents_string(a) + "; the output must be a separate view");
    if (detail::overlaps(b, c))
      detail::fail(where, "C " + extents_string(c) + " shares memory with B " +
                              extents_string(b) + "; the output must be a separate view");
    detail::checked_mul(where, static_cast<std::int64_t>(n), static_cast<std::int64_t>(n));
  }

  backends::CmmShape resolve_shape() const {
    const bool blocked = variant_ == CmmVariant::blocked;
    backends::CmmShape s = backends::Traits<ExecSpace>::cmm_shape(sizeof(T), blocked);
    if (!blocked) s.reg_rows = s.reg_cols = 1;
    const CmmOptions& o = opts_;
    if (o.team_rows < 0 || o.team_cols < 0 || o.threads < 0 || o.k_step < 0 || o.group < 0 ||
        o.pad < -1)
      detail::fail(where,
                   "team_rows, team_cols, threads, k_step and group must not be negative (0: the "
                   "backend's choice), pad not below -1 (-1: the backend's choice)");
    if (o.team_rows > 0) s.team_rows = o.team_rows;
    if (o.team_cols > 0) s.team_cols = o.team_cols;
    if (o.threads > 0) s.threads = o.threads;
    if (o.k_step > 0) s.k_step = o.k_step;
    if (o.pad >= 0) s.pad = o.pad;
    if (o.group > 0) s.group = o.group;
    if (s.k_step % 2 != 0 || s.k_step > 4096)
      detail::fail(where, "k_step " + std::to_string(s.k_step) + " must be even and at most 4096");
    if (s.team_rows > 1024 || s.team_cols > 1024 || s.pad > 1024)
      detail::fail(where, "team " + std::to_string(s.team_rows) + " x " +
                              std::to_string(s.team_cols) + " or pad " + std::to_string(s.pad) +
                              " exceeds 1024");
    if (s.team_rows % 2 != 0)
      detail::fail(where, "team_rows " + std::to_string(s.team_rows) +
                              " must be even: half the work items take each row parity");
    const int items = s.team_rows * s.team_cols;
    if (s.threads <= 0) s.threads = items;
    if (items % s.threads != 0)
      detail::fail(where, std::to_string(s.threads) + " threads do not divide the " +
                              std::to_string(s.team_rows) + " x " + std::to_string(s.team_cols) +
                              " work items of a tile");
    if (s.scratch_level != 0 && s.scratch_level != 1)
      detail::fail(where, "scratch level " + std::to_string(s.scratch_level) + " is not 0 or 1");
    return s;
  }

  void launch(const T* a, const T* b, T* c, impl::Strides sa, impl::Strides sb,
              impl::Strides sc, bool dry_run) const;

  /// Def: the backend's default shape, whose compile-time parts (launch bound,
  /// whether work items share threads) select the kernel.
  template <int RI, int RJ, backends::CmmShape Def>
  void launch_tiled(const char* suffix, const T* a, const T* b, T* c, impl::Strides sa,
                    impl::Strides sb, impl::Strides sc, bool dry_run) const;

  ExecSpace exec_;
  CmmVariant variant_;
  CmmOptions opts_;
  std::size_t n_;
  backends::CmmShape shape_{};
};

template <class E, class A, class B, class C>
CmmPlan(const E&, const A&, const B&, const C&) -> CmmPlan<E, typename C::non_const_value_type>;
template <class E, class A, class B, class C>
CmmPlan(const E&, const A&, const B&, const C&, CmmVariant)
    -> CmmPlan<E, typename C::non_const_value_type>;
template <class E, class A, class B, class C>
CmmPlan(const E&, const A&, const B&, const C&, CmmVariant, CmmOptions)
    -> CmmPlan<E, typename C::non_const_value_type>;

}  // namespace tilekit

// The library's compiled plans (impl/common/eti.hpp; cmake/TilekitETI.cmake): the
// pairs of float and double (TILEKIT_ETI_PAIRS_CMM).
#define TILEKIT_ETI_CMM_PLAN(E, T) extern template class tilekit::CmmPlan<E, T>;
TILEKIT_ETI_FOR_EACH_CMM_PAIR(TILEKIT_ETI_CMM_PLAN)
#undef TILEKIT_ETI_CMM_PLAN
