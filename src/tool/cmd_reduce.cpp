// `tilekit reduce`: seed 004's table (every step of the ladder, with its time,
// GB/s of bytes read, step and cumulative speedup), Kokkos' parallel_reduce,
// the production reduce (every operation), and in CUDA builds CUB's sum, all
// against the deep_copy of the same buffers measured in the same run. Every
// row is timed for throughput (throughput.hpp: batches of back-to-back calls
// over inputs rotated through twice the cache, median time per call), with
// one call alone between fences beside it (latency_ms). `--teams` takes a list:
// the production rows run once per value (a sweep of the league cap). The
// 2-byte floats (--dtype half,bhalf, GPU builds) run the production reduce
// only (it accumulates them in float), on data exact in their precision.
// `--sub block|every2` reduces a strided window of a larger parent instead (a
// column block of a matrix, every other element): the production rows only,
// beside the deep_copy of n contiguous elements (docs/strided.md).
// This file is the command line: the options, their checks and the dispatch
// to run_case, one space and type of the measurement (reduce_case.hpp), which
// the case units compile (reduce_case_def.hpp).
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common.hpp"
#include "reduce_case.hpp"
#include "subcommand.hpp"

// This file's own names, in a namespace of their own: the command-line units
// compile as one (TILEKIT_TOOL_UNITY), where each subcommand's variants,
// setup and cases would clash. measure_reduce is the family's (reduce_args.hpp).
namespace tilekit::tool::reduce_cmd {

// Every case, declared `extern`: the case units instantiate them.
#include TILEKIT_TOOL_CASES

namespace {

const std::vector<std::string> kVariants = {
    "copy",     "naive",  "strided", "sequential",      "first_add", "unroll_last",
    "multiple", "kokkos", "cub",     "sum",             "sum_compensated",
    "min",      "max",    "minloc",  "maxloc"};

/// int64 is not among the common --dtype types, nor are half and bhalf
/// (GPU builds); reduce accepts them too.
template <class Fn>
void for_each_reduce_dtype(const std::string& which, Fn&& fn) {
  for_each_family_dtype<true, std::int32_t, std::int64_t, float, double>(which,
                                                                         std::forward<Fn>(fn));
}

/// The variants --sub runs: the copy baseline and the production reduce.
const std::vector<std::string> kSubVariants = {"all", "copy", "sum", "sum_compensated",
                                               "min", "max", "minloc", "maxloc"};

Runner setup(CLI::App& app) {
  auto o = make_args<ReduceArgs>(app);
  app.add_option("--n", o->n, "elements (a comma-separated list runs each size)")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  app.add_option("--variant", o->variant,
                 "all, or a comma-separated list of: naive strided sequential first_add "
                 "unroll_last multiple kokkos cub sum sum_compensated min max minloc maxloc")
      ->capture_default_str();
  app.add_option("--team-rows", o->shape.team_rows, "team size (default: the backend's)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--vector", o->shape.vector, "vector length (default: the backend's)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--teams", o->teams,
                 "most teams of the production reduce (a comma-separated list runs each: a "
                 "sweep) and of step 6 (the first value); default: the backend's")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--split", o->shape.split,
                 "production reduce of a contiguous view: backend (its default), contiguous "
                 "(one share of rows per team) or interleaved (rounds dealt to the teams in turn)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, ReduceSplit>{{"backend", ReduceSplit::backend},
                                             {"contiguous", ReduceSplit::contiguous},
                                             {"interleaved", ReduceSplit::interleaved}}));
  app.add_option("--block", o->block, "ladder: work items per team (a power of two)");
  app.add_option("--warp", o->warp, "ladder: width of the unrolled last level");
  add_transfers_option(app, o->transfers);
  app.add_option("--sub", o->sub,
                 "none, block (a column block: --n elements in rows of --sub-cols, in a parent "
                 "with rows of --sub-ld) or every2 (every other element of a parent of 2n): "
                 "the production rows reduce that strided window, named <op>_sub_<kind>")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "block", "every2"}));
  app.add_option("--sub-cols", o->sub_cols, "--sub block: the window's row length")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  app.add_option("--sub-ld", o->sub_ld,
                 "--sub block: the parent's row length (default: --sub-cols + 64)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  return [o]() -> int {
    if (o->sub != "none") {
      if (!o->transfers.empty())
        throw CLI::ValidationError("--sub", "the transfer rows take contiguous input (no --transfers)");
      for (const auto& v : split_list(o->variant))
        if (std::find(kSubVariants.begin(), kSubVariants.end(), v) == kSubVariants.end())
          throw CLI::ValidationError("--sub", "runs the production reduce only, not '" + v + "'");
      for (const std::int64_t n : o->n) (void)sub_window(*o, n);  // throws on a bad window
    }
    const double most = static_cast<double>(*std::max_element(o->n.begin(), o->n.end()));
    // input (under --sub: the parent, at most 2n, and the copy's source), copy baseline
    const double buffers = o->sub == "none" ? 2 : 4;
    return measure_and_finish(*o, measure_reduce,
                              [&](std::size_t es) { return buffers * most * es; });
  };
}

}  // namespace

}  // namespace tilekit::tool::reduce_cmd

namespace tilekit::tool {

bool measure_reduce(const ReduceArgs& o, report::Report& rep) {
  // throws for a type not built, first
  reduce_cmd::for_each_reduce_dtype(o.common.dtype, [](auto) {});
  begin_measurement(o, reduce_cmd::kVariants, rep);
  bool ok = true;
  for_each_space(o.common.space, [&](auto exec) {
    const auto hw = hardware_info(exec);
    reduce_cmd::for_each_reduce_dtype(o.common.dtype, [&](auto tag) {
      for (const std::int64_t n : o.n)
        ok = reduce_cmd::run_case<decltype(exec), decltype(tag)>(o, exec, n, hw, rep) && ok;
    });
  });
  return ok;
}

TILEKIT_SUBCOMMAND(reduce,
                   "parallel reductions: seed 004's six steps, Kokkos, CUB and the production "
                   "reduce vs the copy baseline",
                   reduce_cmd::setup);

}  // namespace tilekit::tool
