#pragma once
// Checkered matrix multiplication (seed 001): for N x N matrices A and B, N
// even, the (N/2) x N matrix C whose element C[i/2][j + (i & 1) N/2] is row i
// of A times column set j (columns 2j, 2j + 1) of B, even elements of the row
// with odd elements of one column and odd elements with even elements of the
// other, the pattern flipping between even and odd rows:
//
//   C[i/2][j + s N/2] = sum_p A[i][2p] B[2p+1][2j+1-s] + A[i][2p+1] B[2p][2j+s],  s = i & 1
//
// (docs/cmm.md has the seed's 4 x 4 example). Work runs asynchronously on the
// given execution space instance; nothing here fences.
//
//   tilekit::checkered_matmul(exec, A, B, C);                        // register-blocked
//   tilekit::checkered_matmul(exec, A, B, C, tilekit::CmmVariant::naive);
//   tilekit::CmmPlan plan(exec, A, B, C);  plan.execute(A, B, C);   // reuse the checked setup
//
// Views: rank 2, contiguous LayoutRight or LayoutLeft (any mix), accessible
// from the execution space; A and B may be const and may be the same view.
// Odd N, non-square A or B, C of other extents than (N/2, N), or C sharing
// memory with A or B throw tilekit::invalid_argument before anything is written.
//
// Threads: a plan holds nothing execute() writes, so host threads may share one
// (docs/reliability.md).
#include <tilekit/impl/cmm/dispatch.hpp>
// The launching code, for the plans the library does not hold (impl/common/eti.hpp).
#include <tilekit/impl/cmm/definitions.hpp>

namespace tilekit {

template <class ExecSpace, class AView, class BView, class CView>
void checkered_matmul(const ExecSpace& exec, const AView& a, const BView& b, const CView& c,
                      CmmVariant variant = CmmVariant::blocked, const CmmOptions& opts = {}) {
  CmmPlan(exec, a, b, c, variant, opts).execute(a, b, c);
}

/// Same, with the kernels labelled `label` + "_<variant>" for Kokkos tools.
template <class ExecSpace, class AView, class BView, class CView>
void checkered_matmul(const std::string& label, const ExecSpace& exec, const AView& a,
                      const BView& b, const CView& c, CmmVariant variant = CmmVariant::blocked) {
  CmmOptions o;
  o.label = label;
  checkered_matmul(exec, a, b, c, variant, o);
}

}  // namespace tilekit
