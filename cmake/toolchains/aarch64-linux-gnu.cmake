# Cross-compiling for 64-bit ARM Linux (aarch64: Apple M-series under Linux,
# Snapdragon and Graviton machines) with Debian's cross compiler, the
# programs run under qemu-user (tests/aarch64.sh builds everything with it):
#
#   apt-get install g++-aarch64-linux-gnu qemu-user
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake \
#         -DCMAKE_PREFIX_PATH="<aarch64 Kokkos>;<aarch64 GoogleTest>"
#
# Libraries, headers and packages are looked for only under the target's roots:
# Debian's aarch64 tree and each prefix of CMAKE_PREFIX_PATH (which therefore
# must hold aarch64 builds), so that an x86 Kokkos or GoogleTest of the build
# machine is never picked up; programs (python3, qemu) come from the build machine.
# TILEKIT_AARCH64_TRIPLE and TILEKIT_AARCH64_ROOT select another cross compiler
# and its target tree (e.g. aarch64-linux-gnu- from a vendor toolchain).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

if(NOT DEFINED TILEKIT_AARCH64_TRIPLE)
  set(TILEKIT_AARCH64_TRIPLE aarch64-linux-gnu)
endif()
if(NOT DEFINED TILEKIT_AARCH64_ROOT)
  set(TILEKIT_AARCH64_ROOT /usr/${TILEKIT_AARCH64_TRIPLE})
endif()
set(CMAKE_C_COMPILER ${TILEKIT_AARCH64_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${TILEKIT_AARCH64_TRIPLE}-g++)
# try_compile re-reads this file: keep the two settings in its projects too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TILEKIT_AARCH64_TRIPLE TILEKIT_AARCH64_ROOT)

list(APPEND CMAKE_FIND_ROOT_PATH ${TILEKIT_AARCH64_ROOT} ${CMAKE_PREFIX_PATH})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest (add_test with a target, gtest_discover_tests) runs the programs
# through the emulator, with the target's shared libraries from its root.
find_program(TILEKIT_QEMU_AARCH64 qemu-aarch64 NO_CMAKE_FIND_ROOT_PATH)
if(TILEKIT_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${TILEKIT_QEMU_AARCH64} -L ${TILEKIT_AARCH64_ROOT})
endif()
