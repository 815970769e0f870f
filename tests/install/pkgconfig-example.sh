#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the library into a scratch prefix, then build and run the
# example against it through pkg-config, static and shared, as a user would.
set -eu
build=$1
example=$2
prefix=$build/install-test
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib64/pkgconfig:$prefix/lib/x86_64-linux-gnu/pkgconfig"
cflags=$(pkg-config --cflags klist-port)
libs=$(pkg-config --libs klist-port)
libdir=$(pkg-config --variable=libdir klist-port)
test -f "$prefix/include/klist-port/linux/klist.h"
test ! -e "$prefix/include/linux"		# never beside the system's headers
${CC:-cc} ${CFLAGS:-} $cflags -o "$prefix/walk-shared" "$example" $libs
LD_LIBRARY_PATH=$libdir "$prefix/walk-shared"
${CC:-cc} ${CFLAGS:-} $cflags -o "$prefix/walk-static" "$example" "$libdir/libklist-port.a" -pthread
"$prefix/walk-static"
