# SPDX-License-Identifier: GPL-2.0
#
# kunit_test_executable(NAME LABEL SOURCES...)
#   Builds NAME from KUnit-dialect test files plus the Check runner.
#   After each link, KUnitDiscover.cmake asks NAME for its cases (--list)
#   and registers one ctest test per case, LABEL.SUITE.CASE, labelled
#   LABEL and SUITE (as gtest_discover_tests does).  Each keeps its KTAP
#   in ${CMAKE_BINARY_DIR}/ktap/NAME/.  ktap.NAME collects them into one
#   document (${CMAKE_BINARY_DIR}/ktap/NAME.ktap, what the verdict table
#   reads) and checks that kunit.py parse reads it with the right counts.
#
# kunit_register_cases(NAME LABEL [NO_VERDICTS]), for a runner built
#   otherwise (the fast flavour's): the same registration.
#
# kunit_defect_executable(NAME SOURCES... LIBSOURCES...)
#   The same tests linked against other library sources (a patched copy):
#   used by tests/defects to show each regression test catches its defect.

# In the valgrind build (the shim annotated with -DSHIM_VALGRIND), every
# suite also runs under helgrind and DRD; any report fails the case.
option(KLIST_VALGRIND_TESTS "Run the suites under helgrind and DRD too" OFF)
if(KLIST_VALGRIND_TESTS)
  find_program(VALGRIND_EXECUTABLE valgrind REQUIRED)
  # valgrind through a wrapper that keeps each process's log apart, so a
  # forked child's report reaches its failure title.
  set(VALGRIND ${PROJECT_SOURCE_DIR}/tests/valgrind-run.sh)
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

# The runner, and what it needs of the runtime under the suites: the
# checked shim here; the fast flavour has its own (fast/testing/).
# <kunit/*.h> live apart from the shim's linux/*.h, so a build on
# another runtime can take them without the shim's kernel headers.
add_library(kunit-check STATIC ${PROJECT_SOURCE_DIR}/shim/kunit/kunit-check.c
            ${PROJECT_SOURCE_DIR}/shim/kunit/kunit-runtime-shim.c)
target_include_directories(kunit-check PUBLIC ${PROJECT_SOURCE_DIR}/shim/kunit/include)
target_link_libraries(kunit-check PUBLIC shim-objs PkgConfig::CHECK)

# The same runner on the fast flavour (fast/testing/ builds both
# libraries): suites linked with this run on the fast runtime.
function(kfast_kunit_link name)
  target_link_libraries(${name} PRIVATE -Wl,--whole-archive kunit-check-fast
                        -Wl,--no-whole-archive kfast-testing PkgConfig::CHECK
                        Threads::Threads)
endfunction()

function(_kunit_link name)
  # The runner's main() and the suites' constructors must all be linked.
  target_link_libraries(${name} PRIVATE -Wl,--whole-archive kunit-check
                        -Wl,--no-whole-archive PkgConfig::CHECK Threads::Threads)
endfunction()

# Where kunit.py comes from: the kernel tree that qemu-check unpacks, or
# (userspace builds) just tools/testing/kunit taken from the tarball.
set(KLIST_KERNEL_TARBALL "/usr/src/linux-source-6.1.tar.xz" CACHE FILEPATH
    "Debian linux-source-6.1 tarball (apt-get install linux-source-6.1)")
if(KLIST_QEMU)
  set(KUNIT_TOOL_DIR
      ${CMAKE_BINARY_DIR}/kernel/pristine/linux-source-6.1/tools/testing/kunit)
  set(KUNIT_TOOL_FIXTURE kernel_pristine)
else()
  set(KUNIT_TOOL_DIR ${CMAKE_BINARY_DIR}/kunit-tool/linux-source-6.1/tools/testing/kunit)
  set(KUNIT_TOOL_FIXTURE kunit_tool)
  add_test(NAME kunit-tool-unpack
           COMMAND ${PROJECT_SOURCE_DIR}/scripts/kunit-tool-unpack.sh
                   ${KLIST_KERNEL_TARBALL} ${CMAKE_BINARY_DIR}/kunit-tool)
  set_tests_properties(kunit-tool-unpack PROPERTIES LABELS ktap
                       FIXTURES_SETUP kunit_tool TIMEOUT 600)
endif()

function(kunit_test_executable name label)
  add_executable(${name} ${ARGN})
  _kunit_link(${name})
  target_link_libraries(${name} PRIVATE klist-port-static)
  kunit_register_cases(${name} ${label})
endfunction()

# kunit_register_cases(NAME LABEL [NO_VERDICTS])
#   One ctest per case of the runner NAME, and ktap.NAME.  NO_VERDICTS:
#   its KTAP stays out of the userspace-vs-kernel verdict table (a
#   second flavour of cases that are already there).
function(kunit_register_cases name label)
  cmake_parse_arguments(R "NO_VERDICTS" "" "" ${ARGN})
  set(ktap_dir ${CMAKE_BINARY_DIR}/ktap/${name})
  file(MAKE_DIRECTORY ${ktap_dir})
  set(ctest_file ${CMAKE_CURRENT_BINARY_DIR}/${name}-cases.cmake)
  string(REPLACE ";" "|" tools "${VALGRIND_TOOLS}")
  string(REPLACE ";" "|" venv "${VALGRIND_ENV}")
  set(vargs)
  foreach(tool ${VALGRIND_TOOLS})
    string(REPLACE ";" "|" a "${VALGRIND_ARGS_${tool}}")
    list(APPEND vargs -D "VALGRIND_ARGS_${tool}=${a}")
  endforeach()
  # Rerun when the binary or the script changes (POST_BUILD would miss
  # the script).
  add_custom_command(OUTPUT ${ctest_file}
    COMMAND ${CMAKE_COMMAND} -D EXE=$<TARGET_FILE:${name}> -D LABEL=${label}
            -D OUT=${ctest_file} -D KTAP_DIR=${ktap_dir} -D TIMEOUT=300
            -D FIXTURE=ktap_cases_${name}
            -D TOOLS=${tools} -D VALGRIND=${VALGRIND} -D VALGRIND_ENV=${venv}
            ${vargs} -P ${PROJECT_SOURCE_DIR}/cmake/KUnitDiscover.cmake
    DEPENDS ${name} ${PROJECT_SOURCE_DIR}/cmake/KUnitDiscover.cmake
    COMMENT "Listing the KUnit cases of ${name}" VERBATIM)
  add_custom_target(${name}-cases ALL DEPENDS ${ctest_file})
  # Until the binary is built there is a test that fails, as
  # gtest_discover_tests has: never an empty, green ctest.
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/${name}-include.cmake
       "if(EXISTS [=[${ctest_file}]=])\n"
       "  include([=[${ctest_file}]=])\n"
       "else()\n"
       "  add_test([=[${label}.${name}_NOT_BUILT]=] [=[${name}_NOT_BUILT]=])\n"
       "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES
               ${CMAKE_CURRENT_BINARY_DIR}/${name}-include.cmake)

  # Every case, as one KTAP document, through the kernel's own parser:
  # after the cases (each a setup of the fixture ktap_cases_NAME), from
  # the KTAP they left, so nothing runs twice.
  add_test(NAME ktap.${name}
           COMMAND ${PROJECT_SOURCE_DIR}/scripts/ktap-parse-check.sh
                   $<TARGET_FILE:${name}> ${CMAKE_BINARY_DIR}/ktap/${name}.ktap
                   ${KUNIT_TOOL_DIR} ${ktap_dir})
  set_tests_properties(ktap.${name} PROPERTIES LABELS "ktap;${label}"
                       FIXTURES_REQUIRED "${KUNIT_TOOL_FIXTURE};ktap_cases_${name}"
                       FIXTURES_SETUP userspace_ktap
                       TIMEOUT 600 SKIP_RETURN_CODE 77)
  # The verdict table (KernelCheck.cmake) reads them all.
  if(NOT R_NO_VERDICTS)
    set_property(GLOBAL APPEND PROPERTY KUNIT_KTAP_FILES
                 ${CMAKE_BINARY_DIR}/ktap/${name}.ktap)
  endif()
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
