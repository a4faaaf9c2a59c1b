#pragma once
// One space and type of `tilekit cmm`'s measurement (run_space_type), as the
// command line (cmd_cmm.cpp) calls it: declared here, defined in
// cmm_case_def.hpp, which only the case units include
// (cmake/TilekitToolCases.cmake generates them, and the list of every case
// that cmd_cmm.cpp declares `extern`).
#include "cmm_args.hpp"

namespace tilekit::tool::cmm_cmd {

/// Every selected variant of o on exec, one type T (float or double), against
/// the copy baseline of the same run, then the transfers' rows; appends them
/// to rep, false when a verified result was wrong.
template <class Exec, class T>
bool run_space_type(const CmmArgs& o, const Exec& exec, double peak, report::Report& rep);

}  // namespace tilekit::tool::cmm_cmd

/// The explicit instantiation of one case (prefix `extern`: its declaration),
/// the lines of the generated units and case list.
#define TILEKIT_CMM_CASE(prefix, Exec, T)                                           \
  prefix template bool run_space_type<Exec, T>(const CmmArgs&, const Exec&, double, \
                                               report::Report&);
