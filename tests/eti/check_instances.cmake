# Fails when an object (OBJECT: a user's translation unit calling compiled
# cases, user_calls.cpp; or OBJECTS: a comma-separated list, a program's units)
# defines a kernel launch of its own: a Kokkos parallel dispatch of a tilekit
# functor (Kokkos::Impl::ParallelFor/Reduce/Scan with a tilekit type among its
# arguments; the host stubs of a CUDA launch name it too) or a tilekit member
# that launches kernels (::launch, ::launch_as, ::launch_thin_staged,
# launch_inplace_blocked). NM: the binutils nm.
#   cmake -DNM=nm -DOBJECT=user_calls.o -P check_instances.cmake
# SCOPE=library: only the functors of the library's families (tilekit::impl,
# and tilekit::study: the seeds' plans, compiled into the library too) count,
# for programs that launch kernels of their own beside the library's calls
# (the tool's fill and copy baselines); ALLOW: a regex of functors a program
# launches itself (e.g. tilekit::impl::CopyKernel, the copy baseline row).
#   cmake -DNM=nm -DSCOPE=library "-DOBJECTS=a.o,b.o" -P check_instances.cmake
if(DEFINED OBJECTS)
  string(REPLACE "," ";" objects "${OBJECTS}")
else()
  set(objects "${OBJECT}")
endif()
if(SCOPE STREQUAL "library")
  set(dispatch "Kokkos::Impl::Parallel(For|Reduce|Scan)<.*tilekit::(impl|study)::")
else()
  set(dispatch "Kokkos::Impl::Parallel(For|Reduce|Scan)<.*tilekit::")
endif()
set(failures "")
foreach(object IN LISTS objects)
  execute_process(COMMAND ${NM} -C --defined-only ${object}
                  OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${object}")
  endif()
  string(REPLACE "\n" ";" symbols "${symbols}")
  set(kernels "")
  set(tilekit_count 0)
  foreach(s IN LISTS symbols)
    if(s MATCHES "tilekit::")
      math(EXPR tilekit_count "${tilekit_count} + 1")
    endif()
    if(s MATCHES "${dispatch}" OR
       s MATCHES "tilekit::impl::[A-Za-z_]+<.*>::launch(_as|_thin_staged)?[<(]" OR
       s MATCHES "tilekit::impl::launch_inplace_blocked")
      if(DEFINED ALLOW AND s MATCHES "Parallel(For|Reduce|Scan)<${ALLOW}")
        continue()
      endif()
      list(APPEND kernels "${s}")
    endif()
  endforeach()
  list(LENGTH kernels n)
  if(n GREATER 0)
    list(SUBLIST kernels 0 10 shown)
    list(JOIN shown "\n  " shown)
    string(APPEND failures "${object} instantiates ${n} kernel symbols of its own "
                           "(the library's compiled instances were not used), e.g.:\n  ${shown}\n")
  else()
    message(STATUS "${object}: no kernel instantiated "
                   "(${tilekit_count} tilekit symbols: the checks)")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "${failures}")
endif()
