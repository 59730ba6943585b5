# cmake -DBUILD_DIR=… -DSOURCE_DIR=… -DWORK_DIR=… -DGENERATOR=… -DCXX_COMPILER=…
#       [-DSANITIZE_FLAGS=…] -P this
# Fails (non-zero exit, with the step named) at the first step that does not work.
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "install_and_consume: -D${var}=… is required")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

function(step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step '${name}' failed (${rc}):\n${ARGN}\n--- stdout\n${out}\n--- stderr\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

step("install" ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")

foreach(installed bin/fake-claude bin/harness bin/claude-tee
        include/claude/sdk/query.hpp
        share/claude-harness/scenario.schema.json share/claude-harness/scenarios/verbs/basic-turn.ndjson)
  if(NOT EXISTS "${prefix}/${installed}")
    message(FATAL_ERROR "install: ${prefix}/${installed} is missing")
  endif()
endforeach()
# The installed API is the SDK's explicit header list: at most 12 headers, each compiling on its
# own against the prefix (plus nlohmann/json, the one dependency the headers name).
file(GLOB_RECURSE installed_headers "${prefix}/include/*")
list(LENGTH installed_headers header_count)
if(header_count GREATER 12 OR header_count EQUAL 0)
  message(FATAL_ERROR "install: ${header_count} headers installed (at most 12):\n${installed_headers}")
endif()
foreach(header ${installed_headers})
  if(NOT header MATCHES "/include/claude/sdk/[a-z_]+\\.hpp$")
    message(FATAL_ERROR "install: ${header} is not an SDK public header")
  endif()
  step("compile ${header} alone" ${CXX_COMPILER} -std=c++20 -fsyntax-only -I "${prefix}/include"
       -x c++ "${header}")
endforeach()

# Our private dependencies stay private: the exported target adds no compile definition and no
# include path besides the prefix's, and the package neither looks for Boost or RE2 nor hands
# simdjson to the consumer except as a link-only library.
file(GLOB_RECURSE package_files "${prefix}/*/claude_harness-targets*.cmake"
     "${prefix}/*/claude_harness-config.cmake")
foreach(file ${package_files})
  file(READ "${file}" text)
  foreach(leak "INTERFACE_COMPILE_DEFINITIONS" "INTERFACE_COMPILE_OPTIONS" "BOOST" "Boost" "re2"
          "RE2")
    string(FIND "${text}" "${leak}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "install: ${file} leaks '${leak}' to consumers")
    endif()
  endforeach()
  string(REGEX MATCHALL "[^;\"]*simdjson::simdjson[^;\"]*" simdjson_uses "${text}")
  foreach(use ${simdjson_uses})
    if(NOT use MATCHES "LINK_ONLY")
      message(FATAL_ERROR "install: ${file} hands simdjson to consumers beyond linking: ${use}")
    endif()
  endforeach()
endforeach()

# GLOB_RECURSE lists every directory it walks, so keep only the ones named node_modules.
file(GLOB_RECURSE driver_dirs LIST_DIRECTORIES true "${prefix}/share/claude-harness/drivers/*")
set(node_modules "${driver_dirs}")
list(FILTER node_modules INCLUDE REGEX "/node_modules$")
if(node_modules)
  message(FATAL_ERROR "install: node_modules was installed: ${node_modules}")
endif()

# The consumer sees only the prefix: no path into this source or build tree.
step("configure consumer" ${CMAKE_COMMAND} -S "${SOURCE_DIR}/examples/consumer" -B "${WORK_DIR}/consumer"
     -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
     "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_CXX_FLAGS=${SANITIZE_FLAGS}"
     "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZE_FLAGS}")
step("build consumer" ${CMAKE_COMMAND} --build "${WORK_DIR}/consumer" -j 2)
step("list consumer tests" ${CMAKE_CTEST_COMMAND} --test-dir "${WORK_DIR}/consumer" -N -L consumer)
if(NOT step_output MATCHES "Total Tests: 2")
  message(FATAL_ERROR "claude_harness_add_scenarios registered the wrong tests:\n${step_output}")
endif()
step("run consumer tests" ${CMAKE_CTEST_COMMAND} --test-dir "${WORK_DIR}/consumer" --output-on-failure)
file(READ "${WORK_DIR}/consumer/CTestTestfile.cmake" registered)
if(NOT registered MATCHES "${prefix}/bin/harness")
  message(FATAL_ERROR "the consumer's tests do not run the installed harness:\n${registered}")
endif()

# examples/api-tour: the whole public API in one program, built against the prefix and run
# against fake-claude through its scenario.
step("configure api-tour" ${CMAKE_COMMAND} -S "${SOURCE_DIR}/examples/api-tour" -B "${WORK_DIR}/api-tour"
     -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
     "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_CXX_FLAGS=${SANITIZE_FLAGS}"
     "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZE_FLAGS}")
step("build api-tour" ${CMAKE_COMMAND} --build "${WORK_DIR}/api-tour" -j 2)
step("run api-tour" ${CMAKE_CTEST_COMMAND} --test-dir "${WORK_DIR}/api-tour" --output-on-failure)
if(NOT step_output MATCHES "100% tests passed, 0 tests failed out of 1")
  message(FATAL_ERROR "api-tour's scenario did not run:\n${step_output}")
endif()

# pkg-config alone is enough to compile and link against claude::sdk.
find_program(PKG_CONFIG pkg-config REQUIRED)
file(GLOB_RECURSE pc_file "${prefix}/*/claude_harness.pc")
if(NOT pc_file)
  message(FATAL_ERROR "install: no claude_harness.pc below ${prefix}")
endif()
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
step("pkg-config" ${PKG_CONFIG} --cflags --libs claude_harness)
string(STRIP "${step_output}" pc_flags)
if(pc_flags MATCHES "(^| )-D")
  message(FATAL_ERROR "pkg-config hands the consumer a definition: ${pc_flags}")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
separate_arguments(sanitize UNIX_COMMAND "${SANITIZE_FLAGS}")
step("compile with pkg-config" ${CXX_COMPILER} -std=c++20 ${sanitize} -o "${WORK_DIR}/ask_once_pc"
     "${SOURCE_DIR}/examples/consumer/ask_once.cpp" ${pc_flags})
execute_process(COMMAND "${WORK_DIR}/ask_once_pc" RESULT_VARIABLE usage_rc OUTPUT_QUIET ERROR_QUIET)
if(NOT usage_rc EQUAL 2)
  message(FATAL_ERROR "the pkg-config build of ask_once should exit 2 without a prompt, got ${usage_rc}")
endif()
message(STATUS "install_and_consume: all steps passed")
