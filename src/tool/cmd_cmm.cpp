// `tilekit cmm`: checkered matrix multiplication (seed 001). Every kernel
// variant against the deep_copy of the same bytes (time, GFLOP/s, effective
// bandwidth), then the host <-> device breakdown of one product - allocation,
// host-to-device, kernel, device-to-host - with pageable, pinned and unified
// memory (cmm_transfer.hpp).
// This file is the command line: the options, their checks and the dispatch
// to run_space_type, one space and type of the measurement (cmm_case.hpp),
// which the case units compile (cmm_case_def.hpp).
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "cmm_case.hpp"
#include "common.hpp"
#include "subcommand.hpp"

// This file's own names, in a namespace of their own: the command-line units
// compile as one (TILEKIT_TOOL_UNITY), where each subcommand's variants,
// setup and cases would clash. measure_cmm is the family's (cmm_args.hpp).
namespace tilekit::tool::cmm_cmd {

// Every case, declared `extern`: the case units instantiate them.
#include TILEKIT_TOOL_CASES

namespace {

const std::vector<std::string> kVariants = {"copy",     "naive",  "tiled",   "blocked",
                                            "pageable", "pinned", "unified", "unified_prefetch"};

Runner setup(CLI::App& app) {
  auto o = make_args<CmmArgs>(app);
  app.add_option("--n", o->n, "edge N of the N x N inputs (even); C is N/2 x N")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{2}, std::int64_t{1} << 20));
  app.add_option("--variant", o->variant,
                 "all, or a comma-separated list of: naive tiled blocked pageable pinned "
                 "unified unified_prefetch (copy is always measured)")
      ->capture_default_str();
  app.add_option("--team-rows", o->shape.team_rows, "work items along tile rows (default: backend's)");
  app.add_option("--team-cols", o->shape.team_cols, "work items along column sets (default: backend's)");
  app.add_option("--threads", o->shape.threads, "threads per team, dividing the work items");
  app.add_option("--k-step", o->shape.k_step, "k staged per step, even (default: backend's)");
  app.add_option("--pad", o->shape.pad, "scratch row padding (default: backend's)");
  app.add_option("--group", o->shape.group, "tile rows visited together (default: backend's)");
  return [o]() -> int {
    if (o->n % 2 != 0)
      throw CLI::ValidationError("--n", "checkered matrix multiplication needs an even N");
    const std::string dtypes = o->common.dtype == "all" ? "float,double" : o->common.dtype;
    for (const auto& d : split_list(dtypes))
      if (d != "float" && d != "double")
        throw CLI::ValidationError("--dtype", "cmm computes in float or double, not '" + d + "'");
    const double nn = static_cast<double>(o->n) * static_cast<double>(o->n);
    return measure_and_finish(*o, measure_cmm,
                              [&](std::size_t es) { return 2.5 * nn * es; });  // A, B and C
  };
}

}  // namespace

}  // namespace tilekit::tool::cmm_cmd

namespace tilekit::tool {

bool measure_cmm(const CmmArgs& o, report::Report& rep) {
  check_variants(o.variant, cmm_cmd::kVariants);
  if (o.n % 2 != 0)
    throw CLI::ValidationError("--n", "checkered matrix multiplication needs an even N");
  const std::string dtypes = o.common.dtype == "all" ? "float,double" : o.common.dtype;
  for (const auto& d : split_list(dtypes))
    if (d != "float" && d != "double")
      throw CLI::ValidationError("--dtype", "cmm computes in float or double, not '" + d + "'");
  check_family_dtypes<false, float, double>(dtypes);  // the ones this tool is built with
  begin_report(o.common, "", rep);
  bool ok = true;
  for_each_space(o.common.space, [&](auto exec) {
    const double peak = hardware_info(exec).peak_gbps;
    for_each_family_dtype<false, float, double>(dtypes, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>)
        ok = cmm_cmd::run_space_type<std::decay_t<decltype(exec)>, T>(o, exec, peak, rep) && ok;
    });
  });
  return ok;
}

TILEKIT_SUBCOMMAND(cmm, "checkered matrix multiplication: variants, copy baseline, transfers",
                   cmm_cmd::setup);

}  // namespace tilekit::tool
