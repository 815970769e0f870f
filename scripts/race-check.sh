#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# race-check.sh [-h] [STEP...]
#
# Every race tool over the userspace tests, as CI runs them after the
# default workflow: a clean parallel build of the userspace preset
# (scripts/clean-build-check.sh),
# then the valgrind workflow (helgrind and DRD on every suite, the
# tortures and their canaries), the asan workflow (ASan+UBSan, every
# userspace test) and the tsan workflow (ThreadSanitizer, every userspace
# test).  Each builds in its own directory (build-valgrind, build-asan,
# build-tsan).  Every step runs even after one fails; the exit status is
# 1 when any failed.  STEPs (clean-build, valgrind, asan, tsan) select
# some; the default is all four.  A failed step's last lines (its errors
# and failing tests, without ctest's lines for passing tests) are printed
# again after the summary: CI keeps only the end of what a job prints.
set -uo pipefail
steps=("$@")
[[ $# -gt 0 ]] || steps=(clean-build valgrind asan tsan)
for s in "${steps[@]}"; do
	case $s in
	clean-build | valgrind | asan | tsan) ;;
	*)
		sed -n '4,17s/^# \{0,1\}//p' "$0"
		[[ $s == -h || $s == --help ]] && exit 0
		exit 2 ;;
	esac
done
cd "$(dirname "$0")/.." || exit 2

summary=() failed=0 failed_steps=()
logs=$(mktemp -d "${TMPDIR:-/tmp}/race-check.XXXXXX") || exit 2
trap 'rm -rf "$logs"' EXIT
step() {
	local name=$1 start=$SECONDS rc
	shift
	echo "race-check: $name: $*"
	"$@" 2>&1 | tee "$logs/$name.log"
	rc=${PIPESTATUS[0]}
	summary+=("$(printf '%-12s %-4s %5d s' "$name" \
		"$([[ $rc -eq 0 ]] && echo PASS || echo FAIL)" $((SECONDS - start)))")
	[[ $rc -eq 0 ]] || { failed=1; failed_steps+=("$name"); }
}

# What made a step fail, short: no ctest line about a test that passed.
failure_tail() {
	grep -v -E '^ +Start +[0-9]+: |Test +#[0-9]+: .* (Passed|Skipped)|^\[ *[0-9]+%\] ' \
		"$logs/$1.log" | tail -n 60
}

for s in "${steps[@]}"; do
	case $s in
	clean-build) step clean-build scripts/clean-build-check.sh ;;
	*) step "$s" cmake --workflow --preset "$s" ;;
	esac
done

for name in "${failed_steps[@]}"; do
	echo
	echo "race-check: $name FAILED; the end of its output:"
	failure_tail "$name" | sed 's/^/  | /'
done
echo
echo "race-check summary (tool, verdict, wall time):"
printf '  %s\n' "${summary[@]}"
exit $failed
