# cmake -DBUILD_DIR=… -DWORK_DIR=… -P this: runs `cpack -G DEB` on the build and checks the
# package lists the tools, the CMake package, the pkg-config file and the bundled data.
foreach(var BUILD_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "pack_deb: -D${var}=… is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
get_filename_component(cmake_bin_dir "${CMAKE_COMMAND}" DIRECTORY)
find_program(CPACK cpack HINTS "${cmake_bin_dir}" REQUIRED)
execute_process(COMMAND ${CPACK} -G DEB --config "${BUILD_DIR}/CPackConfig.cmake" -B "${WORK_DIR}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cpack -G DEB failed (${rc}):\n${out}\n${err}")
endif()
file(GLOB debs "${WORK_DIR}/*.deb")
list(LENGTH debs count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one .deb in ${WORK_DIR}, found: ${debs}")
endif()
execute_process(COMMAND dpkg-deb --contents ${debs} RESULT_VARIABLE rc OUTPUT_VARIABLE listing)
execute_process(COMMAND dpkg-deb --field ${debs} Package Depends OUTPUT_VARIABLE fields)
foreach(expected "./usr/bin/fake-claude" "./usr/bin/harness" "./usr/bin/claude-tee"
        "claude_harness-config.cmake" "claude_harness-targets.cmake" "ClaudeHarnessScenarios.cmake"
        "pkgconfig/claude_harness.pc" "./usr/share/claude-harness/scenario.schema.json"
        "./usr/share/claude-harness/scenarios/" "./usr/include/claude/sdk/query.hpp"
        "./usr/share/man/man1/harness.1" "./usr/share/man/man1/fake-claude.1")
  string(FIND "${listing}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the .deb lacks ${expected}:\n${listing}")
  endif()
endforeach()
if(listing MATCHES "node_modules")
  message(FATAL_ERROR "the .deb contains node_modules")
endif()
if(NOT fields MATCHES "Package: claude-harness" OR NOT fields MATCHES "libsimdjson-dev"
   OR fields MATCHES "libboost[^,]*-dev|libre2-dev")
  message(FATAL_ERROR "unexpected package fields:\n${fields}")
endif()
message(STATUS "pack_deb: ${debs} has the expected contents")
