// Host (CPU) facts: model name from /proc/cpuinfo, cache sizes from sysconf.
// The theoretical DRAM bandwidth of a host cannot be read portably, so it is
// reported as unknown rather than guessed.
#include <tilekit/hardware_info.hpp>

#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

namespace tilekit::backends {
namespace {

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto p = line.find(':');
      if (p != std::string::npos) {
        auto s = line.substr(p + 1);
        s.erase(0, s.find_first_not_of(' '));
        return s;
      }
    }
  }
  return "unknown CPU";
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

}  // namespace

HardwareInfo host_hardware(const char* space_name, int concurrency) {
  HardwareInfo h;
  h.space = space_name;
  h.device = cpu_model();
  h.concurrency = concurrency;
  h.compute_units = static_cast<int>(std::thread::hardware_concurrency());
  h.peak_gbps = 0.0;
  h.peak_source = "unknown: a host's DRAM peak cannot be read portably";
#if defined(_SC_LEVEL1_DCACHE_SIZE)
  h.l1_bytes = sysconf_bytes(_SC_LEVEL1_DCACHE_SIZE);
  h.l2_bytes = sysconf_bytes(_SC_LEVEL2_CACHE_SIZE);
  h.l3_bytes = sysconf_bytes(_SC_LEVEL3_CACHE_SIZE);
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
