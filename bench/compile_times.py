#!/usr/bin/python3
"""How long tilekit takes to build: a user's file, the library, the presets.

From clean (fresh build folders, ccache switched off), each case's wall time,
CPU time (user + sys of every process of the build) and peak memory of the
largest compiler process are measured and written as JSON (bench/results/
<machine>/<date>-<commit>-compile-times.json, by the results naming rule).

    # The user translation units against tilekit installed from this checkout
    # (the library is built and installed into a temporary prefix first: timed too)
    bench/compile_times.py --machine dev2core-epyc --out results.json

    # ... against an installed tilekit, three times each
    bench/compile_times.py --prefix /opt/tilekit --repeat 3 --out results.json

    # ... and under nvcc: tilekit installed against a CUDA Kokkos
    bench/compile_times.py --kokkos-root /opt/kokkos-cuda --cases all --out cuda.json

    # The presets' builds (long: run them on an idle machine), Kokkos built
    # in-tree from a local source as a new user without Kokkos would
    bench/compile_times.py --cases none --preset demo --preset openmp \\
        --kokkos-source /path/to/kokkos-4.6.01 --out presets.json
    bench/compile_times.py --cases none --preset cuda-tool \\
        --kokkos-root /opt/kokkos-cuda --out cuda-tool.json

The user files are the ones of issue #58: one tilekit::transpose of a float
matrix, one tilekit::reduce (sum) of a float vector, one tilekit::permute of a
rank-3 float tensor, and the Kokkos-only floor (the same program with the call
replaced by a hand-written Kokkos loop): each a small CMake project that finds
the installed package (find_package(tilekit)), Release. The compile of the
file's object is timed alone; the program is then linked and run (it checks
its result), so a file that does not build or compute is an error, not a row
(--no-run: linked only, for a CUDA build on a machine without a GPU).

Other processes on the machine inflate wall time more than CPU time: the load
average before and after each case is recorded beside it.
Python standard library only.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)

# ------------------------------------------------------------------ user files
_PROLOGUE = """#include <Kokkos_Core.hpp>
{include}
#include <cstdio>

int main(int argc, char** argv) {{
  Kokkos::ScopeGuard guard(argc, argv);
  using Exec = Kokkos::DefaultExecutionSpace;
  Exec exec;
  bool ok = true;
  {{
{body}
  }}
  std::printf("%s\\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}}
"""

_TRANSPOSE_BODY = """    const int m = 37, n = 53;
    Kokkos::View<float**, Exec> in("in", m, n), out("out", n, m);
    Kokkos::parallel_for("fill", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2>>(exec, {0, 0}, {m, n}),
                         KOKKOS_LAMBDA(int i, int j) { in(i, j) = float(i * 1000 + j); });
    {call}
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) ok = ok && h(j, i) == float(i * 1000 + j);"""

_PERMUTE_BODY = """    const int a = 5, b = 6, c = 7;  // out(k, i, j) = in(i, j, k): perm {2, 0, 1}
    Kokkos::View<float***, Exec> in("in", a, b, c), out("out", c, a, b);
    Kokkos::parallel_for("fill", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<3>>(exec, {0, 0, 0}, {a, b, c}),
                         KOKKOS_LAMBDA(int i, int j, int k) { in(i, j, k) = float(i * 10000 + j * 100 + k); });
    {call}
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    for (int i = 0; i < a; ++i)
      for (int j = 0; j < b; ++j)
        for (int k = 0; k < c; ++k) ok = ok && h(k, i, j) == float(i * 10000 + j * 100 + k);"""

_REDUCE_BODY = """    const int n = 1001;
    Kokkos::View<float*, Exec> v("v", n);
    Kokkos::deep_copy(exec, v, 1.0f);
    float s = 0;
    {call}
    ok = s == float(n);"""

CASES = {
    "transpose": ("#include <tilekit/transpose.hpp>",
                  _TRANSPOSE_BODY.replace("{call}", "tilekit::transpose(exec, in, out);\n    exec.fence();"),
                  "float", [37, 53], "one tilekit::transpose of a float matrix"),
    "reduce": ("#include <tilekit/reduce.hpp>",
               _REDUCE_BODY.replace("{call}", "s = tilekit::reduce(exec, v, tilekit::Sum{});"),
               "float", [1001], "one tilekit::reduce (Sum) of a float vector"),
    "permute": ("#include <tilekit/permute.hpp>",
                _PERMUTE_BODY.replace("{call}", "tilekit::permute(exec, in, out, {2, 0, 1});\n    exec.fence();"),
                "float", [5, 6, 7], "one tilekit::permute of a rank-3 float tensor"),
    # The floor: the same program as the transpose's, no tilekit.
    "kokkos": ("",
               _TRANSPOSE_BODY.replace(
                   "{call}",
                   'Kokkos::parallel_for("t", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2>>(exec, {0, 0}, {m, n}),\n'
                   "                         KOKKOS_LAMBDA(int i, int j) { out(j, i) = in(i, j); });\n"
                   "    exec.fence();"),
               "float", [37, 53], "the Kokkos-only floor: the transpose's program, a Kokkos loop instead of tilekit"),
}

# The tiny project a user writes: find the package, compile in Kokkos' language.
_PROJECT = """cmake_minimum_required(VERSION 3.23)
project(tilekit_user LANGUAGES CXX)
find_package(tilekit CONFIG REQUIRED)
if(Kokkos_COMPILE_LANGUAGE STREQUAL "CUDA")  # as tests/consumer/CMakeLists.txt
  if(NOT CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES ${Kokkos_CUDA_ARCHITECTURES})
  endif()
  enable_language(CUDA)
  if(CMAKE_VERSION VERSION_LESS 3.26 AND NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  set_source_files_properties(main.cpp PROPERTIES LANGUAGE CUDA)
endif()
add_executable(user main.cpp)
target_link_libraries(user PRIVATE tilekit::tilekit)
message(STATUS "user: Kokkos ${Kokkos_VERSION} ${Kokkos_DEVICES} language ${Kokkos_COMPILE_LANGUAGE}")
"""

# The presets: configure preset, extra configure arguments, build target (None: all).
PRESETS = {
    "demo": ("demo", [], "tilekit_tool",
             "the README's demo build: the tool only (demo preset: OpenMP; float, double, int32)"),
    "openmp": ("openmp", [], None, "the whole openmp preset: library, tests, benchmarks, tool"),
    "cuda-tool": ("cuda", ["-DTILEKIT_SPACES=OpenMP;Cuda"], "tilekit_tool",
                  "the CUDA build of the tool alone (TILEKIT_SPACES=OpenMP;Cuda)"),
    "cuda": ("cuda", [], None, "the whole cuda preset"),
}


# ------------------------------------------------------------------ running
def clean_env():
    """The environment with compiler caches switched off."""
    env = dict(os.environ)
    for k in ("CMAKE_CXX_COMPILER_LAUNCHER", "CMAKE_CUDA_COMPILER_LAUNCHER",
              "CMAKE_C_COMPILER_LAUNCHER"):
        env.pop(k, None)
    env["CCACHE_DISABLE"] = "1"
    env.setdefault("OMP_PROC_BIND", "false")
    return env


def run(cmd, cwd=None, env=None, log=None):
    """Runs cmd; returns (wall s, user s, sys s, peak RSS MiB of the largest process, output).

    os.wait4 gives the rusage of the child and every descendant it waited for
    (cmake waits for ninja, ninja for each compiler), ru_maxrss the largest
    of them. Raises on a nonzero exit with the output's tail."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = bytearray()
    while True:
        chunk = p.stdout.read(65536)
        if not chunk:
            break
        out += chunk
        if log:
            log.write(chunk.decode(errors="replace"))
            log.flush()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t0
    text = out.decode(errors="replace")
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}):\n{text[-4000:]}")
    return wall, ru.ru_utime, ru.ru_stime, ru.ru_maxrss / 1024.0, text


def version_line(cmd, pattern=None):
    """The first line of `cmd --version` (or the first matching pattern)."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    lines = [l.strip() for l in (r.stdout + r.stderr).splitlines() if l.strip()]
    for l in lines:
        if pattern is None or re.search(pattern, l):
            return l
    return "unknown"


def space_of(devices):
    """'cuda' when Kokkos' devices include CUDA, else 'host'."""
    return "cuda" if "CUDA" in devices.upper() else "host"


def git_commit(src):
    try:
        r = subprocess.run(["git", "-C", src, "rev-parse", "--short=7", "HEAD"],
                           capture_output=True, text=True, check=True)
        c = r.stdout.strip()
        d = subprocess.run(["git", "-C", src, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
        return c + ("-dirty" if d else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def row(op, variant, space, shape, dtype, what, compiler, wall, user, sys_, rss, load0, load1, **extra):
    r = {"op": op, "variant": variant, "space": space, "shape": shape, "dtype": dtype,
         "ms": round(wall * 1e3, 1), "what": what, "compiler": compiler,
         "wall_s": round(wall, 2), "cpu_s": round(user + sys_, 2), "user_s": round(user, 2),
         "sys_s": round(sys_, 2), "peak_rss_mib": round(rss, 1),
         "load_before": [round(x, 2) for x in load0], "load_after": [round(x, 2) for x in load1]}
    r.update(extra)
    return r


def timed(cmd, **kw):
    load0 = os.getloadavg()
    wall, user, sys_, rss, text = run(cmd, **kw)
    return wall, user, sys_, rss, text, load0, os.getloadavg()


def install_library(args, work, env, rows, log):
    """Configures, builds and installs tilekit's library alone; returns the prefix."""
    prefix = os.path.join(work, "prefix")
    build = os.path.join(work, "library-build")
    cfg = ["cmake", "-S", args.source, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
           f"-DCMAKE_INSTALL_PREFIX={prefix}", "-DTILEKIT_ENABLE_TESTS=OFF",
           "-DTILEKIT_ENABLE_BENCHMARKS=OFF", "-DTILEKIT_ENABLE_TOOL=OFF",
           "-DTILEKIT_ENABLE_PYTHON=OFF"]
    if args.kokkos_root:
        cfg.append(f"-DKokkos_ROOT={args.kokkos_root}")
    cfg += args.cmake_arg
    text = run(cfg, env=env, log=log)[4]
    m = re.search(r"tilekit: Kokkos \S+, devices: (.*)", text)
    wall, user, sys_, rss, _, l0, l1 = timed(["cmake", "--build", build, "-j", str(args.jobs)],
                                              env=env, log=log)
    space = space_of(m.group(1) if m else "")
    # A CUDA Kokkos compiles the library's Kokkos sources with nvcc.
    compiler = args.nvcc_id if space == "cuda" else args.compiler_id
    rows.append(row("compile", "library", space, [], "-",
                    "tilekit's library (what `cmake --install` installs), from clean",
                    compiler, wall, user, sys_, rss, l0, l1, jobs=args.jobs))
    run(["cmake", "--install", build], env=env, log=log)
    return prefix


def user_tu(args, name, prefix, work, env, rep, log):
    include, body, dtype, shape, what = CASES[name]
    proj = os.path.join(work, f"user-{name}-{rep}")
    os.makedirs(proj)
    with open(os.path.join(proj, "CMakeLists.txt"), "w") as f:
        f.write(_PROJECT)
    with open(os.path.join(proj, "main.cpp"), "w") as f:
        f.write(_PROLOGUE.format(include=include, body=body))
    build = os.path.join(proj, "build")
    cfg = ["cmake", "-S", proj, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
           f"-DCMAKE_PREFIX_PATH={prefix}"]
    if args.kokkos_root:
        cfg.append(f"-DKokkos_ROOT={args.kokkos_root}")
    cfg += args.cmake_arg
    text = run(cfg, env=env, log=log)[4]
    m = re.search(r"user: Kokkos (\S+) (.*) language (\S+)", text)
    kokkos = m.group(1) if m else "unknown"
    devices = m.group(2) if m else ""
    lang = m.group(3) if m else "CXX"
    obj = f"CMakeFiles/user.dir/main.cpp.o"
    wall, user, sys_, rss, _, l0, l1 = timed(["cmake", "--build", build, "--target", obj], env=env, log=log)
    run(["cmake", "--build", build], env=env, log=log)  # link
    if not args.no_run:
        out = run([os.path.join(build, "user")], env=env, log=log)[4]
        if "ok" not in out.split():
            raise RuntimeError(f"user file {name} computed a wrong result:\n{out}")
    compiler = args.nvcc_id if lang == "CUDA" else args.compiler_id
    return row("compile", f"user-{name}", space_of(devices), shape, dtype, what, compiler,
               wall, user, sys_, rss, l0, l1, repeat=rep, language=lang), kokkos


def ninja_units(build, top=40):
    """The slowest units of the build just run, from ninja's log: (output, wall s),
    slowest first. At -j N on N idle cores a unit's wall time is its compiler's CPU time."""
    path = os.path.join(build, ".ninja_log")
    if not os.path.exists(path):
        return []
    units = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 4:
                continue
            start, end, out = int(parts[0]), int(parts[1]), parts[3]
            if out.endswith((".o", ".gch", ".pch")):
                units[out] = (end - start) / 1000.0  # the last build's entry wins
    return [{"unit": u, "wall_s": round(t, 1)}
            for u, t in sorted(units.items(), key=lambda kv: -kv[1])[:top]]


def preset_build(args, name, work, env, log):
    preset, extra, target, what = PRESETS[name]
    build = os.path.join(work, f"preset-{name}")
    cfg = ["cmake", "--preset", preset, "-B", build] + extra + args.cmake_arg
    if args.kokkos_root:
        cfg.append(f"-DKokkos_ROOT={args.kokkos_root}")
    if args.kokkos_source:
        cfg += ["-DCMAKE_DISABLE_FIND_PACKAGE_Kokkos=ON",
                f"-DFETCHCONTENT_SOURCE_DIR_KOKKOS={args.kokkos_source}"]
    rows = []
    wall, user, sys_, rss, _, l0, l1 = timed(cfg, cwd=args.source, env=env, log=log)
    space = "cuda" if preset == "cuda" else "host"
    rows.append(row("configure", f"preset-{name}", space, [], "-",
                    f"configure of: {what}", args.compiler_id, wall, user, sys_, rss, l0, l1,
                    kokkos_in_tree=bool(args.kokkos_source)))
    cmd = ["cmake", "--build", build, "-j", str(args.jobs)]
    if target:
        cmd += ["--target", target]
    wall, user, sys_, rss, _, l0, l1 = timed(cmd, env=env, log=log)
    rows.append(row("build", f"preset-{name}", space, [], "-", what, args.compiler_id,
                    wall, user, sys_, rss, l0, l1, jobs=args.jobs,
                    kokkos_in_tree=bool(args.kokkos_source), cpu_min=round((user + sys_) / 60, 1),
                    units=ninja_units(build)))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="JSON file to write")
    ap.add_argument("--machine", default=platform.node(), help="machine label (results naming rule)")
    ap.add_argument("--source", default=SOURCE, help="tilekit checkout (default: this one)")
    ap.add_argument("--prefix", help="an installed tilekit (default: install this checkout's library)")
    ap.add_argument("--kokkos-root", help="the installed Kokkos to build against (a CUDA one: nvcc rows; "
                    "presets too)")
    ap.add_argument("--kokkos-source", help="presets: build Kokkos in-tree from this unpacked source")
    ap.add_argument("--cases", default="transpose,reduce,permute,kokkos",
                    help="user files: comma list of %s, 'all' or 'none'" % ",".join(CASES))
    ap.add_argument("--repeat", type=int, default=1, help="times each user file is built")
    ap.add_argument("--preset", action="append", default=[], choices=sorted(PRESETS),
                    help="a preset build to time (repeatable)")
    ap.add_argument("--cmake-arg", action="append", default=[], help="extra configure argument, as --cmake-arg=-DNAME=VALUE (repeatable)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count(), help="parallel jobs of library and preset builds")
    ap.add_argument("--no-run", action="store_true",
                    help="link the user files but do not run them (a CUDA build on a machine without a GPU)")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (printed)")
    args = ap.parse_args()
    args.source = os.path.abspath(args.source)
    cases = [] if args.cases == "none" else list(CASES) if args.cases == "all" else args.cases.split(",")
    for c in cases:
        if c not in CASES:
            ap.error(f"unknown case {c}")

    env = clean_env()
    cxx = env.get("CXX", "c++")
    args.compiler_id = version_line([cxx, "--version"])
    args.nvcc_id = version_line([env.get("CUDACXX") or shutil.which("nvcc") or "nvcc", "--version"],
                                r"release")

    work = tempfile.mkdtemp(prefix="tilekit-compile-times-")
    logpath = os.path.join(work, "log.txt")
    rows = []
    kokkos = "unknown"
    load_start = os.getloadavg()
    with open(logpath, "w") as log:
        try:
            if cases:
                prefix = args.prefix or install_library(args, work, env, rows, log)
                for rep in range(args.repeat):
                    for c in cases:
                        r, kokkos = user_tu(args, c, prefix, work, env, rep, log)
                        rows.append(r)
                        print(f"{r['variant']:>16} rep {rep}: wall {r['wall_s']:6.1f} s  cpu {r['cpu_s']:6.1f} s  "
                              f"{r['peak_rss_mib']:7.0f} MiB  load {r['load_before'][0]:.2f}", flush=True)
            for p in args.preset:
                for r in preset_build(args, p, work, env, log):
                    rows.append(r)
                    print(f"{r['op']:>9} {r['variant']}: wall {r['wall_s']:7.1f} s  cpu {r['cpu_s']:8.1f} s",
                          flush=True)
        except Exception:
            print(f"log: {logpath}", file=sys.stderr)
            raise
    result = {
        "machine": args.machine,
        "device": args.machine,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": git_commit(args.source),
        "command": " ".join([os.path.relpath(sys.argv[0], args.source) if sys.argv[0].startswith(args.source)
                             else sys.argv[0]] + sys.argv[1:]),
        "what": "compile times: user translation units against the installed package, library and preset builds",
        "kokkos": kokkos,
        "compiler": args.compiler_id,
        "cores": os.cpu_count(),
        "load_average_start": [round(x, 2) for x in load_start],
        "load_average_end": [round(x, 2) for x in os.getloadavg()],
        "ccache": "disabled (CCACHE_DISABLE=1, no compiler launcher)",
        "rows": rows,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print(f"wrote {args.out}")
    if args.keep:
        print(f"work folder: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
