# SPDX-License-Identifier: GPL-2.0
# The coverage target, in a build made with the coverage preset:
#   cmake --preset coverage && cmake --build --preset coverage --target coverage
if(CMAKE_C_FLAGS MATCHES "--coverage")
  find_program(LCOV lcov REQUIRED)
  find_program(GENHTML genhtml REQUIRED)
  add_custom_target(coverage
    COMMAND ${PROJECT_SOURCE_DIR}/coverage/userspace.sh ${CMAKE_BINARY_DIR}
            ${CMAKE_BINARY_DIR}/coverage
    COMMAND ${PROJECT_SOURCE_DIR}/coverage/report.sh ${CMAKE_BINARY_DIR}/coverage
    USES_TERMINAL
    COMMENT "Running the suites and capturing lib/ coverage")
  # Everything the suites run must be built first.
  foreach(t klist-unit shim-unit dd-unit klist-torture dd-torture klist-port)
    if(TARGET ${t})
      add_dependencies(coverage ${t})
    endif()
  endforeach()
endif()
