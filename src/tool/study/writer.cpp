#include "writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "cases.hpp"

namespace tilekit::tool::study {
namespace {

using json = nlohmann::ordered_json;
using Rows = std::vector<const json*>;

double num(const json& row, const std::string& k) {
  return row.contains(k) && row[k].is_number() ? row[k].get<double>() : 0;
}
std::string str(const json& row, const std::string& k) {
  return row.contains(k) && row[k].is_string() ? row[k].get<std::string>() : "";
}
double elements(const json& row) {
  double e = 1;
  for (const auto& x : row["shape"]) e *= x.get<double>();
  return e;
}
std::string shape(const json& row) {
  std::string s;
  for (const auto& x : row["shape"]) {
    if (!s.empty()) s += 'x';
    s += std::to_string(x.get<long long>());
  }
  return s;
}
bool with_transfers(const json& row) { return row.contains("transfers"); }

/// report.md under construction, and the provenance of every figure in it.
class Doc {
 public:
  std::ostringstream md;
  json figures = json::array();

  /// At least `d` decimals and three significant digits (at most six decimals).
  static int decimals(double v, int d) {
    if (v == 0 || !std::isfinite(v)) return d;
    return std::clamp(2 - static_cast<int>(std::floor(std::log10(std::abs(v)))), d, 6);
  }
  /// row[field] * scale, recorded.
  std::string fig(const json& row, const std::string& field, int d, double scale = 1) {
    const double v = num(row, field) * scale;
    d = decimals(v, d);
    const std::string text = fmt::format("{:.{}f}", v, d);
    figures.push_back({{"text", text}, {"row", row["id"]}, {"field", field}, {"scale", scale},
                       {"decimals", d}});
    return text;
  }
  /// a[fa] / b[fb] with `d` decimals, recorded; "-" when b[fb] is 0.
  std::string ratio(const json& a, const std::string& fa, const json& b, const std::string& fb,
                    int d) {
    if (num(b, fb) == 0) return "-";
    const double v = num(a, fa) / num(b, fb);
    d = decimals(v, d);
    const std::string text = fmt::format("{:.{}f}", v, d);
    figures.push_back({{"text", text}, {"num", {a["id"], fa}}, {"den", {b["id"], fb}},
                       {"decimals", d}});
    return text;
  }
  /// A percentage field that may be absent (null: unknown peak).
  std::string pct(const json& row, const std::string& field) {
    return num(row, field) > 0 ? fig(row, field, 1) + "%" : "-";
  }
  void table(const std::vector<std::string>& head) {
    md << "\n|";
    for (const auto& h : head) md << ' ' << h << " |";
    md << "\n|";
    for (std::size_t k = 0; k < head.size(); ++k) md << " --- |";
    md << '\n';
  }
  void row(const std::vector<std::string>& cells) {
    md << '|';
    for (const auto& c : cells) md << ' ' << c << " |";
    md << '\n';
  }
};

Rows select(const json& j, const std::function<bool(const json&)>& keep) {
  Rows out;
  for (const auto& r : j["rows"])
    if (keep(r)) out.push_back(&r);
  return out;
}

std::vector<std::string> spaces_of(const Rows& rows) {
  std::vector<std::string> s;
  for (const auto* r : rows)
    if (std::find(s.begin(), s.end(), str(*r, "space")) == s.end()) s.push_back(str(*r, "space"));
  return s;
}

void image(Doc& d, const std::string& dir, const std::string& file, const std::string& alt) {
  if (std::filesystem::exists(std::filesystem::path(dir) / file))
    d.md << "\n![" << alt << "](" << file << ")\n";
  else
    d.md << "\n*(plot " << file << " not drawn: see \"Plots\" below)*\n";
}

void sizes(Doc& d, const json& j, const std::string& dir) {
  d.md << "One panel per space and type; the size axis is the bytes of the input (log "
          "scale), the copy of the same bytes (`Kokkos::deep_copy`) is dashed, and the "
          "host's L1, L2 and L3 sizes are marked on CPU panels. The tables give the "
          "largest size of each space.\n";
  for (const std::string op : {"transpose", "permute", "reduce", "cmm"}) {
    const Rows rows = select(j, [&](const json& r) {
      return str(r, "study") == "sizes" && str(r, "op") == op && num(r, "ms") > 0 &&
             !with_transfers(r);
    });
    if (rows.empty()) continue;
    d.md << "\n### " << op << "\n";
    image(d, dir, "sizes-" + op + ".png", op + " bandwidth against size");
    const bool cmm = op == "cmm";
    std::vector<std::string> head = {"space", "type", "size", "variant", "median ms", "GB/s",
                                     "% copy", "% peak"};
    if (cmm) head.push_back("GFLOP/s");
    d.table(head);
    std::map<std::pair<std::string, std::string>, double> largest;
    for (const auto* r : rows) {
      auto& l = largest[{str(*r, "space"), str(*r, "dtype")}];
      l = std::max(l, elements(*r));
    }
    for (const auto* r : rows) {
      if (elements(*r) != largest[{str(*r, "space"), str(*r, "dtype")}]) continue;
      std::vector<std::string> c = {str(*r, "space"), str(*r, "dtype"), shape(*r),
                                    str(*r, "variant"), d.fig(*r, "ms", 3), d.fig(*r, "gbps", 1),
                                    d.pct(*r, "pct_copy"), d.pct(*r, "pct_peak")};
      if (cmm) c.push_back(num(*r, "gflops") > 0 ? d.fig(*r, "gflops", 1) : "-");
      d.row(c);
    }
  }
}

void launch(Doc& d, const json& j, const std::string& dir) {
  const Rows t = select(j, [](const json& r) {
    return str(r, "study") == "launch" && str(r, "op") == "transpose" && str(r, "variant") != "copy";
  });
  const json& defaults = j["study"]["defaults"];
  if (!t.empty()) {
    d.md << "\n### Tiled transpose: tile edge and threads per team\n";
    image(d, dir, "launch-transpose.png", "transpose throughput by launch shape");
    d.md << "\nThroughput in elements per second as seed 004 reports it (Gelem/s), and in "
            "GB/s of bytes read and written. `default` is the backend's own choice";
    for (const auto& [space, v] : defaults.items())
      d.md << fmt::format("; {}: tile {}, {} threads per team", space, v["tile"].get<int>(),
                          v["threads"].get<int>());
    d.md << ". On the host a team is one thread, so only the tile edge is swept.\n";
    d.table({"space", "shape", "launch", "variant", "tile", "threads", "median ms", "Gelem/s",
             "GB/s", "% copy"});
    for (const auto* r : t)
      d.row({str(*r, "space"), shape(*r), str(*r, "sweep"), str(*r, "variant"),
             r->contains("tile") ? std::to_string((*r)["tile"].get<int>()) : "-",
             r->contains("threads") ? std::to_string((*r)["threads"].get<int>()) : "-",
             d.fig(*r, "ms", 3), d.fig(*r, "gelems", 2), d.fig(*r, "gbps", 1),
             d.pct(*r, "pct_copy")});
  }
  const Rows red = select(j, [](const json& r) {
    return str(r, "study") == "launch" && str(r, "op") == "reduce" && str(r, "variant") != "copy";
  });
  if (!red.empty()) {
    d.md << "\n### Reduce ladder: work items per team\n";
    image(d, dir, "launch-reduce.png", "reduce ladder by block size");
    d.md << "\nThe backends' default block:";
    for (const auto& [space, v] : defaults.items())
      d.md << fmt::format(" {} {};", space, v["block"].get<int>());
    d.md << " GB/s of bytes read.\n";
    d.table({"space", "elements", "block", "step", "median ms", "GB/s", "% copy"});
    for (const auto* r : red)
      d.row({str(*r, "space"), shape(*r), str(*r, "sweep"), str(*r, "variant"),
             d.fig(*r, "ms", 3), d.fig(*r, "gbps", 1), d.pct(*r, "pct_copy")});
  }
}

void cache(Doc& d, const json& j, const std::string& dir) {
  const Rows rows = select(j, [](const json& r) { return str(r, "study") == "cache"; });
  for (const auto* r : rows)
    if (str(*r, "variant") == "skipped") {
      d.md << "\n**Skipped:** " << str(*r, "note") << ".\n";
      return;
    }
  if (rows.empty()) return;
  d.md << "\nThe driver `bench/cache_driver.cpp` (plain loops, one thread, block 16 as in "
          "seed 000) built at each level; Cachegrind simulates "
       << str(*rows.front(), "simulated")
       << " on every machine, and the counts are those of one transpose alone (a run that "
          "only fills the matrix is subtracted). Miss rates are misses per data reference; "
          "the native time is the median of the driver run without Valgrind.\n";
  image(d, dir, "cache.png", "cache misses and time by optimisation level");
  d.table({"level", "type", "n", "variant", "instructions (M)", "data refs (M)",
           "D1 misses (M)", "D1 miss %", "LL misses (M)", "LL miss %", "native ms"});
  for (const auto* r : rows)
    d.row({str(*r, "opt"), str(*r, "dtype"), shape(*r), str(*r, "variant"),
           d.fig(*r, "instructions", 1, 1e-6), d.fig(*r, "data_refs", 1, 1e-6),
           d.fig(*r, "d1_misses", 2, 1e-6), d.fig(*r, "d1_miss_pct", 2),
           d.fig(*r, "ll_misses", 2, 1e-6), d.fig(*r, "ll_miss_pct", 2), d.fig(*r, "ms", 2)});
  // What the numbers show, per type: blocked vs naive misses, the levels' effect.
  auto find = [&](const std::string& dt, double n, const std::string& opt,
                  const std::string& v) -> const json* {
    for (const auto* r : rows)
      if (str(*r, "dtype") == dt && elements(*r) == n * n && str(*r, "opt") == opt &&
          str(*r, "variant") == v)
        return r;
    return nullptr;
  };
  std::vector<std::pair<std::string, double>> configs;  // (type, n) in the order measured
  for (const auto* r : rows) {
    const std::pair<std::string, double> c{str(*r, "dtype"), (*r)["shape"][0].get<double>()};
    if (std::find(configs.begin(), configs.end(), c) == configs.end()) configs.push_back(c);
  }
  d.md << "\n**What the numbers show.**\n";
  for (const auto& [dt, n] : configs) {
    const json *n0 = find(dt, n, "-O0", "naive"), *b0 = find(dt, n, "-O0", "blocked"),
               *n3 = find(dt, n, "-O3", "naive"), *b3 = find(dt, n, "-O3", "blocked");
    if (!n0 || !b0 || !n3 || !b3) continue;
    const bool fewer = num(*b0, "d1_misses") < num(*n0, "d1_misses");
    d.md << fmt::format(
        "\n- {}, n = {}: at -O0 the blocked transpose has {} D1 misses than the naive ({} M "
        "against {} M; the naive's are {}x the blocked's) and {} LL misses ({} M against {} M).",
        dt, shape(*n0), fewer ? "fewer" : "no fewer", d.fig(*b0, "d1_misses", 2, 1e-6),
        d.fig(*n0, "d1_misses", 2, 1e-6), d.ratio(*n0, "d1_misses", *b0, "d1_misses", 1),
        num(*b0, "ll_misses") < num(*n0, "ll_misses") ? "fewer" : "no fewer",
        d.fig(*b0, "ll_misses", 2, 1e-6), d.fig(*n0, "ll_misses", 2, 1e-6));
    if (fewer)
      d.md << " It swaps within pairs of 16 x 16 blocks whose lines stay in D1, while the "
              "naive walks a column, one line per element.";
    const double miss_change = num(*n3, "d1_misses") / std::max(num(*n0, "d1_misses"), 1.0);
    d.md << fmt::format(
        " From -O0 to -O3 the naive runs {}x fewer instructions ({} M to {} M) and the "
        "blocked {}x fewer, while the naive's D1 misses go from {} M to {} M",
        d.ratio(*n0, "instructions", *n3, "instructions", 1), d.fig(*n0, "instructions", 1, 1e-6),
        d.fig(*n3, "instructions", 1, 1e-6), d.ratio(*b0, "instructions", *b3, "instructions", 1),
        d.fig(*n0, "d1_misses", 2, 1e-6), d.fig(*n3, "d1_misses", 2, 1e-6));
    if (miss_change > 0.8 && miss_change < 1.25)
      d.md << fmt::format(
          ": optimisation removes instructions (at -O0 mostly loads and stores of loop "
          "variables on the stack, which hit D1), not misses, so the miss rate rises from "
          "{}% to {}%.",
          d.fig(*n0, "d1_miss_pct", 2), d.fig(*n3, "d1_miss_pct", 2));
    else
      d.md << ".";
    d.md << fmt::format(
        " Natively the naive takes {}x the blocked's time at -O0 and {}x at -O3 ({} ms "
        "against {} ms).",
        d.ratio(*n0, "ms", *b0, "ms", 1), d.ratio(*n3, "ms", *b3, "ms", 1), d.fig(*n3, "ms", 2),
        d.fig(*b3, "ms", 2));
    const json* best = nullptr;
    for (const std::string opt : {"-O0", "-O1", "-O2", "-O3"})
      if (const json* r = find(dt, n, opt, "blocked"); r && (!best || num(*r, "ms") < num(*best, "ms")))
        best = r;
    if (best)
      d.md << fmt::format(" The fastest blocked build is {} ({} ms).", str(*best, "opt"),
                          d.fig(*best, "ms", 2));
  }
  // A power-of-two n against one that is not: the blocked's D1 misses.
  for (const auto& [dt, n] : configs) {
    if (n < 64 || (static_cast<long>(n) & (static_cast<long>(n) - 1)) != 0) continue;
    for (const auto& [dt2, m] : configs) {
      if (dt2 != dt || m == n) continue;
      const json *bp = find(dt, n, "-O3", "blocked"), *bq = find(dt, m, "-O3", "blocked"),
                 *nq = find(dt, m, "-O3", "naive");
      if (!bp || !bq || !nq) continue;
      d.md << fmt::format(
          "\n- {} at -O3, n = {} against n = {}: the blocked's D1 misses are {} M against {} M "
          "(the naive's at n = {}: {} M).",
          dt, static_cast<long>(n), static_cast<long>(m), d.fig(*bp, "d1_misses", 2, 1e-6),
          d.fig(*bq, "d1_misses", 2, 1e-6), static_cast<long>(m), d.fig(*nq, "d1_misses", 2, 1e-6));
      if (num(*bq, "d1_misses") < 0.5 * num(*bp, "d1_misses"))
        d.md << fmt::format(
            " With n = {} the rows of a block are {} bytes apart, a multiple of the simulated "
            "D1's 4 KiB way, so its 16 lines compete for one set of 8 ways and evict each "
            "other; with n = {} they spread over the sets and the blocking pays in D1 as well.",
            static_cast<long>(n), static_cast<long>(n) * 4, static_cast<long>(m));
    }
  }
  d.md << '\n';
}

void cpu_gpu(Doc& d, const json& j, const std::string& dir) {
  const Rows rows = select(j, [](const json& r) {
    return str(r, "study") == "cpu_gpu" && str(r, "variant") != "copy" && num(r, "ms") > 0;
  });
  if (rows.empty()) return;
  const auto spaces = spaces_of(rows);
  const bool both = std::any_of(spaces.begin(), spaces.end(), is_gpu) &&
                    std::any_of(spaces.begin(), spaces.end(), [](auto& s) { return !is_gpu(s); });
  if (!both)
    d.md << "\n**This build has no GPU space**, so the table below holds the host only. With "
            "a GPU space this study puts the same variant on the host and the GPU of one "
            "binary side by side: time, GB/s, % of each space's copy and peak, the GPU's "
            "speedup over the host with the kernel alone and with the host<->device transfers "
            "of input and output from pageable and pinned memory, and (CMM, seed 001) the "
            "allocation / host-to-device / kernel / device-to-host breakdown with pageable, "
            "pinned and unified memory. Build Kokkos with CUDA and OpenMP, then `cmake --preset "
            "cuda && cmake --build --preset cuda && ./build-cuda/bin/tilekit study cpu_gpu` "
            "(README, \"On an NVIDIA GPU\").\n";
  image(d, dir, "cpu-gpu.png", "CPU versus GPU");
  d.table({"family", "variant", "space", "shape", "transfers", "median ms", "GB/s", "% copy",
           "% peak", "GPU speedup"});
  // The host row of each family is the reference of every GPU row's speedup.
  std::map<std::string, const json*> host;
  for (const auto* r : rows)
    if (!is_gpu(str(*r, "space")) && !with_transfers(*r) && !host.count(str(*r, "op")))
      host[str(*r, "op")] = r;
  for (const auto* r : rows) {
    const bool gpu = is_gpu(str(*r, "space"));
    std::string xfer = str(*r, "transfers");
    if (xfer.empty() && str(*r, "op") == "cmm" && str(*r, "variant") != "blocked")
      xfer = str(*r, "variant");
    const auto* h = host.count(str(*r, "op")) ? host[str(*r, "op")] : nullptr;
    d.row({str(*r, "op"), str(*r, "variant"), str(*r, "space"), shape(*r),
           xfer.empty() ? "kernel only" : xfer, d.fig(*r, "ms", 3),
           num(*r, "gbps") > 0 ? d.fig(*r, "gbps", 1) : "-", d.pct(*r, "pct_copy"),
           d.pct(*r, "pct_peak"), gpu && h ? d.ratio(*h, "ms", *r, "ms", 2) + "x" : "-"});
  }
  const Rows phases = select(j, [](const json& r) {
    return str(r, "study") == "cpu_gpu" && r.contains("h2d_ms") && num(r, "ms") > 0;
  });
  if (!phases.empty()) {
    d.md << "\nWhere the time of a transferred run goes (ms):\n";
    d.table({"family", "space", "memory", "alloc", "host to device", "kernel", "device to host",
             "total"});
    for (const auto* r : phases)
      d.row({str(*r, "op"), str(*r, "space"),
             with_transfers(*r) ? str(*r, "transfers") : str(*r, "variant"),
             r->contains("alloc_ms") ? d.fig(*r, "alloc_ms", 3) : "-", d.fig(*r, "h2d_ms", 3),
             d.fig(*r, "kernel_ms", 3), d.fig(*r, "d2h_ms", 3), d.fig(*r, "ms", 3)});
  }
}

void ladder(Doc& d, const json& j, const std::string& dir) {
  const Rows rows = select(j, [](const json& r) { return str(r, "study") == "ladder"; });
  if (rows.empty()) return;
  image(d, dir, "ladder.png", "step and cumulative speedups of the reduction ladder");
  d.table({"space", "elements", "variant", "median ms", "GB/s", "% copy", "% peak",
           "step speedup", "cumulative speedup"});
  for (const auto* r : rows)
    d.row({str(*r, "space"), shape(*r), str(*r, "variant"), d.fig(*r, "ms", 3),
           d.fig(*r, "gbps", 1), d.pct(*r, "pct_copy"),
           d.pct(*r, "pct_peak"),
           num(*r, "step_speedup") > 0 ? d.fig(*r, "step_speedup", 2) + "x" : "-",
           num(*r, "speedup_vs_naive") > 0 ? d.fig(*r, "speedup_vs_naive", 2) + "x" : "-"});
}

void dims(Doc& d, const json& j, const std::string& dir) {
  const Rows rows = select(j, [](const json& r) {
    return str(r, "study") == "dims" && num(r, "ms") > 0 && str(r, "variant") != "copy";
  });
  if (rows.empty()) return;
  image(d, dir, "dims.png", "2-D transpose against the 3-D permutations");
  d.table({"space", "shape", "what", "permutation", "variant", "median ms", "GB/s", "% copy"});
  for (const auto* r : rows) {
    std::string perm = "1,0";
    if (r->contains("perm")) {
      perm.clear();
      for (const auto& p : (*r)["perm"]) {
        if (!perm.empty()) perm += ',';
        perm += std::to_string(p.get<int>());
      }
    }
    d.row({str(*r, "space"), shape(*r), str(*r, "op") == "transpose" ? "2-D" : "3-D",
           "(" + perm + ")", str(*r, "variant"), d.fig(*r, "ms", 3), d.fig(*r, "gbps", 1),
           d.pct(*r, "pct_copy")});
  }
  for (const auto& sp : spaces_of(rows)) {
    const json *t = nullptr, *lo = nullptr, *hi = nullptr;
    for (const auto* r : rows) {
      if (str(*r, "space") != sp) continue;
      if (str(*r, "op") == "transpose") t = r;
      else if (str(*r, "variant") == "fused") {
        if (!lo || num(*r, "gbps") < num(*lo, "gbps")) lo = r;
        if (!hi || num(*r, "gbps") > num(*hi, "gbps")) hi = r;
      }
    }
    if (t && lo && hi)
      d.md << fmt::format(
          "\n{}: the 2-D transpose moves {} GB/s; the 3-D permutations of the same bytes "
          "(production `fused` variant) range from {} to {} GB/s, {}x to {}x the 2-D rate.\n",
          sp, d.fig(*t, "gbps", 1), d.fig(*lo, "gbps", 1), d.fig(*hi, "gbps", 1),
          d.ratio(*lo, "gbps", *t, "gbps", 2), d.ratio(*hi, "gbps", *t, "gbps", 2));
  }
}

}  // namespace

void write_report(const std::string& dir, const json& j) {
  Doc d;
  const json& s = j["study"];
  d.md << "# tilekit study: " << j["device"].get<std::string>() << "\n\n";
  d.md << "The seeds' experiments (`../shared/seeds`, INDEX.md) reproduced by `tilekit "
          "study`; every number below is a row of `study.json` (the tool's `--json` row "
          "schema), and `figures.json` names the row of each.\n\n```\n";
  d.md << "commit:   " << j["commit"].get<std::string>() << '\n'
       << "date:     " << j["date"].get<std::string>() << '\n'
       << "command:  " << s["command"].get<std::string>() << '\n'
       << "mode:     " << (s["quick"].get<bool>() ? "quick" : "full") << '\n'
       << "kokkos:   " << j["kokkos"].get<std::string>() << '\n'
       << "time:     " << static_cast<long>(s["seconds"].get<double>() + 0.5) << " s (";
  bool first = true;
  for (const auto& [name, secs] : s["seconds_per_study"].items()) {
    d.md << (first ? "" : ", ") << name << " " << static_cast<long>(secs.get<double>() + 0.5) << " s";
    first = false;
  }
  d.md << ")\n";
  for (const auto& dev : j["devices"]) {
    d.md << "space:    " << dev["space"].get<std::string>() << ": "
         << dev["device"].get<std::string>() << ", concurrency " << dev["concurrency"]
         << ", peak " << (dev["peak_gbps"].is_null() ? std::string("unknown") : dev["peak_gbps"].dump())
         << " GB/s (" << dev["peak_source"].get<std::string>() << ")";
    if (dev["l1_bytes"].get<long long>() > 0)
      d.md << ", L1 " << dev["l1_bytes"] << " B, L2 " << dev["l2_bytes"] << " B, L3 "
           << dev["l3_bytes"] << " B";
    d.md << '\n';
  }
  d.md << "```\n";
  const auto& run = s["studies"];
  for (const auto& st : studies()) {
    if (std::find(run.begin(), run.end(), st.name) == run.end()) continue;
    d.md << "\n## " << st.title << " (" << st.name << ")\n\n*Seed"
         << (st.seeds.find(',') != std::string::npos ? "s " : " ") << st.seeds << ".* "
         << st.about << '\n';
    if (st.name == "sizes") sizes(d, j, dir);
    else if (st.name == "launch") launch(d, j, dir);
    else if (st.name == "cache") cache(d, j, dir);
    else if (st.name == "cpu_gpu") cpu_gpu(d, j, dir);
    else if (st.name == "ladder") ladder(d, j, dir);
    else if (st.name == "dims") dims(d, j, dir);
  }
  if (!s["failures"].empty()) {
    d.md << "\n## Cases that failed\n\n";
    for (const auto& f : s["failures"]) d.md << "- " << f.get<std::string>() << '\n';
  }
  d.md << "\n## Plots\n\n" << s["plots"].get<std::string>()
       << "\n\nTo redraw them from the JSON: `/usr/bin/python3 study_plots.py study.json .` in "
          "this folder (Python 3 with matplotlib; Debian: python3-matplotlib).\n";
  std::ofstream md(std::filesystem::path(dir) / "report.md");
  if (!md) throw std::runtime_error("cannot write " + dir + "/report.md");
  md << d.md.str();
  std::ofstream f(std::filesystem::path(dir) / "figures.json");
  f << d.figures.dump(1) << '\n';
}

}  // namespace tilekit::tool::study
