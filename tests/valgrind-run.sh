#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# valgrind-run.sh VALGRIND-ARGS... PROGRAM ARGS...
#
# Runs valgrind with one log file per process, then prints every log on
# stderr and exits with valgrind's status.  A test that forks a child
# (shim_run_in_child) is then told where the child's log is
# (SHIM_TOOL_LOG), so a child killed by the tool's error exit fails with
# the tool's report as its title instead of an empty one.
set -u
logs=$(mktemp -d "${TMPDIR:-/tmp}/valgrind-run.XXXXXX") || exit 2
SHIM_TOOL_LOG="$logs/%p.log"
export SHIM_TOOL_LOG
valgrind --log-file="$logs/%p.log" "$@"
rc=$?
for f in "$logs"/*.log; do
	[ -e "$f" ] && cat "$f" >&2
done
rm -rf "$logs"
exit $rc
