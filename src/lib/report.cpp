#include "report.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace tilekit::detail {
const char* git_commit();  // generated at build time (cmake/GitInfo.cmake)
}

namespace tilekit::report {
namespace {

std::string shape_string(const std::vector<std::int64_t>& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += 'x';
    out += std::to_string(s[i]);
  }
  return out;
}

std::string cell(const nlohmann::ordered_json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return fmt::format("{:.3g}", v.get<double>());
  return v.dump();
}

std::string pct(double v) { return v > 0 ? fmt::format("{:.1f}%", v) : "-"; }

std::vector<std::string> extra_keys(const Report& r) {
  std::vector<std::string> keys;
  std::set<std::string> seen;
  for (const auto& row : r.rows)
    for (const auto& [k, v] : row.extra.items())
      if (seen.insert(k).second) keys.push_back(k);
  return keys;
}

}  // namespace

void finish_row(Row& row, double copy_gbps, double peak_gbps) {
  row.gbps = row.ms > 0 ? row.bytes / (row.ms * 1e-3) / 1e9 : 0;
  row.pct_copy = copy_gbps > 0 ? 100.0 * row.gbps / copy_gbps : 0;
  row.pct_peak = peak_gbps > 0 ? 100.0 * row.gbps / peak_gbps : 0;
}

std::string now_iso8601() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string git_commit() { return tilekit::detail::git_commit(); }

nlohmann::ordered_json to_json(const Report& r) {
  nlohmann::ordered_json j;
  j["device"] = r.devices.empty() ? "unknown" : r.devices.front().device;
  j["date"] = now_iso8601();
  j["commit"] = git_commit();
  j["kokkos"] = r.kokkos;
  auto& devs = j["devices"] = nlohmann::ordered_json::array();
  for (const auto& d : r.devices) {
    nlohmann::ordered_json o;
    o["space"] = d.space;
    o["device"] = d.device;
    o["concurrency"] = d.concurrency;
    o["compute_units"] = d.compute_units;
    o["peak_gbps"] = d.peak_gbps > 0 ? nlohmann::ordered_json(d.peak_gbps) : nullptr;
    o["peak_source"] = d.peak_source;
    o["l1_bytes"] = d.l1_bytes;
    o["l2_bytes"] = d.l2_bytes;
    o["l3_bytes"] = d.l3_bytes;
    o["memory_bytes"] = d.memory_bytes;
    devs.push_back(o);
  }
  auto& rows = j["rows"] = nlohmann::ordered_json::array();
  for (const auto& row : r.rows) {
    nlohmann::ordered_json o;
    o["op"] = row.op;
    o["variant"] = row.variant;
    o["space"] = row.space;
    o["shape"] = row.shape;
    o["dtype"] = row.dtype;
    o["ms"] = row.ms;
    o["bytes"] = row.bytes;
    o["gbps"] = row.gbps;
    o["pct_copy"] = row.pct_copy;
    o["pct_peak"] = row.pct_peak > 0 ? nlohmann::ordered_json(row.pct_peak) : nullptr;
    o["speedup_vs_naive"] = row.speedup > 0 ? nlohmann::ordered_json(row.speedup) : nullptr;
    o["verified"] = row.verified;
    for (const auto& [k, v] : row.extra.items()) o[k] = v;
    rows.push_back(o);
  }
  return j;
}

Row row_from_json(const nlohmann::ordered_json& j) {
  static const char* fixed[] = {"op",       "variant",  "space",    "shape",
                                "dtype",    "ms",       "bytes",    "gbps",
                                "pct_copy", "pct_peak", "speedup_vs_naive", "verified"};
  Row row;
  row.op = j.at("op").get<std::string>();
  row.variant = j.at("variant").get<std::string>();
  row.space = j.at("space").get<std::string>();
  row.shape = j.at("shape").get<std::vector<std::int64_t>>();
  row.dtype = j.at("dtype").get<std::string>();
  row.ms = j.at("ms").get<double>();
  row.bytes = j.at("bytes").get<double>();
  row.gbps = j.at("gbps").get<double>();
  row.pct_copy = j.at("pct_copy").get<double>();
  row.pct_peak = j.at("pct_peak").is_null() ? 0 : j.at("pct_peak").get<double>();
  row.speedup = j.at("speedup_vs_naive").is_null() ? 0 : j.at("speedup_vs_naive").get<double>();
  row.verified = j.at("verified").get<bool>();
  for (const auto& [k, v] : j.items())
    if (std::find(std::begin(fixed), std::end(fixed), k) == std::end(fixed)) row.extra[k] = v;
  return row;
}

void print_table(const Report& r, std::ostream& os) {
  if (!r.kokkos.empty()) fmt::print(os, "# {}\n", r.kokkos);
  for (const auto& d : r.devices)
    fmt::print(os, "# {}: {} (concurrency {}, peak {})\n", d.space, d.device, d.concurrency,
               d.peak_gbps > 0 ? fmt::format("{:.0f} GB/s", d.peak_gbps) : "unknown");
  const auto keys = extra_keys(r);
  std::string head = fmt::format("{:<16} {:<7} {:<12} {:<7} {:>10} {:>9} {:>7} {:>7} {:>8}",
                                 "variant", "space", "shape", "dtype", "median ms", "GB/s",
                                 "%copy", "%peak", "speedup");
  for (const auto& k : keys) head += fmt::format(" {:>12}", k);
  fmt::print(os, "{}\n{}\n", head, std::string(head.size(), '-'));
  for (const auto& row : r.rows) {
    std::string line = fmt::format(
        "{:<16} {:<7} {:<12} {:<7} {:>10.4f} {:>9.1f} {:>7} {:>7} {:>8}", row.variant,
        row.space, shape_string(row.shape), row.dtype, row.ms, row.gbps, pct(row.pct_copy),
        pct(row.pct_peak), row.speedup > 0 ? fmt::format("{:.2f}x", row.speedup) : "-");
    for (const auto& k : keys)
      line += fmt::format(" {:>12}", row.extra.contains(k) ? cell(row.extra[k]) : "");
    if (!row.verified) line += "  (unverified)";
    fmt::print(os, "{}\n", line);
  }
}

void write_json(const Report& r, const std::string& path) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << to_json(r).dump(2) << '\n';
}

void write_csv(const Report& r, const std::string& path) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  const auto keys = extra_keys(r);
  f << "op,variant,space,shape,dtype,ms,bytes,gbps,pct_copy,pct_peak,speedup_vs_naive,verified";
  for (const auto& k : keys) f << ',' << k;
  f << '\n';
  for (const auto& row : r.rows) {
    f << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}", row.op, row.variant, row.space,
                     shape_string(row.shape), row.dtype, row.ms, row.bytes, row.gbps,
                     row.pct_copy, row.pct_peak, row.speedup, row.verified ? 1 : 0);
    for (const auto& k : keys) f << ',' << (row.extra.contains(k) ? cell(row.extra[k]) : "");
    f << '\n';
  }
}

}  // namespace tilekit::report
