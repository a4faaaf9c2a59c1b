# Finds the user's Kokkos (>= 4.6) and prepares the language its headers need.
# tilekit never downloads or builds Kokkos: bring your own (Spack, a module,
# or your own build) and point CMake at it with Kokkos_ROOT.
if(NOT TARGET Kokkos::kokkos)
  find_package(Kokkos 4.6 CONFIG QUIET)
  if(NOT Kokkos_FOUND)
    message(FATAL_ERROR
      "tilekit needs Kokkos >= 4.6, built with C++20, and CMake could not find it.\n"
      "  * Install Kokkos yourself: Spack (`spack install kokkos +openmp cxxstd=20`),\n"
      "    your cluster's module (`module load kokkos`), or a build from the Kokkos\n"
      "    sources with -DCMAKE_CXX_STANDARD=20 -DKokkos_ENABLE_OPENMP=ON (CPU) or,\n"
      "    for NVIDIA GPUs, also -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON\n"
      "    (or your GPU's architecture).\n"
      "  * Then tell CMake where it is: -DKokkos_ROOT=/path/to/kokkos/install\n"
      "    (or add that path to CMAKE_PREFIX_PATH).\n"
      "  Kokkos versions found but rejected, if any: ${Kokkos_CONSIDERED_VERSIONS}")
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
