#pragma once
// One space and type of `tilekit reduce`'s measurement (run_case), as the
// command line (cmd_reduce.cpp) calls it: declared here, defined in
// reduce_case_def.hpp, which only the case units include
// (cmake/TilekitToolCases.cmake generates them, and the list of every case
// that cmd_reduce.cpp declares `extern`); and the --sub window both use.
#include <tilekit/hardware_info.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "reduce_args.hpp"

namespace tilekit::tool::reduce_cmd {

/// Every selected row of o over n elements on exec, one type T, against the
/// copy baseline of the same run; appends them to rep, false when a verified
/// result was wrong.
template <class Exec, class T>
bool run_case(const ReduceArgs& o, const Exec& exec, std::int64_t n, const HardwareInfo& hw,
              report::Report& rep);

/// --sub: the input window, rows x cols elements with strides (rs, cs) in a
/// parent of `parent` elements; element k of the window (address order) is
/// at (k / cols) * rs + (k % cols) * cs.
struct SubWindow {
  std::int64_t rows = 0, cols = 0, rs = 0, cs = 0, parent = 0;
};

/// The window of o's --sub over n elements. Throws std::invalid_argument, in
/// the form of the tool's option errors ("--sub-cols: ..."), for a block that
/// does not fit: the command line calls it for every --n before anything runs.
inline SubWindow sub_window(const ReduceArgs& o, std::int64_t n) {
  if (o.sub == "every2") return {n, 1, 2, 1, 2 * n};
  if (o.sub != "block") return {n, 1, 1, 1, n};  // none
  const std::int64_t cols = o.sub_cols, ld = o.sub_ld ? o.sub_ld : cols + 64;
  if (n % cols != 0)
    throw std::invalid_argument("--sub-cols: --sub block needs --n a multiple of --sub-cols (" +
                                std::to_string(cols) + "); --n " + std::to_string(n));
  if (ld < cols)
    throw std::invalid_argument("--sub-ld: the parent's rows (" + std::to_string(ld) +
                                ") are shorter than the window's (" + std::to_string(cols) + ")");
  return {n / cols, cols, ld, 1, n / cols * ld};
}

}  // namespace tilekit::tool::reduce_cmd

/// The explicit instantiation of one case (prefix `extern`: its declaration),
/// the lines of the generated units and case list.
#define TILEKIT_REDUCE_CASE(prefix, Exec, T)                                           \
  prefix template bool run_case<Exec, T>(const ReduceArgs&, const Exec&, std::int64_t, \
                                         const HardwareInfo&, report::Report&);
