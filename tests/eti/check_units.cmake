# The generated units hold every instantiation once, however they are grouped
# (cmake/TilekitSpaces.cmake: TILEKIT_TYPES_PER_UNIT, TILEKIT_TYPES_PER_GPU_UNIT;
# cmake/TilekitToolCases.cmake: TILEKIT_TOOL_TYPES_PER_GPU_UNIT): configures
# the source tree (no build) with every count 0 (a family's types in one
# unit), 1 and 3, and fails unless the library's units (eti/), the tool's
# and the fuzz runner's case units (src/*/cases/) hold the same instantiation
# lines each time, none twice, in more units for smaller counts.
#   cmake -DSRC=<tilekit> -DWORK=<scratch folder> "-DARGS=-G|Ninja|-DKokkos_DIR=..." -P check_units.cmake
string(REPLACE "|" ";" args "${ARGS}")
set(previous "")
foreach(n 0 3 1)
  set(bin "${WORK}/n${n}")
  file(REMOVE_RECURSE "${bin}")
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${SRC}" -B "${bin}" ${args}
                          -DTILEKIT_TYPES_PER_UNIT=${n} -DTILEKIT_TYPES_PER_GPU_UNIT=${n}
                          -DTILEKIT_TOOL_TYPES_PER_GPU_UNIT=${n}
                          -DTILEKIT_ENABLE_TESTS=OFF -DTILEKIT_ENABLE_BENCHMARKS=OFF
                  OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configure with TILEKIT_TYPES_PER_UNIT=${n} failed:\n${out}")
  endif()
  file(GLOB units "${bin}/eti/*.cpp" "${bin}/src/tool/cases/*.cpp" "${bin}/src/fuzz/cases/*.cpp")
  list(LENGTH units count)
  set(lines "")
  foreach(unit IN LISTS units)
    # Each line under the file the unit includes (the tool's subcommands
    # instantiate cases of the same text, each its own function).
    file(STRINGS "${unit}" included REGEX "^#include")
    list(GET included -1 included)  # (a host space's units include backends' device_pass.hpp first)
    file(STRINGS "${unit}" unit_lines REGEX "^TILEKIT_")
    list(TRANSFORM unit_lines PREPEND "${included}: ")
    list(APPEND lines ${unit_lines})
  endforeach()
  list(LENGTH lines n_lines)
  set(unique ${lines})
  list(REMOVE_DUPLICATES unique)
  list(LENGTH unique n_unique)
  if(n_lines EQUAL 0)
    message(FATAL_ERROR "TILEKIT_TYPES_PER_UNIT=${n}: no instantiation in ${count} units")
  endif()
  if(NOT n_lines EQUAL n_unique)
    message(FATAL_ERROR "TILEKIT_TYPES_PER_UNIT=${n}: ${n_lines} instantiation lines, "
                        "${n_unique} different: some instantiated twice")
  endif()
  list(SORT unique)
  if(previous AND NOT unique STREQUAL previous)
    message(FATAL_ERROR "TILEKIT_TYPES_PER_UNIT=${n}: not the instantiations of the "
                        "previous grouping (${n_unique} lines against ${previous_n})")
  endif()
  if(previous_units AND NOT count GREATER previous_units)
    message(FATAL_ERROR "TILEKIT_TYPES_PER_UNIT=${n}: ${count} units, not more than "
                        "the ${previous_units} of the previous, larger grouping")
  endif()
  message(STATUS "TILEKIT_TYPES_PER_UNIT=${n}: ${count} units, ${n_unique} instantiations")
  set(previous "${unique}")
  set(previous_n ${n_unique})
  set(previous_units ${count})
endforeach()
file(REMOVE_RECURSE "${WORK}")
