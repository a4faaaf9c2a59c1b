#!/usr/bin/env bash
# The awkward shapes: what a user who does not pick the shapes gets. Each
# family's production path on shapes that are not powers of two, skinny
# matrices and tensors with small innermost extents, beside the headline
# shape and the copy baseline of the same run, and (CUDA, where PyTorch
# imports) PyTorch's transpositions and permutations of the same calls with
# its own copy of the same bytes (bench/torch_peer.py). One file per family in
# the results store: OUT/MACHINE/<date>-<commit>-awkward-<family>.json (the
# tool's calls and PyTorch's merged by bench/summarize.py --store, each row's
# `case` naming its call; OUT's INDEX.md rewritten when it has one).
# The worst and best of each family: bench/summarize.py --extremes FILE...;
# tilekit beside PyTorch: bench/summarize.py --peers FILE...
#
#   bench/awkward.sh [--compare FILE]... [--no-torch] TOOL SPACE MACHINE
#   bench/awkward.sh /tmp/build/bin/tilekit cuda h200
#   REPS=5 bench/awkward.sh build/bin/tilekit openmp dev2core-xeon
#   FAMILIES=permute bench/awkward.sh ...   (a subset: transpose permute reduce cmm)
#   OUT=/tmp/results bench/awkward.sh ...   (another store; default bench/results)
#   bench/awkward.sh --compare bench/results/h200/2026-11-28-2430779-awkward-permute.json \
#     --compare bench/results/h200/2026-11-28-2430779-awkward-transpose.json build/bin/tilekit cuda h200
#
# --compare FILE (a committed result of the same device; several allowed): the
# regression gate. After the run, every case of the new results that fell more
# than POINTS (default 5) points of % of copy below FILE's is reported
# (bench/summarize.py --compare) and the script exits 1; other devices' files
# are refused (exit 2). --no-torch: no PyTorch rows (also TORCH=0).
set -euo pipefail
COMPARE=()
TORCH=${TORCH:-1}
POSITIONAL=()
while [ $# -gt 0 ]; do
  case $1 in
    --compare) COMPARE+=(--compare "${2:?--compare needs a file}"); shift 2 ;;
    --no-torch) TORCH=0; shift ;;
    --*) echo "awkward.sh: unknown option $1" >&2; exit 2 ;;
    *) POSITIONAL+=("$1"); shift ;;
  esac
done
[ ${#POSITIONAL[@]} = 3 ] || { sed -n '2,26p' "$0" >&2; exit 2; }
TOOL=${POSITIONAL[0]} SPACE=${POSITIONAL[1]} MACHINE=${POSITIONAL[2]}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/results}
REPS=${REPS:-20}
POINTS=${POINTS:-5}
FAMILIES=${FAMILIES:-transpose permute reduce cmm}
PYTHON=${PYTHON:-python3}
for ((k = 1; k < ${#COMPARE[@]}; k += 2)); do
  [ -f "${COMPARE[k]}" ] || { echo "awkward.sh: --compare ${COMPARE[k]}: no such file" >&2; exit 2; }
done
CALLS=$(mktemp -d)
trap 'rm -rf "$CALLS"' EXIT
# PyTorch's rows: on CUDA, where it imports, unless turned off.
if [ "$TORCH" = 1 ] && [ "$SPACE" = cuda ] && "$PYTHON" -c 'import torch' 2>/dev/null; then
  PEER_CALLS=$CALLS/torch.calls
else
  PEER_CALLS=
  [ "$TORCH" = 1 ] && [ "$SPACE" = cuda ] && echo "awkward.sh: PyTorch does not import: no PyTorch rows"
fi
COMMAND="REPS=$REPS FAMILIES=\"$FAMILIES\" bench/awkward.sh${PEER_CALLS:+ (with PyTorch)} $(basename "$TOOL") $SPACE $MACHINE"
run() {
  local name=$1
  shift
  case " $FAMILIES " in *" ${name%%-*} "*) ;; *) return 0 ;; esac
  echo "== $name $*"
  local family=${name%%-*}
  mkdir -p "$CALLS/$family"
  "$TOOL" "$@" --space "$SPACE" --reps "$REPS" --json "$CALLS/$family/$name.json"
  # PyTorch's rows of the same call, timed after the tool's calls (one process).
  if [ -n "$PEER_CALLS" ] && { [ "$family" = transpose ] || [ "$family" = permute ]; }; then
    printf '%q ' "$@" --space "$SPACE" --reps "$REPS" --json "$CALLS/$family/$name-torch.json" \
      --like "$CALLS/$family/$name.json" >> "$PEER_CALLS"
    echo >> "$PEER_CALLS"
  fi
}

# 2-D: the headline square, odd and prime sizes (rows not a multiple of the
# 32-byte sector), skinny matrices both ways. --m is the rows.
for mn in 16384x16384 10007x10009 12289x8191 9999x9999 8191x8191 \
          2x33554432 33554432x2 8x8388608 8388608x8 9x8388608 8388608x9 \
          16x8388608 8388608x16 32x8388608 8388608x32 1000x100003; do
  run "transpose-$mn" transpose --m "${mn%x*}" --n "${mn#*x}" --dtype float \
    --variant tiled_padded
done

# Permute, rank 3 to 6: small and odd extents inward and outward, 1 GiB of floats
# or near it; each shape with permutations that move the innermost dimension.
permute() {
  local shape=$1
  shift
  local perms=()
  for p in "$@"; do perms+=(--perm "$p"); done
  run "permute-${shape//,/x}" permute --shape "$shape" --dtype float --variant fused "${perms[@]}"
}
permute 512,512,1024 2,1,0 1,2,0 0,2,1
permute 1023,1025,255 2,1,0 1,2,0 0,2,1
permute 3,4096,4096,5 3,2,1,0 0,3,2,1 3,1,2,0
permute 64,256,128,128 3,0,1,2 3,0,2,1 3,2,1,0
permute 32,64,32,64,64 4,0,1,2,3 1,0,4,3,2 4,3,2,1,0
permute 16,32,16,32,16,64 5,0,1,2,3,4 2,5,1,3,0,4 5,4,3,2,1,0
permute 7,33,5,64,31,29 5,4,3,2,1,0 1,0,3,2,5,4 5,0,1,2,3,4
# Issue #59's 5-D case: small extents around the moved innermost pair.
permute 32,32,32,32,256 2,0,1,4,3

# Reduce: the production sum (and CUB's in CUDA builds) from 2^20 to 2^30.
run reduce-sum reduce --n 1048576,4194304,16777216,67108864,268435456,1073741824 \
  --dtype float,double --variant sum,cub

# CMM: the register-blocked kernel at powers of two and at even N that are not
# multiples of the tile, beside cuBLAS (CUDA builds) and the copy of the same
# bytes, from bench_cmm beside the tool (Google Benchmark JSON).
case " $FAMILIES " in *" cmm "*)
  BENCH_CMM=$(dirname "$TOOL")/bench_cmm
  case $SPACE in cuda) S=Cuda N='4000|4096|6002|8002|8192' ;; openmp) S=OpenMP N='1000|1024|1998|2002|2048' ;;
                 *) S=Serial N='1000|1024|1998|2002|2048' ;; esac
  if [ -x "$BENCH_CMM" ]; then
    echo "== cmm $S $N"
    mkdir -p "$CALLS/cmm"
    "$BENCH_CMM" --benchmark_filter="^(copy|blocked|cublas|cublas_gemm)/$S/(float|double)/($N)/" \
      --benchmark_out="$CALLS/cmm/cmm.json" --benchmark_out_format=json
  else
    echo "awkward.sh: no $BENCH_CMM (benchmarks not built): cmm skipped" >&2
  fi ;;
esac

if [ -n "$PEER_CALLS" ] && [ -s "$PEER_CALLS" ]; then
  echo "== torch (bench/torch_peer.py, $(wc -l < "$PEER_CALLS") calls)"
  "$PYTHON" "$HERE/torch_peer.py" --batch "$PEER_CALLS"
fi

# Into the store: one file per family.
STORED=()
for family in transpose permute reduce cmm; do
  [ -d "$CALLS/$family" ] || continue
  STORED+=("$("$PYTHON" "$HERE/summarize.py" --store "$OUT" "$MACHINE" "awkward-$family" \
    --command "$COMMAND" "$CALLS/$family"/*.json)")
  echo "stored ${STORED[-1]}"
done
if [ -f "$OUT/INDEX.md" ]; then
  "$PYTHON" "$HERE/summarize.py" --index "$OUT" > "$OUT/INDEX.md"
fi
if [ -n "$PEER_CALLS" ] && [ ${#STORED[@]} -gt 0 ]; then
  "$PYTHON" "$HERE/summarize.py" --peers "${STORED[@]}"
fi

# The gate: the new results against the committed ones.
if [ ${#COMPARE[@]} -gt 0 ]; then
  rc=0
  "$PYTHON" "$HERE/summarize.py" "${COMPARE[@]}" --points "$POINTS" "${STORED[@]}" || rc=$?
  exit $rc
fi
