#include "common.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace tilekit::tool {

void add_common_options(CLI::App& app, CommonOptions& o) {
  app.add_option("--space", o.space, "default | host | all | serial | openmp | cuda")
      ->capture_default_str();
  app.add_option("--dtype", o.dtype, "int32 | float | double | all (comma-separated list)")
      ->capture_default_str();
  app.add_option("--reps", o.reps, "timed repetitions (median reported)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--json", o.json, "write the results as JSON to this file");
  app.add_option("--csv", o.csv, "write the results as CSV to this file");
  app.add_flag("!--no-check", o.check, "skip checking each result against a host reference");
}

void add_transfers_option(CLI::App& app, std::string& kinds) {
  app.add_option("--transfers", kinds,
                 "also time kernel + host<->device copies of input and output, from "
                 "pageable, pinned or all host memory (spaces with device memory only)");
}

void add_devices(const std::string& spaces, report::Report& r) {
  for_each_space(spaces, [&](auto exec) {
    const std::string name = decltype(exec)::name();
    for (const auto& d : r.devices)
      if (d.space == name) return;
    r.devices.push_back(hardware_info(exec));
  });
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::vector<std::string> selected_spaces(const std::string& which) {
  std::vector<std::string> enabled;
#if defined(KOKKOS_ENABLE_SERIAL)
  enabled.push_back("Serial");
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  enabled.push_back("OpenMP");
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  enabled.push_back("Cuda");
#endif
  std::vector<std::string> out;
  auto add = [&](const std::string& name) {
    if (std::find(enabled.begin(), enabled.end(), name) == enabled.end())
      throw CLI::ValidationError("--space", "space " + name + " is not enabled in this build");
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  };
  for (const auto& w : split_list(which)) {
    std::string lw = w;
    std::transform(lw.begin(), lw.end(), lw.begin(), ::tolower);
    if (lw == "default") add(Kokkos::DefaultExecutionSpace::name());
    else if (lw == "host") add(Kokkos::DefaultHostExecutionSpace::name());
    else if (lw == "all") for (const auto& e : enabled) add(e);
    else if (lw == "serial") add("Serial");
    else if (lw == "openmp") add("OpenMP");
    else if (lw == "cuda") add("Cuda");
    else throw CLI::ValidationError("--space", "unknown space '" + w + "'");
  }
  return out;
}

int finish(const CommonOptions& o, const report::Report& r, bool all_correct) {
  report::print_table(r, std::cout);
  if (!o.json.empty()) report::write_json(r, o.json);
  if (!o.csv.empty()) report::write_csv(r, o.csv);
  if (!all_correct) {
    std::cerr << "tilekit: at least one kernel gave a wrong result\n";
    return 1;
  }
  return 0;
}

}  // namespace tilekit::tool
