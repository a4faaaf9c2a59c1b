#!/usr/bin/env bash
# Issue #59 on a GPU machine, in two calls of a few minutes: build the tool
# (and, if asked, test programs), then run the awkward set with PyTorch's rows
# and the regression gate against the committed runs of this device, the 5-D
# case alone, and (with OLD_TOOL) the cases whose permute box the choose_box
# rule changes, beside a tool built before the change. Logs and results go
# under OUT (results in OUT/results/MACHINE/, bench/summarize.py's store).
#
#   bench/gpu_check.sh build      configure (once) and build tilekit_tool, and TESTS
#   bench/gpu_check.sh run        the awkward set + PyTorch + --compare, the 5-D case, the A/B
#   bench/gpu_check.sh tests      run the test programs TESTS built (their Cuda cases too)
#
# Environment: OUT (default ./out), BUILD (/tmp/build-gpu59), KOKKOS (a CUDA
# Kokkos, default .deps/kokkos-cuda), TILEKIT_COMMIT (the commit the results
# name, where the tree has no .git), MACHINE (results folder and the committed
# runs compared against, default h200), TOOL (default BUILD/bin/tilekit),
# OLD_TOOL (a tool built before the choose_box change, e.g. at 8ab4adb; no
# A/B without it), TESTS (test targets, e.g. "test_tune test_permute"; none by
# default), FAMILIES (default "transpose permute reduce"), REPS (20), LIMIT
# (seconds a stage may take, default 540), PYTHON (python3 with PyTorch).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-/tmp/build-gpu59}
. bench/gpu_stage.sh  # OUT, KOKKOS, MACHINE, LIMIT defaults; limited, configure_cuda
TOOL=${TOOL:-$BUILD/bin/tilekit}
TESTS=${TESTS:-}
PYTHON=${PYTHON:-python3}
export REPS=${REPS:-20} FAMILIES=${FAMILIES:-transpose permute reduce} PYTHON
export OMP_PROC_BIND=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
stage=${1:-}


# The newest committed awkward result of each family run here, of this machine.
committed() {
  local family
  for family in $FAMILIES; do
    ls bench/results/"$MACHINE"/*-awkward-"$family"*.json 2>/dev/null | sort | tail -n 1
  done
}

# Cases whose box the choose_box rule changes (both runs at their targets, a
# store run of two dimensions, rows of an outer dimension instead of a longer
# run), and one it leaves alone (the control).
AB_CASES=("32,32,32,32,256 2,0,1,4,3" "32,32,32,32,256 0,1,2,4,3" "24,40,43,5,57 2,1,3,4,0"
          "6,7,1200,9,11 0,2,3,4,1" "43408,4,31,37 0,2,3,1" "3,4096,4096,5 3,1,2,0")

case $stage in
  build)
    configure_cuda
    # Stopped at the limit (124): run this stage again, ninja goes on.
    limited build.log cmake --build "$BUILD" --target tilekit_tool $TESTS -j "$(nproc)"
    ;;
  run)
    [ -x "$TOOL" ] || { echo "no tool at $TOOL: run the build stage first" >&2; exit 2; }
    "$PYTHON" -c 'import torch; print("PyTorch", torch.__version__, "CUDA", torch.cuda.is_available())' \
      2>&1 | tee "$OUT/torch.log" || true
    # 1. The awkward set, PyTorch's rows beside it, against the committed runs.
    compare=()
    for f in $(committed); do compare+=(--compare "$f"); done
    echo "compared against: ${compare[*]:-nothing committed for $MACHINE}" | tee "$OUT/awkward.log"
    rc=0
    limited awkward.log env OUT="$OUT/results" bench/awkward.sh "${compare[@]}" "$TOOL" cuda \
      "$MACHINE" || rc=$?
    echo "awkward.sh exit status $rc (1: a case fell more than 5 points; 2: refused)" |
      tee -a "$OUT/awkward.log"
    # 2. The 5-D case alone: the default launch, and four tiles a team (the
    # tables a team copies, shared by four tiles).
    for tpt in 0 4; do
      limited 5d.log "$TOOL" permute --shape 32,32,32,32,256 --perm 2,0,1,4,3 --dtype float \
        --variant fused --space cuda --reps "$REPS" $( [ $tpt = 0 ] || echo "--tiles-per-team $tpt" ) \
        --json "$OUT/5d-tpt$tpt.json" || true
    done
    # 3. The choose_box A/B: the same cases with the tool before the change.
    if [ -n "${OLD_TOOL:-}" ]; then
      for c in "${AB_CASES[@]}"; do
        set -- $c
        for t in "$TOOL" "$OLD_TOOL"; do
          echo "== $(basename "$t") $1 perm $2" | tee -a "$OUT/ab.log"
          limited ab.log "$t" permute --shape "$1" --perm "$2" --dtype float --variant fused \
            --space cuda --reps "$REPS" || true
        done
      done
    fi
    exit $rc
    ;;
  tests)
    for t in $TESTS; do
      exe=$(find "$BUILD/tests" -maxdepth 2 -type f -name "$t" | head -n 1)
      [ -n "$exe" ] || { echo "no $t in $BUILD/tests" | tee -a "$OUT/tests.log"; continue; }
      echo "== $t" | tee -a "$OUT/tests.log"
      limited tests.log "$exe" || true
    done
    ;;
  *)
    sed -n '2,21p' "$0"
    exit 2
    ;;
esac
