# SPDX-License-Identifier: GPL-2.0
# The coverage target, in a build made with the coverage preset:
#   cmake --preset coverage && cmake --build --preset coverage --target coverage
#
# Userspace: each kind of suite on its own, one tracefile per kind
# (coverage/userspace.sh).  Kernel (COVERAGE_KERNEL, default ON): the
# patched 6.1 kernel built with gcov for the project's lib/ objects, booted
# under QEMU with the KUnit suites built in (coverage/kernel.sh: 12-14 min
# cold on 2 cores, under a minute warm).  Then one merged report and a
# summary (coverage/report.sh).
if(CMAKE_C_FLAGS MATCHES "--coverage")
  find_program(LCOV lcov REQUIRED)
  find_program(GENHTML genhtml REQUIRED)
  option(COVERAGE_KERNEL
         "coverage target: also build a gcov kernel and run KUnit in QEMU" ON)
  set(_cov_out ${CMAKE_BINARY_DIR}/coverage)

  if(COVERAGE_KERNEL)
    # The same cache entries as cmake/KernelCheck.cmake (the first
    # definition wins), so one setting serves both.
    set(KLIST_KERNEL_TARBALL "/usr/src/linux-source-6.1.tar.xz" CACHE FILEPATH
        "Debian linux-source-6.1 tarball (apt-get install linux-source-6.1)")
    cmake_host_system_information(RESULT _cov_ncpu
                                  QUERY NUMBER_OF_LOGICAL_CORES)
    set(KLIST_KERNEL_JOBS "${_cov_ncpu}" CACHE STRING
        "make -j for the kernel build")
    # Another build directory's kernel/ may be named here to reuse its
    # unpacked trees; the gcov build goes to build-gcov/ inside it, beside
    # qemu-check's build/, and takes qemu-check's lock.
    set(COVERAGE_KERNEL_WORK "${CMAKE_BINARY_DIR}/kernel" CACHE PATH
        "Kernel trees and builds for the coverage kernel")
    set(COVERAGE_KERNEL_TIMEOUT 600 CACHE STRING
        "seconds allowed for the coverage kernel's QEMU boot")
    find_program(KLIST_PYTHON3 python3 REQUIRED)
    set(_cov_kernel
        COMMAND ${PROJECT_SOURCE_DIR}/coverage/kernel.sh
                --project ${PROJECT_SOURCE_DIR} --work ${COVERAGE_KERNEL_WORK}
                --out ${_cov_out} --tarball ${KLIST_KERNEL_TARBALL}
                --jobs ${KLIST_KERNEL_JOBS} --timeout ${COVERAGE_KERNEL_TIMEOUT})
  else()
    # report.sh merges kernel.info when present: drop an earlier run's.
    set(_cov_kernel COMMAND ${CMAKE_COMMAND} -E rm -f ${_cov_out}/kernel.info)
  endif()

  # Every target first: the suites' ctest cases are listed by the build
  # (the *-cases targets), and the torture label runs programs of both
  # flavours; a subset left ctest with 5 of the unit label's cases and
  # three torture programs missing on a fresh build directory.
  add_custom_target(coverage
    COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR}
    COMMAND ${PROJECT_SOURCE_DIR}/coverage/userspace.sh ${CMAKE_BINARY_DIR}
            ${_cov_out}
    ${_cov_kernel}
    COMMAND ${PROJECT_SOURCE_DIR}/coverage/report.sh ${_cov_out}
    USES_TERMINAL VERBATIM
    COMMENT "Running the suites and capturing lib/ coverage")
endif()
