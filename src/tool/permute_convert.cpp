// `tilekit permute --out-dtype T [--alpha a --beta b] [--conj]`: the converting
// and conjugating permute, out = alpha * convert(op(permute(in))) + beta * out,
// through the fused plan (the same tiled kernels as the plain permute, the
// conversion at their final store). Each row counts the bytes read and
// written of both types: N (sizeof(in) + sizeof(out)), + N sizeof(out) when
// beta != 0 reads the output. Its "% copy" refers to the better of the
// deep_copy of the input type and of the output type (and on a host space a
// parallel memcpy) of the same run. Every result is checked against the host.
//
// The tool's pairs are few on purpose (compile time): for_each_tool_pair
// below, each a case of its own (cmake/TilekitToolCases.cmake, pair tokens
// <in>_to_<out> and <type>_conj). This file is the command line: the checks of
// the options and the dispatch to run_convert_case, one space and pair
// (permute_convert_case.hpp), which the case units compile
// (permute_convert_case_def.hpp).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common.hpp"
#include "permute_convert.hpp"
#include "permute_convert_case.hpp"

// This file's own names, in a namespace of their own: the command-line units
// compile as one (TILEKIT_TOOL_UNITY), beside cmd_permute.cpp's. What
// permute_convert.hpp declares is tilekit::tool's.
namespace tilekit::tool::permute_convert_cmd {

// Every case, declared `extern`: the case units instantiate them.
#include TILEKIT_TOOL_CASES

namespace {

/// Calls fn(Convert<In, Out, Conj>{}) for each of the tool's pairs that this
/// build compiles (those among the library's types and conversions:
/// support::built_pair, cmake/TilekitToolCases.cmake).
template <class Fn>
void for_each_tool_pair(Fn&& fn) {
  auto pair = [&](auto p) {
    using P = decltype(p);
    if constexpr (support::built_pair<typename P::in, typename P::out, P::conj>()) fn(p);
  };
  using cfloat = Kokkos::complex<float>;
  pair(Convert<float, double, false>{});
  pair(Convert<double, float, false>{});
  pair(Convert<std::int32_t, float, false>{});
  pair(Convert<cfloat, cfloat, true>{});
#if defined(TILEKIT_TOOL_HALF)
  using half = Kokkos::Experimental::half_t;
  using bhalf = Kokkos::Experimental::bhalf_t;
  pair(Convert<float, half, false>{});
  pair(Convert<half, float, false>{});
  pair(Convert<float, bhalf, false>{});
  pair(Convert<bhalf, float, false>{});
#endif
}

bool is_complex_name(const std::string& d) { return d == "cfloat" || d == "cdouble"; }

/// The pair's names: "float->half", "cfloat->cfloat (conj)".
template <class P>
bool is_pair(const std::string& in, const std::string& out, bool conj) {
  return type_name<typename P::in>() == in && type_name<typename P::out>() == out &&
         P::conj == (conj && is_complex_name(in));
}

}  // namespace

}  // namespace tilekit::tool::permute_convert_cmd

namespace tilekit::tool {

bool converts(const std::string& in, const std::string& out, bool conj) {
  return (!out.empty() && out != in) || (conj && permute_convert_cmd::is_complex_name(in));
}

void check_convert_options(const PermuteArgs& o) {
  for (const auto& in : split_list(o.common.dtype == "all" ? "int32,float,double,cfloat,cdouble"
                                                           : o.common.dtype)) {
    const std::string out = o.out_dtype.empty() ? in : o.out_dtype;
    if (!converts(in, out, o.conj)) continue;
    bool found = false;
    permute_convert_cmd::for_each_tool_pair([&](auto p) {
      found = found || permute_convert_cmd::is_pair<decltype(p)>(in, out, o.conj);
    });
    if (!found) {
      std::string pairs;
      permute_convert_cmd::for_each_tool_pair([&](auto p) {
        using P = decltype(p);
        pairs += (pairs.empty() ? "" : ", ") + type_name<typename P::in>() +
                 (P::conj ? " --conj" : " -> " + type_name<typename P::out>());
      });
      throw CLI::ValidationError(
          "--out-dtype", in + " -> " + out + (o.conj ? " conjugated" : "") +
                             " is not one of the tool's pairs (" +
                             (pairs.empty() ? std::string("this build has none") : pairs) +
                             "; the library converts between any of its types; the tool "
                             "compiles the pairs of TILEKIT_ETI_CONVERSIONS among "
                             "TILEKIT_ETI_TYPES)");
    }
    if (!o.transfers.empty())
      throw CLI::ValidationError("--transfers", "not with --out-dtype or --conj rows");
    if (o.variant != "all") {
      const auto v = split_list(o.variant);
      if (std::find(v.begin(), v.end(), "fused") == v.end())
        throw CLI::ValidationError("--variant", "--out-dtype and --conj rows run the fused "
                                                "variant: select it (or all)");
    }
  }
}

template <class Exec>
bool measure_permute_convert(const PermuteArgs& o, const Exec& exec, const std::string& in,
                             const std::vector<std::int64_t>& ext, double peak,
                             report::Report& rep) {
  const std::string out = o.out_dtype.empty() ? in : o.out_dtype;
  bool ok = true, done = false;
  permute_convert_cmd::for_each_tool_pair([&](auto p) {
    using P = decltype(p);
    if (done || !permute_convert_cmd::is_pair<P>(in, out, o.conj)) return;
    ok = permute_convert_cmd::run_convert_case<Exec, P>(o, exec, ext, peak, rep);
    done = true;
  });
  if (!done) throw CLI::ValidationError("--out-dtype", in + " -> " + out + ": no such pair");
  return ok;
}

#define TILEKIT_MEASURE_CONVERT(Exec)                                                     \
  template bool measure_permute_convert<Exec>(const PermuteArgs&, const Exec&, const std::string&, \
                                              const std::vector<std::int64_t>&, double,         \
                                              report::Report&);
TILEKIT_FOR_EACH_SPACE(TILEKIT_MEASURE_CONVERT)
#undef TILEKIT_MEASURE_CONVERT

}  // namespace tilekit::tool
