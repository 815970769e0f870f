#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# herd7-compare.sh: klist-litmus's LKMM checker against herd7 itself, both
# running the 6.1 tree's linux-kernel.cat, test by test.  A measurement
# tool (docs/lkmm-checker.md says how herd7 was built): not a dependency
# of the project, not run by CI.
#
# Usage: herd7-compare.sh --herd HERD7 --mm DIR --klist-litmus BIN
#                         [--herd-libdir DIR] [--herd-timeout S] [--timeout S] FILE...
#   --herd          the herd7 executable
#   --mm            the 6.1 tree's tools/memory-model (linux-kernel.cfg
#                   and the .cat/.bell/.def files it names)
#   --klist-litmus  our checker
#   --herd-libdir   herd7's own libdir (its herd/libdir in a source tree)
# Prints one line per test: FILE, the file's Result:, herd7's verdict,
# ours ("herd7-timeout" when herd7 did not decide), then a summary.
# Exits 1 when a verdict both decided differs, 2 on bad usage.
set -u

usage()
{
	sed -n '/^# Usage:/,/^# Exits/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

herd='' mm='' ours='' libdir='' htimeout=60 otimeout=20
while [ $# -gt 0 ]; do
	case $1 in
	--herd) herd=${2:-}; shift 2 ;;
	--mm) mm=${2:-}; shift 2 ;;
	--klist-litmus) ours=${2:-}; shift 2 ;;
	--herd-libdir) libdir=${2:-}; shift 2 ;;
	--herd-timeout) htimeout=${2:-}; shift 2 ;;
	--timeout) otimeout=${2:-}; shift 2 ;;
	--) shift; break ;;
	-*) echo "herd7-compare: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ -x "$herd" ] || { echo "herd7-compare: --herd: no executable '$herd'" >&2; usage; }
[ -f "$mm/linux-kernel.cfg" ] || { echo "herd7-compare: --mm: no linux-kernel.cfg in '$mm'" >&2; usage; }
[ -x "$ours" ] || { echo "herd7-compare: --klist-litmus: no executable '$ours'" >&2; usage; }
[ $# -gt 0 ] || { echo "herd7-compare: no litmus file given" >&2; usage; }
case $htimeout$otimeout in *[!0-9]*) echo "herd7-compare: a timeout is a number of seconds" >&2; usage ;; esac

herd_args=(-conf linux-kernel.cfg)
[ -n "$libdir" ] && herd_args=(-I "$libdir" "${herd_args[@]}")

same=0 differ=0 undecided=0
for f in "$@"; do
	path=$(realpath "$f")
	result=$(grep -m1 -oE "Result: *[A-Za-z]+( DATARACE)?" "$path" | sed 's/Result: *//')
	# Our first line: "NAME Verdict[ DATARACE] (counts...)".
	mine=$(timeout "$otimeout" "$ours" "$path" 2>&1 | head -1 |
	       sed -E 's/^[^ ]+ //; s/ \(.*//')
	out=$(cd "$mm" && timeout "$htimeout" "$herd" "${herd_args[@]}" "$path" 2>&1)
	theirs=$(printf '%s\n' "$out" | awk '/^Observation/ { print $3 }')
	if [ -z "$theirs" ]; then
		theirs=herd7-timeout
		undecided=$((undecided + 1))
	else
		printf '%s\n' "$out" | grep -q '^Flag data-race' && theirs="$theirs DATARACE"
		if [ "$theirs" = "$mine" ]; then
			same=$((same + 1))
		else
			differ=$((differ + 1))
		fi
	fi
	printf '%s\t%s\t%s\t%s\n' "$f" "${result:--}" "$theirs" "${mine:--}"
done
echo "herd7-compare: $# tests: $same the same verdict, $differ differ, $undecided not decided by herd7 in ${htimeout} s" >&2
[ "$differ" -eq 0 ]
