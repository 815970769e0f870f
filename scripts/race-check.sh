#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# race-check.sh [-h] [STEP...]
#
# Every race tool over the userspace tests, as CI runs them after the
# default workflow: three clean parallel builds (scripts/clean-build-check.sh),
# then the valgrind workflow (helgrind and DRD on every suite, the
# tortures and their canaries), the asan workflow (ASan+UBSan, every
# userspace test) and the tsan workflow (ThreadSanitizer, every userspace
# test).  Each builds in its own directory (build-valgrind, build-asan,
# build-tsan).  Every step runs even after one fails; the exit status is
# 1 when any failed.  STEPs (clean-build, valgrind, asan, tsan) select
# some; the default is all four.
set -uo pipefail
steps=("$@")
[[ $# -gt 0 ]] || steps=(clean-build valgrind asan tsan)
for s in "${steps[@]}"; do
	case $s in
	clean-build | valgrind | asan | tsan) ;;
	*)
		sed -n '4,16s/^# \{0,1\}//p' "$0"
		[[ $s == -h || $s == --help ]] && exit 0
		exit 2 ;;
	esac
done
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

for s in "${steps[@]}"; do
	case $s in
	clean-build) step clean-build scripts/clean-build-check.sh ;;
	*) step "$s" cmake --workflow --preset "$s" ;;
	esac
done

echo
echo "race-check summary (tool, verdict, wall time):"
printf '  %s\n' "${summary[@]}"
exit $failed
