#!/usr/bin/python3
"""Which tilekit kernel instances each object of a build defines, by family.

A program that calls the compiled library's cases defines no kernel of its own
(docs/building.md, "Compiled kernels"); this lists, per object file of a build
folder, the kernel symbols it does define: Kokkos parallel dispatches of a
tilekit functor, and tilekit members that launch kernels, the rule of
tests/eti/check_instances.cmake. Each dispatch is grouped by its functor's
family (the functor's class template, e.g. impl::PermuteTiled,
study::Permute3Shared), so that an object compiling kernels the library holds,
or seed kernels of its own, shows what and how many.

    bench/kernel_instances.py build                 # every object, most first
    bench/kernel_instances.py build --match test_permute --families 20
    bench/kernel_instances.py build --json > instances.json

Counts are of defined symbols (a dispatch has several: its constructor,
execute, the functor's call), so compare them between builds of the same
compiler. Serial dispatches are often inlined whole and show fewer symbols
than OpenMP ones. Needs binutils' nm. Python standard library only.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

# tests/eti/check_instances.cmake's rule.
DISPATCH = re.compile(r"Kokkos::Impl::Parallel(?:For|Reduce|Scan)<(.*tilekit::.*)")
LAUNCH = re.compile(r"tilekit::impl::[A-Za-z_]+<.*>::launch(?:_as|_thin_staged)?[<(]"
                    r"|tilekit::impl::launch_inplace_blocked")
FAMILY = re.compile(r"tilekit::((?:[a-z_0-9]+::)*)([A-Za-z_0-9]+)")


def family(args):
    """The first tilekit class named in a dispatch's template arguments."""
    m = FAMILY.search(args)
    return m.group(1) + m.group(2) if m else "?"


def scan(obj, nm="nm"):
    out = subprocess.run([nm, "-C", "--defined-only", obj], capture_output=True, text=True,
                         check=True).stdout
    families = collections.Counter()
    launches = 0
    for line in out.splitlines():
        sym = line.split(" ", 2)[-1]
        if "tilekit::" not in sym:
            continue
        m = DISPATCH.search(sym)
        if m:
            families[family(m.group(1))] += 1
        elif LAUNCH.search(sym):
            launches += 1
    return families, launches


def objects(build):
    for root, dirs, files in os.walk(build):
        dirs[:] = [d for d in dirs if d != "_deps"]
        for f in files:
            if f.endswith(".o"):
                yield os.path.join(root, f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build", help="a build folder (or an object file)")
    ap.add_argument("--match", default="", help="only objects whose path contains this")
    ap.add_argument("--families", type=int, default=12, help="families shown per object")
    ap.add_argument("--all", action="store_true", help="list objects that define none too")
    ap.add_argument("--json", action="store_true", help="JSON: {object: {family: symbols}}")
    ap.add_argument("--nm", default="nm")
    a = ap.parse_args()
    objs = [a.build] if os.path.isfile(a.build) else sorted(objects(a.build))
    rows = []
    for o in objs:
        if a.match not in o:
            continue
        fams, launches = scan(o, a.nm)
        if fams or launches or a.all:
            name = os.path.relpath(o, a.build) if os.path.isdir(a.build) else o
            rows.append((sum(fams.values()), launches, name, fams))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2]))
    if a.json:
        json.dump({n: {"dispatch_symbols": d, "launch_members": l, "families": dict(f)}
                   for d, l, n, f in rows}, sys.stdout, indent=1)
        print()
        return
    print(f"{'dispatch':>8} {'launch':>6}  object (dispatch symbols by family)")
    for d, l, n, f in rows:
        print(f"{d:8d} {l:6d}  {n}")
        for k, v in f.most_common(a.families):
            print(f"{'':17}{v:6d} {k}")


if __name__ == "__main__":
    main()
