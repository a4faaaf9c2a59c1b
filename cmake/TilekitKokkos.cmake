# Finds Kokkos (>= 4.6, C++20) and prepares the language its headers need.
#
# An installed Kokkos comes first (Spack, a module, your own build; point CMake
# at it with Kokkos_ROOT). When none is found, FetchContent builds the Kokkos
# 4.6.01 release in-tree, Serial + OpenMP, C++20, position-independent: from
# the release tarball (TILEKIT_KOKKOS_URL), or, offline, from an unpacked
# source given with the standard -DFETCHCONTENT_SOURCE_DIR_KOKKOS=<dir>.
# -DCMAKE_DISABLE_FIND_PACKAGE_Kokkos=ON skips the search and always builds it.
if(NOT TARGET Kokkos::kokkos)
  include(FetchContent)
  set(TILEKIT_KOKKOS_URL
      "https://github.com/kokkos/kokkos/releases/download/4.6.01/kokkos-4.6.01.tar.gz"
      CACHE STRING "Kokkos release source built in-tree when no installed Kokkos is found")
  FetchContent_Declare(Kokkos
      URL "${TILEKIT_KOKKOS_URL}"
      DOWNLOAD_EXTRACT_TIMESTAMP ON
      FIND_PACKAGE_ARGS 4.6 CONFIG)
  # Options of the in-tree build (ignored when find_package succeeds).
  set(Kokkos_ENABLE_SERIAL ON CACHE BOOL "tilekit: in-tree Kokkos with Serial")
  set(Kokkos_ENABLE_OPENMP ON CACHE BOOL "tilekit: in-tree Kokkos with OpenMP")
  set(Kokkos_ENABLE_TESTS OFF CACHE BOOL "")
  set(Kokkos_ENABLE_EXAMPLES OFF CACHE BOOL "")
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)  # static Kokkos linked into shared modules
  FetchContent_MakeAvailable(Kokkos)
  if(NOT TARGET Kokkos::kokkos)
    message(FATAL_ERROR
      "tilekit needs Kokkos >= 4.6 built with C++20: none was found and the in-tree\n"
      "build from ${TILEKIT_KOKKOS_URL} did not provide Kokkos::kokkos.\n"
      "  * Offline: -DFETCHCONTENT_SOURCE_DIR_KOKKOS=/path/to/unpacked/kokkos-4.6.01\n"
      "  * Or install Kokkos (Spack: `spack install kokkos +openmp cxxstd=20`) and\n"
      "    pass -DKokkos_ROOT=/path/to/kokkos/install.\n"
      "  Kokkos versions found but rejected, if any: ${Kokkos_CONSIDERED_VERSIONS}")
  endif()
  if(kokkos_POPULATED AND kokkos_SOURCE_DIR)  # not when find_package satisfied it
    set(TILEKIT_KOKKOS_IN_TREE ON)
    get_directory_property(Kokkos_VERSION DIRECTORY "${kokkos_SOURCE_DIR}" DEFINITION Kokkos_VERSION)
    get_directory_property(Kokkos_DEVICES DIRECTORY "${kokkos_SOURCE_DIR}"
                           DEFINITION KOKKOS_ENABLED_DEVICES)
    message(STATUS "tilekit: no installed Kokkos found; Kokkos is built in-tree from ${kokkos_SOURCE_DIR}")
  endif()
endif()
message(STATUS "tilekit: Kokkos ${Kokkos_VERSION}, devices: ${Kokkos_DEVICES}")

if(NOT DEFINED Kokkos_COMPILE_LANGUAGE OR Kokkos_COMPILE_LANGUAGE STREQUAL "")
  set(Kokkos_COMPILE_LANGUAGE CXX)
endif()
if(Kokkos_COMPILE_LANGUAGE STREQUAL "CUDA")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND DEFINED Kokkos_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES ${Kokkos_CUDA_ARCHITECTURES})
  endif()
  enable_language(CUDA)
  if(CMAKE_VERSION VERSION_LESS 3.26 AND NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    # CMake < 3.26 does not know nvcc's C++20 flag (Kokkos' targets need it).
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
  endif()
  # nvcc cannot evaluate fmt's consteval format-string checks: check at run time
  # instead (tilekit's own programs only; nothing is exported to consumers).
  add_compile_definitions($<$<COMPILE_LANGUAGE:CUDA>:FMT_CONSTEVAL=>)
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  set(CMAKE_CUDA_EXTENSIONS OFF)
elseif(Kokkos_ENABLE_CUDA)
  message(STATUS "tilekit: Kokkos uses nvcc_wrapper/clang as its C++ compiler")
endif()

# Sources that include Kokkos headers compile in Kokkos' language.
function(tilekit_kokkos_sources)
  set_source_files_properties(${ARGN}
      PROPERTIES LANGUAGE ${Kokkos_COMPILE_LANGUAGE})
endfunction()
