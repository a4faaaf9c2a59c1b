// The table of cases of `tilekit study`: every study's sizes, variants,
// launch shapes and repetitions, quick (seconds, CI) and full, per space.
// The measurements are the subcommands' own (families.hpp).
#include "cases.hpp"

#include <tilekit/backends/ladder.hpp>
#include <tilekit/backends/traits.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

#include "../common.hpp"
#include "../families.hpp"
#include "cache.hpp"

namespace tilekit::tool::study {
namespace {

using i64 = std::int64_t;

const std::string kPerms3[] = {"0,1,2", "0,2,1", "1,0,2", "1,2,0", "2,0,1", "2,1,0"};

/// Expected seconds of a case moving `bytes` per call, `calls` times, on `space`.
double cost(const std::string& space, double bytes, double calls) {
  return 0.02 + bytes * calls / (is_gpu(space) ? 1e12 : 4e9);
}

/// Repetitions of a case of `elements` elements: fewer for large ones.
int reps_for(const Options& o, double elements) {
  if (o.quick) return 3;
  return elements <= (1 << 20) ? 20 : elements <= (1 << 24) ? 10 : 5;
}

/// The host's size caps: a parallel host space of 8+ threads goes one step further.
bool big_host(const std::string& space) {
  return space != "Serial" && !is_gpu(space) &&
         Kokkos::DefaultHostExecutionSpace().concurrency() >= 8;
}

CommonOptions common(const Options& o, const std::string& space, const std::string& dtype,
                     double elements) {
  CommonOptions c;
  c.space = space;
  c.dtype = dtype;
  c.reps = reps_for(o, elements);
  return c;
}

void add(std::vector<Case>& out, const std::string& study, std::string label, double weight,
         std::function<bool(report::Report&)> run) {
  out.push_back({study, std::move(label), weight, std::move(run)});
}

void sizes(const Options& o, const std::string& sp, std::vector<Case>& out) {
  const bool gpu = is_gpu(sp);
  // 2-D transpose, n = 2^6 ... 2^15 (the host stops earlier: time and memory).
  const int n_hi = o.quick ? 8 : gpu ? 15 : big_host(sp) ? 14 : 13;
  // int32 (seed 000 finds it no different from float) stops a step earlier.
  for (const std::string dtype : {"float", "int32"})
    for (int e = 6; e <= n_hi - (dtype == "int32" && !o.quick); ++e) {
      TransposeArgs a;
      a.n = i64{1} << e;
      const double el = double(a.n) * a.n;
      a.common = common(o, sp, dtype, el);
      a.variant = "naive,tiled,tiled_padded,inplace_naive,inplace_blocked";
      add(out, "sizes", "transpose " + sp + " " + dtype + " n=" + std::to_string(a.n),
          cost(sp, 8 * el, 8.0 * (a.common.reps + 3)), [a](auto& r) { return measure_transpose(a, r); });
    }
  // 3-D permute (2,1,0) of the same element counts where a cube has them.
  const int c_hi = o.quick ? 5 : gpu ? 10 : big_host(sp) ? 9 : 8;
  for (int e = 4; e <= c_hi; ++e) {
    PermuteArgs a;
    const i64 edge = i64{1} << e;
    const double el = double(edge) * edge * edge;
    a.common = common(o, sp, "float", el);
    a.shape = std::to_string(edge) + "," + std::to_string(edge) + "," + std::to_string(edge);
    a.perms = {"2,1,0"};
    a.variant = "naive,shared_bank_free,fused";
    add(out, "sizes", "permute " + sp + " float " + a.shape, cost(sp, 8 * el, 5.0 * (a.common.reps + 3)),
        [a](auto& r) { return measure_permute(a, r); });
  }
  // Reduce, 2^10 ... 2^30 elements.
  {
    ReduceArgs a;
    const int r_hi = o.quick ? 16 : gpu ? 30 : big_host(sp) ? 28 : 26;
    a.n.clear();
    for (int e = 10; e <= r_hi; e += 2) a.n.push_back(i64{1} << e);
    a.common = common(o, sp, "float", 0);
    a.common.reps = o.quick ? 3 : 7;
    a.variant = "multiple,kokkos,cub,sum";
    add(out, "sizes", "reduce " + sp + " float 2^10..2^" + std::to_string(r_hi),
        a.n.size() * 5 * (o.quick ? 0.05 : 0.6), [a](auto& r) { return measure_reduce(a, r); });
  }
  // CMM, N = 128 ... 4096 (seed 001).
  const int m_hi = o.quick ? 8 : gpu ? 12 : big_host(sp) ? 11 : 10;
  for (int e = 7; e <= m_hi; ++e) {
    CmmArgs a;
    a.n = i64{1} << e;
    const double flops = double(a.n) * a.n * a.n;
    a.common = common(o, sp, "float", double(a.n) * a.n);
    a.common.reps = o.quick ? 3 : e >= 10 ? 3 : 10;
    a.variant = "naive,tiled,blocked";
    add(out, "sizes", "cmm " + sp + " float N=" + std::to_string(a.n),
        0.02 + flops * (a.common.reps + 1) * 3 / (gpu ? 2e12 : 3e9),
        [a](auto& r) { return measure_cmm(a, r); });
  }
}

void launch(const Options& o, const std::string& sp, std::vector<Case>& out) {
  const bool gpu = is_gpu(sp);
  const i64 n = o.quick ? 256 : gpu ? 8192 : 2048;  // seed 002: 8192 x 8192
  const double el = double(n) * n;
  auto transpose = [&](const std::string& what, int tile, int team_rows, int vector) {
    TransposeArgs a;
    a.n = n;
    a.common = common(o, sp, "float", el);
    a.variant = "naive,tiled,tiled_padded";
    a.shape.tile = tile;
    a.shape.team_rows = team_rows;
    a.shape.vector = vector;
    if (tile > 0) a.shape.tiles_per_team = 1;
    add(out, "launch", "transpose " + sp + " " + what, cost(sp, 8 * el, 3.0 * (a.common.reps + 3)),
        [a, what](report::Report& r) {
          const auto first = r.rows.size();
          const bool ok = measure_transpose(a, r);
          for (auto k = first; k < r.rows.size(); ++k) r.rows[k].extra["sweep"] = what;
          return ok;
        });
  };
  transpose("default", 0, 0, 0);
  // Seed 004: tile edges 8, 16, 32 (on a GPU a tile row per vector lane, 8 rows).
  for (int tile : {8, 16, 32})
    transpose("tile " + std::to_string(tile), tile, gpu ? std::min(tile, 8) : 0, gpu ? tile : 0);
  // Seed 002: 64, 256, 1024 threads per block (GPU teams of 32-lane rows).
  if (gpu)
    for (int threads : {64, 256, 1024}) transpose("threads " + std::to_string(threads), 0, threads / 32, 32);
  // The reduce ladder at blocks of 64, 256 and 1024 work items.
  for (int block : {64, 256, 1024}) {
    ReduceArgs a;
    a.n = {o.quick ? i64{1} << 16 : gpu ? i64{1} << 26 : i64{1} << 24};
    a.common = common(o, sp, "float", 0);
    a.common.reps = o.quick ? 3 : 7;
    a.variant = "naive,strided,sequential,first_add,unroll_last,multiple";
    a.block = block;
    const std::string what = "block " + std::to_string(block);
    add(out, "launch", "reduce ladder " + sp + " " + what, 6 * (o.quick ? 0.05 : 0.8),
        [a, what](report::Report& r) {
          const auto first = r.rows.size();
          const bool ok = measure_reduce(a, r);
          for (auto k = first; k < r.rows.size(); ++k) r.rows[k].extra["sweep"] = what;
          return ok;
        });
  }
}

void cpu_gpu(const Options& o, const std::string& sp, std::vector<Case>& out) {
  // The same sizes on every space, so that the rows pair up.
  const i64 n = o.quick ? 512 : 8192;
  {
    TransposeArgs a;
    a.n = n;
    a.common = common(o, sp, "float", double(n) * n);
    a.variant = "tiled_padded";
    a.transfers = "pageable,pinned";
    add(out, "cpu_gpu", "transpose " + sp, cost(sp, 8.0 * n * n, 4.0 * (a.common.reps + 3)),
        [a](auto& r) { return measure_transpose(a, r); });
  }
  {
    PermuteArgs a;
    const i64 e = o.quick ? 64 : 256;
    a.shape = std::to_string(e) + "," + std::to_string(e) + "," + std::to_string(e);
    a.common = common(o, sp, "float", double(e) * e * e);
    a.perms = {"2,1,0"};
    a.variant = "fused";
    a.transfers = "pageable,pinned";
    add(out, "cpu_gpu", "permute " + sp, cost(sp, 8.0 * e * e * e, 4.0 * (a.common.reps + 3)),
        [a](auto& r) { return measure_permute(a, r); });
  }
  {
    ReduceArgs a;
    a.n = {o.quick ? i64{1} << 18 : i64{1} << 26};
    a.common = common(o, sp, "float", 0);
    a.common.reps = o.quick ? 3 : 7;
    a.variant = "sum";
    a.transfers = "pageable,pinned";
    add(out, "cpu_gpu", "reduce " + sp, o.quick ? 0.1 : 2, [a](auto& r) { return measure_reduce(a, r); });
  }
  {
    CmmArgs a;
    a.n = o.quick ? 256 : 2048;
    a.common = common(o, sp, "float", double(a.n) * a.n);
    a.common.reps = o.quick ? 3 : 5;
    a.variant = "blocked,pageable,pinned,unified,unified_prefetch";
    const double flops = double(a.n) * a.n * a.n;
    add(out, "cpu_gpu", "cmm " + sp, 0.05 + flops * (a.common.reps + 1) * 2 / (is_gpu(sp) ? 2e12 : 1e10),
        [a](auto& r) { return measure_cmm(a, r); });
  }
}

void ladder(const Options& o, const std::string& sp, std::vector<Case>& out) {
  ReduceArgs a;
  a.n = {o.quick ? i64{1} << 18 : i64{1} << 26};  // seed 004: 2^26 floats
  a.common = common(o, sp, "float", 0);
  a.common.reps = o.quick ? 3 : 10;
  a.variant = "naive,strided,sequential,first_add,unroll_last,multiple,kokkos,cub,sum";
  add(out, "ladder", "reduce ladder " + sp, 9 * (o.quick ? 0.05 : 1.0),
      [a](auto& r) { return measure_reduce(a, r); });
}

void dims(const Options& o, const std::string& sp, std::vector<Case>& out) {
  // n x n against e x e x e of the same bytes: 2^12 squared = 256 cubed.
  const i64 n = o.quick ? 64 : 4096, e = o.quick ? 16 : 256;
  const double el = double(n) * n;
  TransposeArgs t;
  t.n = n;
  t.common = common(o, sp, "float", el);
  t.variant = "tiled_padded";
  add(out, "dims", "transpose 2-D " + sp, cost(sp, 8 * el, 2.0 * (t.common.reps + 3)),
      [t](auto& r) { return measure_transpose(t, r); });
  PermuteArgs p;
  p.shape = std::to_string(e) + "," + std::to_string(e) + "," + std::to_string(e);
  p.common = common(o, sp, "float", el);
  p.perms.assign(std::begin(kPerms3), std::end(kPerms3));
  p.variant = "shared_bank_free,fused";
  add(out, "dims", "permute 3-D " + sp, cost(sp, 8 * el, 13.0 * (p.common.reps + 3)),
      [p](auto& r) { return measure_permute(p, r); });
}

}  // namespace

const std::vector<Study>& studies() {
  static const std::vector<Study> s = {
      {"sizes", "Size sweeps", "000, 001, 003",
       "Every family's variants against the copy of the same bytes over a range of sizes."},
      {"launch", "Launch shapes", "002, 004",
       "The tiled transpose at tile edges 8, 16, 32 and (GPU) 64, 256, 1024 threads per "
       "block; the reduce ladder at blocks of 64, 256 and 1024 work items."},
      {"cache", "Cache misses at each optimisation level", "000",
       "The naive and blocked in-place transposes under Cachegrind, built at -O0 to -O3."},
      {"cpu_gpu", "CPU versus GPU", "000, 001, 003",
       "One variant per family on the host space and the GPU space of one binary, kernel "
       "alone and with the host<->device transfers."},
      {"ladder", "The reduction ladder", "004",
       "Seed 004's six reductions, Kokkos' and the production sum (2^26 floats in the full "
       "study, as in the seed)."},
      {"dims", "2-D versus 3-D", "003",
       "The 2-D transpose of an n x n matrix against the six 3-D permutations of a tensor "
       "of the same bytes."},
  };
  return s;
}

std::vector<std::string> spaces(const Options& o) { return selected_spaces(o.space); }

std::vector<Case> cases(const Options& o, const std::string& study) {
  std::vector<Case> out;
  if (study == "cache") {
    add(out, "cache", "cachegrind -O0..-O3", o.quick ? 2 : 60,
        [q = o.quick](report::Report& r) { return run_cache_study(q, r); });
    return out;
  }
  for (const auto& sp : spaces(o)) {
    if (study == "sizes") sizes(o, sp, out);
    else if (study == "launch") launch(o, sp, out);
    else if (study == "cpu_gpu") cpu_gpu(o, sp, out);
    else if (study == "ladder") ladder(o, sp, out);
    else if (study == "dims") dims(o, sp, out);
  }
  return out;
}

report::Report start_report(const Options& o) {
  report::Report rep;
  rep.kokkos = report::kokkos_configuration();
  add_devices(o.space, rep);
  if (host_space_built()) add_devices("host", rep);  // the CPU beside a GPU study
  return rep;
}

nlohmann::ordered_json backend_defaults(const Options& o) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for_each_space(o.space, [&](auto exec) {
    using Tr = backends::Traits<decltype(exec)>;
    const auto t = Tr::transpose_tile(sizeof(float));
    j[decltype(exec)::name()] = {{"tile", t.tile},
                                 {"threads", t.team_rows * t.vector},
                                 {"block", backends::LadderTraits<decltype(exec)>::config().block}};
  });
  return j;
}

}  // namespace tilekit::tool::study
