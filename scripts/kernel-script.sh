# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables it sets are the caller's
#
# Sourced, not run, by every script that builds a kernel in a work
# directory (scripts/qemu-check.sh, qemu-kernel-klist.sh,
# qemu-kernel-bench.sh, coverage/kernel.sh): what they share.
#
#   kernel_script_init WHO PROJECT TIMEOUT
#	defaults of the shared options: project=PROJECT, work= (later
#	PROJECT/build/kernel), the Debian tarball, jobs=nproc, timeout=
#	TIMEOUT (seconds for QEMU); WHO names the script in every message
#   kernel_parse_args "$@"
#	the shared options (--project, --work, --tarball, --jobs,
#	--timeout, --help) and, through the script's own kernel_own_arg
#	(if it defines one: it sets kernel_shift to the words it took, or
#	leaves it 0), the script's.  Anything else is a usage error: a
#	message and exit 2
#   kernel_value_arg OPTION VARIABLE "$@", kernel_flag_arg OPTION VARIABLE "$@"
#	in a kernel_own_arg: if the word is OPTION, VARIABLE is set to the
#	next word (a missing one: exit 2), or to 1 for a flag
#   kernel_need_value "$@"
#	for an option that takes a value: exit 2 without one
#   kernel_work_lock
#	makes project and work absolute (work created), then takes the
#	work directory's lock: one kernel build at a time per directory
#   kernel_kunit_run ARGS...
#	kunit.py run in the tree $src with the build $build, x86_64 on
#	two CPUs, $jobs and $timeout, plus ARGS (configs, suites, ...);
#	its output in $build/kunit.out, its exit status in kernel_rc
#   kernel_kunit COMMAND ARGS...
#	the same with any kunit.py command and no --jobs: exec boots the
#	kernel built last, without a build.  With kernel_boot_watchdog=N
#	(seconds), a boot with no KTAP line N s after QEMU started is
#	killed and kernel_boot_stalled set (kernel_watch_boot)
#   step TEXT
#	"WHO +SECONDSs: TEXT", the time since kernel_script_init

kernel_script_init() {
	kernel_who=$1
	project=$2
	timeout=$3
	work=
	tarball=/usr/src/linux-source-6.1.tar.xz
	jobs=$(nproc)
	kernel_t0=$(date +%s)
}

# The calling script's header comment, from its second comment line to
# the first line that is no comment, is its usage text.
kernel_usage() {
	sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"
}

kernel_need_value() {
	if [ $# -lt 2 ] || [ -z "$2" ]; then
		echo "$kernel_who: $1 needs a value" >&2
		exit 2
	fi
}

kernel_value_arg() {
	local opt=$1 var=$2

	shift 2
	if [ "$1" = "$opt" ]; then
		kernel_need_value "$@"
		printf -v "$var" '%s' "$2"
		kernel_shift=2
	fi
}

kernel_flag_arg() {
	if [ "$3" = "$1" ]; then
		printf -v "$2" '%s' 1
		kernel_shift=1
	fi
}

kernel_arg() {
	kernel_shift=2
	case "$1" in
	--project|--work|--tarball|--jobs|--timeout)
		kernel_need_value "$@" ;;
	esac
	case "$1" in
	--project) project=$2 ;;
	--work) work=$2 ;;
	--tarball) tarball=$2 ;;
	--jobs) jobs=$2 ;;
	--timeout) timeout=$2 ;;
	--help|-h)
		kernel_usage
		exit 0 ;;
	*)
		echo "$kernel_who: unknown argument $1 (--help lists them)" >&2
		exit 2 ;;
	esac
}

kernel_parse_args() {
	while [ $# -gt 0 ]; do
		kernel_shift=0
		if declare -F kernel_own_arg >/dev/null; then
			kernel_own_arg "$@"
		fi
		if [ "$kernel_shift" -eq 0 ]; then
			kernel_arg "$@"
		fi
		shift "$kernel_shift"
	done
}

# The lock must belong to the calling shell, so that it is held until
# that script exits; a helper process would drop it on its own exit.
kernel_work_lock() {
	project=$(cd "$project" && pwd)
	work=${work:-$project/build/kernel}
	mkdir -p "$work"
	work=$(cd "$work" && pwd)
	exec 8>"$work/.qemu-check.lock"
	if ! flock -n 8; then
		echo "$kernel_who: waiting for another kernel build in $work"
		flock 8
	fi
}

# shellcheck disable=SC2154 # src and build are the caller's
kernel_kunit() {
	local cmd=$1 pid

	shift
	set +e
	# -u: the console reaches kunit.out line by line, for the watchdog.
	(cd "$src" && exec python3 -u tools/testing/kunit/kunit.py "$cmd" \
		--arch=x86_64 --build_dir="$build" \
		--qemu_args="-smp 2" --timeout="$timeout" \
		"$@") < /dev/null > "$build/kunit.out" 2>&1 &
	pid=$!
	kernel_boot_stalled=0
	if [ "${kernel_boot_watchdog:-0}" -gt 0 ]; then
		kernel_watch_boot "$pid"
	fi
	wait "$pid"
	kernel_rc=$?
	set -e
}

# The boot watchdog: a kernel whose console shows no "KTAP version"
# within $kernel_boot_watchdog seconds of QEMU's start stalled before
# KUnit; its QEMU is killed (kunit.py then ends at once) and
# kernel_boot_stalled is set, instead of waiting for kunit.py's
# --timeout.  kernel_boot_freeze=1 stops the VM (SIGSTOP) as soon as it
# starts: a stall made on purpose, to show the watchdog at work.
kernel_watch_boot() {
	local pid=$1 image="$build/arch/x86/boot/bzImage" start=

	while kill -0 "$pid" 2>/dev/null; do
		if [ -z "$start" ]; then
			if pgrep -f -- "-kernel $image" >/dev/null; then
				start=$SECONDS
				if [ "${kernel_boot_freeze:-0}" = 1 ]; then
					step "boot watchdog: freezing this boot's VM on purpose (--freeze-first-boot)"
					pkill -STOP -f -- "-kernel $image" || true
				fi
			fi
		elif grep -q 'KTAP version' "$build/kunit.out"; then
			step "boot watchdog: KUnit started $((SECONDS - start)) s after QEMU"
			return 0
		elif [ $((SECONDS - start)) -ge "$kernel_boot_watchdog" ]; then
			step "boot watchdog: no KTAP line $kernel_boot_watchdog s after QEMU started: killing it"
			pkill -KILL -f -- "-kernel $image" || true
			kernel_boot_stalled=1
			return 0
		fi
		sleep 1
	done
}

kernel_kunit_run() {
	kernel_kunit run --jobs="$jobs" "$@"
}

step() {
	echo "$kernel_who +$(( $(date +%s) - kernel_t0 ))s: $*"
}
