#!/usr/bin/env bash
# The host transposes beside their hand-written peer, in one session: the
# tool's transpose rows (with its copy, memcpy and copy_kernel rows) and
# avx2_transpose_peer (bench/CMakeLists.txt: ../shared/anchors/avx2_transpose.cpp,
# 8 x 8 AVX2 blocks in tiles of B, streamed stores; float only) at each size,
# alternated REPS times, stored as one file in bench/results via
# bench/summarize.py --store (<machine>/<date>-<commit>-host-peer.json). The
# peer's rows are named peer_avx2_streamed, peer_avx2_plain and peer_memcpy
# (its own memcpy); their pct_copy is against the tool's best copy of the same
# size and type in the run before them.
#
#   bench/host_peer.sh BUILD MACHINE [SIZES] [REPS] [PEER_B]
#   e.g. bench/host_peer.sh build dev2core-epyc 8192,16384 2 256
#
# Variants: VARIANTS (default copy_kernel,tiled,tiled_padded,inplace_blocked;
# the tool's copy and memcpy rows come with any).
# Threads: OMP_NUM_THREADS (default: every core), bound as the tool binds them
# (OMP_PROC_BIND=spread OMP_PLACES=threads unless set). Run it on a quiet
# machine, at nice 0 or below; the load is recorded in the file's command.
set -euo pipefail
build=${1:?usage: bench/host_peer.sh BUILD MACHINE [SIZES] [REPS] [PEER_B]}
machine=${2:?usage: bench/host_peer.sh BUILD MACHINE [SIZES] [REPS] [PEER_B]}
sizes=${3:-8192,16384}
reps=${4:-2}
peer_b=${5:-256}
here=$(cd "$(dirname "$0")" && pwd)
tool="$build/bin/tilekit"
peer="$build/bin/avx2_transpose_peer"
[[ -x $tool ]] || { echo "host_peer.sh: no tool at $tool" >&2; exit 2; }
[[ -x $peer ]] || { echo "host_peer.sh: no peer at $peer (../shared/anchors absent or not x86-64)" >&2; exit 2; }
variants=${VARIANTS:-copy_kernel,tiled,tiled_padded,inplace_blocked}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
files=()
for ((k = 1; k <= reps; ++k)); do
  # The tool takes one size a call: its files of this round, merged into one.
  for n in ${sizes//,/ }; do
    "$tool" transpose --n "$n" --dtype float,double --space openmp --variant "$variants" --json "$tmp/tool-run$k-$n.json" \
      > /dev/null
  done
  python3 - "$tmp"/tool-run$k-*.json > "$tmp/tool-run$k.json" <<'PY'
import json, sys
out = json.load(open(sys.argv[1]))
for path in sys.argv[2:]:
    out["rows"] += json.load(open(path))["rows"]
json.dump(out, sys.stdout, indent=1)
PY
  rm -f "$tmp"/tool-run$k-*.json
  files+=("$tmp/tool-run$k.json")
  for n in ${sizes//,/ }; do
    "$peer" "$n" "$peer_b" > "$tmp/peer-$n.txt"
  done
  python3 - "$tmp/tool-run$k.json" "$peer_b" "$tmp"/peer-*.txt > "$tmp/peer-run$k.json" <<'PY'
import json, re, sys
tool = json.load(open(sys.argv[1]))
block = int(sys.argv[2])
# The tool's best copy of each size (float rows): the % copy of the run.
best = {}
for r in tool["rows"]:
    if r.get("variant") in ("copy", "memcpy") and r.get("dtype") == "float":
        n = r["shape"][0]
        best[n] = max(best.get(n, 0.0), r["gbps"])
names = {"memcpy": "peer_memcpy", "plain": "peer_avx2_plain", "streamed": "peer_avx2_streamed"}
line = re.compile(r"^(.*?)\s+n=(\d+)\s+([\d.]+) ms\s+([\d.]+) GB/s")
rows = []
for path in sys.argv[3:]:
    for text in open(path):
        m = line.match(text)
        if not m:
            continue
        what, n, ms, gbps = m.group(1), int(m.group(2)), float(m.group(3)), float(m.group(4))
        key = "memcpy" if what.startswith("memcpy") else "streamed" if "streamed" in what else "plain"
        rows.append({"op": "transpose", "variant": names[key], "space": tool["devices"][0]["space"]
                     if tool.get("devices") else "OpenMP", "shape": [n, n], "dtype": "float",
                     "ms": ms, "bytes": 2.0 * n * n * 4, "gbps": gbps,
                     "pct_copy": 100.0 * gbps / best[n] if best.get(n) else None,
                     "peer_block": block, "verified": key != "memcpy"})
out = {k: v for k, v in tool.items() if k != "rows"}
out["rows"] = rows
json.dump(out, sys.stdout, indent=1)
PY
  files+=("$tmp/peer-run$k.json")
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
python3 "$here/summarize.py" --store "$here/results" "$machine" host-peer \
  --command "bench/host_peer.sh $build $machine $sizes $reps $peer_b (tool and peer alternated; OMP_NUM_THREADS=$OMP_NUM_THREADS OMP_PROC_BIND=$OMP_PROC_BIND OMP_PLACES=$OMP_PLACES; load $load_before before, $load_after after)" \
  "${files[@]}"
