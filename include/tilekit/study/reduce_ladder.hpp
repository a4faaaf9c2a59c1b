#pragma once
// Seed 004's reduce ladder, the baseline the tool and the study measure the
// library's reduce against: the six refinement steps of a parallel sum
// (reduce_ladder_kernels.hpp) and Kokkos' parallel_reduce. A plan runs the
// passes of one step (each reduces the previous pass's partials, one per
// team, until one value is left) and owns their workspace.
//
//   tilekit::study::ReduceStepPlan plan(exec, v, tilekit::study::ReduceStep::multiple);
//   auto s = plan.execute(v);   // the sum, on the host (waits)
#include <tilekit/backends/ladder.hpp>
#include <tilekit/reduce.hpp>
#include <tilekit/study/reduce_ladder_kernels.hpp>

#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tilekit::study {

constexpr std::string_view to_string(ReduceStep s) {
  switch (s) {
    case ReduceStep::naive: return "naive";
    case ReduceStep::strided: return "strided";
    case ReduceStep::sequential: return "sequential";
    case ReduceStep::first_add: return "first_add";
    case ReduceStep::unroll_last: return "unroll_last";
    case ReduceStep::multiple: return "multiple";
    case ReduceStep::kokkos: return "kokkos";
  }
  return "?";
}

/// Launch-shape overrides of the ladder; 0 keeps the backend's value (the
/// production reduce's team shape, backends::LadderTraits for the rest).
struct ReduceStepOptions {
  int team_rows = 0;  ///< team size
  int vector = 0;     ///< vector length
  int teams = 0;      ///< step 6: most teams launched
  int block = 0;      ///< work items per team (a power of two)
  int warp = 0;       ///< width of the last level of steps 5 and 6 (a power of two)
  std::string label = "tilekit::reduce";  ///< prefix of the kernel labels
};

/// The ladder's resolved launch shape.
struct ReduceStepConfig {
  int team_rows = 1, vector = 1;
  backends::LadderConfig ladder{};
};

/// Plan of one ladder step summing views of n elements of T into sum_t<T>.
/// Every pass is a launch of the same step; the last one writes the result.
template <class ExecSpace, class T>
class ReduceStepPlan {
  static_assert(!impl::is_half_v<T>, "tilekit::study::ReduceStepPlan: the ladder sums int32, int64, "
                                     "float and double; reduce half_t and bhalf_t with ReducePlan");
  using Mem = typename ExecSpace::memory_space;
  using index_t = impl::index_t;

 public:
  using value_type = T;
  using result_type = sum_t<T>;

  template <class View>
  ReduceStepPlan(const ExecSpace& exec, const View& v, ReduceStep step = ReduceStep::multiple,
                 ReduceStepOptions opts = {})
      : exec_(exec), step_(step), opts_(std::move(opts)), n_(static_cast<index_t>(v.size())) {
    check(v);
    plan(detail::extents_string(v));
  }

  /// result() = the sum of v, asynchronously on the plan's execution space.
  template <class View, class ResultView>
  void execute(const View& v, const ResultView& result) const {
    impl::check_reduce_result<ExecSpace, result_type, ResultView>();
    check(v);
    const impl::ExclusiveUse::Scope one_thread(in_use_, where());
    launch(v.data(), result.data());
  }

  /// The sum of v, on the host: waits for the plan's execution space.
  template <class View>
  result_type execute(const View& v) const {
    check(v);
    const impl::ExclusiveUse::Scope one_thread(in_use_, where());
    launch(v.data(), result_.data());
    return impl::result_on_host(exec_, host_result_, result_);
  }

  ReduceStep step() const { return step_; }
  const ReduceStepConfig& config() const { return config_; }
  /// Launches per execution (0 for the Kokkos baseline, which is one parallel_reduce).
  std::size_t passes() const { return passes_.size(); }

  /// Most rounded additions on any element's path to the result (every pass:
  /// its load, the tree of log2(block) levels, and 2 for the last level); for
  /// the Kokkos baseline, whose order is not documented, n.
  index_t depth() const {
    if (step_ == ReduceStep::kokkos) return n_;
    index_t h = 0;
    for (const auto& p : passes_) {
      index_t chain = step_ >= ReduceStep::first_add ? 1 : 0;
      if (step_ == ReduceStep::multiple)
        chain = 1 + impl::ceil_div(p.n, 2 * static_cast<index_t>(config_.ladder.block) * p.league);
      h += chain + impl::ceil_log2(config_.ladder.block) + 2;
    }
    return h;
  }

  /// gamma_h * sum_abs for float sums (h = depth()), 0 for integers.
  double error_bound(double sum_abs) const {
    if constexpr (std::is_floating_point_v<T>) {
      return impl::gamma_of(static_cast<double>(depth()), std::numeric_limits<T>::epsilon() / 2) *
             sum_abs;
    } else {
      (void)sum_abs;
      return 0;
    }
  }

 private:
  std::string where() const { return opts_.label; }

  /// The production reduce's team shape and the backend's ladder data, with
  /// the caller's overrides.
  void resolve() {
    const auto& o = opts_;
    if (o.team_rows < 0 || o.vector < 0 || o.teams < 0 || o.block < 0 || o.warp < 0)
      detail::fail(where(),
                   "team_rows, vector, teams, block and warp must not be negative"
                   " (0: the backend's choice)");
    const backends::ReduceConfig r = backends::Traits<ExecSpace>::reduce_config();
    config_ = {r.team_rows, r.vector, backends::LadderTraits<ExecSpace>::config()};
    if (o.team_rows > 0) config_.team_rows = o.team_rows;
    if (o.vector > 0) config_.vector = o.vector;
    if (o.block > 0) config_.ladder.block = o.block;
    if (o.warp > 0) config_.ladder.warp = o.warp;
  }

  template <class View>
  void check(const View& v) const {
    impl::check_planned_input<ExecSpace, T>(where(), v, n_);
  }

  template <class Fn>
  void with_step(Fn&& fn) const {
    using S = ReduceStep;
    switch (step_) {
      case S::naive: fn(std::integral_constant<S, S::naive>{}); break;
      case S::strided: fn(std::integral_constant<S, S::strided>{}); break;
      case S::sequential: fn(std::integral_constant<S, S::sequential>{}); break;
      case S::first_add: fn(std::integral_constant<S, S::first_add>{}); break;
      case S::unroll_last: fn(std::integral_constant<S, S::unroll_last>{}); break;
      case S::multiple: fn(std::integral_constant<S, S::multiple>{}); break;
      case S::kokkos: break;
    }
  }

  template <ReduceStep St, class In>
  void run_pass(const In* in, result_type* out, index_t n, index_t league, bool dry_run) const {
    using F = ReduceStepKernel<ExecSpace, In, result_type, St>;
    const F f{in, out, n, config_.ladder.block, config_.ladder.warp};
    const std::size_t scratch = F::scratch_bytes(config_.ladder.block);
    if (dry_run) {  // throws for a shape or scratch size the space cannot launch
      impl::team_policy(where(), exec_, f, static_cast<int>(league),
                        backends::TileConfig{0, config_.team_rows, config_.vector, 0}, scratch);
      return;
    }
    Kokkos::TeamPolicy<ExecSpace> policy(exec_, static_cast<int>(league), config_.team_rows,
                                         config_.vector);
    policy.set_scratch_size(0, Kokkos::PerTeam(scratch));
    Kokkos::parallel_for(where() + "_" + std::string(to_string(St)), policy, f);
  }

  /// The passes and their workspace (the constructor's work after the view's
  /// checks; `extents`: the input's, for messages).
  void plan(const std::string& extents);
  /// result = the sum of data's n_ elements, on the plan's space.
  void launch(const T* data, result_type* result) const;

  struct Pass {
    index_t n, league;
  };

  ExecSpace exec_;
  ReduceStep step_;
  ReduceStepOptions opts_;
  index_t n_;
  ReduceStepConfig config_{};
  std::vector<Pass> passes_;
  Kokkos::View<result_type*, Mem> buf_[2];
  Kokkos::View<result_type, Mem> result_;
  Kokkos::View<result_type, Kokkos::HostSpace> host_result_;
  impl::ExclusiveUse in_use_;  ///< one host thread at a time in execute()
};

// The plan's passes and launches, out of line: the library holds them for
// its pairs (extern declarations below; cmake/TilekitETI.cmake's study family),
// and a non-inline member of an `extern template` specialization is never
// instantiated in a program's unit (impl/common/eti.hpp).
template <class ExecSpace, class T>
void ReduceStepPlan<ExecSpace, T>::plan(const std::string& extents) {
  resolve();
  if (step_ == ReduceStep::kokkos) {
    result_ = Kokkos::View<result_type, Mem>(Kokkos::view_alloc(exec_, where() + " result"));
    host_result_ = Kokkos::View<result_type, Kokkos::HostSpace>(where() + " on host");
    return;
  }
  const int B = config_.ladder.block, w = config_.ladder.warp;
  auto pow2 = [](int x) { return x > 0 && (x & (x - 1)) == 0; };
  if (!pow2(B) || !pow2(w))
    detail::fail(where(), "block " + std::to_string(B) + " and warp " + std::to_string(w) +
                              " must be powers of two");
  if (step_ >= ReduceStep::unroll_last && B < 2 * w)
    detail::fail(where(), "block " + std::to_string(B) + " must be at least twice the warp " +
                              std::to_string(w));
  const index_t cap =
      opts_.teams > 0
          ? opts_.teams
          : std::max<index_t>(1, static_cast<index_t>(config_.ladder.teams_per_unit) *
                                     exec_.concurrency() /
                                     (static_cast<index_t>(config_.team_rows) * config_.vector));
  const index_t per_team = (step_ >= ReduceStep::first_add ? 2 : 1) * static_cast<index_t>(B);
  index_t n = n_;
  do {
    index_t league = impl::ceil_div(n, per_team);
    league = step_ == ReduceStep::multiple ? impl::clamp_league(league, cap)
                                           : (league < 1 ? 1 : league);
    if (league > std::numeric_limits<int>::max())
      detail::fail(where(), "input with extents " + extents +
                                " needs more than 2^31 - 1 teams in step " +
                                std::string(to_string(step_)));
    passes_.push_back({n, league});
    n = league;
  } while (n > 1);
  // Validate the launch shape (team size, scratch) before allocating.
  with_step([&](auto st) { run_pass<decltype(st)::value, T>(nullptr, nullptr, 0, 1, true); });
  for (std::size_t p = 0; p + 1 < passes_.size() && p < 2; ++p)
    buf_[p] = Kokkos::View<result_type*, Mem>(
        Kokkos::view_alloc(exec_, Kokkos::WithoutInitializing, where() + " partials"),
        passes_[p].league);
  result_ = Kokkos::View<result_type, Mem>(Kokkos::view_alloc(exec_, where() + " result"));
  host_result_ = Kokkos::View<result_type, Kokkos::HostSpace>(where() + " on host");
}

template <class ExecSpace, class T>
void ReduceStepPlan<ExecSpace, T>::launch(const T* data, result_type* result) const {
  if (step_ == ReduceStep::kokkos) {
    using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>;
    Kokkos::parallel_reduce(where() + "_kokkos", Policy(exec_, 0, n_),
                            ReduceKokkosSum<T, result_type>{data},
                            Kokkos::Sum<result_type, Mem>(
                            Kokkos::View<result_type, Mem, Kokkos::MemoryUnmanaged>(result)));
    return;
  }
  with_step([&](auto st) {
    constexpr ReduceStep St = decltype(st)::value;
    for (std::size_t p = 0; p < passes_.size(); ++p) {
      const bool last = p + 1 == passes_.size();
      result_type* out = last ? result : buf_[p % 2].data();
      if (p == 0)
        run_pass<St, T>(data, out, passes_[p].n, passes_[p].league, false);
      else
        run_pass<St, result_type>(buf_[(p - 1) % 2].data(), out, passes_[p].n,
                                  passes_[p].league, false);
    }
  });
}

template <class E, class V>
ReduceStepPlan(const E&, const V&) -> ReduceStepPlan<E, typename V::non_const_value_type>;
template <class E, class V>
ReduceStepPlan(const E&, const V&, ReduceStep)
    -> ReduceStepPlan<E, typename V::non_const_value_type>;
template <class E, class V>
ReduceStepPlan(const E&, const V&, ReduceStep, ReduceStepOptions)
    -> ReduceStepPlan<E, typename V::non_const_value_type>;

}  // namespace tilekit::study

// The library's compiled ladders (impl/common/eti.hpp): the pairs of the
// types the ladder sums, int32, int64, float and double (study/definitions.hpp).
#define TILEKIT_ETI_STUDY_LADDER(E, T) extern template class tilekit::study::ReduceStepPlan<E, T>;
TILEKIT_ETI_FOR_EACH_STUDY_REDUCE_PAIR(TILEKIT_ETI_STUDY_LADDER)
#undef TILEKIT_ETI_STUDY_LADDER
