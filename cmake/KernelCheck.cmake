# SPDX-License-Identifier: GPL-2.0
#
# Kernel side of the klist-port checks (included from the top-level
# CMakeLists.txt).
#
# Targets:
#   kernel-patches    regenerate the committed series in kernel-patches/
#   qemu-check        build the patched 6.1 kernel (lockdep, KASAN, ...)
#                     and run the KUnit suites under QEMU (-smp 2)
#   qemu-check-kcsan  the same with KCSAN instead of KASAN (not in ctest)
#   verdicts          the two-world verdict table of the last runs
#
# Tests (ctest):
#   label "patches": kernel-unpack (fixture), kernel-patches-current,
#                    kernel-patches-apply, kernel-patches-checkpatch,
#                    kernel-upstream-patch (kernel-patches/upstream/),
#                    qemu-scan-selftest (the console scanner on fake logs)
#   label "qemu":    qemu-check, qemu-verdicts (the two-world verdict table)
#
# Everything lives under ${CMAKE_BINARY_DIR}/kernel: pristine/ (read-only
# reference tree), src/ (patched tree), series/ (series generated from
# the current sources), build/ and build-kcsan/ (kunit.py build dirs).

option(KLIST_QEMU "Kernel patch series checks and QEMU KUnit runs" ON)

if(KLIST_QEMU)
	set(KLIST_KERNEL_TARBALL "/usr/src/linux-source-6.1.tar.xz" CACHE FILEPATH
	    "Debian linux-source-6.1 tarball (apt-get install linux-source-6.1)")
	cmake_host_system_information(RESULT _klist_ncpu
				      QUERY NUMBER_OF_LOGICAL_CORES)
	set(KLIST_KERNEL_JOBS "${_klist_ncpu}" CACHE STRING
	    "make -j for the kernel build")
	set(KLIST_QEMU_TIMEOUT 1200 CACHE STRING
	    "seconds allowed for the QEMU run (kunit.py --timeout)")

	find_program(KLIST_PYTHON3 python3 REQUIRED)

	set(_kdir "${CMAKE_BINARY_DIR}/kernel")
	set(_kpristine "${_kdir}/pristine/linux-source-6.1")
	set(_kscripts "${PROJECT_SOURCE_DIR}/scripts")
	if(NOT EXISTS "${KLIST_KERNEL_TARBALL}")
		message(STATUS "KernelCheck: ${KLIST_KERNEL_TARBALL} not found; "
			"kernel targets and tests will fail until you run "
			"`apt-get install linux-source-6.1`")
	endif()

	set(_kunpack "${_kscripts}/kernel-tree.sh" unpack
	    "${KLIST_KERNEL_TARBALL}" "${_kdir}/pristine")
	set(_qemu_check "${_kscripts}/qemu-check.sh"
	    --project "${PROJECT_SOURCE_DIR}" --work "${_kdir}"
	    --tarball "${KLIST_KERNEL_TARBALL}"
	    --jobs "${KLIST_KERNEL_JOBS}" --timeout "${KLIST_QEMU_TIMEOUT}")

	add_custom_target(kernel-patches
		COMMAND ${_kunpack}
		COMMAND "${KLIST_PYTHON3}" "${_kscripts}/gen-kernel-patches.py"
			--project "${PROJECT_SOURCE_DIR}"
			--pristine "${_kpristine}"
		COMMENT "Regenerating kernel-patches/ from the sources"
		VERBATIM)

	add_custom_target(qemu-check
		COMMAND ${_qemu_check} --variant kasan
		COMMENT "Kernel build + KUnit under QEMU (lockdep, KASAN)"
		USES_TERMINAL VERBATIM)

	# K6 in the kernel's own klist: 6.1 as shipped, under KASAN; and
	# with a delay that opens the window (not in ctest).
	set(_kernel_klist "${_kscripts}/qemu-kernel-klist.sh"
	    --project "${PROJECT_SOURCE_DIR}" --work "${_kdir}"
	    --tarball "${KLIST_KERNEL_TARBALL}" --jobs "${KLIST_KERNEL_JOBS}")
	add_custom_target(qemu-kernel-klist
		COMMAND ${_kernel_klist}
		COMMAND ${_kernel_klist} --delay
		COMMENT "6.1's own klist under KASAN in QEMU: as shipped, then with K6's window widened"
		USES_TERMINAL VERBATIM)
	include(${CMAKE_CURRENT_LIST_DIR}/KernelBench.cmake)

	add_custom_target(qemu-check-kcsan
		COMMAND ${_qemu_check} --variant kcsan
		COMMENT "Kernel build + KUnit under QEMU (lockdep, KCSAN)"
		USES_TERMINAL VERBATIM)

	enable_testing()

	add_test(NAME kernel-unpack COMMAND ${_kunpack})
	set_tests_properties(kernel-unpack PROPERTIES
		LABELS "patches;qemu" FIXTURES_SETUP kernel_pristine
		TIMEOUT 600)

	add_test(NAME kernel-patches-current
		 COMMAND "${_kscripts}/kernel-check-series.sh"
			 "${_kpristine}" "${PROJECT_SOURCE_DIR}")
	add_test(NAME kernel-patches-apply
		 COMMAND "${_kscripts}/kernel-check-apply.sh"
			 "${_kpristine}" "${PROJECT_SOURCE_DIR}")
	add_test(NAME kernel-patches-checkpatch
		 COMMAND "${_kscripts}/kernel-checkpatch.sh"
			 "${_kpristine}" "${PROJECT_SOURCE_DIR}")
	# The fix for the kernel's own klist (kernel-patches/upstream/).
	add_test(NAME kernel-upstream-patch
		 COMMAND "${_kscripts}/kernel-check-upstream.sh"
			 "${_kpristine}" "${PROJECT_SOURCE_DIR}")
	set_tests_properties(kernel-patches-current kernel-patches-apply
			     kernel-patches-checkpatch kernel-upstream-patch PROPERTIES
		LABELS patches FIXTURES_REQUIRED kernel_pristine TIMEOUT 600)

	# The console scanner on synthetic logs (no kernel needed).
	add_test(NAME qemu-scan-selftest
		 COMMAND "${PROJECT_SOURCE_DIR}/tests/qemu/scan-console-selftest.sh")
	set_tests_properties(qemu-scan-selftest PROPERTIES
		LABELS patches TIMEOUT 120)

	# Same command as the qemu-check target.  A cold run builds a whole
	# debug kernel (about 10 minutes on 2 cores), hence the timeout.
	add_test(NAME qemu-check COMMAND ${_qemu_check} --variant kasan)
	set_tests_properties(qemu-check PROPERTIES
		LABELS qemu FIXTURES_REQUIRED kernel_pristine
		FIXTURES_SETUP qemu_run
		RUN_SERIAL TRUE TIMEOUT 5400)

	# One table of verdicts for both worlds: every shared case (the
	# suites of tests/unit/*.c) in the userspace KTAP and in the
	# console log of the last qemu-check, with the same verdict.
	get_property(_ktap_files GLOBAL PROPERTY KUNIT_KTAP_FILES)
	set(_verdicts "${KLIST_PYTHON3}" "${_kscripts}/ktap-verdicts.py"
	    --suites "${_kdir}/series/suites.json"
	    --kernel "${_kdir}/build/test.log"
	    --userspace ${_ktap_files})
	add_test(NAME qemu-verdicts COMMAND ${_verdicts})
	set_tests_properties(qemu-verdicts PROPERTIES
		LABELS qemu FIXTURES_REQUIRED "qemu_run;userspace_ktap"
		TIMEOUT 120)
	add_custom_target(verdicts COMMAND ${_verdicts} --all
		COMMENT "Verdicts of the shared cases, userspace and kernel (run ctest and qemu-check first)"
		VERBATIM)
endif()
