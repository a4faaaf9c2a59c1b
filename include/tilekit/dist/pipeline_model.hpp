#pragma once
// The chunking rule of the distributed plans: a small cost model of the
// pipeline (docs/distributed.md, "Cost model"). Plain host code.
//
// A rank packs `packed` bytes, sends `sent` bytes to `peers` other ranks (and
// receives as many), unpacks `unpacked` bytes and moves `own` bytes from its
// input block to its output block directly. With a device copy rate c (bytes
// read + written per second), local passes at e of it, a link of bandwidth
// beta (each direction) and latency alpha per message, and a launch cost l
// per kernel, chunk by chunk (C chunks):
//
//   p = 2 packed / (e c C) + peers l      pack of one chunk
//   u = 2 unpacked / (e c C) + peers l    unpack of one chunk
//   o = 2 own / (e c C) + l               own piece of one chunk
//   x = sent / (beta C) + peers alpha     exchange of one chunk
//
// Host spaces run their kernels on the calling thread and MPI moves messages
// only inside its calls, so nothing overlaps: T = C (p + o + x + u), and one
// chunk is best. Device spaces run the packs (and own pieces) on one
// instance, the exchange on its own stream, the unpacks on another instance:
// a three-stage pipeline whose local stages share the device's memory with
// the exchange, which reads and writes about 4 bytes for every byte sent
// (the message on each side and the engine's staging buffers), so they run
// slower by f = 1 / (1 - 4 beta / c):
//
//   T(C) = p + max(x, f o) + u + (C - 1) max(x, f (p + o + u)) + (C - 1) k
//
// where k is a fixed cost of each chunk after the first on a device (the
// device's local passes and the exchange's kernels do not overlap as well as
// the three-stage pipeline assumes: Kokkos launches functors of more than
// 512 bytes through constant memory, and each such launch waits on the host
// for the previous one; NCCL's kernels share the SMs with the local passes).
// k is measured, not derived: docs/distributed.md has the runs it comes from.
//
// The plan takes the C from 1 up to the largest chunk-dimension extent (at
// most max_chunks) that minimises T, taking a larger C only where it gains at
// least 1%.
#include <algorithm>
#include <string_view>

namespace tilekit::dist {

/// The link the model assumes (automatic: what the plan sees).
enum class Link {
  automatic,
  host,     ///< host memory: nothing overlaps
  node,     ///< device memory, every rank on one node (NVLink)
  network,  ///< device memory, ranks on several nodes (one NIC per device)
  staged,   ///< device memory through pinned host buffers (MPI not CUDA-aware)
};

constexpr std::string_view to_string(Link l) {
  switch (l) {
    case Link::automatic: return "automatic";
    case Link::host: return "host";
    case Link::node: return "node";
    case Link::network: return "network";
    case Link::staged: return "staged";
  }
  return "?";
}

/// The figures the chunking rule works from; 0 takes the link's default
/// (link_defaults). docs/distributed.md gives their sources.
struct LinkModel {
  Link link = Link::automatic;
  double alpha_us = 0;   ///< latency of one message of one chunk, microseconds
  double beta_gbps = 0;  ///< bytes a rank sends per second (and receives at once), GB/s
  double copy_gbps = 0;  ///< device copy rate, bytes read + written per second, GB/s
  double local_eff = 0;  ///< the local passes' rate as a fraction of copy_gbps
  double launch_us = 0;  ///< cost of one more kernel launch, microseconds
  double chunk_us = 0;   ///< device spaces: fixed cost of each chunk after the first, microseconds
};

/// The defaults of a link, where the caller gives none: measured figures of
/// the machines tilekit was run on (NCCL's all-to-all over NVLink, the staged
/// MPI path, the chunk sweeps), a 400 Gb/s NIC per device for `network`;
/// docs/distributed.md's table gives each figure and its source.
inline LinkModel link_defaults(LinkModel m, Link seen) {
  if (m.link == Link::automatic) m.link = seen;
  double alpha = 10, beta = 340;
  switch (m.link) {
    case Link::host: alpha = 5, beta = 10; break;
    case Link::node: alpha = 10, beta = 340; break;
    case Link::network: alpha = 25, beta = 45; break;
    case Link::staged: alpha = 50, beta = 2.4; break;
    case Link::automatic: break;
  }
  if (m.alpha_us <= 0) m.alpha_us = alpha;
  if (m.beta_gbps <= 0) m.beta_gbps = beta;
  if (m.copy_gbps <= 0) m.copy_gbps = 4162;
  if (m.local_eff <= 0) m.local_eff = 0.85;
  if (m.launch_us <= 0) m.launch_us = 4;
  if (m.chunk_us <= 0) m.chunk_us = 250;
  return m;
}

/// A rank's work in one execute, bytes (the plan takes each figure's largest
/// over the ranks, so that every rank chooses the same chunk count).
struct PipelineWork {
  double packed = 0, unpacked = 0, own = 0, sent = 0;
  int peers = 0;  ///< other ranks a rank exchanges with
};

/// The model's times of one execute in C chunks, milliseconds.
struct PipelineEstimate {
  int chunks = 1;
  double pack_ms = 0, own_ms = 0, exchange_ms = 0, unpack_ms = 0;  ///< each phase alone
  double total_ms = 0;  ///< the pipeline
};

inline PipelineEstimate estimate(const PipelineWork& w, const LinkModel& m, int chunks) {
  const int C = std::max(chunks, 1);
  const double local = m.local_eff * m.copy_gbps * 1e9, link = m.beta_gbps * 1e9;
  const double l = m.launch_us * 1e-6, a = m.alpha_us * 1e-6;
  PipelineEstimate e;
  e.chunks = C;
  const double tp = 2 * w.packed / local, tu = 2 * w.unpacked / local, to = 2 * w.own / local;
  const double tx = w.sent / link;
  const double p = w.packed > 0 ? tp / C + w.peers * l : 0;
  const double u = w.unpacked > 0 ? tu / C + w.peers * l : 0;
  const double o = w.own > 0 ? to / C + l : 0;
  const double x = w.sent > 0 ? tx / C + w.peers * a : 0;
  e.pack_ms = C * p * 1e3;
  e.unpack_ms = C * u * 1e3;
  e.own_ms = C * o * 1e3;
  e.exchange_ms = C * x * 1e3;
  double t = 0;
  if (m.link == Link::host) {
    t = C * (p + o + x + u);
  } else {
    // Without an exchange nothing shares the device's memory with the local passes.
    const double f = w.sent > 0 ? 1 / (1 - std::min(0.5, 4 * m.beta_gbps / m.copy_gbps)) : 1;
    t = p + std::max(x, f * o) + u + (C - 1) * (std::max(x, f * (p + o + u)) + m.chunk_us * 1e-6);
  }
  e.total_ms = t * 1e3;
  return e;
}

/// The chunk count the plan takes: the C in [1, most] of the least T(C), a
/// larger one only where it gains at least 1%.
inline int choose_chunks(const PipelineWork& w, const LinkModel& m, long most) {
  int best = 1;
  double t_best = estimate(w, m, 1).total_ms;
  for (long c = 2; c <= most; ++c) {
    const double t = estimate(w, m, static_cast<int>(c)).total_ms;
    if (t < 0.99 * t_best) best = static_cast<int>(c), t_best = t;
  }
  return best;
}

/// The device's copy rate (deep_copy, bytes read + written) as a share of its
/// theoretical memory bandwidth, where the caller gives no copy_gbps.
inline constexpr double copy_of_peak = 0.867;

/// The most chunks the model considers (beyond, the per-chunk latencies and
/// launches dominate on every link it knows).
inline constexpr int max_model_chunks = 32;

}  // namespace tilekit::dist
