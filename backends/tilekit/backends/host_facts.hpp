#pragma once
// How the host backends read a CPU's name and cache sizes from Linux's files
// (backends/src/host_hardware.cpp), apart from host_hardware() so that the
// readers can be given other files (tests/test_host_facts.cpp). Plain C++, no
// Kokkos.
#include <cstddef>
#include <string>

namespace tilekit::backends {

/// The CPU's name from a file in /proc/cpuinfo's format: its "model name"
/// (x86-64; some ARM kernels), else, on aarch64 whose kernels print no name,
/// "<implementer> CPU part 0x<part>" from "CPU implementer" and "CPU part"
/// (e.g. "Apple CPU part 0x022"), so that wisdom keyed by the device tells
/// ARM cores apart; "unknown CPU" when the file says neither.
std::string cpu_model_from(const std::string& cpuinfo_path);

/// Bytes of the level-`level` data or unified cache of a CPU, from its sysfs
/// folder (cpu_dir/cache/index<N>/{level,type,size}, size as "48K" or "32M");
/// 0 when the folder does not describe it. glibc's sysconf knows the cache
/// sizes of x86 CPUs (CPUID) but returns 0 on aarch64 (Debian 12's glibc
/// 2.36), while Linux describes the caches of every architecture here.
std::size_t sysfs_cache_bytes(const std::string& cpu_dir, int level);

}  // namespace tilekit::backends
