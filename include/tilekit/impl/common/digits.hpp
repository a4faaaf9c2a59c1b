#pragma once
// Mixed-radix digits: a flat index mapped to a memory offset through extents
// and strides (the permute's row and tile tables, the strided reduce's runs).
#include <tilekit/impl/common/shape.hpp>  // permute_max_rank
#include <tilekit/impl/common/tile_copy.hpp>       // index_t, TILEKIT_UNROLL

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace tilekit::impl {

/// A flat index read as mixed-radix digits (digit 0 fastest) and mapped to an
/// offset: sum of digit[i] * stride[i].
struct Digits {
  int count = 0;
  index_t extent[permute_max_rank] = {};
  index_t stride[permute_max_rank] = {};

  void push(index_t e, index_t s) {
    extent[count] = e;
    stride[count] = s;
    ++count;
  }
  index_t volume() const {
    index_t v = 1;
    for (int i = 0; i < count; ++i) v *= extent[i];
    return v;
  }
  /// True when offset(flat) == flat * s for every flat < volume(): the digits
  /// (extents of 1 aside) continue one another, stride[i + 1] == stride[i] * extent[i].
  bool affine(index_t& s) const {
    s = 0;
    index_t next = 0;
    bool first = true;
    for (int i = 0; i < count; ++i) {
      if (extent[i] == 1) continue;
      if (first) s = stride[i];
      else if (stride[i] != next) return false;
      first = false;
      next = stride[i] * extent[i];
    }
    return true;
  }
  KOKKOS_INLINE_FUNCTION index_t offset(index_t flat) const {
    index_t off = 0;
    // Unrolled over the largest rank, so the digits are read at fixed offsets
    // (no local-memory copy of a kernel argument on GPUs).
TILEKIT_UNROLL
    for (int i = 0; i < permute_max_rank; ++i) {
      if (i >= count) break;
      const index_t q = div_nonneg(flat, extent[i]);
      off += (flat - q * extent[i]) * stride[i];
      flat = q;
    }
    return off;
  }
};

}  // namespace tilekit::impl
