#pragma once
// Distributed permute, transpose and redistribution (MPI; NCCL for CUDA memory):
//
//   out = permute(in, perm) of a tensor spread over the ranks of comm,
//   out.extents()[k] == in.extents()[perm[k]] globally; each rank passes its
//   own blocks (contiguous LayoutRight views of the extents its decompositions
//   give it, in ExecSpace's memory).
//
//   using namespace tilekit::dist;
//   auto din  = Decomposition::slab({nx, ny, nz}, P, 0);        // x-slabs
//   auto dout = Decomposition::slab({nz, ny, nx}, P, 0);        // z-slabs of the transpose
//   permute(exec, comm, din, in, dout, out, {2, 1, 0});          // one shot
//   PermutePlan<Exec, float> plan(exec, comm, din, dout, {2, 1, 0});  // plan once ...
//   plan.execute(in, out);                                       // ... run many times
//   transpose(exec, comm, din2, a, dout2, at);                   // 2-D: perm {1, 0}
//   redistribute(exec, comm, slab, in, pencil, out);             // new grid, same order
//
// Every call is collective over comm. Descriptions that differ between ranks,
// a bad permutation, grids that do not match the communicator, or views that
// are not this rank's blocks throw the same tilekit::invalid_argument on every
// rank, before anything is sent or written. The engine (EngineOptions) is MPI,
// or NCCL for a CUDA space when tilekit is built with TILEKIT_ENABLE_NCCL.
#include <tilekit/dist/permute_plan.hpp>

#include <numeric>

namespace tilekit::dist {

template <class ExecSpace, class InView, class OutView>
void permute(const ExecSpace& exec, MPI_Comm comm, const Decomposition& din, const InView& in,
             const Decomposition& dout, const OutView& out, const std::vector<int>& perm,
             const EngineOptions& engine = {}) {
  PermutePlan<ExecSpace, typename OutView::non_const_value_type>(exec, comm, din, dout, perm,
                                                                 engine)
      .execute(in, out);
}

/// 2-D: out = in^T (perm {1, 0}).
template <class ExecSpace, class InView, class OutView>
void transpose(const ExecSpace& exec, MPI_Comm comm, const Decomposition& din, const InView& in,
               const Decomposition& dout, const OutView& out, const EngineOptions& engine = {}) {
  static_assert(InView::rank() == 2, "tilekit::dist::transpose: rank-2 views");
  permute(exec, comm, din, in, dout, out, {1, 0}, engine);
}

/// The same tensor on another grid (slab <-> pencil, another split): the
/// identity permutation.
template <class ExecSpace, class InView, class OutView>
void redistribute(const ExecSpace& exec, MPI_Comm comm, const Decomposition& din,
                  const InView& in, const Decomposition& dout, const OutView& out,
                  const EngineOptions& engine = {}) {
  std::vector<int> id(InView::rank());
  std::iota(id.begin(), id.end(), 0);
  permute(exec, comm, din, in, dout, out, id, engine);
}

}  // namespace tilekit::dist
