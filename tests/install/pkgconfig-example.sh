#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the library into a scratch prefix, then build and run the
# example against it through pkg-config, static and shared, as a user
# would; then a program that uses the system's own <linux/...> headers
# beside klist's, and every installed header on its own.
set -eu
build=$1
example=$2
syshdr=$3
. "$(dirname "$0")/install-prefix.sh"
install_into "$build" install-test
test ! -e "$prefix/include/linux"		# never beside the system's headers
test -s "$prefix/share/doc/klist-port/LICENSES/GPL-2.0"

# Both flavours: klist-port (checked, the shim) and klist-port-fast.
for pc in klist-port klist-port-fast; do
	# The kernel-style headers (compat/) are opt-in: these programs are
	# kernel-style code.
	cflags="$(pkg-config --cflags $pc) $(pkg-config --variable=compat_cflags $pc)"
	libs=$(pkg-config --libs $pc)
	libdir=$(pkg-config --variable=libdir $pc)
	test -f "$prefix/include/$pc/compat/linux/klist.h"
	${CC:-cc} ${CFLAGS:-} $cflags -o "$prefix/walk-shared-$pc" "$example" $libs
	LD_LIBRARY_PATH=$libdir "$prefix/walk-shared-$pc"
	${CC:-cc} ${CFLAGS:-} $cflags -o "$prefix/walk-static-$pc" "$example" \
		"$libdir/lib$pc.a" -pthread
	"$prefix/walk-static-$pc"

	# The system's <linux/input.h> needs the UAPI __u16 that <linux/types.h>
	# gives: the installed headers must not hide it.
	${CC:-cc} ${CFLAGS:-} -Wall -Wextra -Werror $cflags \
		-o "$prefix/system-headers-$pc" "$syshdr" $libs
	LD_LIBRARY_PATH=$libdir "$prefix/system-headers-$pc"
	(
		cd "$prefix/include/$pc/compat"
		for h in linux/*.h linux/*/*.h; do
			[ -e "$h" ] || continue
			echo "#include <$h>" | ${CC:-cc} ${CFLAGS:-} -Wall -Wextra -Werror \
				$cflags -x c -fsyntax-only - ||
				{ echo "installed $pc $h does not compile alone"; exit 1; }
		done
		echo "pkg-config $pc: example (shared, static), system headers, $(ls linux/*.h linux/*/*.h | wc -l) headers alone: ok"
	)
done
