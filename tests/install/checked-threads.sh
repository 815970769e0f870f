#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The installed checked flavour in a program's own threads
# (checked-threads.c): no task struct leaked per thread (LeakSanitizer),
# and a report names the main task as $SHIM_MAIN_TASK_NAME says.
set -eu
build=$1
src=$2
. "$(dirname "$0")/install-prefix.sh"
install_into "$build" install-test-checked
pc=klist-port
libdir=$(pkg-config --variable=libdir $pc)
${CC:-cc} -g -fsanitize=address $(pkg-config --cflags $pc) -o "$prefix/threads" "$src" \
	$(pkg-config --libs $pc)
LD_LIBRARY_PATH=$libdir ASAN_OPTIONS=detect_leaks=1 "$prefix/threads"
if LD_LIBRARY_PATH=$libdir SHIM_MAIN_TASK_NAME=registry-main ASAN_OPTIONS=detect_leaks=0 \
	"$prefix/threads" misuse > "$prefix/misuse.log" 2>&1; then
	echo "a misuse did not abort"; exit 1
fi
grep -q "task: registry-main" "$prefix/misuse.log" ||
	{ cat "$prefix/misuse.log"; echo "the report does not name the main task"; exit 1; }
echo "checked flavour: main task named by SHIM_MAIN_TASK_NAME: ok"
