#pragma once
// Result rows of the tool and the benchmarks, and their writers: a table on
// the terminal, JSON and CSV files. Every subcommand fills the same Row.
// This file and report.cpp do not include Kokkos: they compile as plain C++
// (fmt's compile-time format checks do not build under nvcc).
#include <tilekit/hardware_info.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace tilekit::report {

struct Row {
  std::string op;       ///< "transpose", "permute", "reduce", "cmm"
  std::string variant;  ///< kernel variant, or "copy" for the deep_copy baseline
  std::string space;    ///< Kokkos execution space
  std::vector<std::int64_t> shape;
  std::string dtype;
  double ms = 0;        ///< median time
  double bytes = 0;     ///< bytes read + written
  double gbps = 0;      ///< bytes / time
  double pct_copy = 0;  ///< % of the deep_copy bandwidth of the same run
  double pct_peak = 0;  ///< % of theoretical peak; 0 when unknown
  double speedup = 0;   ///< over the family's naive variant; 0 when not applicable
  bool verified = false;
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();  ///< op-specific columns
};

struct Report {
  std::string kokkos;                 ///< Kokkos version and spaces (kokkos_context.hpp)
  std::vector<HardwareInfo> devices;  ///< one per space measured
  std::vector<Row> rows;
};

/// Fills gbps, pct_copy and pct_peak from ms, bytes, the copy row and the peak.
void finish_row(Row& row, double copy_gbps, double peak_gbps);

std::string now_iso8601();
std::string git_commit();

nlohmann::ordered_json to_json(const Report& r);
/// The row that to_json wrote as `j` (a resumed study reads its rows back).
Row row_from_json(const nlohmann::ordered_json& j);
void print_table(const Report& r, std::ostream& os);
void write_json(const Report& r, const std::string& path);
void write_csv(const Report& r, const std::string& path);

}  // namespace tilekit::report
