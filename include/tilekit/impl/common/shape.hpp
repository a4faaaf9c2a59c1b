#pragma once
// Host-side description of a tensor permutation and the dimension fusion that
// precedes the choice of kernel (cuTT / HPTT): extents of 1 are dropped and
// input dimensions that stay adjacent, in order, under the permutation are
// merged, so a permutation that is really a copy becomes rank 1 and one that
// is really a 2-D transpose becomes rank 2. Plain host code, tested on its own.
#include <tilekit/errors.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tilekit::impl {

using index_t = std::int64_t;
inline constexpr int permute_max_rank = 8;

/// A permutation in row-major terms: input extents n[0..rank), n[rank - 1]
/// varying fastest; output dimension k is input dimension p[k], so the output
/// extents are n[p[0]], ..., n[p[rank - 1]] (NumPy's and PyTorch's convention).
/// si[d] and so[d] are the strides (in elements) of input dimension d in the
/// input and in the output: contiguous row-major (row_major_shape), or any
/// distinct-element strides of strided views (strided_shape), ordered so that
/// si falls along the input dimensions and so along p.
struct PermuteShape {
  int rank = 0;
  std::array<index_t, permute_max_rank> n{};
  std::array<int, permute_max_rank> p{};
  std::array<index_t, permute_max_rank> si{}, so{};

  bool operator==(const PermuteShape&) const = default;

  index_t size() const {
    index_t s = 1;
    for (int d = 0; d < rank; ++d) s *= n[d];
    return s;
  }
  /// True when the output is the input in the same order (a copy).
  bool is_identity() const {
    for (int k = 0; k < rank; ++k)
      if (p[k] != k) return false;
    return true;
  }
  /// Stride in the input of input dimension d.
  const std::array<index_t, permute_max_rank>& input_strides() const { return si; }
  /// Stride in the output of input dimension d.
  const std::array<index_t, permute_max_rank>& output_strides() const { return so; }
  /// Sets si and so to those of contiguous row-major input and output.
  void set_contiguous_strides() {
    si.fill(0);
    so.fill(0);
    index_t acc = 1;
    for (int d = rank - 1; d >= 0; --d) si[d] = acc, acc *= n[d];
    acc = 1;
    for (int k = rank - 1; k >= 0; --k) so[p[k]] = acc, acc *= n[p[k]];
  }
  /// True when input and output are both contiguous row-major.
  bool contiguous() const {
    PermuteShape c = *this;
    c.set_contiguous_strides();
    return c.si == si && c.so == so;
  }
  /// True when the fastest input dimension has unit stride in the input and
  /// the fastest output dimension unit stride in the output: the rows and
  /// tiled kernels move runs of consecutive elements.
  bool unit_inner() const {
    return rank == 0 || (si[rank - 1] == 1 && so[p[rank - 1]] == 1);
  }
  /// "(4, 6, 5) [2, 0, 1]"
  std::string to_string() const;
};

/// "a, b, c" of the first `count` values.
template <class Seq>
std::string join(const Seq& values, std::size_t count) {
  std::string s;
  for (std::size_t i = 0; i < count; ++i) {
    if (i) s += ", ";
    s += std::to_string(values[i]);
  }
  return s;
}

inline std::string PermuteShape::to_string() const {
  return "(" + join(n, rank) + ") [" + join(p, rank) + "]";
}

/// Throws unless perm is a permutation of 0..rank-1.
inline void check_permutation(const std::string& where, const std::vector<int>& perm, int rank) {
  const std::string list = "[" + join(perm, perm.size()) + "]";
  if (static_cast<int>(perm.size()) != rank)
    detail::fail(where, "permutation " + list + " has " + std::to_string(perm.size()) +
                            " entries for views of rank " + std::to_string(rank));
  std::array<bool, permute_max_rank> seen{};
  for (int v : perm) {
    if (v < 0 || v >= rank || seen[v])
      detail::fail(where, "permutation " + list + " is not a permutation of 0.." +
                              std::to_string(rank - 1));
    seen[v] = true;
  }
}

/// The row-major problem of views with the given logical extents and
/// permutation. A LayoutLeft view is, in memory, the LayoutRight view of the
/// reversed extents, and output dimension rank-1-k of that is input dimension
/// rank-1-perm[k]: so left layouts run on the same row-major kernels.
inline PermuteShape row_major_shape(const std::vector<index_t>& extents,
                                    const std::vector<int>& perm, bool layout_left) {
  PermuteShape s;
  s.rank = static_cast<int>(extents.size());
  const int r = s.rank;
  for (int d = 0; d < r; ++d) {
    s.n[d] = layout_left ? extents[r - 1 - d] : extents[d];
    s.p[d] = layout_left ? r - 1 - perm[r - 1 - d] : perm[d];
  }
  s.set_contiguous_strides();
  return s;
}

/// The problem of strided views (docs/strided.md): input dimension d of the
/// views has extent extents[d] and stride in_strides[d]; output dimension k,
/// input dimension perm[k], has stride out_strides[k]. The input dimensions
/// are ordered by falling input stride and the output ones (p) by falling
/// output stride, so that contiguous views of either layout give the
/// row_major_shape of their layout, and a window of one keeps its order.
inline PermuteShape strided_shape(const std::vector<index_t>& extents, const std::vector<int>& perm,
                                  const std::vector<index_t>& in_strides,
                                  const std::vector<index_t>& out_strides) {
  const int r = static_cast<int>(extents.size());
  std::vector<index_t> so_of(r);  // output stride of logical input dim d
  for (int k = 0; k < r; ++k) so_of[perm[k]] = out_strides[k];
  // Extents of 1 (any stride) sort as if they had none: fusion drops them.
  auto key = [&](const std::vector<index_t>& st, int d) { return extents[d] == 1 ? 0 : st[d]; };
  std::vector<int> by_in(r), by_out(r);
  for (int d = 0; d < r; ++d) by_in[d] = by_out[d] = d;
  std::stable_sort(by_in.begin(), by_in.end(),
                   [&](int a, int b) { return key(in_strides, a) > key(in_strides, b); });
  std::stable_sort(by_out.begin(), by_out.end(),
                   [&](int a, int b) { return key(so_of, a) > key(so_of, b); });
  std::array<int, permute_max_rank> pos{};  // logical input dim -> sorted position
  PermuteShape s;
  s.rank = r;
  for (int i = 0; i < r; ++i) {
    const int d = by_in[i];
    pos[d] = i;
    s.n[i] = extents[d];
    s.si[i] = in_strides[d];
    s.so[i] = so_of[d];
  }
  for (int k = 0; k < r; ++k) s.p[k] = pos[by_out[k]];
  return s;
}

/// Drops extents of 1, then merges each run of output dimensions that are
/// consecutive input dimensions in order into one dimension. The result
/// moves the same bytes to the same places; rank 0 or 1 means a plain copy.
inline PermuteShape fuse(const PermuteShape& s) {
  // 1. Drop extents of 1 (an empty tensor keeps its shape: nothing moves).
  if (s.size() == 0) return s;
  std::array<int, permute_max_rank> renum{};
  PermuteShape t;
  for (int d = 0; d < s.rank; ++d) {
    renum[d] = t.rank;
    if (s.n[d] != 1) {
      t.si[t.rank] = s.si[d];
      t.so[t.rank] = s.so[d];
      t.n[t.rank++] = s.n[d];
    }
  }
  int k2 = 0;
  for (int k = 0; k < s.rank; ++k)
    if (s.n[s.p[k]] != 1) t.p[k2++] = renum[s.p[k]];
  // 2. Merge output runs p[k], p[k] + 1, ... into their first input dimension,
  // where the strides chain on both sides (always, for contiguous views).
  auto chains = [&](int d) {  // dimension d + 1 continues dimension d
    return t.si[d] == t.si[d + 1] * t.n[d + 1] && t.so[d] == t.so[d + 1] * t.n[d + 1];
  };
  std::array<int, permute_max_rank> head{};  // output position -> run start (input dim)
  std::array<int, permute_max_rank> run_of{};  // input dim -> run id or -1 (not a run head)
  run_of.fill(-1);
  int runs = 0;
  for (int k = 0; k < t.rank; ++k) {
    if (k > 0 && t.p[k] == t.p[k - 1] + 1 && chains(t.p[k - 1])) continue;
    head[runs] = t.p[k];
    run_of[t.p[k]] = runs++;
  }
  // Fused input dims are the run heads in input order; their extents multiply.
  std::array<int, permute_max_rank> new_id{};
  PermuteShape f;
  for (int d = 0; d < t.rank; ++d) {
    if (run_of[d] < 0) {
      // Continues the run of the previous input dim: the run's strides are
      // those of its fastest member.
      f.n[f.rank - 1] *= t.n[d];
      f.si[f.rank - 1] = t.si[d];
      f.so[f.rank - 1] = t.so[d];
      continue;
    }
    new_id[run_of[d]] = f.rank;
    f.si[f.rank] = t.si[d];
    f.so[f.rank] = t.so[d];
    f.n[f.rank++] = t.n[d];
  }
  for (int k = 0; k < runs; ++k) f.p[k] = new_id[k];
  return f;
}

}  // namespace tilekit::impl
