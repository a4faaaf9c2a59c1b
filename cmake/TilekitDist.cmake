# The distributed family (include/tilekit/dist/): header-only, on MPI, with an
# NCCL engine for CUDA builds. Consumers link tilekit::dist: in this build, and
# from an install with find_package(tilekit COMPONENTS dist), whose config
# finds MPI (and NCCL) again through the same functions
# (cmake/tilekitDistDependencies.cmake). Whether dist and NCCL are built is
# recorded in tilekit/config.hpp (TILEKIT_ENABLE_MPI, TILEKIT_ENABLE_NCCL: NCCL
# changes dist::EngineOptions), which the headers read; no -D on the target.
enable_language(C)  # FindMPI's C component (the MPI C API the headers call)
find_package(MPI REQUIRED COMPONENTS C CXX)
include(tilekitDistDependencies)

add_library(tilekit_dist INTERFACE)
add_library(tilekit::dist ALIAS tilekit_dist)
set_target_properties(tilekit_dist PROPERTIES EXPORT_NAME dist)
# MPI and NCCL by their paths on this machine in the build tree only; the
# installed config attaches the consumer's own (tilekitConfig.cmake).
add_library(tilekit_dist_deps INTERFACE)
tilekit_dist_use_mpi(tilekit_dist_deps)
target_link_libraries(tilekit_dist INTERFACE tilekit::tilekit $<BUILD_INTERFACE:tilekit_dist_deps>)
message(STATUS "tilekit: MPI ${MPI_CXX_VERSION} (${MPIEXEC_EXECUTABLE})")

if(TILEKIT_ENABLE_NCCL)
  if(NOT Kokkos_ENABLE_CUDA)
    message(FATAL_ERROR "TILEKIT_ENABLE_NCCL needs a Kokkos built with CUDA")
  endif()
  tilekit_find_nccl(nccl_found nccl_message)
  if(NOT nccl_found)
    message(FATAL_ERROR "TILEKIT_ENABLE_NCCL: ${nccl_message}")
  endif()
  target_link_libraries(tilekit_dist_deps INTERFACE tilekit_nccl_lib)
  message(STATUS "tilekit: NCCL ${NCCL_LIBRARY}")
endif()

install(TARGETS tilekit_dist EXPORT tilekitDistTargets)
install(EXPORT tilekitDistTargets NAMESPACE tilekit::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tilekit)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/tilekitDistDependencies.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tilekit)
