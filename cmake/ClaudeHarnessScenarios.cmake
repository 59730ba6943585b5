# claude_harness_add_scenarios(NAME <name> SCENARIOS <glob or file>… COMMAND <command>…
#                              [LABELS <label>…] [TIMEOUT <seconds>] [WORKING_DIRECTORY <dir>]
#                              [REPORT_DIR <dir>])
#
# Registers one CTest test per scenario file, `<name>.<file name without .ndjson>`, running
#   harness replay <scenario> [--report <REPORT_DIR>/<test>.json] -- <command>…
# so <command> (a user's SDK test: anything that starts `claude` from PATH) talks to fake-claude
# playing that scenario, and the test passes when fake-claude's verdict is pass and <command>
# exited 0 (harness exit codes: 1 mismatch, 2 bad scenario, 3 the command misbehaved).
#
# Each test is labelled `scenario`, <name>, the scenario's folder name and LABELS, so
# `ctest -L <name>` selects one suite and `ctest -j` or CI sharding spreads the scenarios.
# Relative globs are read from the calling CMakeLists.txt's folder; a glob matching nothing is an
# error (a typo must not quietly register zero tests), as are two scenarios with the same name.
#
# `harness` is the claude::harness target when the build has one (this source tree, or a package
# found with find_package(claude_harness)), else the `harness` on PATH.
function(claude_harness_add_scenarios)
  cmake_parse_arguments(ARG "" "NAME;TIMEOUT;WORKING_DIRECTORY;REPORT_DIR"
                        "SCENARIOS;COMMAND;LABELS" ${ARGN})
  # DEFINED, not truth: a suite may well be called "n" or "off".
  if(NOT DEFINED ARG_NAME OR NOT DEFINED ARG_SCENARIOS OR NOT DEFINED ARG_COMMAND)
    message(FATAL_ERROR "claude_harness_add_scenarios: NAME, SCENARIOS and COMMAND are required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
            "claude_harness_add_scenarios(${ARG_NAME}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT DEFINED ARG_TIMEOUT)
    set(ARG_TIMEOUT 60)
  endif()
  if(NOT DEFINED ARG_WORKING_DIRECTORY)
    set(ARG_WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  endif()

  if(TARGET claude::harness)
    set(harness_command "$<TARGET_FILE:claude::harness>")
  elseif(TARGET harness)
    # This source tree, before ClaudeHarnessInstall.cmake has made the claude::harness alias.
    set(harness_command "$<TARGET_FILE:harness>")
  else()
    find_program(CLAUDE_HARNESS_EXECUTABLE harness)
    if(NOT CLAUDE_HARNESS_EXECUTABLE)
      message(FATAL_ERROR "claude_harness_add_scenarios(${ARG_NAME}): no claude::harness target "
                          "and no `harness` on PATH; find_package(claude_harness CONFIG) first")
    endif()
    set(harness_command "${CLAUDE_HARNESS_EXECUTABLE}")
  endif()

  set(scenario_files)
  foreach(pattern IN LISTS ARG_SCENARIOS)
    if(NOT IS_ABSOLUTE "${pattern}")
      set(pattern "${CMAKE_CURRENT_SOURCE_DIR}/${pattern}")
    endif()
    file(GLOB matched LIST_DIRECTORIES false CONFIGURE_DEPENDS "${pattern}")
    if(matched STREQUAL "")
      message(FATAL_ERROR "claude_harness_add_scenarios(${ARG_NAME}): '${pattern}' matches no file")
    endif()
    list(APPEND scenario_files ${matched})
  endforeach()
  list(REMOVE_DUPLICATES scenario_files)
  list(SORT scenario_files)

  set(seen_names)
  foreach(scenario IN LISTS scenario_files)
    get_filename_component(stem "${scenario}" NAME_WE)
    get_filename_component(folder "${scenario}" DIRECTORY)
    get_filename_component(folder "${folder}" NAME)
    set(test_name "${ARG_NAME}.${stem}")
    if(stem IN_LIST seen_names)
      message(FATAL_ERROR "claude_harness_add_scenarios(${ARG_NAME}): two scenarios are named "
                          "'${stem}' (the second is ${scenario}); test names must be unique")
    endif()
    list(APPEND seen_names "${stem}")

    set(report_args)
    if(DEFINED ARG_REPORT_DIR)
      file(MAKE_DIRECTORY "${ARG_REPORT_DIR}")
      set(report_args --report "${ARG_REPORT_DIR}/${test_name}.json")
    endif()
    add_test(NAME "${test_name}"
             COMMAND ${harness_command} replay "${scenario}" ${report_args} -- ${ARG_COMMAND}
             WORKING_DIRECTORY "${ARG_WORKING_DIRECTORY}")
    set_tests_properties("${test_name}" PROPERTIES
                         LABELS "scenario;${ARG_NAME};${folder};${ARG_LABELS}"
                         TIMEOUT ${ARG_TIMEOUT})
  endforeach()
endfunction()
