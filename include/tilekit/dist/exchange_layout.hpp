#pragma once
// What each rank sends to and receives from every other rank, in which
// chunks, and which local passes it runs: worked out once per plan from the
// two decompositions, the permutation and the chunk count (host code, no MPI).
//
// The model. The output tensor is the input permuted: output dimension k is
// input dimension perm[k]. Rank r's input block, read in output coordinates,
// meets rank s's output block in a box B(r, s); r sends B(r, s) to s. Each
// message holds its box row-major in the *message order* q (output
// dimensions, slowest first), the same on every rank. q puts first the output
// dimensions along which senders' blocks are cut and always ends with the
// fastest output dimension, so that receiving a box is a copy of rows.
//
// Chunks. Every box is cut along its *chunk dimension*, the first position of
// q where the box has more than one index, into C balanced pieces (a piece may
// be empty). A piece is then one contiguous range of its message, and sender
// and receiver cut the same box the same way. Chunk k is piece k of every box.
// Where the dimension holds at least `granule` indices per chunk (the
// backend's tile edge), pieces hold whole granules but the last: the chunk
// dimension is often the input's fastest (a slab transpose), and a piece of
// 73 indices would leave the permute a tile of 9 in every row.
//
// Passes, per piece (each element is read and written once per side):
//   send     a piece that is a contiguous range of the input block in q order
//            is sent from the input in place; otherwise a *pack* pass moves it
//            from the input block into the send buffer: the user's
//            permutation, the only one, folded into the pack.
//   receive  a piece that is a contiguous range of the output block is
//            received in place; otherwise an *unpack* pass copies it from the
//            receive buffer into the output block (rows of the fastest output
//            dimension: no permutation left).
//   own      the piece of B(me, me) goes straight from the input block to the
//            output block in one pass; it is never sent.
// The buffers hold the other pieces chunk after chunk, peers in pairwise
// order within a chunk.
#include <tilekit/dist/decomposition.hpp>
#include <tilekit/impl/common/shape.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

namespace tilekit::dist::impl {

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

/// The message order: the cut output dimensions first, then the others in
/// output order; the output order itself when the fastest one is cut.
inline std::vector<int> message_order(const Decomposition& in, const Decomposition& out,
                                      const std::vector<int>& perm) {
  const int R = in.ndim();
  const auto cut = cut_dims(in, out, perm);
  std::vector<int> q(R);
  std::iota(q.begin(), q.end(), 0);
  if (!cut.empty() && cut.back() != R - 1) {
    q = cut;
    for (int k = 0; k < R; ++k)
      if (std::find(cut.begin(), cut.end(), k) == cut.end()) q.push_back(k);
  }
  return q;
}

/// The chunk dimension of a box of extents e (message order): the first
/// position holding more than one index (0 when none does).
inline int chunk_dim(const std::vector<index_t>& e) {
  for (std::size_t j = 0; j < e.size(); ++j)
    if (e[j] > 1) return static_cast<int>(j);
  return 0;
}

/// Piece k of C of n indices: [first, first + count), balanced (the first
/// n % C pieces hold one more), in units of `granule` indices where n holds
/// at least C of them (the last piece takes the remainder), else of one.
struct Range {
  index_t first = 0, count = 0;
};
inline Range piece(index_t n, int C, int k, index_t granule = 1) {
  const index_t g = granule > 1 && n >= granule * C ? granule : 1;
  const index_t units = (n + g - 1) / g, base = units / C, rem = units % C;
  const index_t u0 = k * base + std::min<index_t>(k, rem), u1 = u0 + base + (k < rem ? 1 : 0);
  const index_t first = std::min(n, u0 * g);
  return {first, std::min(n, u1 * g) - first};
}

/// The largest chunk-dimension extent of any box B(r, s), in granules where
/// it holds more than one (every rank computes the same): more chunks than
/// this only add empty ones.
inline index_t chunk_rows(const Decomposition& in, const Decomposition& out,
                          const std::vector<int>& perm, index_t granule = 1) {
  const int R = in.ndim(), P = in.nranks();
  const auto q = message_order(in, out, perm);
  std::vector<Box> outs(P);
  for (int s = 0; s < P; ++s) outs[s] = out.block(s);
  index_t most = 1;
  std::vector<index_t> e(R);
  for (int r = 0; r < P; ++r) {
    const Box src = in_block_as_output(in, perm, r);
    for (int s = 0; s < P; ++s) {
      const Box b = intersect(src, outs[s]);
      if (b.empty()) continue;
      for (int j = 0; j < R; ++j) e[j] = b.extent(q[j]);
      const index_t n = e[chunk_dim(e)];
      most = std::max(most, n >= 2 * granule ? n / granule : n);
    }
  }
  return most;
}

/// A box of a local block or buffer: its first element's offset and, per
/// message-order position, its extent and stride (elements).
struct Strided {
  index_t offset = 0;
  std::vector<index_t> extent, stride;

  index_t size() const {
    index_t n = 1;
    for (auto e : extent) n *= e;
    return n;
  }
  /// True when its elements, row-major in message order, are the range
  /// [offset, offset + size()) of the block: it can be sent or received in place.
  bool contiguous() const {
    index_t want = 1;
    for (int j = static_cast<int>(extent.size()) - 1; j >= 0; --j) {
      if (extent[j] == 1) continue;
      if (stride[j] != want) return false;
      want *= extent[j];
    }
    return true;
  }
};

/// One local pass: the box `src` (of the input block, or of the receive
/// buffer) copied to the box `dst` (of the send buffer, or of the output
/// block), element j of one to element j of the other in message order.
struct Pass {
  int peer = 0;
  Strided src, dst;
  /// True when it copies rows: after dimension fusion the fastest dimension
  /// stays (the rows may land in another order), so the library moves whole
  /// rows instead of transposing tiles.
  bool is_copy() const {
    const int R = static_cast<int>(src.extent.size());
    std::vector<int> id(R);
    std::iota(id.begin(), id.end(), 0);
    const auto f =
        tilekit::impl::fuse(tilekit::impl::strided_shape(src.extent, id, src.stride, dst.stride));
    return f.rank <= 1 || f.p[f.rank - 1] == f.rank - 1;
  }
};

/// One message of a chunk: `count` elements to or from `peer`, at `offset`
/// of the user's block (in place: the input for a send, the output for a
/// receive) or of the plan's buffer.
struct Message {
  int peer = 0;
  index_t count = 0;
  bool in_place = false;
  index_t offset = 0;
};

struct Chunk {
  std::vector<Pass> pack, own, unpack;
  std::vector<Message> sends, recvs;
};

struct ExchangeLayout {
  std::vector<int> q;  ///< message order: position j holds output dim q[j]
  std::vector<index_t> in_extents, out_extents;  ///< this rank's blocks
  std::vector<Chunk> chunks;
  index_t send_elems = 0, recv_elems = 0;  ///< elements of the send and receive buffers
  /// This rank's elements: packed, unpacked, moved input -> output directly,
  /// sent to and received from other ranks.
  index_t packed = 0, unpacked = 0, own = 0, sent = 0, received = 0;
  int send_peers = 0, recv_peers = 0;  ///< other ranks this one sends to / receives from

  /// "permute", "copy" (of rows) or "-": what the passes of one role do.
  static std::string kind(const std::vector<Pass> Chunk::*role, const std::vector<Chunk>& cs) {
    bool any = false, permutes = false;
    for (const auto& c : cs)
      for (const auto& p : c.*role) {
        any = true;
        permutes = permutes || !p.is_copy();
      }
    return !any ? "-" : permutes ? "permute" : "copy";
  }
  /// The passes this rank runs: "permute, exchange, copy, own: permute".
  std::string passes() const {
    const bool moves = sent + received > 0;
    return kind(&Chunk::pack, chunks) + ", " + (moves ? "exchange" : "-") + ", " +
           kind(&Chunk::unpack, chunks) + ", own: " + kind(&Chunk::own, chunks);
  }
};

/// The exchange of rank `me` in `chunks` chunks, pieces in units of
/// `granule` indices where they are long enough (piece()). The decompositions
/// must already agree (same ranks, out extents = in extents permuted).
inline ExchangeLayout make_layout(const Decomposition& in, const Decomposition& out,
                                  const std::vector<int>& perm, int me, int chunks,
                                  index_t granule = 1) {
  ExchangeLayout L;
  const int R = in.ndim(), P = in.nranks(), C = std::max(chunks, 1);
  L.q = message_order(in, out, perm);
  L.in_extents = in.local_extents(me);
  L.out_extents = out.local_extents(me);
  L.chunks.resize(C);
  const Box mine_in = in_block_as_output(in, perm, me), mine_out = out.block(me);
  // Strides of output dimension k in the input and output blocks.
  const auto in_s = dense_strides(L.in_extents), out_s = dense_strides(L.out_extents);
  std::vector<index_t> in_k(R), out_k(R);
  for (int k = 0; k < R; ++k) in_k[k] = in_s[perm[k]], out_k[k] = out_s[k];
  // Box b (output coordinates) of the block whose origin is `at`, with
  // strides st (per output dim), in message order.
  auto strided = [&](const Box& b, const Box& at, const std::vector<index_t>& st) {
    Strided s;
    s.extent.resize(R);
    s.stride.resize(R);
    for (int j = 0; j < R; ++j) {
      const int k = L.q[j];
      s.extent[j] = b.extent(k);
      s.stride[j] = st[k];
      s.offset += (b.lo[k] - at.lo[k]) * st[k];
    }
    return s;
  };
  auto dense = [&](const Strided& s, index_t offset) {
    Strided d;
    d.offset = offset;
    d.extent = s.extent;
    d.stride = dense_strides(s.extent);
    return d;
  };
  // Piece k of box b: b cut along its chunk dimension.
  auto cut = [&](Box b, int k) {
    std::vector<index_t> e(R);
    for (int j = 0; j < R; ++j) e[j] = b.extent(L.q[j]);
    const int d = L.q[chunk_dim(e)];
    const Range p = piece(b.extent(d), C, k, granule);
    b.lo[d] += p.first;
    b.hi[d] = b.lo[d] + p.count;
    return b;
  };
  std::vector<Box> sends(P), recvs(P);
  for (int s = 0; s < P; ++s) {
    sends[s] = intersect(mine_in, out.block(s));
    recvs[s] = intersect(in_block_as_output(in, perm, s), mine_out);
    if (s == me) continue;
    if (!sends[s].empty()) ++L.send_peers;
    if (!recvs[s].empty()) ++L.recv_peers;
  }
  for (int k = 0; k < C; ++k) {
    Chunk& ch = L.chunks[k];
    const Box own = cut(sends[me], k);
    if (!own.empty()) {
      ch.own.push_back({me, strided(own, mine_in, in_k), strided(own, mine_out, out_k)});
      L.own += own.size();
    }
    for (int step = 1; step < P; ++step) {  // pairwise: send to me + step, receive from me - step
      const int to = (me + step) % P, from = (me - step + P) % P;
      const Box sb = cut(sends[to], k);
      if (!sb.empty()) {
        const Strided src = strided(sb, mine_in, in_k);
        if (src.contiguous()) {
          ch.sends.push_back({to, src.size(), true, src.offset});
        } else {
          ch.pack.push_back({to, src, dense(src, L.send_elems)});
          ch.sends.push_back({to, src.size(), false, L.send_elems});
          L.send_elems += src.size();
          L.packed += src.size();
        }
        L.sent += src.size();
      }
      const Box rb = cut(recvs[from], k);
      if (!rb.empty()) {
        const Strided dst = strided(rb, mine_out, out_k);
        if (dst.contiguous()) {
          ch.recvs.push_back({from, dst.size(), true, dst.offset});
        } else {
          ch.unpack.push_back({from, dense(dst, L.recv_elems), dst});
          ch.recvs.push_back({from, dst.size(), false, L.recv_elems});
          L.recv_elems += dst.size();
          L.unpacked += dst.size();
        }
        L.received += dst.size();
      }
    }
  }
  return L;
}

}  // namespace tilekit::dist::impl
