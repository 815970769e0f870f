#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The installed public header, each flavour, through pkg-config: a C11
# -pedantic and a C++17 program compile without a warning and run
# (public-header-user.c), and a file that includes only the system's
# <linux/sched.h> preprocesses the same with and without the Cflags.
set -eu
build=$1
user=$2
. "$(dirname "$0")/install-prefix.sh"
install_into "$build" install-test-public
warn="-Wall -Wextra -Werror -pedantic"
for pc in klist-port klist-port-fast; do
	cflags=$(pkg-config --cflags $pc)
	libs=$(pkg-config --libs $pc)
	libdir=$(pkg-config --variable=libdir $pc)
	# No linux/, asm/ or kernel-style directory on the include path.
	for d in $(echo "$cflags" | tr ' ' '\n' | sed -n 's/^-I//p'); do
		for sub in linux asm shim kfast; do
			test ! -e "$d/$sub" || { echo "$pc: $d/$sub is on the include path"; exit 1; }
		done
	done
	printf '#include <linux/sched.h>\nint current = 1;\n' > "$prefix/sched-only.c"
	${CC:-cc} -E -P "$prefix/sched-only.c" > "$prefix/sched-plain.i"
	${CC:-cc} -E -P $cflags "$prefix/sched-only.c" > "$prefix/sched-$pc.i"
	cmp -s "$prefix/sched-plain.i" "$prefix/sched-$pc.i" ||
		{ echo "$pc: <linux/sched.h> differs with the Cflags"; exit 1; }
	${CC:-cc} ${CFLAGS:-} -std=c11 $warn $cflags -o "$prefix/user-c11-$pc" "$user" $libs
	LD_LIBRARY_PATH=$libdir "$prefix/user-c11-$pc"
	${CXX:-c++} -std=c++17 $warn $cflags -x c++ -o "$prefix/user-cxx17-$pc" "$user" \
		-x none $libs
	LD_LIBRARY_PATH=$libdir "$prefix/user-cxx17-$pc"
	echo "$pc: C11 -pedantic, C++17, <linux/sched.h> untouched: ok"
done
