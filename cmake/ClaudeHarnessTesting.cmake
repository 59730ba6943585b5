# claude_harness_add_gtest(NAME SOURCES src… [LIBS lib…] [LABELS label…])
# One GoogleTest executable, registered with CTest test by test.
include(GoogleTest)
function(claude_harness_add_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gmock GTest::gtest_main)
  claude_harness_warnings(${name})
  # Labels are set by a script CTest reads after the discovered tests: a label list passed through
  # gtest_discover_tests(PROPERTIES) loses every label but the first.
  gtest_discover_tests(${name}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    TEST_LIST ${name}_TESTS
    PROPERTIES ENVIRONMENT "CLAUDE_HARNESS_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
    DISCOVERY_TIMEOUT 60)
  if(ARG_LABELS)
    set(labels_script ${CMAKE_CURRENT_BINARY_DIR}/${name}_labels.cmake)
    file(WRITE ${labels_script}
         "if(${name}_TESTS)\n"
         "  set_tests_properties(\${${name}_TESTS} PROPERTIES LABELS \"${ARG_LABELS}\")\n"
         "endif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_script})
  endif()
endfunction()
