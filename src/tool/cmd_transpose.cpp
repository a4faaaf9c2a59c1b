// `tilekit transpose`: every 2-D transpose variant against the deep_copy of
// the same bytes, on the selected spaces and types. This file is the command
// line: the options, their checks and the dispatch to run_space_type, one
// space and type of the measurement (transpose_case.hpp), which the case
// units compile (transpose_case_def.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "common.hpp"
#include "subcommand.hpp"
#include "transpose_case.hpp"

// This file's own names, in a namespace of their own: the command-line units
// compile as one (TILEKIT_TOOL_UNITY), where each subcommand's variants,
// setup and cases would clash. measure_transpose is the family's (transpose_args.hpp).
namespace tilekit::tool::transpose_cmd {

// Every case, declared `extern`: the case units instantiate them.
#include TILEKIT_TOOL_CASES

namespace {

const std::vector<std::string> kVariants = {"copy", "copy_kernel", "naive", "tiled",
                                            "tiled_padded", "inplace_naive", "inplace_blocked",
                                            "inplace_decomposed"};

Runner setup(CLI::App& app) {
  auto o = make_args<TransposeArgs>(app);
  app.add_option("--n", o->n, "columns of the input (and rows, unless --m is given)")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  app.add_option("--m", o->m, "rows of the input (default: --n)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  app.add_option("--variant", o->variant,
                 "all, or a comma-separated list of: copy_kernel naive tiled tiled_padded "
                 "inplace_naive (square only) inplace_blocked (square, or extents sharing a "
                 "divisor of 16 or more) inplace_decomposed")
      ->capture_default_str();
  add_tile_options(app, o->shape, "scratch row padding of padded variants",
                   "tiles each team takes in turn",
                   /*max_tile=*/8192);  // hosts' out-of-place rows (the plans check the rest)
  app.add_option("--slots", o->shape.slots,
                 "inplace_decomposed: workspace slots, teams in flight on lines that do not "
                 "fit in team scratch (default: the backend's, within a quarter of the matrix)")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--workspace", o->shape.workspace,
                 "inplace_blocked on a matrix that is not square: bound on the shuffle's "
                 "workspace, bytes (default: the backend's, within a quarter of the matrix)")
      ->check(CLI::Range(0L, 1L << 40));
  app.add_option("--line-scratch", o->shape.line_scratch,
                 "inplace_decomposed: largest line buffer in team scratch, bytes (0: every "
                 "line through the workspace; default: the backend's)")
      ->check(CLI::Range(0L, 1L << 30));
  add_align_option(app, o->shape.align, "tiled variants on GPUs");
  add_transfers_option(app, o->transfers);
  app.add_option("--sub", o->sub,
                 "out-of-place rows read a strided (LayoutStride) window of a larger input: "
                 "none, block (a column block: rows of --sub-ld elements) or rows2 (every "
                 "other row); rows are labelled <variant>_sub_<kind>")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "block", "rows2"}));
  app.add_option("--sub-ld", o->sub_ld,
                 "--sub block: row length of the parent allocation (default: n + 64)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  return [o]() -> int {
    const double elements = static_cast<double>(o->m > 0 ? o->m : o->n) * static_cast<double>(o->n);
    if (o->sub == "block" && o->sub_ld > 0 && o->sub_ld < o->n)
      throw CLI::ValidationError("--sub-ld", "must be at least --n");
    const double rows = static_cast<double>(o->m > 0 ? o->m : o->n);
    const double parent = o->sub == "none"  ? 0
                          : o->sub == "rows2" ? 2 * elements
                                              : rows * (o->sub_ld > 0 ? o->sub_ld : o->n + 64);
    return measure_and_finish(*o, measure_transpose,
                              [&](std::size_t es) { return (2 * elements + parent) * es; });
  };
}

}  // namespace

}  // namespace tilekit::tool::transpose_cmd

namespace tilekit::tool {

bool measure_transpose(const TransposeArgs& o, report::Report& rep) {
  check_family_dtypes<true, std::int32_t, float, double>(o.common.dtype);
  begin_measurement(o, transpose_cmd::kVariants, rep);
  bool ok = true;
  for_each_space(o.common.space, [&](auto exec) {
    const double peak = hardware_info(exec).peak_gbps;
    auto run = [&](auto tag) {
      ok = transpose_cmd::run_space_type<decltype(exec), decltype(tag)>(o, exec, peak, rep) && ok;
    };
    // common's types, and half / bhalf where Kokkos has them
    for_each_family_dtype<true, std::int32_t, float, double>(o.common.dtype, run);
  });
  return ok;
}

TILEKIT_SUBCOMMAND(transpose, "2-D matrix transpose: every variant vs the copy baseline",
                   transpose_cmd::setup);

}  // namespace tilekit::tool
