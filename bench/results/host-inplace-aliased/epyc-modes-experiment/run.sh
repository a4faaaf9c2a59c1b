export OMP_PROC_BIND=spread OMP_PLACES=threads OMP_NUM_THREADS=2
T=/tmp/exp-b/bin/tilekit
run() { echo "== m=$1 n=$2 t=$3 $4"; TILEKIT_INPLACE_MODE=$1 timeout 120 $T transpose --space openmp --n $2 --variant inplace_blocked --tile $3 --dtype $4 --reps 5 --no-check --json /tmp/epyc/res/m$1-r$r-inplace-$2-t$3-$4.json 2>&1 | grep -E "^(copy|memcpy|inplace)"; }
mkdir -p res
for r in 1 2 3; do
 for cfg in "0 128" "6 128" "6 256"; do set -- $cfg; run $1 16384 $2 float; run $1 8192 $2 float; done
 for cfg in "0 64" "6 64" "6 128"; do set -- $cfg; run $1 8192 $2 double; done
 echo "-- round $r $(date +%T)"
done
