# claude_harness_add_conformance(SDK <name> COMMAND <driver command> [SUITE <dir>]
#                                [BASELINE <file>] [FIXTURES <fixture…>] [LABELS …])
#
# Registers one CTest test per conformance case, `conformance.<name>.<case id>`, each running
# `harness check --sdk <driver command> --exact <case id>` — so a suite scales with `ctest -j`
# and with CI test sharding. Case ids are read from the `name` member of each case's header.
function(claude_harness_add_conformance)
  cmake_parse_arguments(ARG "" "SDK;SUITE;BASELINE" "COMMAND;LABELS;FIXTURES" ${ARGN})
  if(NOT ARG_SDK OR NOT ARG_COMMAND)
    message(FATAL_ERROR "claude_harness_add_conformance: SDK and COMMAND are required")
  endif()
  if(NOT ARG_SUITE)
    set(ARG_SUITE "${PROJECT_SOURCE_DIR}/scenarios/conformance")
  endif()
  if(TARGET harness)
    set(harness_command $<TARGET_FILE:harness>)
  else()
    find_program(harness_command harness REQUIRED)
  endif()
  list(JOIN ARG_COMMAND " " driver_command)
  set(baseline_args)
  if(ARG_BASELINE)
    set(baseline_args --baseline "${ARG_BASELINE}")
  endif()
  file(GLOB_RECURSE case_files CONFIGURE_DEPENDS "${ARG_SUITE}/*.ndjson")
  list(SORT case_files)
  foreach(case_file ${case_files})
    file(STRINGS "${case_file}" header REGEX "\"scenario\"" LIMIT_COUNT 1)
    string(REGEX MATCH "\"name\" *: *\"([^\"]+)\"" found "${header}")
    if(NOT found)
      message(FATAL_ERROR "${case_file}: the header has no \"name\"")
    endif()
    set(case_id "${CMAKE_MATCH_1}")
    add_test(NAME conformance.${ARG_SDK}.${case_id}
             COMMAND ${harness_command} check --sdk "${driver_command}" --suite "${ARG_SUITE}"
                     ${baseline_args} --exact -j 1 --quiet ${case_id})
    set_tests_properties(conformance.${ARG_SDK}.${case_id} PROPERTIES
                         LABELS "conformance;${ARG_SDK};${ARG_LABELS}" TIMEOUT 120)
    if(ARG_FIXTURES)
      set_tests_properties(conformance.${ARG_SDK}.${case_id} PROPERTIES
                           FIXTURES_REQUIRED "${ARG_FIXTURES}")
    endif()
  endforeach()
endfunction()
