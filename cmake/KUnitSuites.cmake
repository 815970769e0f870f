# SPDX-License-Identifier: GPL-2.0
#
# kunit_test_executable(NAME LABEL SOURCES...)
#
# Builds NAME from KUnit-dialect test files plus the Check runner, and
# adds one ctest test per kunit_suite found in the files (by its
# `.name = "..."`), labelled LABEL, so ctest reports suites.

add_library(kunit-check STATIC ${PROJECT_SOURCE_DIR}/shim/kunit/kunit-check.c)
target_link_libraries(kunit-check PUBLIC klist-port-static PkgConfig::CHECK)

function(kunit_test_executable name label)
  add_executable(${name} ${ARGN})
  # The runner's main() and the suites' constructors must all be linked.
  target_link_libraries(${name} PRIVATE -Wl,--whole-archive kunit-check
                        -Wl,--no-whole-archive klist-port-static PkgConfig::CHECK)
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
