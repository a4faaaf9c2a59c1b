#!/usr/bin/env bash
# Distributed permute figures (tilekit dist-permute, TILEKIT_ENABLE_MPI builds):
# 3-D slab, pencil and redistribution cases, each against the engine's
# all-to-all of the same bytes in the same run (the tool's `alltoall` row).
# One set of runs is one result, stored by bench/summarize.py --store as
# OUT/<machine>/<date>-<commit>-<what>.json (the rows carry `case`: the case's
# name, with -c<N> for --chunks N).
#
#   bench/dist_sweep.sh TOOL NP MACHINE SHAPE [tool options...]
#       the cases on NP ranks            what: dist-permute-np<NP>[-<LABEL>]
#   bench/dist_sweep.sh scaling TOOL MACHINE "1 2 4" [tool options...]
#       issue #56's sets on 1, 2, 4 ranks: strong (16 GiB of floats:
#       2048 x 1024 x 2048) and weak (4 GiB of floats per rank), slab (2,1,0),
#       pencil (0,2,1), slab -> slab redistribution
#                                        what: dist-strong-np<NP>, dist-weak-np<NP>
#
#   bench/dist_sweep.sh build-mpi/bin/tilekit 4 dev2core-epyc 256,256,256 --space openmp
#   CASES="slab-210 slab-102 pencil-021 slab-redistribute" CHUNKS="0 1 4 16" \
#       bench/dist_sweep.sh /tmp/build-dist/bin/tilekit 2 h200 1024,1024,2048 --space cuda --engine nccl
#   bench/dist_sweep.sh scaling /tmp/build-dist/bin/tilekit h200 "1 2 4" --space cuda --engine nccl
#
# Cases: slab-210, the slab transpose (2,1,0); slab-102, a slab permutation
# that keeps the fastest dimension (1,0,2); slab-redistribute, slabs along
# dimension 0 to slabs along dimension 2 (0,1,2); pencil-021 and pencil-210,
# pencil permutations (0,2,1) and (2,1,0) (the tool's --grid pencil).
#
# Environment: OUT (default bench/results), CASES (default all five; scaling:
# slab-210 pencil-021 slab-redistribute), CHUNKS (--chunks values, default
# "0": the plan's choice), REPS (10), LABEL (appended to `what`), MPIRUN
# (mpirun), MPIRUN_FLAGS (e.g. --allow-run-as-root --oversubscribe),
# NCCL_NVLS_ENABLE (default 0: NVLink multicast off, passed to every rank with
# Open MPI's -x; ENVFLAG changes the flag for another MPI).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=cases
if [ "${1:-}" = scaling ]; then
  mode=scaling
  shift
  TOOL=$1 MACHINE=$2 RANKS=$3
  shift 3
else
  TOOL=$1 NP=$2 MACHINE=$3 SHAPE=$4
  shift 4
fi
OUT=${OUT:-bench/results}
MPIRUN=${MPIRUN:-mpirun}
REPS=${REPS:-10}
CHUNKS=${CHUNKS:-0}
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
ENVFLAG=${ENVFLAG:--x}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case_args() {  # case ranks -> the tool's grid and permutation
  case $1 in
    slab-210) echo --perm 2,1,0 --grid slab ;;
    slab-102) echo --perm 1,0,2 --grid slab ;;
    slab-redistribute) echo --perm 0,1,2 --in-grid "$2" --in-dims 0 --out-grid "$2" --out-dims 2 ;;
    pencil-021) echo --perm 0,2,1 --grid pencil ;;
    pencil-210) echo --perm 2,1,0 --grid pencil ;;
    *) echo "unknown case $1" >&2; exit 2 ;;
  esac
}

# run DIR NP SHAPE [tool options]: every case x --chunks value into DIR.
run() {
  local dir=$1 np=$2 shape=$3
  shift 3
  mkdir -p "$dir"
  for name in $cases; do
    for c in $CHUNKS; do
      local tag=$name
      [ "$c" = 0 ] || tag=$name-c$c
      echo "== $np ranks, $shape, $tag"
      # shellcheck disable=SC2046,SC2086
      $MPIRUN ${MPIRUN_FLAGS:-} $ENVFLAG NCCL_NVLS_ENABLE -n "$np" "$TOOL" dist-permute \
        --shape "$shape" --reps "$REPS" --chunks "$c" --json "$dir/$tag.json" \
        $(case_args "$name" "$np") "$@"
    done
  done
}

# store DIR WHAT COMMAND: one result of the set (bench/summarize.py --store).
store() {
  local what=$2${LABEL:+-$LABEL}
  if grep -q -- '--store' "$here/summarize.py" 2>/dev/null; then
    python3 "$here/summarize.py" --store "$OUT" "$MACHINE" "$what" --command "$3" "$1"/*.json
  else  # a tree without the store's writer: keep the runs, say how to store them
    local keep="$OUT/$MACHINE/unstored-$what"
    mkdir -p "$keep"
    cp "$1"/*.json "$keep"/
    echo "stored as runs in $keep: python3 bench/summarize.py --store $OUT $MACHINE $what" \
         "--command '$3' $keep/*.json" >&2
  fi
}

if [ $mode = cases ]; then
  cases=${CASES:-slab-210 slab-102 slab-redistribute pencil-021 pencil-210}
  run "$tmp/set" "$NP" "$SHAPE" "$@"
  store "$tmp/set" "dist-permute-np$NP" \
        "CASES=\"$cases\" CHUNKS=\"$CHUNKS\" REPS=$REPS bench/dist_sweep.sh $TOOL $NP $MACHINE $SHAPE $*"
  exit 0
fi

# Scaling: 16 GiB of floats in all (strong) or 4 GiB per rank (weak).
cases=${CASES:-slab-210 pencil-021 slab-redistribute}
weak_shape() {
  case $1 in
    1) echo 1024,1024,1024 ;;
    2) echo 1024,1024,2048 ;;
    4) echo 2048,1024,2048 ;;
    8) echo 2048,2048,2048 ;;
    *) echo "no weak-scaling shape for $1 ranks" >&2; exit 2 ;;
  esac
}
for np in $RANKS; do
  run "$tmp/strong-$np" "$np" 2048,1024,2048 "$@"
  store "$tmp/strong-$np" "dist-strong-np$np" \
        "CASES=\"$cases\" CHUNKS=\"$CHUNKS\" REPS=$REPS bench/dist_sweep.sh scaling $TOOL $MACHINE \"$RANKS\" $* (strong: $np ranks, 2048,1024,2048)"
  run "$tmp/weak-$np" "$np" "$(weak_shape "$np")" "$@"
  store "$tmp/weak-$np" "dist-weak-np$np" \
        "CASES=\"$cases\" CHUNKS=\"$CHUNKS\" REPS=$REPS bench/dist_sweep.sh scaling $TOOL $MACHINE \"$RANKS\" $* (weak: $np ranks, $(weak_shape "$np"))"
done
