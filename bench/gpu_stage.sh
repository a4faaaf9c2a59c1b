# Shared by the GPU machine's stage scripts (bench/gpu_check.sh, bench/dist_gpu.sh):
# sourced from the repository root, not run, after the script sets BUILD.
OUT=${OUT:-$PWD/out}                       # logs and results
KOKKOS=${KOKKOS:-$PWD/.deps/kokkos-cuda}   # a CUDA Kokkos install
MACHINE=${MACHINE:-h200}                   # the results store's folder
LIMIT=${LIMIT:-540}                        # seconds a stage may take
mkdir -p "$OUT"

# Runs a command for at most the time left of LIMIT (counted from when this file
# was sourced), its output into OUT/<log>; returns its status (124: stopped at
# the limit, so that a cut stage is run again and, for a build, ninja goes on).
started=$(date +%s)
limited() {
  local log=$1
  shift
  local left=$((LIMIT - ($(date +%s) - started)))
  [ $left -gt 10 ] || { echo "no time left for $log" | tee -a "$OUT/$log"; return 124; }
  local rc=0
  timeout "$left" "$@" > >(tee -a "$OUT/$log") 2>&1 || rc=$?
  [ $rc = 124 ] && echo "stopped at ${LIMIT}s: $log" | tee -a "$OUT/$log"
  return $rc
}

# Configures BUILD once (OpenMP and Cuda, sm_90, against KOKKOS; nvcc from
# /usr/local/cuda where CUDA_COMPILER does not name one) with the extra CMake
# arguments given; the tool's results name TILEKIT_COMMIT, taken from git where
# the tree has one (a copy of a working tree has none: give it).
configure_cuda() {
  if [ -z "${TILEKIT_COMMIT:-}" ] && git rev-parse HEAD >/dev/null 2>&1; then
    export TILEKIT_COMMIT=$(git rev-parse --short=12 HEAD)
  fi
  [ -n "${TILEKIT_COMMIT:-}" ] || echo "warning: no git and no TILEKIT_COMMIT: results say 'unknown'"
  [ -f "$BUILD/build.ninja" ] && return 0
  local nvcc=${CUDA_COMPILER:-/usr/local/cuda/bin/nvcc}
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$KOKKOS" \
    $( [ -x "$nvcc" ] && echo "-DCMAKE_CUDA_COMPILER=$nvcc" ) \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DTILEKIT_SPACES="OpenMP;Cuda" \
    -DTILEKIT_ENABLE_BENCHMARKS=OFF "$@" 2>&1 | tee "$OUT/configure.log"
}
