#!/usr/bin/env python3
"""Checks a `tilekit study` report folder (CI runs it after `tilekit study --quick`).

    /usr/bin/python3 check_study.py REPORT_DIR [--require-plots]

- study.json and figures.json parse; every row has the tool's row schema and a unique id;
  no row reports a wrong result;
- report.md has a section for every study that was run, and every image it embeds
  exists and is a PNG (with --require-plots, no plot is missing);
- every figure figures.json lists is recomputed from its row(s) in study.json and
  matches the text, which report.md contains;
- every decimal number in report.md (outside code) is one of those figures:
  report.md states no number that was not measured.
Exits 1 with one line per problem.
"""
import json
import os
import re
import sys

ROW_KEYS = ["op", "variant", "space", "shape", "dtype", "ms", "bytes", "gbps", "pct_copy",
            "pct_peak", "speedup_vs_naive", "verified", "id", "study", "case"]
STUDIES = ["sizes", "launch", "cache", "cpu_gpu", "ladder", "dims"]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    folder = args[0]
    require_plots = "--require-plots" in sys.argv
    problems = []

    def load(name):
        with open(os.path.join(folder, name)) as f:
            return json.load(f) if name.endswith(".json") else f.read()

    data, figures, md = load("study.json"), load("figures.json"), load("report.md")
    rows = {}
    for r in data["rows"]:
        missing = [k for k in ROW_KEYS if k not in r]
        if missing:
            problems.append(f"row {r.get('id')}: missing {missing}")
        if r.get("id") in rows:
            problems.append(f"row id {r.get('id')} twice")
        rows[r.get("id")] = r
        if r.get("error"):
            problems.append(f"row {r.get('id')} ({r.get('case')}): {r['error']}")
    for s in data["study"]["studies"]:
        if s not in STUDIES:
            problems.append(f"unknown study {s}")
        if not re.search(r"^## .*\(" + re.escape(s) + r"\)$", md, re.M):
            problems.append(f"report.md has no section for study {s}")
        if not any(r.get("study") == s for r in data["rows"]):
            problems.append(f"study {s} has no rows")
    for f in data["study"]["failures"]:
        problems.append(f"failed case: {f}")

    for img in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md):
        path = os.path.join(folder, img)
        if not os.path.isfile(path):
            problems.append(f"embedded image {img} does not exist")
        else:
            with open(path, "rb") as f:
                if f.read(8) != b"\x89PNG\r\n\x1a\n":
                    problems.append(f"{img} is not a PNG")
    if require_plots and "not drawn" in md:
        problems.append("some plots were not drawn: " +
                        ", ".join(re.findall(r"\(plot (\S+) not drawn", md)) or data["study"]["plots"])

    def value(ref):
        row_id, field = ref
        v = rows[row_id].get(field)
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise KeyError(f"row {row_id} has no number {field}")
        return float(v)

    texts = set()
    body = re.sub(r"```.*?```", "", md, flags=re.S)  # code blocks: commit, devices
    body = re.sub(r"`[^`\n]*`", "", body)  # inline code: commands, paths
    for fig in figures:
        try:
            if "row" in fig:
                v = value((fig["row"], fig["field"])) * fig["scale"]
            else:
                v = value(fig["num"]) / value(fig["den"])
        except KeyError as e:
            problems.append(f"figure {fig['text']}: {e}")
            continue
        text = f"{v:.{fig['decimals']}f}"
        if text != fig["text"]:
            problems.append(f"figure {fig['text']} recomputes as {text} ({fig})")
        if fig["text"] not in body:
            problems.append(f"figure {fig['text']} is not in report.md")
        texts.add(fig["text"])
    for tok in re.findall(r"(?<![\w.])\d+\.\d+(?![\d.])", body):
        if tok not in texts:
            problems.append(f"report.md states {tok}, which no figure records")

    for p in problems:
        print(f"check_study: {p}")
    print(f"check_study: {folder}: {len(data['rows'])} rows, {len(figures)} figures, "
          f"{len(data['study']['studies'])} studies, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
