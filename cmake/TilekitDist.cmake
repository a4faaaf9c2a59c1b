# The distributed family (include/tilekit/dist/): header-only, on MPI, with an
# NCCL engine for CUDA builds. Consumers link tilekit::dist.
enable_language(C)  # FindMPI's C component (the MPI C API the headers call)
find_package(MPI REQUIRED COMPONENTS C CXX)
add_library(tilekit_dist INTERFACE)
add_library(tilekit::dist ALIAS tilekit_dist)
# MPI's include directories and libraries rather than MPI::MPI_CXX, whose
# compile options (-pthread) nvcc does not take when sources compile as CUDA.
target_include_directories(tilekit_dist SYSTEM INTERFACE ${MPI_CXX_INCLUDE_DIRS})
target_link_libraries(tilekit_dist INTERFACE tilekit::tilekit ${MPI_CXX_LIBRARIES})
target_compile_definitions(tilekit_dist INTERFACE TILEKIT_ENABLE_MPI)
message(STATUS "tilekit: MPI ${MPI_CXX_VERSION} (${MPIEXEC_EXECUTABLE})")

if(TILEKIT_ENABLE_NCCL)
  if(NOT Kokkos_ENABLE_CUDA)
    message(FATAL_ERROR "TILEKIT_ENABLE_NCCL needs a Kokkos built with CUDA")
  endif()
  find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${NCCL_ROOT} ENV NCCL_ROOT PATH_SUFFIXES include)
  find_library(NCCL_LIBRARY NAMES nccl HINTS ${NCCL_ROOT} ENV NCCL_ROOT
               PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)
  if(NOT NCCL_INCLUDE_DIR OR NOT NCCL_LIBRARY)
    message(FATAL_ERROR "TILEKIT_ENABLE_NCCL: nccl.h or libnccl not found; set NCCL_ROOT "
                        "(found: '${NCCL_INCLUDE_DIR}', '${NCCL_LIBRARY}')")
  endif()
  add_library(tilekit_nccl UNKNOWN IMPORTED)
  set_target_properties(tilekit_nccl PROPERTIES IMPORTED_LOCATION ${NCCL_LIBRARY}
                        INTERFACE_INCLUDE_DIRECTORIES ${NCCL_INCLUDE_DIR})
  target_link_libraries(tilekit_dist INTERFACE tilekit_nccl)
  target_compile_definitions(tilekit_dist INTERFACE TILEKIT_ENABLE_NCCL)
  message(STATUS "tilekit: NCCL ${NCCL_LIBRARY}")
endif()
