#pragma once
// What every subcommand's command line shares: the space/dtype/reps/output
// options and their checks, the dispatch over the selected types, and the
// start and end of a measurement (its report, table and files). What the
// measurement itself shares, without CLI11, is measure_common.hpp's.
#if defined(TILEKIT_TOOL_PLAIN_SOURCE)
// A source CMake compiles as plain C++ (not in Kokkos' language) must not see
// Kokkos: in a CUDA build its headers need nvcc. spaces.hpp has what such a
// source may use.
#error "common.hpp includes Kokkos; include spaces.hpp from plain C++ sources"
#endif
#include <Kokkos_Core.hpp>
#include <tilekit/hardware.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kokkos_context.hpp"
#include "measure_common.hpp"
#include "report.hpp"
#include "transfers.hpp"

namespace tilekit::tool {

void add_common_options(CLI::App& app, CommonOptions& o);

/// --tile, --team-rows, --vector, --pad, --tiles-per-team: launch-shape
/// overrides of a tiled family (unset keeps the backend's), range-checked
/// before anything runs; `max_tile` is the largest edge the family's plan takes.
template <class Shape>
void add_tile_options(CLI::App& app, Shape& s, const std::string& pad_help,
                      const std::string& steps_help, int max_tile) {
  app.add_option("--tile", s.tile,
                 "tile edge (default: the backend's; hosts' out-of-place transpose: tiles of 64 "
                 "rows by the edge)")
      ->check(CLI::Range(1, max_tile));
  app.add_option("--team-rows", s.team_rows, "team size (default: the backend's)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--vector", s.vector, "vector length (default: the backend's)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--pad", s.pad, pad_help)->check(CLI::Range(0, 64));
  app.add_option("--tiles-per-team", s.tiles_per_team, steps_help + " (default: the backend's)")
      ->check(CLI::Range(1, 1 << 20));
}

/// --align: skewed tiles on GPUs (TransposeOptions / PermuteOptions::align),
/// 0 or a power of two up to 4096, checked before anything runs (the plans
/// check it again).
void add_align_option(CLI::App& app, int& align, const std::string& which);

/// --transfers: also time each kernel with the host <-> device copies of its
/// input and output, from pageable and/or pinned host memory (transfers.hpp).
void add_transfers_option(CLI::App& app, std::string& kinds);

/// Adds the hardware of each selected space to r.devices, once per space.
void add_devices(const std::string& spaces, report::Report& r);

/// Prints the table and writes the files asked for; returns the exit code
/// (1 when a verified kernel gave a wrong result).
int finish(const CommonOptions& o, const report::Report& r, bool all_correct);

/// Checks made before anything is measured: the --json/--csv files can be
/// written, and `bytes(element size)` fit the memory each selected space can
/// allocate now (largest element size of the selected --dtype list). Throws
/// CLI::ValidationError with the reason.
void preflight(const CommonOptions& o, const std::function<double(std::size_t)>& bytes);
/// A subcommand's arguments, their common options added to app.
template <class Args>
std::shared_ptr<Args> make_args(CLI::App& app) {
  auto o = std::make_shared<Args>();
  add_common_options(app, o->common);
  return o;
}

/// A subcommand's run: the checks (preflight with `bytes`), the measurement
/// into a report, its table and files; the exit code (finish).
template <class Args>
int measure_and_finish(const Args& o, bool (*measure)(const Args&, report::Report&),
                       const std::function<double(std::size_t)>& bytes) {
  preflight(o.common, bytes);
  report::Report rep;
  const bool ok = measure(o, rep);
  return finish(o.common, rep, ok);
}
/// The same memory check for one space's HardwareInfo.
void check_memory(const HardwareInfo& hw, double bytes);
/// Throws unless `path` can be written (an existing writable file, or a new
/// file in an existing writable directory).
void check_writable(const std::string& option, const std::string& path);

/// Throws CLI::ValidationError for a name in the --variant list that is
/// neither "all" nor one of `known`.
template <class Names>
void check_variants(const std::string& list, const Names& known) {
  for (const auto& v : split_list(list))
    if (v != "all" && std::find(std::begin(known), std::end(known), v) == std::end(known))
      throw CLI::ValidationError("--variant", "unknown variant '" + v + "'");
}

/// The moving families' (transpose, permute) 2-byte types: calls fn with
/// Kokkos::Experimental::half_t or bhalf_t for d == "half" or "bhalf" (throws
/// where this Kokkos has none); false for any other d.
template <class Fn>
bool half_dtype(const std::string& d, Fn&& fn) {
  if (d != "half" && d != "bhalf") return false;
#if defined(TILEKIT_TOOL_HALF)
  if (d == "half") fn(Kokkos::Experimental::half_t{});
  else fn(Kokkos::Experimental::bhalf_t{});
#else
  (void)fn;
  throw CLI::ValidationError("--dtype", d + ": this Kokkos has no 2-byte half types (without "
                                            "a GPU backend it defines half_t and bhalf_t as float)");
#endif
  return true;
}

/// Throws the --dtype error for a type this tool is built without (its
/// cases follow the library's TILEKIT_ETI_TYPES), naming the option that adds it.
[[noreturn]] void throw_not_built(const std::string& d);

/// Calls fn(T{}) for each type of the --dtype list `which` among a family's
/// types Ts (and Kokkos' half and bhalf where WithHalf); "all" stands for each
/// of Ts this tool is built with. Throws CLI::ValidationError for a name the
/// family does not take and for a type this tool is built without, so that a
/// case that was not compiled is never called.
template <bool WithHalf, class... Ts, class Fn>
void for_each_family_dtype(const std::string& which, Fn&& fn) {
  auto call = [&](const std::string& d, auto t) {
    if constexpr (support::built_case_v<decltype(t)>) fn(t);
    else throw_not_built(d);
  };
  if (which == "all") {
    auto all = [&](auto t) {
      if constexpr (support::built_case_v<decltype(t)>) fn(t);
    };
    (all(Ts{}), ...);
    return;
  }
  for (const auto& d : split_list(which)) {
    bool known = false;
    auto one = [&](auto t) {
      if (known || type_name<decltype(t)>() != d) return;
      known = true;
      call(d, t);
    };
    (one(Ts{}), ...);
    if (!known && WithHalf) known = half_dtype(d, [&](auto t) { call(d, t); });
    if (!known) throw CLI::ValidationError("--dtype", "unknown type '" + d + "'");
  }
}

/// Throws as for_each_family_dtype would, before anything runs.
template <bool WithHalf, class... Ts>
void check_family_dtypes(const std::string& which) {
  for_each_family_dtype<WithHalf, Ts...>(which, [](auto) {});
}

/// Calls fn(T{}) for every selected type among int32, float, double.
template <class Fn>
void for_each_dtype(const std::string& which, Fn&& fn) {
  for_each_family_dtype<false, std::int32_t, float, double>(which, std::forward<Fn>(fn));
}

/// What each family's measurement does first: checks the --transfers list (""
/// for none), then records the Kokkos configuration and the selected spaces'
/// hardware in rep.
inline void begin_report(const CommonOptions& common, const std::string& transfers,
                         report::Report& rep) {
  if (!transfers.empty()) transfer_kinds(transfers);
  if (rep.kokkos.empty()) rep.kokkos = report::kokkos_configuration();
  add_devices(common.space, rep);
}

/// The same, after the --variant list is checked against the family's names.
template <class Args, class Names>
void begin_measurement(const Args& o, const Names& variants, report::Report& rep) {
  check_variants(o.variant, variants);
  begin_report(o.common, o.transfers, rep);
}

}  // namespace tilekit::tool
