#!/usr/bin/env python3
"""Effective bandwidth against size from a Google Benchmark JSON of bench_<family>.

    /usr/bin/python3 bench/plot.py bench/results/h200/2026-11-21-47c34db-bench-transpose.json docs/img/transpose-h200.png

Benchmark names are variant/space/dtype/size; one panel per (space, dtype),
one line per variant, the deep_copy baseline dashed.
"""
import json
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(src, dst):
    data = json.load(open(src))
    series = defaultdict(lambda: defaultdict(list))
    for b in data["benchmarks"]:
        parts = b["name"].split("/")
        if len(parts) < 4 or "GB/s" not in b or parts[0] == "release":
            continue
        variant, space, dtype, size = parts[:4]
        series[(space, dtype)][variant].append((int(size), b["GB/s"]))
    panels = sorted(series)
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4), squeeze=False)
    for ax, key in zip(axes[0], panels):
        for variant, pts in sorted(series[key].items()):
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "--" if variant == "copy" else "-o",
                    label=variant, markersize=3)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("n (n x n matrix)")
        ax.set_ylabel("GB/s (read + write)")
        ax.set_title(f"{key[0]} {key[1]}")
        ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=7)
    ctx = data.get("context", {})
    fig.suptitle(f"{ctx.get('device', '')} — commit {ctx.get('tilekit_commit', '')}", fontsize=9)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
