# What tilekit::dist needs from outside, attached the same way by tilekit's
# own build (cmake/TilekitDist.cmake) and by a consumer's
# find_package(tilekit COMPONENTS dist) (installed beside tilekitConfig.cmake),
# so both compile the dist headers with the same MPI and NCCL.

# MPI's C++ include directories and libraries (FindMPI's variables) rather than
# MPI::MPI_CXX, whose compile options (-pthread) nvcc does not take when
# sources compile as CUDA. Call after find_package(MPI).
function(tilekit_dist_use_mpi target)
  target_include_directories(${target} SYSTEM INTERFACE ${MPI_CXX_INCLUDE_DIRS})
  target_link_libraries(${target} INTERFACE ${MPI_CXX_LIBRARIES})
endfunction()

# nccl.h and libnccl (NCCL ships no CMake package): NCCL_ROOT (variable or
# environment) first, then the given hints and the default paths. Defines the
# imported target tilekit_nccl_lib; sets <found_var> TRUE or FALSE and, when
# not found, <message_var> to a message that names what is missing.
function(tilekit_find_nccl found_var message_var)
  find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${NCCL_ROOT} ENV NCCL_ROOT ${ARGN}
            PATH_SUFFIXES include)
  find_library(NCCL_LIBRARY NAMES nccl HINTS ${NCCL_ROOT} ENV NCCL_ROOT ${ARGN}
               PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)
  if(NOT NCCL_INCLUDE_DIR OR NOT NCCL_LIBRARY)
    set(${found_var} FALSE PARENT_SCOPE)
    set(${message_var} "nccl.h or libnccl not found; set NCCL_ROOT (found: \
'${NCCL_INCLUDE_DIR}', '${NCCL_LIBRARY}')" PARENT_SCOPE)
    return()
  endif()
  if(NOT TARGET tilekit_nccl_lib)
    add_library(tilekit_nccl_lib UNKNOWN IMPORTED)
    set_target_properties(tilekit_nccl_lib PROPERTIES IMPORTED_LOCATION "${NCCL_LIBRARY}"
                          INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
  endif()
  set(${found_var} TRUE PARENT_SCOPE)
endfunction()
