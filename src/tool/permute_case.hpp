#pragma once
// One space and type of `tilekit permute`'s measurement (run_case), as the
// command line (cmd_permute.cpp) calls it: declared here, defined in
// permute_case_def.hpp, which only the case units include
// (cmake/TilekitToolCases.cmake generates them, one or a few types of a space
// each, and the list of every case that cmd_permute.cpp declares `extern`).
#include <cstdint>
#include <vector>

#include "permute_args.hpp"

namespace tilekit::tool::permute_cmd {

/// Every variant of every --perm of o on exec, one type T in and out, against
/// the copy baseline of the same run; appends its rows to rep, false when a
/// verified result was wrong.
template <class Exec, class T>
bool run_case(const PermuteArgs& o, const Exec& exec, const std::vector<std::int64_t>& ext,
              double peak, report::Report& rep);

}  // namespace tilekit::tool::permute_cmd

/// The explicit instantiation of one case (prefix `extern`: its declaration),
/// the lines of the generated units and case list.
#define TILEKIT_PERMUTE_CASE(prefix, Exec, T)                                      \
  prefix template bool run_case<Exec, T>(const PermuteArgs&, const Exec&,          \
                                         const std::vector<std::int64_t>&, double, \
                                         report::Report&);
