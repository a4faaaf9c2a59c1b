#!/usr/bin/env python3
"""PyTorch beside tilekit: the same transposition or permutations on the same device,
timed with CUDA events (median of --reps calls after one untimed), with PyTorch's copy of
the same bytes in the same call, written as rows of the tool's JSON (`tilekit <op> --json`).

    bench/torch_peer.py transpose --m M --n N [--dtype float] [--reps 20] --json OUT [--like FILE]
    bench/torch_peer.py permute --shape A,B,C --perm 2,1,0 [--perm ...] [--dtype float] ... --json OUT
    bench/torch_peer.py --batch CALLS      one call a line (its arguments, shell-quoted): PyTorch
                                           and CUDA start once (bench/awkward.sh)

The arguments are the tool's (bench/awkward.sh passes each call's own; --variant and --space
are taken and --space must be cuda). Rows, per case:
  variant torch_copy        dst.copy_(src) of the same bytes (the baseline: pct_copy 100)
  variant torch             out.copy_(x.permute(p)) (a transposition: out.copy_(x.t()))
  variant torch_contiguous  x.permute(p).contiguous() (x.t().contiguous(): allocates)
each with pct_copy against torch_copy, `framework` (PyTorch's version) and `verified` (the
output equals the input permuted). --like FILE takes the header (device, date, commit, kokkos,
devices) and the `case` of the tool's file of the same call, so that bench/summarize.py --store
merges both into one result. Without PyTorch, or without a CUDA device, it says so and exits 0
(nothing written): the peer is optional.
"""
import argparse
import datetime
import json
import os
import shlex
import statistics
import sys

DTYPES = {"float": ("float32", 4), "double": ("float64", 8), "half": ("float16", 2),
          "bhalf": ("bfloat16", 2), "int32": ("int32", 4), "int64": ("int64", 8),
          "uint8": ("uint8", 1)}


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("op", choices=["transpose", "permute"])
    p.add_argument("--m", type=int)
    p.add_argument("--n", type=int)
    p.add_argument("--shape")
    p.add_argument("--perm", action="append", default=[])
    p.add_argument("--dtype", default="float")
    p.add_argument("--variant", help="the tool's (ignored)")
    p.add_argument("--space", default="cuda")
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--json", required=True)
    p.add_argument("--like", help="the tool's JSON of the same call: its header and case")
    a = p.parse_args(argv)
    if a.dtype not in DTYPES:
        p.error(f"--dtype {a.dtype}: one of {', '.join(DTYPES)}")
    if a.reps < 1:
        p.error("--reps must be at least 1")
    if a.op == "transpose" and (a.m is None or a.n is None or a.m < 1 or a.n < 1):
        p.error("transpose needs --m and --n (positive)")
    if a.op == "permute" and (not a.shape or not a.perm):
        p.error("permute needs --shape and at least one --perm")
    return a


def cases(a):
    """(shape, perm) of each case: a transposition is (m, n) [1, 0]."""
    if a.op == "transpose":
        return [([a.m, a.n], [1, 0])]
    shape = [int(x) for x in a.shape.split(",")]
    out = []
    for spec in a.perm:
        perm = [int(x) for x in spec.split(",")]
        if sorted(perm) != list(range(len(shape))):
            raise SystemExit(f"torch_peer.py: --perm {spec} is not a permutation of 0..{len(shape) - 1}")
        out.append((shape, perm))
    return out


def row(op, variant, shape, perm, dtype, ms, copy_ms, elem_bytes, verified, framework, case=None):
    """One row of the tool's schema (src/lib/report.cpp)."""
    n = 1
    for e in shape:
        n *= e
    nbytes = 2.0 * n * elem_bytes
    gbps = nbytes / (ms * 1e-3) / 1e9 if ms > 0 else 0.0
    copy_gbps = nbytes / (copy_ms * 1e-3) / 1e9 if copy_ms > 0 else 0.0
    r = {"op": op, "variant": variant, "space": "Cuda", "shape": list(shape), "dtype": dtype,
         "ms": ms, "bytes": nbytes, "gbps": gbps,
         "pct_copy": 100.0 * gbps / copy_gbps if copy_gbps > 0 else 0.0,
         "pct_peak": None, "speedup_vs_naive": None, "verified": bool(verified),
         "framework": framework}
    if op == "permute":
        r["perm"] = list(perm)
        r["layout"] = "right"
    if case:
        r["case"] = case
    return r


def header(like, device, framework):
    """The result's header: the tool's of the same call (--like), else PyTorch's own."""
    if like:
        with open(like, encoding="utf-8") as f:
            d = json.load(f)
        return {k: v for k, v in d.items() if k != "rows"}, os.path.basename(like)[:-5]
    return {"device": device, "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "commit": "unknown", "kokkos": framework, "devices": []}, None


def median_ms(torch, fn, reps):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def run_call(torch, a):
    """Times one call's cases and writes its JSON."""
    name, elem = DTYPES[a.dtype]
    dt = getattr(torch, name)
    dev = torch.device("cuda")
    framework = f"torch {torch.__version__}"
    head, case = header(a.like, torch.cuda.get_device_name(dev), framework)
    rows = []
    for shape, perm in cases(a):
        n = 1
        for e in shape:
            n *= e
        if dt.is_floating_point:
            x = torch.rand(n, device=dev).to(dt).reshape(shape)
        else:
            x = torch.randint(0, min(1 << 20, 1 << (8 * elem)), (n,), dtype=dt,
                              device=dev).reshape(shape)
        out = torch.empty([shape[k] for k in perm], dtype=dt, device=dev)
        src = torch.empty(n, dtype=dt, device=dev)
        dst = torch.empty(n, dtype=dt, device=dev)
        view = x.t() if a.op == "transpose" else x.permute(*perm)
        copy_ms = median_ms(torch, lambda: dst.copy_(src), a.reps)
        moved_ms = median_ms(torch, lambda: out.copy_(view), a.reps)
        verified = bool(torch.equal(out, view.contiguous()))
        cont_ms = median_ms(torch, lambda: view.contiguous(), a.reps)
        for variant, ms, ok in (("torch_copy", copy_ms, False), ("torch", moved_ms, verified),
                                ("torch_contiguous", cont_ms, verified)):
            rows.append(row(a.op, variant, shape, perm, a.dtype, ms, copy_ms, elem, ok, framework, case))
        print(f"{a.op} {'x'.join(map(str, shape))} perm {','.join(map(str, perm))} {a.dtype}: "
              f"copy {copy_ms:.4f} ms, torch {moved_ms:.4f} ms ({rows[-2]['pct_copy']:.1f}% of copy), "
              f"contiguous {cont_ms:.4f} ms ({rows[-1]['pct_copy']:.1f}%){'' if verified else ' WRONG'}",
              flush=True)
        del x, out, src, dst, view
        torch.cuda.empty_cache()
    result = dict(head)
    result["rows"] = rows
    with open(a.json, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
        f.write("\n")


def main(argv):
    if argv[:1] == ["--batch"] and len(argv) == 2:
        with open(argv[1], encoding="utf-8") as f:
            calls = [parse(shlex.split(line)) for line in f if line.strip()]
    else:
        calls = [parse(argv)]
    calls = [a for a in calls if a.space == "cuda"]
    if not calls:
        print("torch_peer.py: PyTorch's peer runs on CUDA only (no call on space cuda); nothing written")
        return 0
    try:
        import torch
    except ImportError:
        print("torch_peer.py: PyTorch is not installed; no peer rows (nothing written)")
        return 0
    if not torch.cuda.is_available():
        print("torch_peer.py: PyTorch sees no CUDA device; no peer rows (nothing written)")
        return 0
    for a in calls:
        run_call(torch, a)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
