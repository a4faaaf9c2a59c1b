#!/usr/bin/env python3
"""A fixed set of transpositions of rank 2 to 6, each run by the tool against the
copy of the same bytes in the same call: the spread of the permute over shapes
and permutations nobody tuned for, and its median.

    bench/permute_set.py TOOL --space openmp [--cases 57] [--seed 2029]
        [--mbytes 200] [--dtype float] [--reps 10] [--store bench/results MACHINE]

The cases are a function of the seed alone (Python's random.Random, so the same
seed gives the same set on every machine): a rank r uniform in 2..6, extents of
about (mbytes / element size)^(1/r) each, spread log-uniformly by up to 4x either
way and never below 2 (odd and prime extents come up as often as even ones),
scaled so that the tensor holds about --mbytes megabytes, and a permutation drawn
uniformly among the r! - 1 that are not the identity. Each case is one call of
`TOOL permute --variant fused --shape ... --perm ...`, which checks the result
against a host reference and times the tool's copy rows (Kokkos::deep_copy, and
memcpy on a host) beside it; a case's % of copy is the tool's own pct_copy (its
best copy of the same bytes in the same call). With --store, the calls are kept
as one result file (bench/summarize.py --store: <machine>/<date>-<commit>-
permute-set.json), each row tagged with its case.

Python standard library only. Threads and binding: the tool's (OMP_NUM_THREADS,
OMP_PROC_BIND, OMP_PLACES from the environment).
"""
import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile

SIZES = {"float": 4, "double": 8, "int32": 4, "half": 2, "bhalf": 2, "cfloat": 8, "cdouble": 16}


def cases(seed, count, mbytes, dtype):
    """The set: (shape, perm) pairs, a function of the arguments only."""
    rng = random.Random(seed)
    target = mbytes * 1e6 / SIZES[dtype]
    out = []
    while len(out) < count:
        r = rng.randint(2, 6)
        edge = target ** (1.0 / r)
        ext = [max(2, round(edge * 4.0 ** rng.uniform(-1.0, 1.0))) for _ in range(r)]
        scale = (target / math.prod(ext)) ** (1.0 / r)  # back to about `target` elements
        ext = [max(2, round(e * scale)) for e in ext]
        perm = list(range(r))
        while perm == list(range(r)):
            rng.shuffle(perm)
        out.append((ext, perm))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tool", help="the tilekit tool")
    ap.add_argument("--space", default="default")
    ap.add_argument("--cases", type=int, default=57)
    ap.add_argument("--seed", type=int, default=2029)
    ap.add_argument("--mbytes", type=float, default=200.0, help="size of each tensor, MB")
    ap.add_argument("--dtype", default="float", choices=sorted(SIZES))
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--store", nargs=2, metavar=("STORE", "MACHINE"),
                    help="keep the calls as one result file in STORE under MACHINE")
    ap.add_argument("--list", action="store_true", help="print the cases and stop")
    a = ap.parse_args(argv)
    todo = cases(a.seed, a.cases, a.mbytes, a.dtype)
    if a.list:
        for ext, perm in todo:
            print(",".join(map(str, ext)), ",".join(map(str, perm)))
        return 0
    pcts, files = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (ext, perm) in enumerate(todo):
            path = os.path.join(tmp, f"case{i:02d}.json")
            cmd = [a.tool, "permute", "--variant", "fused", "--space", a.space, "--dtype", a.dtype,
                   "--reps", str(a.reps), "--shape", ",".join(map(str, ext)),
                   "--perm", ",".join(map(str, perm)), "--json", path]
            run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if run.returncode != 0:
                sys.exit(f"permute_set: case {i} failed ({' '.join(cmd)}):\n{run.stderr}")
            rows = json.load(open(path))["rows"]
            fused = [r for r in rows if r["variant"] == "fused"]
            if not fused or not all(r.get("verified") for r in fused):
                sys.exit(f"permute_set: case {i}: no verified fused row ({' '.join(cmd)})")
            for r in fused:
                pcts.append(r["pct_copy"])
                print(f"{i:2d} {'x'.join(map(str, ext)):>28} [{','.join(map(str, perm))}]"
                      f" {r['ms']:9.3f} ms {r['gbps']:7.1f} GB/s {r['pct_copy']:6.1f}% of copy"
                      f"  {r.get('method', '')}", flush=True)
            files.append(path)
        q = statistics.quantiles(pcts, n=4)
        print(f"{len(pcts)} cases: median {statistics.median(pcts):.1f}% of copy "
              f"(quartiles {q[0]:.1f} / {q[2]:.1f}, {min(pcts):.1f}-{max(pcts):.1f}%)")
        if a.store:
            here = os.path.dirname(os.path.abspath(__file__))
            env = {k: os.environ.get(k, "unset") for k in
                   ("OMP_NUM_THREADS", "OMP_PROC_BIND", "OMP_PLACES")}
            load = open("/proc/loadavg").read().split()[:3]
            command = (f"bench/permute_set.py TOOL --space {a.space} --cases {a.cases} --seed "
                       f"{a.seed} --mbytes {a.mbytes:g} --dtype {a.dtype} --reps {a.reps} ("
                       + " ".join(f"{k}={v}" for k, v in env.items())
                       + f"; load after {' '.join(load)})")
            subprocess.run([sys.executable, os.path.join(here, "summarize.py"), "--store",
                            a.store[0], a.store[1], "permute-set", "--command", command, *files],
                           check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
