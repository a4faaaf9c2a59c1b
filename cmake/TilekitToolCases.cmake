# The tool's measurement functions, one per family, are templates over the
# execution space and the value type. Compiled in one translation unit per
# subcommand, the permute's (seven types x every space x every rank and
# layout) takes longer under nvcc than a GPU build can wait. So each
# subcommand's case function is declared in a header of its own
# (<op>_case.hpp, with the macro that instantiates one case) and defined in
# another (<op>_case_def.hpp); CMake generates the units that include the
# definition and instantiate the cases, per space (units per space below),
# and the list of every case, which the subcommand's source (the command line)
# includes to declare them `extern` (TILEKIT_TOOL_CASES). They build in
# parallel. The spaces are TILEKIT_SPACE_LIST (cmake/TilekitSpaces.cmake).
#
#   tilekit_tool_cases(<target> <source> DEFINITION <op_case_def.hpp> CASE <macro>
#                      TYPES <dtype>... [NAMESPACE <ns>])
#
# <source>: the file that calls the cases (it gets TILEKIT_TOOL_CASES, the
# path of the list, and includes it inside NAMESPACE). DEFINITION: the header
# that defines the case function, the only file a case unit includes: it
# includes what the case function needs (Kokkos, its family's headers, the
# report and timing headers) and not the command line's (CLI11, the other
# families), whose parse every case unit would pay again (under nvcc in a host
# and a device pass) for nothing. CASE: the macro CASE(prefix, Exec, T) of the
# case function's header, its explicit instantiation for one case (prefix
# `extern`: the declaration); a pair of the converting permute holds commas,
# so its macro is variadic. NAMESPACE: where the case function lives (default
# tilekit::tool; each of the tool's sources gives its own, e.g.
# tilekit::tool::transpose_cmd; the fuzz runner's move_typed tilekit::fuzz).
# dtypes are the tool's names: int32 int64 float double cfloat cdouble half
# bhalf (half and bhalf only where Kokkos has 2-byte types: GPU builds), or
# pairs of the converting permute: <in>_to_<out> (T is
# tilekit::tool::Convert<In, Out, false>) and <type>_conj (Convert<T, T, true>).

# Units per space: on a host space TILEKIT_TYPES_PER_UNIT types a unit, as the
# library's (cmake/TilekitSpaces.cmake); on a GPU space
# TILEKIT_TOOL_TYPES_PER_GPU_UNIT, by default 0: one unit per subcommand with
# all its types. The library's GPU units keep TILEKIT_TYPES_PER_GPU_UNIT
# (cmake/TilekitETI.cmake): theirs are device code, most of each type's cost.
# A case unit's kernels are the library's, which it only launches; of its own
# it holds host code (at -O1 on a GPU space, below) and a few small kernels
# (the fills, the copy baseline): a type adds little device code to a GPU
# case unit, while nvcc's passes over the headers the unit includes cost as
# much as several types and are paid once per unit. Fewer units then cost less
# CPU, and a subcommand's unit of every type stays within the length of the
# library's longest GPU units (the permutes' of several types), which set the
# length of a parallel build.
set(TILEKIT_TOOL_TYPES_PER_GPU_UNIT 0 CACHE STRING
    "Types (or conversions) per generated case unit of the tool and the fuzz runner on a GPU space (0: all of a subcommand's in one)")
if(NOT TILEKIT_TOOL_TYPES_PER_GPU_UNIT MATCHES "^[0-9]+$")
  message(FATAL_ERROR "TILEKIT_TOOL_TYPES_PER_GPU_UNIT: '${TILEKIT_TOOL_TYPES_PER_GPU_UNIT}' is not a count")
endif()

# The types follow the library's (TILEKIT_ETI_TYPES, and TILEKIT_ETI_CONVERSIONS
# for the converting pairs): a case of a type the library does not hold would
# compile that type's kernels into the program, which is the library's work.
# A build with fewer types (the demo preset) gives a tool of fewer types; its
# --dtype names the option that adds the others. With TILEKIT_ETI off every
# type is compiled (the programs instantiate all their kernels anyway). The
# target gets TILEKIT_TOOL_TYPES and TILEKIT_TOOL_PAIRS, the kept types' names
# and pairs' tokens, comma-separated, which src/support/types.hpp
# (support::built_case_v, built_pair_v) reads.

# The C++ type of a dtype or pair token (the library's type words:
# tilekit_eti_type_word, cmake/TilekitETI.cmake).
function(_tilekit_cpp out dtype)
  if(dtype MATCHES "^([a-z0-9]+)_to_([a-z0-9]+)$")
    set(to "${CMAKE_MATCH_2}")
    tilekit_eti_type_word("${CMAKE_MATCH_1}" tin category guard)
    tilekit_eti_type_word("${to}" tout category guard)
    set(${out} "tilekit::tool::Convert<${tin}, ${tout}, false>" PARENT_SCOPE)
  elseif(dtype MATCHES "^([a-z0-9]+)_conj$")
    tilekit_eti_type_word("${CMAKE_MATCH_1}" t category guard)
    set(${out} "tilekit::tool::Convert<${t}, ${t}, true>" PARENT_SCOPE)
  else()
    tilekit_eti_type_word("${dtype}" t category guard)
    set(${out} "${t}" PARENT_SCOPE)
  endif()
endfunction()

# One line of a case list: the case (the source's macro), under the macros
# that say whether this Kokkos has the space and the type.
function(_tilekit_case_line out macro prefix space dtype)
  set(cond "defined(TILEKIT_SPACE_${space})")
  if(dtype MATCHES "half")
    string(APPEND cond " && defined(TILEKIT_TOOL_HALF)")
  endif()
  _tilekit_cpp(cpp ${dtype})
  set(${out} "#if ${cond}\n${macro}(${prefix}, ${TILEKIT_SPACE_CXX_${space}}, ${cpp})\n#endif\n" PARENT_SCOPE)
endfunction()

# Whether a dtype or pair token is compiled (above): its types in the
# library's list, a pair among the library's conversions.
function(_tilekit_case_built out token)
  set(built ON)
  if(TILEKIT_ETI)
    if(token MATCHES "^([a-z0-9]+)_to_([a-z0-9]+)$")
      if(NOT CMAKE_MATCH_1 IN_LIST TILEKIT_ETI_TYPES OR NOT CMAKE_MATCH_2 IN_LIST TILEKIT_ETI_TYPES
         OR NOT "${CMAKE_MATCH_1}:${CMAKE_MATCH_2}" IN_LIST TILEKIT_ETI_CONVERSIONS)
        set(built OFF)
      endif()
    elseif(token MATCHES "^([a-z0-9]+)_conj$")
      if(NOT CMAKE_MATCH_1 IN_LIST TILEKIT_ETI_TYPES)
        set(built OFF)
      endif()
    elseif(NOT token IN_LIST TILEKIT_ETI_TYPES)
      set(built OFF)
    endif()
  endif()
  set(${out} ${built} PARENT_SCOPE)
endfunction()

function(tilekit_tool_cases target source)
  cmake_parse_arguments(ARG "" "NAMESPACE;DEFINITION;CASE" "TYPES" ${ARGN})
  if(NOT ARG_NAMESPACE)
    set(ARG_NAMESPACE tilekit::tool)
  endif()
  if(NOT ARG_DEFINITION OR NOT ARG_CASE)
    message(FATAL_ERROR "tilekit_tool_cases(${source}): DEFINITION and CASE are required")
  endif()
  get_filename_component(name ${source} NAME_WE)
  get_filename_component(definition ${ARG_DEFINITION} ABSOLUTE)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/cases)
  set(types)
  foreach(dtype IN LISTS ARG_TYPES)
    # 2-byte types are real only beside a GPU backend (else Kokkos makes them float).
    if(dtype MATCHES "half" AND NOT TILEKIT_HALF_TYPES)
      continue()
    endif()
    _tilekit_case_built(built ${dtype})
    if(NOT built)
      continue()
    endif()
    list(APPEND types ${dtype})
  endforeach()
  # What the target's sources may dispatch to, over all its calls: the plain
  # types' names (TILEKIT_TOOL_TYPES) and the pairs' tokens (TILEKIT_TOOL_PAIRS).
  get_target_property(names ${target} TILEKIT_TOOL_TYPE_NAMES)
  get_target_property(pairs ${target} TILEKIT_TOOL_PAIR_NAMES)
  foreach(dtype IN LISTS types)
    if(dtype MATCHES "_")
      list(APPEND pairs ${dtype})
    else()
      list(APPEND names ${dtype})
    endif()
  endforeach()
  list(FILTER names EXCLUDE REGEX "-NOTFOUND$")
  list(FILTER pairs EXCLUDE REGEX "-NOTFOUND$")
  list(REMOVE_DUPLICATES names)
  list(REMOVE_DUPLICATES pairs)
  set_target_properties(${target} PROPERTIES TILEKIT_TOOL_TYPE_NAMES "${names}"
                                             TILEKIT_TOOL_PAIR_NAMES "${pairs}")
  set(ordered "")
  foreach(word int32 int64 float double cfloat cdouble half bhalf uint8 uint16)
    if(word IN_LIST names)
      list(APPEND ordered ${word})
    endif()
  endforeach()
  list(JOIN ordered "," names_text)
  list(JOIN pairs "," pairs_text)
  # One definition of each (this call's, with every call's names).
  get_target_property(defs ${target} COMPILE_DEFINITIONS)
  if(defs)
    list(FILTER defs EXCLUDE REGEX "^TILEKIT_TOOL_(TYPES|PAIRS)=")
    set_target_properties(${target} PROPERTIES COMPILE_DEFINITIONS "${defs}")
  endif()
  target_compile_definitions(${target} PRIVATE "TILEKIT_TOOL_TYPES=\"${names_text}\""
                                               "TILEKIT_TOOL_PAIRS=\"${pairs_text}\"")

  set(list_text "// Generated by cmake/TilekitToolCases.cmake: every case of ${name}.cpp.\n")
  set(units)
  set(gpu_units)
  foreach(space IN LISTS TILEKIT_SPACE_LIST)
    # The space's units: TILEKIT_TYPES_PER_UNIT types each on a host space,
    # TILEKIT_TOOL_TYPES_PER_GPU_UNIT on a GPU space (above).
    if(space STREQUAL "CUDA")
      set(n "${TILEKIT_TOOL_TYPES_PER_GPU_UNIT}")
    else()
      tilekit_types_per_unit(${space} n)
    endif()
    tilekit_chunk_keys(groups "${n}" ${types})
    list(LENGTH groups n_groups)
    foreach(group IN LISTS groups)
      string(REPLACE "+" ";" group_types "${group}")
      # A host space's unit: a GPU compiler's device pass skips its cases
      # (backends/tilekit/backends/device_pass.hpp).
      tilekit_host_unit_guard("${space}" begin end)
      string(CONCAT text "// Generated by cmake/TilekitToolCases.cmake: cases of ${name}.cpp.\n"
                         "${begin}"
                         "#include \"${definition}\"\n"
                         "namespace ${ARG_NAMESPACE} {\n")
      foreach(dtype IN LISTS group_types)
        _tilekit_case_line(line ${ARG_CASE} "" ${space} ${dtype})
        string(APPEND text "${line}")
        _tilekit_case_line(line ${ARG_CASE} "extern" ${space} ${dtype})
        string(APPEND list_text "${line}")
      endforeach()
      string(APPEND text "}  // namespace ${ARG_NAMESPACE}\n${end}")
      string(TOLOWER "${name}_${space}" base)
      tilekit_chunk_name(unit "${base}" "${group}" "${n_groups}")
      file(CONFIGURE OUTPUT ${dir}/${unit}.cpp CONTENT "${text}" @ONLY)
      list(APPEND units ${dir}/${unit}.cpp)
      if(space STREQUAL "CUDA")
        list(APPEND gpu_units ${dir}/${unit}.cpp)
      endif()
    endforeach()
  endforeach()
  file(CONFIGURE OUTPUT ${dir}/${name}_cases.inc CONTENT "${list_text}" @ONLY)

  target_sources(${target} PRIVATE ${units})
  tilekit_kokkos_sources(${units})
  # A GPU space's units hold host code that launches the library's kernels
  # and checks their results, and their own small kernels (fills, the copy
  # baseline) in device code: their host code compiles at -O1 in a Release
  # build, as the test programs' does (under nvcc -O is the host compiler's
  # level and the last one given counts; the device passes are unchanged).
  # A host space's units keep -O3: their copy baselines are host code.
  if(gpu_units)
    set_property(SOURCE ${gpu_units} APPEND PROPERTY COMPILE_OPTIONS
                 $<$<AND:$<COMPILE_LANGUAGE:CXX,CUDA>,$<CONFIG:Release>>:-O1>)
  endif()
  # The generated units include the definition by its path: its own folder's headers.
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  set_property(SOURCE ${source} APPEND PROPERTY COMPILE_DEFINITIONS
               TILEKIT_TOOL_CASES="${dir}/${name}_cases.inc")
endfunction()
