// `tilekit permute`: N-D permutations (one, or every one of the shape) through
// every variant, against the deep_copy of the same bytes, on the selected
// spaces and types. Every result is checked against a host reference. With
// --out-dtype or --conj (complex types) the rows are permute_convert.cpp's.
// This file is the command line: the options, their checks and the dispatch
// to run_case, one space and type of the measurement (permute_case.hpp),
// which the case units compile (permute_case_def.hpp).
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "permute_case.hpp"
#include "permute_common.hpp"
#include "permute_convert.hpp"
#include "subcommand.hpp"

// This file's own names, in a namespace of their own: the command-line units
// compile as one (TILEKIT_TOOL_UNITY), where each subcommand's variants,
// setup and cases would clash. measure_permute is the family's (permute_args.hpp).
namespace tilekit::tool::permute_cmd {

// Every case, declared `extern`: the case units instantiate them.
#include TILEKIT_TOOL_CASES

namespace {

using index_t = std::int64_t;

/// The seed's copy kernels are its simple and shared kernels with the
/// identity permutation: rows "copy_simple" and "copy_shared".
const std::vector<std::string> kVariants = {
    "copy_simple", "copy_shared", "naive", "simple", "simple_templated",
    "shared", "shared_templated", "shared_bank_free", "fused"};

/// fn(T{}) for every selected type; complex types beside common's three.
template <class Fn>
void for_each_type(const std::string& which, Fn&& fn) {
  for_each_family_dtype<true, std::int32_t, float, double, Kokkos::complex<float>,
                        Kokkos::complex<double>>(which, std::forward<Fn>(fn));
}

Runner setup(CLI::App& app) {
  auto o = make_args<PermuteArgs>(app);
  app.add_option("--shape", o->shape, "input extents, comma-separated (rank 1 to 8)")
      ->capture_default_str();
  app.add_option("--perm", o->perms,
                 "output dim k is input dim perm[k] (comma-separated), or all; may be repeated")
      ->capture_default_str();
  app.add_option("--variant", o->variant,
                 "all, or a comma-separated list of: copy_simple copy_shared naive simple "
                 "simple_templated shared shared_templated shared_bank_free fused")
      ->capture_default_str();
  app.add_option("--layout", o->layout, "right | left")->capture_default_str()->check(
      CLI::IsMember({"right", "left"}));
  add_tile_options(app, o->launch, "scratch row padding of the tiled kernel",
                   "team steps (tiles, or rows' units) each team takes in turn",
                   /*max_tile=*/1024);  // the permute plan's bound
  add_align_option(app, o->launch.align, "the tiled method on GPUs");
  app.description(app.get_description() +
                  " (--dtype also takes cfloat and cdouble, Kokkos::complex; all = all five)");
  add_transfers_option(app, o->transfers);
  app.add_option("--out-dtype", o->out_dtype,
                 "output type (default: the input's): the converting permute, fused variant, "
                 "rows in->out counting the bytes of both types (the tool's pairs: "
                 "float<->double, int32->float, float<->half, float<->bhalf)");
  app.add_option("--alpha", o->alpha, "out = alpha * permute(in) + beta * out")
      ->capture_default_str();
  app.add_option("--beta", o->beta, "beta != 0 also reads the output (its bytes count)")
      ->capture_default_str();
  app.add_flag("--conj", o->conj,
               "conjugate complex elements (the tool: cfloat; fused variant; a no-op for real "
               "types)");
  app.add_option("--sub", o->sub,
                 "read the input from a strided window of a larger parent: none, block (the "
                 "fastest dimension's parent extent is n + 64) or rows2 (every other index of "
                 "the second-fastest dimension); naive and fused rows, labelled "
                 "<variant>_sub_<kind>")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "block", "rows2"}));
  return [o]() -> int {
    std::vector<index_t> ext;
    for (const auto& s : split_list(o->shape)) ext.push_back(std::stoll(s));
    if (ext.empty() || ext.size() > 8)
      throw CLI::ValidationError("--shape", "needs 1 to 8 extents");
    for (auto e : ext)
      if (e < 1) throw CLI::ValidationError("--shape", "extents must be positive");
    for (const auto& p : permutations(*o, static_cast<int>(ext.size())))
      impl::check_permutation("--perm", p, static_cast<int>(ext.size()));
    check_convert_options(*o);
    if (o->sub != "none" && (!o->out_dtype.empty() || o->conj))
      throw CLI::ValidationError("--sub", "reads one type unconjugated (no --out-dtype, --conj)");
    double elements = 1;
    for (auto e : ext) elements *= static_cast<double>(e);
    // In and out (a converting row's types are at most 8 bytes, or the
    // complex type itself; its copy baseline takes one more buffer).
    const double buffers = o->out_dtype.empty() && !o->conj ? (o->sub != "none" ? 4 : 2) : 3;
    return measure_and_finish(*o, measure_permute, [&](std::size_t es) {
      return buffers * elements * std::max<std::size_t>(es, o->out_dtype.empty() ? es : 8);
    });
  };
}

}  // namespace

}  // namespace tilekit::tool::permute_cmd

namespace tilekit::tool {

bool measure_permute(const PermuteArgs& o, report::Report& rep) {
  check_variants(o.variant, permute_cmd::kVariants);
  std::vector<std::int64_t> ext;
  for (const auto& s : split_list(o.shape)) ext.push_back(std::stoll(s));
  if (ext.empty() || ext.size() > 8)
    throw CLI::ValidationError("--shape", "needs 1 to 8 extents");
  for (auto e : ext)
    if (e < 1) throw CLI::ValidationError("--shape", "extents must be positive");
  for (const auto& p : permutations(o, static_cast<int>(ext.size())))
    impl::check_permutation("--perm", p, static_cast<int>(ext.size()));
  // throws for a type not built, before any row
  permute_cmd::for_each_type(o.common.dtype, [](auto) {});
  check_convert_options(o);
  begin_report(o.common, o.transfers, rep);
  bool ok = true;
  for_each_space(o.common.space, [&](auto exec) {
    const double peak = hardware_info(exec).peak_gbps;
    permute_cmd::for_each_type(o.common.dtype, [&](auto tag) {
      const std::string in = type_name<decltype(tag)>();
      if (converts(in, o.out_dtype, o.conj))
        ok = measure_permute_convert(o, exec, in, ext, peak, rep) && ok;
      else
        ok = permute_cmd::run_case<decltype(exec), decltype(tag)>(o, exec, ext, peak, rep) && ok;
    });
  });
  return ok;
}

TILEKIT_SUBCOMMAND(permute, "N-D tensor permutation: every variant vs the copy baseline",
                   permute_cmd::setup);

}  // namespace tilekit::tool
