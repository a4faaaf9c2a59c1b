#pragma once
// Dispatch of the production reduce: checks the view, resolves the launch shape
// from the backend traits (or the caller's overrides), owns the workspace (one
// partial per team and the last-team ticket), and launches one kernel.
#include <tilekit/backends/traits.hpp>
#include <tilekit/errors.hpp>
#include <tilekit/impl/common/eti.hpp>
#include <tilekit/impl/reduce/kernels.hpp>          // the kernels' types and constants
#include <tilekit/impl/reduce/strided_kernels.hpp>  // the plan names
#include <tilekit/impl/common/exclusive_use.hpp>
#include <tilekit/impl/common/launch.hpp>
#include <tilekit/impl/common/shape.hpp>  // strided_shape, fuse (runs_of)

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace tilekit {

/// How the production reduce deals the rows of a contiguous view to its teams.
enum class ReduceSplit {
  backend,      ///< the backend's choice (ReduceConfig::interleave)
  contiguous,   ///< team t of L: one contiguous share of about rows / L rows
  interleaved,  ///< team t of L: the rounds of `loads` rows t, t + L, t + 2L, ...
};

/// Launch-shape overrides; 0 keeps the backend's value (backends::ReduceConfig).
struct ReduceOptions {
  int team_rows = 0;  ///< team size
  int vector = 0;     ///< vector length
  int teams = 0;      ///< most teams launched
  /// Contiguous views (strided windows take contiguous shares; so do
  /// MinLoc/MaxLoc by default, and always where the backend locates:
  /// interleaved is an error there).
  ReduceSplit split = ReduceSplit::backend;
  std::string label = "tilekit::reduce";  ///< prefix of the kernel labels
};

namespace impl {

template <class T>
constexpr bool is_reduce_type_v = std::is_same_v<T, std::int32_t> ||
                                  std::is_same_v<T, std::int64_t> ||
                                  std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                  is_half_v<T>;

template <class Exec>
backends::ReduceConfig resolve_reduce(const std::string& where, const ReduceOptions& o) {
  if (o.team_rows < 0 || o.vector < 0 || o.teams < 0)
    detail::fail(where,
                 "team_rows, vector and teams must not be negative (0: the backend's choice)");
  backends::ReduceConfig c = backends::Traits<Exec>::reduce_config();
  if (o.team_rows > 0) c.team_rows = o.team_rows;
  if (o.vector > 0) c.vector = o.vector;
  return c;
}

/// Most teams to launch: the caller's `teams`, or `pct` % of the teams of
/// `team threads` that the space's concurrency holds at once (on the GPU the
/// threads resident at full occupancy, so 100 is one wave of full-occupancy
/// teams; on the CPU one team per thread).
template <class Exec>
index_t league_cap(const Exec& exec, const backends::ReduceConfig& c, int teams, int pct) {
  if (teams > 0) return teams;
  const index_t cap = static_cast<index_t>(pct) * exec.concurrency() /
                      (100 * static_cast<index_t>(c.team_rows) * c.vector);
  return cap < 1 ? 1 : cap;
}

inline index_t clamp_league(index_t work, index_t cap) {
  return work < 1 ? 1 : (work < cap ? work : cap);
}

inline index_t ceil_div(index_t a, index_t b) { return (a + b - 1) / b; }

inline int ceil_log2(index_t x) {
  int k = 0;
  while ((index_t(1) << k) < x) ++k;
  return k;
}

/// gamma_h = h u / (1 - h u): the relative error bound of h rounded additions.
inline double gamma_of(double h, double u) {
  const double hu = h * u;
  return hu < 1 ? hu / (1 - hu) : std::numeric_limits<double>::infinity();
}

/// Any rank and layout whose elements fill their span (LayoutRight, LayoutLeft,
/// or a LayoutStride view without gaps); the order of elements is memory order.
/// `hint` ends the message for other views.
template <class Exec, class View>
void check_reduce_input(const std::string& where, const View& v,
                        const char* hint = "reduce a contiguous copy") {
  static_assert(Kokkos::is_view_v<View>, "tilekit::reduce: the input must be a Kokkos::View");
  static_assert(is_reduce_type_v<typename View::non_const_value_type>,
                "tilekit::reduce: views of int32, int64, float, double, half_t or bhalf_t");
  detail::require_accessible<Exec, View>();
  if (v.size() > 0 && !v.span_is_contiguous())
    detail::fail(where, "input with extents " + detail::extents_string(v) +
                            " is not contiguous (a strided subview or a padded allocation); " +
                            hint);
}

/// A view given to a plan made for n elements of T: the input checks, then its size.
template <class Exec, class T, class View>
void check_planned_input(const std::string& where, const View& v, index_t n,
                         const char* hint = "reduce a contiguous copy") {
  static_assert(std::is_same_v<typename View::non_const_value_type, T>,
                "tilekit::reduce: the view's value type differs from the plan's");
  check_reduce_input<Exec>(where, v, hint);
  if (static_cast<index_t>(v.size()) != n)
    detail::fail(where, "input with extents " + detail::extents_string(v) + " has " +
                            std::to_string(v.size()) + " elements, the plan " +
                            std::to_string(n));
}

template <class Exec, class R, class ResultView>
void check_reduce_result() {
  static_assert(Kokkos::is_view_v<ResultView> && ResultView::rank() == 0,
                "tilekit::reduce: the result must be a rank-0 Kokkos::View");
  static_assert(std::is_same_v<typename ResultView::value_type, R>,
                "tilekit::reduce: the result view must be mutable, of the operation's result "
                "type (sum_t<T> for Sum, ValueIndex<T> for MinLoc/MaxLoc, float for CompensatedSum "
                "of half_t/bhalf_t, T otherwise)");
  detail::require_accessible<Exec, ResultView>();
}

/// The value of a plan's device result on the host: copied on exec, then waited for.
template <class Exec, class R, class Mem>
R result_on_host(const Exec& exec, const Kokkos::View<R, Kokkos::HostSpace>& host,
                 const Kokkos::View<R, Mem>& device) {
  Kokkos::deep_copy(exec, host, device);
  exec.fence("tilekit::reduce: result to the host");
  return host();
}

inline backends::TileConfig team_shape(const backends::ReduceConfig& c) {
  return {0, c.team_rows, c.vector, 0};
}

/// The runs of a strided view with distinct elements (ReduceStridedKernel):
/// the permute's ordering and fusion of strided views with the identity
/// permutation (dimensions by falling stride, extents of 1 dropped, chaining
/// strides merged); the fastest fused dimension is the run, the others its digits.
inline ReduceRuns runs_of(const std::vector<index_t>& extents,
                          const std::vector<index_t>& strides) {
  std::vector<int> identity(extents.size());
  std::iota(identity.begin(), identity.end(), 0);
  const PermuteShape f = fuse(strided_shape(extents, identity, strides, strides));
  ReduceRuns w;
  if (f.rank == 0 || f.size() == 0) return w;
  w.len = f.n[f.rank - 1];
  w.step = f.si[f.rank - 1];
  for (int d = f.rank - 2; d >= 0; --d) w.runs.push(f.n[d], f.si[d]);
  return w;
}

}  // namespace impl

/// Production reduction plan for views of n elements of T: validates and sizes
/// once, owns the workspace; execute() re-checks the view it is given. One
/// host thread at a time per plan (and per copy of it: copies share the
/// workspace): a second thread inside execute() at the same time gets
/// tilekit::invalid_argument. Executions on the plan's instance are ordered.
template <class ExecSpace, class T, class Op>
class ReducePlan {
  static constexpr backends::ReduceConfig defaults = backends::Traits<ExecSpace>::reduce_config();
  using Kernel = impl::ReduceKernel<ExecSpace, T, Op, defaults.load_bytes, defaults.loads,
                                    defaults.locate_rows>;
  /// LayoutStride views with gaps (instantiated only for such views).
  using StridedKernel =
      impl::ReduceStridedKernel<ExecSpace, T, Op, defaults.loads,
                                std::max(1, defaults.strided_bytes / int(sizeof(T))),
                                defaults.locate_rows>;
  using Mem = typename ExecSpace::memory_space;
  using index_t = impl::index_t;

 public:
  using value_type = T;
  using result_type = typename Kernel::result_type;

  template <class View>
  ReducePlan(const ExecSpace& exec, const View& v, Op = {}, ReduceOptions opts = {})
      : exec_(exec), opts_(std::move(opts)), n_(static_cast<index_t>(v.size())) {
    plan_layout(v);
    check(v);
    init();
  }

  /// result() = the reduction of v, asynchronously on the plan's execution space.
  template <class View, class ResultView>
  void execute(const View& v, const ResultView& result) const {
    impl::check_reduce_result<ExecSpace, result_type, ResultView>();
    check(v);
    const impl::ExclusiveUse::Scope one_thread(in_use_, where());
    launch_any(v.data(), result.data());
  }

  /// The reduction of v, on the host: waits for the plan's execution space.
  template <class View>
  result_type execute(const View& v) const {
    check(v);
    const impl::ExclusiveUse::Scope one_thread(in_use_, where());
    return execute_on_host(v.data());
  }

  const backends::ReduceConfig& config() const { return config_; }
  /// Whether the plan was made for a strided view with gaps (its elements in
  /// runs: ReduceStridedKernel); such a plan takes views of its strides only.
  bool strided() const { return strided_; }
  /// Whether a contiguous view's rounds are dealt to the teams in turn
  /// (ReduceSplit::interleaved) rather than in contiguous shares.
  bool interleaved() const { return interleave_ && !strided_; }
  index_t size() const { return n_; }
  /// Teams launched for an aligned view (the most for any alignment).
  index_t league() const { return league_; }
  /// One wave: the most teams the plan launches below 2 x league_cap() x
  /// team_rounds rounds (ReduceOptions::teams, or the backend's league_pct of
  /// the space's concurrency, and on a space that fits the league, the teams
  /// of the kernel resident at once); league_most() for larger views.
  index_t league_cap() const { return cap_; }
  /// Most teams the plan launches for any view: league_cap(), or where the
  /// backend deals larger views' rounds to more teams in waves
  /// (ReduceConfig::team_rounds), league_waves x league_cap().
  index_t league_most() const { return most_; }

  /// Most rounded additions on any element's path to the result (for any
  /// alignment of the view): h of the bound gamma_h * sum|x| below. A work
  /// item's accumulator takes one row of each of its team's rounds of K rows
  /// (contiguous or interleaved, at most ceil(ceil(rows / L) / K) =
  /// ceil(rows / (K L)) rounds either way), then the loose elements
  /// (accumulator 0); the work item joins its K x W
  /// accumulators in a pairwise tree, the team joins its work items in two
  /// levels (G groups of threads / G, then the G groups; each level eight
  /// values at a time in a tree, the trees in turn), and the last team joins
  /// the partials (each work item K per round, a tree of each round, the
  /// rounds in turn) and those in two levels again.
  index_t depth() const {
    constexpr index_t W = Kernel::W, K = Kernel::K, C = Kernel::Chunk;
    const index_t P = threads_;
    // join_strided of m values: a tree of C, then the trees in turn
    auto strided = [&](index_t m) { return impl::ceil_log2(C) + impl::ceil_div(m, C); };
    const index_t G = groups_;
    const index_t levels = strided(impl::ceil_div(P, G)) + strided(G);
    const index_t last =
        league_ > 1 ? impl::ceil_log2(K) + impl::ceil_div(league_, K * P) + levels : 0;
    if (strided_) {
      // An accumulator takes every K-th row of the share (one of the share % K
      // left over) and a tail element; then the tree of K x V, the join into
      // the work item's value.
      static_assert(StridedKernel::K == K, "tilekit::reduce: both kernels take K rows at a time");
      const index_t rows = StridedKernel::rows_of(n_, threads_);
      const index_t share = impl::ceil_div(rows, league_for(rows));
      return impl::ceil_div(share, K) + 1 + impl::ceil_log2(K * StridedKernel::V) + 1 + levels +
             last;
    }
    index_t share = 0;  // most rows of a team, over the alignments of the view
    for (index_t head : {index_t(0), std::min<index_t>(W - 1, n_)}) {
      const index_t rows = Kernel::rows_of(n_, head, threads_);
      share = std::max(share, impl::ceil_div(rows, league_for(rows)));
    }
    const index_t loose = P * W + 2 * W;  // head (< W) and tail (< P W + W) elements
    const index_t chain = impl::ceil_div(share, K) + impl::ceil_div(loose, P);
    const index_t team = impl::ceil_log2(K * W) + 1 + levels;
    return chain + team + last;
  }

  /// Bound of |result - exact| for data with sum_abs = sum |x_i| and abs_sum =
  /// |sum x_i| (u = unit roundoff of the accumulator: T's, float's for half_t
  /// and bhalf_t, whose elements widen exactly; h = depth()): 0 for integer
  /// sums and min/max; gamma_h * sum_abs for Sum of floats; u * abs_sum +
  /// (1 + u) * gamma_2h * h * u * (1 + gamma_h) * sum_abs for CompensatedSum.
  double error_bound(double sum_abs, double abs_sum = 0) const {
    using F = impl::compute_t<T>;
    if constexpr (std::is_floating_point_v<F> &&
                  (std::is_same_v<Op, Sum> || std::is_same_v<Op, CompensatedSum>)) {
      const double u = std::numeric_limits<F>::epsilon() / 2;
      const double h = static_cast<double>(depth());
      if constexpr (std::is_same_v<Op, Sum>) {
        return impl::gamma_of(h, u) * sum_abs;
      } else {
        return u * abs_sum +
               (1 + u) * impl::gamma_of(2 * h, u) * h * u * (1 + impl::gamma_of(h, u)) * sum_abs;
      }
    } else {
      (void)sum_abs;
      (void)abs_sum;
      return 0;
    }
  }

 private:
  std::string where() const { return opts_.label; }

  /// A LayoutStride view with gaps makes a strided plan: its strides are
  /// checked (distinct elements) and its runs worked out here. One whose
  /// elements fill a span (one run of unit stride) takes the contiguous kernel.
  template <class View>
  void plan_layout(const View& v) {
    if constexpr (detail::is_stride_v<View>) {
      impl::ReduceRuns w;
      if (stride_dense(v, &w)) return;
      strided_ = true;
      for (unsigned r = 0; r < View::rank(); ++r) {
        extents_.push_back(static_cast<index_t>(v.extent(r)));
        strides_.push_back(static_cast<index_t>(v.stride(r)));
      }
      runs_ = w;
    }
  }

  /// For a LayoutStride view: its strides checked (distinct elements), its
  /// runs in *w; true when they are one run of unit stride (or <= 1 element).
  template <class View>
  bool stride_dense(const View& v, impl::ReduceRuns* w) const {
    detail::require_strided(where(), "input", v);
    if (v.size() <= 1) return true;
    std::vector<index_t> e, st;
    for (unsigned r = 0; r < View::rank(); ++r) {
      e.push_back(static_cast<index_t>(v.extent(r)));
      st.push_back(static_cast<index_t>(v.stride(r)));
    }
    *w = impl::runs_of(e, st);
    return w->runs.count == 0 && w->step == 1;
  }

  template <class View>
  void check(const View& v) const {
    static_assert(std::is_same_v<typename View::non_const_value_type, T>,
                  "tilekit::reduce: the view's value type differs from the plan's");
    if constexpr (!detail::is_stride_v<View>) {
      if (!strided_) {
        impl::check_planned_input<ExecSpace, T>(where(), v, n_);
        return;
      }
    }
    detail::require_accessible<ExecSpace, View>();
    if (!strided_) {  // a LayoutStride view given to a contiguous plan
      impl::ReduceRuns w;
      if (!v.span_is_contiguous() && !stride_dense(v, &w))
        detail::fail(where(), "input with extents " + detail::extents_string(v) +
                                  " has gaps; this plan was made for a view without (a plan "
                                  "made with the strided view takes it)");
      if (static_cast<index_t>(v.size()) != n_)
        detail::fail(where(), "input with extents " + detail::extents_string(v) + " has " +
                                  std::to_string(v.size()) + " elements, the plan " +
                                  std::to_string(n_));
      return;
    }
    bool same = View::rank() == extents_.size();
    for (unsigned r = 0; same && r < View::rank(); ++r)
      same = static_cast<index_t>(v.extent(r)) == extents_[r] &&
             static_cast<index_t>(v.stride(r)) == strides_[r];
    if (!same)
      detail::fail(where(), "input with extents " + detail::extents_string(v) +
                                " is not the planned strided view (extents (" +
                                impl::join(extents_, extents_.size()) + "), strides (" +
                                impl::join(strides_, strides_.size()) + "))");
  }

  /// Everything the view-typed constructor leaves: the launch shape, checked,
  /// the league and the workspace (reduce/dispatch_def.hpp).
  void init();

  /// The plan's kernel on data: the strided kernel for a strided plan (made
  /// only for LayoutStride views with gaps), else the contiguous one.
  void launch_any(const T* data, result_type* result) const;
  /// launch_any into the plan's result, then its value on the host (waits).
  result_type execute_on_host(const T* data) const;

  /// Teams of this kernel the space holds at once: the most threads one team
  /// may have given the kernel's registers and scratch (Kokkos' team_size_max),
  /// in whole teams of threads_, per compute unit.
  template <class F>
  index_t resident_teams(const F& f) const;

  /// Teams for `rows` whole rows: each takes at least K rows (one round of K
  /// loads per work item); at most cap_ teams, or where most_ exceeds it,
  /// whole waves of cap_ teams, one for every cap_ x team_rounds rounds, up to
  /// most_ (whole waves: a last partial wave is a tail). Monotone in rows: an
  /// execute() never launches more teams than league_ partials.
  index_t league_for(index_t rows) const {
    const index_t rounds = impl::ceil_div(rows, Kernel::K);
    index_t cap = cap_;
    if (most_ > cap_)
      cap *= std::clamp<index_t>(rounds / (cap_ * config_.team_rounds), 1, most_ / cap_);
    return impl::clamp_league(rounds, cap);
  }

  /// Launches f (Kernel, or StridedKernel with its runs set) for `rows`
  /// whole rows after `head`: league_for(rows) teams, even shares (or rounds
  /// dealt in turn, where the backend interleaves).
  template <class F>
  void run(F f, const T* data, index_t head, index_t rows, result_type* result,
           const std::string& label) const;

  void launch(const T* data, result_type* result) const;

  /// A strided plan's launch: runs of elements (ReduceStridedKernel).
  void launch_strided(const T* data, result_type* result) const;

  ExecSpace exec_;
  ReduceOptions opts_;
  index_t n_;
  bool strided_ = false;
  bool interleave_ = false;  ///< contiguous views: rounds dealt to the teams in turn
  std::vector<index_t> extents_, strides_;  ///< a strided plan's view
  impl::ReduceRuns runs_;
  std::string label_;
  backends::ReduceConfig config_{};
  int threads_ = 1;
  int groups_ = 1;  ///< G of the kernel's two-level team join
  index_t cap_ = 1;
  index_t most_ = 1;  ///< league_most()
  index_t league_ = 1;
  Kokkos::View<typename Kernel::acc_type*, Mem> partial_;
  Kokkos::View<unsigned, Mem> counter_;
  Kokkos::View<result_type, Mem> result_;
  Kokkos::View<result_type, Kokkos::HostSpace> host_result_;
  impl::ExclusiveUse in_use_;  ///< one host thread at a time in execute()
};

template <class E, class V, class Op>
ReducePlan(const E&, const V&, Op) -> ReducePlan<E, typename V::non_const_value_type, Op>;
template <class E, class V, class Op>
ReducePlan(const E&, const V&, Op, ReduceOptions)
    -> ReducePlan<E, typename V::non_const_value_type, Op>;

}  // namespace tilekit

// The library's compiled plans (impl/common/eti.hpp; cmake/TilekitETI.cmake): the
// production operations of every real pair; CompensatedSum of the floating
// ones.
#define TILEKIT_ETI_REDUCE_PLAN(E, T, Op) \
  extern template class tilekit::ReducePlan<E, T, tilekit::Op>;
#define TILEKIT_ETI_REDUCE_REAL(E, T)                                             \
  TILEKIT_ETI_REDUCE_PLAN(E, T, Sum)                                               \
  TILEKIT_ETI_REDUCE_PLAN(E, T, Min)                                               \
  TILEKIT_ETI_REDUCE_PLAN(E, T, Max) TILEKIT_ETI_REDUCE_PLAN(E, T, MinLoc)        \
  TILEKIT_ETI_REDUCE_PLAN(E, T, MaxLoc)
#define TILEKIT_ETI_REDUCE_FLOATING(E, T) TILEKIT_ETI_REDUCE_PLAN(E, T, CompensatedSum)
TILEKIT_ETI_FOR_EACH_REAL_PAIR(TILEKIT_ETI_REDUCE_REAL)
TILEKIT_ETI_FOR_EACH_FLOATING_PAIR(TILEKIT_ETI_REDUCE_FLOATING)
#undef TILEKIT_ETI_REDUCE_FLOATING
#undef TILEKIT_ETI_REDUCE_REAL
#undef TILEKIT_ETI_REDUCE_PLAN
