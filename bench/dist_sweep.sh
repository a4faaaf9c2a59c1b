#!/usr/bin/env bash
# Distributed permute figures (tilekit dist-permute, TILEKIT_ENABLE_MPI builds):
# 3-D slab and pencil permutations, each against the engine's all-to-all of
# the same bytes in the same run, one JSON per case under OUT.
#
#   bench/dist_sweep.sh TOOL NP LABEL SHAPE [tool options...]
#   bench/dist_sweep.sh build-mpi/bin/tilekit 4 cpu 256,256,256 --space openmp
#   MPIRUN_FLAGS="--allow-run-as-root --oversubscribe" bench/dist_sweep.sh \
#       /tmp/build/bin/tilekit 2 h200-2rank 1024,1024,2048 --space cuda --engine mpi
#
# Cases: the slab transpose (2,1,0); a slab permutation that keeps the fastest
# dimension (1,0,2); a redistribution from slabs along dimension 0 to slabs
# along dimension 2 (0,1,2); pencil permutations (0,2,1) and (2,1,0).
set -euo pipefail
TOOL=$1 NP=$2 LABEL=$3 SHAPE=$4
shift 4
OUT=${OUT:-bench/results}
MPIRUN=${MPIRUN:-mpirun}
REPS=${REPS:-10}
mkdir -p "$OUT"
run() {
  local name=$1
  shift
  echo "== $name"
  $MPIRUN ${MPIRUN_FLAGS:-} -n "$NP" "$TOOL" dist-permute --shape "$SHAPE" --reps "$REPS" \
    --json "$OUT/dist-$LABEL-$name.json" "$@"
}
run slab-210 --perm 2,1,0 --grid slab "$@"
run slab-102 --perm 1,0,2 --grid slab "$@"
run slab-redistribute --perm 0,1,2 --in-grid "$NP" --in-dims 0 --out-grid "$NP" --out-dims 2 "$@"
run pencil-021 --perm 0,2,1 --grid pencil "$@"
run pencil-210 --perm 2,1,0 --grid pencil "$@"
