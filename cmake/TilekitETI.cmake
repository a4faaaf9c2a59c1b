# The compiled kernel library (explicit template instantiation, as
# kokkos-kernels' KokkosKernels_INST_*): every family's kernels for each
# space of TILEKIT_SPACE_LIST x each type of TILEKIT_ETI_TYPES, compiled once
# into tilekit::tilekit, in units per family and space, or per type too on
# many cores and under nvcc (below). Programs calling a compiled pair link
# these; any other pair instantiates from the headers
# (include/tilekit/impl/common/eti.hpp).
#
# TILEKIT_ETI (ON): compile them. TILEKIT_ETI_TYPES: the element types, one
# word each (tilekit_eti_type_word below gives their C++ names: adding a type
# is a word there and in the list). Both, and the pairs, are recorded in the
# installed config.hpp: a program compiled against it declares `extern
# template` exactly the pairs the library holds.
#
# Sets TILEKIT_ETI_PAIRS (the X-macro list of config.hpp) and
# TILEKIT_ETI_SOURCES (the generated units).
option(TILEKIT_ETI "Compile the kernels of the common space x type pairs into the tilekit library" ON)
set(TILEKIT_ETI_TYPES "float;double;int32;int64;half;bhalf;cfloat;cdouble;uint8;uint16"
    CACHE STRING "Element types compiled into the library (TILEKIT_ETI): float double int32 int64 \
half bhalf cfloat cdouble, and the move-only int8 uint8 int16 uint16 uint32 uint64 bool")
# The converting permutes (and transposes) compiled, input:output: the tool's
# (src/tool/permute_convert.cpp). Others instantiate from the headers.
set(TILEKIT_ETI_CONVERSIONS "float:double;double:float;int32:float;float:half;half:float;float:bhalf;bhalf:float"
    CACHE STRING "Converting permutes compiled into the library (TILEKIT_ETI), input:output type words")

# The families with compiled instances, and the categories of types each
# takes (INTEGER: int32, int64; FLOATING: float, double and the 2-byte floats;
# COMPLEX; MOVE: the types that are moved, not reduced: 1- and 2-byte
# integers, unsigned ones, bool):
# include/tilekit/impl/<family>/definitions.hpp defines, for each category it
# takes, TILEKIT_ETI_INSTANTIATE_<FAMILY>_<CATEGORY>(Space, Type). A family
# that takes only some types of its categories lists them
# (TILEKIT_ETI_<family>_WORDS): its pairs are config.hpp's TILEKIT_ETI_PAIRS_<FAMILY>.
# The transposes are pure moves: their engines are compiled once per element
# size (tilekit_eti_move_word below), not per type, as config.hpp's
# TILEKIT_ETI_PAIRS_TRANSPOSE lists them.
set(TILEKIT_ETI_FAMILIES permute reduce cmm study study_reduce)
set(TILEKIT_ETI_permute_CATEGORIES INTEGER FLOATING COMPLEX MOVE)
set(TILEKIT_ETI_reduce_CATEGORIES INTEGER FLOATING)
set(TILEKIT_ETI_cmm_CATEGORIES FLOATING)
set(TILEKIT_ETI_cmm_WORDS float double)
# The seeds' plans (tilekit::study, include/tilekit/study/definitions.hpp),
# which the tool, the fuzz runner, the tests and the benchmarks measure the
# library against: compiled once here rather than in each of those programs'
# units. study: the rank-3 permutes and the naive transposes of every pair
# (the tool's types are the library's); study_reduce: the reduce ladder of
# the types it sums.
set(TILEKIT_ETI_study_CATEGORIES INTEGER FLOATING COMPLEX MOVE)
set(TILEKIT_ETI_study_HEADER tilekit/study/definitions.hpp)
set(TILEKIT_ETI_study_reduce_CATEGORIES INTEGER FLOATING)
set(TILEKIT_ETI_study_reduce_WORDS float double int32 int64)
set(TILEKIT_ETI_study_reduce_HEADER tilekit/study/definitions.hpp)
# How a family's instances of one space are cut into units
# (TILEKIT_ETI_<family>_KEYS; units of TILEKIT_TYPES_PER_UNIT keys, below):
# TYPE (the default) per type; SIZE per type, the types of one element size
# kept in one unit (the permute: the plans of types of one size launch the
# same moves, impl::move_t, which that unit compiles once); CATEGORY per
# category (the seeds' plans: a few small kernels per type, while each unit
# parses the headers again).
set(TILEKIT_ETI_permute_KEYS SIZE)
set(TILEKIT_ETI_study_KEYS CATEGORY)
set(TILEKIT_ETI_study_reduce_KEYS CATEGORY)

# The type words: word, C++ type, category, the guard of the 2-byte floats
# (typedefs of float in a host-only Kokkos: impl/common/eti.hpp) and bytes.
# int32 and int64 are INTEGER (reduced too); the other integers and bool are
# MOVE: the kernels move bits, so one type per size serves every type of that
# size in programs that map their moves onto it (the Python module: uint8 and
# uint16, the default list's, and int32 and int64 for 4 and 8 bytes); a
# program moving another of them itself instantiates it from the headers
# unless it is listed.
set(_tilekit_eti_words
    "float|float|FLOATING||4"
    "double|double|FLOATING||8"
    "int32|std::int32_t|INTEGER||4"
    "int64|std::int64_t|INTEGER||8"
    "int8|std::int8_t|MOVE||1"
    "uint8|std::uint8_t|MOVE||1"
    "int16|std::int16_t|MOVE||2"
    "uint16|std::uint16_t|MOVE||2"
    "uint32|std::uint32_t|MOVE||4"
    "uint64|std::uint64_t|MOVE||8"
    "bool|bool|MOVE||1"
    "half|Kokkos::Experimental::half_t|FLOATING|TILEKIT_ETI_IF_HALF|2"
    "bhalf|Kokkos::Experimental::bhalf_t|FLOATING|TILEKIT_ETI_IF_BHALF|2"
    "cfloat|Kokkos::complex<float>|COMPLEX||8"
    "cdouble|Kokkos::complex<double>|COMPLEX||16")

# tilekit_eti_type_word(<word> <out_type> <out_category> <out_guard> [<out_bytes>]):
# the word's row of the table above (its bytes: half and bhalf are 4, float,
# without 2-byte types: TILEKIT_HALF_TYPES).
function(tilekit_eti_type_word word out_type out_category out_guard)
  foreach(row IN LISTS _tilekit_eti_words)
    string(REPLACE "|" ";" fields "${row}")
    list(GET fields 0 w)
    if(w STREQUAL word)
      list(GET fields 1 t)
      list(GET fields 2 category)
      list(GET fields 3 guard)
      list(GET fields 4 bytes)
      if(guard AND NOT TILEKIT_HALF_TYPES)
        set(bytes 4)
      endif()
      set(${out_type} "${t}" PARENT_SCOPE)
      set(${out_category} "${category}" PARENT_SCOPE)
      set(${out_guard} "${guard}" PARENT_SCOPE)
      if(ARGC GREATER 4)
        set(${ARGV4} "${bytes}" PARENT_SCOPE)
      endif()
      return()
    endif()
  endforeach()
  list(TRANSFORM _tilekit_eti_words REPLACE "\\|.*" "" OUTPUT_VARIABLE words)
  list(JOIN words " " words)
  message(FATAL_ERROR "TILEKIT_ETI_TYPES: unknown type '${word}' (${words})")
endfunction()

# word -> the word and C++ type of what its pure moves move (impl::move_t):
# the unsigned integer of its size for 1, 2, 4 and 8 bytes, else the type
# (cdouble).
function(tilekit_eti_move_word word out_word out_type)
  tilekit_eti_type_word("${word}" t category guard bytes)
  if(bytes MATCHES "^(1|2|4|8)$")
    math(EXPR bits "${bytes} * 8")
    set(${out_word} "bits${bits}" PARENT_SCOPE)
    set(${out_type} "std::uint${bits}_t" PARENT_SCOPE)
  else()
    set(${out_word} "${word}" PARENT_SCOPE)
    set(${out_type} "${t}" PARENT_SCOPE)
  endif()
endfunction()

# The units: each family's (or a space's conversions') instantiations of one
# space, TILEKIT_TYPES_PER_UNIT types or conversions a unit on a host space,
# TILEKIT_TYPES_PER_GPU_UNIT on a GPU space (cmake/TilekitSpaces.cmake; 0: all
# in one unit). _tilekit_eti_unit(family group space key instantiation) adds
# the instantiation to the group <group> under the key <key> (a type word, a
# conversion, or a category for the seeds' plans, which are a few small
# kernels per type); the groups are cut into units when they are written.
set(_eti_groups "")
macro(_tilekit_eti_unit family group space key inst)
  if(NOT "${group}" IN_LIST _eti_groups)
    list(APPEND _eti_groups "${group}")
    if(DEFINED TILEKIT_ETI_${family}_HEADER)
      set(_eti_header_${group} "${TILEKIT_ETI_${family}_HEADER}")
    else()
      set(_eti_header_${group} "tilekit/impl/${family}/definitions.hpp")
    endif()
    set(_eti_space_of_${group} "${space}")
    set(_eti_keys_${group} "")
    set(_eti_by_size_${group} OFF)
  endif()
  if(NOT "${key}" IN_LIST _eti_keys_${group})
    list(APPEND _eti_keys_${group} "${key}")
    set(_eti_text_${group}__${key} "")
  endif()
  string(APPEND _eti_text_${group}__${key} "\n${inst}\n")
endmacro()

set(TILEKIT_ETI_SOURCES "")
foreach(category INTEGER FLOATING COMPLEX MOVE CMM STUDY_REDUCE CONVERT TRANSPOSE)
  set(TILEKIT_ETI_PAIRS_${category} "")
endforeach()
if(TILEKIT_ETI)
  list(REMOVE_DUPLICATES TILEKIT_ETI_TYPES)
  # The transposes' engines, once per space and element size of the types.
  foreach(space IN LISTS TILEKIT_SPACE_LIST)
    set(stype "${TILEKIT_SPACE_CXX_${space}}")
    string(TOLOWER "${space}" sname)
    set(moves "")
    foreach(word IN LISTS TILEKIT_ETI_TYPES)
      tilekit_eti_move_word("${word}" mword mtype)
      if(mword IN_LIST moves)
        continue()
      endif()
      list(APPEND moves "${mword}")
      string(APPEND TILEKIT_ETI_PAIRS_TRANSPOSE " X(${stype}, ${mtype})")
      _tilekit_eti_unit(transpose "transpose_${sname}" "${space}" "${mword}"
                        "TILEKIT_ETI_INSTANTIATE_TRANSPOSE(${stype}, ${mtype})")
    endforeach()
  endforeach()
  # half and bhalf without a GPU backend (TILEKIT_HALF_TYPES OFF) are float:
  # their guarded instantiations expand to nothing (impl/common/eti.hpp) and
  # their units would compile Kokkos' headers for no kernel, so none is
  # generated (config.hpp's lists stay the same).
  foreach(space IN LISTS TILEKIT_SPACE_LIST)
    set(stype "${TILEKIT_SPACE_CXX_${space}}")
    string(TOLOWER "${space}" sname)
    foreach(word IN LISTS TILEKIT_ETI_TYPES)
      tilekit_eti_type_word("${word}" ctype category guard)
      set(pair "X(${stype}, ${ctype})")
      if(guard)
        set(pair "${guard}(${pair})")
      endif()
      string(APPEND TILEKIT_ETI_PAIRS_${category} " ${pair}")
      if(guard AND NOT TILEKIT_HALF_TYPES)
        continue()
      endif()
      foreach(family IN LISTS TILEKIT_ETI_FAMILIES)
        if(NOT category IN_LIST TILEKIT_ETI_${family}_CATEGORIES)
          continue()
        endif()
        string(TOUPPER "${family}" FAMILY)
        if(DEFINED TILEKIT_ETI_${family}_WORDS)
          if(NOT word IN_LIST TILEKIT_ETI_${family}_WORDS)
            continue()
          endif()
          string(APPEND TILEKIT_ETI_PAIRS_${FAMILY} " ${pair}")
        endif()
        set(inst "TILEKIT_ETI_INSTANTIATE_${FAMILY}_${category}(${stype}, ${ctype})")
        if(guard)
          set(inst "${guard}(${inst})")
        endif()
        set(key "${word}")
        if(TILEKIT_ETI_${family}_KEYS STREQUAL "CATEGORY")
          string(TOLOWER "${category}" key)
        endif()
        _tilekit_eti_unit("${family}" "${family}_${sname}" "${space}" "${key}" "${inst}")
        if(TILEKIT_ETI_${family}_KEYS STREQUAL "SIZE")
          set(_eti_by_size_${family}_${sname} ON)
        endif()
      endforeach()
    endforeach()
  endforeach()
  # The converting permutes: a space's conversions (one unit each per type).
  foreach(space IN LISTS TILEKIT_SPACE_LIST)
    set(stype "${TILEKIT_SPACE_CXX_${space}}")
    string(TOLOWER "${space}" sname)
    foreach(conversion IN LISTS TILEKIT_ETI_CONVERSIONS)
      if(NOT conversion MATCHES "^([a-z0-9]+):([a-z0-9]+)$")
        message(FATAL_ERROR "TILEKIT_ETI_CONVERSIONS: '${conversion}' is not input:output")
      endif()
      set(from "${CMAKE_MATCH_1}")
      set(to "${CMAKE_MATCH_2}")
      tilekit_eti_type_word("${from}" tin cin gin)
      tilekit_eti_type_word("${to}" tout cout gout)
      set(pair "X(${stype}, ${tin}, ${tout})")
      set(inst "TILEKIT_ETI_INSTANTIATE_PERMUTE_CONVERT(${stype}, ${tin}, ${tout})")
      foreach(guard IN ITEMS ${gin} ${gout})
        set(pair "${guard}(${pair})")
        set(inst "${guard}(${inst})")
      endforeach()
      string(APPEND TILEKIT_ETI_PAIRS_CONVERT " ${pair}")
      if((gin OR gout) AND NOT TILEKIT_HALF_TYPES)
        continue()
      endif()
      _tilekit_eti_unit(permute "permute_${sname}_conversions" "${space}" "${from}_to_${to}" "${inst}")
    endforeach()
  endforeach()
  # Write the units (a unit's file is rewritten only when its text changes).
  foreach(group IN LISTS _eti_groups)
    tilekit_types_per_unit("${_eti_space_of_${group}}" n)
    if(_eti_by_size_${group})  # (TILEKIT_ETI_<family>_KEYS SIZE)
      set(sets "")
      set(mwords "")
      foreach(key IN LISTS _eti_keys_${group})
        tilekit_eti_move_word("${key}" mword mtype)
        if(NOT mword IN_LIST mwords)
          list(APPEND mwords "${mword}")
          set(_set_${mword} "${key}")
        else()
          string(APPEND _set_${mword} "+${key}")
        endif()
      endforeach()
      foreach(mword IN LISTS mwords)
        list(APPEND sets "${_set_${mword}}")
      endforeach()
      tilekit_chunk_sets(chunks "${n}" ${sets})
    else()
      tilekit_chunk_keys(chunks "${n}" ${_eti_keys_${group}})
    endif()
    list(LENGTH chunks n_chunks)
    foreach(chunk IN LISTS chunks)
      tilekit_chunk_name(unit "${group}" "${chunk}" "${n_chunks}")
      set(text "")
      string(REPLACE "+" ";" keys "${chunk}")
      foreach(key IN LISTS keys)
        string(APPEND text "${_eti_text_${group}__${key}}")
      endforeach()
      # A host space's unit: a GPU compiler's device pass skips its
      # instances (backends/tilekit/backends/device_pass.hpp).
      tilekit_host_unit_guard("${_eti_space_of_${group}}" begin end)
      file(CONFIGURE OUTPUT "${PROJECT_BINARY_DIR}/eti/${unit}.cpp" CONTENT
"// Generated by cmake/TilekitETI.cmake: compiled into the tilekit library.
${begin}#include <${_eti_header_${group}}>
${text}${end}" @ONLY)
      list(APPEND TILEKIT_ETI_SOURCES "${PROJECT_BINARY_DIR}/eti/${unit}.cpp")
    endforeach()
  endforeach()
  foreach(category INTEGER FLOATING COMPLEX MOVE CMM STUDY_REDUCE CONVERT TRANSPOSE)
    string(STRIP "${TILEKIT_ETI_PAIRS_${category}}" TILEKIT_ETI_PAIRS_${category})
  endforeach()
  list(JOIN TILEKIT_ETI_TYPES " " TILEKIT_ETI_TYPES_STRING)
  list(LENGTH TILEKIT_ETI_SOURCES _eti_units)
  message(STATUS "tilekit: compiled kernels (TILEKIT_ETI): ${TILEKIT_SPACE_LIST} x ${TILEKIT_ETI_TYPES_STRING}, ${_eti_units} units")
else()
  set(TILEKIT_ETI_TYPES_STRING "")
  message(STATUS "tilekit: compiled kernels off (TILEKIT_ETI=OFF): every program instantiates its own")
endif()
