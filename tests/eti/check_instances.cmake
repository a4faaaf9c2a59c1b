# Fails when the object OBJECT (a user's translation unit calling compiled
# cases: user_calls.cpp) defines a kernel launch of its own: a Kokkos
# parallel dispatch of a tilekit functor (Kokkos::Impl::ParallelFor/Reduce/Scan
# with a tilekit type among its arguments; the host stubs of a CUDA launch
# name it too) or a tilekit member that launches kernels (::launch,
# ::launch_as, ::launch_thin_staged, launch_inplace_blocked). NM: the binutils nm.
#   cmake -DNM=nm -DOBJECT=user_calls.o -P check_instances.cmake
execute_process(COMMAND ${NM} -C --defined-only ${OBJECT}
                OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${OBJECT}")
endif()
string(REPLACE "\n" ";" symbols "${symbols}")
set(kernels "")
set(tilekit_count 0)
foreach(s IN LISTS symbols)
  if(s MATCHES "tilekit::")
    math(EXPR tilekit_count "${tilekit_count} + 1")
  endif()
  if(s MATCHES "Kokkos::Impl::Parallel(For|Reduce|Scan)<.*tilekit::" OR
     s MATCHES "tilekit::impl::[A-Za-z_]+<.*>::launch(_as|_thin_staged)?[<(]" OR
     s MATCHES "tilekit::impl::launch_inplace_blocked")
    list(APPEND kernels "${s}")
  endif()
endforeach()
list(LENGTH kernels n)
if(n GREATER 0)
  list(SUBLIST kernels 0 10 shown)
  list(JOIN shown "\n  " shown)
  message(FATAL_ERROR "${OBJECT} instantiates ${n} kernel symbols of its own "
                      "(the library's compiled instances were not used), e.g.:\n  ${shown}")
endif()
message(STATUS "${OBJECT}: no kernel instantiated (${tilekit_count} tilekit symbols: the checks)")
