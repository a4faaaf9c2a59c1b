#!/usr/bin/env python3
"""The results store (bench/results/) and Markdown tables from its files.

    python3 bench/summarize.py FILE.json [...]                  a table per file
    python3 bench/summarize.py --extremes FILE.json [...]       worst / median / best
    python3 bench/summarize.py --store STORE MACHINE WHAT [--command CMD] FILE.json [...]
    python3 bench/summarize.py --index STORE > STORE/INDEX.md
    python3 bench/summarize.py --check-index STORE [--docs ROOT]
    python3 bench/summarize.py --compare BASE.json [--compare ...] [--points P] FILE.json [...]
    python3 bench/summarize.py --peers FILE.json [...]

Tables: one per file: variant, space, shape, dtype, median time, GB/s, % of the
deep_copy of the same run, % of theoretical peak, speedup over naive, plus any
op-specific columns the rows carry. --extremes instead gives, per family, space
and type over all the files, the worst and the best case of the kernels against
the copy of their own run (and, for reduce sums, against CUB's sum of the same n).
The Python benchmark's files (bench/bench_python.py: a framework per row, not a
space) read the same way, the framework in the space column.
Google Benchmark files among them (bench_cmm's, which bench/awkward.sh writes beside
the tool's) give the CMM kernels against cuBLAS of the same N and run instead.

The store holds one file per run, the tool's JSON (`tilekit <op> --json`) or Google
Benchmark's (`bench_<family> --benchmark_out_format=json`), at
STORE/<machine>/<date>-<commit>-<what>.json: the date (YYYY-MM-DD) and the commit
(7 hex digits) are the file's own (`date`/`commit`; a Google Benchmark file's
context `date`/`tilekit_commit`). --store puts files there under that name: one
file as it is, several of one run (a script's calls, e.g. bench/awkward.sh's, one
commit and one machine) as one file whose rows carry `case` (the file's name
without .json). --index writes the index from the files' own fields (machine,
date, commit, command, what the rows measure); --check-index fails when INDEX.md
is not what --index writes, when a file is misnamed or not a result, or when
README.md or docs/**/*.md (under ROOT, default STORE/../..) cite a result path
that does not exist.

The regression gate (bench/awkward.sh --compare): --compare takes committed results
(BASE) of the device the new FILEs ran on, matches their rows case by case (operation,
variant, space, type, shape, permutation, layout and the other inputs a row names) and
lists each case's % of copy then and now; a case that fell more than P points (default 5)
is marked FELL and makes the exit status 1. Baselines (copy, CUB, PyTorch's copy) and peers
(PyTorch's rows) are not gated; cases in one side only are listed, not gated; results of
another device are refused (exit status 2). --peers puts tilekit beside PyTorch
(bench/torch_peer.py's rows), case by case: each one's % of its own copy of the same
bytes, and PyTorch's time over tilekit's (below 1: tilekit is the slower).
"""
import glob
import json
import os
import re
import sys

def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


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
    d = load(path)
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


BASELINES = {"copy", "memcpy", "cub", "copy_kernel", "openblas", "tilekit_copy", "torch_copy"}
# Other libraries' rows beside tilekit's in one run (bench/torch_peer.py): not tilekit's to gate.
PEERS = {"torch", "torch_contiguous"}


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
        d = load(path)
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


# ---------------------------------------------------------------- the store

NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})-([0-9a-f]{7})-([a-z0-9][a-z0-9.-]*)\.json$")
MACHINE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def is_gbench(d):
    return isinstance(d, dict) and "benchmarks" in d


def own_date_commit(d):
    """(YYYY-MM-DD, 7-digit commit) from a result's own fields; None where absent."""
    if is_gbench(d):
        ctx = d.get("context", {})
        date, commit = ctx.get("date", ""), ctx.get("tilekit_commit", "")
    else:
        date, commit = d.get("date", ""), d.get("commit", "")
    date = date[:10] if re.match(r"\d{4}-\d{2}-\d{2}", str(date)) else None
    commit = commit[:7] if re.match(r"[0-9a-f]{7}", str(commit)) else None
    return date, commit


def schema_problem(d):
    """Why d is neither the tool's JSON nor Google Benchmark's (None when it is one)."""
    if is_gbench(d):
        if not isinstance(d["benchmarks"], list) or "context" not in d:
            return "a Google Benchmark file without context or benchmarks list"
        return None
    if not isinstance(d, dict) or not isinstance(d.get("rows"), list) or not d["rows"]:
        return "no rows (neither the tool's JSON nor Google Benchmark's)"
    for k in ("device", "date", "commit"):
        if k not in d:
            return f"no '{k}' field"
    for r in d["rows"]:
        for k in ("variant", "shape", "dtype", "ms"):
            if k not in r:
                return f"a row without '{k}'"
        if "op" not in r and "framework" not in r:
            return "a row with neither 'op' nor 'framework'"
    return None


def merge(files, command=None):
    """One result of several files of one run (one commit, one device): the first
    file's header, every row with its file's name as `case`."""
    docs = [(os.path.basename(f)[:-5], load(f)) for f in files]
    for f, (_, d) in zip(files, docs):
        problem = schema_problem(d)
        if problem:
            raise ValueError(f"{f}: {problem}")
    if len(docs) == 1:
        d = docs[0][1]
        if command:
            (d.setdefault("context", {}) if is_gbench(d) else d)["command"] = command
        return d
    if any(is_gbench(d) for _, d in docs):
        raise ValueError("Google Benchmark files are stored one at a time")
    first = docs[0][1]
    for f, (_, d) in zip(files, docs):
        if (d["commit"], d["device"]) != (first["commit"], first["device"]):
            raise ValueError(f"{f}: commit or device differs from {files[0]}'s: not one run")
    out = {k: v for k, v in first.items() if k != "rows"}
    if command:
        out["command"] = command
    dates = sorted(d["date"] for _, d in docs)
    out["date"] = dates[0]
    if dates[-1] != dates[0]:
        out["date_last"] = dates[-1]
    kokkos = {d.get("kokkos", "") for _, d in docs}
    out["rows"] = []
    for name, d in docs:
        for r in d["rows"]:
            r = dict(r)
            r.setdefault("case", name)
            if len(kokkos) > 1:
                r.setdefault("kokkos", d.get("kokkos", ""))
            out["rows"].append(r)
    return out


def store(root, machine, what, files, command=None):
    """Writes files (one run) to root/machine/<date>-<commit>-<what>.json; returns the path."""
    if not MACHINE.match(machine):
        raise ValueError(f"machine '{machine}': lower-case letters, digits and '-'")
    if not re.match(r"^[a-z0-9][a-z0-9.-]*$", what):
        raise ValueError(f"what '{what}': lower-case letters, digits, '.' and '-'")
    d = merge(files, command)
    date, commit = own_date_commit(d)
    if not date or not commit:
        raise ValueError("the result has no date or no commit of 7 hex digits: it cannot be named")
    os.makedirs(os.path.join(root, machine), exist_ok=True)
    base = os.path.join(root, machine, f"{date}-{commit}-{what}")
    path, n = base + ".json", 2
    while os.path.exists(path):
        path, n = f"{base}-{n}.json", n + 1
    with open(path, "w") as f:
        json.dump(d, f, indent=2)
        f.write("\n")
    return path


def result_files(root):
    """Every file under root but INDEX.md, relative to root, sorted."""
    out = []
    for top, _, names in os.walk(root):
        for n in names:
            rel = os.path.relpath(os.path.join(top, n), root)
            if rel != "INDEX.md":
                out.append(rel)
    return sorted(out)


def joined(values, most=6):
    values = [str(v) for v in values]
    return ", ".join(values) if len(values) <= most else ", ".join(values[:most]) + f", … ({len(values)})"


def unique(seq):
    out = []
    for x in seq:
        if x not in out:
            out.append(x)
    return out


BASE_ROWS = BASELINES | {"alltoall", "clone"}


def tool_command(d):
    """The file's own `command`, else the tool's call its rows describe."""
    if d.get("command"):
        return d["command"]
    rows = d["rows"]
    if "op" not in rows[0]:
        return "python3 bench/bench_python.py" + (" --quick" if d.get("quick") else "")
    op = rows[0]["op"]
    shapes = unique(fmt(r["shape"]) for r in rows)
    args = ""
    if op == "transpose" and len(shapes) == 1:
        m, n = (shapes[0].split("x") + [""])[:2]
        args = f" --n {n}" if m == n else f" --m {m} --n {n}"
    elif op in ("permute", "dist-permute") and len(shapes) == 1:
        args = " --shape " + shapes[0].replace("x", ",")
        perms = unique(",".join(map(str, r["perm"])) for r in rows
                       if r.get("perm") and r["variant"] not in BASE_ROWS)
        if perms:
            args += " --perm " + ("all" if len(perms) > 4 else " --perm ".join(perms))
    elif op in ("reduce", "cmm"):
        args = " --n " + ",".join(s.split("x")[0] for s in shapes)
    dtypes = unique(r["dtype"] for r in rows)
    spaces = unique(r.get("space") for r in rows if r.get("space"))
    calls = len(unique(r.get("case") for r in rows)) if "case" in rows[0] else 1
    cmd = (f"tilekit {op}{args} --dtype {','.join(dtypes)} --space {','.join(s.lower() for s in spaces)}")
    return cmd + (f" ({calls} calls)" if calls > 1 else "")


def measures(d):
    """What a result measures, from its rows (tool) or benchmark names (Google Benchmark)."""
    if is_gbench(d):
        names = [b["name"].split("/") for b in d["benchmarks"] if b.get("run_type", "iteration") == "iteration"]
        fams = unique(n[0] for n in names)
        sizes = unique(n[3] for n in names if len(n) > 3)
        dtypes = unique(n[2] for n in names if len(n) > 2)
        return (f"{len(names)} benchmarks: {joined(fams, 8)}; {joined(dtypes)}; "
                f"sizes {joined(sizes, 5)}")
    rows = d["rows"]
    ops = unique(r.get("op", "python") for r in rows)
    kernels = unique(r["variant"] for r in rows if r["variant"] not in BASE_ROWS)
    bases = unique(r["variant"] for r in rows if r["variant"] in BASE_ROWS)
    shapes = unique(fmt(r["shape"]) for r in rows)
    dtypes = unique(r["dtype"] for r in rows)
    spaces = unique(r.get("space") or r.get("framework", "-") for r in rows)
    perms = unique(",".join(map(str, r["perm"])) for r in rows
                   if r.get("perm") and r["variant"] not in BASE_ROWS)
    text = f"{'/'.join(ops)}: {joined(kernels)} against {joined(bases) or 'no baseline'}"
    cases = unique((fmt(r["shape"]), tuple(r["perm"])) for r in rows
                   if r.get("perm") and r["variant"] not in BASE_ROWS)
    text += f"; {joined(shapes, 4)}" + (f", {len(cases)} permutations" if len(perms) > 1 else "")
    return text + f"; {joined(dtypes)}; {joined(spaces)}; {len(rows)} rows"


def cell_text(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def index(root):
    """INDEX.md of the store, from the files' own fields."""
    files = [f for f in result_files(root) if f.endswith(".json")]
    machines = unique(f.split(os.sep)[0] for f in files if os.sep in f)
    out = ["# Results index", "",
           "Generated by `python3 bench/summarize.py --index bench/results > bench/results/INDEX.md`;",
           "ctest's `results_index` fails when it is stale. One file per run, named",
           "`<machine>/<date>-<commit>-<what>.json` from the file's own date and commit; the",
           "command is the file's own `command` where it has one, else the call its rows",
           "describe. Tables of a file: `python3 bench/summarize.py FILE`.", ""]
    out.append(f"{len(files)} files on {len(machines)} machines.")
    for m in machines:
        mine = [f for f in files if f.split(os.sep)[0] == m]
        devices = []
        for f in mine:
            d = load(os.path.join(root, f))
            dev = d.get("context", {}).get("device") if is_gbench(d) else d.get("device")
            if dev and dev not in devices:
                devices.append(dev)
        out += ["", f"## {m}", "", f"Devices: {'; '.join(cell_text(x) for x in devices)}.", "",
                "| file | date | commit | command | measures |", "|---|---|---|---|---|"]
        for f in mine:
            d = load(os.path.join(root, f))
            if is_gbench(d):
                ctx = d["context"]
                commit = ctx.get("tilekit_commit", "")
                cmd = ctx.get("command") or os.path.basename(ctx.get("executable", "?"))
            else:
                commit, cmd = d.get("commit", ""), tool_command(d)
            date = own_date_commit(d)[0]
            out.append(f"| [{os.path.basename(f)}]({f.replace(os.sep, '/')}) | {date} | `{cell_text(commit)}` | "
                       f"`{cell_text(cmd)}` | {cell_text(measures(d))} |")
    return "\n".join(out) + "\n"


CITED = re.compile(r"bench/results/[A-Za-z0-9_./{}*,-]*[A-Za-z0-9_/*}-]|"
                   r"(?<![A-Za-z0-9_/.-])[a-z0-9][a-z0-9-]*/\d{4}-\d{2}-\d{2}-[0-9a-f]{7}-[a-z0-9.-]+\.json")


def cited_paths(root_docs):
    """(doc, path relative to the store) of every result path README.md and docs/**/*.md cite."""
    docs = [os.path.join(root_docs, "README.md")]
    docs += sorted(glob.glob(os.path.join(root_docs, "docs", "**", "*.md"), recursive=True))
    out = []
    for doc in docs:
        if not os.path.isfile(doc):
            continue
        with open(doc, encoding="utf-8") as f:
            text = f.read()
        for m in CITED.finditer(text):
            p = m.group(0)
            p = p[len("bench/results/"):] if p.startswith("bench/results/") else p
            out.append((os.path.relpath(doc, root_docs), p.rstrip("/.")))
    return out


def check_index(root, root_docs=None):
    """Problems of the store: one line each (empty: none)."""
    problems = []
    root_docs = root_docs or os.path.join(root, "..", "..")
    for f in result_files(root):
        parts = f.split(os.sep)
        if len(parts) != 2 or not MACHINE.match(parts[0]):
            problems.append(f"{f}: not <machine>/<file> (one folder per machine, nothing deeper)")
            continue
        m = NAME.match(parts[1])
        if not m:
            problems.append(f"{f}: not named <YYYY-MM-DD>-<commit>-<what>.json")
            continue
        try:
            d = load(os.path.join(root, f))
        except (ValueError, OSError) as e:
            problems.append(f"{f}: not JSON ({e})")
            continue
        problem = schema_problem(d)
        if problem:
            problems.append(f"{f}: {problem}")
            continue
        date, commit = own_date_commit(d)
        if (date, commit) != (m.group(1), m.group(2)):
            problems.append(f"{f}: its own date and commit are {date} and {commit}")
    if not problems:
        path = os.path.join(root, "INDEX.md")
        have = None
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                have = f.read()
        if have is None:
            problems.append("INDEX.md is missing")
        elif have != index(root):
            problems.append("INDEX.md is stale: python3 bench/summarize.py --index bench/results > bench/results/INDEX.md")
    for doc, p in cited_paths(root_docs):
        if any(c in p for c in "{}*"):
            if not glob.glob(os.path.join(root, p.replace("{", "[").replace("}", "]").replace(",", ""))):
                problems.append(f"{doc}: cites {p}, which matches no result")
        elif not os.path.exists(os.path.join(root, p)):
            problems.append(f"{doc}: cites bench/results/{p}, which does not exist")
    return problems



# ---------------------------------------------------------------- the gate

# A row's inputs: what makes two rows of two runs the same case.
INPUTS = ("op", "variant", "space", "framework", "dtype", "shape", "perm", "layout", "in_dtype",
          "out_dtype", "alpha", "beta", "conj", "sub", "split", "window", "engine", "ranks")


def case_key(r):
    """The row's inputs, comparable across runs (a framework's version aside)."""
    key = []
    for k in INPUTS:
        if k in r and r[k] is not None:
            v = r[k]
            if k == "framework":
                v = str(v).split()[0]
            key.append((k, fmt(v) if isinstance(v, list) else str(v)))
    return tuple(key)


def case_text(r):
    text = f"{r.get('op', 'python')} {fmt(r['shape'])}"
    if r.get("perm"):
        text += " perm " + ",".join(map(str, r["perm"]))
    text += f" {r['dtype']} {r['variant']}"
    for k in ("layout", "in_dtype", "out_dtype", "alpha", "beta", "sub", "split"):
        if r.get(k) not in (None, "right"):
            text += f" {k} {r[k]}"
    return text


def gated_rows(paths):
    """(device, {case key: row}) of the tool's files among paths: tilekit's own rows with a
    % of copy (not baselines, peers, or identity permutations). Google Benchmark files are
    left out."""
    devices, rows = set(), {}
    for path in paths:
        d = load(path)
        if is_gbench(d):
            continue
        devices.add(d.get("device", "?"))
        for r in d["rows"]:
            if r["variant"] in BASELINES or r["variant"] in PEERS or r.get("pct_copy") is None:
                continue
            if r.get("perm") and r["perm"] == sorted(r["perm"]):
                continue
            rows[case_key(r)] = r
    return devices, rows


def compare(base_paths, new_paths, points=5.0):
    """(report lines, cases that fell, error): the new runs' cases against the base's."""
    base_dev, base = gated_rows(base_paths)
    new_dev, new = gated_rows(new_paths)
    if not base or not new:
        return [], [], "no tool results to compare on one side"
    if base_dev != new_dev:
        return [], [], (f"not the same device: the base ran on {', '.join(sorted(base_dev))}, "
                        f"the new results on {', '.join(sorted(new_dev))}")
    out = [f"Against {', '.join(os.path.basename(p) for p in base_paths)} "
           f"({', '.join(sorted(new_dev))}): a case fell when its % of copy is more than "
           f"{points:g} points below the base's.", "",
           "| case | base % copy | now % copy | change | |", "|---|---|---|---|---|"]
    fell = []
    for key in sorted(set(base) & set(new), key=lambda k: case_text(new[k])):
        b, n = base[key]["pct_copy"], new[key]["pct_copy"]
        mark = "FELL" if n < b - points else ""
        if mark:
            fell.append(case_text(new[key]))
        out.append(f"| {case_text(new[key])} | {b:.1f} | {n:.1f} | {n - b:+.1f} | {mark} |")
    only_new = sorted(case_text(new[k]) for k in set(new) - set(base))
    only_base = sorted(case_text(base[k]) for k in set(base) - set(new))
    if only_new:
        out += ["", f"Not in the base (not gated): {'; '.join(only_new)}."]
    if only_base:
        out += ["", f"Not run now (not gated): {'; '.join(only_base)}."]
    out += ["", f"{len(set(base) & set(new))} cases compared, {len(fell)} fell"
            + (f": {'; '.join(fell)}." if fell else ".")]
    return out, fell, None


def peers(paths):
    """Markdown: per case with PyTorch's rows, tilekit's and PyTorch's % of copy and
    PyTorch's time over tilekit's."""
    cases = {}
    for path in paths:
        d = load(path)
        if is_gbench(d):
            continue
        for r in d["rows"]:
            if r["variant"] in BASELINES or not r.get("ms") or r.get("pct_copy") is None:
                continue
            if r.get("perm") and r["perm"] == sorted(r["perm"]):
                continue
            key = (r.get("op", "python"), fmt(r["shape"]), ",".join(map(str, r.get("perm") or [])),
                   r["dtype"])
            cases.setdefault(key, {})[r["variant"]] = r
    out = ["| case | tilekit | tilekit % copy | torch % copy | torch_contiguous % copy | torch time / tilekit's |",
           "|---|---|---|---|---|---|"]
    slower = 0
    for (op, shape, perm, dtype), v in sorted(cases.items()):
        mine = [r for name, r in v.items() if name not in PEERS]
        if "torch" not in v or not mine:
            continue
        for r in mine:
            ratio = v["torch"]["ms"] / r["ms"]
            slower += ratio < 1
            cont = v.get("torch_contiguous")
            out.append(f"| {op} {shape}{' perm ' + perm if perm else ''} {dtype} | {r['variant']} | "
                       f"{r['pct_copy']:.1f} | {v['torch']['pct_copy']:.1f} | "
                       f"{fmt(cont['pct_copy']) if cont else '-'} | {ratio:.2f}{' (slower)' if ratio < 1 else ''} |")
    if len(out) == 2:
        return "No case with PyTorch's rows."
    return "\n".join(out) + f"\n\n{len(out) - 2} cases; tilekit slower than PyTorch in {slower}."



def main(argv):
    if argv[:1] == ["--extremes"]:
        print(extremes(argv[1:]))
    elif argv[:1] == ["--index"] and len(argv) == 2:
        sys.stdout.write(index(argv[1]))
    elif argv[:1] == ["--check-index"] and len(argv) in (2, 4):
        problems = check_index(argv[1], argv[3] if len(argv) == 4 and argv[2] == "--docs" else None)
        for p in problems:
            print(p, file=sys.stderr)
        return 1 if problems else 0
    elif argv[:1] == ["--compare"]:
        args, bases, points = list(argv), [], 5.0
        while args[:1] == ["--compare"] and len(args) >= 2:
            bases.append(args[1])
            del args[:2]
        if args[:1] == ["--points"] and len(args) >= 2:
            points = float(args[1])
            del args[:2]
        if not bases or not args:
            print(__doc__, file=sys.stderr)
            return 2
        lines, fell, error = compare(bases, args, points)
        if error:
            print(f"summarize.py --compare: {error}", file=sys.stderr)
            return 2
        print("\n".join(lines))
        return 1 if fell else 0
    elif argv[:1] == ["--peers"] and len(argv) >= 2:
        print(peers(argv[1:]))
    elif argv[:1] == ["--store"] and len(argv) >= 5:
        args, command = argv[1:], None
        if "--command" in args:
            i = args.index("--command")
            command = args[i + 1]
            del args[i:i + 2]
        print(store(args[0], args[1], args[2], args[3:], command))
    elif argv and not argv[0].startswith("--"):
        tables = []
        for p in argv:
            if is_gbench(load(p)):  # Google Benchmark's own format
                tables.append(f"**{p}**: a Google Benchmark file (its extremes: --extremes)")
            else:
                tables.append(table(p))
        print("\n\n".join(tables))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
