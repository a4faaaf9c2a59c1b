#pragma once
// One space and type of `tilekit transpose`'s measurement (run_space_type), as
// the command line (cmd_transpose.cpp) calls it: declared here, defined in
// transpose_case_def.hpp, which only the case units include
// (cmake/TilekitToolCases.cmake generates them, and the list of every case
// that cmd_transpose.cpp declares `extern`).
#include "transpose_args.hpp"

namespace tilekit::tool::transpose_cmd {

/// Every selected variant of o on exec, one type T, against the copy baseline
/// of the same run; appends its rows to rep, false when a verified result was
/// wrong.
template <class Exec, class T>
bool run_space_type(const TransposeArgs& o, const Exec& exec, double peak, report::Report& rep);

}  // namespace tilekit::tool::transpose_cmd

/// The explicit instantiation of one case (prefix `extern`: its declaration),
/// the lines of the generated units and case list.
#define TILEKIT_TRANSPOSE_CASE(prefix, Exec, T)                                           \
  prefix template bool run_space_type<Exec, T>(const TransposeArgs&, const Exec&, double, \
                                               report::Report&);
