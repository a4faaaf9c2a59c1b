#pragma once
// Serial backend: one thread; a team is that thread. The tile is one 64-byte
// cache line of 4-byte elements wide (seed 000's block 16), twice that for
// smaller footprints of 8-byte types.
#include <tilekit/backends/traits.hpp>

#if defined(KOKKOS_ENABLE_SERIAL)
namespace tilekit::backends {
template <>
struct Traits<Kokkos::Serial> {
  static constexpr int loads_in_flight = 1;
  static constexpr long max_league = 1L << 30;
  static TileConfig transpose_tile(std::size_t elem_bytes) {
    return {elem_bytes >= 8 ? 16 : 32, 1, 1, 1};
  }
  static constexpr int stage_registers = 1;
  static TileConfig transpose_inplace_tile(std::size_t elem_bytes) {
    return transpose_tile(elem_bytes);
  }
  /// cmm: a team is one thread running every work item of a tile in turn, so
  /// tiles are large (staging is amortised) and live in level-1 scratch.
  static constexpr CmmShape cmm_shape(std::size_t elem_bytes, bool register_blocked) {
    const int k = elem_bytes >= 8 ? 32 : 64;
    if (!register_blocked) return {32, 32, 1, 1, k, 0, 4, 1, 1, 0};
    return elem_bytes >= 8 ? CmmShape{32, 32, 4, 4, k, 0, 4, 1, 1, 0}
                           : CmmShape{32, 16, 4, 8, k, 0, 4, 1, 1, 0};
  }
  /// reduce: as OpenMP, with one team.
  static constexpr ReduceConfig reduce_config() { return {1, 1, 32, 4, 1, 256, 32}; }
  /// permute: tile rows of 256 bytes (64 x 64 floats: 16 KiB, within L1);
  /// longer runs than the transpose's cost fewer page walks per byte.
  static TileConfig permute_tile(std::size_t elem_bytes) {
    return {elem_bytes >= 16 ? 16 : elem_bytes >= 8 ? 32 : 64, 1, 1, 1};
  }
  static HardwareInfo hardware(const Kokkos::Serial& exec) {
    return host_hardware(Kokkos::Serial::name(), exec.concurrency());
  }
};
}  // namespace tilekit::backends
#endif
