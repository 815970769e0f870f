#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunit-tool-unpack.sh TARBALL DIR
#	Unpack only tools/testing/kunit (kunit.py and its parser) from the
#	Debian linux-source-6.1 tarball into DIR, once: the userspace build
#	needs the kernel's KTAP parser, not a kernel tree.  Exit 77 (ctest:
#	skipped) when the tarball is not installed.
set -euo pipefail

tarball=$1
dir=$2
stamp=$dir/.unpacked

if [ -e "$stamp" ] && [ "$(cat "$stamp")" = "$tarball" ]; then
	exit 0
fi
if [ ! -r "$tarball" ]; then
	echo "kunit-tool-unpack: $tarball not found (apt-get install linux-source-6.1)" >&2
	exit 77
fi
rm -rf "$dir"
mkdir -p "$dir"
tar -xJf "$tarball" -C "$dir" --wildcards '*/tools/testing/kunit/*'
echo "$tarball" > "$stamp"
