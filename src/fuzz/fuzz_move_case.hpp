#pragma once
// One element type of the fuzz runner's moves on one space (move_typed), as
// run_move (fuzz_move.cpp) calls it: declared here, defined in
// fuzz_move_case_def.hpp, which only the case units include
// (cmake/TilekitToolCases.cmake generates them, and the list of every case
// that fuzz_move.cpp declares `extern`).
#include "fuzz_run.hpp"

namespace tilekit::fuzz {

/// One case of one element type on exec.
template <class Exec, class T>
Outcome move_typed(const Exec& exec, const Case& c);

}  // namespace tilekit::fuzz

/// The explicit instantiation of one case (prefix `extern`: its declaration),
/// the lines of the generated units and case list.
#define TILEKIT_FUZZ_MOVE_CASE(prefix, Exec, T)                          \
  prefix template Outcome move_typed<Exec, T>(const Exec&, const Case&);
