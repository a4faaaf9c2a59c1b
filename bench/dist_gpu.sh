#!/usr/bin/env bash
# The distributed permute on a machine of several GPUs (issues #55 and #56):
# build test_dist and the tool with MPI and NCCL, run the tests with both
# engines, the cases of bench/dist_sweep.sh against NCCL's all-to-all, and the
# strong / weak scaling sets. One stage per call, each within LIMIT seconds
# (the build resumes where a cut one stopped); logs and JSON results under OUT.
#
#   bench/dist_gpu.sh build             configure (once) and build test_dist, tilekit_tool
#   bench/dist_gpu.sh test NP           test_dist on NP ranks: MPI engine, then NCCL engine;
#                                       ctest's dist_nccl_<NP>gpu label
#   bench/dist_gpu.sh cases NP          slab (2,1,0), slab (1,0,2), pencil (0,2,1) and the
#                                       slab -> slab redistribution, 8 GiB of floats
#                                       (1024 x 1024 x 2048), NCCL engine, each --chunks of
#                                       CHUNKS (default "0 1 2 4 8 16"; 0: the plan's choice)
#   bench/dist_gpu.sh scaling "1 2 4"   issue #56's strong (16 GiB) and weak (4 GiB a GPU) sets
#
# Environment: OUT (default ./out), BUILD (/tmp/build-dist), KOKKOS (a CUDA
# Kokkos, default .deps/kokkos-cuda), TILEKIT_COMMIT (the commit the results
# name, where the tree has no .git), MACHINE (results folder, default h200),
# LIMIT (seconds a stage may take, default 540), REPS (10). NVLink multicast
# is off on every rank (NCCL_NVLS_ENABLE=0, passed with mpirun -x).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-/tmp/build-dist}
. bench/gpu_stage.sh  # OUT, KOKKOS, MACHINE, LIMIT defaults; limited, configure_cuda
export REPS=${REPS:-10}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 OMP_PROC_BIND=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
stage=${1:-}
shift || true


case $stage in
  build)
    configure_cuda -DTILEKIT_ENABLE_MPI=ON -DTILEKIT_ENABLE_NCCL=ON -DTILEKIT_DIST_TEST_ENGINE=mpi
    # Stopped at the limit (124): run this stage again, ninja goes on.
    limited build.log cmake --build "$BUILD" --target test_dist tilekit_tool -j "$(nproc)"
    ;;
  test)
    np=${1:?ranks}
    for engine in mpi nccl; do
      echo "== test_dist, $np ranks, engine $engine" | tee -a "$OUT/test-np$np-$engine.log"
      limited "test-np$np-$engine.log" mpirun -n "$np" -x NCCL_NVLS_ENABLE -x OMP_PROC_BIND \
        -x OMP_NUM_THREADS -x TILEKIT_TEST_ENGINE="$engine" "$BUILD/tests/dist/test_dist" || true
    done
    limited "ctest-nccl-np$np.log" ctest --test-dir "$BUILD" -L "dist_nccl_${np}gpu" \
      --output-on-failure || true
    ;;
  cases)
    np=${1:?ranks}
    OUT=$OUT CASES="slab-210 slab-102 pencil-021 slab-redistribute" CHUNKS=${CHUNKS:-0 1 2 4 8 16} \
      limited "cases-np$np.log" bench/dist_sweep.sh "$BUILD/bin/tilekit" "$np" "$MACHINE" \
      1024,1024,2048 --space cuda --engine nccl --dtype float
    ;;
  scaling)
    ranks=${1:-1 2 4}
    OUT=$OUT CHUNKS=${CHUNKS:-0} limited "scaling.log" bench/dist_sweep.sh scaling \
      "$BUILD/bin/tilekit" "$MACHINE" "$ranks" --space cuda --engine nccl --dtype float
    ;;
  *)
    sed -n '2,22p' "$0"
    exit 2
    ;;
esac
