# SPDX-License-Identifier: GPL-2.0
#
# Sourced, not run, by every script that builds a kernel in a work
# directory (qemu-check.sh, qemu-kernel-klist.sh, qemu-kernel-bench.sh,
# coverage/kernel.sh): one kernel build at a time per work directory.
# The lock must belong to the calling shell, so that it is held until
# that script exits; a helper process would drop it on its own exit.
#
#   kernel_build_lock WORK WHO   WHO names the waiter in the message

kernel_build_lock() {
	exec 8>"$1/.qemu-check.lock"
	if ! flock -n 8; then
		echo "$2: waiting for another kernel build in $1"
		flock 8
	fi
}
