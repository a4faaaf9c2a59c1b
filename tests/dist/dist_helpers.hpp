#pragma once
// Shared by the distributed tests: global test data, the gather of every
// rank's block onto rank 0, and a collective verdict (every rank learns the
// result, so no rank leaves a test early and strands the others).
#include <tilekit/dist.hpp>

#include "test_helpers.hpp"

#include <cstdlib>
#include <string>
#include <vector>

namespace tilekit::test::dist {

using tilekit::dist::Box;
using tilekit::dist::Decomposition;
using tilekit::dist::index_t;

inline int comm_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int comm_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// The engine the tests ask for: TILEKIT_TEST_ENGINE=mpi|nccl|automatic
/// (automatic when unset; on one GPU shared by several ranks use mpi).
inline tilekit::dist::EngineOptions test_engine() {
  tilekit::dist::EngineOptions o;
  const char* e = std::getenv("TILEKIT_TEST_ENGINE");
  const std::string s = e ? e : "automatic";
  o.engine = s == "mpi" ? tilekit::dist::Engine::mpi
             : s == "nccl" ? tilekit::dist::Engine::nccl
                           : tilekit::dist::Engine::automatic;
  return o;
}

/// Why the test engine cannot run on Exec, "" when it can: the NCCL engine
/// takes CUDA spaces only (TILEKIT_TEST_ENGINE=nccl skips the host cases).
template <class Exec>
std::string engine_skip_reason() {
  const std::string why = tilekit::dist::engine_problem<Exec>(test_engine().engine);
  return why.empty() ? why : "TILEKIT_TEST_ENGINE: " + why;
}

/// Skips the calling test (on every rank alike) where the test engine cannot
/// run on Exec.
#define TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(Exec)                                  \
  if (const std::string why_ = ::tilekit::test::dist::engine_skip_reason<Exec>(); \
      !why_.empty())                                                                \
  GTEST_SKIP() << why_

/// Row-major strides of extents.
inline std::vector<index_t> strides(const std::vector<index_t>& e) {
  std::vector<index_t> s(e.size());
  index_t acc = 1;
  for (int d = static_cast<int>(e.size()) - 1; d >= 0; --d) s[d] = acc, acc *= e[d];
  return s;
}

/// Calls fn(global offset, local offset) for every element of box b of a
/// global row-major tensor of extents g (local offsets row-major in the box).
template <class Fn>
void for_box(const Box& b, const std::vector<index_t>& g, Fn&& fn) {
  if (b.empty()) return;
  const int R = b.rank;
  const auto gs = strides(g);
  std::vector<index_t> idx(b.lo.begin(), b.lo.begin() + R);
  for (index_t local = 0; local < b.size(); ++local) {
    index_t off = 0;
    for (int d = 0; d < R; ++d) off += idx[d] * gs[d];
    fn(off, local);
    for (int d = R - 1; d >= 0; --d) {
      if (++idx[d] < b.hi[d]) break;
      idx[d] = b.lo[d];
    }
  }
}

/// Rank-R LayoutRight view type of T in Exec's memory.
template <class T, int R> struct Ptr { using type = typename Ptr<T, R - 1>::type*; };
template <class T> struct Ptr<T, 0> { using type = T; };
template <class Exec, class T, int R>
using Block = Kokkos::View<typename Ptr<T, R>::type, Kokkos::LayoutRight, typename Exec::memory_space>;

template <class V, std::size_t... I>
V make_block(const std::string& label, const std::vector<index_t>& e, std::index_sequence<I...>) {
  return V(label, static_cast<std::size_t>(e[I])...);
}
/// This rank's block of d.
template <class Exec, class T, int R>
Block<Exec, T, R> allocate(const std::string& label, const Decomposition& d) {
  return make_block<Block<Exec, T, R>>(label, d.local_extents(comm_rank()),
                                       std::make_index_sequence<R>{});
}

/// Fills this rank's block with value_of(global offset).
template <class View>
void fill_global_pattern(const View& v, const Decomposition& d) {
  using T = typename View::non_const_value_type;
  auto h = Kokkos::create_mirror_view(Kokkos::HostSpace(), v);
  for_box(d.block(comm_rank()), d.extents(),
          [&](index_t g, index_t l) { h.data()[l] = static_cast<T>(value_of(g)); });
  Kokkos::deep_copy(v, h);
}

/// The global tensor on rank 0 (empty elsewhere), from every rank's block.
template <class View>
std::vector<typename View::non_const_value_type> gather(const View& v, const Decomposition& d) {
  using T = typename View::non_const_value_type;
  const int me = comm_rank(), P = comm_size();
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  std::vector<int> counts(P), displs(P);
  int total = 0;
  for (int r = 0; r < P; ++r) {
    counts[r] = static_cast<int>(d.block(r).size() * sizeof(T));
    displs[r] = total;
    total += counts[r];
  }
  std::vector<char> all(me == 0 ? total : 0);
  MPI_Gatherv(h.data(), counts[me], MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE,
              0, MPI_COMM_WORLD);
  std::vector<T> global;
  if (me != 0) return global;
  global.resize(d.size());
  for (int r = 0; r < P; ++r) {
    const T* blk = reinterpret_cast<const T*>(all.data() + displs[r]);
    for_box(d.block(r), d.extents(), [&](index_t g, index_t l) { global[g] = blk[l]; });
  }
  return global;
}

/// Rank 0's count of elements of the gathered output that differ from the
/// single-rank reference permutation of the gathered input, on every rank.
template <class InView, class OutView>
index_t mismatches(const InView& in, const Decomposition& din, const OutView& out,
                   const Decomposition& dout, const std::vector<int>& perm) {
  const auto gin = gather(in, din);
  const auto gout = gather(out, dout);
  index_t bad = 0;
  if (comm_rank() == 0) {
    const int R = din.ndim();
    const auto& n = din.extents();
    const auto os = strides(dout.extents());
    std::vector<index_t> in_dim_ostride(R);  // output stride of each input dim
    for (int k = 0; k < R; ++k) in_dim_ostride[perm[k]] = os[k];
    std::vector<index_t> idx(R, 0);
    index_t o = 0;
    for (index_t i = 0; i < din.size(); ++i) {
      if (!(gout[o] == gin[i])) ++bad;
      for (int d = R - 1; d >= 0; --d) {
        o += in_dim_ostride[d];
        if (++idx[d] < n[d]) break;
        o -= in_dim_ostride[d] * n[d];
        idx[d] = 0;
      }
    }
  }
  MPI_Bcast(&bad, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  return bad;
}

/// True on every rank when v is still poisoned on every rank.
template <class View>
bool poisoned_everywhere(const View& v) {
  int ok = still_poisoned(v) ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return ok == 1;
}

inline std::vector<index_t> permuted(const std::vector<index_t>& e, const std::vector<int>& perm) {
  std::vector<index_t> o(e.size());
  for (std::size_t k = 0; k < e.size(); ++k) o[k] = e[perm[k]];
  return o;
}

inline std::string what(const Decomposition& a, const Decomposition& b, const std::vector<int>& perm) {
  return a.to_string() + " -> " + b.to_string() + " perm [" +
         tilekit::impl::join(perm, perm.size()) + "] on " + std::to_string(comm_size()) + " ranks";
}

/// One distributed permutation, checked; returns the mismatches (every rank).
template <class Exec, class T, int R>
index_t run_case(const Decomposition& din, const Decomposition& dout, const std::vector<int>& perm,
                 const tilekit::dist::EngineOptions& eo = test_engine()) {
  auto in = allocate<Exec, T, R>("in", din);
  auto out = allocate<Exec, T, R>("out", dout);
  fill_global_pattern(in, din);
  Kokkos::deep_copy(out, poison<T>());
  tilekit::dist::PermutePlan<Exec, T> plan(Exec(), MPI_COMM_WORLD, din, dout, perm, eo);
  plan.execute(in, out);
  Exec().fence();
  return mismatches(in, din, out, dout, perm);
}

}  // namespace tilekit::test::dist
