#pragma once
// Measured launch shapes (as cuTT's cuttPlanMeasure and HPTT's patient mode):
// run the problem with the plan's own choice (the caller's base options as
// given: the backend's defaults, and what the plan makes of them, such as a
// host permute's transpose method) and with each candidate launch shape the
// backend lists, on the caller's execution space instance and views, and
// keep the fastest. The choice is kept in the process's wisdom per device
// (execution space, device name, concurrency), value type and problem (the
// operation with its variant, and the shape the kernels see: the transpose's
// row-major matrix, the permutation's fused extents and permutation), so a
// second call with the same problem returns at once; save_wisdom and
// load_wisdom keep it across processes (as FFTW's wisdom), for one device.
//
//   auto t = tilekit::tune_transpose(exec, in, out);   // out = in^T, tried k ways
//   tilekit::TransposePlan plan(exec, in, out, tilekit::TransposeVariant::tiled_padded, t.best);
//
//   auto p = tilekit::tune_permute(exec, in, out, {2, 0, 1});
//   tilekit::PermutePlan plan(exec, in, out, {2, 0, 1}, tilekit::PermuteVariant::fused, p.best);
//
//   tilekit::load_wisdom(exec, "tilekit.wisdom");   // before tuning: known problems
//   ...                                             // come back at once
//   tilekit::save_wisdom(exec, "tilekit.wisdom");   // after: what this run measured
//
// Every candidate computes the whole result, so `out` holds the transposed
// (permuted, with alpha = 1 and beta = 0) input afterwards whichever wins;
// the views are checked like the plans check them, before anything runs.
// Candidates the space cannot launch (too much scratch, too many threads for
// the kernel's registers) are listed with the reason and skipped. Tuning
// fences `exec`; the wisdom is shared by all threads (a mutex).
#include <tilekit/config.hpp>
#include <tilekit/impl/common/wisdom.hpp>
#include <tilekit/permute.hpp>
#include <tilekit/transpose.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tilekit {

struct TuneSettings {
  int reps = 3;           ///< timed calls per candidate (after one untimed call); the minimum counts
  bool use_cache = true;  ///< false: measure again and replace the choice in the wisdom
};

/// What tuning tried and chose. `trials` is empty when the choice came from
/// the process's wisdom (measured before, or loaded: from_cache).
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

/// The device key of exec's wisdom (WisdomDevice).
template <class ExecSpace>
WisdomDevice wisdom_device(const ExecSpace& exec) {
  return {ExecSpace::name(), backends::Traits<ExecSpace>::hardware(exec).device,
          static_cast<long>(exec.concurrency())};
}

/// The header this build writes, and reads only, for device d.
inline std::vector<std::string> wisdom_header_of(const WisdomDevice& d) {
  return wisdom_header(d, TILEKIT_VERSION_STRING, std::to_string(KOKKOS_VERSION));
}

/// A problem's wisdom key: operation, value type, variant and shape class.
template <class T>
std::string problem_key(const char* op, const std::string& variant, const std::string& shape) {
  return std::string(op) + '\t' + wisdom_type_name<T>() + '\t' + variant + '\t' + shape;
}

/// The transpose's shape class: the row-major matrix its kernels move, and
/// the strides of views with gaps.
inline std::string transpose_shape_class(const TransposeGeom& g) {
  std::string s = std::to_string(g.m) + " x " + std::to_string(g.n);
  if (g.si1 != 1 || g.so1 != 1 || g.si0 != g.n || g.so0 != g.m)
    s += " strides (" + std::to_string(g.si0) + ", " + std::to_string(g.si1) + ") (" +
         std::to_string(g.so0) + ", " + std::to_string(g.so1) + ")";
  return s;
}

/// The permute's shape class: the fused extents and permutation its kernels
/// move, and the strides of views with gaps.
inline std::string permute_shape_class(const PermuteShape& f) {
  std::string s = f.to_string();
  if (!f.contiguous())
    s += " strides (" + join(f.si, f.rank) + ") (" + join(f.so, f.rank) + ")";
  return s;
}

template <class Options>
TunedLaunch launch_fields(const Options& o) {
  TunedLaunch l{o.tile, o.team_rows, o.vector, 0};
  if constexpr (requires { o.tiles_per_team; }) l.tiles_per_team = o.tiles_per_team;
  return l;
}

template <class Options>
Options with_launch(Options o, const TunedLaunch& l) {
  o.tile = l.tile;
  o.team_rows = l.team_rows;
  o.vector = l.vector;
  if constexpr (requires { o.tiles_per_team; }) o.tiles_per_team = l.tiles_per_team;
  return o;
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
/// records the trials and keeps the fastest; the process's wisdom for
/// (device, problem) is consulted first and filled last.
template <class Options, class ExecSpace, class MakePlan, class Run>
TuneResult<Options> tune(const std::string& where, const ExecSpace& exec, const std::string& device,
                         const std::string& problem,
                         const std::vector<backends::TileConfig>& candidates, const Options& base,
                         const TuneSettings& s, MakePlan&& make_plan, Run&& run) {
  if (s.reps < 1) detail::fail(where, "reps must be at least 1 (got " + std::to_string(s.reps) + ")");
  TuneResult<Options> res;
  using Store = WisdomStore;
  if (s.use_cache) {
    std::optional<Store::Entry> hit;
    {
      std::lock_guard<std::mutex> lock(Store::mutex());
      auto& problems = Store::map()[device];
      if (auto it = problems.find(problem); it != problems.end()) hit = it->second;
    }
    if (hit) {
      res.best = with_launch(base, hit->launch);
      // An entry read from a file is used once the plan takes it (else it is
      // dropped and the problem measured).
      bool usable = true;
      if (hit->from_file) {
        try {
          make_plan(res.best);
        } catch (const invalid_argument&) {
          usable = false;
        }
        std::lock_guard<std::mutex> lock(Store::mutex());
        auto& problems = Store::map()[device];
        if (usable) problems[problem].from_file = false;
        else problems.erase(problem);
      }
      if (usable) {
        res.from_cache = true;
        return res;
      }
      res.best = {};
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
  std::lock_guard<std::mutex> lock(Store::mutex());
  Store::map()[device][problem] = {launch_fields(res.best), false};
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
  const auto problem = impl::problem_key<T>("transpose", std::string(to_string(variant)),
                                            impl::transpose_shape_class(impl::transpose_geom(in, out)));
  return impl::tune(
      where, exec, impl::wisdom_device(exec).key(), problem,
      backends::Traits<ExecSpace>::transpose_candidates(sizeof(T)), base, s,
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
  const PermutePlan<ExecSpace, T> checked(exec, in, out, perm, PermuteVariant::fused, base);
  const auto problem =
      impl::problem_key<T>("permute", "fused", impl::permute_shape_class(checked.fused_shape()));
  return impl::tune(
      where, exec, impl::wisdom_device(exec).key(), problem,
      backends::Traits<ExecSpace>::permute_candidates(sizeof(T)), base, s,
      [&](const PermuteOptions& o) {
        return PermutePlan<ExecSpace, T>(exec, in, out, perm, PermuteVariant::fused, o);
      },
      [&](const auto& plan) { plan.execute(in, out, T(1), T(0)); });
}

/// Writes the process's wisdom for exec's device (what tuning measured on it,
/// and what was loaded for it and used or not) to `path`, replacing the file
/// when it is complete; returns the entries written. Throws
/// tilekit::invalid_argument when the file cannot be written.
template <class ExecSpace>
int save_wisdom(const ExecSpace& exec, const std::string& path) {
  const impl::WisdomDevice dev = impl::wisdom_device(exec);
  impl::WisdomStore::Problems problems;
  {
    std::lock_guard<std::mutex> lock(impl::WisdomStore::mutex());
    problems = impl::WisdomStore::map()[dev.key()];
  }
  if (!impl::write_wisdom(path, impl::wisdom_header_of(dev), problems))
    detail::fail("tilekit::save_wisdom", "cannot write the wisdom file " + path);
  return static_cast<int>(problems.size());
}

/// Reads a wisdom file into the process's wisdom for exec's device: taken
/// only when it was written by this build (format, tilekit and Kokkos
/// versions) for this device (execution space, device name, concurrency) and
/// every entry parses, else ignored whole with a warning (returned, and
/// written to std::cerr). Problems the process has measured keep their own
/// launch; an entry read is checked when tuning first uses it. A file that
/// does not exist is not an error (found false, no warning).
template <class ExecSpace>
WisdomLoad load_wisdom(const ExecSpace& exec, const std::string& path) {
  const impl::WisdomDevice dev = impl::wisdom_device(exec);
  impl::WisdomStore::Problems read;
  WisdomLoad res = impl::read_wisdom(path, impl::wisdom_header_of(dev), read);
  if (!res.warning.empty()) {
    std::cerr << res.warning << std::endl;
    return res;
  }
  std::lock_guard<std::mutex> lock(impl::WisdomStore::mutex());
  auto& problems = impl::WisdomStore::map()[dev.key()];
  res.entries = 0;
  for (const auto& [problem, e] : read)
    if (problems.emplace(problem, e).second) ++res.entries;
  return res;
}

/// Forgets every tuned launch shape of the process, for every device.
inline void forget_wisdom() {
  std::lock_guard<std::mutex> lock(impl::WisdomStore::mutex());
  impl::WisdomStore::map().clear();
}

}  // namespace tilekit
