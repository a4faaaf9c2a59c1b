#pragma once
// The measurement of each family as a callable function: the arguments of
// one call and the function that runs it on the selected spaces and types,
// appending its rows (and the devices it ran on) to a Report. The cmd_<op>.cpp
// subcommands map their command-line options onto these; `tilekit study`
// calls them from its table of cases (study/cases.cpp). Each returns false
// when a verified kernel gave a wrong result.
#include <tilekit/cmm.hpp>
#include <tilekit/permute.hpp>
#include <tilekit/reduce.hpp>
#include <tilekit/transpose.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "common.hpp"

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

struct PermuteArgs {
  CommonOptions common;
  std::string shape = "256,256,256";
  std::vector<std::string> perms = {"all"};
  std::string variant = "all";
  std::string layout = "right";
  PermuteOptions launch;
  std::string transfers;
  /// out = alpha * convert(op(permute(in))) + beta * out (docs/types.md):
  /// the output's dtype ("": each --dtype's own), the scalars, and whether
  /// complex elements are conjugated. A conversion or conjugation runs the
  /// fused variant only (permute_convert.cpp: the tool's pairs).
  std::string out_dtype;
  double alpha = 1, beta = 0;
  bool conj = false;
  /// The input as a strided window of a larger parent (docs/strided.md):
  /// "none", "block" (the fastest dimension's parent extent is n + 64) or
  /// "rows2" (every other index of the second-fastest dimension); the naive
  /// and fused variants only.
  std::string sub = "none";
};
bool measure_permute(const PermuteArgs& a, report::Report& rep);

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

struct CmmArgs {
  CommonOptions common;
  std::int64_t n = 1024;
  std::string variant = "all";
  CmmOptions shape;
};
bool measure_cmm(const CmmArgs& a, report::Report& rep);

}  // namespace tilekit::tool
