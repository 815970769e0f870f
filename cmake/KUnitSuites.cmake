# SPDX-License-Identifier: GPL-2.0
#
# kunit_test_executable(NAME LABEL SOURCES...)
#   Builds NAME from KUnit-dialect test files plus the Check runner and
#   adds one ctest test per kunit_suite found in the files (by its
#   `.name = "..."`), labelled LABEL, so that ctest reports suites.
#
# kunit_defect_executable(NAME SOURCES... LIBSOURCES...)
#   The same tests linked against other library sources (a patched copy):
#   used by tests/defects to show each regression test catches its defect.

add_library(kunit-check STATIC ${PROJECT_SOURCE_DIR}/shim/kunit/kunit-check.c)
target_link_libraries(kunit-check PUBLIC shim-objs PkgConfig::CHECK)

function(_kunit_link name)
  # The runner's main() and the suites' constructors must all be linked.
  target_link_libraries(${name} PRIVATE -Wl,--whole-archive kunit-check
                        -Wl,--no-whole-archive PkgConfig::CHECK Threads::Threads)
endfunction()

function(kunit_test_executable name label)
  add_executable(${name} ${ARGN})
  _kunit_link(${name})
  target_link_libraries(${name} PRIVATE klist-port-static)
  foreach(src ${ARGN})
    file(STRINGS ${src} lines REGEX "^[ \t]*\\.name[ \t]*=[ \t]*\"[^\"]+\"")
    foreach(line ${lines})
      string(REGEX REPLACE ".*\"([^\"]+)\".*" "\\1" suite "${line}")
      add_test(NAME ${label}.${suite} COMMAND ${name} ${suite})
      set_tests_properties(${label}.${suite} PROPERTIES LABELS "${label}"
                           TIMEOUT 300)
    endforeach()
  endforeach()
endfunction()

function(kunit_defect_executable name)
  cmake_parse_arguments(D "" "" "TESTS;LIBSOURCES" ${ARGN})
  add_executable(${name} ${D_TESTS} ${D_LIBSOURCES})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/include
                             ${PROJECT_SOURCE_DIR}/shim/include)
  # A re-introduced defect may leave a variable unused: not our concern.
  target_compile_options(${name} PRIVATE -Wno-unused-variable
                         -Wno-unused-but-set-variable)
  _kunit_link(${name})
endfunction()
