#pragma once
// What each rank sends to and receives from every other rank, worked out once
// per plan from the two decompositions and the permutation (host code, no MPI).
//
// The model. The output tensor is the input permuted: output dimension k is
// input dimension perm[k]. Rank r's input block, read in output coordinates,
// meets rank s's output block in a box B(r, s); r sends B(r, s) to s. Each
// message holds its box row-major in the *message order* q (output dimensions,
// slowest first), the same on every rank:
//
//   pack    the local input block is permuted once (tilekit::PermutePlan, the
//           user's permutation composed with q) into `tmp`; the boxes are then
//           ranges of tmp. Where every box is one contiguous range of tmp (a
//           slab exchange), tmp is the send buffer; otherwise a box copy
//           gathers them into the send buffer, destination-major.
//   unpack  every received box is copied into the output block (rows of the
//           fastest output dimension, no permutation left to do); where every
//           box is one contiguous range of the output block the messages are
//           received in place and there is no unpack.
//
// q puts the output dimensions along which senders' blocks are cut first, so
// that a slab exchange needs no gather; when the fastest output dimension is
// cut q is the output order (a gather, but no transposing unpack).
#include <tilekit/dist/decomposition.hpp>
#include <tilekit/impl/common/shape.hpp>
#include <tilekit/impl/common/digits.hpp>  // Digits

#include <numeric>
#include <vector>

namespace tilekit::dist::impl {

using tilekit::impl::Digits;

/// A strided copy of one box, as rows of `len` elements (dimensions fused
/// where both sides continue each other): row k starts at src + src_row(k) and
/// dst + dst_row(k); element i of a row at i * src_inc and i * dst_inc. The
/// rows are cut in `pieces` pieces; unit0 numbers the box's first piece among
/// all the boxes of one launch.
struct BoxCopy {
  index_t src = 0, dst = 0;
  index_t len = 1, src_inc = 1, dst_inc = 1;
  index_t rows = 0, pieces = 1, unit0 = 0;
  Digits src_row, dst_row;

  index_t units() const { return rows * pieces; }
  /// True when the box is one contiguous range on the side with stride `inc`.
  bool contiguous_src() const { return rows <= 1 && (len <= 1 || src_inc == 1); }
  bool contiguous_dst() const { return rows <= 1 && (len <= 1 || dst_inc == 1); }
};

/// The copy of a box of extents e (slowest first) between two strided layouts.
inline BoxCopy make_box_copy(const std::vector<index_t>& e, const std::vector<index_t>& ss,
                             const std::vector<index_t>& ds, index_t src0, index_t dst0) {
  BoxCopy c;
  c.src = src0;
  c.dst = dst0;
  struct Dim { index_t n, s, d; };
  std::vector<Dim> dims;  // slowest first, extents of 1 dropped, fused
  index_t volume = 1;
  for (std::size_t j = 0; j < e.size(); ++j) {
    volume *= e[j];
    if (e[j] == 1) continue;
    if (!dims.empty() && dims.back().s == ss[j] * e[j] && dims.back().d == ds[j] * e[j]) {
      dims.back() = {dims.back().n * e[j], ss[j], ds[j]};
      continue;
    }
    dims.push_back({e[j], ss[j], ds[j]});
  }
  if (volume == 0) {
    c.rows = 0;
    return c;
  }
  if (dims.empty()) dims.push_back({1, 1, 1});
  c.len = dims.back().n;
  c.src_inc = dims.back().s;
  c.dst_inc = dims.back().d;
  c.rows = 1;
  for (int j = static_cast<int>(dims.size()) - 2; j >= 0; --j) {
    c.src_row.push(dims[j].n, dims[j].s);
    c.dst_row.push(dims[j].n, dims[j].d);
    c.rows *= dims[j].n;
  }
  return c;
}

/// Row-major strides of extents e.
inline std::vector<index_t> dense_strides(const std::vector<index_t>& e) {
  std::vector<index_t> s(e.size());
  index_t acc = 1;
  for (int j = static_cast<int>(e.size()) - 1; j >= 0; --j) s[j] = acc, acc *= e[j];
  return s;
}

/// Rank r's input block in output coordinates.
inline Box in_block_as_output(const Decomposition& in, const std::vector<int>& perm, int r) {
  const Box b = in.block(r);
  Box o;
  o.rank = b.rank;
  for (int k = 0; k < b.rank; ++k) o.lo[k] = b.lo[perm[k]], o.hi[k] = b.hi[perm[k]];
  return o;
}

struct ExchangeLayout {
  std::vector<int> q;              ///< message order: position j holds output dim q[j]
  std::vector<int> pack_perm;      ///< tmp dim j is local input dim pack_perm[j]
  std::vector<index_t> in_extents, tmp_extents, out_extents;  ///< this rank's blocks
  bool pack_is_copy = false;       ///< pack_perm moves nothing: tmp is the input itself
  bool send_from_tmp = false;      ///< every send box is a contiguous range of tmp
  bool recv_into_out = false;      ///< every receive box is a contiguous range of out
  /// Per peer, in elements: counts and displacements (in tmp or the send
  /// buffer; in out or the receive buffer).
  std::vector<index_t> send_count, send_displ, recv_count, recv_displ;
  std::vector<BoxCopy> pack, unpack;  ///< gathers and scatters, when needed
  index_t send_elems = 0, recv_elems = 0;  ///< elements of the send and receive buffers
};

/// Output dims along which some sender's block is cut (in output order).
inline std::vector<int> cut_dims(const Decomposition& in, const Decomposition& out,
                                 const std::vector<int>& perm) {
  const int R = in.ndim(), P = in.nranks();
  std::vector<bool> cut(R, false);
  std::vector<Box> outs(P);
  for (int s = 0; s < P; ++s) outs[s] = out.block(s);
  for (int r = 0; r < P; ++r) {
    const Box src = in_block_as_output(in, perm, r);
    for (int s = 0; s < P; ++s) {
      const Box b = intersect(src, outs[s]);
      if (b.empty()) continue;
      for (int k = 0; k < R; ++k)
        if (b.lo[k] != src.lo[k] || b.hi[k] != src.hi[k]) cut[k] = true;
    }
  }
  std::vector<int> d;
  for (int k = 0; k < R; ++k)
    if (cut[k]) d.push_back(k);
  return d;
}

/// The exchange of rank `me`. The decompositions must already agree (same
/// ranks, out extents = in extents permuted).
inline ExchangeLayout make_layout(const Decomposition& in, const Decomposition& out,
                                  const std::vector<int>& perm, int me) {
  ExchangeLayout L;
  const int R = in.ndim(), P = in.nranks();
  // Message order.
  const auto cut = cut_dims(in, out, perm);
  L.q.resize(R);
  std::iota(L.q.begin(), L.q.end(), 0);
  if (!cut.empty() && cut.back() != R - 1) {
    L.q = cut;
    for (int k = 0; k < R; ++k)
      if (std::find(cut.begin(), cut.end(), k) == cut.end()) L.q.push_back(k);
  }
  L.pack_perm.resize(R);
  for (int j = 0; j < R; ++j) L.pack_perm[j] = perm[L.q[j]];

  const Box mine_in = in_block_as_output(in, perm, me), mine_out = out.block(me);
  L.in_extents = in.local_extents(me);
  L.out_extents = out.local_extents(me);
  L.tmp_extents.resize(R);
  for (int j = 0; j < R; ++j) L.tmp_extents[j] = mine_in.extent(L.q[j]);
  L.pack_is_copy =
      tilekit::impl::fuse(tilekit::impl::row_major_shape(L.in_extents, L.pack_perm, false)).rank <= 1;

  const auto tmp_s = dense_strides(L.tmp_extents);
  const auto out_s = dense_strides(L.out_extents);
  std::vector<index_t> out_q(R);  // out strides in message order
  for (int j = 0; j < R; ++j) out_q[j] = out_s[L.q[j]];
  L.send_count.assign(P, 0);
  L.send_displ.assign(P, 0);
  L.recv_count.assign(P, 0);
  L.recv_displ.assign(P, 0);
  std::vector<BoxCopy> gathers(P), scatters(P);
  L.send_from_tmp = L.recv_into_out = true;
  for (int peer = 0; peer < P; ++peer) {
    // Sent to peer: my input block meets its output block.
    {
      const Box b = intersect(mine_in, out.block(peer));
      std::vector<index_t> e(R);
      index_t origin = 0;
      for (int j = 0; j < R; ++j) {
        e[j] = b.extent(L.q[j]);
        origin += (b.lo[L.q[j]] - mine_in.lo[L.q[j]]) * tmp_s[j];
      }
      L.send_count[peer] = b.size();
      gathers[peer] = make_box_copy(e, tmp_s, dense_strides(e), origin, 0);
      L.send_displ[peer] = origin;
      if (b.size() > 0 && !gathers[peer].contiguous_src()) L.send_from_tmp = false;
    }
    // Received from peer: its input block meets my output block.
    {
      const Box b = intersect(in_block_as_output(in, perm, peer), mine_out);
      std::vector<index_t> e(R);
      index_t origin = 0;
      for (int j = 0; j < R; ++j) {
        e[j] = b.extent(L.q[j]);
        origin += (b.lo[L.q[j]] - mine_out.lo[L.q[j]]) * out_q[j];
      }
      L.recv_count[peer] = b.size();
      scatters[peer] = make_box_copy(e, dense_strides(e), out_q, 0, origin);
      L.recv_displ[peer] = origin;
      if (b.size() > 0 && !scatters[peer].contiguous_dst()) L.recv_into_out = false;
    }
  }
  // Otherwise: gather into / scatter from buffers laid out peer after peer.
  auto lay_out = [](std::vector<index_t>& displ, const std::vector<index_t>& count) {
    index_t at = 0;
    for (std::size_t p = 0; p < count.size(); ++p) displ[p] = at, at += count[p];
    return at;
  };
  if (!L.send_from_tmp) {
    L.send_elems = lay_out(L.send_displ, L.send_count);
    for (int peer = 0; peer < P; ++peer) {
      gathers[peer].dst = L.send_displ[peer];
      if (gathers[peer].rows > 0) L.pack.push_back(gathers[peer]);
    }
  }
  if (!L.recv_into_out) {
    L.recv_elems = lay_out(L.recv_displ, L.recv_count);
    for (int peer = 0; peer < P; ++peer) {
      scatters[peer].src = L.recv_displ[peer];
      if (scatters[peer].rows > 0) L.unpack.push_back(scatters[peer]);
    }
  }
  return L;
}

}  // namespace tilekit::dist::impl
