# The optional parts of the build and the packages each needs. The library
# needs Kokkos alone; everything else is a part with one option, AUTO, ON or OFF:
#
#   AUTO (default)  built when its packages are found, else left out, and the
#                   summary at the end of the configure says why
#   ON              built; a missing package stops the configure and names it
#   OFF             not built; its packages are not searched for
#
#   part         option                     packages (find_package)
#   tests        TILEKIT_ENABLE_TESTS       GTest
#   benchmarks   TILEKIT_ENABLE_BENCHMARKS  benchmark, fmt, nlohmann_json
#   tool         TILEKIT_ENABLE_TOOL        CLI11, fmt, nlohmann_json
#   OpenBLAS     TILEKIT_ENABLE_OPENBLAS    OpenBLAS (bench_transpose's host peer)
#
# The Python module (TILEKIT_ENABLE_PYTHON) and the distributed family
# (TILEKIT_ENABLE_MPI, TILEKIT_ENABLE_NCCL) are OFF unless asked for, and then
# required. A package can be hidden from the search with the standard
# -DCMAKE_DISABLE_FIND_PACKAGE_<Package>=ON (CI's library-only configure).
#
# After tilekit_optional_part(), the option's variable holds ON or OFF (a
# normal variable over the cache entry), so `if(TILEKIT_ENABLE_TOOL)` below
# and in the subdirectories sees what is built.

set(_tilekit_summary_built "library")
set(_tilekit_summary_left "")

# Where each package comes from (the configure error names them).
set(_tilekit_hint_GTest "Debian libgtest-dev, Spack googletest")
set(_tilekit_hint_benchmark "Debian libbenchmark-dev, Spack benchmark")
set(_tilekit_hint_fmt "Debian libfmt-dev, Spack fmt")
set(_tilekit_hint_nlohmann_json "Debian nlohmann-json3-dev, Spack nlohmann-json")
set(_tilekit_hint_CLI11 "Debian libcli11-dev, Spack cli11")
set(_tilekit_hint_OpenBLAS "Debian libopenblas-dev, Spack openblas")

# tilekit_part_option(<option> <help> <default>): a tri-state cache option.
function(tilekit_part_option option help default)
  set(${option} "${default}" CACHE STRING "${help} (AUTO: when its packages are found; ON; OFF)")
  set_property(CACHE ${option} PROPERTY STRINGS AUTO ON OFF)
endfunction()

# Appends to the configure summary.
macro(tilekit_summary_built text)
  list(APPEND _tilekit_summary_built "${text}")
endmacro()
macro(tilekit_summary_left text)
  list(APPEND _tilekit_summary_left "${text}")
endmacro()

# tilekit_optional_part(<option> <part> PACKAGES <pkg> [<pkg>...] [REQUIRES <option>...])
#   <pkg>: a package name, or name@args for find_package's arguments
#   (nlohmann_json@3, OpenBLAS@CONFIG; several args joined with '@').
#   REQUIRES: options (already resolved) that must be ON for the part to build.
# Resolves <option> to ON or OFF as described above.
macro(tilekit_optional_part option part)
  cmake_parse_arguments(_tk "" "" "PACKAGES;REQUIRES" ${ARGN})
  string(TOUPPER "${${option}}" _tk_mode)
  if(_tk_mode STREQUAL "AUTO")
    set(_tk_explicit OFF)
  elseif(${option})
    set(_tk_explicit ON)
    set(_tk_mode ON)
  else()
    set(_tk_mode OFF)
  endif()

  if(_tk_mode STREQUAL "OFF")
    set(${option} OFF)
    tilekit_summary_left("${part} (${option}=OFF)")
  else()
    set(_tk_missing "")
    foreach(_tk_req IN LISTS _tk_REQUIRES)
      if(NOT ${_tk_req})
        list(APPEND _tk_missing "${_tk_req}")
      endif()
    endforeach()
    if(_tk_missing)
      if(_tk_explicit)
        message(FATAL_ERROR "${option}=ON: ${part} needs ${_tk_missing}, which is OFF")
      endif()
      set(${option} OFF)
      tilekit_summary_left("${part} (needs ${_tk_missing})")
    else()
      foreach(_tk_spec IN LISTS _tk_PACKAGES)
        string(REPLACE "@" ";" _tk_args "${_tk_spec}")
        list(POP_FRONT _tk_args _tk_pkg)
        find_package(${_tk_pkg} ${_tk_args} QUIET)
        if(NOT ${_tk_pkg}_FOUND)
          list(APPEND _tk_missing ${_tk_pkg})
        endif()
      endforeach()
      if(_tk_missing)
        if(_tk_explicit)
          set(_tk_text "")
          foreach(_tk_pkg IN LISTS _tk_missing)
            string(APPEND _tk_text "\n  ${_tk_pkg} (${_tilekit_hint_${_tk_pkg}})")
          endforeach()
          message(FATAL_ERROR
            "${option}=ON: ${part} needs packages that were not found:${_tk_text}\n"
            "Install them, point CMake at them (-D<Package>_ROOT=<prefix> or "
            "CMAKE_PREFIX_PATH), or configure with -D${option}=AUTO (or OFF) to build "
            "without ${part}.")
        endif()
        set(${option} OFF)
        string(REPLACE ";" ", " _tk_list "${_tk_missing}")
        tilekit_summary_left("${part} (${_tk_list} not found)")
      else()
        set(${option} ON)
        tilekit_summary_built("${part}")
      endif()
    endif()
  endif()
endmacro()

# The closing lines of the configure: what is built and what was left out.
function(tilekit_print_summary)
  string(REPLACE ";" ", " built "${_tilekit_summary_built}")
  message(STATUS "tilekit: building: ${built}")
  if(_tilekit_summary_left)
    string(REPLACE ";" "\n--   " left "${_tilekit_summary_left}")
    message(STATUS "tilekit: left out:\n--   ${left}")
  endif()
endfunction()
