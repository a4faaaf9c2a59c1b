// `tilekit dist-permute` (built with TILEKIT_ENABLE_MPI): a distributed
// permutation across the ranks of MPI_COMM_WORLD, run under mpirun (or alone:
// MPI is initialised here, only for this subcommand, and a single process is
// a singleton run). Prints, on rank 0, the all-to-all of the engine on the
// same bytes (the ceiling), the whole (pipelined) permutation with its chunk
// count and the overlap it achieved (its phases' sum against it), and the
// phases run one after the other (pack, exchange, unpack), each the slowest
// rank's median; every result is checked on every rank against the global
// index pattern.
//
//   mpirun -n 4 tilekit dist-permute --shape 512,512,512 --perm 2,1,0 --grid slab
//   mpirun -n 4 tilekit dist-permute --shape 512,512,512 --perm 0,2,1 --grid pencil
#include <tilekit/dist.hpp>

#include <mpi.h>

#include <algorithm>
#include <array>
#include <memory>
#include <numeric>

#include "../common.hpp"
#include "../subcommand.hpp"
#include "support/views.hpp"

// This file's names, in a namespace of their own: the command-line units
// compile as one (TILEKIT_TOOL_UNITY).
namespace tilekit::tool::dist_permute_cmd {
namespace {

using dist::Decomposition;
using dist::index_t;

struct Options {
  CommonOptions common;
  std::string shape = "256,256,256";
  std::string perm;  ///< default: reversed
  std::string grid = "slab";
  std::string in_grid, in_dims, out_grid, out_dims;
  std::string engine = "automatic";
  std::string staging = "automatic";
  int chunks = 0;  ///< 0: the plan's cost model chooses
};

/// MPI for this subcommand only: initialised here unless already running.
struct MpiSession {
  bool owner = false;
  MpiSession() {
    int up = 0;
    MPI_Initialized(&up);
    if (!up) {
      int provided = 0;
      MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
      owner = true;
    }
  }
  ~MpiSession() {
    if (owner) MPI_Finalize();
  }
};

std::vector<int> ints(const std::string& s) {
  std::vector<int> v;
  for (const auto& x : split_list(s)) v.push_back(std::stoi(x));
  return v;
}

/// The process grid of --grid, or of --in-grid/--in-dims (--out-...).
Decomposition make_grid(const Options& o, const std::vector<index_t>& e, int P, bool output) {
  const std::string& g = output ? o.out_grid : o.in_grid;
  const std::string& d = output ? o.out_dims : o.in_dims;
  if (!g.empty()) return Decomposition(e, ints(g), d.empty() ? std::vector<int>{0} : ints(d));
  if (o.grid == "slab") return Decomposition::slab(e, P, 0);
  if (o.grid == "pencil") {
    int p0 = 1;
    for (int f = 1; f * f <= P; ++f)
      if (P % f == 0) p0 = f;
    return Decomposition::pencil(e, p0, P / p0, 0, 1);
  }
  throw CLI::ValidationError("--grid", "slab, pencil, or --in-grid/--out-grid");
}

/// Fills this rank's block of d with pattern(global offset).
template <class Exec, class T>
void fill_block(const Exec& exec, T* p, const Decomposition& d, int me) {
  const dist::Box b = d.block(me);
  const int R = d.ndim();
  Kokkos::Array<index_t, dist::max_rank> lo{}, ext{}, gs{};
  index_t acc = 1;
  for (int k = R - 1; k >= 0; --k) lo[k] = b.lo[k], ext[k] = b.extent(k), gs[k] = acc, acc *= d.extents()[k];
  Kokkos::parallel_for(
      "tilekit::tool::dist_fill", Kokkos::RangePolicy<Exec, Kokkos::IndexType<index_t>>(exec, 0, b.size()),
      KOKKOS_LAMBDA(index_t l) {
        index_t g = 0, r = l;
        for (int k = R - 1; k >= 0; --k) {
          const index_t q = r / ext[k];
          g += (lo[k] + r - q * ext[k]) * gs[k];
          r = q;
        }
        p[l] = static_cast<T>(pattern(g));
      });
}

/// Elements of this rank's output block that are not the permuted pattern.
template <class Exec, class T>
index_t count_wrong(const Exec& exec, const T* p, const Decomposition& din,
                    const Decomposition& dout, const std::vector<int>& perm, int me) {
  const dist::Box b = dout.block(me);
  const int R = dout.ndim();
  Kokkos::Array<index_t, dist::max_rank> lo{}, ext{}, is{};  // is[k]: input stride of output dim k
  Kokkos::Array<index_t, dist::max_rank> in_stride{};
  index_t acc = 1;
  for (int d = R - 1; d >= 0; --d) in_stride[d] = acc, acc *= din.extents()[d];
  for (int k = 0; k < R; ++k) lo[k] = b.lo[k], ext[k] = b.extent(k), is[k] = in_stride[perm[k]];
  index_t bad = 0;
  Kokkos::parallel_reduce(
      "tilekit::tool::dist_check", Kokkos::RangePolicy<Exec, Kokkos::IndexType<index_t>>(exec, 0, b.size()),
      KOKKOS_LAMBDA(index_t l, index_t & n) {
        index_t g = 0, r = l;
        for (int k = R - 1; k >= 0; --k) {
          const index_t q = r / ext[k];
          g += (lo[k] + r - q * ext[k]) * is[k];
          r = q;
        }
        if (!(p[l] == static_cast<T>(pattern(g)))) ++n;
      },
      bad);
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return bad;
}

double max_over_ranks(double v) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return v;
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t k = v.size();
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

/// Median over reps of the slowest rank's time of fn() (a barrier before each).
template <class Exec, class Fn>
double time_max(const Exec& exec, int reps, Fn&& fn) {
  fn();
  exec.fence();
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    Kokkos::Timer t;
    fn();
    exec.fence();
    ms.push_back(max_over_ranks(t.seconds() * 1e3));
  }
  return median(ms);
}

template <class Exec, class T, int R>
bool run_case(const Options& o, const Exec& exec, dist::EngineOptions eo, const Decomposition& din,
              const Decomposition& dout, const std::vector<int>& perm, report::Report& rep) {
  using Mem = typename Exec::memory_space;
  using V = support::UView<T, R, Kokkos::LayoutRight, Mem>;
  int me = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const index_t n_in = din.block(me).size(), n_out = dout.block(me).size();
  Kokkos::View<T*, Mem> a(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "tilekit::tool::in"), n_in);
  Kokkos::View<T*, Mem> b(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "tilekit::tool::out"), n_out);
  const V in = support::make_view<V>(a.data(), din.local_extents(me), std::make_index_sequence<R>{});
  const V out = support::make_view<V>(b.data(), dout.local_extents(me), std::make_index_sequence<R>{});
  fill_block(exec, a.data(), din, me);
  Kokkos::deep_copy(exec, b, static_cast<T>(-7));
  exec.fence();

  dist::PermutePlan<Exec, T> plan(exec, MPI_COMM_WORLD, din, dout, perm, eo);
  plan.execute(in, out);
  exec.fence();
  const bool ok = !o.common.check || count_wrong(exec, b.data(), din, dout, perm, me) == 0;

  const int reps = o.common.reps;
  const double global_bytes = static_cast<double>(din.size()) * sizeof(T);
  // The engine's own all-to-all of the same bytes, between the plan's blocks:
  // equal messages of the largest size every rank's blocks hold P of.
  index_t per_peer = std::min(n_in, n_out) / P;
  MPI_Allreduce(MPI_IN_PLACE, &per_peer, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  auto& engine = plan.exchanger();
  const double a2a_bytes = static_cast<double>(per_peer) * P * P * sizeof(T);
  const double a2a_ms = time_max(exec, reps, [&] {
    engine.alltoall(exec, reinterpret_cast<const char*>(a.data()), reinterpret_cast<char*>(b.data()),
                    static_cast<std::size_t>(per_peer) * sizeof(T));
  });
  const double a2a_gbps = a2a_ms > 0 ? a2a_bytes / (a2a_ms * 1e-3) / 1e9 : 0;
  // The local copy of the same blocks (the ceiling of pack and unpack).
  const index_t nc = std::min(n_in, n_out);
  const double copy_ms = time_max(exec, reps, [&] {
    Kokkos::deep_copy(exec, Kokkos::subview(b, std::pair<index_t, index_t>(0, nc)),
                      Kokkos::subview(a, std::pair<index_t, index_t>(0, nc)));
  });
  index_t copied = nc;
  MPI_Allreduce(MPI_IN_PLACE, &copied, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  const double copy_bytes = 2.0 * static_cast<double>(copied) * sizeof(T);
  const double copy_gbps = copy_ms > 0 ? copy_bytes / (copy_ms * 1e-3) / 1e9 : 0;
  // The whole permutation, then its phases (fenced apart).
  const double total_ms = time_max(exec, reps, [&] { plan.execute(in, out); });
  std::vector<double> pack, exch, unpack, down, xfer, up;
  const auto* mpi = dynamic_cast<const dist::MpiExchanger<Exec>*>(&plan.exchanger());
  const bool staged = mpi && mpi->staged();
  for (int i = 0; i < reps; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t = plan.execute_timed(in, out);
    pack.push_back(max_over_ranks(t.pack));
    exch.push_back(max_over_ranks(t.exchange));
    unpack.push_back(max_over_ranks(t.unpack));
    if (staged) {  // the exchange's own steps through pinned host memory
      down.push_back(max_over_ranks(mpi->stage_times().download));
      xfer.push_back(max_over_ranks(mpi->stage_times().transfer));
      up.push_back(max_over_ranks(mpi->stage_times().upload));
    }
  }
  // Each local pass reads and writes its elements, on every rank: the pack
  // phase's packs and own pieces, the unpack phase's unpacks.
  const auto& L = plan.layout();
  double local[2] = {2.0 * sizeof(T) * static_cast<double>(L.packed + L.own),
                     2.0 * sizeof(T) * static_cast<double>(L.unpacked)};
  MPI_Allreduce(MPI_IN_PLACE, local, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double pack_bytes = local[0], unpack_bytes = local[1];
  if (me != 0) return ok;

  auto row = [&](const std::string& variant, double ms, double bytes, double base) -> report::Row& {
    report::Row r;
    r.op = "dist-permute";
    r.variant = variant;
    r.space = Exec::name();
    r.shape = din.extents();
    r.dtype = type_name<T>();
    r.ms = ms;
    r.bytes = bytes;
    r.verified = o.common.check && ok;
    report::finish_row(r, base, 0);
    r.extra["ranks"] = P;
    r.extra["engine"] = plan.engine_description();
    rep.rows.push_back(r);
    return rep.rows.back();
  };
  auto& top = row("alltoall", a2a_ms, a2a_bytes, a2a_gbps);
  top.extra["grid_in"] = din.to_string();
  top.extra["grid_out"] = dout.to_string();
  auto& whole = row("permute", total_ms, global_bytes, a2a_gbps);
  whole.extra["perm"] = perm;
  whole.extra["passes"] = plan.passes();
  const double p = median(pack), x = median(exch), u = median(unpack), sum = p + x + u;
  // The pipeline's gain: the phases run one after the other (execute_timed)
  // against the whole pipelined call; 1 when nothing overlaps.
  whole.extra["chunks"] = plan.chunks();
  whole.extra["overlap"] = total_ms > 0 ? sum / total_ms : 0;
  whole.extra["model_chunks"] = plan.model_chunks();
  whole.extra["model_ms"] = plan.estimate().total_ms;
  whole.extra["link"] = std::string(dist::to_string(plan.link().link));
  if (!ok) whole.extra["error"] = "WRONG RESULT";
  auto& rx = row("exchange", x, global_bytes, a2a_gbps);
  rx.extra["share"] = sum > 0 ? 100 * x / sum : 0;
  if (staged) {
    rx.extra["d2h_ms"] = median(down);
    rx.extra["mpi_ms"] = median(xfer);
    rx.extra["h2d_ms"] = median(up);
  }
  auto& rp = row("pack", p, pack_bytes, copy_gbps);
  rp.extra["share"] = sum > 0 ? 100 * p / sum : 0;
  auto& ru = row("unpack", u, unpack_bytes, copy_gbps);
  ru.extra["share"] = sum > 0 ? 100 * u / sum : 0;
  row("local_copy", copy_ms, copy_bytes, copy_gbps);
  return ok;
}

template <class Fn>
void with_rank(int r, Fn&& fn) {
  switch (r) {
    case 2: return fn(std::integral_constant<int, 2>{});
    case 3: return fn(std::integral_constant<int, 3>{});
    case 4: return fn(std::integral_constant<int, 4>{});
    case 5: return fn(std::integral_constant<int, 5>{});
    default: throw CLI::ValidationError("--shape", "dist-permute takes rank 2 to 5");
  }
}

dist::Engine parse_engine(const std::string& s) {
  if (s == "mpi") return dist::Engine::mpi;
  if (s == "nccl") return dist::Engine::nccl;
  return dist::Engine::automatic;
}

Runner setup(CLI::App& app) {
  auto o = std::make_shared<Options>();
  add_common_options(app, o->common);
  app.add_option("--shape", o->shape, "global extents, comma-separated (rank 2 to 5)")
      ->capture_default_str();
  app.add_option("--perm", o->perm, "output dim k is input dim perm[k] (default: reversed)");
  app.add_option("--grid", o->grid,
                 "slab (P along dim 0, in and out) or pencil (p0 x p1 over dims 0, 1)")
      ->capture_default_str()
      ->check(CLI::IsMember({"slab", "pencil"}));
  app.add_option("--in-grid", o->in_grid, "explicit input grid, e.g. 2,2 (overrides --grid)");
  app.add_option("--in-dims", o->in_dims, "tensor dims the input grid axes split, e.g. 0,1");
  app.add_option("--out-grid", o->out_grid, "explicit output grid (overrides --grid)");
  app.add_option("--out-dims", o->out_dims, "output tensor dims the output grid axes split");
  app.add_option("--engine", o->engine, "automatic | mpi | nccl")
      ->capture_default_str()
      ->check(CLI::IsMember({"automatic", "mpi", "nccl"}));
  app.add_option("--chunks", o->chunks,
                 "chunks of the pipelined exchange (0: the plan's cost model chooses)")
      ->capture_default_str()
      ->check(CLI::Range(0, dist::max_chunks));
  app.add_option("--staging", o->staging,
                 "MPI on device memory: automatic (when not CUDA-aware) | never | always")
      ->capture_default_str()
      ->check(CLI::IsMember({"automatic", "never", "always"}));
  return [o]() -> int {
    MpiSession mpi;
    int me = 0, P = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    std::vector<index_t> ext;
    for (const auto& s : split_list(o->shape)) ext.push_back(std::stoll(s));
    const int R = static_cast<int>(ext.size());
    std::vector<int> perm(R);
    std::iota(perm.rbegin(), perm.rend(), 0);
    if (!o->perm.empty()) perm = ints(o->perm);
    impl::check_permutation("--perm", perm, R);
    std::vector<index_t> oext(R);
    for (int k = 0; k < R; ++k) oext[k] = ext[perm[k]];
    const auto din = make_grid(*o, ext, P, false), dout = make_grid(*o, oext, P, true);
    dist::EngineOptions eo;
    eo.engine = parse_engine(o->engine);
    eo.staging = o->staging == "never"    ? dist::Staging::never
                 : o->staging == "always" ? dist::Staging::always
                                          : dist::Staging::automatic;
    eo.chunks = o->chunks;
    report::Report rep;
    bool ok = true;
    for_each_space(o->common.space, [&](auto exec) {
      using Exec = decltype(exec);
      rep.devices.push_back(hardware_info(exec));
      for_each_dtype(o->common.dtype, [&](auto tag) {
        with_rank(R, [&](auto rc) {
          ok = run_case<Exec, decltype(tag), decltype(rc)::value>(*o, exec, eo, din, dout, perm, rep) && ok;
        });
      });
    });
    if (me != 0) return ok ? 0 : 1;
    return finish(o->common, rep, ok);
  };
}

}  // namespace

// (Registered by hand: the subcommand's name has a hyphen.)
static const Registrar dist_permute_subcommand{
    "dist-permute",
    "distributed permutation over MPI ranks (NCCL on GPUs): pack, exchange and unpack against the "
    "engine's all-to-all of the same bytes",
    setup};

}  // namespace tilekit::tool::dist_permute_cmd
