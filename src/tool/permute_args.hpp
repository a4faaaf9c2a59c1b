#pragma once
// The permutes' measurement (`tilekit permute`, the study): its arguments and
// the function that runs it (cmd_permute.cpp). families.hpp includes every
// family's.
#include <tilekit/permute.hpp>

#include <string>
#include <vector>

#include "measure_common.hpp"

namespace tilekit::tool {

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

}  // namespace tilekit::tool
