#pragma once
// A distributed N-D tensor: its global extents, a process grid (one axis: slabs;
// two: pencils; up to the tensor's rank) and which tensor dimension each grid
// axis splits. Rank r's block is the box of global indices it holds, row-major
// (LayoutRight) in its own Kokkos View. Extents need not divide by the grid:
// along a dimension of extent n split by P processes, the first n % P get
// n / P + 1 indices and the others n / P (as heFFTe and cuDecomp balance them).
// Ranks are numbered row-major over the grid axes (axis 0 slowest).
//
//   auto slab = tilekit::dist::Decomposition::slab({512, 512, 512}, nranks, 0);
//   auto pen  = tilekit::dist::Decomposition::pencil({512, 512, 512}, 2, 2, 0, 1);
//   Kokkos::View<float***> local("local", slab.local_extent(me, 0), ...);
//
// Plain host code (no MPI): every rank computes every block from the description.
#include <tilekit/errors.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tilekit::dist {

using index_t = std::int64_t;
inline constexpr int max_rank = 8;

/// Half-open box of global indices [lo[d], hi[d]) per dimension.
struct Box {
  int rank = 0;
  std::array<index_t, max_rank> lo{}, hi{};

  index_t extent(int d) const { return hi[d] - lo[d]; }
  index_t size() const {
    index_t s = 1;
    for (int d = 0; d < rank; ++d) s *= extent(d);
    return s;
  }
  bool empty() const { return size() == 0; }
  bool operator==(const Box&) const = default;
};

/// The intersection of two boxes of the same rank (empty when disjoint).
inline Box intersect(const Box& a, const Box& b) {
  Box c;
  c.rank = a.rank;
  for (int d = 0; d < a.rank; ++d) {
    c.lo[d] = std::max(a.lo[d], b.lo[d]);
    c.hi[d] = std::max(c.lo[d], std::min(a.hi[d], b.hi[d]));
  }
  return c;
}

class Decomposition {
 public:
  /// extents: global extents (rank 1 to 8); grid[a]: processes along grid
  /// axis a; dims[a]: the tensor dimension axis a splits (distinct).
  Decomposition(std::vector<index_t> extents, std::vector<int> grid, std::vector<int> dims)
      : extents_(std::move(extents)), grid_(std::move(grid)), dims_(std::move(dims)) {
    validate();
  }

  /// 1-D grid: `nranks` slabs along tensor dimension `dim`.
  static Decomposition slab(std::vector<index_t> extents, int nranks, int dim = 0) {
    return Decomposition(std::move(extents), {nranks}, {dim});
  }
  /// 2-D grid: p0 x p1 pencils, axis 0 along `dim0`, axis 1 along `dim1`.
  static Decomposition pencil(std::vector<index_t> extents, int p0, int p1, int dim0 = 0,
                              int dim1 = 1) {
    return Decomposition(std::move(extents), {p0, p1}, {dim0, dim1});
  }

  int ndim() const { return static_cast<int>(extents_.size()); }
  int nranks() const {
    int p = 1;
    for (int g : grid_) p *= g;
    return p;
  }
  const std::vector<index_t>& extents() const { return extents_; }
  const std::vector<int>& grid() const { return grid_; }
  const std::vector<int>& dims() const { return dims_; }
  index_t size() const {
    index_t s = 1;
    for (auto e : extents_) s *= e;
    return s;
  }

  /// The global indices rank r holds.
  Box block(int r) const {
    Box b;
    b.rank = ndim();
    for (int d = 0; d < b.rank; ++d) b.hi[d] = extents_[d];
    for (int a = static_cast<int>(grid_.size()) - 1; a >= 0; --a) {
      const int c = r % grid_[a];
      r /= grid_[a];
      const index_t n = extents_[dims_[a]], p = grid_[a];
      const index_t base = n / p, rem = n % p;
      b.lo[dims_[a]] = c * base + std::min<index_t>(c, rem);
      b.hi[dims_[a]] = b.lo[dims_[a]] + base + (c < rem ? 1 : 0);
    }
    return b;
  }
  /// Extent of rank r's block along dimension d.
  index_t local_extent(int r, int d) const { return block(r).extent(d); }
  std::vector<index_t> local_extents(int r) const {
    const Box b = block(r);
    std::vector<index_t> e(ndim());
    for (int d = 0; d < ndim(); ++d) e[d] = b.extent(d);
    return e;
  }
  /// "(64, 48, 30) grid [2, 2] over dims [0, 1]"
  std::string to_string() const {
    auto list = [](const auto& v) {
      std::string s;
      for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
      return s;
    };
    return "(" + list(extents_) + ") grid [" + list(grid_) + "] over dims [" + list(dims_) + "]";
  }
  bool operator==(const Decomposition&) const = default;

 private:
  void validate() const {
    const std::string w = "tilekit::dist::Decomposition";
    if (extents_.empty() || extents_.size() > max_rank)
      detail::fail(w, "rank " + std::to_string(extents_.size()) + " is not 1 to 8");
    for (auto e : extents_)
      if (e < 0) detail::fail(w, to_string() + ": negative extent");
    if (grid_.size() != dims_.size() || grid_.empty() || grid_.size() > extents_.size())
      detail::fail(w, to_string() + ": needs one split dimension per grid axis, 1 to rank axes");
    std::array<bool, max_rank> seen{};
    for (std::size_t a = 0; a < grid_.size(); ++a) {
      if (grid_[a] < 1) detail::fail(w, to_string() + ": grid axes need at least one process");
      if (dims_[a] < 0 || dims_[a] >= ndim() || seen[dims_[a]])
        detail::fail(w, to_string() + ": split dimensions must be distinct, 0 to rank - 1");
      seen[dims_[a]] = true;
    }
    index_t n = 1;
    for (auto e : extents_) n = detail::checked_mul(w, n, e);
  }

  std::vector<index_t> extents_;
  std::vector<int> grid_, dims_;
};

}  // namespace tilekit::dist
