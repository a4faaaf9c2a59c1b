#pragma once
// Measured launch shapes (as cuTT's cuttPlanMeasure and HPTT's patient mode):
// run the problem with the plan's own choice (the caller's base options as
// given: the backend's defaults, and what the plan makes of them, such as a
// host permute's transpose method) and with each candidate launch shape the
// backend lists, on the caller's execution space instance and views, and
// keep the fastest. The
// choice is cached per process for (space, device, value type, variant,
// extents, layout[, permutation]), so a second call with the same problem
// returns at once.
//
//   auto t = tilekit::tune_transpose(exec, in, out);   // out = in^T, tried k ways
//   tilekit::TransposePlan plan(exec, in, out, t.variant, t.best);
//
//   auto p = tilekit::tune_permute(exec, in, out, {2, 0, 1});
//   tilekit::PermutePlan plan(exec, in, out, {2, 0, 1}, tilekit::PermuteVariant::fused, p.best);
//
// Every candidate computes the whole result, so `out` holds the transposed
// (permuted, with alpha = 1 and beta = 0) input afterwards whichever wins;
// the views are checked like the plans check them, before anything runs.
// Candidates the space cannot launch (too much scratch, too many threads for
// the kernel's registers) are listed with the reason and skipped. Tuning
// fences `exec`; the cache is shared by all threads (a mutex).
#include <tilekit/permute.hpp>
#include <tilekit/transpose.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <string>
#include <typeinfo>
#include <vector>

namespace tilekit {

struct TuneSettings {
  int reps = 3;           ///< timed calls per candidate (after one untimed call); the minimum counts
  bool use_cache = true;  ///< false: measure again and replace the cached choice
};

/// What tuning tried and chose. `trials` is empty when the choice came from the cache.
template <class Options>
struct TuneResult {
  struct Trial {
    Options options;
    double ms = 0;        ///< fastest of the timed calls; 0 when it could not run
    std::string problem;  ///< why the candidate did not run (it cannot launch, or it
                          ///< launches as an earlier trial did); "" when it ran
  };
  Options best;
  double best_ms = 0;  ///< the winner's time when measured now; 0 from the cache
  bool from_cache = false;
  std::vector<Trial> trials;
};

namespace impl {

/// The process-wide cache of tuned options, keyed by a problem string.
template <class Options>
struct TuneCache {
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static std::map<std::string, Options>& map() {
    static std::map<std::string, Options> m;
    return m;
  }
};

template <class ExecSpace, class View>
std::string tune_key(const char* op, const ExecSpace& exec, const View& v, const std::string& more) {
  std::string k = std::string(op) + "|" + ExecSpace::name() + "|" +
                  backends::Traits<ExecSpace>::hardware(exec).device + "|" +
                  std::to_string(exec.concurrency()) + "|" +
                  typeid(typename View::non_const_value_type).name() + "|" +
                  (is_left_v<View> ? "left" : "right") + "|";
  for (std::size_t r = 0; r < View::rank(); ++r) k += std::to_string(v.extent(r)) + ",";
  return k + "|" + more;
}

/// Times fn() `reps` times after one untimed call; the fastest, in ms.
template <class ExecSpace, class Fn>
double fastest_ms(const ExecSpace& exec, int reps, Fn&& fn) {
  fn();
  exec.fence();
  double best = 0;
  for (int r = 0; r < reps; ++r) {
    Kokkos::Timer t;
    fn();
    exec.fence();
    const double ms = t.seconds() * 1e3;
    if (r == 0 || ms < best) best = ms;
  }
  return best;
}

/// What a plan launches (its resolved shape, tiles a team, method, and the
/// work items of a permutation's tiled team: twice the config's where the
/// plan took the backend's wide box, PermutePlan::tiled_team_size): trials
/// with equal ones run the same kernels, so a default trial with the wide box
/// and a candidate of the same tile and team with the default box both run.
template <class Plan>
std::array<int, 7> launch_of(const Plan& p) {
  const backends::TileConfig& c = p.config();
  int per_team = c.tiles_per_team, method = 0, team = 0;
  if constexpr (requires { p.tiles_per_team(); }) per_team = p.tiles_per_team();
  if constexpr (requires { p.method(); }) method = static_cast<int>(p.method()) + 1;
  if constexpr (requires { p.tiled_team_size(); }) team = p.tiled_team_size();
  return {c.tile, c.team_rows, c.vector, c.pad, per_team, method, team};
}

/// Runs `base` as given, then every candidate, through make_plan / run,
/// records the trials and keeps the fastest; the cache is consulted first
/// and filled last.
template <class Options, class ExecSpace, class MakePlan, class Run>
TuneResult<Options> tune(const std::string& where, const ExecSpace& exec, const std::string& key,
                         const std::vector<backends::TileConfig>& candidates, const Options& base,
                         const TuneSettings& s, MakePlan&& make_plan, Run&& run) {
  if (s.reps < 1) detail::fail(where, "reps must be at least 1 (got " + std::to_string(s.reps) + ")");
  TuneResult<Options> res;
  if (s.use_cache) {
    std::lock_guard<std::mutex> lock(TuneCache<Options>::mutex());
    auto it = TuneCache<Options>::map().find(key);
    if (it != TuneCache<Options>::map().end()) {
      res.best = it->second;
      res.from_cache = true;
      return res;
    }
  }
  std::vector<Options> tries{base};
  for (const auto& c : candidates) {
    Options o = base;
    o.tile = c.tile;
    o.team_rows = c.team_rows;
    o.vector = c.vector;
    if constexpr (requires { o.tiles_per_team; }) o.tiles_per_team = c.tiles_per_team;
    tries.push_back(o);
  }
  std::vector<std::array<int, 7>> launched(tries.size(), std::array<int, 7>{});
  for (std::size_t k = 0; k < tries.size(); ++k) {
    typename TuneResult<Options>::Trial trial;
    trial.options = tries[k];
    try {
      auto plan = make_plan(trial.options);  // throws when the space cannot launch it
      launched[k] = launch_of(plan);
      const auto same = std::find(launched.begin(), launched.begin() + k, launched[k]);
      if (same != launched.begin() + k)  // a candidate equal to the plan's own choice, say
        trial.problem = "the launch of trial " + std::to_string(same - launched.begin()) +
                        " (not run again)";
      else
        trial.ms = fastest_ms(exec, s.reps, [&] { run(plan); });
    } catch (const invalid_argument& e) {
      trial.problem = e.what();
    }
    res.trials.push_back(std::move(trial));
  }
  const typename TuneResult<Options>::Trial* win = nullptr;
  for (const auto& t : res.trials)
    if (t.problem.empty() && (!win || t.ms < win->ms)) win = &t;
  if (!win) detail::fail(where, "no candidate launch shape runs on " + std::string(ExecSpace::name()));
  res.best = win->options;
  res.best_ms = win->ms;
  std::lock_guard<std::mutex> lock(TuneCache<Options>::mutex());
  TuneCache<Options>::map()[key] = res.best;
  return res;
}

}  // namespace impl

/// Out-of-place transpose with the launch shape measured (tiled variants).
/// The result's `best` goes into TransposePlan / transpose as its options.
template <class ExecSpace, class InView, class OutView>
TuneResult<TransposeOptions> tune_transpose(
    const ExecSpace& exec, const InView& in, const OutView& out,
    TransposeVariant variant = TransposeVariant::tiled_padded, const TransposeOptions& base = {},
    const TuneSettings& s = {}) {
  using T = typename OutView::non_const_value_type;
  const std::string where = base.label + " (tune)";
  // Checks the views as the plan does, before anything runs.
  TransposePlan<ExecSpace, T>(exec, in, out, variant, base);
  const auto key = impl::tune_key("transpose", exec, in, std::string(to_string(variant)));
  return impl::tune(
      where, exec, key, backends::Traits<ExecSpace>::transpose_candidates(sizeof(T)), base, s,
      [&](const TransposeOptions& o) { return TransposePlan<ExecSpace, T>(exec, in, out, variant, o); },
      [&](const auto& plan) { plan.execute(in, out); });
}

/// Permute (out = permute(in, perm), alpha 1, beta 0) with the tiled kernel's
/// launch shape measured. Permutations that fuse to a copy or to whole rows
/// have no tile to tune; every candidate then runs the same kernel.
template <class ExecSpace, class InView, class OutView>
TuneResult<PermuteOptions> tune_permute(const ExecSpace& exec, const InView& in,
                                        const OutView& out, const std::vector<int>& perm,
                                        const PermuteOptions& base = {},
                                        const TuneSettings& s = {}) {
  using T = typename OutView::non_const_value_type;
  const std::string where = base.label + " (tune)";
  PermutePlan<ExecSpace, T>(exec, in, out, perm, PermuteVariant::fused, base);
  std::string p;
  for (int d : perm) p += std::to_string(d) + ",";
  const auto key = impl::tune_key("permute", exec, in, p);
  return impl::tune(
      where, exec, key, backends::Traits<ExecSpace>::permute_candidates(sizeof(T)), base, s,
      [&](const PermuteOptions& o) {
        return PermutePlan<ExecSpace, T>(exec, in, out, perm, PermuteVariant::fused, o);
      },
      [&](const auto& plan) { plan.execute(in, out, T(1), T(0)); });
}

}  // namespace tilekit
