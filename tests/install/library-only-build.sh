#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# -DBUILD_TESTING=OFF configures and builds just the libraries: with
# pkg-config (so Check) made unfindable, no kernel tree, no valgrind.
set -eu
src=$1
dir=$2
rm -rf "$dir"
cmake -S "$src" -B "$dir" -DBUILD_TESTING=OFF -DKLIST_QEMU=OFF \
	-DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON \
	-DKLIST_KERNEL_TARBALL=/nonexistent >/dev/null
cmake --build "$dir" -j2 >/dev/null
cmake --install "$dir" --prefix "$dir/prefix" >/dev/null
for f in include/klist-port/klist-port/klist.h include/klist-port-fast/klist-port/klist.h; do
	test -f "$dir/prefix/$f" || { echo "not installed: $f"; exit 1; }
done
n=$(find "$dir" -name '*.o' | wc -l)
ls "$dir"/libklist-port.so "$dir"/fast/libklist-port-fast.so >/dev/null
! grep -q '^CHECK_FOUND' "$dir/CMakeCache.txt"
echo "library-only build: libraries and headers, $n objects, no Check: ok"
