# claude_harness_add_man_page(TARGET SUMMARY "one line" [SUBCOMMANDS])
# Generates <build>/man/man1/TARGET.1 from `TARGET --help` after TARGET is built (help_to_man.cmake)
# and installs it, so --help and the man page come from one text and cannot disagree.
include(GNUInstallDirs)
set(CLAUDE_HARNESS_HELP_TO_MAN ${CMAKE_CURRENT_LIST_DIR}/help_to_man.cmake)
set(CLAUDE_HARNESS_MAN_DIR ${CMAKE_BINARY_DIR}/man/man1)
set_property(GLOBAL PROPERTY CLAUDE_HARNESS_MAN_PAGES "")

function(claude_harness_add_man_page target)
  cmake_parse_arguments(ARG "SUBCOMMANDS" "SUMMARY" "" ${ARGN})
  if(NOT TARGET ${target})
    return()
  endif()
  set(page ${CLAUDE_HARNESS_MAN_DIR}/${target}.1)
  set(subcommands OFF)
  if(ARG_SUBCOMMANDS)
    set(subcommands ON)
  endif()
  add_custom_command(OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CLAUDE_HARNESS_MAN_DIR}
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:${target}> -DNAME=${target}
            "-DSUMMARY=${ARG_SUMMARY}" -DVERSION=${PROJECT_VERSION} -DOUT=${page}
            -DSUBCOMMANDS=${subcommands} -P ${CLAUDE_HARNESS_HELP_TO_MAN}
    DEPENDS ${target} ${CLAUDE_HARNESS_HELP_TO_MAN}
    COMMENT "man page ${target}.1 from ${target} --help"
    VERBATIM)
  add_custom_target(${target}-man ALL DEPENDS ${page})
  install(FILES ${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
  set_property(GLOBAL APPEND PROPERTY CLAUDE_HARNESS_MAN_PAGES ${target})
endfunction()
