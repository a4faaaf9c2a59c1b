#pragma once
// The distributed permute plan: checks the description collectively, works
// out the exchange (exchange_layout.hpp), owns the buffers and the engine,
// and on execute runs
//
//   pack      tilekit::PermutePlan of the local input block into message order
//             (the user's permutation: the only local permutation), then a
//             gather of the boxes when they are not contiguous ranges;
//   exchange  the engine moves the messages (MPI or NCCL);
//   unpack    a scatter of the received boxes into the output block, unless
//             they arrived in place.
//
// Local blocks are contiguous LayoutRight views of the extents the
// decompositions give this rank, in ExecSpace's memory.
#include <tilekit/dist/agree.hpp>
#include <tilekit/dist/box_copy.hpp>
#include <tilekit/dist/decomposition.hpp>
#include <tilekit/dist/engines.hpp>
#include <tilekit/dist/exchange_layout.hpp>
#include <tilekit/permute.hpp>

#include <mpi.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilekit::dist {

/// Per-phase wall times of one execute_timed(), milliseconds, this rank.
struct PhaseTimes {
  double pack = 0, exchange = 0, unpack = 0;
};

template <class ExecSpace, class T>
class PermutePlan {
 public:
  using value_type = T;
  using Mem = typename ExecSpace::memory_space;

  /// Collective over comm. out must have the input's extents permuted:
  /// out.extents()[k] == in.extents()[perm[k]]; both over comm's ranks.
  PermutePlan(const ExecSpace& exec, MPI_Comm comm, const Decomposition& in,
              const Decomposition& out, const std::vector<int>& perm, EngineOptions engine = {},
              PermuteOptions local = {})
      : exec_(exec), comm_(comm), in_(in), out_(out), perm_(perm), local_(std::move(local)) {
    MPI_Comm_rank(comm_, &me_);
    MPI_Comm_size(comm_, &size_);
    const Engine e = resolve_engine<ExecSpace>(engine.engine);
    impl::Hash h;
    for (const auto* d : {&in_, &out_}) {
      h.add(d->extents());
      h.add(d->grid());
      h.add(d->dims());
    }
    h.add(perm_);
    h.add(sizeof(T));
    h.add(static_cast<int>(e));
    impl::agree(comm_, where(), describe_problem(engine.engine), h.h);

    layout_ = impl::make_layout(in_, out_, perm_, me_);
    const auto& L = layout_;
    auto alloc = [&](const std::string& label, index_t n) {
      return Kokkos::View<T*, Mem>(Kokkos::view_alloc(exec_, Kokkos::WithoutInitializing, label), n);
    };
    if (!L.pack_is_copy) tmp_ = alloc("tilekit::dist::pack", volume(L.tmp_extents));
    if (!L.send_from_tmp) send_ = alloc("tilekit::dist::send", L.send_elems);
    if (!L.recv_into_out) recv_ = alloc("tilekit::dist::recv", L.recv_elems);
    gather_ = impl::BoxCopyLaunch<ExecSpace, T>(exec_, L.pack, "tilekit::dist::gather");
    scatter_ = impl::BoxCopyLaunch<ExecSpace, T>(exec_, L.unpack, "tilekit::dist::scatter");
    const std::size_t b = sizeof(T);
    auto bytes = [b](const std::vector<index_t>& v) {
      std::vector<std::size_t> r(v.size());
      for (std::size_t i = 0; i < v.size(); ++i) r[i] = static_cast<std::size_t>(v[i]) * b;
      return r;
    };
    transfers_ = {bytes(L.send_count), bytes(L.send_displ), bytes(L.recv_count),
                  bytes(L.recv_displ),
                  b * static_cast<std::size_t>(L.send_from_tmp ? volume(L.in_extents) : L.send_elems),
                  b * static_cast<std::size_t>(L.recv_into_out ? volume(L.out_extents) : L.recv_elems)};
    engine_ = make_exchanger<ExecSpace>(comm_, engine);
  }

  /// Collective: out = permute(in) across the ranks. Re-checks the views
  /// collectively (one small MPI_Allreduce) before anything moves.
  template <class InView, class OutView>
  void execute(const InView& in, const OutView& out) {
    prepare(in, out);
    pack(in);
    exchange(in, out);
    unpack(out);
  }

  /// Same, fencing after each phase (and a barrier before the exchange, so
  /// that it does not count the other ranks' packing): this rank's times.
  template <class InView, class OutView>
  PhaseTimes execute_timed(const InView& in, const OutView& out) {
    prepare(in, out);
    PhaseTimes t;
    Kokkos::Timer timer;
    pack(in);
    exec_.fence();
    t.pack = timer.seconds() * 1e3;
    MPI_Barrier(comm_);
    timer.reset();
    exchange(in, out);
    exec_.fence();
    t.exchange = timer.seconds() * 1e3;
    timer.reset();
    unpack(out);
    exec_.fence();
    t.unpack = timer.seconds() * 1e3;
    return t;
  }

  const Decomposition& input() const { return in_; }
  const Decomposition& output() const { return out_; }
  const std::vector<int>& perm() const { return perm_; }
  const impl::ExchangeLayout& layout() const { return layout_; }
  Engine engine() const { return engine_->engine(); }
  std::string engine_description() const { return engine_->describe(); }
  Exchanger<ExecSpace>& exchanger() { return *engine_; }
  /// The passes this rank runs: "permute+gather, exchange, scatter", "-, exchange, -", ...
  std::string passes() const {
    const auto& L = layout_;
    std::string p = L.pack_is_copy ? "" : "permute";
    if (!L.send_from_tmp) p += p.empty() ? "gather" : "+gather";
    return (p.empty() ? "-" : p) + ", exchange, " + (L.recv_into_out ? "-" : "scatter");
  }

 private:
  static const std::string& where() {
    static const std::string w = "tilekit::dist::PermutePlan";
    return w;
  }
  static index_t volume(const std::vector<index_t>& e) {
    index_t v = 1;
    for (auto x : e) v *= x;
    return v;
  }

  /// This rank's own complaint about the description, "" when none.
  std::string describe_problem(Engine engine) const {
    try {
      const std::string p = engine_problem<ExecSpace>(engine);
      if (!p.empty()) return p;
      if (in_.nranks() != size_ || out_.nranks() != size_)
        return "grids of " + std::to_string(in_.nranks()) + " and " +
               std::to_string(out_.nranks()) + " processes for a communicator of " +
               std::to_string(size_);
      if (in_.ndim() != out_.ndim())
        return "input " + in_.to_string() + " and output " + out_.to_string() + " differ in rank";
      tilekit::impl::check_permutation("perm", perm_, in_.ndim());
      for (int k = 0; k < in_.ndim(); ++k)
        if (out_.extents()[k] != in_.extents()[perm_[k]])
          return "output " + out_.to_string() + " is not input " + in_.to_string() +
                 " permuted by [" + tilekit::impl::join(perm_, perm_.size()) + "]";
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  }

  template <class V, std::size_t... I>
  static V make_view(typename V::pointer_type p, const std::vector<index_t>& e,
                     std::index_sequence<I...>) {
    return V(p, static_cast<std::size_t>(e[I])...);
  }
  template <class InView>
  using TmpView = Kokkos::View<typename InView::non_const_data_type, Kokkos::LayoutRight, Mem,
                               Kokkos::MemoryUnmanaged>;
  template <class InView>
  TmpView<InView> tmp_view() const {
    return make_view<TmpView<InView>>(tmp_.data(), layout_.tmp_extents,
                                      std::make_index_sequence<InView::rank()>{});
  }

  /// Local checks, the local permute plan on first use, then one collective
  /// agreement: every rank goes on, or every rank throws.
  template <class InView, class OutView>
  void prepare(const InView& in, const OutView& out) {
    static_assert(std::is_same_v<typename InView::array_layout, Kokkos::LayoutRight> &&
                      std::is_same_v<typename OutView::array_layout, Kokkos::LayoutRight>,
                  "tilekit::dist: local blocks are LayoutRight views");
    static_assert(InView::rank() == OutView::rank(), "tilekit::dist: views of different ranks");
    tilekit::detail::require_in_out_pair<ExecSpace, T, InView, OutView>();
    std::string err;
    try {
      auto extents = [](const auto& v) {
        std::vector<index_t> e(v.rank());
        for (std::size_t d = 0; d < v.rank(); ++d) e[d] = static_cast<index_t>(v.extent(d));
        return e;
      };
      auto list = [](const std::vector<index_t>& e) {
        return "(" + tilekit::impl::join(e, e.size()) + ")";
      };
      if (static_cast<int>(InView::rank()) != in_.ndim())
        err = "views of rank " + std::to_string(InView::rank()) + " for a tensor of rank " +
              std::to_string(in_.ndim());
      else if (extents(in) != layout_.in_extents)
        err = "input block " + list(extents(in)) + " is not this rank's block " +
              list(layout_.in_extents) + " of " + in_.to_string();
      else if (extents(out) != layout_.out_extents)
        err = "output block " + list(extents(out)) + " is not this rank's block " +
              list(layout_.out_extents) + " of " + out_.to_string();
      else {
        tilekit::detail::require_contiguous(where(), "input", in);
        tilekit::detail::require_contiguous(where(), "output", out);
        tilekit::detail::require_disjoint(where(), in, out);
        if (!layout_.pack_is_copy && !pack_)
          pack_.emplace(exec_, in, tmp_view<InView>(), layout_.pack_perm, PermuteVariant::fused,
                        local_);
      }
    } catch (const std::exception& e) {
      err = e.what();
    }
    impl::agree(comm_, where(), err, 0);
  }

  template <class InView>
  void pack(const InView& in) {
    if (!layout_.pack_is_copy) pack_->execute(in, tmp_view<InView>());
    if (!layout_.send_from_tmp) gather_(tmp_data(in), send_.data());
  }
  template <class InView, class OutView>
  void exchange(const InView& in, const OutView& out) {
    const T* send = layout_.send_from_tmp ? tmp_data(in) : send_.data();
    T* recv = layout_.recv_into_out ? out.data() : recv_.data();
    engine_->exchange(exec_, reinterpret_cast<const char*>(send), reinterpret_cast<char*>(recv),
                      transfers_);
  }
  template <class OutView>
  void unpack(const OutView& out) {
    if (!layout_.recv_into_out) scatter_(recv_.data(), out.data());
  }
  template <class InView>
  const T* tmp_data(const InView& in) const {
    return layout_.pack_is_copy ? in.data() : tmp_.data();
  }

  ExecSpace exec_;
  MPI_Comm comm_;
  int me_ = 0, size_ = 1;
  Decomposition in_, out_;
  std::vector<int> perm_;
  PermuteOptions local_;
  impl::ExchangeLayout layout_;
  Kokkos::View<T*, Mem> tmp_, send_, recv_;
  impl::BoxCopyLaunch<ExecSpace, T> gather_, scatter_;
  Transfers transfers_;
  std::unique_ptr<Exchanger<ExecSpace>> engine_;
  std::optional<tilekit::PermutePlan<ExecSpace, T>> pack_;
};

}  // namespace tilekit::dist
