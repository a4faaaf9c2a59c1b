#pragma once
// Per-execution-space tuning data. Kernels are written once; everything that
// differs between backends (tile edge, team shape, vector length, padding,
// loads in flight per work item) is read from Traits<ExecSpace>.
//
// The primary template holds conservative host-like defaults, so tilekit also
// runs (untuned) on Kokkos backends without a specialisation below.
#include <Kokkos_Core.hpp>
#include <tilekit/hardware_info.hpp>

#include <cstddef>

namespace tilekit::backends {

/// Tile and launch shape of a 2-D tiled kernel.
struct TileConfig {
  int tile = 16;      ///< tile edge in elements (tiles are tile x tile)
  int team_rows = 1;  ///< team size: rows of a tile processed at once
  int vector = 1;     ///< vector length: columns of a tile processed at once
  int pad = 1;        ///< extra elements per scratch row in the padded variant
};

/// Generic host description shared by host backends (defined in backends/src).
HardwareInfo host_hardware(const char* space_name, int concurrency);

template <class ExecSpace>
struct Traits {
  /// Independent loads each work item issues before its first store (compile-time,
  /// so the values stay in registers).
  static constexpr int loads_in_flight = 1;
  /// Upper bound of the league size; teams loop over further tiles.
  static constexpr long max_league = 1L << 30;
  static TileConfig transpose_tile(std::size_t /*elem_bytes*/) { return {16, 1, 1, 1}; }
  static HardwareInfo hardware(const ExecSpace& exec) {
    return host_hardware(ExecSpace::name(), exec.concurrency());
  }
};

}  // namespace tilekit::backends

#include <tilekit/backends/serial.hpp>
#include <tilekit/backends/openmp.hpp>
#include <tilekit/backends/cuda.hpp>
