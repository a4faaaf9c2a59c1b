#include "common.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace tilekit::tool {

void add_common_options(CLI::App& app, CommonOptions& o) {
  app.add_option("--space", o.space, "default | host | all | serial | openmp | cuda")
      ->capture_default_str();
  const std::string built = support::built_types();
  app.add_option("--dtype", o.dtype,
                 "int32 | float | double | all (comma-separated list; transpose, permute and "
                 "reduce also half, bhalf where Kokkos has 2-byte ones: GPU builds)" +
                     (built.empty() ? std::string() : "; this build: " + built))
      ->capture_default_str();
  app.add_option("--reps", o.reps, "timed repetitions (median reported)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--json", o.json, "write the results as JSON to this file");
  app.add_option("--csv", o.csv, "write the results as CSV to this file");
  app.add_flag("!--no-check", o.check, "skip checking each result against a host reference");
}

void add_align_option(CLI::App& app, int& align, const std::string& which) {
  app.add_option("--align", align,
                 which + ": skewed tiles whose output pieces start on transactions of this "
                         "many bytes where the output's rows do not (a power of two; 0: "
                         "rectangular tiles; default: the backend's)")
      ->check(CLI::Range(0, 4096))
      ->check(CLI::Validator(
          [](const std::string& v) -> std::string {
            const int x = std::stoi(v);
            return (x & (x - 1)) == 0 ? "" : "must be 0 or a power of two";
          },
          "POW2"));
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

void throw_not_built(const std::string& d) {
  throw CLI::ValidationError(
      "--dtype", d + ": this tool is built without it (its types: " + support::built_types() +
                     "); they follow the library's compiled types: configure with "
                     "-DTILEKIT_ETI_TYPES=\"<list with " + d +
                     ">\" (the openmp preset's default has them all)");
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

bool is_gpu(const std::string& space) { return space == "Cuda"; }

std::vector<std::string> built_spaces() { return support::space_names(); }

namespace {
bool is_built(const std::vector<std::string>& built, const std::string& name) {
  return std::find(built.begin(), built.end(), name) != built.end();
}
/// The space an alias names: Kokkos' default (host) space where this tool has
/// it, else the last built one (the GPU before the host spaces; OpenMP before
/// Serial); "" where there is none (a build without host spaces has no host).
std::string alias_space(const std::vector<std::string>& built, bool host) {
  const std::string first = host ? Kokkos::DefaultHostExecutionSpace::name()
                                 : Kokkos::DefaultExecutionSpace::name();
  if (is_built(built, first)) return first;
  for (auto it = built.rbegin(); it != built.rend(); ++it)
    if (!host || !is_gpu(*it)) return *it;
  return "";
}
}  // namespace

bool host_space_built() { return !alias_space(built_spaces(), true).empty(); }

std::vector<std::string> selected_spaces(const std::string& which) {
  const std::vector<std::string> enabled = built_spaces();
  std::vector<std::string> out;
  auto add = [&](const std::string& name) {
    if (!is_built(enabled, name))
      throw CLI::ValidationError("--space", "space " + name +
                                                " is not built into this tool (Kokkos or "
                                                "TILEKIT_SPACES)");
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  };
  for (const auto& w : split_list(which)) {
    std::string lw = w;
    std::transform(lw.begin(), lw.end(), lw.begin(), ::tolower);
    if (lw == "default" || lw == "host") {
      const std::string name = alias_space(enabled, lw == "host");
      if (name.empty())
        throw CLI::ValidationError("--space", "no host space (Serial or OpenMP) is built into "
                                              "this tool (TILEKIT_SPACES)");
      add(name);
    } else if (lw == "all") for (const auto& e : enabled) add(e);
    else if (lw == "serial") add("Serial");
    else if (lw == "openmp") add("OpenMP");
    else if (lw == "cuda") add("Cuda");
    else throw CLI::ValidationError("--space", "unknown space '" + w + "'");
  }
  return out;
}

void check_writable(const std::string& option, const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec))
    throw CLI::ValidationError(option, "'" + path + "' is a directory, not a file");
  if (fs::exists(p, ec)) {
    if (::access(path.c_str(), W_OK) != 0)
      throw CLI::ValidationError(option, "'" + path + "' exists and is not writable");
    return;
  }
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec))
    throw CLI::ValidationError(option, "directory '" + dir.string() + "' of '" + path +
                                           "' does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    throw CLI::ValidationError(option, "directory '" + dir.string() + "' is not writable");
}

namespace {
std::string gib(double bytes) {
  std::ostringstream s;
  s.precision(3);
  s << bytes / (1024.0 * 1024.0 * 1024.0) << " GiB";
  return s.str();
}
}  // namespace

void check_memory(const HardwareInfo& hw, double bytes) {
  if (hw.memory_free_bytes == 0) return;  // unknown: nothing to compare with
  if (bytes > static_cast<double>(hw.memory_free_bytes))
    throw CLI::ValidationError(
        "size", "the problem needs at least " + gib(bytes) + " on " + hw.space + " (" +
                    hw.device + "), which has " + gib(static_cast<double>(hw.memory_free_bytes)) +
                    " available of " + gib(static_cast<double>(hw.memory_bytes)) +
                    "; choose a smaller size");
}

void preflight(const CommonOptions& o, const std::function<double(std::size_t)>& bytes) {
  if (!o.json.empty()) check_writable("--json", o.json);
  if (!o.csv.empty()) check_writable("--csv", o.csv);
  std::size_t es = 0;
  for (const auto& d : split_list(o.dtype == "all" ? "cdouble" : o.dtype))
    es = std::max<std::size_t>(es, d == "cdouble"                                  ? 16
                                   : d == "double" || d == "int64" || d == "cfloat" ? 8
                                                                                   : 4);
  const double need = bytes(es == 0 ? 4 : es);
  for_each_space(o.space, [&](const auto& exec) { check_memory(hardware_info(exec), need); });
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
