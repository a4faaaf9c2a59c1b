# The execution spaces tilekit's own programs (tool, tests, fuzz runner,
# benchmarks) instantiate: TILEKIT_SPACES, a list of Serial, OpenMP and Cuda
# (any case); empty, every space this Kokkos enables. The library itself takes
# any space; this only trims what tilekit compiles for itself. Under nvcc
# every host case compiles through the device front end too, so a GPU build
# that leaves Serial out (-DTILEKIT_SPACES="OpenMP;Cuda") builds the tool and
# the tests in about two thirds of the time.
#
# Sets TILEKIT_SPACE_LIST (SERIAL, OPENMP, CUDA: the selected ones, in that
# order); the programs see TILEKIT_SPACE_<NAME>=1 (tilekit_private_flags).
set(TILEKIT_SPACES "" CACHE STRING
    "Execution spaces tilekit's tool, tests and benchmarks instantiate (Serial;OpenMP;Cuda); empty: every space Kokkos enables")

set(_tilekit_enabled)
foreach(space SERIAL OPENMP CUDA)
  if(Kokkos_ENABLE_${space} OR space IN_LIST Kokkos_DEVICES)
    list(APPEND _tilekit_enabled ${space})
  endif()
endforeach()

# Kokkos' half_t and bhalf_t are types of their own only beside a GPU backend
# (elsewhere typedefs of float): the library's compiled kernels and the tool's
# cases take them only then.
set(TILEKIT_HALF_TYPES OFF)
if("CUDA" IN_LIST _tilekit_enabled)
  set(TILEKIT_HALF_TYPES ON)
endif()

if(TILEKIT_SPACES)
  set(_tilekit_wanted)
  foreach(space IN LISTS TILEKIT_SPACES)
    string(TOUPPER "${space}" up)
    if(NOT up MATCHES "^(SERIAL|OPENMP|CUDA)$")
      message(FATAL_ERROR "TILEKIT_SPACES: unknown space '${space}' (Serial, OpenMP or Cuda)")
    endif()
    if(NOT up IN_LIST _tilekit_enabled)
      message(FATAL_ERROR "TILEKIT_SPACES: '${space}' is not enabled in this Kokkos (it has: ${_tilekit_enabled})")
    endif()
    list(APPEND _tilekit_wanted ${up})
  endforeach()
  set(TILEKIT_SPACE_LIST)
  foreach(space SERIAL OPENMP CUDA)  # Kokkos' order, whatever the order given
    if(space IN_LIST _tilekit_wanted)
      list(APPEND TILEKIT_SPACE_LIST ${space})
    endif()
  endforeach()
else()
  set(TILEKIT_SPACE_LIST ${_tilekit_enabled})
endif()
message(STATUS "tilekit: the tool, tests and benchmarks instantiate ${TILEKIT_SPACE_LIST}")

# Generated units (the library's compiled kernels, cmake/TilekitETI.cmake; the
# tool's and the fuzz runner's cases, cmake/TilekitToolCases.cmake): one per
# type where the build machine has TILEKIT_TYPE_UNITS_CORES logical cores or
# more (a parallel build, no long unit), else one per family and host space,
# all its types (each unit parses Kokkos' and tilekit's headers again, a few
# seconds of g++ before any kernel: on 2 cores that dominates the small units).
# 0: one per host space everywhere. Under nvcc and on a GPU space the units are
# one per type whatever the cores (one unit of the permute's host types took
# about 16 minutes of nvcc). TILEKIT_TOOL_TYPE_UNITS_CORES is its former name.
cmake_host_system_information(RESULT _tilekit_build_cores QUERY NUMBER_OF_LOGICAL_CORES)
set(_tilekit_type_units_default 8)
if(DEFINED TILEKIT_TOOL_TYPE_UNITS_CORES)
  set(_tilekit_type_units_default "${TILEKIT_TOOL_TYPE_UNITS_CORES}")
endif()
set(TILEKIT_TYPE_UNITS_CORES "${_tilekit_type_units_default}" CACHE STRING
    "Build machines with this many logical cores or more compile tilekit's generated host \
units one per type (0: never)")
set(TILEKIT_UNITS_PER_TYPE OFF)  # on the host spaces
if(Kokkos_COMPILE_LANGUAGE STREQUAL "CUDA" OR
   (TILEKIT_TYPE_UNITS_CORES GREATER 0 AND _tilekit_build_cores GREATER_EQUAL TILEKIT_TYPE_UNITS_CORES))
  set(TILEKIT_UNITS_PER_TYPE ON)
endif()
