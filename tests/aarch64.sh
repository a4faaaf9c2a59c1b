#!/usr/bin/env bash
# The host test suite for 64-bit ARM (aarch64), cross-compiled on an x86-64
# Debian/Ubuntu machine and run under qemu-user: Kokkos (Serial + OpenMP,
# C++20, ARMv8.0 with NEON), GoogleTest, the library and its test programs
# (no tool, benchmarks or Python module), then ctest through the emulator.
#
#   tests/aarch64.sh [ctest arguments, e.g. -R Transpose]
#
# Needs: apt-get install g++-aarch64-linux-gnu qemu-user googletest cmake ninja-build
# (googletest is the source that libgtest-dev installs in /usr/src/googletest),
# and the Kokkos 4.6.01 release source: TILEKIT_KOKKOS_SOURCE (a tarball or an
# unpacked folder), else shared/kokkos/kokkos-4.6.01*.tar.gz beside the checkout
# or up to two folders above it, else the release is downloaded.
# Environment (defaults in brackets):
#   TILEKIT_AARCH64_DEPS   Kokkos and GoogleTest built for aarch64, reused [.deps/aarch64]
#   TILEKIT_AARCH64_BUILD  tilekit's build folder [build-aarch64]
#   TILEKIT_ETI_TYPES      the compiled kernels' types [the library's default]
#   TILEKIT_TESTS          test families to build [all]
#   JOBS                   parallel compiles [nproc]
# ccache is used when installed (CMAKE_CXX_COMPILER_LAUNCHER). Timings under
# emulation mean nothing; the run checks that results are right on aarch64.
set -euo pipefail
{  # read whole before it runs: an edit of this file during a run does not change the run
cd "$(dirname "$0")/.."
src=$(pwd)
triple=aarch64-linux-gnu
toolchain=$src/cmake/toolchains/$triple.cmake
deps=${TILEKIT_AARCH64_DEPS:-$src/.deps/aarch64}
build=${TILEKIT_AARCH64_BUILD:-$src/build-aarch64}
jobs=${JOBS:-$(nproc)}
kokkos_version=4.6.01
start=$SECONDS

missing=()
command -v $triple-g++ >/dev/null || missing+=("g++-$triple (the cross compiler $triple-g++)")
command -v qemu-aarch64 >/dev/null || missing+=("qemu-user (qemu-aarch64)")
[ -f /usr/src/googletest/CMakeLists.txt ] ||
  missing+=("googletest (GoogleTest's source in /usr/src/googletest)")
command -v cmake >/dev/null || missing+=("cmake")
if [ ${#missing[@]} -gt 0 ]; then
  echo "aarch64.sh: missing on this machine:" >&2
  printf '  - %s\n' "${missing[@]}" >&2
  echo "install them with:" >&2
  echo "  sudo apt-get install -y g++-$triple qemu-user googletest cmake ninja-build" >&2
  exit 2
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] && command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(cd .. && pwd)} CCACHE_NOHASHDIR=1
fi
cross=(-DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release "${generator[@]}")
mkdir -p "$deps"

# GoogleTest for aarch64, from Debian's source (Debian ships no arm64 build
# an x86 machine can install without multiarch).
gtest=$deps/googletest
if [ ! -f "$gtest/.built" ]; then
  echo "== GoogleTest for $triple into $gtest"
  rm -rf "$deps/googletest-build" "$gtest"
  cmake -S /usr/src/googletest -B "$deps/googletest-build" "${cross[@]}" \
    -DCMAKE_INSTALL_PREFIX="$gtest" -DBUILD_GMOCK=OFF -DCMAKE_CXX_STANDARD=20 >/dev/null
  cmake --build "$deps/googletest-build" -j"$jobs" >"$deps/googletest-build.log" 2>&1 ||
    { cat "$deps/googletest-build.log"; exit 1; }
  cmake --install "$deps/googletest-build" >/dev/null
  rm -rf "$deps/googletest-build"
  touch "$gtest/.built"
fi

# Kokkos for aarch64: Serial + OpenMP, C++20, ARMv8.0 (-march=armv8-a, which
# every 64-bit ARM CPU runs, and Kokkos' NEON simd).
kokkos=$deps/kokkos-$kokkos_version
if [ ! -f "$kokkos/.built" ]; then
  source_dir=${TILEKIT_KOKKOS_SOURCE:-}
  if [ -z "$source_dir" ]; then
    for d in .. ../.. ../../..; do
      for t in "$d"/shared/kokkos/kokkos-$kokkos_version*.tar.gz; do
        [ -f "$t" ] && { source_dir=$(cd "$(dirname "$t")" && pwd)/$(basename "$t"); break 2; }
      done
    done
  fi
  work=$deps/kokkos-src
  rm -rf "$work" "$kokkos" && mkdir -p "$work"
  if [ -z "$source_dir" ]; then
    url=https://github.com/kokkos/kokkos/releases/download/$kokkos_version
    url=$url/kokkos-$kokkos_version.tar.gz
    echo "== no Kokkos source (TILEKIT_KOKKOS_SOURCE, shared/kokkos): downloading $url"
    curl -fsSL "$url" -o "$work/kokkos.tar.gz"
    source_dir=$work/kokkos.tar.gz
  fi
  if [ -f "$source_dir" ]; then
    tar xzf "$source_dir" -C "$work"
    top=$work  # the release tarball unpacks into kokkos-<version>/, the shared one into ./
    [ -f "$top/CMakeLists.txt" ] || top=$(dirname "$(ls "$work"/*/CMakeLists.txt | head -1)")
  else
    top=$source_dir
  fi
  echo "== Kokkos $kokkos_version for $triple from $source_dir into $kokkos"
  cmake -S "$top" -B "$work/build" "${cross[@]}" -DCMAKE_INSTALL_PREFIX="$kokkos" \
    -DCMAKE_CXX_STANDARD=20 -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON \
    -DKokkos_ARCH_ARMV80=ON -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF >/dev/null
  cmake --build "$work/build" -j"$jobs"
  cmake --install "$work/build" >/dev/null
  rm -rf "$work"
  touch "$kokkos/.built"
fi
deps_done=$SECONDS

# tilekit: the library and the test programs.
echo "== tilekit for $triple in $build"
config=(-DCMAKE_PREFIX_PATH="$kokkos;$gtest" -DTILEKIT_ENABLE_TESTS=ON
        -DTILEKIT_ENABLE_TOOL=OFF -DTILEKIT_ENABLE_BENCHMARKS=OFF -DTILEKIT_ENABLE_PYTHON=OFF)
[ -n "${TILEKIT_ETI_TYPES:-}" ] && config+=(-DTILEKIT_ETI_TYPES="$TILEKIT_ETI_TYPES")
[ -n "${TILEKIT_TESTS:-}" ] && config+=(-DTILEKIT_TESTS="$TILEKIT_TESTS")
cmake -S . -B "$build" "${cross[@]}" "${config[@]}"
cmake --build "$build" -j"$jobs"
build_done=$SECONDS

echo "== ctest under $(qemu-aarch64 --version | head -1)"
export OMP_PROC_BIND=${OMP_PROC_BIND:-false} OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
rc=0
# Emulation runs the programs many times slower than a native CPU: a long timeout.
ctest --test-dir "$build" -j"$jobs" --output-on-failure --timeout 3000 "$@" \
  | tee "$build/ctest-aarch64.log" || rc=$?
end=$SECONDS

times > "$build/times.txt"  # this shell's children (compilers, ctest, qemu), not a subshell's
read -r cu cs < <(tail -1 "$build/times.txt" | awk '{ for (i = 1; i <= 2; i++) {
  split($i, a, "m"); sub("s", "", a[2]); t[i] = a[1] * 60 + a[2] } print t[1], t[2] }')
echo "== aarch64 summary"
echo "compiler:  $($triple-g++ --version | head -1)"
echo "emulator:  $(qemu-aarch64 --version | head -1)"
echo "commit:    $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "tests:     $(grep -E 'tests passed|tests failed' "$build/ctest-aarch64.log" | tail -1)"
echo "wall:      Kokkos and GoogleTest $((deps_done - start)) s," \
     "tilekit build $((build_done - deps_done)) s, ctest $((end - build_done)) s"
echo "CPU:       $(awk -v u="$cu" -v s="$cs" \
  'BEGIN { printf "%.0f s (user %.0f, system %.0f)", u + s, u, s }') in this script's children"
exit $rc
}
