#!/usr/bin/env bash
# The tool rejects bad options before any measurement starts: each call below
# must exit nonzero, say why on stderr, and print no result table.
#   tool_checks.sh path/to/tilekit
set -uo pipefail
tool=${1:?usage: tool_checks.sh path/to/tilekit}
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
mkdir "$tmp/readonly" && chmod a-w "$tmp/readonly"
failed=0

# rejects "<expected text on stderr>" args...
rejects() {
  local want=$1; shift
  "$tool" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "FAIL (exit 0): tilekit $*"; failed=1; return
  fi
  if ! grep -qi -- "$want" "$tmp/err"; then
    echo "FAIL (no '$want' on stderr): tilekit $*"; cat "$tmp/err"; failed=1; return
  fi
  if grep -q "GB/s" "$tmp/out"; then
    echo "FAIL (measured before rejecting): tilekit $*"; failed=1; return
  fi
  echo "ok: tilekit $* -> $(head -n1 "$tmp/err")"
}

rejects "does not exist"  transpose --n 64 --json /nonexistent-dir/r.json
rejects "does not exist"  permute --shape 8,8,8 --csv /nonexistent-dir/r.csv
if [ "$(id -u)" -ne 0 ]; then  # root writes anywhere
  rejects "not writable"  reduce --n 1024 --json "$tmp/readonly/r.json"
fi
rejects "is a directory"  transpose --n 64 --json "$tmp"
rejects "GiB"             transpose --n 1099511627776 --m 1048576
rejects "GiB"             permute --shape 1048576,1048576,1024
rejects "GiB"             reduce --n 1099511627776
rejects "GiB"             cmm --n 1048576 --variant naive
rejects "--n"             transpose --n 0
rejects "--tile"          transpose --n 64 --tile 0
rejects "--tile"          transpose --n 64 --tile 9000
rejects "--tile"          permute --shape 8,8,8 --tile 2048
rejects "--pad"           permute --shape 8,8 --pad 100
rejects "--vector"        reduce --n 64 --vector 0
rejects "--reps"          transpose --n 64 --reps 0
rejects "--space"         transpose --n 64 --space hip
rejects "--shape"         permute --shape 8,0,8
rejects "--perm"          permute --shape 8,8,8 --perm 0,0,1
rejects "--cases"         fuzz --cases 0
rejects "--slots"         transpose --n 64 --slots 0
rejects "--workspace"     transpose --m 64 --n 32 --workspace 2000000000000
rejects "--tiles-per-team" permute --shape 8,8,8 --tiles-per-team 0
rejects "--sub"           transpose --n 64 --sub diagonal
rejects "--sub-ld"        transpose --n 64 --sub block --sub-ld 63
rejects "--align"         transpose --n 64 --align 24
rejects "--align"         transpose --n 64 --align 8192
rejects "--align"         permute --shape 8,9,10 --perm 2,1,0 --align 48
rejects "--sub"           permute --shape 8,8 --sub diagonal
rejects "--sub"           permute --shape 8,8 --sub block --out-dtype double
rejects "--sub"           reduce --n 1024 --sub diagonal
rejects "--sub-cols"      reduce --n 1000 --sub block --sub-cols 64
rejects "--sub-ld"        reduce --n 1024 --sub block --sub-cols 64 --sub-ld 63
rejects "--sub"           reduce --n 1024 --sub every2 --variant naive
rejects "--sub"           reduce --n 1024 --sub every2 --transfers pageable
rejects "unknown key"     fuzz --replay "op=permute size=3"
rejects "variant"         fuzz --replay "op=permute variant=quick type=float shape=3 perm=0"

# --help is the tool's alone (Kokkos is given only the --kokkos-* arguments),
# --kokkos-* arguments still reach Kokkos, and one Kokkos does not know is
# rejected by name.
if "$tool" transpose --help >"$tmp/out" 2>&1 && grep -q -- "--variant" "$tmp/out" &&
   ! grep -qi "kokkos command line arguments" "$tmp/out"; then echo "ok: --help"
else echo "FAIL: transpose --help"; cat "$tmp/out"; failed=1; fi
if "$tool" --kokkos-disable-warnings transpose --n 64 --variant tiled --reps 1 \
    --kokkos-print-configuration >"$tmp/out" 2>&1 && grep -q "Kokkos Version" "$tmp/out" &&
   grep -Eq '^tiled +(Serial|OpenMP|Cuda) ' "$tmp/out"; then echo "ok: --kokkos-* arguments"
else echo "FAIL: --kokkos-* arguments"; cat "$tmp/out"; failed=1; fi
rejects "--kokkos-no-such-option" transpose --n 64 --kokkos-no-such-option

# "host" and "default" name spaces this tool was built with: host a CPU space
# (Serial or OpenMP) or, in a build without one (TILEKIT_SPACES=Cuda), a clear
# refusal; default any built space.
if "$tool" transpose --n 64 --space host --variant tiled --reps 1 >"$tmp/out" 2>"$tmp/err"; then
  if grep -Eq '^tiled +(Serial|OpenMP) ' "$tmp/out"; then echo "ok: --space host"
  else echo "FAIL: --space host ran no host space"; cat "$tmp/out"; failed=1; fi
else
  rejects "no host space" transpose --n 64 --space host --variant tiled --reps 1
fi
if "$tool" transpose --n 64 --space default --variant tiled --reps 1 >"$tmp/out" 2>&1 &&
   grep -Eq '^tiled +(Serial|OpenMP|Cuda) ' "$tmp/out"; then echo "ok: --space default"
else echo "FAIL: --space default"; cat "$tmp/out"; failed=1; fi

# The studies run on the default space: a build may leave the host spaces out
# (TILEKIT_SPACES=Cuda), and the study's own default compares with the host.
rejects "does not exist"  study dims --quick --space default --resume --out "$tmp/no-study"

# --resume goes on from an interrupted study: a finished quick run of two
# studies, cut back to its first case (as a killed run leaves it), resumed,
# gives the same cases and as many rows as the full run.
s="$tmp/study"
if "$tool" study dims ladder --quick --space default --out "$s" >"$tmp/out" 2>&1 &&
   /usr/bin/python3 - "$s/study.json" <<'PY'
import json, sys
p = sys.argv[1]
j = json.load(open(p))
first = j["study"]["cases"][0]
j["full_rows"] = len(j["rows"])
j["rows"] = [r for r in j["rows"] if (r["study"], r["case"]) == (first["study"], first["case"])]
j["study"]["cases"], j["study"]["partial"] = [first], True
json.dump(j, open(p, "w"))
PY
then
  rows=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['full_rows'])" "$s/study.json")
  rejects "another command" study dims --quick --space default --resume --out "$s"
  if "$tool" study dims ladder --quick --space default --resume --out "$s" >"$tmp/out" 2>&1 &&
     grep -q "resuming: 1 cases done" "$tmp/out" &&
     /usr/bin/python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
assert not j['study']['partial'] and len(j['rows']) == int(sys.argv[2]), (len(j['rows']), sys.argv[2])
assert sorted(r['id'] for r in j['rows']) == list(range(len(j['rows'])))" "$s/study.json" "$rows"; then
    echo "ok: study --resume ($rows rows)"
    rejects "finished report" study dims ladder --quick --space default --resume --out "$s"
  else
    echo "FAIL: study --resume"; cat "$tmp/out"; failed=1
  fi
else
  echo "FAIL: study dims ladder --quick"; cat "$tmp/out"; failed=1
fi

# A replayed case runs and passes.
if ! "$tool" fuzz --space all --replay \
    "op=permute variant=fused type=double layout=left shape=3,0,5 perm=2,0,1 alpha=2 beta=-0 seed=0x1" \
    >"$tmp/out" 2>&1 || ! "$tool" fuzz --space all --replay \
    "op=permute variant=fused type=cfloat layout=right shape=7,5,3,2 perm=3,1,0,2 alpha=-1.5 beta=0.5 seed=0x2a" \
    >>"$tmp/out" 2>&1; then
  echo "FAIL: replayed cases"; cat "$tmp/out"; failed=1
else
  echo "ok: replayed cases"; cat "$tmp/out"
fi
# In place on a rectangular matrix runs and verifies (exit 1 on a wrong result);
# half and bhalf run where Kokkos has 2-byte types and are refused before any
# measurement elsewhere.
if "$tool" transpose --space all --m 37 --n 100 --variant inplace_decomposed --reps 1 \
    >"$tmp/out" 2>&1; then
  echo "ok: in-place rectangular rows"
else
  echo "FAIL: in-place rectangular rows"; cat "$tmp/out"; failed=1
fi
# Skewed tiles asked for (--align: where the space stages tiles; elsewhere rectangular
# ones) and refused (--align 0) verify on an odd shape.
for align in 0 32 64; do
  if "$tool" transpose --space all --m 37 --n 101 --dtype all --align "$align" --reps 1 \
      >"$tmp/out" 2>&1; then
    echo "ok: --align $align"
  else
    echo "FAIL: --align $align"; cat "$tmp/out"; failed=1
  fi
  if "$tool" permute --space all --shape 37,5,101 --perm 2,1,0 --perm 1,2,0 --variant fused \
      --dtype all --align "$align" --reps 1 >"$tmp/out" 2>&1; then
    echo "ok: permute --align $align"
  else
    echo "FAIL: permute --align $align"; cat "$tmp/out"; failed=1
  fi
done
# Special values: a NaN alpha or beta makes every output NaN, an infinite
# alpha an infinity (or NaN where an element is 0), as the definition gives;
# the check takes them as themselves (a wrong result exits nonzero).
for scalars in "--alpha nan" "--alpha inf" "--alpha -inf --beta 2" "--beta nan"; do
  for types in "--dtype float,double,cfloat" "--dtype float --out-dtype double"; do
    if "$tool" permute --space all --shape 4,5,6 --perm 2,1,0 $scalars $types --reps 1 \
        >"$tmp/out" 2>&1 && ! grep -q "WRONG RESULT" "$tmp/out"; then
      echo "ok: permute $scalars $types"
    else
      echo "FAIL: permute $scalars $types"; cat "$tmp/out"; failed=1
    fi
  done
done
# Strided input windows (docs/strided.md) run, verify and are labelled.
for kind in block rows2; do
  if "$tool" transpose --space all --m 37 --n 100 --sub "$kind" --sub-ld 131 --reps 1 \
      >"$tmp/out" 2>&1 && grep -q "tiled_padded_sub_$kind" "$tmp/out"; then
    echo "ok: --sub $kind rows"
  else
    echo "FAIL: --sub $kind rows"; cat "$tmp/out"; failed=1
  fi
done
for kind in block rows2; do
  for layout in right left; do
    if "$tool" permute --space all --shape 5,37,66 --perm 2,1,0 --perm 1,0,2 --sub "$kind" \
        --layout "$layout" --reps 1 >"$tmp/out" 2>&1 && grep -q "fused_sub_$kind" "$tmp/out" &&
        grep -q "naive_sub_$kind" "$tmp/out" && ! grep -q "shared" "$tmp/out"; then
      echo "ok: permute --sub $kind --layout $layout rows"
    else
      echo "FAIL: permute --sub $kind --layout $layout rows"; cat "$tmp/out"; failed=1
    fi
  done
done
# The reduce of a strided window: every operation, checked (a wrong result
# exits nonzero), on the strided kernel (a block of short rows, every other
# element) and on the contiguous one (a block of rows as long as the parent's).
for sub in "block --sub-cols 37" "every2" "block --sub-cols 40 --sub-ld 40"; do
  kind=${sub%% *}
  if "$tool" reduce --space all --dtype all --n 1480 --sub $sub --reps 1 \
      --json "$tmp/sub.json" >"$tmp/out" 2>&1 && grep -q "minloc_sub_$kind" "$tmp/out" &&
      grep -q "sum_compensated_sub_$kind" "$tmp/out" && ! grep -q "naive" "$tmp/out"; then
    echo "ok: reduce --sub $sub rows"
  else
    echo "FAIL: reduce --sub $sub rows"; cat "$tmp/out"; failed=1
  fi
done
if grep -q '"strided_kernel": *false' "$tmp/sub.json" && ! grep -q '"strided_kernel": *true' "$tmp/sub.json"; then
  echo "ok: a window of whole parent rows keeps the contiguous kernel"
else
  echo "FAIL: --sub-ld equal to --sub-cols took the strided kernel"; failed=1
fi
if "$tool" transpose --space all --m 17 --n 33 --dtype half,bhalf --reps 1 >"$tmp/out" 2>"$tmp/err"; then
  echo "ok: half and bhalf rows"
elif grep -q "no 2-byte half" "$tmp/err" && ! grep -q "GB/s" "$tmp/out"; then
  echo "ok: half and bhalf refused: $(head -n1 "$tmp/err")"
else
  echo "FAIL: --dtype half,bhalf"; cat "$tmp/out" "$tmp/err"; failed=1
fi
exit $failed
