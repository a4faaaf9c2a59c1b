// Host (CPU) facts: model name from /proc/cpuinfo, cache sizes from sysconf
// or, where sysconf does not know them (aarch64), from sysfs.
// The theoretical DRAM bandwidth of a host cannot be read portably, so it is
// reported as unknown rather than guessed.
#include <tilekit/backends/host_facts.hpp>
#include <tilekit/hardware_info.hpp>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

namespace tilekit::backends {
namespace {

/// The text after "key<spaces>:" on a line of /proc/cpuinfo, "" when the line is another key's.
std::string cpuinfo_value(const std::string& line, const std::string& key) {
  if (line.rfind(key, 0) != 0) return "";
  const auto colon = line.find(':', key.size());
  if (colon == std::string::npos || line.find_first_not_of(" \t", key.size()) != colon) return "";
  const auto start = line.find_first_not_of(" \t", colon + 1);
  if (start == std::string::npos) return "";
  return line.substr(start, line.find_last_not_of(" \t\r") + 1 - start);
}

/// Arm's registered implementer codes (MIDR_EL1 bits 31:24) of laptop,
/// desktop and server cores.
const char* arm_implementer(unsigned long code) {
  switch (code) {
    case 0x41: return "Arm";
    case 0x42: return "Broadcom";
    case 0x43: return "Cavium";
    case 0x46: return "Fujitsu";
    case 0x48: return "HiSilicon";
    case 0x4e: return "NVIDIA";
    case 0x50: return "APM";
    case 0x51: return "Qualcomm";
    case 0x61: return "Apple";
    case 0x6d: return "Microsoft";
    case 0xc0: return "Ampere";
    default: return nullptr;
  }
}

/// A field of /proc/meminfo in bytes ("MemTotal", "MemAvailable"); 0 when absent.
std::size_t meminfo_bytes(const std::string& key) {
  std::ifstream f("/proc/meminfo");
  std::string name;
  std::size_t kib = 0;
  std::string unit;
  while (f >> name >> kib) {
    std::getline(f, unit);
    if (name == key + ":") return kib * 1024;
  }
  return 0;
}

std::size_t sysconf_bytes(int name) {
  long v = ::sysconf(name);
  return v > 0 ? static_cast<std::size_t>(v) : 0;
}

/// The first line of a file, "" when it cannot be read.
std::string first_line(const std::string& path) {
  std::ifstream f(path);
  std::string line;
  std::getline(f, line);
  return line;
}

/// A level's cache size: sysconf's, else the first CPU's sysfs description.
std::size_t cache_bytes(int sysconf_name, int level) {
  const std::size_t b = sysconf_name >= 0 ? sysconf_bytes(sysconf_name) : 0;
  return b > 0 ? b : sysfs_cache_bytes("/sys/devices/system/cpu/cpu0", level);
}

}  // namespace

std::string cpu_model_from(const std::string& cpuinfo_path) {
  std::ifstream f(cpuinfo_path);
  std::string line, implementer, part;
  while (std::getline(f, line)) {
    if (auto v = cpuinfo_value(line, "model name"); !v.empty()) return v;
    if (auto v = cpuinfo_value(line, "CPU implementer"); !v.empty() && implementer.empty())
      implementer = v;
    if (auto v = cpuinfo_value(line, "CPU part"); !v.empty() && part.empty()) part = v;
  }
  if (implementer.empty() || part.empty()) return "unknown CPU";
  const char* name = arm_implementer(std::strtoul(implementer.c_str(), nullptr, 0));
  return (name ? std::string(name) : "implementer " + implementer) + " CPU part " + part;
}

std::size_t sysfs_cache_bytes(const std::string& cpu_dir, int level) {
  // index<N> folders are numbered from 0 without gaps (L1 data and
  // instruction, L2, L3, ...): the first missing one ends the list.
  for (int i = 0;; ++i) {
    const std::string dir = cpu_dir + "/cache/index" + std::to_string(i) + "/";
    const std::string lv = first_line(dir + "level");
    if (lv.empty()) return 0;
    const std::string type = first_line(dir + "type");
    if (std::atoi(lv.c_str()) != level || (type != "Data" && type != "Unified")) continue;
    const std::string size = first_line(dir + "size");
    char* end = nullptr;
    const unsigned long long n = std::strtoull(size.c_str(), &end, 10);
    if (end == size.c_str()) return 0;
    switch (*end) {
      case 'K': return static_cast<std::size_t>(n) << 10;
      case 'M': return static_cast<std::size_t>(n) << 20;
      case 'G': return static_cast<std::size_t>(n) << 30;
      default: return static_cast<std::size_t>(n);
    }
  }
}

HardwareInfo host_hardware(const char* space_name, int concurrency) {
  HardwareInfo h;
  h.space = space_name;
  h.device = cpu_model_from("/proc/cpuinfo");
  h.concurrency = concurrency;
  h.compute_units = static_cast<int>(std::thread::hardware_concurrency());
  h.peak_gbps = 0.0;
  h.peak_source = "unknown: a host's DRAM peak cannot be read portably";
#if defined(_SC_LEVEL1_DCACHE_SIZE)
  h.l1_bytes = cache_bytes(_SC_LEVEL1_DCACHE_SIZE, 1);
  h.l2_bytes = cache_bytes(_SC_LEVEL2_CACHE_SIZE, 2);
  h.l3_bytes = cache_bytes(_SC_LEVEL3_CACHE_SIZE, 3);
#else
  h.l1_bytes = cache_bytes(-1, 1);
  h.l2_bytes = cache_bytes(-1, 2);
  h.l3_bytes = cache_bytes(-1, 3);
#endif
  h.memory_bytes = meminfo_bytes("MemTotal");
  h.memory_free_bytes = meminfo_bytes("MemAvailable");
  if (h.memory_bytes == 0)
    h.memory_bytes = sysconf_bytes(_SC_PHYS_PAGES) * sysconf_bytes(_SC_PAGESIZE);
  if (h.memory_free_bytes == 0)
    h.memory_free_bytes = sysconf_bytes(_SC_AVPHYS_PAGES) * sysconf_bytes(_SC_PAGESIZE);
  return h;
}

}  // namespace tilekit::backends
