#pragma once
// The reductions' measurement (`tilekit reduce`, the study): its arguments and
// the function that runs it (cmd_reduce.cpp). families.hpp includes every
// family's.
#include <tilekit/reduce.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "measure_common.hpp"

namespace tilekit::tool {

struct ReduceArgs {
  CommonOptions common;
  std::vector<std::int64_t> n = {std::int64_t{1} << 26};
  std::string variant = "all";
  ReduceOptions shape;
  int block = 0;  ///< the ladder's work items per team (0: the backend's)
  int warp = 0;   ///< the ladder's unrolled last level (0: the backend's)
  std::vector<int> teams;  ///< league caps of the production rows (empty: the backend's)
  std::string transfers;
  std::string sub = "none";       ///< none, block or every2: a strided window of a parent
  std::int64_t sub_cols = 1024;   ///< --sub block: the window's row length
  std::int64_t sub_ld = 0;        ///< --sub block: the parent's row length (0: cols + 64)
};
bool measure_reduce(const ReduceArgs& a, report::Report& rep);

}  // namespace tilekit::tool
