#!/usr/bin/env python3
"""Markdown tables from the tool's JSON results (bench/results/*.json).

    python3 bench/summarize.py bench/results/transpose-h200.json [...]
    python3 bench/summarize.py --extremes bench/results/awkward-*-h200.json

One table per file: variant, space, shape, dtype, median time, GB/s, % of the
deep_copy of the same run, % of theoretical peak, speedup over naive, plus any
op-specific columns the rows carry. --extremes instead gives, per family, space
and type over all the files, the worst and the best case of the kernels against
the copy of their own run (and, for reduce sums, against CUB's sum of the same n).
The Python benchmark's files (bench/bench_python.py: a framework per row, not a
space) read the same way, the framework in the space column.
Google Benchmark files among them (bench_cmm's, which bench/awkward.sh writes beside
the tool's) give the CMM kernels against cuBLAS of the same N and run instead.
"""
import json
import sys

FIXED = ["op", "variant", "space", "framework", "shape", "dtype", "ms", "bytes", "gbps",
         "pct_copy", "pct_peak", "speedup_vs_naive", "verified"]


def space_of(r):
    """A row's space (the tool's rows) or framework (the Python benchmark's)."""
    return r.get("space") or r.get("framework", "-")


def fmt(v, digits=1):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    if isinstance(v, list):
        return "x".join(str(x) for x in v)
    return str(v)


def table(path):
    d = json.load(open(path))
    out = [f"**{path}** — {d['device']}, {d['date']}, commit `{d['commit']}`, {d.get('kokkos', '')}", ""]
    for dev in d.get("devices", []):
        peak = f"{dev['peak_gbps']:.0f} GB/s" if dev.get("peak_gbps") else "unknown"
        out.append(f"- {dev['space']}: {dev['device']}, concurrency {dev['concurrency']}, peak {peak}")
    out.append("")
    extra = []
    for r in d["rows"]:
        for k in r:
            if k not in FIXED and k not in extra:
                extra.append(k)
    head = ["variant", "space", "shape", "dtype", "ms", "GB/s", "% copy", "% peak", "speedup"] + extra
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "---|" * len(head))
    for r in d["rows"]:
        cells = [r["variant"], space_of(r), fmt(r["shape"]), r["dtype"], fmt(r["ms"], 3),
                 fmt(r.get("gbps"), 0), fmt(r.get("pct_copy")), fmt(r.get("pct_peak")),
                 fmt(r.get("speedup_vs_naive"), 2)]
        cells += [fmt(r.get(k), 3) for k in extra]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


BASELINES = {"copy", "memcpy", "cub", "copy_kernel", "openblas", "tilekit_copy"}


def case(r):
    perm = r.get("perm")
    return fmt(r["shape"]) + (" perm " + fmt(perm).replace("x", ",") if perm else "")


def gbench_cases(d):
    """(variant, space, dtype, n) -> GFLOP/s of a Google Benchmark file's rows
    named variant/Space/dtype/N/..."""
    rates = {}
    for b in d["benchmarks"]:
        parts = b["name"].split("/")
        if len(parts) >= 4 and b.get("GFLOP/s"):
            rates[(parts[0], parts[1], parts[2], int(parts[3]))] = b["GFLOP/s"]
    return rates


def cmm_extremes(files):
    groups = {}
    for d in files:
        rates = gbench_cases(d)
        for (variant, space, dtype, n), rate in rates.items():
            ref = rates.get(("cublas", space, dtype, n))
            if variant not in ("cublas", "cublas_gemm") and ref:
                groups.setdefault((variant, space, dtype), []).append((100.0 * rate / ref, n))
    out = ["| family | variant | space | dtype | cases | worst % of cuBLAS | worst N | median | best % of cuBLAS | best N |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for (variant, space, dtype), g in sorted(groups.items()):
        g.sort()
        med = g[len(g) // 2][0] if len(g) % 2 else (g[len(g) // 2 - 1][0] + g[len(g) // 2][0]) / 2
        out.append(f"| cmm | {variant} | {space} | {dtype} | {len(g)} | {g[0][0]:.1f} | {g[0][1]} | "
                   f"{med:.1f} | {g[-1][0]:.1f} | {g[-1][1]} |")
    return "\n".join(out) if groups else ""


def extremes(paths):
    groups = {}
    cub = {}
    gbench = []
    for path in paths:
        d = json.load(open(path))
        if "benchmarks" in d:
            gbench.append(d)
            continue
        for r in d["rows"]:
            if r["variant"] == "cub" and r.get("ms"):
                cub[(space_of(r), r["dtype"], fmt(r["shape"]))] = r["ms"]
        for r in d["rows"]:
            if r["variant"] in BASELINES or r.get("pct_copy") is None or not r.get("ms"):
                continue
            if r.get("perm") and r["perm"] == sorted(r["perm"]):
                continue  # the identity moves nothing a permutation has to
            g = groups.setdefault((r.get("op", "python"), r["variant"], space_of(r), r["dtype"]), [])
            ref = cub.get((space_of(r), r["dtype"], fmt(r["shape"])))
            g.append((r["pct_copy"], case(r), 100.0 * ref / r["ms"] if ref else None))
    out = ["| family | variant | space | dtype | cases | worst % copy | worst case | median | best % copy | best case | % of CUB (min..max) |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (op, variant, space, dtype), g in sorted(groups.items()):
        g.sort()
        med = g[len(g) // 2][0] if len(g) % 2 else (g[len(g) // 2 - 1][0] + g[len(g) // 2][0]) / 2
        vs = [x[2] for x in g if x[2] is not None]
        vs_cub = f"{min(vs):.1f}..{max(vs):.1f}" if vs else "-"
        out.append(f"| {op} | {variant} | {space} | {dtype} | {len(g)} | {g[0][0]:.1f} | {g[0][1]} | "
                   f"{med:.1f} | {g[-1][0]:.1f} | {g[-1][1]} | {vs_cub} |")
    cmm = cmm_extremes(gbench)
    return "\n".join(out) + ("\n\n" + cmm if cmm else "")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--extremes"]:
        print(extremes(sys.argv[2:]))
    else:
        tables = []
        for p in sys.argv[1:]:
            if "benchmarks" in json.load(open(p)):  # Google Benchmark's own format
                tables.append(f"**{p}**: a Google Benchmark file (its extremes: --extremes)")
            else:
                tables.append(table(p))
        print("\n\n".join(tables))
