#!/usr/bin/env bash
# The awkward shapes: what a user who does not pick the shapes gets. Each
# family's production path on shapes that are not powers of two, skinny
# matrices and tensors with small innermost extents, beside the headline
# shape and the copy baseline of the same run. One file per family in the
# results store: OUT/MACHINE/<date>-<commit>-awkward-<family>.json (the tool's
# calls merged by bench/summarize.py --store, each row's `case` naming its
# call; OUT's INDEX.md rewritten when it has one).
# The worst and best of each family: bench/summarize.py --extremes FILE...
#
#   bench/awkward.sh TOOL SPACE MACHINE
#   bench/awkward.sh /tmp/build/bin/tilekit cuda h200
#   REPS=5 bench/awkward.sh build/bin/tilekit openmp dev2core-xeon
#   FAMILIES=permute bench/awkward.sh ...   (a subset: transpose permute reduce cmm)
#   OUT=/tmp/results bench/awkward.sh ...   (another store; default bench/results)
set -euo pipefail
TOOL=$1 SPACE=$2 MACHINE=$3
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/results}
REPS=${REPS:-20}
FAMILIES=${FAMILIES:-transpose permute reduce cmm}
PYTHON=${PYTHON:-python3}
CALLS=$(mktemp -d)
trap 'rm -rf "$CALLS"' EXIT
COMMAND="REPS=$REPS FAMILIES=\"$FAMILIES\" bench/awkward.sh $(basename "$TOOL") $SPACE $MACHINE"
run() {
  local name=$1
  shift
  case " $FAMILIES " in *" ${name%%-*} "*) ;; *) return 0 ;; esac
  echo "== $name $*"
  mkdir -p "$CALLS/${name%%-*}"
  "$TOOL" "$@" --space "$SPACE" --reps "$REPS" --json "$CALLS/${name%%-*}/$name.json"
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

# Into the store: one file per family.
for family in transpose permute reduce cmm; do
  [ -d "$CALLS/$family" ] || continue
  "$PYTHON" "$HERE/summarize.py" --store "$OUT" "$MACHINE" "awkward-$family" \
    --command "$COMMAND" "$CALLS/$family"/*.json
done
if [ -f "$OUT/INDEX.md" ]; then
  "$PYTHON" "$HERE/summarize.py" --index "$OUT" > "$OUT/INDEX.md"
fi
