#pragma once
// Wisdom: the launch shapes tuning measured (tune.hpp), kept per process and
// written to / read from a text file, as FFTW's wisdom and cuTT's measured
// plans. An entry is keyed by the device (execution space, device name,
// concurrency), the value type, and the problem the kernels see: the
// operation with its variant and shape class (a transposition's row-major
// matrix, a permutation's fused extents and permutation, with the strides of
// views that have gaps). Its value is the four launch fields tuning sets.
//
// The file is plain text, one record a line, fields separated by tabs:
//
//   tilekit-wisdom 1
//   tilekit 0.1.0
//   kokkos 40601
//   space Cuda
//   device NVIDIA H200
//   concurrency 270336
//   entries 2
//   transpose<TAB>float32<TAB>tiled_padded<TAB>16384 x 16384<TAB>64 4 32 1
//   permute<TAB>float32<TAB>fused<TAB>(1024, 32, 32, 256) [1, 0, 3, 2]<TAB>0 0 0 0
//
// A file is read only when every header line matches this build (format,
// tilekit and Kokkos versions) and the device it is read for, and every entry
// parses; otherwise nothing of it is taken (a launch shape measured on another
// part, or by other kernels, is not evidence here). Entries read from a file
// are checked again when first used (tune.hpp makes the plan with them).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace tilekit {

/// The launch fields tuning chooses (LaunchOptions' tile, team_rows, vector
/// and tiles_per_team; 0: the backend's choice).
struct TunedLaunch {
  int tile = 0, team_rows = 0, vector = 0, tiles_per_team = 0;
  bool operator==(const TunedLaunch&) const = default;
};

/// What load_wisdom did with a file.
struct WisdomLoad {
  bool found = false;   ///< the file could be opened
  int entries = 0;      ///< entries taken into the process's wisdom
  std::string warning;  ///< why the file was not taken ("" when it was, or not found)
};

namespace impl {

/// The wisdom file's format version: a file of another is not read.
inline constexpr int wisdom_format = 1;
/// Largest value a launch field of an entry may hold.
inline constexpr int wisdom_field_max = 1 << 16;

/// A name of T that does not depend on the compiler: float32, float64,
/// float16, bfloat16, int32, uint8, complex64 (two float32), ..., or bytesN.
template <class T>
std::string wisdom_type_name() {
  const std::string bits = std::to_string(8 * sizeof(T));
  if constexpr (std::is_same_v<T, Kokkos::complex<float>> ||
                std::is_same_v<T, Kokkos::complex<double>>)
    return "complex" + bits;
  else if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else if constexpr (std::is_floating_point_v<T>)
    return "float" + bits;
  else if constexpr (std::is_integral_v<T>)
    return (std::is_signed_v<T> ? "int" : "uint") + bits;
  else if constexpr (std::is_same_v<T, Kokkos::Experimental::half_t>)
    return "float16";
  else if constexpr (std::is_same_v<T, Kokkos::Experimental::bhalf_t>)
    return "bfloat16";
  else
    return "bytes" + std::to_string(sizeof(T));
}

/// The device a wisdom file is for, as its header lines say it.
struct WisdomDevice {
  std::string space, device;
  long concurrency = 0;
  std::string key() const { return space + '\t' + device + '\t' + std::to_string(concurrency); }
};

/// The header lines of a file for `dev` written by this build, in order.
inline std::vector<std::string> wisdom_header(const WisdomDevice& dev, const std::string& version,
                                              const std::string& kokkos) {
  return {"tilekit-wisdom " + std::to_string(wisdom_format),
          "tilekit " + version,
          "kokkos " + kokkos,
          "space " + dev.space,
          "device " + dev.device,
          "concurrency " + std::to_string(dev.concurrency)};
}

/// Fields of a line split at tabs.
inline std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', at);
    out.push_back(line.substr(at, tab == std::string::npos ? std::string::npos : tab - at));
    if (tab == std::string::npos) return out;
    at = tab + 1;
  }
}

/// The launch of an entry's last field ("64 4 32 1"); false unless it is four
/// integers in [0, wisdom_field_max] and nothing else.
inline bool parse_launch(const std::string& text, TunedLaunch& out) {
  std::istringstream in(text);
  long v[4];
  for (long& x : v)
    if (!(in >> x) || x < 0 || x > wisdom_field_max) return false;
  std::string rest;
  if (in >> rest) return false;
  out = {static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2]),
         static_cast<int>(v[3])};
  return true;
}

inline std::string launch_text(const TunedLaunch& l) {
  return std::to_string(l.tile) + ' ' + std::to_string(l.team_rows) + ' ' +
         std::to_string(l.vector) + ' ' + std::to_string(l.tiles_per_team);
}

/// The process's wisdom: per device key, problem key -> launch. Entries read
/// from a file are marked until tuning has checked them.
struct WisdomStore {
  struct Entry {
    TunedLaunch launch;
    bool from_file = false;
  };
  using Problems = std::map<std::string, Entry>;
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static std::map<std::string, Problems>& map() {
    static std::map<std::string, Problems> m;
    return m;
  }
};

/// Writes the entries of `problems` as a wisdom file for `dev`: to a
/// temporary file beside `path`, renamed over it when complete. False when
/// the file cannot be written.
inline bool write_wisdom(const std::string& path, const std::vector<std::string>& header,
                         const WisdomStore::Problems& problems) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::trunc);
    if (!f) return false;
    for (const auto& h : header) f << h << '\n';
    f << "entries " << problems.size() << '\n';
    for (const auto& [problem, e] : problems) f << problem << '\t' << launch_text(e.launch) << '\n';
    f.flush();
    if (!f) return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

/// Reads a wisdom file for the device whose header this build writes
/// (`header`): its entries (problem key -> launch), or a warning saying why
/// none is taken. `found` false: the file could not be opened.
inline WisdomLoad read_wisdom(const std::string& path, const std::vector<std::string>& header,
                              WisdomStore::Problems& entries) {
  WisdomLoad res;
  std::ifstream f(path);
  if (!f) return res;
  res.found = true;
  auto ignore = [&](const std::string& why) {
    entries.clear();
    res.warning = "tilekit: wisdom file " + path + " ignored: " + why;
    return res;
  };
  std::string line;
  // The header: format, versions, device, in this order, each as this build
  // and device write it.
  static const char* const what[] = {"its format", "the tilekit version", "the Kokkos version",
                                     "the execution space", "the device", "the concurrency"};
  for (std::size_t k = 0; k < header.size(); ++k) {
    if (!std::getline(f, line)) return ignore("it ends before its header does");
    if (line != header[k])
      return ignore(std::string(what[k]) + " differs (\"" + line + "\"; here \"" + header[k] +
                    "\")");
  }
  long count = -1;
  if (!std::getline(f, line) || line.rfind("entries ", 0) != 0)
    return ignore("no entry count after the header");
  {
    std::istringstream in(line.substr(8));
    std::string rest;
    if (!(in >> count) || count < 0 || (in >> rest)) return ignore("a bad entry count");
  }
  long n = 0;
  while (std::getline(f, line)) {
    ++n;
    const auto fields = split_tabs(line);
    TunedLaunch l;
    if (fields.size() != 5 || !parse_launch(fields[4], l))
      return ignore("entry " + std::to_string(n) + " does not parse (\"" + line + "\")");
    for (int k = 0; k < 4; ++k)
      if (fields[k].empty()) return ignore("entry " + std::to_string(n) + " has an empty field");
    const std::string problem = fields[0] + '\t' + fields[1] + '\t' + fields[2] + '\t' + fields[3];
    entries[problem] = {l, true};
  }
  if (n != count)
    return ignore("it holds " + std::to_string(n) + " entries, its header says " +
                  std::to_string(count));
  res.entries = static_cast<int>(entries.size());
  return res;
}

}  // namespace impl
}  // namespace tilekit
