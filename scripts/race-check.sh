#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# race-check.sh [-h]
#
# Every race tool over the userspace tests, as CI runs them after the
# default workflow: three clean parallel builds (scripts/clean-build-check.sh),
# then the valgrind workflow (helgrind and DRD on every suite, the
# tortures and their canaries), the asan workflow (ASan+UBSan, every
# userspace test) and the tsan workflow (ThreadSanitizer, every userspace
# test).  Each builds in its own directory (build-valgrind, build-asan,
# build-tsan).  Every step runs even after one fails; the exit status is
# 1 when any failed.
set -uo pipefail
if [[ $# -gt 0 ]]; then
	sed -n '4,14s/^# \{0,1\}//p' "$0"
	[[ $1 == -h || $1 == --help ]] && exit 0
	exit 2
fi
cd "$(dirname "$0")/.."

summary=() failed=0
step() {
	local name=$1 start=$SECONDS rc
	shift
	echo "race-check: $name: $*"
	"$@"
	rc=$?
	summary+=("$(printf '%-12s %-4s %5d s' "$name" \
		"$([[ $rc -eq 0 ]] && echo PASS || echo FAIL)" $((SECONDS - start)))")
	[[ $rc -eq 0 ]] || failed=1
}

step clean-build scripts/clean-build-check.sh
step valgrind cmake --workflow --preset valgrind
step asan cmake --workflow --preset asan
step tsan cmake --workflow --preset tsan

echo
echo "race-check summary (tool, verdict, wall time):"
printf '  %s\n' "${summary[@]}"
exit $failed
