#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# coverage/userspace.sh BUILD_DIR OUT_DIR
#
# In a build made with the coverage preset, run each kind of suite on its
# own (unit, ddm, torture) and capture one lcov tracefile per kind, named
# after it (lcov's test name), restricted to the project's lib/ files.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
out=$2
rc=$top/coverage/lcovrc
# lcov 1.16 under Debian 12's perl warns about itself; keep real errors.
exec 2> >(grep -v "^Subroutine .* redefined at" >&2)
mkdir -p "$out"

for kind in unit ddm torture; do
	if ! (cd "$build" && ctest -N -L "^$kind\$" | grep -q "Total Tests: [1-9]"); then
		echo "coverage: no $kind tests in this build, skipped"
		continue
	fi
	lcov --config-file "$rc" --quiet --zerocounters --directory "$build"
	(cd "$build" && ctest -L "^$kind\$" --output-on-failure)
	lcov --config-file "$rc" --quiet --capture --directory "$build" \
		--test-name "$kind" --output-file "$out/$kind.raw.info"
	lcov --config-file "$rc" --quiet --extract "$out/$kind.raw.info" \
		"$top/lib/*" --output-file "$out/$kind.info"
	rm -f "$out/$kind.raw.info"
done
