#pragma once
// `tilekit permute --out-dtype T [--alpha a --beta b] [--conj]`: rows of the
// converting (or conjugating) permute, out = alpha * convert(op(permute(in))) +
// beta * out, fused variant only. The tool compiles a few pairs (Convert,
// permute_convert_case.hpp), each a case of its own (permute_convert.cpp,
// cmake/TilekitToolCases.cmake); the library converts between any of its
// arithmetic types.
#include <cstdint>
#include <string>
#include <vector>

#include "permute_args.hpp"

namespace tilekit::tool {

/// Whether --dtype `in` with --out-dtype `out` ("" = in) and --conj takes the
/// converting rows: another output type, or a complex type conjugated.
bool converts(const std::string& in, const std::string& out, bool conj);

/// Throws CLI::ValidationError unless every --dtype of o with its --out-dtype
/// and --conj is one of the tool's pairs (or a plain permute).
void check_convert_options(const PermuteArgs& o);

/// The converting rows of one space for --dtype `in` (a copy baseline of each
/// type, then the fused permute of each --perm); false when a verified result
/// was wrong.
template <class Exec>
bool measure_permute_convert(const PermuteArgs& o, const Exec& exec, const std::string& in,
                             const std::vector<std::int64_t>& ext, double peak,
                             report::Report& rep);

}  // namespace tilekit::tool
