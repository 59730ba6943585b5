# claude_harness_add_gtest(NAME SOURCES src… [LIBS lib…] [LABELS label…])
# One GoogleTest executable, registered with CTest test by test.
include(GoogleTest)
function(claude_harness_add_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gmock GTest::gtest_main)
  claude_harness_warnings(${name})
  # The discovered tests' properties pass through a generated script: keep a label list whole.
  string(REPLACE ";" "\\;" labels "${ARG_LABELS}")
  gtest_discover_tests(${name}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES LABELS "${labels}" ENVIRONMENT "CLAUDE_HARNESS_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
    DISCOVERY_TIMEOUT 60)
endfunction()
