#pragma once
// The transposes' measurement (`tilekit transpose`, the study): its arguments
// and the function that runs it (cmd_transpose.cpp). families.hpp includes
// every family's.
#include <tilekit/transpose.hpp>

#include <cstdint>
#include <string>

#include "measure_common.hpp"

namespace tilekit::tool {

struct TransposeArgs {
  CommonOptions common;
  /// 8192^2 floats: 256 MiB a matrix, beyond any last-level cache, so the copy
  /// baseline and the kernels run from memory on a CPU as on a GPU.
  std::int64_t n = 8192;
  std::int64_t m = 0;  ///< rows; 0 = n
  std::string variant = "all";
  TransposeOptions shape;
  std::string transfers;  ///< "", "pageable", "pinned" or both: rows including host<->device copies
  /// Out-of-place rows on a strided input window (docs/strided.md): "none",
  /// "block" (columns 0..n of a parent with rows of sub_ld) or "rows2"
  /// (every other row of a 2m x n parent).
  std::string sub = "none";
  std::int64_t sub_ld = 0;  ///< block: the parent's row length (0: n + 64)
};
bool measure_transpose(const TransposeArgs& a, report::Report& rep);

}  // namespace tilekit::tool
