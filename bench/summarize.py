#!/usr/bin/env python3
"""Markdown tables from the tool's JSON results (bench/results/*.json).

    python3 bench/summarize.py bench/results/transpose-h200.json [...]

One table per file: variant, space, shape, dtype, median time, GB/s, % of the
deep_copy of the same run, % of theoretical peak, speedup over naive, plus any
op-specific columns the rows carry.
"""
import json
import sys

FIXED = ["op", "variant", "space", "shape", "dtype", "ms", "bytes", "gbps", "pct_copy",
         "pct_peak", "speedup_vs_naive", "verified"]


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
        cells = [r["variant"], r["space"], fmt(r["shape"]), r["dtype"], fmt(r["ms"], 3),
                 fmt(r["gbps"], 0), fmt(r["pct_copy"]), fmt(r.get("pct_peak")),
                 fmt(r.get("speedup_vs_naive"), 2)]
        cells += [fmt(r.get(k), 3) for k in extra]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


if __name__ == "__main__":
    print("\n\n".join(table(p) for p in sys.argv[1:]))
