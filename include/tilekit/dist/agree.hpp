#pragma once
// The collective argument check of the distributed plans: every rank checks
// what it can alone, hashes the description it was given (global extents,
// grids, permutation, value type, engine), and one MPI_Allreduce tells every
// rank whether any rank failed or the hashes differ. Then every rank throws
// the same tilekit::invalid_argument (the first failing rank's message is
// broadcast), before anything is sent or written: no rank is left waiting.
#include <tilekit/errors.hpp>

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tilekit::dist::impl {

/// FNV-1a, 64-bit, over the values added.
struct Hash {
  std::uint64_t h = 1469598103934665603ULL;
  void bytes(const void* p, std::size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 1099511628211ULL;
  }
  template <class T>
  void add(const T& v) { bytes(&v, sizeof(T)); }
  template <class T>
  void add(const std::vector<T>& v) {
    add(v.size());
    bytes(v.data(), v.size() * sizeof(T));
  }
};

/// Collective over comm. `error` is this rank's own complaint ("" if none).
inline void agree(MPI_Comm comm, const std::string& where, const std::string& error,
                  std::uint64_t hash) {
  int me = 0, size = 1;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &size);
  // max(hash), max(~hash) = ~min(hash), max(size - first failing rank).
  std::uint64_t v[3] = {hash, ~hash,
                        static_cast<std::uint64_t>(error.empty() ? 0 : size - me)};
  MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_UINT64_T, MPI_MAX, comm);
  if (v[2] > 0) {
    const int first = size - static_cast<int>(v[2]);
    std::string msg = first == me ? error : std::string();
    std::uint64_t len = msg.size();
    MPI_Bcast(&len, 1, MPI_UINT64_T, first, comm);
    msg.resize(len);
    MPI_Bcast(msg.data(), static_cast<int>(len), MPI_CHAR, first, comm);
    throw invalid_argument(where + ": rank " + std::to_string(first) + ": " + msg);
  }
  if (v[0] != ~v[1])
    throw invalid_argument(where + ": the ranks disagree on the description (global extents, "
                                   "decompositions, permutation, value type or engine)");
}

}  // namespace tilekit::dist::impl
