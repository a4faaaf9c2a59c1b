#pragma once
// The distributed permute plan: checks the description collectively, works
// out the exchange in chunks (exchange_layout.hpp) and the chunk count
// (pipeline_model.hpp), owns the buffers, the engine and the local passes,
// and on execute pipelines, chunk by chunk,
//
//   pack      the pieces of the messages that are not ranges of the input,
//             from the input block into the send buffer: the user's
//             permutation (the only rearrangement, folded into this pass);
//   own       the rank's own piece, input block -> output block in one pass;
//   exchange  the engine moves the chunk (MPI or NCCL);
//   unpack    the received pieces that are not ranges of the output block,
//             into it (copies of rows).
//
// Chunk k is moved while chunk k + 1 is packed and chunk k - 1 unpacked: the
// packs and own pieces run on the caller's instance, the unpacks on a second
// instance of the space (device spaces), the exchange on the engine's stream
// or on the host (Exchanger's protocol). Every local pass is a
// tilekit::PermutePlan on strided views of the pieces, so it runs the
// library's tiled permute or its staged rows copy with the backend's shapes.
//
// Local blocks are contiguous LayoutRight views of the extents the
// decompositions give this rank, in ExecSpace's memory.
#include <tilekit/backends/traits.hpp>
#include <tilekit/dist/agree.hpp>
#include <tilekit/dist/decomposition.hpp>
#include <tilekit/dist/engines.hpp>
#include <tilekit/dist/exchange_layout.hpp>
#include <tilekit/dist/pipeline_model.hpp>
#include <tilekit/hardware.hpp>
#include <tilekit/permute.hpp>

#include <mpi.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace tilekit::dist {

/// Per-phase wall times of one execute_timed(), milliseconds, this rank.
struct PhaseTimes {
  double pack = 0, exchange = 0, unpack = 0;
};

/// The most chunks a plan takes (a larger EngineOptions::chunks throws).
inline constexpr int max_chunks = 1 << 16;

template <class ExecSpace, class T>
class PermutePlan {
 public:
  using value_type = T;
  using Mem = typename ExecSpace::memory_space;
  /// Host spaces run every lane on the caller's instance: their kernels run
  /// on the calling thread, and a partition would only split its threads.
  static constexpr bool host_space =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;

  /// Collective over comm. out must have the input's extents permuted:
  /// out.extents()[k] == in.extents()[perm[k]]; both over comm's ranks.
  PermutePlan(const ExecSpace& exec, MPI_Comm comm, const Decomposition& in,
              const Decomposition& out, const std::vector<int>& perm, EngineOptions engine = {},
              PermuteOptions local = {})
      : comm_(comm), in_(in), out_(out), perm_(perm), local_(std::move(local)),
        lanes_{exec, exec} {
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
    h.add(engine.chunks);
    impl::agree(comm_, where(), describe_problem(engine), h.h);

    engine_ = make_exchanger<ExecSpace>(comm_, engine);
    if constexpr (!host_space) lanes_.unpack = Kokkos::Experimental::partition_space(exec, 1)[0];
    choose_chunks(engine);
    layout_ = impl::make_layout(in_, out_, perm_, me_, chunks_, granule());
    auto alloc = [&](const std::string& label, index_t n) {
      return Kokkos::View<T*, Mem>(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, label), n);
    };
    if (layout_.send_elems > 0) send_ = alloc("tilekit::dist::send", layout_.send_elems);
    if (layout_.recv_elems > 0) recv_ = alloc("tilekit::dist::recv", layout_.recv_elems);
  }

  /// Collective: out = permute(in) across the ranks, pipelined. Re-checks the
  /// views collectively (one small MPI_Allreduce) before anything moves.
  template <class InView, class OutView>
  void execute(const InView& in, const OutView& out) {
    prepare(in, out);
    const int C = chunks_;
    engine_->begin(lanes_, C, bytes(layout_.sent), bytes(layout_.received), false);
    pack(0, in);
    engine_->packed(0);
    send(0, in, out);
    for (int k = 0; k < C; ++k) {
      if (k + 1 < C) {
        pack(k + 1, in);
        engine_->packed(k + 1);
      }
      own(k, in, out);
      engine_->wait(k);
      unpack(k, out);
      if (k + 1 < C) send(k + 1, in, out);
    }
    engine_->end();
  }

  /// Same result, the phases one after the other, each fenced (and a
  /// barrier before the exchange, so that it does not count the other
  /// ranks' packing): this rank's times. pack includes the own pieces.
  template <class InView, class OutView>
  PhaseTimes execute_timed(const InView& in, const OutView& out) {
    prepare(in, out);
    const int C = chunks_;
    PhaseTimes t;
    engine_->begin(lanes_, C, bytes(layout_.sent), bytes(layout_.received), true);
    Kokkos::Timer timer;
    for (int k = 0; k < C; ++k) {
      pack(k, in);
      engine_->packed(k);
      own(k, in, out);
    }
    lanes_.pack.fence();
    t.pack = timer.seconds() * 1e3;
    MPI_Barrier(comm_);
    timer.reset();
    for (int k = 0; k < C; ++k) {
      send(k, in, out);
      engine_->wait(k);
    }
    lanes_.unpack.fence();
    t.exchange = timer.seconds() * 1e3;
    timer.reset();
    for (int k = 0; k < C; ++k) unpack(k, out);
    engine_->end();
    lanes_.pack.fence();
    t.unpack = timer.seconds() * 1e3;
    return t;
  }

  const Decomposition& input() const { return in_; }
  const Decomposition& output() const { return out_; }
  const std::vector<int>& perm() const { return perm_; }
  const impl::ExchangeLayout& layout() const { return layout_; }
  /// Chunks of the pipeline (EngineOptions::chunks, or the model's choice).
  int chunks() const { return chunks_; }
  /// The chunk count the cost model chose (whatever was asked), and its
  /// estimate for the chunks the plan runs (pipeline_model.hpp).
  int model_chunks() const { return model_chunks_; }
  const PipelineEstimate& estimate() const { return estimate_; }
  const LinkModel& link() const { return link_; }
  Engine engine() const { return engine_->engine(); }
  std::string engine_description() const { return engine_->describe(); }
  Exchanger<ExecSpace>& exchanger() { return *engine_; }
  /// The passes this rank runs: "permute, exchange, copy, own: permute", ...
  std::string passes() const { return layout_.passes(); }

 private:
  static const std::string& where() {
    static const std::string w = "tilekit::dist::PermutePlan";
    return w;
  }
  static std::size_t bytes(index_t elems) { return static_cast<std::size_t>(elems) * sizeof(T); }
  /// Pieces hold whole tiles of the backend's permute where they are long
  /// enough (impl::piece): the chunk dimension is often the input's fastest.
  static index_t granule() { return backends::Traits<ExecSpace>::permute_tile(sizeof(T)).tile; }

  /// This rank's own complaint about the description, "" when none.
  std::string describe_problem(const EngineOptions& engine) const {
    try {
      const std::string p = engine_problem<ExecSpace>(engine.engine);
      if (!p.empty()) return p;
      if (engine.chunks < 0 || engine.chunks > max_chunks)
        return "chunks " + std::to_string(engine.chunks) + " is not 0 (the plan's choice) to " +
               std::to_string(max_chunks);
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

  /// The cost model's inputs, the largest over the ranks (collective), and
  /// its chunk count; EngineOptions::chunks overrides it.
  void choose_chunks(const EngineOptions& engine) {
    const auto one = impl::make_layout(in_, out_, perm_, me_, 1);
    int node_ranks = 1;
    {
      MPI_Comm node;
      MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, me_, MPI_INFO_NULL, &node);
      MPI_Comm_size(node, &node_ranks);
      MPI_Comm_free(&node);
    }
    double copy = engine.link.copy_gbps;
    if constexpr (!host_space) {
      // The device's copy rate, a fixed share of its theoretical bandwidth
      // (copy_of_peak; docs/distributed.md). Kokkos runs a process on one
      // device, so it is read once.
      static const double peak = tilekit::hardware_info(lanes_.pack).peak_gbps;
      if (copy <= 0) copy = copy_of_peak * peak;
    }
    double v[7] = {bytes(one.packed) * 1.0,
                   bytes(one.unpacked) * 1.0,
                   bytes(one.own) * 1.0,
                   bytes(std::max(one.sent, one.received)) * 1.0,
                   static_cast<double>(std::max(one.send_peers, one.recv_peers)),
                   node_ranks < size_ ? 1.0 : 0.0,
                   copy > 0 ? -copy : 0.0};  // the slowest device's, below
    MPI_Allreduce(MPI_IN_PLACE, v, 7, MPI_DOUBLE, MPI_MAX, comm_);
    const PipelineWork w{v[0], v[1], v[2], v[3], static_cast<int>(v[4])};
    const auto* mpi = dynamic_cast<const MpiExchanger<ExecSpace>*>(engine_.get());
    const Link seen = host_space            ? Link::host
                      : mpi && mpi->staged() ? Link::staged
                      : v[5] > 0             ? Link::network
                                             : Link::node;
    LinkModel m = engine.link;
    m.copy_gbps = v[6] < 0 ? -v[6] : 0;
    link_ = link_defaults(m, seen);
    const index_t rows = impl::chunk_rows(in_, out_, perm_, granule());
    model_chunks_ = dist::choose_chunks(w, link_, std::min<index_t>(rows, max_model_chunks));
    chunks_ = engine.chunks > 0 ? engine.chunks : model_chunks_;
    estimate_ = dist::estimate(w, link_, chunks_);
  }

  template <class D, int R>
  struct StridedOf {
    using type = typename StridedOf<D*, R - 1>::type;
  };
  template <class D>
  struct StridedOf<D, 0> {
    using type = Kokkos::View<D, Kokkos::LayoutStride, Mem, Kokkos::MemoryUnmanaged>;
  };
  /// The box s of the block or buffer at `base`, as a rank-R strided view
  /// (dimensions in message order).
  template <int R, class D>
  static typename StridedOf<D, R>::type view(D* base, const impl::Strided& s) {
    Kokkos::LayoutStride l;
    for (int d = 0; d < R; ++d) {
      l.dimension[d] = static_cast<std::size_t>(s.extent[d]);
      l.stride[d] = static_cast<std::size_t>(s.stride[d]);
    }
    return typename StridedOf<D, R>::type(base + s.offset, l);
  }

  using Local = tilekit::PermutePlan<ExecSpace, T>;
  /// The local passes of one role, per chunk, in the layout's order.
  using Passes = std::vector<std::vector<Local>>;

  /// Local checks, the local passes' plans on first use, then one collective
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
        if (!planned_) plan_passes(in, out);
      }
    } catch (const std::exception& e) {
      err = e.what();
    }
    impl::agree(comm_, where(), err, 0);
  }

  template <class InView, class OutView>
  void plan_passes(const InView& in, const OutView& out) {
    constexpr int R = InView::rank();
    std::vector<int> id(R);
    std::iota(id.begin(), id.end(), 0);
    auto make = [&](Passes& plans, const std::vector<impl::Pass> impl::Chunk::*role,
                    const ExecSpace& lane, const T* src, T* dst, const char* label) {
      PermuteOptions o = local_;
      o.label = label;
      plans.assign(chunks_, {});
      for (int k = 0; k < chunks_; ++k)
        for (const auto& p : layout_.chunks[k].*role)
          plans[k].emplace_back(lane, view<R>(src, p.src), view<R>(dst, p.dst), id,
                                PermuteVariant::fused, o);
    };
    make(pack_, &impl::Chunk::pack, lanes_.pack, in.data(), send_.data(), "tilekit::dist::pack");
    make(own_, &impl::Chunk::own, lanes_.pack, in.data(), out.data(), "tilekit::dist::own");
    make(unpack_, &impl::Chunk::unpack, lanes_.unpack, recv_.data(), out.data(),
         "tilekit::dist::unpack");
    planned_ = true;
  }

  /// Runs the passes of chunk k of one role from `src` to `dst`.
  template <int R>
  void run(const std::vector<Local>& plans, const std::vector<impl::Pass>& passes, const T* src,
           T* dst) const {
    for (std::size_t i = 0; i < passes.size(); ++i)
      plans[i].execute(view<R>(src, passes[i].src), view<R>(dst, passes[i].dst));
  }
  template <class InView>
  void pack(int k, const InView& in) {
    run<InView::rank()>(pack_[k], layout_.chunks[k].pack, in.data(), send_.data());
  }
  template <class InView, class OutView>
  void own(int k, const InView& in, const OutView& out) {
    run<InView::rank()>(own_[k], layout_.chunks[k].own, in.data(), out.data());
  }
  template <class OutView>
  void unpack(int k, const OutView& out) {
    run<OutView::rank()>(unpack_[k], layout_.chunks[k].unpack, recv_.data(), out.data());
  }
  template <class InView, class OutView>
  void send(int k, const InView& in, const OutView& out) {
    const auto& c = layout_.chunks[k];
    std::vector<SendMessage> s;
    std::vector<RecvMessage> r;
    for (const auto& m : c.sends) {
      const T* p = (m.in_place ? in.data() : send_.data()) + m.offset;
      s.push_back({m.peer, reinterpret_cast<const char*>(p), bytes(m.count)});
    }
    for (const auto& m : c.recvs) {
      T* p = (m.in_place ? out.data() : recv_.data()) + m.offset;
      r.push_back({m.peer, reinterpret_cast<char*>(p), bytes(m.count)});
    }
    engine_->send(k, s, r);
  }

  MPI_Comm comm_;
  int me_ = 0, size_ = 1;
  Decomposition in_, out_;
  std::vector<int> perm_;
  PermuteOptions local_;
  Lanes<ExecSpace> lanes_;
  int chunks_ = 1, model_chunks_ = 1;
  LinkModel link_{};
  PipelineEstimate estimate_{};
  impl::ExchangeLayout layout_;
  Kokkos::View<T*, Mem> send_, recv_;
  std::unique_ptr<Exchanger<ExecSpace>> engine_;
  bool planned_ = false;
  Passes pack_, own_, unpack_;
};

}  // namespace tilekit::dist
