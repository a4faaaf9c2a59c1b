#!/usr/bin/env python3
"""Draws the plots of a `tilekit study` report from its study.json.

    /usr/bin/python3 bench/study_plots.py docs/study/<machine>/study.json docs/study/<machine>

Kept once, here: `tilekit study` runs it (TILEKIT_STUDY_PLOTS_SCRIPT) when it writes a report.

Writes the PNG files report.md embeds (only those whose rows are present):
sizes-<family>.png, launch-transpose.png, launch-reduce.png, cache.png,
cpu-gpu.png, ladder.png, dims.png. Needs matplotlib (Debian python3-matplotlib).
"""
import json
import warnings
import os
import sys

import matplotlib

matplotlib.use("Agg")
warnings.filterwarnings("ignore", message="Data has no positive values")
import matplotlib.pyplot as plt  # noqa: E402

GPU_SPACES = {"Cuda"}


def rows_of(data, study, op=None):
    return [r for r in data["rows"]
            if r.get("study") == study and (op is None or r["op"] == op)
            and r["ms"] and r["ms"] > 0]


def elements(r):
    e = 1
    for x in r["shape"]:
        e *= x
    return e


def elem_bytes(r):
    return {"int32": 4, "float": 4, "int64": 8, "double": 8, "cfloat": 8, "cdouble": 16}.get(r["dtype"], 4)


def bytes_label(b, _pos=None):
    for unit, k in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= k:
            return f"{b / k:g} {unit}"
    return f"{b:g} B"


def panels(n):
    cols = min(n, 2)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.4 * cols, 4.2 * rows), squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat)


def mark_caches(ax, data, space):
    if space in GPU_SPACES:
        return
    for d in data["devices"]:
        if d["space"] != space:
            continue
        for name, key in (("L1", "l1_bytes"), ("L2", "l2_bytes"), ("L3", "l3_bytes")):
            if d.get(key):
                ax.axvline(d[key], color="grey", lw=0.8, ls=":")
                ax.text(d[key], ax.get_ylim()[1], f" {name}", color="grey", va="top", fontsize=8)


def save(fig, out, name):
    fig.tight_layout()
    fig.savefig(os.path.join(out, name), dpi=90)
    plt.close(fig)
    print(name)


def sizes(data, out):
    for op in ("transpose", "permute", "reduce", "cmm"):
        rows = [r for r in rows_of(data, "sizes", op) if "transfers" not in r]
        keys = sorted({(r["space"], r["dtype"]) for r in rows})
        if not keys:
            continue
        metrics = [("gbps", "GB/s")] + ([("gflops", "GFLOP/s")] if op == "cmm" else [])
        fig, axes = panels(len(keys) * len(metrics))
        k = 0
        for metric, label in metrics:
            for space, dtype in keys:
                ax = axes[k]
                k += 1
                sel = [r for r in rows if r["space"] == space and r["dtype"] == dtype]
                for v in dict.fromkeys(r["variant"] for r in sel):
                    pts = sorted((elements(r) * elem_bytes(r), r.get(metric) or 0)
                                 for r in sel if r["variant"] == v)
                    pts = [p for p in pts if p[1] > 0]
                    if not pts:
                        continue
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3,
                            ls="--" if v in ("copy", "memcpy") else "-", color="black" if v == "copy" else None,
                            label=v)
                ax.set_xscale("log", base=2)
                ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(bytes_label))
                ax.set_xlabel("input size")
                ax.set_ylabel(label)
                ax.set_title(f"{op} - {space} - {dtype}")
                ax.grid(alpha=0.3)
                mark_caches(ax, data, space)
                ax.legend(fontsize=7)
        save(fig, out, f"sizes-{op}.png")


def bars(ax, groups, series, values, ylabel, title):
    """Grouped bars: values[(index of the group, series)]."""
    width = 0.8 / max(len(series), 1)
    for i, s in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, [values.get((k, s), 0) for k in range(len(groups))], width, label=s)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=20, fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=7)


def by_space(data, study, op=None):
    """The study's rows but the baselines, grouped by space in order of first
    appearance: a figure with a panel per space and [(axis, space, rows)], or
    (None, []) when there are none."""
    rows = [r for r in rows_of(data, study, op) if r["variant"] not in ("copy", "memcpy")]
    spaces = list(dict.fromkeys(r["space"] for r in rows))
    if not spaces:
        return None, []
    fig, axes = panels(len(spaces))
    return fig, [(ax, sp, [r for r in rows if r["space"] == sp]) for ax, sp in zip(axes, spaces)]


def launch(data, out):
    fig, parts = by_space(data, "launch", "transpose")
    if parts:
        for ax, sp, sel in parts:
            groups = list(dict.fromkeys(r["sweep"] for r in sel))
            series = list(dict.fromkeys(r["variant"] for r in sel))
            vals = {(r["sweep"], r["variant"]): r["gelems"] for r in sel}
            bars(ax, groups, series, {(groups.index(g), s): v for (g, s), v in vals.items()},
                 "Gelem/s", f"transpose {sel[0]['shape'][0]}^2 float - {sp}")
        save(fig, out, "launch-transpose.png")
    fig, parts = by_space(data, "launch", "reduce")
    if parts:
        for ax, sp, sel in parts:
            groups = list(dict.fromkeys(r["variant"] for r in sel))
            series = list(dict.fromkeys(r["sweep"] for r in sel))
            vals = {(groups.index(r["variant"]), r["sweep"]): r["gbps"] for r in sel}
            bars(ax, groups, series, vals, "GB/s", f"reduce ladder by block - {sp}")
        save(fig, out, "launch-reduce.png")


def cache(data, out):
    rows = [r for r in rows_of(data, "cache") if "opt" in r]
    if not rows:
        return
    dtypes = list(dict.fromkeys(r["dtype"] for r in rows))
    fig, axes = plt.subplots(len(dtypes), 3, figsize=(15, 3.8 * len(dtypes)), squeeze=False)
    for row_axes, dt in zip(axes, dtypes):
        sel = [r for r in rows if r["dtype"] == dt]
        levels = list(dict.fromkeys(r["opt"] for r in sel))
        variants = list(dict.fromkeys(r["variant"] for r in sel))
        for ax, (key, label, scale) in zip(row_axes, (("d1_misses", "D1 misses (M)", 1e-6),
                                                      ("instructions", "instructions (M)", 1e-6),
                                                      ("ms", "native ms", 1))):
            vals = {(levels.index(r["opt"]), r["variant"]): r[key] * scale for r in sel}
            bars(ax, levels, variants, vals, label, f"{dt} {sel[0]['shape'][0]}^2")
    save(fig, out, "cache.png")


def cpu_gpu(data, out):
    rows = [r for r in rows_of(data, "cpu_gpu") if r["variant"] not in ("copy", "memcpy") and r.get("gbps")]
    if not rows:
        return
    groups = list(dict.fromkeys(r["op"] for r in rows))
    series, vals = [], {}
    for r in rows:
        s = r["space"] + (" + " + r["transfers"] if "transfers" in r else "")
        if s not in series:
            series.append(s)
        vals[(groups.index(r["op"]), s)] = r["gbps"]
    fig, axes = panels(1)
    bars(axes[0], groups, series, vals, "GB/s (kernel bytes / time)", "CPU versus GPU")
    if any(v > 0 for v in vals.values()):
        axes[0].set_yscale("log")
    save(fig, out, "cpu-gpu.png")


def ladder(data, out):
    fig, parts = by_space(data, "ladder")
    if not parts:
        return
    for ax, sp, sel in parts:
        groups = [r["variant"] for r in sel]
        vals = {}
        for i, r in enumerate(sel):
            vals[(i, "step")] = r.get("step_speedup") or 0
            vals[(i, "cumulative")] = r.get("speedup_vs_naive") or 0
        bars(ax, groups, ["step", "cumulative"], vals, "speedup (x)",
             f"reduce ladder, {sel[0]['shape'][0]} floats - {sp}")
        if any(v > 0 for v in vals.values()):
            ax.set_yscale("log")
    save(fig, out, "ladder.png")


def dims(data, out):
    fig, parts = by_space(data, "dims")
    if not parts:
        return
    for ax, sp, sel in parts:
        groups, vals, series = [], {}, []
        for r in sel:
            g = "2-D (1,0)" if r["op"] == "transpose" else "3-D (" + ",".join(map(str, r["perm"])) + ")"
            s = r["variant"]
            if g not in groups:
                groups.append(g)
            if s not in series:
                series.append(s)
            vals[(groups.index(g), s)] = r["gbps"]
        copies = [r["gbps"] for r in rows_of(data, "dims") if r["space"] == sp and r["variant"] == "copy"]
        bars(ax, groups, series, vals, "GB/s", f"2-D vs 3-D, same bytes - {sp}")
        if copies:
            ax.axhline(max(copies), color="black", ls="--", lw=1, label="copy")
    save(fig, out, "dims.png")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        data = json.load(f)
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for draw in (sizes, launch, cache, cpu_gpu, ladder, dims):
        draw(data, out)


if __name__ == "__main__":
    main()
