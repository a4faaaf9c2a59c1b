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
# Each space's C++ type, as the generated units name it.
set(TILEKIT_SPACE_CXX_SERIAL "Kokkos::Serial")
set(TILEKIT_SPACE_CXX_OPENMP "Kokkos::OpenMP")
set(TILEKIT_SPACE_CXX_CUDA "Kokkos::Cuda")

# Generated units (the library's compiled kernels, cmake/TilekitETI.cmake; the
# tool's and the fuzz runner's cases, cmake/TilekitToolCases.cmake): each
# family's units of one space hold TILEKIT_TYPES_PER_UNIT of its types (or
# conversions) each, 0 meaning all of them in one unit. Every unit parses
# Kokkos' and tilekit's headers again before its kernels: a few seconds of g++,
# about 13 s of nvcc (host and device passes), so fewer units cost less CPU;
# more units build in parallel on many cores. Defaults: on a host space, one
# unit per type where g++ has TILEKIT_TYPE_UNITS_CORES logical cores or more
# (no long unit in a parallel build), else all types in one unit (nvcc
# included: with the kernels in the library a host family's unit of every type
# takes a few minutes of nvcc, where units per type pay nvcc's two passes over
# the headers once per type); on a GPU space TILEKIT_TYPES_PER_GPU_UNIT (3: one
# device unit of all the permute's types would outlast the rest of the build).
# The tool's and the fuzz runner's case units of a GPU space follow their own
# count instead, TILEKIT_TOOL_TYPES_PER_GPU_UNIT (cmake/TilekitToolCases.cmake:
# they launch the library's kernels, so most of their time is the headers).
# TILEKIT_TOOL_TYPE_UNITS_CORES is the threshold's former name.
cmake_host_system_information(RESULT _tilekit_build_cores QUERY NUMBER_OF_LOGICAL_CORES)
set(_tilekit_type_units_default 8)
if(DEFINED TILEKIT_TOOL_TYPE_UNITS_CORES)
  set(_tilekit_type_units_default "${TILEKIT_TOOL_TYPE_UNITS_CORES}")
endif()
set(TILEKIT_TYPE_UNITS_CORES "${_tilekit_type_units_default}" CACHE STRING
    "Build machines with this many logical cores or more compile tilekit's generated host \
units one per type with g++ (0: never)")
set(_tilekit_host_types_default 0)
if(NOT Kokkos_COMPILE_LANGUAGE STREQUAL "CUDA" AND TILEKIT_TYPE_UNITS_CORES GREATER 0 AND
   _tilekit_build_cores GREATER_EQUAL TILEKIT_TYPE_UNITS_CORES)
  set(_tilekit_host_types_default 1)
endif()
set(TILEKIT_TYPES_PER_UNIT "${_tilekit_host_types_default}" CACHE STRING
    "Types (or conversions) per generated unit of a host space (0: all of a family's in one)")
set(TILEKIT_TYPES_PER_GPU_UNIT 3 CACHE STRING
    "Types (or conversions) per generated unit of a GPU space (0: all of a family's in one)")
foreach(_n IN ITEMS "${TILEKIT_TYPES_PER_UNIT}" "${TILEKIT_TYPES_PER_GPU_UNIT}")
  if(NOT _n MATCHES "^[0-9]+$")
    message(FATAL_ERROR "TILEKIT_TYPES_PER_UNIT / TILEKIT_TYPES_PER_GPU_UNIT: '${_n}' is not a count")
  endif()
endforeach()

# tilekit_types_per_unit(<SPACE> <out>): the count for a space of TILEKIT_SPACE_LIST.
function(tilekit_types_per_unit space out)
  if(space STREQUAL "CUDA")
    set(${out} "${TILEKIT_TYPES_PER_GPU_UNIT}" PARENT_SCOPE)
  else()
    set(${out} "${TILEKIT_TYPES_PER_UNIT}" PARENT_SCOPE)
  endif()
endfunction()

# tilekit_chunk_keys(<out> <n> <key>...): the keys in groups of n (0: one
# group), each group's keys joined by "+", in order.
function(tilekit_chunk_keys out n)
  set(groups "")
  set(cur "")
  set(count 0)
  foreach(k IN LISTS ARGN)
    if(cur STREQUAL "")
      set(cur "${k}")
    else()
      string(APPEND cur "+${k}")
    endif()
    math(EXPR count "${count} + 1")
    if(n GREATER 0 AND count EQUAL n)
      list(APPEND groups "${cur}")
      set(cur "")
      set(count 0)
    endif()
  endforeach()
  if(NOT cur STREQUAL "")
    list(APPEND groups "${cur}")
  endif()
  set(${out} "${groups}" PARENT_SCOPE)
endfunction()

# tilekit_chunk_sets(<out> <n> <set>...): as tilekit_chunk_keys, for sets of
# keys ("a+b": keys that share code, kept in one unit so it is compiled once
# there): each set whole where it has at most n keys, sets packed into groups
# of at most n keys, largest first, each into the first group it fits.
function(tilekit_chunk_sets out n)
  if(NOT n GREATER 0)
    string(JOIN "+" all ${ARGN})
    set(${out} "${all}" PARENT_SCOPE)
    return()
  endif()
  # Largest first (a stable order among equals), sets of more than n keys cut.
  set(pieces "")
  foreach(i RANGE 1 ${n})
    math(EXPR size "${n} + 1 - ${i}")
    foreach(set IN LISTS ARGN)
      string(REPLACE "+" ";" keys "${set}")
      tilekit_chunk_keys(cut "${n}" ${keys})
      foreach(piece IN LISTS cut)
        string(REPLACE "+" ";" pk "${piece}")
        list(LENGTH pk np)
        if(np EQUAL size)
          list(APPEND pieces "${piece}")
        endif()
      endforeach()
    endforeach()
  endforeach()
  set(groups "")
  foreach(piece IN LISTS pieces)
    string(REPLACE "+" ";" pk "${piece}")
    list(LENGTH pk np)
    set(placed OFF)
    list(LENGTH groups ng)
    if(ng GREATER 0)
      math(EXPR last "${ng} - 1")
      foreach(i RANGE ${last})
        list(GET groups ${i} g)
        string(REPLACE "+" ";" gk "${g}")
        list(LENGTH gk ngk)
        math(EXPR total "${ngk} + ${np}")
        if(total LESS_EQUAL n)
          list(REMOVE_AT groups ${i})
          list(INSERT groups ${i} "${g}+${piece}")
          set(placed ON)
          break()
        endif()
      endforeach()
    endif()
    if(NOT placed)
      list(APPEND groups "${piece}")
    endif()
  endforeach()
  set(${out} "${groups}" PARENT_SCOPE)
endfunction()

# A group's unit name: <base> for one group of every key, <base>_<key> for a
# group of one key, else <base>_<first key>_<last key>.
function(tilekit_chunk_name out base group n_groups)
  string(REPLACE "+" ";" keys "${group}")
  list(LENGTH keys nk)
  if(n_groups EQUAL 1 AND NOT nk EQUAL 1)
    set(${out} "${base}" PARENT_SCOPE)
  elseif(nk EQUAL 1)
    set(${out} "${base}_${group}" PARENT_SCOPE)
  else()
    list(GET keys 0 first)
    list(GET keys -1 last)
    set(${out} "${base}_${first}_${last}" PARENT_SCOPE)
  endif()
endfunction()

# tilekit_host_unit_guard(<space> <out_begin> <out_end>): the lines a generated
# unit of <space> starts and ends its body with: beside a GPU backend (every
# unit then goes through the GPU compiler), a host space's (Serial, OpenMP)
# body under #if !TILEKIT_DEVICE_PASS, so that the device pass parses Kokkos
# only (backends/tilekit/backends/device_pass.hpp); else nothing.
function(tilekit_host_unit_guard space out_begin out_end)
  if(NOT space STREQUAL "CUDA" AND "CUDA" IN_LIST _tilekit_enabled)
    set(${out_begin} "#include <tilekit/backends/device_pass.hpp>\n#if !TILEKIT_DEVICE_PASS  // a host space's unit: no device code\n" PARENT_SCOPE)
    set(${out_end} "#endif  // !TILEKIT_DEVICE_PASS\n" PARENT_SCOPE)
  else()
    set(${out_begin} "" PARENT_SCOPE)
    set(${out_end} "" PARENT_SCOPE)
  endif()
endfunction()
