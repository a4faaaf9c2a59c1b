#!/usr/bin/env bash
# Runs the CUDA test suite under compute-sanitizer: memcheck (with leak check)
# and initcheck over every Cuda test, racecheck and synccheck over a subset
# (they serialise and instrument every shared-memory access, ~10-100x slower).
# Only the Cuda-typed tests run (--gtest_filter '*Cuda*'): host tests have
# nothing for compute-sanitizer to see. Writes one log per (tool, binary) and
# OUT/summary.md; exits nonzero when any run reports an error, crashes or
# times out.
#
#   tests/gpu_sanitize.sh BUILD_DIR [OUT_DIR]        (e.g. /tmp/build /tmp/sanitize)
#
# Each run is capped at $TILEKIT_SANITIZE_TIMEOUT seconds (default 120), and
# runs that would start after $TILEKIT_SANITIZE_BUDGET seconds (default 420)
# are skipped and listed as such, so the script ends within 10 minutes.
# TILEKIT_SANITIZE_ONLY (a regular expression over "tool|binary", e.g.
# '^initcheck|test_fuzz') runs a part of the list.
set -uo pipefail
build=${1:?usage: gpu_sanitize.sh BUILD_DIR [OUT_DIR]}
out=${2:-$build/sanitize}
limit=${TILEKIT_SANITIZE_TIMEOUT:-120}
budget=${TILEKIT_SANITIZE_BUDGET:-420}
start=$(date +%s)
cs=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
mkdir -p "$out"
bin=$build/bin
[ -x "$bin/test_transpose" ] || bin=$build/tests
[ -x "$bin/test_transpose" ] || { echo "no test binaries under $build/bin or $build/tests" >&2; exit 2; }
export OMP_PROC_BIND=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}

# tool | binary | gtest filter | extra environment
runs=(
  # memcheck: every Cuda test of every family
  "memcheck|test_transpose|*Cuda*|"
  "memcheck|test_transpose_inplace|*Cuda*|"
  "memcheck|test_permute|*Cuda*|"
  "memcheck|test_reduce|*Cuda*|"
  "memcheck|test_cmm|*Cuda*|"
  "memcheck|test_special_values|*Cuda*|"
  "memcheck|test_concurrency|*Cuda*|"
  "memcheck|test_fuzz|*Cuda*|TILEKIT_FUZZ_CASES=1500"
  "memcheck|test_transpose_inplace_rect|*Cuda*:-*Large*|"
  "memcheck|test_half|*Cuda*|"
  "memcheck|test_permute_batched|*Cuda*|"
  "memcheck|test_tune|*Cuda*|"
  # racecheck and synccheck: the shared-memory kernels of every family (float;
  # int32 too for reduce) on small shapes, and 200 randomized cases
  "racecheck|test_transpose|Transpose/Cuda_float.EveryVariantLayoutLeft:Transpose/Cuda_float.LaunchShapeOverrides|"
  "racecheck|test_transpose_inplace|TransposeInplace/Cuda_float.*|"
  "racecheck|test_permute|PermuteStaged/Cuda_float.*:Permute/Cuda_float.MethodFollowsTheFusedPermutation|"
  "racecheck|test_reduce|Reduce/Cuda_float.EveryOperationEverySize:Reduce/Cuda_int32.EvenSplitOfRows|"
  "racecheck|test_cmm|Cmm/Cuda_float.LayoutLeftAndMixedLayouts:Cmm/Cuda_float.LaunchShapeOverrides|"
  "racecheck|test_fuzz|Fuzz/Cuda*|TILEKIT_FUZZ_CASES=200"
  "synccheck|test_transpose|Transpose/Cuda_float.EveryVariantLayoutLeft:Transpose/Cuda_float.LaunchShapeOverrides|"
  "synccheck|test_transpose_inplace|TransposeInplace/Cuda_float.*|"
  "synccheck|test_permute|PermuteStaged/Cuda_float.*:Permute/Cuda_float.MethodFollowsTheFusedPermutation|"
  "synccheck|test_reduce|Reduce/Cuda_float.EveryOperationEverySize:Reduce/Cuda_int32.EvenSplitOfRows|"
  "synccheck|test_cmm|Cmm/Cuda_float.LayoutLeftAndMixedLayouts:Cmm/Cuda_float.LaunchShapeOverrides|"
  "synccheck|test_fuzz|Fuzz/Cuda*|TILEKIT_FUZZ_CASES=200"
  "racecheck|test_transpose_inplace_rect|*Cuda*.Shapes|"
  "synccheck|test_transpose_inplace_rect|*Cuda*.Shapes|"
  # initcheck last: every Cuda test of every family
  "initcheck|test_transpose|*Cuda*|"
  "initcheck|test_transpose_inplace|*Cuda*|"
  "initcheck|test_permute|*Cuda*|"
  "initcheck|test_reduce|*Cuda*|"
  "initcheck|test_cmm|*Cuda*|"
  "initcheck|test_special_values|*Cuda*|"
  "initcheck|test_fuzz|*Cuda*|TILEKIT_FUZZ_CASES=1500"
)

summary=$out/summary.md
{
  echo "# compute-sanitizer on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)"
  echo
  echo "$("$cs" --version 2>/dev/null | tail -n1); build $build; $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "| tool | binary | filter | tests run | sanitizer errors | exit | seconds |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
} >"$summary"
status=0
for r in "${runs[@]}"; do
  IFS='|' read -r tool exe filter envs <<<"$r"
  # TILEKIT_SANITIZE_ONLY: a regular expression over "tool|binary" picks runs.
  if [ -n "${TILEKIT_SANITIZE_ONLY:-}" ] && ! [[ "$tool|$exe" =~ $TILEKIT_SANITIZE_ONLY ]]; then continue; fi
  [ -x "$bin/$exe" ] || { echo "| $tool | $exe | $filter | missing | - | - | - |" >>"$summary"; status=1; continue; }
  if [ $(( $(date +%s) - start )) -ge "$budget" ]; then
    echo "| $tool | $exe | \`$filter\` | skipped (budget of $budget s spent) | - | - | - |" >>"$summary"
    status=1; continue
  fi
  log=$out/$tool-$exe.log
  extra=()
  case $tool in
    memcheck) extra=(--leak-check full) ;;
    racecheck) extra=(--racecheck-report analysis) ;;
  esac
  t0=$(date +%s)
  env $envs timeout "$limit" "$cs" --tool "$tool" "${extra[@]}" --error-exitcode 97 \
    --print-limit 50 "$bin/$exe" --gtest_filter="$filter" --gtest_brief=1 >"$log" 2>&1
  rc=$?
  t1=$(date +%s)
  errors=$(grep -Eo 'ERROR SUMMARY: [0-9]+' "$log" | awk '{s += $3} END {print s + 0}')
  ran=$(grep -Eo '\[==========\] [0-9]+ tests? from' "$log" | tail -n1 | awk '{print $2}')
  note=$rc
  [ "$rc" -eq 124 ] && note="timeout ($limit s)"
  echo "| $tool | $exe | \`$filter\` | ${ran:-?} | $errors | $note | $((t1 - t0)) |" >>"$summary"
  echo "$tool $exe: $errors errors, exit $note, $((t1 - t0)) s"
  if [ "$rc" -ne 0 ] || [ "$errors" -ne 0 ]; then status=1; fi
done
echo >>"$summary"
if [ $status -eq 0 ]; then echo "All runs clean." >>"$summary"; else echo "**Some runs reported errors or failed: see the logs.**" >>"$summary"; fi
cat "$summary"
exit $status
