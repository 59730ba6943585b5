# Installation and packaging, in one place so no component's CMakeLists.txt has to know about it.
#
# `cmake --install` gives: the executables in bin/; the SDK's public headers in include/claude/sdk;
# claude::sdk (plus claude::fake-claude and claude::harness as imported executables) through
# find_package(claude_harness CONFIG); a
# pkg-config file; the scenario schema, the bundled scenarios and the driver sources under
# share/claude-harness/; the guides under share/doc/claude_harness/. `cpack -G DEB` packs the same.
#
# Every rule is guarded by if(TARGET …): a tree missing a component still configures and installs
# the rest.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# report-html is not in the top-level component list yet (the tests add it when they are built);
# a build without tests must still install claude-report-html.
if(NOT TARGET claude_report_html AND EXISTS "${PROJECT_SOURCE_DIR}/report-html/CMakeLists.txt")
  add_subdirectory("${PROJECT_SOURCE_DIR}/report-html" "${PROJECT_BINARY_DIR}/report-html")
endif()

set(CLAUDE_HARNESS_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/claude_harness"
    CACHE STRING "Where the CMake package files go, relative to the prefix")
set(CLAUDE_HARNESS_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/claude-harness")

# The one library users link: claude::sdk, with exactly its listed public headers (the
# CLAUDE_PUBLIC_HEADERS property, sdk/CMakeLists.txt; at most 12, tests/install counts them). The
# other libraries (emulator, recorder, recorded_text) are internals of the installed tools and
# install nothing. The static archive carries its PRIVATE dependencies into the export as
# link-only entries (no include path, no definition reaches the consumer), so the config file must
# still find those (simdjson), and the claude_base archive ships beside it without its headers: it
# is our ground floor, not an API (its include directory is build-tree only, base/CMakeLists.txt).
set(claude_harness_exported_libraries)
if(TARGET claude_sdk)
  list(APPEND claude_harness_exported_libraries claude_sdk)
  get_target_property(claude_sdk_public_headers claude_sdk CLAUDE_PUBLIC_HEADERS)
  install(FILES ${claude_sdk_public_headers}
          DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/claude/sdk" COMPONENT development)
endif()
if(TARGET claude_base)
  list(APPEND claude_harness_exported_libraries claude_base)
endif()

# Executables a user's tests run by target name: `$<TARGET_FILE:claude::harness>` works the same
# in this tree (through the aliases below) and against an installed package.
set(claude_harness_exported_executables)
foreach(executable fake-claude harness)
  if(TARGET ${executable})
    list(APPEND claude_harness_exported_executables ${executable})
    if(NOT TARGET claude::${executable})
      add_executable(claude::${executable} ALIAS ${executable})
    endif()
  endif()
endforeach()

if(claude_harness_exported_libraries OR claude_harness_exported_executables)
  install(TARGETS ${claude_harness_exported_libraries} ${claude_harness_exported_executables}
          EXPORT claude_harness_targets
          RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime
          ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT development
          LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT runtime
          INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
  install(EXPORT claude_harness_targets
          NAMESPACE claude::
          FILE claude_harness-targets.cmake
          DESTINATION "${CLAUDE_HARNESS_INSTALL_CMAKEDIR}"
          COMPONENT development)
endif()

# The other executables are tools, not link targets. claude-sdk-ask is the example client
# docs/getting-started.md replays a scenario against, installed so a newcomer has one.
foreach(executable claude-tee model-stub claude-report-html claude-harness-driver-cpp
                   claude-sdk-ask)
  if(TARGET ${executable})
    install(TARGETS ${executable} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime)
  endif()
endforeach()

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/claude_harness-config.cmake.in"
  "${PROJECT_BINARY_DIR}/claude_harness-config.cmake"
  INSTALL_DESTINATION "${CLAUDE_HARNESS_INSTALL_CMAKEDIR}"
  PATH_VARS CLAUDE_HARNESS_INSTALL_DATADIR)
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/claude_harness-config-version.cmake"
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
          "${PROJECT_BINARY_DIR}/claude_harness-config.cmake"
          "${PROJECT_BINARY_DIR}/claude_harness-config-version.cmake"
          "${CMAKE_CURRENT_LIST_DIR}/ClaudeHarnessScenarios.cmake"
        DESTINATION "${CLAUDE_HARNESS_INSTALL_CMAKEDIR}"
        COMPONENT development)

# pkg-config: libraries are listed dependents first, as a static link needs them; simdjson is
# in Requires, not Requires.private, because the archive needs it at link time.
set(claude_harness_pc_libs)
foreach(library ${claude_harness_exported_libraries})
  string(APPEND claude_harness_pc_libs " -l${library}")
endforeach()
file(RELATIVE_PATH claude_harness_pc_to_prefix "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" claude_harness_pc_to_prefix "${claude_harness_pc_to_prefix}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/claude_harness.pc.in"
               "${PROJECT_BINARY_DIR}/claude_harness.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/claude_harness.pc"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig" COMPONENT development)

# Data: what fake-claude, the schema-aware editors and the conformance drivers need.
install(FILES "${PROJECT_SOURCE_DIR}/docs/scenario.schema.json" "${PROJECT_SOURCE_DIR}/docs/driver-spec.schema.json"
        DESTINATION "${CLAUDE_HARNESS_INSTALL_DATADIR}" COMPONENT runtime)
if(EXISTS "${PROJECT_SOURCE_DIR}/docs/model-script.schema.json")
  install(FILES "${PROJECT_SOURCE_DIR}/docs/model-script.schema.json"
          DESTINATION "${CLAUDE_HARNESS_INSTALL_DATADIR}" COMPONENT runtime)
endif()
install(DIRECTORY "${PROJECT_SOURCE_DIR}/scenarios/"
        DESTINATION "${CLAUDE_HARNESS_INSTALL_DATADIR}/scenarios" COMPONENT runtime)
if(IS_DIRECTORY "${PROJECT_SOURCE_DIR}/drivers")
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/drivers/"
          DESTINATION "${CLAUDE_HARNESS_INSTALL_DATADIR}/drivers" COMPONENT runtime
          PATTERN node_modules EXCLUDE
          PATTERN __pycache__ EXCLUDE)
endif()
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT runtime
        FILES_MATCHING PATTERN "*.md")

# A .deb when this is the top-level project (a parent that add_subdirectory()s us packs itself).
if(PROJECT_IS_TOP_LEVEL)
  set(CPACK_PACKAGE_NAME "claude-harness")
  set(CPACK_PACKAGE_VENDOR "claude-harness")
  set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
      "Test tools for the Claude Code CLI stream-json protocol: fake-claude, claude-tee, harness")
  set(CPACK_PACKAGE_CONTACT "claude-harness maintainers <maintainers@claude-harness.invalid>")
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
  set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
  # Runtime libraries come from dpkg-shlibdeps; the -dev packages are what the installed CMake
  # package and headers need to compile and link a consumer of claude::sdk.
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "nlohmann-json3-dev (>= 3.11), libsimdjson-dev, pkg-config")
  set(CPACK_GENERATOR "DEB")
  include(CPack)
endif()
