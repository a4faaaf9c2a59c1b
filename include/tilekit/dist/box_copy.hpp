#pragma once
// The gather (pack) and scatter (unpack) kernel of the distributed plans: one
// launch copies a list of strided boxes (exchange_layout.hpp's BoxCopy), each
// as rows cut into pieces of at most `width` elements. A team takes a piece
// (on a GPU a flat team of work items walks it, coalesced where the row is
// contiguous; on a CPU a one-thread team runs a loop the compiler vectorises).
// No backend #ifdef: the team shape is the backend's permute shape.
#include <tilekit/backends/traits.hpp>
#include <tilekit/dist/exchange_layout.hpp>
#include <tilekit/impl/common/launch.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace tilekit::dist::impl {

template <class Exec, class T>
struct CopyBoxes {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  const T* src;
  T* dst;
  const BoxCopy* boxes;
  int nboxes;
  index_t units, width;

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    for (index_t u = team.league_rank(); u < units; u += team.league_size()) {
      int lo = 0, hi = nboxes - 1;  // the last box whose first unit is <= u
      while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (boxes[mid].unit0 <= u) lo = mid;
        else hi = mid - 1;
      }
      const BoxCopy& c = boxes[lo];
      const index_t k = u - c.unit0, row = k / c.pieces, first = (k - row * c.pieces) * width;
      const index_t n = (c.len - first < width ? c.len - first : width);
      const T* s = src + c.src + c.src_row.offset(row) + first * c.src_inc;
      T* d = dst + c.dst + c.dst_row.offset(row) + first * c.dst_inc;
      if (c.src_inc == 1 && c.dst_inc == 1) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const index_t i) { d[i] = s[i]; });
      } else {
        const index_t si = c.src_inc, di = c.dst_inc;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n),
                             [&](const index_t i) { d[i * di] = s[i * si]; });
      }
    }
  }
};

/// A prepared launch of box copies on Exec: the boxes live on the device.
template <class Exec, class T>
class BoxCopyLaunch {
 public:
  BoxCopyLaunch() = default;
  BoxCopyLaunch(const Exec& exec, std::vector<BoxCopy> boxes, const std::string& label)
      : label_(label) {
    const auto c = backends::Traits<Exec>::permute_tile(sizeof(T));
    width_ = static_cast<index_t>(c.tile) * c.tile;
    for (auto& b : boxes) {
      b.pieces = (b.len + width_ - 1) / width_;
      b.unit0 = units_;
      units_ += b.units();
    }
    nboxes_ = static_cast<int>(boxes.size());
    if (units_ == 0) return;
    boxes_ = Kokkos::View<BoxCopy*, typename Exec::memory_space>(
        Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, label + "_boxes"), boxes.size());
    Kokkos::View<const BoxCopy*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h(boxes.data(),
                                                                               boxes.size());
    Kokkos::deep_copy(exec, boxes_, h);
    exec.fence();  // `boxes` is a local
    policy_ = tilekit::impl::team_policy(
        label, exec, CopyBoxes<Exec, T>{}, tilekit::impl::league_for(units_, backends::Traits<Exec>::max_league),
        c, 0, /*flat=*/true);
  }
  bool empty() const { return units_ == 0; }
  void operator()(const T* src, T* dst) const {
    if (units_ == 0) return;
    Kokkos::parallel_for(label_, policy_,
                         CopyBoxes<Exec, T>{src, dst, boxes_.data(), nboxes_, units_, width_});
  }

 private:
  std::string label_;
  index_t width_ = 1, units_ = 0;
  int nboxes_ = 0;
  Kokkos::View<BoxCopy*, typename Exec::memory_space> boxes_;
  Kokkos::TeamPolicy<Exec> policy_{};
};

}  // namespace tilekit::dist::impl
