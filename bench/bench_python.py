#!/usr/bin/env python3
"""tilekit from Python against the frameworks' own permute-and-copy.

CPU (NumPy arrays): tilekit.permute(a, axes, out=...) against
numpy.ascontiguousarray(numpy.transpose(a, axes)) (and numpy.copyto into an
existing array); GPU (PyTorch and CuPy CUDA arrays): against
torch.permute(...).contiguous() (and out.copy_(...)) and
cupy.ascontiguousarray(x.transpose(axes)). Suites (--suite, default all):

- permute: the six permutations of 512 x 512 x 1024 float32 (1 GiB) and the
  rank 4-6 cases of bench/bench_permute.cpp;
- strided: the same 1 GiB problem read from a window of a larger array (unit
  inner stride, 512 x 512 x 1024 of 512 x 520 x 1040) and from one with a
  stepped inner axis (x[..., ::2]), against tilekit on a contiguous array of
  the same shape in the same run (the "strided within 10% of contiguous"
  criterion of #57) and the framework's own copy of the view;
- images: uint8 images, 64 x 3 x 1024 x 1024 NCHW <-> NHWC (the HWC <-> CHW
  permutes of image pipelines);
- alloc: new outputs (tilekit.permute(a, p): on CUDA the framework's own
  allocator) against out= into an existing array, 1 GiB float32;
- fresh (CPU): tilekit.transpose of 4096^2 and 8192^2 float32 and float64
  matrices four ways side by side: out= a reused array, out= a fresh
  numpy.empty, a new output (the module allocates; tilekit_new_uncached: with
  no released output kept to reuse), and numpy.ascontiguousarray(a.T); copy rows: numpy.copyto into a reused and into
  a fresh array.

Each case also times the copy of the same bytes in the same run
(numpy.copyto, tilekit's identity permutation, out.copy_, cupy.copyto);
bandwidth counts bytes read + written.

    PYTHONPATH=build/python OMP_PROC_BIND=spread OMP_PLACES=threads \\
        /usr/bin/python3 bench/bench_python.py --device cpu --json out.json
    PYTHONPATH=build-cuda/python python3 bench/bench_python.py --device cuda --json out.json
"""
import argparse
import datetime
import itertools
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

import tilekit


def rank_cases(r):
    """Full reversal, swap of the two innermost, innermost moved outward, and
    the fixed random permutation of bench/bench_permute.cpp."""
    ident = list(range(r))
    swap = ident[:-2] + [r - 1, r - 2]
    rnd = {4: [3, 0, 2, 1], 5: [1, 0, 4, 3, 2], 6: [2, 5, 1, 3, 0, 4]}[r]
    return [ident[::-1], swap, [r - 1] + ident[:-1], rnd]


CASES = ([((512, 512, 1024), list(itertools.permutations(range(3))))] +
         [((64, 256, 128, 128), rank_cases(4)), ((32, 64, 32, 64, 64), rank_cases(5)),
          ((16, 32, 16, 32, 16, 64), rank_cases(6))])
QUICK = ([((32, 48, 64), list(itertools.permutations(range(3))))] +
         [((8, 16, 8, 8), rank_cases(4)), ((4, 8, 4, 8, 8), rank_cases(5)),
          ((2, 4, 2, 4, 2, 8), rank_cases(6))])


# Suites other than permute: (shape, perms) of the whole problem.
STRIDED = [((512, 512, 1024), [(2, 1, 0), (0, 2, 1), (1, 0, 2), (1, 2, 0)])]
STRIDED_QUICK = [((16, 24, 32), [(2, 1, 0), (0, 2, 1), (1, 0, 2), (1, 2, 0)])]
IMAGES = [((64, 3, 1024, 1024), [(0, 2, 3, 1)]), ((64, 1024, 1024, 3), [(0, 3, 1, 2)])]
IMAGES_QUICK = [((2, 3, 64, 48), [(0, 2, 3, 1)]), ((2, 64, 48, 3), [(0, 3, 1, 2)])]
ALLOC = [((512, 512, 1024), [(2, 1, 0), (1, 0, 2), (0, 2, 1)])]
ALLOC_QUICK = [((16, 24, 32), [(2, 1, 0), (1, 0, 2), (0, 2, 1)])]
SUITES = ("permute", "strided", "images", "alloc", "fresh")


def window_of(xp, shape, dtype, rng_fill, step=1):
    """A view of `shape` inside a larger array: a window with unit inner
    stride (step 1) or every step-th element of the inner axis."""
    big = list(shape)
    big[-2] += 8
    big[-1] = step * shape[-1] + 16
    base = rng_fill(tuple(big), dtype)
    return base[..., 4:4 + shape[-2], 8:8 + step * shape[-1]:step]


def commit():
    if os.environ.get("TILEKIT_COMMIT"):
        return os.environ["TILEKIT_COMMIT"]
    try:
        here = os.path.dirname(os.path.abspath(__file__))
        return subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "cpu"


def median_host(fn, reps):
    fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3


class TorchTimer:
    def __init__(self, torch):
        self.torch = torch

    def __call__(self, fn, reps):
        t = self.torch
        fn()
        t.cuda.synchronize()
        ts = []
        for _ in range(reps):
            e0, e1 = t.cuda.Event(enable_timing=True), t.cuda.Event(enable_timing=True)
            e0.record()
            fn()
            e1.record()
            e1.synchronize()
            ts.append(e0.elapsed_time(e1))
        return statistics.median(ts)


class CupyTimer:
    def __init__(self, cp):
        self.cp = cp

    def __call__(self, fn, reps):
        cp = self.cp
        fn()
        cp.cuda.get_current_stream().synchronize()
        ts = []
        for _ in range(reps):
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            fn()
            e1.record()
            e1.synchronize()
            ts.append(cp.cuda.get_elapsed_time(e0, e1))
        return statistics.median(ts)


def run_framework(name, a, out, empty_like_perm, variants, copy_variants, timer, reps, rows, shape,
                  perms, dtype):
    """Times the copy rows once per shape, then every variant per permutation."""
    nbytes = 2 * (a.numel() * a.element_size() if hasattr(a, "numel") else a.nbytes)  # read + write
    copy_gbps = None
    for label, fn in copy_variants:
        ms = timer(fn, reps)
        gbps = nbytes / ms / 1e6
        copy_gbps = copy_gbps or gbps
        rows.append(dict(framework=name, variant=label, shape=list(shape), perm=None, dtype=dtype,
                         ms=ms, gbps=gbps, pct_copy=100 * gbps / copy_gbps))
    for p in perms:
        o = empty_like_perm(p)
        for label, make in variants:
            fn = make(p, o)
            ms = timer(fn, reps)
            gbps = nbytes / ms / 1e6
            rows.append(dict(framework=name, variant=label, shape=list(shape), perm=list(p),
                             dtype=dtype, ms=ms, gbps=gbps, pct_copy=100 * gbps / copy_gbps,
                             identity=list(p) == sorted(p)))
        print(f"  {name} {shape} {list(p)}: " + ", ".join(
            f"{r['variant']} {r['gbps']:.0f} GB/s ({r['pct_copy']:.0f}%)" for r in rows[-len(variants):]),
            flush=True)


def bench_cpu(cases, reps, rows):
    for shape, perms in cases:
        cpu_case(shape, perms, reps, rows)


def cpu_case(shape, perms, reps, rows):
    a = np.random.default_rng(0).random(shape, dtype=np.float32)
    out = np.empty_like(a)
    ident = tuple(range(len(shape)))
    copies = [("copy", lambda: np.copyto(out, a)),
              ("tilekit_copy", lambda: tilekit.permute(a, ident, out=out))]
    variants = [
        ("numpy", lambda p, o: (lambda: np.ascontiguousarray(np.transpose(a, p)))),
        ("numpy_copyto", lambda p, o: (lambda: np.copyto(o, np.transpose(a, p)))),
        ("tilekit", lambda p, o: (lambda: tilekit.permute(a, p, out=o))),
        ("tilekit_alloc", lambda p, o: (lambda: tilekit.permute(a, p))),
    ]
    run_framework("numpy", a, out, lambda p: np.empty(np.transpose(a, p).shape, a.dtype), variants,
                  copies, median_host, reps, rows, shape, perms, "float32")


def cpu_extra(suite, cases, reps, rows):
    rng = np.random.default_rng(0)

    def fill(shape, dtype):
        if np.dtype(dtype) == np.uint8:
            return rng.integers(0, 256, size=shape, dtype=np.uint8)
        return rng.random(shape, dtype=np.float32).astype(dtype)

    for shape, perms in cases:
        dtype = np.uint8 if suite == "images" else np.float32
        a = fill(shape, dtype)
        out = np.empty_like(a)
        ident = tuple(range(len(shape)))
        copies = [("copy", lambda: np.copyto(out, a)),
                  ("tilekit_copy", lambda: tilekit.permute(a, ident, out=out))]
        variants = [("tilekit", lambda p, o: (lambda: tilekit.permute(a, p, out=o))),
                    ("numpy", lambda p, o: (lambda: np.ascontiguousarray(np.transpose(a, p))))]
        if suite == "strided":
            w1 = window_of(np, shape, dtype, fill)
            w2 = window_of(np, shape, dtype, fill, step=2)
            variants += [("tilekit_window", lambda p, o: (lambda: tilekit.permute(w1, p, out=o))),
                         ("numpy_window", lambda p, o: (lambda: np.ascontiguousarray(np.transpose(w1, p)))),
                         ("tilekit_inner_step2", lambda p, o: (lambda: tilekit.permute(w2, p, out=o))),
                         ("numpy_inner_step2", lambda p, o: (lambda: np.ascontiguousarray(np.transpose(w2, p))))]
        if suite in ("alloc", "images"):
            variants += [("tilekit_new", lambda p, o: (lambda: tilekit.permute(a, p)))]
        start = len(rows)
        run_framework("numpy", a, out, lambda p: np.empty(np.transpose(a, p).shape, a.dtype), variants,
                      copies, median_host, reps, rows, shape, perms, np.dtype(dtype).name)
        for r in rows[start:]:
            r["suite"] = suite


ALLOC_MATRICES = [(4096, "float32"), (4096, "float64"), (8192, "float32"), (8192, "float64")]
ALLOC_MATRICES_QUICK = [(64, "float32"), (96, "float64")]


def cpu_alloc_matrices(sizes, reps, rows):
    """tilekit.transpose of an n x n matrix into a reused out=, a fresh
    numpy.empty (out=), a new output, and NumPy's own transposed copy; NumPy's
    copy of the same bytes (into a reused and into a fresh array) as the
    copy rows."""
    for n, dtype in sizes:
        a = np.random.default_rng(0).random((n, n)).astype(dtype)
        reused, dst = np.empty_like(a), np.empty_like(a)

        def fresh_copy():
            o = np.empty_like(a)
            np.copyto(o, a)

        copies = [("copy", lambda: np.copyto(dst, a)), ("copy_fresh", fresh_copy)]
        variants = [
            ("tilekit", lambda p, o: (lambda: tilekit.transpose(a, out=reused))),
            ("tilekit_fresh_empty", lambda p, o: (lambda: tilekit.transpose(a, out=np.empty_like(a)))),
            ("tilekit_new", lambda p, o: (lambda: tilekit.transpose(a))),
            ("numpy", lambda p, o: (lambda: np.ascontiguousarray(a.T))),
        ]
        if hasattr(tilekit, "release_cached_outputs"):  # a new output, none kept for reuse
            variants.append(("tilekit_new_uncached", lambda p, o: (
                lambda: (tilekit.release_cached_outputs(), tilekit.transpose(a)))))
        start = len(rows)
        run_framework("numpy", a, dst, lambda p: None, variants, copies, median_host, reps, rows,
                      (n, n), [(1, 0)], dtype)
        for r in rows[start:]:
            r["suite"] = "fresh"
            r["op"] = "transpose"
            r["load"] = os.getloadavg()[0]
        del a, reused, dst


def torch_extra(torch, timer, suite, cases, reps, rows):
    for shape, perms in cases:
        dtype = torch.uint8 if suite == "images" else torch.float32

        def fill(shp, dt):
            if dt == torch.uint8:
                return torch.randint(0, 256, shp, device="cuda", dtype=torch.uint8)
            return torch.rand(shp, device="cuda", dtype=dt)

        a = fill(shape, dtype)
        out = torch.empty_like(a)
        copies = [("copy", lambda: out.copy_(a)), ("clone", lambda: a.clone())]
        variants = [("tilekit", lambda p, o: (lambda: tilekit.permute(a, p, out=o))),
                    ("torch_contiguous", lambda p, o: (lambda: a.permute(p).contiguous()))]
        if suite == "strided":
            w1 = window_of(torch, shape, dtype, fill)
            w2 = window_of(torch, shape, dtype, fill, step=2)
            variants += [("tilekit_window", lambda p, o: (lambda: tilekit.permute(w1, p, out=o))),
                         ("torch_window", lambda p, o: (lambda: w1.permute(p).contiguous())),
                         ("tilekit_inner_step2", lambda p, o: (lambda: tilekit.permute(w2, p, out=o))),
                         ("torch_inner_step2", lambda p, o: (lambda: w2.permute(p).contiguous()))]
        if suite in ("alloc", "images"):
            variants += [("tilekit_new", lambda p, o: (lambda: tilekit.permute(a, p)))]
        start = len(rows)
        run_framework("torch", a, out,
                      lambda p: torch.empty(tuple(shape[i] for i in p), device="cuda", dtype=dtype),
                      variants, copies, timer, reps, rows, shape, perms, str(dtype).split(".")[-1])
        for r in rows[start:]:
            r["suite"] = suite
        del a, out
        torch.cuda.empty_cache()


def cupy_extra(cp, timer, suite, cases, reps, rows):
    for shape, perms in cases:
        dtype = cp.uint8 if suite == "images" else cp.float32

        def fill(shp, dt):
            if dt == cp.uint8:
                return cp.random.randint(0, 256, shp, dtype=cp.uint8)
            return cp.random.random(shp, dtype=cp.float32).astype(dt)

        a = fill(shape, dtype)
        out = cp.empty_like(a)
        copies = [("copy", lambda: cp.copyto(out, a))]
        variants = [("tilekit", lambda p, o: (lambda: tilekit.permute(a, p, out=o))),
                    ("cupy", lambda p, o: (lambda: cp.ascontiguousarray(a.transpose(p))))]
        if suite == "strided":
            w1 = window_of(cp, shape, dtype, fill)
            variants += [("tilekit_window", lambda p, o: (lambda: tilekit.permute(w1, p, out=o))),
                         ("cupy_window", lambda p, o: (lambda: cp.ascontiguousarray(w1.transpose(p))))]
        if suite in ("alloc", "images"):
            variants += [("tilekit_new", lambda p, o: (lambda: tilekit.permute(a, p)))]
        start = len(rows)
        run_framework("cupy", a, out, lambda p: cp.empty(tuple(shape[i] for i in p), dtype=dtype),
                      variants, copies, timer, reps, rows, shape, perms, cp.dtype(dtype).name)
        for r in rows[start:]:
            r["suite"] = suite
        del a, out
        cp.get_default_memory_pool().free_all_blocks()


def extra_cases(suite, quick):
    return {"strided": STRIDED_QUICK if quick else STRIDED,
            "images": IMAGES_QUICK if quick else IMAGES,
            "alloc": ALLOC_QUICK if quick else ALLOC}[suite]


def bench_torch(cases, reps, rows):
    import torch
    for shape, perms in cases:
        torch_case(torch, TorchTimer(torch), shape, perms, reps, rows)
        torch.cuda.empty_cache()


def torch_case(torch, timer, shape, perms, reps, rows):
    a = torch.rand(shape, device="cuda", dtype=torch.float32)
    out = torch.empty_like(a)
    copies = [("copy", lambda: out.copy_(a)), ("clone", lambda: a.clone())]
    variants = [
        ("torch_contiguous", lambda p, o: (lambda: a.permute(p).contiguous())),
        ("torch_copy_", lambda p, o: (lambda: o.copy_(a.permute(p)))),
        ("tilekit", lambda p, o: (lambda: tilekit.permute(a, p, out=o))),
    ]
    run_framework("torch", a, out, lambda p: torch.empty(tuple(shape[i] for i in p), device="cuda"),
                  variants, copies, timer, reps, rows, shape, perms, "float32")


def bench_cupy(cases, reps, rows):
    import cupy as cp
    for shape, perms in cases:
        cupy_case(cp, CupyTimer(cp), shape, perms, reps, rows)
        cp.get_default_memory_pool().free_all_blocks()


def cupy_case(cp, timer, shape, perms, reps, rows):
    a = cp.random.random(shape, dtype=cp.float32)
    out = cp.empty_like(a)
    copies = [("copy", lambda: cp.copyto(out, a))]
    variants = [
        ("cupy", lambda p, o: (lambda: cp.ascontiguousarray(a.transpose(p)))),
        ("tilekit", lambda p, o: (lambda: tilekit.permute(a, p, out=o))),
    ]
    run_framework("cupy", a, out, lambda p: cp.empty(tuple(shape[i] for i in p), dtype=cp.float32),
                  variants, copies, timer, reps, rows, shape, perms, "float32")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", choices=["cpu", "cuda", "all"], default="all")
    ap.add_argument("--reps", type=int, default=0, help="timed repetitions (default: 5 CPU, 20 GPU)")
    ap.add_argument("--quick", action="store_true", help="small shapes (a smoke test, not a measurement)")
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--suite", action="append", choices=SUITES,
                    help="suites to run (repeatable; default: all)")
    args = ap.parse_args()
    cases = QUICK if args.quick else CASES
    suites = args.suite or list(SUITES)
    rows = []
    devices = []
    if args.device in ("cpu", "all"):
        devices.append(f"{cpu_name()} ({tilekit.host_concurrency()} threads, OMP_PROC_BIND="
                       f"{os.environ.get('OMP_PROC_BIND', 'unset')})")
        if "permute" in suites:
            bench_cpu(cases, args.reps or 5, rows)
        for suite in suites[:]:
            if suite not in ("permute", "fresh"):
                cpu_extra(suite, extra_cases(suite, args.quick), args.reps or 5, rows)
            if suite == "fresh":
                cpu_alloc_matrices(ALLOC_MATRICES_QUICK if args.quick else ALLOC_MATRICES,
                                   args.reps or 5, rows)
    if args.device in ("cuda", "all") and "Cuda" in tilekit.spaces():
        try:
            import torch
            if torch.cuda.is_available():
                devices.append(torch.cuda.get_device_name())
                if "permute" in suites:
                    bench_torch(cases, args.reps or 20, rows)
                for suite in suites:
                    if suite not in ("permute", "fresh"):
                        torch_extra(torch, TorchTimer(torch), suite, extra_cases(suite, args.quick),
                                    args.reps or 20, rows)
        except ImportError:
            print("torch not found: skipped", file=sys.stderr)
        try:
            import cupy
            devices.append(f"cupy on {cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}")
            if "permute" in suites:
                bench_cupy(cases, args.reps or 20, rows)
            for suite in suites:
                if suite not in ("permute", "fresh"):
                    cupy_extra(cupy, CupyTimer(cupy), suite, extra_cases(suite, args.quick),
                               args.reps or 20, rows)
        except ImportError:
            print("cupy not found: skipped", file=sys.stderr)
    report = {"device": "; ".join(devices), "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
              "commit": commit(), "tilekit": tilekit.__version__, "kokkos": tilekit.kokkos_version(),
              "spaces": tilekit.spaces(), "python": platform.python_version(), "numpy": np.__version__,
              "quick": args.quick, "suites": suites,
              "note": "bandwidth = bytes read + written; pct_copy against the framework's copy of the "
                      "same bytes in the same run; identity rows: the frameworks move nothing",
              "rows": rows}
    for mod in ("torch", "cupy"):
        if mod in sys.modules:
            report[mod] = sys.modules[mod].__version__
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    # Summary: median % of copy per framework and variant. The identity
    # permutation is left out: the frameworks return the input itself there
    # (torch's contiguous(), cupy's ascontiguousarray) and move nothing.
    by = {}
    for r in rows:
        r.setdefault("suite", "permute")
        if r["perm"] is not None and not r.get("identity"):
            group = ("3-D" if len(r["shape"]) == 3 else "rank 4-6") if r["suite"] == "permute" \
                else r["suite"]
            by.setdefault((r["framework"], r["variant"], group), []).append(r["pct_copy"])
    for (fw, v, group), pcts in sorted(by.items()):
        print(f"{fw:6} {v:20} {group:8} median {statistics.median(pcts):5.1f}% "
              f"of copy (min {min(pcts):.1f}%, max {max(pcts):.1f}%)")


if __name__ == "__main__":
    main()
