#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# clean-build-check.sh [-n ROUNDS] [-j JOBS] [DIR]
#
# Configures the userspace preset from scratch and builds every target,
# ROUNDS times (1) with -jJOBS (4), in DIR (a new path, removed between
# rounds and at the end; default a temporary directory).  A custom command whose output several
# targets use runs once per target in a parallel Makefile build, at the
# same time, unless one custom target drives it; such a race fails a
# clean build only sometimes, hence the rounds.
set -euo pipefail
usage() {
	sed -n '4,11s/^# \{0,1\}//p' "$0"
	exit "${1:-2}"
}
[[ ${1:-} == --help || ${1:-} == -h ]] && usage 0
rounds=1 jobs=4
while getopts n:j:h opt; do
	case $opt in
	n) rounds=$OPTARG ;;
	j) jobs=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[[ $rounds =~ ^[1-9][0-9]*$ && $jobs =~ ^[1-9][0-9]*$ ]] || usage
[[ $# -le 1 ]] || usage
src=$(cd "$(dirname "$0")/.." && pwd)
if [[ $# -eq 1 ]]; then
	# It is removed: never an existing directory someone may need.
	[[ ! -e $1 ]] || { echo "clean-build-check: $1 exists; give a new path" >&2; exit 2; }
	dir=$1
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/clean-build.XXXXXX")
fi
trap 'rm -rf "$dir"' EXIT

for ((i = 1; i <= rounds; i++)); do
	rm -rf "$dir"
	start=$SECONDS
	if ! (cd "$src" && cmake --preset userspace -B "$dir") >"$dir.log" 2>&1 ||
	   ! cmake --build "$dir" -j"$jobs" >>"$dir.log" 2>&1; then
		tail -40 "$dir.log"
		echo "clean-build-check: round $i of $rounds FAILED (log above)"
		rm -f "$dir.log"
		exit 1
	fi
	echo "clean-build-check: round $i of $rounds: every target built from scratch with -j$jobs in $((SECONDS - start)) s"
done
rm -f "$dir.log"
echo "clean-build-check: PASS ($rounds clean builds)"
