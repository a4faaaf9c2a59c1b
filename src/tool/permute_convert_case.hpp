#pragma once
// One space and pair of `tilekit permute --out-dtype/--conj`'s measurement
// (run_convert_case), as the command line (permute_convert.cpp) calls it:
// declared here, defined in permute_convert_case_def.hpp, which only the case
// units include (cmake/TilekitToolCases.cmake generates them, and the list of
// every case that permute_convert.cpp declares `extern`).
#include <cstdint>
#include <vector>

#include "permute_args.hpp"

namespace tilekit::tool {

/// One pair of the tool: input type, output type, conjugation.
template <class In, class Out, bool Conj>
struct Convert {
  using in = In;
  using out = Out;
  static constexpr bool conj = Conj;
};

}  // namespace tilekit::tool

namespace tilekit::tool::permute_convert_cmd {

/// The converting rows of pair P (a Convert) on exec: the copy baseline of
/// each type, then the fused permute of each --perm of o; appends them to
/// rep, false when a verified result was wrong.
template <class Exec, class P>
bool run_convert_case(const PermuteArgs& o, const Exec& exec, const std::vector<std::int64_t>& ext,
                      double peak, report::Report& rep);

}  // namespace tilekit::tool::permute_convert_cmd

/// The explicit instantiation of one case (prefix `extern`: its declaration),
/// the lines of the generated units and case list. The pair holds commas:
/// the macro is variadic.
#define TILEKIT_PERMUTE_CONVERT_CASE(prefix, Exec, ...)                          \
  prefix template bool run_convert_case<Exec, __VA_ARGS__>(                      \
      const PermuteArgs&, const Exec&, const std::vector<std::int64_t>&, double, \
      report::Report&);
