#include "cache.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

namespace tilekit::tool::study {
namespace {

namespace fs = std::filesystem;

/// stdout of a shell command; empty when it fails.
std::string capture(const std::string& command) {
  std::string out;
  if (FILE* p = ::popen(command.c_str(), "r")) {
    char buf[4096];
    while (std::size_t k = std::fread(buf, 1, sizeof buf, p)) out.append(buf, k);
    if (::pclose(p) != 0) out.clear();
  }
  return out;
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

/// valgrind on PATH, or empty.
std::string find_valgrind() {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  for (std::string dir; std::getline(ss, dir, ':');) {
    const fs::path p = fs::path(dir) / "valgrind";
    if (!dir.empty() && ::access(p.c_str(), X_OK) == 0) return p.string();
  }
  return {};
}

/// The drivers are built beside the tool (src/tool/study/CMakeLists.txt).
fs::path driver(int level) {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return self.parent_path() / ("tilekit_cache_O" + std::to_string(level));
}

/// Cachegrind's totals by event name (Ir, Dr, Dw, D1mr, D1mw, DLmr, DLmw, ...).
std::map<std::string, double> cachegrind(const std::string& valgrind, const fs::path& exe,
                                         const std::string& args, const fs::path& out) {
  const std::string cmd = quote(valgrind) + " --tool=cachegrind --cache-sim=yes " +
                          kSimulatedCaches + " --cachegrind-out-file=" + quote(out.string()) +
                          " " + quote(exe.string()) + " " + args + " 2>/dev/null";
  if (capture(cmd).empty()) throw std::runtime_error("cachegrind failed: " + cmd);
  std::ifstream f(out);
  std::string line, events;
  std::map<std::string, double> m;
  while (std::getline(f, line)) {
    if (line.rfind("events:", 0) == 0) events = line.substr(7);
    if (line.rfind("summary:", 0) == 0) {
      std::stringstream e(events), v(line.substr(8));
      std::string name;
      double x;
      while (e >> name && v >> x) m[name] = x;
    }
  }
  std::error_code ec;
  fs::remove(out, ec);
  if (m.empty()) throw std::runtime_error("no summary in Cachegrind's output " + out.string());
  return m;
}

}  // namespace

bool run_cache_study(bool quick, report::Report& rep) {
  auto skipped = [&](const std::string& why) {
    report::Row row;
    row.op = "cache";
    row.variant = "skipped";
    row.space = "host";
    row.extra["note"] = why;
    rep.rows.push_back(row);
    return true;
  };
  const std::string valgrind = find_valgrind();
  if (valgrind.empty())
    return skipped("valgrind is not installed (Debian: apt-get install valgrind); the cache "
                   "study was skipped");
  for (int level = 0; level <= 3; ++level)
    if (!fs::exists(driver(level)))
      return skipped(driver(level).string() + " is missing (built with the tool); the cache "
                     "study was skipped");
  // Full: 16 MiB of int32 or float, twice the simulated LL, at n = 2048 (rows
  // 8 KiB apart: a block's 16 lines share one D1 set) and n = 2064 (int32).
  const std::vector<std::pair<std::string, long>> configs =
      quick ? std::vector<std::pair<std::string, long>>{{"int32", 256}}
            : std::vector<std::pair<std::string, long>>{{"int32", 2048}, {"int32", 2064},
                                                        {"float", 2048}};
  const int reps = quick ? 3 : 5;
  const fs::path tmp = fs::temp_directory_path() /
                       ("tilekit-cachegrind-" + std::to_string(::getpid()) + ".out");
  bool ok = true;
  for (const auto& [dtype, n] : configs) {
    for (int level = 0; level <= 3; ++level) {
      const fs::path exe = driver(level);
      const std::string size = dtype + " " + std::to_string(n);
      const auto base = cachegrind(valgrind, exe, "none " + size + " 0", tmp);
      for (const std::string variant : {"naive", "blocked"}) {
        auto c = cachegrind(valgrind, exe, variant + " " + size + " 1", tmp);
        for (auto& [k, v] : c) v -= base.count(k) ? base.at(k) : 0;
        const auto native = nlohmann::json::parse(capture(
            quote(exe.string()) + " " + variant + " " + size + " " + std::to_string(reps)));
        report::Row row;
        row.op = "cache";
        row.variant = variant;
        row.space = "host";
        row.shape = {n, n};
        row.dtype = dtype;
        row.ms = native.at("ms").get<double>();
        row.bytes = 2.0 * n * n * 4;  // every element read and written once
        row.verified = native.at("verified").get<bool>();
        ok = ok && row.verified;
        report::finish_row(row, 0, 0);
        const double refs = c["Dr"] + c["Dw"];
        const double d1 = c["D1mr"] + c["D1mw"], ll = c["DLmr"] + c["DLmw"];
        row.extra["opt"] = "-O" + std::to_string(level);
        row.extra["instructions"] = c["Ir"];
        row.extra["data_refs"] = refs;
        row.extra["d1_misses"] = d1;
        row.extra["ll_misses"] = ll;
        row.extra["d1_miss_pct"] = refs > 0 ? 100.0 * d1 / refs : 0;
        row.extra["ll_miss_pct"] = refs > 0 ? 100.0 * ll / refs : 0;
        row.extra["simulated"] = kSimulatedCachesText;
        rep.rows.push_back(row);
      }
    }
  }
  return ok;
}

}  // namespace tilekit::tool::study
