# ctest's consumer tests (tests/CMakeLists.txt): installs tilekit's build tree
# into a fresh prefix, configures and builds tests/consumer against it with
# the build's own toolchain, and runs its programs (dist under mpiexec).
#
#   cmake -DBUILD=<tilekit build> -DWORK=<scratch folder> -DSOURCE=<tests/consumer>
#         -DPARTS=core|dist -DCONFIG_ARGS=<arg|arg...> [-DRUN=<launcher|arg...>] -P run_consumer.cmake
#
# CONFIG_ARGS and RUN are lists joined with '|' (a ';' would split the test's command).
string(REPLACE "|" ";" CONFIG_ARGS "${CONFIG_ARGS}")
string(REPLACE "|" ";" RUN "${RUN}")
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "consumer: failed (${rc}): ${cmd}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK}")
set(prefix "${WORK}/prefix")
# The library, headers and package config (the default component: not the
# Python module, whose destination is the interpreter's site-packages).
step(${CMAKE_COMMAND} --install "${BUILD}" --prefix "${prefix}" --component Unspecified)
step(${CMAKE_COMMAND} -S "${SOURCE}" -B "${WORK}/build" "-DCMAKE_PREFIX_PATH=${prefix}"
     "-DTILEKIT_CONSUMER_PARTS=${PARTS}" ${CONFIG_ARGS})
step(${CMAKE_COMMAND} --build "${WORK}/build")
foreach(part IN LISTS PARTS)
  step(${RUN} "${WORK}/build/consumer_${part}")
endforeach()
