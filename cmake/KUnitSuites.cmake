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

# In the valgrind build (the shim annotated with -DSHIM_VALGRIND), every
# suite also runs under helgrind and DRD; any report fails the case.
option(KLIST_VALGRIND_TESTS "Run the suites under helgrind and DRD too" OFF)
if(KLIST_VALGRIND_TESTS)
  find_program(VALGRIND valgrind REQUIRED)
  set(VALGRIND_TOOLS helgrind drd)
  set(VALGRIND_ARGS_helgrind --tool=helgrind --error-exitcode=99
      --suppressions=${PROJECT_SOURCE_DIR}/tests/valgrind.supp)
  set(VALGRIND_ARGS_drd --tool=drd --error-exitcode=99
      --suppressions=${PROJECT_SOURCE_DIR}/tests/valgrind.supp)
  # Valgrind runs threads one at a time, 20-100x slower: give sleeps room.
  set(VALGRIND_ENV "SHIM_HUNG_TASK_MS=60000;CK_TIMEOUT_MULTIPLIER=20")
endif()

# Adds TEST (running COMMAND...) under each valgrind tool, as TOOL.TEST.
function(add_valgrind_tests test label)
  foreach(tool ${VALGRIND_TOOLS})
    add_test(NAME ${tool}.${test} COMMAND ${VALGRIND} ${VALGRIND_ARGS_${tool}} ${ARGN})
    set_tests_properties(${tool}.${test} PROPERTIES LABELS "${tool};${label}"
                         TIMEOUT 1800 ENVIRONMENT "${VALGRIND_ENV}")
  endforeach()
endfunction()

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
      add_valgrind_tests(${label}.${suite} ${label}
                         $<TARGET_FILE:${name}> ${suite})
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
