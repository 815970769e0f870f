# SPDX-License-Identifier: GPL-2.0
#
# qemu-kernel-bench: per-step cost of our klist and of Linux 6.1's own in
# one booted kernel (scripts/qemu-kernel-bench.sh, tests/qemu/BENCH.md).
# Included from cmake/KernelCheck.cmake, which sets the variables used
# here.  A target only: not part of qemu-check, not in ctest or any
# workflow preset (a benchmark; under QEMU's TCG only its ratio counts).
#
#   cmake --build build --target qemu-kernel-bench
#
# Its tree and build live in ${CMAKE_BINARY_DIR}/kernel/src-bench and
# build-bench, under the same lock as the other kernel builds.

set(KLIST_BENCH_ROUNDS 21 CACHE STRING
    "qemu-kernel-bench: counted rounds per list size (3..101)")

add_custom_target(qemu-kernel-bench
	COMMAND "${_kscripts}/qemu-kernel-bench.sh"
		--project "${PROJECT_SOURCE_DIR}" --work "${_kdir}"
		--tarball "${KLIST_KERNEL_TARBALL}"
		--jobs "${KLIST_KERNEL_JOBS}"
		--rounds "${KLIST_BENCH_ROUNDS}"
	COMMENT "klist per-step cost, ours vs 6.1's, in one kernel under QEMU (lean config)"
	USES_TERMINAL VERBATIM)
